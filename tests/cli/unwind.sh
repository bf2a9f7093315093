# A crash inside a kernel, walked back by gdb: `bt` from ucopy_memcpy's fault
# reaches main (the assembly routines carry unwind information;
# tests/test_unwind.c checks the same with the unwinder, in every kernel).
. tests/cli/lib.sh

if ! command -v gdb >/dev/null 2>&1; then
	echo "SKIP unwind: gdb is not installed"
elif [ "$(ucopy_arch)" != "$(uname -m)" ] || [ ! -x "$B/tests/test_unwind" ]; then
	echo "SKIP unwind: gdb runs this machine's own build of tests/test_unwind only"
else
	gdb -nx -batch -ex run -ex bt --args "$B/tests/test_unwind" --crash >"$out" 2>"$err"
	expect "unwind: gdb's bt from a fault inside ucopy_memcpy reaches main" \
		sh -c "grep -q 'SIGSEGV' '$out' && grep -Eq '^#0 +(0x[0-9a-f]+ in )?ucopy_[kt]_' '$out' &&
			grep -Eq '^#[0-9]+ +(0x[0-9a-f]+ in )?main ' '$out'"
fi
