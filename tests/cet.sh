#!/bin/sh
# tests/cet.sh: the library built for control-flow protection keeps it
# (issue 45, part 2).  `make check-cet` runs it.
#   x86-64, -fcf-protection: every object of libucopy.a carries the GNU
#     property IBT and SHSTK; linking libucopy.so, libucopy-preload.so and a
#     program that calls ucopy_memcpy and ucopy_try with -z cet-report=warning
#     names none of the library's objects (only what the C library brings,
#     when its start files lack the property, as Debian 12's do); and the
#     layout, copy, fault and unwind tests pass in that build.
#   aarch64 (where the cross compiler is), -mbranch-protection=standard:
#     the same with BTI and PAC (the program linked with -z force-bti, which
#     warns of every object without BTI), the tests under qemu-aarch64 -cpu
#     max.
# B: the build directory the CET builds sit beside (default build).
set -u
B=${B:-build}
fails=0
say() { echo "$1"; case $1 in FAIL*) fails=$((fails + 1)) ;; esac; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# props ARCHIVE WANT: every member of ARCHIVE has WANT in its property note.
props() {
	mkdir -p "$tmp/x" && rm -f "$tmp/x"/*.o && (cd "$tmp/x" && ar x "$1") || return 1
	n=0
	for o in "$tmp/x"/*.o; do
		n=$((n + 1))
		readelf -n "$o" | grep -q "$2" || { echo "  $(basename "$o"): no '$2'"; return 1; }
	done
	[ "$n" -gt 10 ]
}

# clean_report LOG: the linker's warnings name no object of the library,
# only the system's (its start files, libgcc), which live under /usr.
clean_report() {
	! grep 'warning:' "$1" | sed 's/^[^:]*: //' | grep -v '^/usr/' | grep -q .
}

prog="$tmp/prog.c"
cat >"$prog" <<'C'
#include <ucopy.h>
int main(void)
{
	static char a[100], b[100];
	ucopy_memcpy(a, b, sizeof a);
	return (int)ucopy_try(a, b, sizeof a);
}
C

# x86-64
if [ "$(uname -m)" = x86_64 ]; then
	C=$B-cet
	if ! make -s --no-print-directory B=$C CFLAGS="-O2 -g -fcf-protection" \
		$C/libucopy.a $C/libucopy.so $C/libucopy-preload.so \
		$C/tests/test_entry $C/tests/test_kernels $C/tests/test_fault $C/tests/test_unwind \
		>"$tmp/build.log" 2>&1; then
		say "FAIL cet: the -fcf-protection build: $(tail -3 "$tmp/build.log")"
	else
		if props "$PWD/$C/libucopy.a" "x86 feature: IBT, SHSTK"; then
			say "PASS cet: every object of libucopy.a built with -fcf-protection keeps IBT and SHSTK"
		else
			say "FAIL cet: an object of libucopy.a drops IBT or SHSTK"
		fi
		rm -f $C/libucopy.so $C/libucopy-preload.so
		make -s --no-print-directory B=$C CFLAGS="-O2 -g -fcf-protection" \
			LDFLAGS="-Wl,-z,cet-report=warning" $C/libucopy.so $C/libucopy-preload.so \
			>"$tmp/so.log" 2>&1
		gcc -O2 -fcf-protection -Iinclude -o "$tmp/prog" "$prog" $C/libucopy.a \
			-Wl,-z,cet-report=warning >"$tmp/prog.log" 2>&1
		if [ -e $C/libucopy.so ] && [ -e $C/libucopy-preload.so ] && [ -x "$tmp/prog" ] &&
			clean_report "$tmp/so.log" && clean_report "$tmp/prog.log"; then
			say "PASS cet: linking libucopy.so, libucopy-preload.so and a program with libucopy.a, no object of the library lacks IBT or SHSTK"
		else
			say "FAIL cet: a link names an object of the library: $(cat "$tmp/so.log" "$tmp/prog.log" | grep 'warning:' | sed 's/^[^:]*: //' | grep -v '^/usr/' | head -3)"
		fi
		for t in test_entry test_kernels test_fault test_unwind; do
			if $C/tests/$t >"$tmp/t.log" 2>&1; then
				say "PASS cet: $t in the -fcf-protection build"
			else
				say "FAIL cet: $t in the -fcf-protection build: $(grep -m3 '^FAIL\|^  ' "$tmp/t.log")"
			fi
		done
	fi
fi

# aarch64
CC_A=${AARCH64_CC:-aarch64-linux-gnu-gcc}
QEMU_A=${AARCH64_QEMU:-qemu-aarch64 -L /usr/aarch64-linux-gnu}
if ! command -v "$CC_A" >/dev/null 2>&1 || ! command -v "${QEMU_A%% *}" >/dev/null 2>&1; then
	say "SKIP cet: aarch64: needs $CC_A and ${QEMU_A%% *}"
else
	C=$B-aarch64-bti
	if ! make -s --no-print-directory B=$C CC="$CC_A" CFLAGS="-O2 -g -mbranch-protection=standard" \
		$C/libucopy.a $C/tests/test_kernels $C/tests/test_fault $C/tests/test_unwind \
		>"$tmp/build.log" 2>&1; then
		say "FAIL cet: the aarch64 -mbranch-protection=standard build: $(tail -3 "$tmp/build.log")"
	else
		if props "$PWD/$C/libucopy.a" "AArch64 feature: BTI, PAC"; then
			say "PASS cet: every object of the aarch64 libucopy.a built with -mbranch-protection=standard keeps BTI and PAC"
		else
			say "FAIL cet: an object of the aarch64 libucopy.a drops BTI or PAC"
		fi
		$CC_A -O2 -mbranch-protection=standard -Iinclude -o "$tmp/prog-a" "$prog" $C/libucopy.a \
			-Wl,-z,force-bti >"$tmp/prog.log" 2>&1
		if [ -x "$tmp/prog-a" ] && clean_report "$tmp/prog.log"; then
			say "PASS cet: linking a program with the aarch64 libucopy.a, no object of the library lacks BTI"
		else
			say "FAIL cet: the aarch64 link names an object of the library: $(grep 'warning:' "$tmp/prog.log" | sed 's/^[^:]*: //' | grep -v '^/usr/' | head -3)"
		fi
		for t in test_kernels test_fault test_unwind; do
			# shellcheck disable=SC2086
			if ${QEMU_A%% *} -cpu max ${QEMU_A#* } $C/tests/$t >"$tmp/t.log" 2>&1; then
				say "PASS cet: $t in the aarch64 -mbranch-protection=standard build"
			else
				say "FAIL cet: $t in the aarch64 build: $(grep -m3 '^FAIL\|^  ' "$tmp/t.log")"
			fi
		done
	fi
fi
[ "$fails" -eq 0 ]
