# CLI tests: a routine of the user's own (--routine LIB.so:SYMBOL[:CONTRACT])
# timed by `ucopy bench` beside the library's entries and compared by
# `ucopy compare` as an arm: glibc's memcpy loaded as a routine beside the
# memcpy entry, libroutine_simple.so's routine of each contract, the names
# that keep rows apart, and each bad input.  Tiny budgets: shapes and
# fields, never timings.  Any architecture: the routines are C, the kernel
# named is `word`, which both ports have.
. tests/cli/lib.sh

simple="$BABS/tests/libroutine_simple.so"
if [ ! -e "$simple" ]; then
	echo "SKIP routine_bench: $simple is not built (make $B/tests/test_routine)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$out" "$err" "$tmp"' EXIT

# bad NAME PATTERN ARGS...: lib.sh's usage_error (exit 2, one line on
# stderr matching the grep pattern, nothing on stdout), named as a routine's.
bad() {
	name=$1; shift
	usage_error "routine error: $name" "$@"
}

# glibc's memcpy as a routine beside the memcpy entry: one function, two
# rows, told apart by name and kind.
run bench --entries memcpy --routine libc.so.6:memcpy --sizes 64,4K --seconds 0.2 -q --format json
expect "bench --routine libc.so.6:memcpy beside the memcpy entry: JSON kinds, names and numbers" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = d["config"]["variants"]
assert [x["name"] for x in v] == ["memcpy", "libc.so.6:memcpy"], v
assert [x["kind"] for x in v] == ["entry", "routine"], v
assert v[0]["routine"] is None and v[1]["policy"] is None, v
assert v[1]["routine"] == {"spec": "libc.so.6:memcpy", "lib": "libc.so.6",
                           "symbol": "memcpy", "contract": "memcpy"}, v[1]
r = d["results"]
assert sorted((x["variant"], x["size"]) for x in r) == [("libc.so.6:memcpy", 64),
       ("libc.so.6:memcpy", 4096), ("memcpy", 64), ("memcpy", 4096)], r
for x in r:
    assert x["ns_median"] > 0 and x["gbps"] > 0 and x["ratio"] > 0, x
' "$out"
run bench --entries memcpy --routine libc.so.6:memcpy --sizes 64,4K --seconds 0.2 -q
expect "bench --routine: the table names the routine apart from the entry, and says what it is" \
	sh -c "[ $rc -eq 0 ] && grep -q '^# routine libc.so.6:memcpy = memcpy from libc.so.6, the memcpy contract\$' '$out' &&
	       [ \$(grep -c '^memcpy  *64 ' '$out') -eq 1 ] && [ \$(grep -c '^libc.so.6:memcpy  *64 ' '$out') -eq 1 ] &&
	       [ \$(grep -c '^libc.so.6:memcpy  *4K ' '$out') -eq 1 ]"
run bench --routine libc.so.6:memcpy --entries memcpy --sizes 64,4K --seconds 0.2 -q --format csv
expect "bench --routine: CSV rows in the order given, the routine first and the baseline" \
	sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$out') -eq 5 ] &&
	       sed -n 2p '$out' | grep -q '^libc.so.6:memcpy,64,,0,0,0,hot,[0-9.e+-]*,[0-9.e+-]*,[0-9.e+-]*,[0-9.e+-]*,1,1,1,' &&
	       sed -n 3p '$out' | grep -q '^memcpy,64,,0,0,0,hot,[0-9]' &&
	       [ \$(grep -c '^libc.so.6:memcpy,4096,' '$out') -eq 1 ] && [ \$(grep -c '^memcpy,4096,' '$out') -eq 1 ]"

# A routine of each contract from a library of the user's own, alone:
# nothing else is timed, as with --policies or --entries alone.
run bench --routine "$simple:simple_memcpy" --routine "$simple:simple_memmove:memmove" \
	--routine "$simple:simple_try:try" --sizes 8,256 --seconds 0.3 -q --format json
expect "bench --routine alone: each contract timed, named SYMBOL[:CONTRACT], nothing else" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = d["config"]["variants"]
assert [x["name"] for x in v] == ["simple_memcpy", "simple_memmove:memmove", "simple_try:try"], v
assert all(x["kind"] == "routine" and x["routine"]["lib"] == sys.argv[2] for x in v), v
assert [x["routine"]["contract"] for x in v] == ["memcpy", "memmove", "try"], v
assert [x["routine"]["symbol"] for x in v] == ["simple_memcpy", "simple_memmove", "simple_try"], v
r = d["results"]
assert len(r) == 6 and all(x["ns_median"] > 0 and x["gbps"] > 0 for x in r), r
assert all(x["ratio"] == 1 for x in r if x["variant"] == "simple_memcpy"), r
' "$out" "$simple"
run bench --routine "$simple:simple_try:try" --routine "$simple:simple_memmove:memmove" --kernels word \
	--sizes 64 --seconds 0.1 -q
