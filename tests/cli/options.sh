# CLI tests: what every command's options share (programs/core/cli.c): a value is
# given as "--opt VALUE" or "--opt=VALUE"; a separate value never starts
# with '-' (it would be the next option) except where one may (a negative
# number for its parser to refuse, a feature to remove, '-' for stdout);
# budgets are decimal seconds up to a day, seeds decimal.
. tests/cli/lib.sh

dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out" "$err"' EXIT
# Where a command that should have refused its input runs anyway, what it
# writes (report.html, a profile) lands in $dir.
UCOPY=$(cd "$(dirname "$UCOPY")" && pwd)/$(basename "$UCOPY")
XDG_CACHE_HOME=$dir/cache
export XDG_CACHE_HOME
cd "$dir" || exit 1

# The next option is not a value: "-o -q" wrote a file named "-q", and
# "report --json --quick" took --quick for the JSON file and ran the full
# minute.
run bench --kernels byte --sizes 8 --seconds .01 -o -q
expect "bench -o -q: -q is no file name" sh -c "[ $rc -eq 2 ] && [ ! -e '$dir/-q' ] &&
	grep -q \"option '-o' needs a value\" '$err'"
usage_error "report --json --quick: --quick is no file name" "option '--json' needs a value" \
	report --json --quick
usage_error "compare --sizes --json" "option '--sizes' needs a value" compare byte word --sizes --json
usage_error "calibrate --max-size -v" "option '--max-size' needs a value" calibrate --max-size -v
usage_error "bench --sizes -q names the option it found" \
	"option '--sizes' needs a value, not the option '-q' (a value that starts with '-': --sizes=-q)" \
	bench --sizes -q

# A negative number is a value, for the option's parser to refuse by name:
# "--sizes -5" used to say "option '--sizes' needs a value".
usage_error "bench --sizes -5 names the bad size" "bad size '-5'" bench --sizes -5
usage_error "bench --src-align -1 names the bad offset" "bad size '-1'" bench --src-align -1
usage_error "bench --distance -1 names the bad distance" "bad size '-1'" bench --distance -1
usage_error "compare --sizes -5 names the bad size" "bad size '-5'" compare byte word --sizes -5
usage_error "compare --runs -3 names the bad count" "bad --runs '-3'" compare byte word --runs -3
usage_error "compare --margin -3 names the bad margin" "bad --margin '-3'" compare byte word --margin -3
usage_error "calibrate --max-size -5 names the bad size" "bad size '-5'" calibrate --max-size -5
usage_error "bench --kernels -1 names the bad kernel" "unknown kernel '-1'" bench --kernels -1
for cmd in bench compare calibrate report; do
	args=
	[ $cmd = compare ] && args="byte word --sizes 64"
	usage_error "$cmd --seconds -q" "option '--seconds' needs a value" $cmd $args --seconds -q
	usage_error "$cmd --seconds=0 (the = form)" "bad budget '0'" $cmd $args --seconds=0
	usage_error "$cmd --seconds -1 is refused by the parser" "bad budget '-1'" $cmd $args --seconds -1
	usage_error "$cmd --seconds in hex" "bad budget '0x0.1p0'" $cmd $args --seconds 0x0.1p0
	usage_error "$cmd --seconds inf" "bad budget 'inf'" $cmd $args --seconds inf
	usage_error "$cmd --seconds ' 1'" "bad budget ' 1'" $cmd $args --seconds ' 1'
	usage_error "$cmd --seconds above a day" "bad budget '86401'.*at most 86400" $cmd $args --seconds 86401
	[ $cmd = calibrate ] && continue
	usage_error "$cmd --seed in hex" "bad seed '0x10'" $cmd $args --seed 0x10
	usage_error "$cmd --seed -1" "bad seed '-1'" $cmd $args --seed -1
	usage_error "$cmd --seed=" "bad seed ''" $cmd $args --seed=
done

# The = form works for every option, and seeds are decimal: 010 is ten.
run bench --kernels=byte --sizes=8 --seconds=0.01 --seed=010 --format=json -q
expect "bench: --opt=VALUE forms, --seed 010 is ten" python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["config"]
assert c["seed"] == 10 and c["sizes"] == [8] and c["seconds"] == 0.01, c' "$out"
# Two named policies of this architecture, and one of its features.
case $(ucopy_arch) in
aarch64) pa=arm64-4.19 pb=arm64-5.15 feat=mops ;;
*) pa=linux-6.3 pb=linux-6.4 feat=fsrm ;;
esac
run compare $pa $pb --sizes=32K --assume-features -$feat --runs=20 --seed 010 -q --json
expect "compare: --assume-features -$feat is a value, --seed 010 is ten" python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["config"]
assert c["assume_features"] == "-" + sys.argv[2] and c["seed"] == 10, c' "$out" "$feat"

