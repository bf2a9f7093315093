# CLI tests: tests/bench_bars.c's verdict over several processes (make
# bench): its summary on known lines, its refusals, and one tiny run of two
# processes whose summary must agree with their own lines.  Shapes and
# exact logic, never timings.
. tests/cli/lib.sh
# What the caller's environment may hold for a run of make bench.
unset UCOPY_BARS_ARM UCOPY_BARS_PROCESSES UCOPY_BARS_PROFILE UCOPY_BARS_SECONDS

bars=$B/tests/bench_bars
if [ ! -x "$bars" ]; then
	echo "SKIP $(basename "$0"): $bars is not built here (make check builds it natively)"
	exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out" "$err"' EXIT

# runs bench_bars ARGS..., stdout in $out, stderr in $err, status in $rc.
bb() {
	"$bars" "$@" >"$out" 2>"$err"
	rc=$?
}

printf '%s\n' 'BAR 1 [default] fixed sizes: 1.2x: FAIL' 'BAR 2 [default] distributions, a (8192 copies): 0.9x: PASS' \
	'a line of a table' 'BAR 1 [default] fixed sizes: 0.9x: PASS' \
	'BAR 2 [default] distributions, a (8192 copies): 1.1x: MARGINAL' 'BAR 1 [default] fixed sizes: 1.3x: FAIL' \
	'BAR 2 [default] distributions, a (8192 copies): 1.2x: FAIL' 'BAR 2 [default] distributions, a (8192 copies): 0.8x: PASS' \
	'BAR 5 [default] ucopy_try: SKIPPED (no other bar ran)' \
	'BAR 3 [default] no cliff: 1.2x (host: 5 of 6 cells began on a slowed core): FAIL' \
	'BAR 3 [default] no cliff: 1.1x (host: 0 of 6 cells began on a slowed core): PASS' \
	'BAR * [calibrated]: SKIPPED (the profile was not loaded: x.profile: no such file)' >"$dir/lines"
bb --summarize <"$dir/lines"
expect "bench_bars --summarize: an odd count's median is the middle verdict, the processes in order" \
	grep -qx 'BAR 1 \[default\] fixed sizes: FAIL, PASS, FAIL in 3 processes; the median process: FAIL' "$out"
expect "bench_bars --summarize: an even count's median is the worse of the middle two; the key keeps bar 2's regime" \
	grep -qx 'BAR 2 \[default\] distributions, a (8192 copies): PASS, MARGINAL, FAIL, PASS in 4 processes; the median process: MARGINAL' "$out"
expect "bench_bars --summarize: each verdict with its line's count of cells that began on a slowed core" \
	grep -qx 'BAR 3 \[default\] no cliff: FAIL (5/6 slowed), PASS (0/6 slowed) in 2 processes; the median process: FAIL' "$out"
expect "bench_bars --summarize: a verdict that is not PASS, MARGINAL or FAIL is shown whole, with no median" sh -c "
	grep -qx 'BAR 5 \[default\] ucopy_try: SKIPPED (no other bar ran) in 1 process' '$out' &&
	grep -qx 'BAR \* \[calibrated\]: SKIPPED (the profile was not loaded: x.profile: no such file) in 1 process' '$out' &&
	[ \$(wc -l <'$out') -eq 5 ] && [ $rc -eq 0 ]"
UCOPY_BARS_PROCESSES=0 "$bars" --summarize <"$dir/lines" >"$out" 2>"$err"
rc=$?
expect "bench_bars --summarize: needs no UCOPY_BARS_PROCESSES, so a bad one does not stop it" sh -c "
	[ $rc -eq 0 ] && [ \$(wc -l <'$out') -eq 5 ]"

for bad in 0 10 x 2x; do
	bb --processes "$bad"
	expect "bench_bars --processes $bad: refused, naming it and what was expected" sh -c "
		[ $rc -eq 2 ] && grep -q \"bad --processes '$bad' (expected 1..9)\" '$err' && [ ! -s '$out' ]"
done
UCOPY_BARS_PROCESSES=-1 "$bars" >"$out" 2>"$err"
rc=$?
expect "bench_bars: a bad UCOPY_BARS_PROCESSES is refused, named" sh -c "
	[ $rc -eq 2 ] && grep -q \"bad UCOPY_BARS_PROCESSES '-1' (expected 1..9)\" '$err'"

