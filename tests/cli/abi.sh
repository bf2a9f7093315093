# libucopy.so.0 keeps its ABI (include/ucopy.h, "ABI"; docs/design.md, "The
# ABI"): the version script names exactly the header's functions, the
# library exports them and nothing else, each at the version node the map
# gives it, and the interface, the headers' constants (include/ucopy.h's
# and include/ucopy-asm.h's) and the layout of a fault site's note match
# the baseline in abi/, so that a changed layout, signature, value or a
# lost symbol fails here unless the soname moves with it.  `make abi`
# records a deliberate change.
. tests/cli/lib.sh
. abi/abi.sh

rc=0
h=include/ucopy.h
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT

# check NAME MISSING: PASS when MISSING is empty.
check() {
	if [ -z "$2" ]; then echo "PASS $1"; else echo "FAIL $1:$2"; fi
}

declared=$(grep -A3 'UCOPY_API' $h | tr '\n' ' ' | grep -oE 'ucopy_[a-z0-9_]+ *\(' |
	sed 's/ *(//' | sort -u)
mapped=$(sed -n 's/^[[:space:]]*\(ucopy_[a-z0-9_]*\);.*/\1/p' lib/libucopy.map | sort -u)
check "abi: lib/libucopy.map names exactly the $(echo $declared | wc -w) functions $h declares" \
	"$(printf '%s\n' "$declared" "$mapped" | sort | uniq -u | sed 's/^/ /' | tr -d '\n')"

if ! command -v readelf >/dev/null || [ ! -e "$B/libucopy.so" ]; then
	echo "SKIP abi: the exported symbols: needs readelf and $B/libucopy.so"
else
	dyn=$(readelf --dyn-syms -W "$B/libucopy.so" | awk '$5 == "GLOBAL" && $7 != "UND" && $7 != "ABS" { print $8 }')
	# NAME@@NODE for each function of the map, under the node it is in.
	nodes=$(awk '/^[A-Z][A-Z0-9_.]* *\{/ { node = $1 }
		/^[[:space:]]*ucopy_[a-z0-9_]*;/ { sub(/^[[:space:]]*/, ""); sub(/;.*/, ""); print $0 "@@" node }' \
		lib/libucopy.map | sort)
	check "abi: every symbol $B/libucopy.so exports has the version node lib/libucopy.map gives it" \
		"$(printf '%s\n' "$(printf '%s\n' "$dyn" | sort -u)" "$nodes" | sort | uniq -u |
			sed 's/^/ /' | tr -d '\n')"
	check "abi: $B/libucopy.so exports the functions libucopy.map names and nothing else" \
		"$(printf '%s\n' "$(printf '%s\n' "$dyn" | sed 's/@.*//' | sort -u)" "$mapped" |
			sort | uniq -u | sed 's/^/ /' | tr -d '\n')"
fi

# The constants and the note: a value changed or a name gone breaks
# callers (and objects built with <ucopy-asm.h>); a name added is only
# recorded.
if command -v cc >/dev/null && command -v objcopy >/dev/null &&
   abi_constants cc "$tmp" "$PWD/$h" "$PWD/include/ucopy-asm.h" >"$tmp/now"; then
	grep -v '^#' abi/constants >"$tmp/then"
	gone=$(LC_ALL=C comm -23 "$tmp/then" "$tmp/now" | tr '\n' ',' | sed 's/,$//')
	new=$(LC_ALL=C comm -13 "$tmp/then" "$tmp/now" | tr '\n' ',' | sed 's/,$//')
	if [ -n "$gone" ]; then
		why=" abi/constants has $gone, the header ${new:-not} (a changed or lost value moves the soname)"
	elif [ -n "$new" ]; then
		why=" new in the header: $new (make abi records them)"
	else
		why=
	fi
	check "abi: the values of $h's and include/ucopy-asm.h's enumerators and macros, and a fault site's note, are abi/constants'" "$why"
else
	echo "SKIP abi: the headers' constants: no cc or objcopy, or the program that prints them failed"
fi

# abi_compare BASELINE LIBRARY: abidiff's verdict, as a reason (empty when
# none differs).
abi_compare() {
	abidiff "$1" "$2" >"$tmp/diff" 2>&1
	r=$?
	[ $r -eq 0 ] && return 0
	if [ $((r & 3)) -ne 0 ]; then
		echo " abidiff could not compare: $(head -3 "$tmp/diff" | tr '\n' ' ')"
	elif grep -qE '(Functions|Variables) changes summary: 0 Removed, 0 Changed' "$tmp/diff" &&
	     [ "$(grep -cE 'changes summary: 0 Removed, 0 Changed' "$tmp/diff")" -eq 2 ]; then
		echo " only additions ($(grep -E '^  \[A\]' "$tmp/diff" | sed 's/^ *//' | tr '\n' ' ')): make abi records them"
	else
		echo " an incompatible change, which moves the soname: $(sed -n '/^  \[[DC]\]/,$p' "$tmp/diff" | head -16 | sed 's/^ *//' | tr '\n' ' ')"
	fi
}

arch=$(ucopy_arch)
base=abi/libucopy-$arch.abi
if ! command -v abidiff >/dev/null; then
	echo "SKIP abi: the interface against $base: needs abidiff (Debian's abigail-tools)"
elif [ ! -e "$B/libucopy.so" ]; then
	echo "SKIP abi: the interface against $base: $B/libucopy.so is not built"
elif [ ! -e "$base" ]; then
	echo "SKIP abi: no baseline for $arch ($base; make abi writes one)"
elif ! readelf -S -W "$B/libucopy.so" | grep -q '\.debug_info'; then
	echo "SKIP abi: the interface against $base: $B/libucopy.so has no debug information (CFLAGS without -g)"
else
	was=$(sed -n "1s/.* soname='\([^']*\)'.*/\1/p" "$base")
	now=$(readelf -d "$B/libucopy.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
	check "abi: $base is the ABI of the soname built ($now)" \
		"${was:+$([ "$was" = "$now" ] || echo " it is $was's: a new soname needs its baseline (make abi)")}"
	check "abi: $B/libucopy.so has $base's interface" "$(abi_compare "$base" "$B/libucopy.so")"

	# The check itself catches a layout change: a policy with room for
	# more rules, built from a copy of the tree.
	if [ "$arch" = "$(uname -m)" ] && command -v make >/dev/null; then
		mkdir "$tmp/tree" && cp -r include lib Makefile "$tmp/tree" &&
			sed -i 's/^#define UCOPY_MAX_RULES 16$/#define UCOPY_MAX_RULES 24/' "$tmp/tree/$h"
		if grep -q 'UCOPY_MAX_RULES 24' "$tmp/tree/$h" &&
		   env -u MAKEFLAGS -u MFLAGS make -s -C "$tmp/tree" -j2 B=b CC=cc CFLAGS='-O0 -g' \
			b/libucopy.so >"$out" 2>"$err"; then
			why=$(abi_compare "$base" "$tmp/tree/b/libucopy.so")
			case $why in
			*incompatible*"struct ucopy_policy"*) echo "PASS abi: a library whose struct ucopy_policy grew fails the check" ;;
			*) echo "FAIL abi: a library whose struct ucopy_policy grew: the check said '${why:-nothing}'" ;;
			esac
		else
			echo "FAIL abi: the tree with a larger UCOPY_MAX_RULES did not build: $(head -3 "$err" | tr '\n' ' ')"
		fi
	fi
fi
