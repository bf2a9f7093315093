# CLI tests: tests/signal_prog.c, a user's two programs with signal
# handlers of their own, built at -O0, -O1 and -O2 against libucopy.a and
# libucopy.so (the stack layout a fault's frame lands in is the caller's).
. tests/cli/lib.sh

arch=$(ucopy_arch)
if [ -z "$arch" ]; then
	echo "FAIL signal_prog: '$UCOPY features --json' names no architecture (is it built?)"
	exit 0
fi
only_arch "$(uname -m)" "the programs run natively (test_signals covers the emulator)"
if nm "$B/libucopy.a" 2>/dev/null | grep -q '__asan_\|__ubsan_'; then
	echo "SKIP signal_prog: a sanitized library (its own tests link the runtime)"
	exit 0
fi
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT
for o in 0 1 2; do
	for lib in a so; do
		bin=$tmp/p$o$lib
		if [ $lib = a ]; then
			$CC -O$o -Iinclude -o "$bin" tests/signal_prog.c "$B/libucopy.a" -pthread -ldl 2>"$err"
		else
			$CC -O$o -Iinclude -o "$bin" tests/signal_prog.c -L"$B" -lucopy \
				-Wl,-rpath,"$BABS" -pthread -ldl 2>"$err"
		fi
		rc=$?
		expect "signal_prog builds at -O$o against libucopy.$lib" [ "$rc" -eq 0 ]
		[ "$rc" -eq 0 ] || continue
		for what in first leave; do
			"$bin" $what >"$out" 2>"$err"
			rc=$?
			expect "signal_prog $what at -O$o against libucopy.$lib: every fault reached its handler" [ "$rc" -eq 0 ]
		done
	done
done

# Two copies of ucopy in one process, in a cycle through a chaining
# handler: the default action after one call of the chain, not a loop.
for n in a b; do
	$CC -O2 -shared -fPIC -DCOPY=$n -Iinclude -o "$tmp/lib$n.so" tests/signal_copy.c \
		"$B/libucopy.a" -Wl,-Bsymbolic -pthread 2>"$err" || break
done
if [ -x "$tmp/p2a" ] && [ -e "$tmp/libb.so" ]; then
	"$tmp/p2a" two "$tmp/liba.so" "$tmp/libb.so" >"$out" 2>"$err"
	rc=$?
	expect "signal_prog two: a cycle through two copies of ucopy ends by SIGSEGV after one call of the chain (exit 9: it went round)" [ "$rc" -eq 139 ]
else
	rc=1
	expect "signal_prog two: the two copies build" false
fi

# The same under qemu-user, the emulator the issue was found under, where
# it is installed (make check-emulated runs test_signals under it too).
if [ "$(uname -m)" = x86_64 ] && command -v qemu-x86_64 >/dev/null && [ -x "$tmp/p2a" ]; then
	for cpu in Haswell max Nehalem; do
		for o in 0 1 2; do
			for what in first leave; do
				qemu-x86_64 -cpu $cpu "$tmp/p${o}a" $what >"$out" 2>"$err"
				rc=$?
				expect "signal_prog $what at -O$o under qemu-x86_64 -cpu $cpu: every fault reached its handler" [ "$rc" -eq 0 ]
			done
		done
	done
else
	echo "SKIP signal_prog under qemu-x86_64: not an x86-64 host with qemu-user"
fi
