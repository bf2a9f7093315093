# The measuring core times each kind of variant from loops of its own
# (programs/core/measure.c, BATCH_SITE).  The kernel, copy and try kinds'
# loops differ in the callee's type alone, so they must compile to the same
# instructions: where they did not, one kind's loop cost 1-5% more on the
# fleetbench distributions, and make bench's bar 5 read that as ucopy_try's.
# Each site's disassembly, addresses, call targets and rip-relative
# displacements left out (clang's loops load a global, each from its own
# place), may differ from the copy kind's in one line: the load of the
# variant's own member.
. tests/cli/lib.sh

bin=$B/ucopy
# The binary's machine (ELF e_machine, at byte 18): 62 x86-64, 183 aarch64.
case $(od -An -j18 -N2 -tu2 "$bin" 2>/dev/null | tr -d ' ') in
62) objdump=objdump ;;
183) objdump=aarch64-linux-gnu-objdump ;;
*) objdump= ;;
esac
if [ -z "$objdump" ] || ! command -v "$objdump" >/dev/null; then
	echo "SKIP sites: no objdump for $bin's architecture"
	exit 0
fi
if ! nm "$bin" 2>/dev/null | grep -q ' run_batch_copy_0_0$'; then
	if nm "$bin" 2>&1 | grep -q 'no symbols'; then
		echo "SKIP sites: $bin is stripped"
		exit 0
	fi
fi

dis=$(mktemp -d)
trap 'rm -rf "$out" "$err" "$dis"' EXIT
# site KIND SLOT_PLACE: the function's instructions, without the address
# column, the symbolic targets and the absolute addresses before them.
site() {
	"$objdump" -d --no-show-raw-insn "$bin" |
		awk -v f="<run_batch_$1_$2>:" '$2 == f { on = 1; next } on && /^$/ { exit } on' |
		sed -e 's/^ *[0-9a-f]*:[[:space:]]*//' -e 's/[[:space:]]*[#;].*//' \
		    -e 's/[0-9a-f]* <[^>]*>//' -e 's/-*0x[0-9a-f]*(%rip)/(%rip)/g'
}
rc=0
for sp in 0_0 7_1 15_3; do
	site copy "$sp" >"$dis/copy"
	n=$(wc -l <"$dis/copy")
	expect "sites: run_batch_copy_$sp is in $bin ($n lines)" [ "$n" -gt 20 ]
	for kind in kernel try; do
		site "$kind" "$sp" >"$dis/$kind"
		diff "$dis/copy" "$dis/$kind" >"$dis/diff"
		d=$(grep -c '^[<>]' "$dis/diff")
		same=no
		[ "$(wc -l <"$dis/$kind")" -eq "$n" ] && [ "$d" -le 2 ] && same=yes
		expect "sites: run_batch_${kind}_$sp is run_batch_copy_$sp's code but for its member's load ($d lines differ: $(grep '^[<>]' "$dis/diff" | head -4 | tr '\n' ' '))" \
			[ $same = yes ]
	done
done
