# CLI tests: the files bench -o, report -o and report --json write
# (programs/writers/outfile.c).  The path is checked before anything is measured; only
# a regular file is written (through a symlink); the old file stays as it was
# until the new one is complete, also when the run is killed; nothing is left
# behind.  calibrate -o, the same code, is tested in calibrate.sh.
. tests/cli/lib.sh

dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out" "$err"' EXIT
XDG_CACHE_HOME=$dir/cache
export XDG_CACHE_HOME

# timed ARGS...: run, but give up after 10 s (a FIFO used to block).
timed() {
	timeout 10 "$UCOPY" "$@" >"$out" 2>"$err"
	rc=$?
}
no_litter() {
	expect "$1: nothing left behind" sh -c "[ -z \"\$(ls -A '$dir' | grep '^\\.')\" ]"
}

mkfifo "$dir/fifo"
for cmd in "bench --kernels byte --sizes 8 --seconds 30 -o" "report --quick --seconds 30 -o" \
	   "report --quick --seconds 30 -o $dir/page.html --json"; do
	what="${cmd%% *} ${cmd##* }"
	timed $cmd /dev/null
	expect "$what /dev/null is refused at once" is_usage_error "cannot write '/dev/null': a character device"
	expect "$what /dev/null: still the device" [ -c /dev/null ]
	timed $cmd "$dir/fifo"
	expect "$what FIFO is refused at once" is_usage_error "cannot write '$dir/fifo': a FIFO"
	expect "$what FIFO: still a FIFO" [ -p "$dir/fifo" ]
	timed $cmd "$dir"
	expect "$what DIRECTORY is refused at once" is_usage_error "cannot write '$dir': a directory"
	timed $cmd "$dir/missing/file"
	expect "$what in a missing directory is refused at once" \
		is_usage_error "cannot write '$dir/missing/file': No such file or directory"
done
[ -e "$dir/page.html" ] && echo "FAIL report: a refused --json left the page" || echo "PASS report: a refused --json leaves no page"

# Through a symlink to its target; a new file as the umask says.
echo old >"$dir/target"
ln -s target "$dir/link"
run bench --kernels byte --sizes 8 --seconds 0.01 --format json -q -o "$dir/link"
expect "bench -o SYMLINK writes the file it points to" \
	sh -c "[ $rc -eq 0 ] && [ -L '$dir/link' ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$dir/target'"
(umask 027; "$UCOPY" bench --kernels byte --sizes 8 --seconds 0.01 -q -o "$dir/new" >"$out" 2>"$err")
rc=$?
expect "bench -o NEW: created as the umask says" sh -c "[ $rc -eq 0 ] && [ \$(stat -c %a '$dir/new') = 640 ]"
chmod 604 "$dir/new"
run bench --kernels byte --sizes 8 --seconds 0.01 -q -o "$dir/new"
expect "bench -o EXISTING keeps its mode" sh -c "[ $rc -eq 0 ] && [ \$(stat -c %a '$dir/new') = 604 ]"
no_litter "bench -o"

# A run that is killed (or fails) leaves the old file: it used to be
# truncated before the measuring began.
killed() {
	what=$1; shift
	echo old >"$dir/keep"
	"$UCOPY" "$@" >/dev/null 2>&1 &
	pid=$!
	sleep 1
	kill -TERM $pid
	wait $pid 2>/dev/null
	expect "$what: a killed run leaves the old file" grep -qx old "$dir/keep"
	no_litter "$what, killed"
}
killed "bench -o" bench --kernels byte --sizes 8 --seconds 20 -q -o "$dir/keep"
killed "report -o" report --quick --seconds 20 -q -o "$dir/keep"
killed "report --json" report --quick --seconds 20 -q -o "$dir/page.html" --json "$dir/keep"
[ -e "$dir/page.html" ] && echo "FAIL report: a killed run left a page" || echo "PASS report: a killed run leaves no page"

usage_error "report: --json and -o the same file by another name" "bad --json path '$dir/./page.html'" \
	report -o "$dir/page.html" --json "$dir/./page.html"

# A policy naming a kernel the CPU does not run (here: the mask removes its
# feature) would time another kernel under its name: refused in one line.
# The message names what the mask removed only where that is the cause:
# not erms, removed beside it, which avx512 does not need; nothing on a CPU
# without the feature.
case $(ucopy_arch) in
aarch64) unrunnable=mops feature=mops other= ;;
*) unrunnable=avx512 feature=avx512f other=erms ;;
esac
has() {
	UCOPY_FEATURES= "$UCOPY" features --json |
		python3 -c 'import json,sys; sys.exit(sys.argv[1] not in json.load(sys.stdin)["features"])' "$1"
}
mask=-$feature
if [ -n "$other" ] && has "$other"; then mask="$mask,-$other"; fi
if has "$feature"; then why=" (UCOPY_FEATURES removed $feature)"; else why=''; fi
UCOPY_FEATURES=$mask run bench --policies "64:$unrunnable,word" --sizes 64 --seconds 0.05 -q
expect "bench: a policy naming a kernel this CPU does not run is refused, in one line ($mask)" \
	is_usage_error "bad policy '64:$unrunnable,word': it names kernels this CPU does not run: $unrunnable -> [^;(]*([^;)]*)$why; name those"
[ -n "$why" ] || expect "bench: the mask is not named where the CPU lacks the feature" \
	sh -c "! grep -q 'UCOPY_FEATURES removed' '$err'"
UCOPY_FEATURES=$mask run bench --kernels "$unrunnable" --sizes 64 --seconds 0.05 -q
expect "bench: a kernel this CPU does not run is refused, in one line ($mask)" \
	is_usage_error "kernel '$unrunnable' needs [a-z0-9_,]*$feature[a-z0-9_,]*, which this CPU lacks$why (try"
