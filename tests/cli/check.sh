# ucopy check: routines of each contract that are right pass; each seeded
# bug fails with the right first case, as one line that --case reproduces;
# a routine that crashes or hangs costs its case, not the command;
# --max-failures, --count and each bad input (tests/routines/check_*).
. tests/cli/lib.sh

C=$BABS/tests/libroutine_check_c.so
T=$BABS/tests/libroutine_check_try.so
if [ ! -e "$C" ]; then
	echo "SKIP check: $C is not built (make check builds it)"
	exit 0
fi
page=$(getconf PAGESIZE 2>/dev/null || echo 4096)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT

# first NAME LINE ARGS...: ucopy check ARGS exits 1 and its first FAIL
# line is LINE, exactly.
first() {
	name=$1 line=$2; shift 2
	run check "$@"
	got=$(grep -m1 '^FAIL ' "$out")
	if [ "$rc" -eq 1 ] && [ "$got" = "$line" ]; then
		echo "PASS check: $name"
	else
		echo "FAIL check: $name: rc=$rc"
		echo "  expected: $line"
		echo "  got:      $got"
		sed 's/^/  stderr: /' "$err" | head -3
	fi
}

# rerun NAME: the rerun line of the last run, run: the same FAIL line, one
# case run.
rerun() {
	name=$1
	line=$(grep -m1 '^FAIL ' "$out")
	cmd=$(grep -m1 '^  rerun: ucopy check ' "$out" | sed 's/^  rerun: ucopy check //')
	eval "set -- $cmd"
	run check "$@"
	expect "check: $name: the rerun line reproduces its case" \
		sh -c "[ $rc -eq 1 ] && [ \"\$(grep '^FAIL ' '$out')\" = \"$line\" ] &&
			grep -q ': 1 case run, 1 failed' '$out'"
}

# Right routines of each contract pass, glibc's memcpy and memmove too.
for r in "$C:check_memcpy" "$C:check_memmove:memmove" "$C:check_memmove" \
	libc.so.6:memcpy libc.so.6:memmove:memmove; do
	run check --routine "$r" --quick
	expect "check: $r passes" sh -c "[ $rc -eq 0 ] && grep -q '^$r: [0-9]* cases run, 0 failed' '$out' &&
		! grep -q '^FAIL' '$out'"
done

# (b) one byte written past the end.
first "a memcpy that writes dst[n] fails at the first case, said so" \
	"FAIL $C:check_memcpy_past_end size=0 src_align=0 dst_align=0: wrote 1 byte past the end (dst[0])" \
	--routine "$C:check_memcpy_past_end" --quick
rerun past_end
# A read past the end meets the guard page where the copy ends a page.
first "a memcpy that reads src[n] crashes on the first case flush against the guard page" \
	"FAIL $C:check_memcpy_overread size=1 src_align=$((page - 1)) dst_align=$((page - 1)): the routine was killed by SIGSEGV (a fault outside its contract: an access outside src[0..n) and dst[0..n) meets a guard page)" \
	--routine "$C:check_memcpy_overread" --quick
rerun overread
first "a memcpy returning dst+1 fails" \
	"FAIL $C:check_memcpy_ret size=0 src_align=0 dst_align=0: returned dst+1, expected dst" \
	--routine "$C:check_memcpy_ret" --quick

# (d) a memmove that copies forward always breaks where dst is above src.
first "a memmove that copies forward fails at the first overlap with dst above src" \
	"FAIL $C:check_memmove_forward:memmove size=2 src_align=0 delta=1: dst[1] is 0x00, expected 0x64 (1 of 2 bytes wrong)" \
	--routine "$C:check_memmove_forward:memmove" --quick
rerun memmove_forward
# A memcpy is not a memmove.
first "a memcpy under the memmove contract fails the same way" \
	"FAIL $C:check_memcpy:memmove size=2 src_align=0 delta=1: dst[1] is 0x00, expected 0x64 (1 of 2 bytes wrong)" \
	--routine "$C:check_memcpy:memmove" --quick

# A routine that hangs at one size: that case is reported, the run stops.
first "a routine that hangs at 77 bytes fails that case as hung (--timeout 1)" \
	"FAIL $C:check_memcpy_hang size=77 src_align=0 dst_align=0: the routine did not return within 1 s (hung); it was killed" \
	--routine "$C:check_memcpy_hang" --quick --timeout 1