expect "bench --routine with --kernels: the kernel first, the try routine timed on valid memory" \
	sh -c "[ $rc -eq 0 ] && sed -n '/^variant/{n;p;}' '$out' | grep -q '^word ' &&
	       grep -q '^# routine simple_try:try = simple_try from .*, the try contract, timed on valid memory (no faults)\$' '$out' &&
	       grep -q '^# routine simple_memmove:memmove = .*, the memmove contract, timed on copies that do not overlap\$' '$out' &&
	       grep -q '^simple_try:try  *64 ' '$out'"

# Names: the same symbol from two libraries reads LIB:SYMBOL; from two
# libraries of one name in two directories, the spec.
mkdir "$tmp/a" "$tmp/b"
cp "$simple" "$tmp/a/libx.so"
cp "$simple" "$tmp/b/libx.so"
run bench --routine "$simple:simple_memcpy" --routine "$tmp/a/libx.so:simple_memcpy" \
	--routine "$tmp/a/libx.so:simple_memmove" --sizes 8 --seconds 0.1 -q --format json
expect "bench --routine: one symbol from two libraries, each row LIB:SYMBOL; a third kept short" python3 -c '
import json, sys
v = [x["name"] for x in json.load(open(sys.argv[1]))["config"]["variants"]]
assert v == ["libroutine_simple.so:simple_memcpy", "libx.so:simple_memcpy", "simple_memmove"], v
' "$out"
run bench --routine "$tmp/a/libx.so:simple_memcpy" --routine "$tmp/b/libx.so:simple_memcpy" \
	--sizes 8 --seconds 0.1 -q --format json
expect "bench --routine: libraries of one name in two directories, each row its spec" python3 -c '
import json, sys
v = [x["name"] for x in json.load(open(sys.argv[1]))["config"]["variants"]]
assert v == [sys.argv[2] + "/a/libx.so:simple_memcpy", sys.argv[2] + "/b/libx.so:simple_memcpy"], v
' "$out" "$tmp"

# compare: a routine is an arm, in the order given.
run compare word --routine "$simple:simple_memcpy" --sizes 64 --runs 20 -q
expect "compare word --routine: A the policy, B the routine, each said so" \
	sh -c "[ $rc -eq 0 ] && grep -q '^A  *word -> word\$' '$out' &&
	       grep -q '^B  *--routine $simple:simple_memcpy -> simple_memcpy from $simple, the memcpy contract\$' '$out' &&
	       grep -q '^path      A ucopy_policy_copy (no fault recovery); B the routine, called directly' '$out' &&
	       grep -q '^ Performance counter stats for B, routine $simple:simple_memcpy, 20 rounds:' '$out' &&
	       grep -q '^ B/A time per copy .*95% CI \[' '$out'"
run compare --routine "$simple:simple_try:try" word --fault-tolerant --sizes 64 --runs 20 -q --json
expect "compare --routine ...:try word --fault-tolerant: JSON with the kinds, the routine and the numbers" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
a, b = d["a"], d["b"]
assert d["config"]["a"] == sys.argv[2] + ":simple_try:try" and d["config"]["b"] == "word", d["config"]
assert a["kind"] == "routine" and b["kind"] == "policy", (a["kind"], b["kind"])
assert a["routine"] == {"spec": sys.argv[2] + ":simple_try:try", "lib": sys.argv[2],
                        "symbol": "simple_try", "contract": "try"}, a["routine"]
assert a["resolved"] is None and a["policy"] is None and b["routine"] is None, (a, b)
assert b["policy"] == "word" and d["config"]["fault_tolerant"] is True
for s in (a, b):
    assert s["bytes"] > 0 and s["copies"] > 0 and s["ns_median"] > 0, s
assert d["config"]["rounds"] == 20 and d["ratio"]["est"] > 0
' "$out" "$simple"
run compare --routine libc.so.6:memcpy --routine "$simple:simple_memcpy" --sizes 64 --runs 20 -q
expect "compare --routine --routine: two routines, one path" \
	sh -c "[ $rc -eq 0 ] && grep -q '^A  *--routine libc.so.6:memcpy -> memcpy from libc.so.6' '$out' &&
	       grep -q '^path      the routine, called directly (no fault recovery)\$' '$out'"

