# The library's own code never copies through memcpy, memmove or mempcpy
# (lib/internal.h, lib_copy): a program may route those into ucopy, and the
# library's first use must not come back through them.  Only the `libc`
# kernel (lib/kernel.o), whose job is to call the C library's memcpy, may.
. tests/cli/lib.sh

if ! command -v nm >/dev/null; then
	echo "SKIP symbols: nm is not installed"
	exit 0
fi
found=
for o in "$B"/lib/*.o "$B"/lib/*/*.o; do
	case $o in */kernel.o) continue ;; esac
	u=$(nm -u "$o" | awk '$2 ~ /^(memcpy|memmove|mempcpy)$/ { print $2 }' | tr '\n' ' ')
	[ -n "$u" ] && found="$found ${o##*/}: $u"
done
rc=0
expect "symbols: no library object but kernel.o calls memcpy/memmove/mempcpy${found:+ (found$found)}" \
	[ -z "$found" ]