# Two processes of one arm, bar 3 only, a tiny budget: the verdicts are
# noise, what is checked is that the summary tells them as they were.
bb --bars 3 --arms default --seconds 0.1 --processes 2
sed -n '/process by process$/,/^$/p' "$out" | grep '^BAR 3 ' >"$dir/lines3"
sed 's/.*: //' "$dir/lines3" >"$dir/v"
sed 's/.*(host: \([0-9]*\) of \([0-9]*\) cells began on a slowed core): .*/\1\/\2/' "$dir/lines3" >"$dir/h"
v1=$(sed -n 1p "$dir/v") v2=$(sed -n 2p "$dir/v") h1=$(sed -n 1p "$dir/h") h2=$(sed -n 2p "$dir/h")
rank() { case $1 in PASS) echo 0 ;; MARGINAL) echo 1 ;; FAIL) echo 2 ;; *) echo 9 ;; esac; }
med=$v1
[ "$(rank "$v2")" -gt "$(rank "$v1")" ] && med=$v2
expect "bench_bars --processes 2: two processes of the arm, each with its own bar 3 line" sh -c "
	[ $rc -eq 0 ] && [ \$(grep -c '^== process [12] of 2 of arm default\$' '$out') -eq 2 ] &&
	[ \$(wc -l <'$dir/v') -eq 2 ] && [ $(rank "$v1") -le 2 ] && [ $(rank "$v2") -le 2 ]"
expect "bench_bars --processes 2: the summary lists both verdicts, with their host counts, and the worse as the median ($v1 $h1, $v2 $h2)" \
	grep -qx "BAR 3 \[default\] no cliff: $v1 ($h1 slowed), $v2 ($h2 slowed) in 2 processes; the median process: $med" "$out"

# Bar 5: judged at the family-wise level of all its cells, its verdict the
# family's count's: FAIL when a miss holds at the family's level, MARGINAL
# when only point estimates miss.  bar5_check NAME CELLS UNJUDGED: the first
# process's BAR 5 line in $out has CELLS cells, UNJUDGED of them (a number,
# or "some") with too few rounds to be judged, and the verdict its counts say.
bar5_check() {
	sed -n '/process by process$/,/^$/p' "$out" | grep '^BAR 5 ' | head -1 >"$dir/line5"
	l5=$(cat "$dir/line5")
	within=$(sed -n 's/.* in \([0-9]*\)\/\([0-9]*\) cells, .*/\1/p' "$dir/line5")
	cells=$(sed -n 's/.* in \([0-9]*\)\/\([0-9]*\) cells, .*/\2/p' "$dir/line5")
	counts=$(sed -n "s/.* cells, \([0-9]*\) beyond significantly at the $cells cells' family-wise 95% (\([0-9]*\) by each cell's own; \([0-9]*\) with too few rounds for the family's); .*/\1 \3/p" "$dir/line5")
	fam=${counts% *} unjudged=${counts#* }
	v5=$(sed 's/.*: //' "$dir/line5")
	want=PASS
	[ -n "$within" ] && [ "$within" != "$cells" ] && want=MARGINAL
	[ -n "$counts" ] && [ "$fam" -gt 0 ] && want=FAIL
	ok=no
	if [ "$cells" = "$2" ] && [ -n "$counts" ] && [ "$v5" = "$want" ]; then
		case $3 in
		some) [ "$unjudged" -gt 0 ] && ok=yes ;;
		*) [ "$unjudged" = "$3" ] && ok=yes ;;
		esac
	fi
	expect "bench_bars: $1 ($l5)" [ $ok = yes ]
}
# Bar 3's 6 sizes x 76 cells at 0.1 s: too few rounds to judge them all.
bar5_check "bar 5 over bar 3's 456 cells: the family's level, the verdict its count's" 456 some
# One distribution, two cells with rounds enough: every cell judged.
mkdir "$dir/dists"
cp data/distributions/Memcpy_7.csv "$dir/dists/"
UCOPY_DATA_DIR=$dir/dists "$bars" --bars 2 --arms default --seconds 1 --processes 1 >"$out" 2>"$err"
rc=$?
bar5_check "bar 5 over bar 2's two cells of one file: each judged at the family's level" 2 0
