# `ucopy trace`: the copies of tests/trace_prog.c, known sizes, alignments,
# distances and order in two threads, come back exactly; sampling past
# --cap; the distribution is one bench --dist reads; --summary reads the
# sequence back and refuses a malformed one with FILE:LINE.
. tests/cli/lib.sh

prog=$B/tests/trace_prog
needs_preload trace "$prog"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT

run trace -o "$tmp/t" -- "$prog"
expect "trace: exits with the program's status" [ "$rc" -eq 0 ]
expect "trace: the copy over 4 KiB left out of the .llvm.csv is counted on stderr" \
	grep -qx 'ucopy trace: 1 more copy over 4 KiB left out of the .llvm.csv distribution (one probability per size from 0)' "$err"
# tests/trace_prog.c's tables: (size, src mod 64, dst mod 64, (dst - src) mod 4096)
cat >"$tmp/want" <<'WANT'
0 0 0 0 0
0 7 1 3 2
0 64 0 0 64
0 1000 5 32 3995
0 200 10 20 10
0 33 63 62 4095
0 4096 33 17 4080
1 1 2 1 4095
1 50000 0 63 4095
1 16 60 4 4040
WANT
grep -v '^#' "$tmp/t.seq" >"$tmp/got"
expect "trace: every call, in order, per thread, with its alignments and distance" \
	cmp -s "$tmp/want" "$tmp/got"
expect "trace: the sequence header" [ "$(head -1 "$tmp/t.seq")" = "# ucopy sequence 1" ]
expect "trace: the per-process files are merged and removed" \
	[ "$(ls "$tmp")" = "$(printf 'got\nt.csv\nt.llvm.csv\nt.seq\nwant')" ]
expect "trace: the distribution's sizes" \
	grep -qx '0:0.1,1:0.1,7:0.1,16:0.1,33:0.1,64:0.1,200:0.1,1000:0.1,4096:0.1,50000:0.1' "$tmp/t.csv"
run bench --dist "$tmp/t.csv" --kernels libc --seconds 0.1
expect "trace: bench --dist reads the distribution" [ "$rc" -eq 0 ]

# The distributions as their anchors read them: fleetbench's file is three
# lines and nothing else (the reader is checked on a file that ships), and
# LLVM libc's benchmark #includes its file between the braces of a double[]
# initializer, where a '#' line would be a preprocessor directive.
cat >"$tmp/fleetbench.py" <<'PY'
import math, re, sys
text = open(sys.argv[1], newline="").read()
assert text.endswith("\n"), "no newline at the end"
lines = text[:-1].split("\n")
assert len(lines) == 3, "%d lines, not 3" % len(lines)
def pairs(line):
    out = []
    for item in line.split(","):
        m = re.fullmatch(r"(\d+):([0-9.eE+-]+)", item)
        assert m, "not INT:FLOAT: %r" % item
        out.append((int(m.group(1)), float(m.group(2))))
    return out
sizes, overlap, align = map(pairs, lines)
for name, p in (("sizes", sizes), ("overlap", overlap), ("alignment", align)):
    assert all(0 <= w <= 1 for _, w in p), "%s: a probability outside 0..1" % name
    assert math.isclose(sum(w for _, w in p), 1, abs_tol=1e-5), "%s sum to %r" % (name, sum(w for _, w in p))
assert [s for s, _ in sizes] == sorted(set(s for s, _ in sizes)), "sizes not rising"
assert [a for a, _ in align] == [1, 2, 4, 8, 16, 32, 64], "alignments %r" % align
PY
expect "trace: the fleetbench reader takes a file that ships" \
	python3 "$tmp/fleetbench.py" data/distributions/Memcpy_1.csv
expect "trace: FILE.csv is fleetbench's three lines, nothing else" \
	python3 "$tmp/fleetbench.py" "$tmp/t.csv"
cc=${CC:-cc}
if command -v "$cc" >/dev/null 2>&1; then
	cp "$tmp/t.llvm.csv" "$tmp/dist.inc"
	cat >"$tmp/llvm.c" <<'C'
