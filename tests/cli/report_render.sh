# CLI test: the report renders in headless Chromium at desktop and phone
# widths.  Skipped where chromium is not installed (.ci/run installs it).
. tests/cli/lib.sh

what="report: renders in headless chromium"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	echo "SKIP $what: chromium is not installed"
	exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out" "$err"' EXIT

run report --quick --seconds 1 -q -o "$dir/r.html"
expect "report for rendering" sh -c "[ $rc -eq 0 ] && [ -s '$dir/r.html' ]"

# shot WIDTH: a PNG of the page at that width.  --no-sandbox: CI runs as
# root, where Chromium's sandbox refuses to start; the page is our own.
shot() {
	timeout 60 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$dir/profile" --screenshot="$dir/shot-$1.png" \
		--window-size="$1,2000" "file://$dir/r.html" >"$dir/log-$1" 2>&1
	status=$?
	# A PNG: the 8-byte signature, and more than a blank page's few bytes.
	[ $status -eq 0 ] && [ "$(head -c 8 "$dir/shot-$1.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
		[ "$(wc -c <"$dir/shot-$1.png")" -gt 20000 ]
}
for w in 1280 390; do
	if shot $w; then
		echo "PASS $what at $w px"
	else
		echo "FAIL $what at $w px: status $status"
		tail -3 "$dir/log-$w" | sed 's/^/  /'
	fi
done
