# CLI tests: tests/bench_layouts.sh (make bench-layouts): its summary on
# known ratios, one tiny run through two "layouts" (links to the command under
# test), and its refusals.  Shapes and exact arithmetic, never timings.
. tests/cli/lib.sh
# What the caller may have set for make bench-layouts.
unset LAYOUT_RUNS LAYOUT_SECONDS LAYOUT_SEED

dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out" "$err"' EXIT
script=tests/bench_layouts.sh

# runs SCRIPT ARGS..., stdout in $out, stderr in $err, status in $rc.
layouts() {
	"$script" "$@" >"$out" 2>"$err"
	rc=$?
}

printf '%s\n' 'M_a repeated 64 1.0' 'M_a repeated 1088 1.2' 'M_a repeated 2240 0.9' \
	'M_a repeated 3392 1.1' 'M_b repeated 3392 0.7' 'M_b repeated 64 0.8' \
	'M_b repeated 1088 0.8' 'M_b repeated 2240 0.9' 'M_a unlearnable 64 0.5' \
	'M_a unlearnable 1088 0.4' 'M_a unlearnable 2240 0.6' >"$dir/four"
layouts --summary 4 <"$dir/four"
expect "bench_layouts: median of an even count is the mean of the middle two, in pad order" \
	grep -qx 'M_a           repeated     1.000 1.200 0.900 1.100  median 1.050  range 0.900-1.200' "$out"
expect "bench_layouts: rows come in pad order whatever the input order" \
	grep -qx 'M_b           repeated     0.800 0.800 0.900 0.700  median 0.800  range 0.700-0.900' "$out"
expect "bench_layouts: median of an odd count is the middle one" \
	grep -qx 'M_a           unlearnable  0.500 0.400 0.600  median 0.500  range 0.400-0.600' "$out"
expect "bench_layouts: geomean of the medians and the worst median per regime" sh -c "
	grep -qx 'repeated: geomean of the medians 0.917, worst median 1.050 (M_a), over 4 layouts' '$out' &&
	grep -qx 'unlearnable: geomean of the medians 0.500, worst median 0.500 (M_a), over 4 layouts' '$out' &&
	[ \$(wc -l <'$out') -eq 5 ]"

# Two layouts that are the same command: the run's shape.
case $UCOPY in /*) abs=$UCOPY ;; *) abs=$PWD/$UCOPY ;; esac
mkdir "$dir/bin" "$dir/data"
ln -s "$abs" "$dir/bin/ucopy-p1" && ln -s "$abs" "$dir/bin/ucopy-p2"
printf '8 1\n100 2\n' >"$dir/data/tiny.csv"
UCOPY_DATA_DIR=$dir/data LAYOUT_SECONDS=0.1 layouts "$dir/bin" 1 2
expect "bench_layouts: a run gives both regimes of each file over every layout" sh -c "[ $rc -eq 0 ] &&
	grep -Eq '^tiny +repeated +[0-9.]+ [0-9.]+  median [0-9.]+  range [0-9.]+-[0-9.]+\$' '$out' &&
	grep -Eq '^tiny +unlearnable +[0-9.]+ [0-9.]+  median ' '$out' &&
	grep -q '^repeated: geomean of the medians [0-9.]*, worst median [0-9.]* (tiny), over 2 layouts\$' '$out' &&
	grep -q '^unlearnable: geomean of the medians' '$out'"

UCOPY_DATA_DIR=$dir/data LAYOUT_SECONDS=0.1 LAYOUT_RUNS=2 layouts "$dir/bin" 1 2
expect "bench_layouts: LAYOUT_RUNS=2 runs every layout twice, and the median is over the four runs" sh -c "[ $rc -eq 0 ] &&
	grep -Eq '^tiny +repeated +[0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+  median [0-9.]+  range ' '$out' &&
	grep -q '^repeated: geomean of the medians [0-9.]*, worst median [0-9.]* (tiny), over 4 runs (2 layouts, 2 runs of each)\$' '$out'"
for bad in 0 10 x; do
	UCOPY_DATA_DIR=$dir/data LAYOUT_RUNS=$bad layouts "$dir/bin" 1
	expect "bench_layouts: LAYOUT_RUNS=$bad is refused by name" sh -c "[ $rc -eq 2 ] &&
		grep -q \"bad LAYOUT_RUNS '$bad' (expected 1..9)\" '$err' && [ ! -s '$out' ]"
done
UCOPY_DATA_DIR=$dir/data LAYOUT_SECONDS=abc layouts "$dir/bin" 1
expect "bench_layouts: a bad LAYOUT_SECONDS is refused by name" sh -c "[ $rc -eq 2 ] &&
	grep -q \"bad LAYOUT_SECONDS 'abc'\" '$err'"
UCOPY_DATA_DIR=$dir/data LAYOUT_SEED=-1 layouts "$dir/bin" 1
expect "bench_layouts: a bad LAYOUT_SEED is refused by name" sh -c "[ $rc -eq 2 ] &&
	grep -q \"bad LAYOUT_SEED '-1'\" '$err'"
# The command refuses a budget of 0: the script must not print a summary of
# nothing as if it had measured.
UCOPY_DATA_DIR=$dir/data LAYOUT_SECONDS=0 layouts "$dir/bin" 1
expect "bench_layouts: a bench that fails fails the run, with no summary" sh -c "[ $rc -ne 0 ] &&
	! grep -q geomean '$out'"
