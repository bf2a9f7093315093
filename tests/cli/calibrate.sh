# CLI tests: ucopy calibrate on a tiny budget, the profile it writes, and how
# the library and `ucopy features` treat good and bad profiles.
. tests/cli/lib.sh

dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out" "$err"' EXIT
prof=$dir/profile

# A tiny budget: about a second in all.
run calibrate --seconds 0.3 --max-size 64K -o "$prof"
expect "calibrate: tiny budget succeeds and prints the policy" \
	sh -c "[ $rc -eq 0 ] && grep -q '^policy ' '$out' && grep -q '^gain ' '$out' && grep -q '^profile   $prof\$' '$out' && [ ! -s '$err' ]"
expect "calibrate: the profile has its parts" \
	sh -c "head -1 '$prof' | grep -qx 'ucopy-profile 1' && tail -1 '$prof' | grep -qx end && grep -q '^policy ' '$prof' && grep -q '^measure hot 64K ' '$prof' && grep -q '^measure cold ' '$prof' && grep -q '^distance 64 0/1 ' '$prof' && grep -q '^distance 64 0/200 ' '$prof' && grep -q '^cpu.features ' '$prof'"
# Each cliff line says whether the policy saved runs that kernel at that
# size, by the policy printed above it (auto's may, the derived one not).
expect "calibrate: a cliff's 'used there' agrees with the policy printed" python3 -c '
import re, sys
units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
def num(t):
    m = re.fullmatch(r"(\d+)([KMG]?)", t)
    return int(m.group(1)) * units[m.group(2)]
text = open(sys.argv[1]).read()
rules = []
for r in re.search(r"^policy +(\S+)$", text, re.M).group(1).split(","):
    lim, _, k = r.rpartition(":")
    rules.append((num(lim) if lim else None, k))
def kernel_at(n):
    return next(k for lim, k in rules if lim is None or n < lim)
for m in re.finditer(r"^(?:cliffs   |         ) (\w+) [0-9.]+x slower at (\w+) bytes, .*: (.*)$", text, re.M):
    k, n, said = m.group(1), num(m.group(2)), m.group(3)
    if k == "libc":
        assert said == "the C library", m.group(0)
    else:
        assert said.startswith("used there") == (kernel_at(n) == k), (m.group(0), rules)
' "$out"

policy=$(sed -n 's/^policy //p' "$prof")
UCOPY_PROFILE= XDG_CACHE_HOME=$dir/nothing-here run features --json
auto=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["policy"])' "$out")
# The profile is never a policy that lost to auto: either the derived one
# with its gain, or auto's with a note saying so (docs/calibrate.md).  And
# above the largest size measured (64K) it is auto's: its last rule.
expect "calibrate: the policy beat auto, or is auto's with a note" python3 -c '
import sys
prof, auto = open(sys.argv[1]).read().splitlines(), sys.argv[2]
policy = [l[7:] for l in prof if l.startswith("policy ")][0]
fallback = any(l.startswith("note calibration found nothing better than auto") for l in prof)
if fallback:
    assert policy == auto, (policy, auto)
else:
    gain = [float(l.split()[3]) for l in prof if l.startswith("gain auto hot ")]
    assert policy != auto and gain, (policy, gain)
assert policy.split(",")[-1] == auto.split(",")[-1], (policy, auto)
' "$prof" "$auto"
UCOPY_PROFILE=$prof run features --json
expect "features: the profile is loaded" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["policy_source"] == "profile", d
assert d["policy"] == sys.argv[2], (d["policy"], sys.argv[2])
assert d["profile"] == sys.argv[3] and d["policy_reason"] == "", d
' "$out" "$policy" "$prof"

UCOPY_PROFILE=$prof run features
expect "features: text names the profile" grep -q "^source    profile ($prof)" "$out"

UCOPY_PROFILE=$prof UCOPY_POLICY=auto run features --json
expect "UCOPY_POLICY wins over the profile" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["policy_source"] == "UCOPY_POLICY", d
' "$out"

UCOPY_PROFILE=$prof UCOPY_POLICY=calibrated run features --json
expect "UCOPY_POLICY=calibrated is the profile's policy" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["policy_source"] == "UCOPY_POLICY" and d["policy"] == sys.argv[2], d
' "$out" "$policy"