# Bad input, bench and compare alike: one line naming the option and value.
printf 'not a shared object\n' >"$tmp/text.so"
for cmd in bench compare; do
	case $cmd in
	bench) pre="bench --sizes 64 --seconds 0.1"; who= ;;
	compare) pre="compare word --sizes 64 --runs 20"; who="B: " ;;
	esac
	bad "$cmd: a missing file" "^ucopy: ${who}bad --routine '$tmp/none.so:f': cannot open '$tmp/none.so': No such file or directory" \
		$pre --routine "$tmp/none.so:f"
	bad "$cmd: a library the loader does not find" "^ucopy: ${who}bad --routine 'libnosuch-ucopy.so:f': cannot load 'libnosuch-ucopy.so': " \
		$pre --routine libnosuch-ucopy.so:f
	bad "$cmd: a missing symbol" "^ucopy: ${who}bad --routine '$simple:nosuch': no function 'nosuch' in '$simple'" \
		$pre --routine "$simple:nosuch"
	bad "$cmd: an unknown contract" "^ucopy: ${who}bad --routine '$simple:simple_memcpy:copy': unknown contract 'copy' (expected memcpy, memmove or try)" \
		$pre --routine "$simple:simple_memcpy:copy"
	bad "$cmd: no symbol" "^ucopy: ${who}bad --routine '$simple': expected LIB.so:SYMBOL\[:CONTRACT\]" \
		$pre --routine "$simple"
	bad "$cmd: a file that is not ELF" "^ucopy: ${who}bad --routine '$tmp/text.so:f': '$tmp/text.so' is not an ELF file (expected a shared object)" \
		$pre --routine "$tmp/text.so:f"
	bad "$cmd: an option for a value" "option '--routine' needs a value" $pre --routine
done
bad "bench: one spec twice" "'libc.so.6:memcpy' is named twice among the kernels, policies, entries and routines" \
	bench --routine libc.so.6:memcpy --routine libc.so.6:memcpy --sizes 64 --seconds 0.1
bad "compare: a try routine without --fault-tolerant" \
	"^ucopy: B: --routine '$simple:simple_try:try' is a try routine: compare it with --fault-tolerant" \
	compare word --routine "$simple:simple_try:try" --sizes 64 --runs 20
bad "compare: a memcpy routine with --fault-tolerant" \
	"^ucopy: A: --routine '$simple:simple_memcpy' has the memcpy contract, and --fault-tolerant times the try contract" \
	compare --routine "$simple:simple_memcpy" word --fault-tolerant --sizes 64 --runs 20
bad "compare: a third arm" "unexpected --routine '$simple:simple_memcpy' (expected two arms" \
	compare word word --routine "$simple:simple_memcpy" --sizes 64
bad "compare: one arm" "expected two policies, A and B, or --routine" \
	compare --routine "$simple:simple_memcpy" --sizes 64
bad "compare: --assume-features with no policy" "--assume-features resolves policies .* A and B are routines" \
	compare --routine libc.so.6:memcpy --routine "$simple:simple_memcpy" --assume-features none --sizes 64
bad "compare -- CMD: a routine cannot be an arm" "^ucopy: --routine '$simple:simple_memcpy' cannot be an arm with '-- CMD'" \
	compare word --routine "$simple:simple_memcpy" -- true

# Another architecture's shared object, built where a compiler for one is
# at hand: told apart before dlopen, naming both.
arch=$(ucopy_arch)
other=
for cc in cc gcc aarch64-linux-gnu-gcc x86_64-linux-gnu-gcc; do
	command -v "$cc" >/dev/null 2>&1 || continue
	m=$("$cc" -dumpmachine 2>/dev/null)
	[ -n "$m" ] && [ "${m%%-*}" != "$arch" ] || continue
	if echo 'int f(void) { return 0; }' | "$cc" -x c -shared -nostdlib -fPIC -o "$tmp/other.so" - 2>/dev/null; then
		other=${m%%-*}
		break
	fi
done
if [ -n "$other" ]; then
	bad "bench: another architecture's shared object ($other)" \
		"^ucopy: bad --routine '$tmp/other.so:f': '$tmp/other.so' is built for [a-z0-9-]*, not [a-z0-9-]* " \
		bench --routine "$tmp/other.so:f" --sizes 64 --seconds 0.1
	bad "compare: another architecture's shared object ($other)" \
		"^ucopy: B: bad --routine '$tmp/other.so:f': '$tmp/other.so' is built for " \
		compare word --routine "$tmp/other.so:f" --sizes 64
else
	echo "SKIP routine error: another architecture's shared object: no compiler here builds for another architecture than $arch"
fi
