# auto's derived rows: lib/x86_64/rows.c is what `make rows` writes from the
# corpus with this build's derivation, and the library takes them.
. tests/cli/lib.sh
only_arch x86_64 "the corpus's machines and the generated table are x86-64's"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT

run derive --rows data/machines -o "$tmp/rows.c"
expect "rows: the corpus derives a table" [ "$rc" -eq 0 ]
expect "rows: lib/x86_64/rows.c is what the corpus derives (run make rows)" \
	cmp -s lib/x86_64/rows.c "$tmp/rows.c"
names_reports() {
	for d in data/machines/*/; do
		d=${d%/}
		ls "$d"/report-*.json.gz >/dev/null 2>&1 || continue
		want=$(cd "$d" && ls report-*.json.gz | sort | tr '\n' ' ' | sed 's/ $//')
		grep -qxF " *   $d: $want" "$tmp/rows.c" || return 1
	done
}
expect "rows: the table names every folder's reports it came from" names_reports

# auto on each corpus CPU is its derived row's policy, and says so.
policy_is() {
	got=$(sed -n 's/^policy    //p' "$out")
	[ -n "$got" ] && grep -qF "\"$got\" }," "$tmp/rows.c" && grep -q "$1" "$out" &&
		grep -q "derived from data/machines/$2" "$out"
}
run features --cpu amd:25:17 --assume-features none,sse2,avx2,avx512f,avx512bw,avx512vl,erms,fsrm --caches 1M,32M
expect "rows: auto on AMD 25/17 is its derived row" policy_is "(Zen 4)" amd-25-17
run features --cpu amd:26:2 --assume-features none,sse2,avx2,avx512f,avx512bw,avx512vl,erms,fsrm --caches 1M,508M
expect "rows: auto on AMD 26/2 is its derived row" policy_is "(Zen 5)" amd-26-2

# The default row's shape is stated twice, in the library (policies.c) and
# in the derivation (programs/core/default_row.c): the policy the table says
# the default row gives each machine is what the library's default row
# gives that CPU (its features and caches, under a family no row is keyed by).
default_agrees() {
	for d in data/machines/*/; do
		d=${d%/}
		[ -e "$d/report-1.json.gz" ] || continue
		want=$(sed -n "s|^ \*   $d gets ||p" lib/x86_64/rows.c)
		args=$(zcat "$d/report-1.json.gz" | python3 -c '
import json, sys
m = json.load(sys.stdin)["machine"]
print("%s:0:%d --assume-features none,%s --caches %d,%d" % (m["cpu"]["vendor"], m["cpu"]["model"],
      ",".join(m["features"]), m["caches"]["l2"], m["caches"]["l3"]))')
		# shellcheck disable=SC2086
		got=$("$UCOPY" features --cpu $args | sed -n 's/^policy    //p')
		[ -n "$want" ] && [ "$want" = "$got" ] || { echo "$d: table '$want', library '$got'"; return 1; }
	done
}
expect "rows: the default row the table states is the library's on every corpus CPU" default_agrees

# A corpus file of another schema stops the table, or is skipped by name.
mkdir -p "$tmp/corpus/amd-25-17"
cp data/machines/families.txt "$tmp/corpus/"
cp data/machines/amd-25-17/report-*.json.gz "$tmp/corpus/amd-25-17/"
zcat data/machines/amd-25-17/report-1.json.gz |
	python3 -c 'import json, sys; d = json.load(sys.stdin); d["schema"] = 9; json.dump(d, sys.stdout)' |
	gzip >"$tmp/corpus/amd-25-17/report-3.json.gz"
usage_error "rows: a report of another schema stops it" "report-3.json.gz: schema 9" \
	derive --rows "$tmp/corpus" -o "$tmp/bad.c"
expect "rows: ... and writes nothing" [ ! -e "$tmp/bad.c" ]
run derive --rows "$tmp/corpus" --allow-missing -o "$tmp/skip.c"
skipped() {
	[ "$rc" -eq 0 ] && grep -q "report-3.json.gz: schema 9.*skipped" "$err" &&
		grep -q "(2 reports" "$tmp/skip.c"
}
expect "rows: --allow-missing names it and derives from the rest" skipped
rm "$tmp/corpus/amd-25-17/report-3.json.gz"
printf 'AuthenticAMD 0x19 0x10-0x1f\n' >"$tmp/corpus/families.txt"
usage_error "rows: a bad families.txt line" "families.txt:1: expected VENDOR FAMILY MODELS NAME" \
	derive --rows "$tmp/corpus" -o "$tmp/bad.c"
usage_error "rows: --rows with reports" "--rows reads the corpus folder itself" \
	derive --rows data/machines data/machines/amd-25-17/report-1.json.gz
usage_error "rows: -o without --rows" "-o writes --rows's table" \
	derive -o "$tmp/x.c" data/machines/amd-25-17/report-1.json.gz
