# The measuring core times each kind of variant from loops of its own
# (programs/core/sites.c, BATCH_SITE).  The kernel, copy and try kinds'
# loops differ in the callee's type alone, so they must compile to the same
# instructions: where they did not, one kind's loop cost 1-5% more on the
# fleetbench distributions, and make bench's bar 5 read that as ucopy_try's.
# Each site's disassembly, addresses, call targets and rip-relative
# displacements left out (clang's loops load a global, each from its own
# place), may differ from the copy kind's in one line: the load of the
# variant's own member.
. tests/cli/lib.sh

bin=$B/ucopy
# The binary's machine (ELF e_machine, at byte 18): 62 x86-64, 183 aarch64,
# and what starts a comment in its disassembly.
case $(od -An -j18 -N2 -tu2 "$bin" 2>/dev/null | tr -d ' ') in
62) objdump=objdump comment='#' ;;
183) objdump=aarch64-linux-gnu-objdump comment='//' ;;
*) objdump= ;;
esac
if [ -z "$objdump" ] || ! command -v "$objdump" >/dev/null; then
	echo "SKIP sites: no objdump for $bin's architecture"
	exit 0
fi
if nm "$bin" 2>&1 | grep -q 'no symbols'; then
	echo "SKIP sites: $bin is stripped"
	exit 0
fi

dis=$(mktemp -d)
trap 'rm -rf "$out" "$err" "$dis"' EXIT
"$objdump" -d --no-show-raw-insn "$bin" >"$dis/all"
# site KIND SLOT_PLACE: the function's instructions (a name LTO suffixed
# .lto_priv.N too), one a line: its offset from the function's start, a
# tab, and its text without the comment, with targets as symbols (the
# function's own as F+offset) and rip-relative displacements left out.
# With -n (numbers) every constant in the text becomes N.
site() {
	awk -v kind="$1" -v sp="$2" -v c="$comment" -v numbers="$3" '
	function hex(h,   i, v) {
		v = 0
		for (i = 1; i <= length(h); i++)
			v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		return v
	}
	$2 ~ "^<run_batch_" kind "_" sp "(\\.lto_priv\\.[0-9]+)?>:$" { on = 1; start = hex($1); next }
	on && /^$/ { exit }
	on && /^ *[0-9a-f]+:/ {
		line = $0
		sub(/^ */, "", line)
		at = hex(substr(line, 1, index(line, ":") - 1))
		text = substr(line, index(line, ":") + 1)
		if ((k = index(text, c)) > 0)
			text = substr(text, 1, k - 1)
		gsub(/[0-9a-f]+ <run_batch_[a-z_]+_[0-9]+_[0-9]+(\.lto_priv\.[0-9]+)?/, "<F", text)
		gsub(/[0-9a-f]+ </, "<", text)
		gsub(/-?0x[0-9a-f]+\(%rip\)/, "(%rip)", text)
		if (numbers == "-n")
			gsub(/(#|\$)?-?(0x[0-9a-f]+|[0-9]+)/, "N", text)
		gsub(/[ \t]+/, " ", text)
		sub(/^ /, "", text)
		sub(/ $/, "", text)
		printf "%d\t%s\n", at - start, text
	}' "$dis/all"
}
rc=0
for sp in 0_0 7_1 15_3; do
	site copy "$sp" >"$dis/copy"
	site copy "$sp" -n >"$dis/copy.n"
	n=$(wc -l <"$dis/copy")
	expect "sites: run_batch_copy_$sp is in $bin ($n instructions)" [ "$n" -gt 20 ]
	for kind in kernel try; do
		site "$kind" "$sp" >"$dis/$kind"
		site "$kind" "$sp" -n >"$dis/$kind.n"
		d=$(diff "$dis/copy" "$dis/$kind" | grep -c '^>')
		same=no
		[ "$n" -gt 20 ] && cmp -s "$dis/copy.n" "$dis/$kind.n" && [ "$d" -ge 1 ] && same=yes
		expect "sites: run_batch_${kind}_$sp is run_batch_copy_$sp's instructions at the same offsets, but for constants ($d differ: $(diff "$dis/copy" "$dis/$kind" | grep '^[<>]' | head -2 | tr '\t\n' '  '); shape: $(diff "$dis/copy.n" "$dis/$kind.n" | grep '^[<>]' | head -2 | tr '\t\n' '  '))" \
			[ $same = yes ]
	done
done
