# The ABI of libucopy.so.0 as the project records it (include/ucopy.h,
# "ABI"): sourced by tests/cli/abi.sh, which compares a build with the
# baseline kept here, and run by `make abi`, which writes that baseline:
#   sh abi/abi.sh write LIBRARY ARCH
# abi/libucopy-ARCH.abi: libabigail's abidw of the exported interface (the
# functions, their symbol versions, the layouts they reach).
# abi/constants: every enumerator and integer macro of the header, whose
# values abidw cannot see (UCOPY_F() bits reach no signature), less those
# that change by design: the version, and UCOPY_FEAT_COUNT.

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
	} | grep -vxE 'UCOPY_(H|API|RESTRICT|VERSION_(MINOR|PATCH|NUMBER)|FEAT_COUNT)' | sort -u
}

# abi_constants HEADER CC DIR: "NAME VALUE" for each, one a line, sorted; the
# program that prints them is built in DIR with CC (the host's compiler:
# the values do not depend on the architecture).
abi_constants() {
	{
		printf '#include <stdio.h>\n#include "%s"\nint main(void)\n{\n' "$1"
		for n in $(abi_constant_names "$1"); do
			printf '\tprintf("%%s %%lld\\n", "%s", (long long)(%s));\n' "$n" "$n"
		done
		printf '\treturn 0;\n}\n'
	} >"$3/constants.c" &&
	$2 -o "$3/constants" "$3/constants.c" && "$3/constants" | LC_ALL=C sort
}

if [ "${1-}" = write ]; then
	lib=$2 arch=$3
	here=$(dirname "$0")
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
	command -v abidw >/dev/null || { echo "abi: needs abidw (Debian's abigail-tools)" >&2; exit 1; }
	{
		echo "# Written by \`make abi\` (abi/abi.sh): the values include/ucopy.h's"
		echo "# enumerators and macros hold in libucopy.so.0, checked by tests/cli/abi.sh."
		abi_constants "$PWD/include/ucopy.h" "${HOSTCC:-cc}" "$tmp"
	} >"$tmp/constants.new" || exit 1
	abi_dump "$lib" >"$tmp/abi.new" || exit 1
	mv "$tmp/constants.new" "$here/constants"
	mv "$tmp/abi.new" "$here/libucopy-$arch.abi"
	echo "abi: wrote $here/libucopy-$arch.abi and $here/constants from $lib"
fi
