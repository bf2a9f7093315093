# The environment the library reads: a UCOPY_POLICY, UCOPY_FEATURES or
# UCOPY_PROFILE that libucopy would ignore (and so time `auto` under another
# name) is refused by every command, with one message naming the variable.
. tests/cli/lib.sh
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out" "$err"' EXIT

# refused NAME PATTERN CMD...: exit 2, nothing on stdout, and one line on
# stderr that matches PATTERN.
refused() {
	name=$1 pattern=$2
	shift 2
	"$@" >"$out" 2>"$err"
	rc=$?
	expect "$name" sh -c "[ $rc -eq 2 ] && [ ! -s '$out' ] && [ \$(wc -l <'$err') -eq 1 ] && grep -q \"$pattern\" '$err'"
}

for cmd in "bench --kernels libc --sizes 64 --seconds 0.05" \
	   "compare auto libc --sizes 64 --seconds 0.1" \
	   "calibrate --quick -o $dir/p" \
	   "report --quick -o $dir/r.html" \
	   "run -- true" \
	   "trace -o $dir/t -- true"; do
	c=${cmd%% *}
	refused "$c: a bad UCOPY_POLICY is refused" "^ucopy: bad UCOPY_POLICY 'nosuch': unknown policy" \
		env UCOPY_POLICY=nosuch "$UCOPY" $cmd
	refused "$c: a bad UCOPY_FEATURES is refused" "^ucopy: bad UCOPY_FEATURES '+frob': unknown feature 'frob'" \
		env UCOPY_FEATURES=+frob "$UCOPY" $cmd
done
for cmd in "bench --kernels libc --sizes 64 --seconds 0.05" "run -- true"; do
	c=${cmd%% *}
	refused "$c: a UCOPY_PROFILE that does not load is refused" \
		"^ucopy: bad UCOPY_PROFILE '$dir/missing': $dir/missing: cannot open" \
		env UCOPY_PROFILE="$dir/missing" "$UCOPY" $cmd
done
refused "bench: the limits of UCOPY_POLICY's policy text are checked" \
	"^ucopy: bad UCOPY_POLICY '64:word,32:byte': limit '32' is not above" \
	env UCOPY_POLICY=64:word,32:byte "$UCOPY" bench --kernels libc --sizes 64 --seconds 0.05
# A kernel the CPU does not run (here the mask removes its feature): the
# library would run another in its place, under the name asked for.
case $(ucopy_arch) in
aarch64) unrunnable=mops feature=mops ;;
*) unrunnable=avx512 feature=avx512f ;;
esac
refused "bench: a UCOPY_POLICY naming a kernel this CPU does not run is refused" \
	"^ucopy: bad UCOPY_POLICY '1K:$unrunnable,word': it names kernels this CPU does not run: $unrunnable -> " \
	env UCOPY_FEATURES=-$feature UCOPY_POLICY=1K:$unrunnable,word "$UCOPY" bench --kernels libc --sizes 64 --seconds 0.05
# The same policy given to a program on the command line.
refused "run: a --policy naming a kernel this CPU does not run is refused" \
	"^ucopy: bad --policy '1K:$unrunnable,word': it names kernels this CPU does not run: $unrunnable -> " \
	env UCOPY_FEATURES=-$feature "$UCOPY" run --policy 1K:$unrunnable,word -- true
refused "compare -- CMD: a policy naming a kernel this CPU does not run is refused" \
	"^ucopy: B: bad policy '$unrunnable': it names kernels this CPU does not run: $unrunnable -> " \
	env UCOPY_FEATURES=-$feature "$UCOPY" compare libc $unrunnable -- true
# Control bytes in the value do not reach the terminal.
refused "a bad value's control bytes are escaped" "bad UCOPY_POLICY 'a\\\\\\\\x1b\\[31mb'" \
	env UCOPY_POLICY="$(printf 'a\033[31mb')" "$UCOPY" bench --kernels libc --sizes 64 --seconds 0.05