# --max-failures: N lines then the run stops; 0 runs every case.
run check --routine "$C:check_memmove_forward:memmove" --quick --max-failures 3
expect "check: --max-failures 3 stops at the third failing case" \
	sh -c "[ $rc -eq 1 ] && [ \$(grep -c '^FAIL ' '$out') -eq 3 ] &&
		grep -q 'cases run, 3 failed (stopped at --max-failures 3)' '$out'"
run check --routine "$C:check_memcpy_ret" --quick --max-failures 0
n=$(grep -c '^FAIL ' "$out")
expect "check: --max-failures 0 goes on to the end: every case of a routine with the wrong return fails" \
	sh -c "[ $rc -eq 1 ] && [ $n -gt 1000 ] && grep -q ': $n cases run, $n failed, ' '$out'"

# A try routine with no fault sites at all: a note, then its first
# injected fault kills it.
first "a try routine without fault sites dies at the first injected fault" \
	"FAIL $C:check_try_unlisted:try size=1 dst_align=1 fault=src-segv@0: the routine was killed by SIGSEGV at the injected fault (the likely cause: the faulting access has no fault-table entry, UCOPY_EXTABLE of <ucopy-asm.h>; its object lists none)" \
	--routine "$C:check_try_unlisted:try" --quick
expect "check: a try routine without fault sites is said to have none, once" \
	sh -c "[ \$(grep -c 'lists no fault sites' '$err') -eq 1 ]"

# Bad input: one line, exit 2.
usage_error "check: no routine" "no routine (expected --routine" check --quick
usage_error "check: a bad --faults" "bad --faults 'both,src' (expected both, src or dst)" \
	check --routine "$C:check_memcpy" --faults both,src
usage_error "check: --faults with --case" "--faults with --case (the case names its side)" \
	check --routine "$C:check_memcpy" --faults src --case size=1
usage_error "check: a missing file" "bad --routine '/nonexistent/x.so:f': cannot open '/nonexistent/x.so'" \
	check --routine /nonexistent/x.so:f
usage_error "check: a missing symbol" "bad --routine '$C:nosuch': no function 'nosuch' in" \
	check --routine "$C:nosuch"
usage_error "check: an unknown contract" "unknown contract 'frob' (expected memcpy, memmove or try)" \
	check --routine "$C:check_memcpy:frob"
echo "not a shared object" >"$tmp/text.so"
usage_error "check: a file that is no ELF" "'$tmp/text.so' is not an ELF file" \
	check --routine "$tmp/text.so:f"
usage_error "check: no SYMBOL" "expected LIB.so:SYMBOL" check --routine "$C"
for v in x -1 1.5; do
	usage_error "check: --max-failures $v" "bad --max-failures '$v' (expected a whole number" \
		check --routine "$C:check_memcpy" --max-failures "$v"
done
for v in 0 abc -2 0x10 1e9 100000; do
	usage_error "check: --timeout $v" "bad --timeout '$v' (expected seconds above 0" \
		check --routine "$C:check_memcpy" --timeout "$v"
done
usage_error "check: --count sometimes" "bad --count 'sometimes' (expected exact or at-least)" \
	check --routine "$C:check_memcpy" --count sometimes
usage_error "check: an unknown option" "unknown option '--frob'" check --routine "$C:check_memcpy" --frob
usage_error "check: --timeout twice" "given twice" check --routine "$C:check_memcpy" --timeout 1 --timeout 2
usage_error "check: --quick with --case" "--quick with --case" \
	check --routine "$C:check_memcpy" --quick --case size=1,src_align=0,dst_align=0
while IFS='|' read -r c why; do
	usage_error "check: --case '$c'" "bad --case '$c': $why" \
		check --routine "$C:check_memmove:memmove" --case "$c"