# An option given twice would have the last win and the first dropped unseen:
# refused, in every command; the list options add up instead.
usage_error "bench: --kernels twice" "option '--kernels' given twice" bench --kernels word --kernels byte --sizes 8
usage_error "bench: --seconds twice, the second as --seconds=" "option '--seconds' given twice" \
	bench --kernels word --seconds 5 --seconds=0.1 --sizes 8
usage_error "calibrate: -o twice" "option '-o' given twice" calibrate -o /tmp/x -o /tmp/y
usage_error "report: --seed twice" "option '--seed' given twice" report --seed 1 --seed 2
usage_error "report: -o, then as --output" "option '--output' given twice (first as '-o')" \
	report -o /tmp/x.html --output /tmp/y.html
usage_error "calibrate: --output=, then as -o" "option '-o' given twice (first as '--output')" \
	calibrate --output=/tmp/x -o /tmp/y
usage_error "run: --policy twice" "option '--policy' given twice" run --policy nosuch --policy word -- true
usage_error "trace: --cap twice" "option '--cap' given twice" trace --cap 8 --cap 9 -- true
usage_error "compare -- CMD: --runs twice" "option '--runs' given twice" compare auto libc --runs 2 --runs 3 -- true
run bench --policies word --policies byte --sizes 8 --seconds 0.05 --format csv -q
expect "bench: --policies twice adds up" sh -c "[ $rc -eq 0 ] && grep -q '^word,' '$out' && grep -q '^byte,' '$out'"

# A value pasted by mistake, thousands of bytes, is shown cut to its start,
# not whole, in whatever message quotes it.
long=x$(printf '%02999d' 7)
for args in "bench --kernels" "bench --entries memcpy," "bench --seconds" "run --policy" "" \
	    "trace --cap"; do
	case $args in
	*,) set -- ${args% *} "${args##* }$long" ;;
	'') set -- "$long" ;;
	*) set -- $args "$long" ;;
	esac
	case $1 in run|trace) set -- "$@" -- true ;; esac
	run "$@"
	expect "a 3000-byte value is cut in the message (${args:-the command's name})" \
		sh -c "[ $rc -eq 2 ] && [ \$(wc -c <'$err') -lt 700 ] && grep -q \"'x0\\{199\\}\\.\\.\\.'\" '$err'"
done

# Two variants of one name: their rows could not be told apart.
usage_error "bench: a kernel named twice is refused" "'word' is named twice" \
	bench --kernels word,word --sizes 8 --seconds 0.05
usage_error "bench: a kernel and a policy of one name are refused" "'word' is named twice" \
	bench --kernels word --policies word --sizes 8 --seconds 0.05

# A size past 2^64 says the bound as one that fits does; a memory limit too
# large for a size says so rather than asking for 1M or more.
usage_error "bench --sizes past 2^64 names the largest" "size '18446744073709551616' is too large (at most" \
	bench --sizes 18446744073709551616
usage_error "bench --max-memory past 2^64 says it is too large" "bad memory limit '99999999999G': too large for a size" \
	bench --max-memory 99999999999G
# A value with its own apostrophe is one value still: cut, not shown whole.
run bench --kernels "it's$long"
expect "a long value with an apostrophe is cut in the message" \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -c <'$err') -lt 700 ] && grep -q \"'it'sx0\\{195\\}\\.\\.\\.'\" '$err'"
usage_error "a memory limit that reads 'too large' is no size too large" "bad memory limit 'too large' (expected" \
	bench --max-memory "too large"

# Every help page fits an 80-column terminal.
wide=
for c in "" features bench compare calibrate run trace report; do
	if [ -n "$c" ]; then "$UCOPY" help "$c"; else "$UCOPY" --help; fi >"$out" 2>&1
	grep -q '^usage: ucopy' "$out" || wide="$wide ${c:-main}(no usage line)"
	w=$(awk 'length($0) > 80 { print FILENAME ":" FNR ": " length($0) " columns"; exit }' "$out")
	[ -n "$w" ] && wide="$wide ${c:-main}($w)"
done
expect "help: every page within 80 columns${wide:+ (not:$wide)}" [ -z "$wide" ]
# The cut keeps an escape whole: a value's '\\' pair is not split at byte 200.
pair="$(printf 'a%.0s' $(seq 196))\\\\bcdefgh$(printf 'z%.0s' $(seq 50))"
run bench --kernels "$pair"
expect "a cut value keeps a backslash pair whole" grep -q "a\\\\\\\\bc\\.\\.\\.'" "$err"