#include <stdio.h>
static const double p[] = {
#include "dist.inc"
};
int main(void)
{
	double sum = 0;
	for (size_t i = 0; i < sizeof p / sizeof *p; i++)
		sum += p[i];
	printf("%zu %.6f\n", sizeof p / sizeof *p, sum);
	return 0;
}
C
	# Sizes 0 to 4096, as LLVM's own files: its benchmark aborts on
	# more probabilities than (L1D - 5 KiB) / 2 (13,824 on a 32 KiB L1D;
	# the copy of 50000 bytes made this file 50,001 long).
	expect "trace: FILE.llvm.csv compiles inside a C double[] initializer: 4097 probabilities summing to 1" \
		sh -c "'$cc' -o '$tmp/llvm' '$tmp/llvm.c' 2>'$err' && [ \"\$('$tmp/llvm')\" = '4097 1.000000' ]"
	rm -f "$tmp/dist.inc" "$tmp/llvm.c" "$tmp/llvm"
	# Every copy over 4 KiB: no .llvm.csv at all (an empty one is an
	# empty initializer to LLVM's benchmark), and stderr says so.
	cat >"$tmp/large.c" <<'C'
#include <string.h>
int main(void)
{
	static char a[5000], b[5000];
	void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
	cpy(a, b, sizeof a);
	return 0;
}
C
	if "$cc" -o "$tmp/large" "$tmp/large.c" 2>"$err"; then
		run trace -o "$tmp/large" -- "$tmp/large"
		expect "trace: every copy over 4 KiB: no .llvm.csv, said on stderr and in the .seq" \
			sh -c "[ $rc -eq 0 ] && [ ! -e '$tmp/large.llvm.csv' ] && grep -qx '5000:1' '$tmp/large.csv' &&
			       grep -q \"^ucopy trace: no $tmp/large.llvm.csv: every copy is over 4 KiB\" '$err' &&
			       grep -qx \"ucopy trace: 1 copies in 1 thread of 1 process: $tmp/large.seq, $tmp/large.csv\" '$err' &&
			       grep -qx '# distributions: .csv holds all 1 recorded copies, no .llvm.csv (every copy is over 4 KiB)' '$tmp/large.seq' &&
			       [ -z \"\$(ls -A '$tmp' | grep '^\\.*large.*tmp\|large.parts')\" ]"
	fi
	rm -f "$tmp"/large*
else
	echo "SKIP trace: FILE.llvm.csv inside a C initializer: no C compiler ($cc)"
fi
rm -f "$tmp/fleetbench.py"
# --dist still reads the same files with comment lines around them.
{ echo '# sizes, overlap, alignment'; cat "$tmp/t.csv"; echo '# end'; } >"$tmp/c.csv"
run bench --dist "$tmp/c.csv" --kernels libc --seconds 0.1
expect "trace: bench --dist reads the distribution with comments too" \
	grep -q '^# distribution .*/c.csv (fleetbench, 10 sizes, mean 5541.7 B)' "$out"
{ echo '# probabilities of sizes 0, 1, 2...'; cat "$tmp/t.llvm.csv"; echo '# end'; } >"$tmp/c.csv"
run bench --dist "$tmp/c.csv" --kernels libc --seconds 0.1
expect "trace: ... and the LLVM-format one (the copy of 50000 bytes left out)" \
	grep -q '^# distribution .*/c.csv (llvm-libc, 9 sizes, mean 601.9 B)' "$out"
rm -f "$tmp/c.csv"
expect "trace: the .seq's header says what the distributions hold" \
	grep -qx '# distributions: .csv holds all 10 recorded copies, .llvm.csv 9 (1 over 4 KiB left out)' "$tmp/t.seq"
run bench --dist "$tmp/t.llvm.csv" --kernels libc --seconds 0.1
expect "trace: bench --dist reads the LLVM-format distribution, the same 9 sizes" \
	grep -q '^# distribution .*/t.llvm.csv (llvm-libc, 9 sizes, mean 601.9 B)' "$out"
run bench --replay "$tmp/t.seq" --kernels libc --seconds 0.1
expect "trace: bench --replay replays the sequence, all 10 calls of both threads" \
	grep -q '^# regime recorded: the recorded order of 10 calls from 2 threads' "$out"

# --cap 4: the main thread's 7 calls keep every 2nd (calls 0, 2, 4, 6).
run trace --cap 4 -o "$tmp/c" -- "$prog"
grep -v '^#' "$tmp/c.seq" >"$tmp/got"
printf '0 0 0 0 0\n0 64 0 0 64\n0 200 10 20 10\n0 4096 33 17 4080\n' >"$tmp/want"
expect "trace --cap: past the cap every k-th call is kept" \
	sh -c "head -4 '$tmp/got' | cmp -s - '$tmp/want' && [ \$(wc -l <'$tmp/got') -eq 7 ]"
expect "trace --cap: the header says so" \
	grep -q '^# sampled: thread 0 made 7 calls: every 2nd call is recorded (the cap is 4 a thread' "$tmp/c.seq"

run trace --summary "$tmp/t.seq"
expect "trace --summary: calls and bytes per size class" \
	sh -c "grep -q '^1-16  *3  *30.0%  *24 ' '$out' && grep -q '^32769-64K  *1  *10.0%  *50000  *90.2%' '$out'"
expect "trace --summary: predictability" \
	sh -c "grep -q 'same size class as the previous call: 0.0%' '$out' && grep -q 'size-class entropy: 2.65 bits' '$out'"
printf '# ucopy sequence 1\n0 8 0 0 0\n0 8 0 0 0\n0 8 0 0 0\n1 8 0 0 0\n1 8 0 0 0\n' >"$tmp/same.seq"
run trace --summary "$tmp/same.seq"
expect "trace --summary: one size repeated is fully predictable" \
	sh -c "grep -q 'same size class as the previous call: 100.0%' '$out' && grep -q 'entropy: 0.00 bits; given the previous call.s class: 0.00 bits' '$out'"

# Totals past 2^64 bytes, exact: three copies of 2^64 - 1 bytes and one of
# 2^40 - 1 (what the recorder writes for 2^40 and more); and below 2^64, two
# of 2^53 + 1, which a double would round.  Each class named by its first
# and last size.
printf '# ucopy sequence 1\n0 18446744073709551615 0 0 0\n0 1099511627775 0 0 0\n0 18446744073709551615 0 0 0\n0 18446744073709551615 0 0 0\n' >"$tmp/huge.seq"
run trace --summary "$tmp/huge.seq"
expect "trace --summary: a total past 2^64 bytes, exact" \
	grep -q ': 4 calls in 1 thread, 55340233320640282620 bytes copied$' "$out"
expect "trace --summary: ... per class too, and the classes' names" \
	sh -c "grep -q '^512G+1-1T  *1  *25.0%  *1099511627775  *0.0%\$' '$out' &&
	       grep -q '^over 8E  *3  *75.0%  *55340232221128654845 *100.0%\$' '$out'"
printf '# ucopy sequence 1\n0 9007199254740993 0 0 0\n0 9007199254740993 0 0 0\n0 1048577 0 0 0\n' >"$tmp/odd.seq"
run trace --summary "$tmp/odd.seq"
expect "trace --summary: a total a double would round, exact" \
	sh -c "grep -q ': 3 calls in 1 thread, 18014398510530563 bytes copied\$' '$out' &&
	       grep -q '^8P+1-16P  *2 .* 18014398509481986 ' '$out' && grep -q '^1M+1-2M  *1 ' '$out'"
rm -f "$tmp/huge.seq" "$tmp/odd.seq"

# The program's line reads back exactly: every argument after one space,
# with \\, '\ ', \n, \r, \t and \xNN for what would be ambiguous.
run trace -o "$tmp/a" -- "$prog" 'a b' 'c\d' "$(printf 'e\rf')" "$(printf 'g\nh')" \
	"$(printf '\tx\001\177')" '' 'y\' 'é' 'z '
cat >"$tmp/args.py" <<'PY'
import os, sys
esc = {b"\\": b"\\", b" ": b" ", b"n": b"\n", b"r": b"\r", b"t": b"\t"}
line = next(l for l in open(sys.argv[1], "rb").read().split(b"\n") if l.startswith(b"# program:"))
rest, args, i = line[len(b"# program:"):], [], 0
while i < len(rest):
    c = rest[i:i + 1]
    if c == b" ":
        args.append(b"")
        i += 1
    elif c == b"\\" and rest[i + 1:i + 2] == b"x":
        args[-1] += bytes([int(rest[i + 2:i + 4], 16)])
        i += 4
    elif c == b"\\":
        args[-1] += esc[rest[i + 1:i + 2]]
        i += 2
    else:
        args[-1] += c
        i += 1
want = [os.fsencode(a) for a in sys.argv[2:]]
assert args == want, "%r != %r" % (args, want)
PY
expect "trace: the '# program:' line reads back to the very arguments" \
	python3 "$tmp/args.py" "$tmp/a.seq" "$prog" 'a b' 'c\d' "$(printf 'e\rf')" "$(printf 'g\nh')" \
	"$(printf '\tx\001\177')" '' 'y\' 'é' 'z '
rm -f "$tmp/args.py" "$tmp"/a.*

bad() {
	name=$1 content=$2 pattern=$3
	printf "$content" >"$tmp/bad.seq"
	usage_error "trace --summary refuses $name" "$pattern" trace --summary "$tmp/bad.seq"
}
bad "a file without the header" '0 1 2 6 4\n' "bad.seq:1: '0 1 2 6 4' is not a sequence header (expected '# ucopy sequence 1')"
bad "an empty file" '' "bad.seq: empty sequence file (expected '# ucopy sequence 1'"
bad "four fields" '# ucopy sequence 1\n0 1 2 3\n' "bad.seq:2: 4 fields in '0 1 2 3' (expected 5"
bad "two spaces" '# ucopy sequence 1\n0  1 2 6 4\n' "bad.seq:2: bad size ''"
bad "src_align 64" '# ucopy sequence 1\n# x\n0 1 64 3 4\n' "bad.seq:3: source alignment '64' is out of range (expected 0..63)"
bad "distance 4096" '# ucopy sequence 1\n0 1 2 3 4096\n' "bad.seq:2: distance '4096' is out of range (expected 0..4095)"
bad "alignments that do not fit the distance" '# ucopy sequence 1\n0 1 2 3 4\n' "bad.seq:2: destination alignment 3 does not match"
bad "a thread that comes back" '# ucopy sequence 1\n0 1 2 6 4\n1 1 2 6 4\n0 1 2 6 4\n' "bad.seq:4: thread 0's calls again after another thread's"
bad "CRLF line endings" '# ucopy sequence 1\r\n0 1 2 6 4\r\n' "bad.seq:1: a CRLF line ending (expected LF alone"
printf '# ucopy sequence 1\n0 1 2 6 4\n1 300 0 0 0\n' >"$tmp/one.seq"
run trace --summary "$tmp/one.seq"
# nan as a word: the summary's first line names the file, and mktemp's
# random directory name can hold the letters (tmp.vNZjnWnanh failed CI).
expect "trace --summary: one call a thread has no conditional entropy, and says so" \
	sh -c "[ $rc -eq 0 ] && grep -q \"given the previous call's class: no two calls in a row in one thread\" '$out' && ! grep -qiw nan '$out'"
usage_error "trace -o ''" "empty output file name" trace -o '' -- true
usage_error "trace -o in a directory that does not exist: exit 2, as the other commands' -o" \
	"cannot write '$tmp/none/t.seq': No such file" \
	trace -o "$tmp/none/t" -- true
bad "a last line without its newline" '# ucopy sequence 1\n0 1 2 6 4' "bad.seq:2: truncated: the line has no end"
usage_error "trace --summary: a missing file" "cannot read" trace --summary "$tmp/none.seq"
usage_error "trace: no '--'" "no program to trace" trace
usage_error "trace: a bad --cap" "bad --cap '1'" trace --cap 1 -- true
usage_error "trace: a --cap past what a sequence file holds" \
	"bad --cap '16777217' (expected a number of calls, 2 to 16777216)" trace --cap 16777217 -- true
# An output that cannot be written is refused before the program runs,
# as every other command's -o: the .seq, or any of the others, and nothing
# is left behind (no records directory, no half-opened output).
mkdir "$tmp/k.seq"
usage_error "trace: a PREFIX.seq that is a directory is refused before the program runs" \
	"cannot write '$tmp/k.seq': a directory (expected a regular file)" \
	trace -o "$tmp/k" -- sh -c "echo ran >'$tmp/ran'"
expect "trace: ... the program did not run, no records directory" \
	sh -c "[ ! -e '$tmp/ran' ] && [ -z \"\$(ls -d '$tmp'/k.parts.* 2>/dev/null)\" ]"
rmdir "$tmp/k.seq"
mkdir "$tmp/k.llvm.csv"
usage_error "trace: a PREFIX.llvm.csv that is a directory is refused too" \
	"cannot write '$tmp/k.llvm.csv': a directory" trace -o "$tmp/k" -- true
expect "trace: ... and the outputs opened before it are gone" \
	sh -c "[ -z \"\$(ls -A '$tmp' | grep -v '^k.llvm.csv\$' | grep '^\\.\\?k')\" ]"
rmdir "$tmp/k.llvm.csv"
# An output that cannot be completed after the program ran (here its name
# became a directory meanwhile): no output replaces anything, and the
# processes' records are kept and named instead of being lost with the run.
run trace -o "$tmp/k" -- sh -c "mkdir '$tmp/k.seq' && exec '$B/tests/copy_loop' 100"
expect "trace: an output that cannot be completed keeps the records, writes nothing" \
	sh -c "[ $rc -eq 1 ] && grep -q \"cannot write '$tmp/k.seq'\" '$err' &&
	       grep -q 'records are kept in $tmp/k.parts' '$err' &&
	       [ -n \"\$(ls '$tmp'/k.parts.*/ 2>/dev/null)\" ] &&
	       [ ! -e '$tmp/k.csv' ] && [ ! -e '$tmp/k.llvm.csv' ] &&
	       [ -z \"\$(ls -A '$tmp' | grep '^\\.k')\" ]"
rm -rf "$tmp"/k.*
mkdir "$tmp/d"
usage_error "trace: -o DIR/ names no file (it would write DIR/.seq)" \
	"cannot write '$tmp/d/': not a file name (expected -o PREFIX" trace -o "$tmp/d/" -- true
expect "trace: ... nothing written in DIR" [ -z "$(ls -A "$tmp/d")" ]
rm -rf "$tmp"/k.*
usage_error "trace: a program that does not exist" "cannot run" trace -o "$tmp/x" -- /nonexistent/x
expect "trace: nothing left behind when the program could not run" [ -z "$(ls -d "$tmp"/x* 2>/dev/null)" ]
run trace -o "$tmp/k" -- sh -c 'kill -KILL $$'
expect "trace: a program that leaves no record is an error, and nothing is written" \
	sh -c "[ $rc -eq 1 ] && grep -q 'no copies were recorded' '$err' && [ -z \"\$(ls -d '$tmp'/k* 2>/dev/null)\" ]"

# Two processes of the program under a shell: both records merged, each
# thread's calls still together and in order.
run trace -o "$tmp/f" -- sh -c "'$BABS/tests/trace_prog'; '$BABS/tests/trace_prog'"
expect "trace: the processes a program starts are merged" \
	sh -c "[ $rc -eq 0 ] && grep -qE '^# [2-9][0-9]* processes' '$tmp/f.seq' &&
		[ \$(grep -c '^[0-9]* 50000 0 63 4095\$' '$tmp/f.seq') -eq 2 ] &&
		[ \$(grep -c '^[0-9]* 1000 5 32 3995\$' '$tmp/f.seq') -eq 2 ]"
run trace --summary "$tmp/f.seq"
expect "trace: the merged file reads back" [ "$rc" -eq 0 ]

# A copy over 64 MiB: recorded in the .seq, left out of the distributions
# (the .seq's header and stderr say so), and the command says that --replay
# will refuse the .seq.
run trace -o "$tmp/big" -- "$prog" big
expect "trace: a copy over 64 MiB is recorded, and the command says --replay refuses the file" \
	sh -c "[ $rc -eq 0 ] && grep -q '^[0-9]* 67108865 ' '$tmp/big.seq' &&
	       grep -q \"1 copy is over 64 MiB, more than a replay takes: --replay refuses $tmp/big.seq\" '$err'"
expect "trace: ... left out of the distributions, which say nothing of it, and said so on stderr and in the .seq" \
	sh -c "[ \"\$(cat '$tmp/big.csv')\" = \"\$(printf '64:1\\n0:1\\n1:0.5,2:0,4:0,8:0,16:0,32:0,64:0.5')\" ] &&
	       [ \$(wc -l <'$tmp/big.llvm.csv') -eq 1 ] && ! grep -q '#' '$tmp/big.llvm.csv' &&
	       grep -q '^ucopy trace: 1 copy over 64 MiB left out of the .csv and .llvm.csv distributions' '$err' &&
	       grep -qx '# distributions: .csv holds 1 of the 2 recorded copies (1 over 64 MiB left out), .llvm.csv 1 (1 over 4 KiB left out)' '$tmp/big.seq'"
run bench --replay "$tmp/big.seq" --kernels libc --seconds 0.1
expect "trace: ... and bench --replay does refuse it" \
	sh -c "[ $rc -eq 2 ] && grep -q \"big.seq:.*size '67108865' is out of range\" '$err'"