done <<EOF
|empty
size=1|no src_align (a copy case is size, src_align and dst_align)
size=1,src_align=0|no dst_align
src_align=0,dst_align=0|no size
size=1,,src_align=0|an empty item
size=1,src_align=0,dst_align=0,frob=1|unknown key 'frob'
size=1,size=2,src_align=0,dst_align=0|'size' given twice
size=x,src_align=0,dst_align=0|bad size 'x'
size=1,src_align=$page,dst_align=0|bad src_align '$page' (expected an offset in the page, 0..$((page - 1)))
size=1,src_align=0,dst_align=0,delta=1|dst_align with delta
size=1,src_align=0,delta=1,fault=src-segv@0|delta and fault together
size=4,dst_align=0,fault=src-segv@4|a fault at byte 4 of a 4-byte copy
size=4,src_align=0,fault=src-segv@1|src_align with a fault on that side
size=4,dst_align=0,fault=src-kill@1|bad fault 'src-kill@1'
size=4,src_align=0,delta=1-|bad delta '1-'
size|'size' is not KEY=VALUE
EOF
usage_error "check: a fault case for a memcpy routine" "is a fault case, for a try routine ('$C:check_memcpy' is memcpy)" \
	check --routine "$C:check_memcpy" --case size=4,dst_align=0,fault=src-segv@1
usage_error "check: an overlap case for a memcpy routine" "is an overlap case, for a memmove routine" \
	check --routine "$C:check_memcpy" --case size=4,src_align=0,delta=1
run check --routine "$C:check_memmove:memmove" --case "size=4 src_align=3 delta=-2"
expect "check: --case takes a FAIL line's form (spaces) and runs that one case" \
	sh -c "[ $rc -eq 0 ] && grep -q ': 1 case run, 0 failed' '$out'"

# The try contract, with fault sites of <ucopy-asm.h>.
if [ ! -e "$T" ]; then
	echo "SKIP check: try routines: $T is not built (no tests/routines/check_try_ARCH.S for this architecture)"
	exit 0
fi
run check --routine "$T:check_try:try" --quick
expect "check: a right try routine passes the copy and fault matrices" \
	sh -c "[ $rc -eq 0 ] && grep -q '^$T:check_try:try: [0-9]* cases run, 0 failed' '$out' &&
		[ ! -s '$err' ]"
run check --routine "$T:check_try:try" --quick --count at-least
expect "check: a right try routine passes with --count at-least" sh -c "[ $rc -eq 0 ]"
# (a) a wrong count after a source fault.
first "a try routine that miscounts after a source fault fails at the first one" \
	"FAIL $T:check_try_count:try size=1 dst_align=1 fault=src-segv@0: returned 2, expected 1" \
	--routine "$T:check_try_count:try" --quick
rerun try_count
first "with --count at-least, it fails where its count passes the size" \
	"FAIL $T:check_try_count:try size=1 dst_align=1 fault=src-segv@0: returned 2, expected 1 to 1 (--count at-least)" \
	--routine "$T:check_try_count:try" --quick --count at-least
expect "check: the rerun line keeps --count at-least" \
	grep -q -- '--case size=1,dst_align=1,fault=src-segv@0 --count at-least$' "$out"
run check --routine "$T:check_try_count:try" --case size=9,dst_align=0,fault=src-bus@5 --count at-least
expect "check: with --count at-least a count one short is right" sh -c "[ $rc -eq 0 ]"
# (c) a missing fault-table entry: the child dies, the command goes on.
first "a try routine whose store has no fault-table entry dies at the first destination fault" \
	"FAIL $T:check_try_unlisted_store:try size=1 src_align=1 fault=dst-segv@0: the routine was killed by SIGSEGV at the injected fault (the likely cause: the faulting access has no fault-table entry, UCOPY_EXTABLE of <ucopy-asm.h>)" \
	--routine "$T:check_try_unlisted_store:try" --quick
rerun try_unlisted_store
run check --routine "$T:check_try_unlisted_store:try" --routine "$T:check_try:try" --quick --max-failures 3
expect "check: after the child dies the next child goes on: three crashes, then the next routine passes" \
	sh -c "[ $rc -eq 1 ] && [ \$(grep -c '^FAIL .*killed by SIG' '$out') -eq 3 ] &&
		grep -q 'fault=dst-bus@0: the routine was killed by SIGBUS at the injected fault' '$out' &&
		grep -q '^$T:check_try_unlisted_store:try: [0-9]* cases run, 3 failed (stopped' '$out' &&
		grep -q '^$T:check_try:try: [0-9]* cases run, 0 failed' '$out'"
