# Real programs whose memcpy and memmove are ucopy's (LD_PRELOAD of
# $B/tests/libpreload.so, tests/preload.c): each must give byte-identical
# output to a run without it, and finish (a first use that copies through
# the public entries hung bash at its first copy).
. tests/cli/lib.sh

pre=$PWD/$B/tests/libpreload.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT

if [ "$(ucopy_arch)" != "$(uname -m)" ]; then
	echo "SKIP interpose: the interposer is built for $(ucopy_arch), this machine's programs are $(uname -m) (make check-aarch64 runs under an emulator)"
	exit 0
fi
if [ ! -f "$pre" ]; then
	echo "SKIP interpose: $pre is not built"
	exit 0
fi
# A sanitized build's interposer needs its runtime loaded first.
if ! env LD_PRELOAD="$pre" true 2>"$err"; then
	echo "SKIP interpose: the interposer does not load here ($(head -c 120 "$err"))"
	exit 0
fi

# same NAME CMD...: the output with the interposer equals the output without.
same() {
	name=$1; shift
	"$@" >"$tmp/want" 2>&1
	want_rc=$?
	LD_PRELOAD=$pre timeout 60 "$@" >"$tmp/got" 2>&1
	rc=$?
	if [ $rc -eq $want_rc ] && cmp -s "$tmp/want" "$tmp/got"; then
		echo "PASS interpose: $name"
	else
		echo "FAIL interpose: $name: rc=$rc (want $want_rc)$([ $rc -eq 124 ] && echo ', hung')"
		diff "$tmp/want" "$tmp/got" | head -5 | sed 's/^/  /'
	fi
}

# The interposer really is what they call: ld.so binds memcpy to it.
LD_PRELOAD=$pre LD_DEBUG=bindings sort /dev/null 2>"$tmp/bind" >/dev/null
rc=$?
expect "interpose: sort's memcpy binds to the interposer" \
	grep -q "to .*libpreload.so.*symbol \`memcpy'" "$tmp/bind"

awk 'BEGIN { srand(7); for (i = 0; i < 200000; i++) printf "%d %s\n", int(rand() * 1e9), substr("abcdefghijklmnopqrstuvwxyz", 1 + i % 26) }' >"$tmp/in"
same "bash -c" bash -c 'x=$(printf "%05000d" 7); echo "${#x} ${x:4990}"; for i in 1 2 3; do echo $i; done'
same "sort" sort "$tmp/in"
same "sort -n, two threads" sort -n --parallel=2 -S 1M "$tmp/in"
same "gzip" gzip -c -6 "$tmp/in"
if command -v python3 >/dev/null; then
	same "python3" python3 -c '
import hashlib, json
b = bytearray(range(256)) * 4096
parts = [bytes(b[i:i + 1 + i % 3000]) for i in range(0, len(b), 997)]
print(hashlib.sha256(b"".join(parts)).hexdigest(), len(json.dumps([list(range(500))] * 200)))
m = memoryview(b); b2 = bytearray(len(b)); b2[:] = m; b2[10:100000] = b2[0:99990]
print(hashlib.sha256(b2).hexdigest())'
else
	echo "SKIP interpose: python3: not installed"
fi
