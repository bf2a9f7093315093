# The ABI of libucopy.so.0 as the project records it (include/ucopy.h,
# "ABI"): sourced by tests/cli/abi.sh, which compares a build with the
# baseline kept here, and run by `make abi`, which writes that baseline:
#   sh abi/abi.sh write LIBRARY ARCH
# abi/libucopy-ARCH.abi: libabigail's abidw of the exported interface (the
# functions, their symbol versions, the layouts they reach).
# abi/constants: every enumerator and integer macro of the headers
# (include/ucopy.h, and include/ucopy-asm.h, whose values a routine's
# object carries in its notes), whose values abidw cannot see (UCOPY_F()
# bits reach no signature), less those that change by design: the version,
# and UCOPY_FEAT_COUNT; and the bytes of one note UCOPY_EXTABLE_TYPE()
# writes, the layout a routine's object and the library must agree on.

# abi_dump LIBRARY: abidw's record, without paths or source lines, so that
# it changes only when the interface does.
abi_dump() {
	abidw --no-corpus-path --no-comp-dir-path --no-show-locs \
		--exported-interfaces-only "$1"
}

# abi_constant_names HEADER: the names abi_constants prints.
abi_constant_names() {
	{
		sed -n 's/^#[[:space:]]*define[[:space:]]\{1,\}\(UCOPY_[A-Z0-9_]*\)[[:space:]].*/\1/p' "$1"
		grep -E '^[[:space:]]+UCOPY_[A-Z0-9_]+[[:space:]]*([,=]|/\*|$)' "$1" |
			sed 's/^[[:space:]]*\(UCOPY_[A-Z0-9_]*\).*/\1/'
	} | grep -vxE 'UCOPY_(H|ASM_H|API|RESTRICT|VERSION_(MINOR|PATCH|NUMBER)|FEAT_COUNT)' | sort -u
}

# abi_note CC DIR INCLUDE: the note of a site whose instruction and fixup
# are the words that name them (offsets 0), of type UCOPY_EX_TRAPNR, as
# hex bytes: the layout, name, type and padding UCOPY_EXTABLE_TYPE() writes.
abi_note() {
	printf '#include <ucopy-asm.h>\nUCOPY_EXTABLE_TYPE(., ., UCOPY_EX_TRAPNR)\n' >"$2/note.S" &&
	$1 -c -I"$3" -o "$2/note.o" "$2/note.S" &&
	objcopy -O binary -j .note.ucopy.extable "$2/note.o" "$2/note.bin" &&
	od -An -v -tx1 "$2/note.bin" | tr -d ' \n'
}

# abi_constants CC DIR HEADER...: "NAME VALUE" for each, one a line,
# sorted; the program that prints them is built in DIR with CC (the host's
# compiler: the values do not depend on the architecture); then the note.
abi_constants() {
	abi_cc=$1 abi_dir=$2
	shift 2
	{
		printf '#include <stdio.h>\n'
		printf '#include "%s"\n' "$@"
		printf 'int main(void)\n{\n'
		for n in $(for h in "$@"; do abi_constant_names "$h"; done | sort -u); do
			printf '\tprintf("%%s %%lld\\n", "%s", (long long)(%s));\n' "$n" "$n"
		done
		printf '\treturn 0;\n}\n'
	} >"$abi_dir/constants.c" &&
	$abi_cc -o "$abi_dir/constants" "$abi_dir/constants.c" &&
	abi_note=$(abi_note "$abi_cc" "$abi_dir" "$(dirname "$1")") &&
	{ "$abi_dir/constants"; echo "UCOPY_EXTABLE_TYPE(.,.,UCOPY_EX_TRAPNR) $abi_note"; } | LC_ALL=C sort
}

if [ "${1-}" = write ]; then
	lib=$2 arch=$3
	here=$(dirname "$0")
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
	command -v abidw >/dev/null || { echo "abi: needs abidw (Debian's abigail-tools)" >&2; exit 1; }
	{
		echo "# Written by \`make abi\` (abi/abi.sh): the values include/ucopy.h's and"
		echo "# include/ucopy-asm.h's enumerators and macros hold in libucopy.so.0, and"
		echo "# the bytes of one fault site's note; checked by tests/cli/abi.sh."
		abi_constants "${HOSTCC:-cc}" "$tmp" "$PWD/include/ucopy.h" "$PWD/include/ucopy-asm.h"
	} >"$tmp/constants.new" || exit 1
	abi_dump "$lib" >"$tmp/abi.new" || exit 1
	mv "$tmp/constants.new" "$here/constants"
	mv "$tmp/abi.new" "$here/libucopy-$arch.abi"
	echo "abi: wrote $here/libucopy-$arch.abi and $here/constants from $lib"
fi
