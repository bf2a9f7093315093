# CLI tests: a failed write to stdout fails the run (programs/commands/main.c,
# cli_stdout_check).  Every command and every way of asking for text is run
# with stdout on /dev/full, where each write fails with ENOSPC: the status
# must be 1 with one message on stderr saying so.  features, help, --version
# and compare --list-workloads used to exit 0 there, their output lost.
. tests/cli/lib.sh

if ! [ -c /dev/full ] || printf x 2>/dev/null >/dev/full; then
	echo "SKIP stdout write errors: no /dev/full that fails writes"
	exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out" "$err"' EXIT
XDG_CACHE_HOME=$dir/cache
export XDG_CACHE_HOME

# full NAME ARGS...: ucopy ARGS with stdout on /dev/full.  The reason is the
# failed write's (ENOSPC) when the last flush fails, and "a write failed"
# when an earlier write already lost the output (a long report page).
full() {
	name=$1; shift
	"$UCOPY" "$@" >/dev/full 2>"$err"
	rc=$?
	: >"$out"
	expect "$name: a full stdout fails the run" sh -c "[ $rc -eq 1 ] &&
		[ \$(wc -l <'$err') -eq 1 ] &&
		grep -Eq '^ucopy: cannot write to stdout: (No space left on device|a write failed)\$' '$err'"
}

full "features" features
full "features --json" features --json
full "help" help
full "--help" --help
full "-h" -h
full "--version" --version
for cmd in features bench compare calibrate report; do
	full "help $cmd" help $cmd
	full "$cmd --help" $cmd --help
done
full "compare --list-workloads" compare --list-workloads
full "bench --list-dists" bench --list-dists
full "bench (table)" bench --kernels byte --sizes 8 --seconds 0.01 -q
full "bench --format json" bench --kernels byte --sizes 8 --seconds 0.01 -q --format json
full "bench --format csv" bench --kernels byte --sizes 8 --seconds 0.01 -q --format csv
case $(ucopy_arch) in
aarch64) pa=arm64-4.19 pb=arm64-5.15 ;;
*) pa=linux-6.3 pb=linux-6.4 ;;
esac
full "compare" compare $pa $pb --sizes 64 --runs 20 -q
full "compare --json" compare $pa $pb --sizes 64 --runs 20 -q --json
full "calibrate (its summary)" calibrate --seconds 0.2 --max-size 4K -o "$dir/profile"
full "report -o -" report --quick --seconds 0.5 -q -o - --json "$dir/r.json"

# A stdout that is closed fails as well (EBADF), and a run that writes
# nothing to stdout does not.
"$UCOPY" --version >&- 2>"$err"
rc=$?
expect "--version with stdout closed fails" sh -c "[ $rc -eq 1 ] && grep -q 'cannot write to stdout' '$err'"
"$UCOPY" bench --kernels byte --sizes 8 --seconds 0.01 -q -o "$dir/b.txt" >&- 2>"$err"
rc=$?
expect "bench -o FILE with stdout closed: nothing to write, exit 0" sh -c "[ $rc -eq 0 ] && [ ! -s '$err' ]"
