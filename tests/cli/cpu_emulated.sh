# tests/test_cpu.c under QEMU's user-mode emulator: CPUID then answers for
# the emulated CPU while /proc/cpuinfo is still the host's, so the comparison
# of the two must be skipped, saying why, and everything else must pass.
# Run where qemu-x86_64 is installed (apt-get install qemu-user).
. tests/cli/lib.sh

bin=$B/tests/test_cpu
if [ "$(uname -m)" != x86_64 ] || [ "$(ucopy_arch)" != x86_64 ] ||
   ! command -v qemu-x86_64 >/dev/null 2>&1; then
	echo "SKIP test_cpu under qemu-x86_64: needs an x86-64 host and build with qemu-x86_64 (qemu-user)"
	exit 0
fi
if [ ! -x "$bin" ]; then
	echo "FAIL test_cpu under qemu-x86_64: no $bin (make builds it)"
	exit 0
fi
# A sanitized build maps terabytes of shadow memory, which qemu-user backs
# for real (21 GiB and counting for test_cpu under check-asan): not here.
if nm "$bin" 2>/dev/null | grep -q '__asan_init\|__ubsan_handle'; then
	echo "SKIP test_cpu under qemu-x86_64: a sanitized build does not run under qemu-user"
	exit 0
fi
# Haswell: another vendor than an AMD host; EPYC: another family than an
# Intel one or a newer AMD; qemu64: QEMU's own default.
for cpu in Haswell EPYC qemu64; do
	timeout 300 qemu-x86_64 -cpu $cpu "$bin" >"$out" 2>"$err"
	rc=$?
	expect "test_cpu under qemu-x86_64 -cpu $cpu: the /proc/cpuinfo comparison is skipped, the rest passes" \
		sh -c "[ $rc -eq 0 ] && ! grep -q '^FAIL' '$out' &&
		grep -q '^SKIP cpu agrees with /proc/cpuinfo: emulated: .*the host.s CPU' '$out' &&
		grep -q '^PASS cpu detection' '$out'"
done