# Rejected profiles: auto, and the reason names the file and line.
rejected() {
	name=$1 file=$2 pattern=$3
	UCOPY_PROFILE=$file run features --json
	expect "$name" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["policy_source"] == "default", d
assert d["profile"] == sys.argv[2], d
r = d["policy_reason"]
assert r.startswith("profile ignored: " + sys.argv[2]) and sys.argv[3] in r, r
' "$out" "$file" "$pattern"
	expect "$name: features refuses it (exit 2)" \
		sh -c "[ $rc -eq 2 ] && grep -q \"^ucopy: bad UCOPY_PROFILE '\$1'\" '$err'" sh "$file"
}
# A model this CPU is not (model 1 is a Zen 3 EPYC's own).
model=$(sed -n 's/^cpu.model //p' "$prof")
sed "s/^cpu.model .*/cpu.model $((model + 1))/" "$prof" >"$dir/other-cpu"
rejected "another CPU's profile falls back to auto" "$dir/other-cpu" "measured on another CPU"
head -n 8 "$prof" >"$dir/truncated"
rejected "a truncated profile falls back to auto" "$dir/truncated" "truncated"
sed 's/^policy .*/policy 64:word,warp9/' "$prof" >"$dir/unknown"
rejected "an unknown kernel falls back to auto" "$dir/unknown" "unknown kernel 'warp9'"
rejected "a missing profile falls back to auto" "$dir/missing" "cannot open"
rejected "a directory falls back to auto" "$dir" "not a regular file (a directory)"
rejected "a device falls back to auto" /dev/null "not a regular file (a character device)"
# A FIFO with no writer hung every program at its first copy.
mkfifo "$dir/fifo"
UCOPY_PROFILE=$dir/fifo timeout 10 "$UCOPY" features --json >"$out" 2>"$err"
rc=$?
expect "a FIFO falls back to auto at once" sh -c "[ $rc -eq 2 ] && grep -q 'not a regular file (a FIFO)' '$out'"
mkdir -p "$dir/fifo-cache/ucopy" && mkfifo "$dir/fifo-cache/ucopy/profile"
XDG_CACHE_HOME=$dir/fifo-cache timeout 10 "$UCOPY" features --json >"$out" 2>"$err"
rc=$?
expect "a FIFO at the default path falls back to auto at once" \
	sh -c "[ $rc -eq 0 ] && grep -q 'profile ignored: .*not a regular file (a FIFO)' '$out'"
if [ "$(id -u)" -ne 0 ]; then
	cp "$prof" "$dir/unreadable" && chmod 0 "$dir/unreadable"
	rejected "an unreadable profile falls back to auto" "$dir/unreadable" "Permission denied"
fi

UCOPY_PROFILE=$dir/other-cpu run features
expect "features: text says why the profile was ignored" \
	sh -c "grep -q '^source    default' '$out' && grep -q \"^reason    profile ignored: $dir/other-cpu:[0-9]*: measured on another CPU\" '$out'"
# At the default path it is ignored, not refused; bench still says what its
# entries ran, and why.
mkdir -p "$dir/other-cache/ucopy" && cp "$dir/other-cpu" "$dir/other-cache/ucopy/profile"
XDG_CACHE_HOME=$dir/other-cache run bench --entries ucopy_memcpy --sizes 64 --seconds 0.05
expect "bench: an ignored profile at the default path is named beside the policy the entries ran" \
	sh -c "[ $rc -eq 0 ] && grep -q \"^# the active policy (ucopy_memcpy, ucopy_try, ucopy_from) = .* (source default; profile ignored: $dir/other-cache/ucopy/profile:[0-9]*: measured on another CPU\" '$out'"

# -o=- with -q: the profile alone on stdout, as its help says.
run calibrate --seconds 0.2 --max-size 4K -q -o=-
expect "calibrate -o=- -q: the profile alone on stdout" \
	sh -c "[ $rc -eq 0 ] && [ \"\$(head -1 '$out')\" = 'ucopy-profile 1' ] && grep -q '^policy ' '$out' && [ ! -s '$err' ]"

# The default path: $XDG_CACHE_HOME/ucopy/profile, created and then used.
XDG_CACHE_HOME=$dir/cache run calibrate --seconds 0.2 --max-size 4K -q
expect "calibrate: -q prints nothing and saves to the default path" \
	sh -c "[ $rc -eq 0 ] && [ ! -s '$out' ] && [ ! -s '$err' ] && [ -f '$dir/cache/ucopy/profile' ]"