UCOPY_POLICY=$(printf '%0300d' 7) "$UCOPY" bench --kernels libc --sizes 64 --seconds 0.05 >"$out" 2>"$err"
rc=$?
expect "a long value is shown cut short" sh -c "[ $rc -eq 2 ] && [ \$(wc -c <'$err') -lt 600 ] && grep -q \"'0\\{64\\}\\.\\.\\.'\" '$err'"

# calibrate writes the profile UCOPY_PROFILE names: a missing one is no error.
UCOPY_PROFILE=$dir/new "$UCOPY" calibrate --seconds 0.2 --max-size 4K -q -o "$dir/new" >"$out" 2>"$err"
rc=$?
expect "calibrate: UCOPY_PROFILE may name the profile it is about to write" \
	sh -c "[ $rc -eq 0 ] && [ -s '$dir/new' ]"
UCOPY_PROFILE=$dir/new run bench --kernels libc --sizes 64 --seconds 0.05 -q
expect "bench: the profile calibrate wrote is accepted" sh -c "[ $rc -eq 0 ] && [ ! -s '$err' ]"
# Without -o, calibrate saves where the library will look first: at
# UCOPY_PROFILE, not at a default path the variable hides; but only over a
# profile, or nothing.
UCOPY_PROFILE=$dir/env-named XDG_CACHE_HOME=$dir/cache "$UCOPY" calibrate --seconds 0.2 \
	--max-size 4K -q >"$out" 2>"$err"
rc=$?
expect "calibrate: without -o it saves to UCOPY_PROFILE" sh -c "[ $rc -eq 0 ] &&
	head -1 '$dir/env-named' | grep -qx 'ucopy-profile 1' && [ ! -e '$dir/cache/ucopy/profile' ]"
printf 'not a profile\n' >"$dir/other-file"
UCOPY_PROFILE=$dir/other-file run calibrate --seconds 0.2 --max-size 4K -q
expect "calibrate: a UCOPY_PROFILE naming some other file is not replaced" sh -c "
	[ $rc -eq 2 ] && grep -q \"UCOPY_PROFILE names '$dir/other-file', which is not a profile\" '$err' &&
	[ \"\$(cat '$dir/other-file')\" = 'not a profile' ]"
ucopy_abs=$(cd "$(dirname "$UCOPY")" && pwd)/$(basename "$UCOPY")
# UCOPY_PROFILE=- is a file named '-', as the library reads it, not stdout.
(cd "$dir" && UCOPY_PROFILE=- "$ucopy_abs" calibrate --seconds 0.2 --max-size 4K -q >"$out" 2>"$err")
rc=$?
expect "calibrate: UCOPY_PROFILE=- is the file './-', not stdout" sh -c "[ $rc -eq 0 ] && [ ! -s '$out' ] &&
	head -1 '$dir/-' | grep -qx 'ucopy-profile 1'"

# features shows the setting and why, then refuses it.
UCOPY_POLICY=nosuch run features
expect "features: a bad UCOPY_POLICY is shown, then refused" \
	sh -c "[ $rc -eq 2 ] && grep -q \"^reason    UCOPY_POLICY='nosuch' ignored\" '$out' && grep -q \"^ucopy: bad UCOPY_POLICY 'nosuch'\" '$err'"
# Set but empty is unset, as shells make it.
UCOPY_POLICY= UCOPY_FEATURES= UCOPY_PROFILE= run bench --kernels libc --sizes 64 --seconds 0.05 -q
expect "empty variables are unset" sh -c "[ $rc -eq 0 ] && [ ! -s '$err' ]"
# --help needs no valid environment.
UCOPY_POLICY=nosuch run bench --help
expect "--help under a bad UCOPY_POLICY" sh -c "[ $rc -eq 0 ] && grep -q '^usage: ucopy bench' '$out'"