XDG_CACHE_HOME=$dir/cache run features --json
expect "features: the profile at the default path is loaded" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["policy_source"] == "profile" and d["profile"] == sys.argv[2], d
' "$out" "$dir/cache/ucopy/profile"
XDG_CACHE_HOME=$dir/nothing-here run features --json
expect "features: no profile at the default path is no error" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["policy_source"] == "default" and d["profile"] == "" and d["policy_reason"] == "", d
' "$out"
# A relative HOME is no base for the default path, and the message says
# so rather than "unset".
HOME=relative XDG_CACHE_HOME= run calibrate --quick -q
expect "calibrate: no default path under a relative HOME, and why" \
	is_usage_error "no default profile path (XDG_CACHE_HOME and HOME are unset, not absolute paths, or too long): give -o FILE"

usage_error "calibrate: an unwritable -o fails at once" "cannot write '$dir/no/such/dir/profile'" \
	calibrate --seconds 0.1 --max-size 64 -o "$dir/no/such/dir/profile"

# -o names a regular file, checked before anything is measured: the profile
# was written beside it and renamed over it, which as root replaced
# /dev/null with a file, and a FIFO, and a symlink instead of its target; a
# directory failed only after the whole run.
not_regular() {
	name=$1 target=$2 test=$3
	timeout 10 "$UCOPY" calibrate --seconds 30 --max-size 64 -o "$target" >"$out" 2>"$err"
	rc=$?
	expect "$name" is_usage_error "cannot write '$target': "
	expect "$name: left as it was" [ "$test" "$target" ]
}
not_regular "calibrate -o /dev/null is refused" /dev/null -c
mkfifo "$dir/fifo-out"
not_regular "calibrate -o FIFO is refused" "$dir/fifo-out" -p
not_regular "calibrate -o DIRECTORY is refused at once" "$dir" -d
ln -s "$prof" "$dir/link"
run calibrate --seconds 0.2 --max-size 4K -q -o "$dir/link"
expect "calibrate -o SYMLINK writes the file it points to" \
	sh -c "[ $rc -eq 0 ] && [ -L '$dir/link' ] && tail -1 '$prof' | grep -qx end"
expect "calibrate -o leaves no temporary file" \
	sh -c "! ls -A '$dir' | grep -q '^\\.'"
run calibrate --seconds=0.2 --max-size=4K -q --output="$dir/eq"
expect "calibrate: --opt=VALUE forms" sh -c "[ $rc -eq 0 ] && [ -s '$dir/eq' ]"

usage_error "calibrate: --seconds 0" "bad budget '0'" calibrate --seconds 0
usage_error "calibrate: --seconds abc" "bad budget 'abc'" calibrate --seconds abc
usage_error "calibrate: --seconds in hex" "bad budget '0x0.1p0'" calibrate --seconds 0x0.1p0
usage_error "calibrate: --seconds=0" "bad budget '0'" calibrate --seconds=0
usage_error "calibrate: --seconds without a value" "needs a value" calibrate --seconds
usage_error "calibrate: --seconds takes no option" "option '--seconds' needs a value" calibrate --seconds -q
usage_error "calibrate: -o takes no option" "option '-o' needs a value" calibrate -o -q
usage_error "calibrate: --max-size 12Q" "bad size '12Q'" calibrate --max-size 12Q
usage_error "calibrate: --max-size too small" "bad --max-size '8'" calibrate --max-size 8
usage_error "calibrate: -o without a file" "option '-o' needs a value" calibrate -o
usage_error "calibrate: unknown option" "unknown option '--fast'" calibrate --fast
usage_error "calibrate: stray argument" "unexpected argument 'now'" calibrate now
usage_error "calibrate: -v with -q" "contradict" calibrate -v -q
run help calibrate
expect "help calibrate" sh -c "[ $rc -eq 0 ] && grep -q 'usage: ucopy calibrate' '$out'"

# A largest size whose one cell cannot keep the budget is refused before
# anything runs (it ran 12.7 s at 2.1 GB before).
start=$(date +%s)
usage_error "calibrate: --max-size 1G cannot keep --seconds 0.1" \
	'--max-size 1G needs a budget of at least [0-9.]* s for its largest cell alone, more than --seconds 0.1' \
	calibrate --max-size 1G --seconds 0.1 -o "${TMPDIR:-/tmp}/ucopy-never-written.$$"
expect "calibrate: the refusal is immediate" [ $(( $(date +%s) - start )) -le 2 ]
