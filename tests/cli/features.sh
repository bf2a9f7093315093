# CLI tests: ucopy features, --help, --version and the error cases.
. tests/cli/lib.sh

run features
expect "features: prints cpu, caches and policy" \
	sh -c "[ $rc -eq 0 ] && grep -q '^cpu ' '$out' && grep -q '^caches ' '$out' && grep -q '^policy ' '$out' && grep -q '^source    default' '$out'"

# A policy whose text passes 512 bytes (sixteen rules, 20-digit limits, a
# kernel every x86-64 runs) is printed whole, as the library holds it.
if [ "$(ucopy_arch)" = x86_64 ]; then
	long=$(python3 -c "print(','.join('%d:movsb_aligned' % (10**19 + 2 * i + 1) for i in range(15)) + ',movsb_aligned')")
	UCOPY_POLICY=$long run features
	expect "features: a policy of ${#long} bytes printed whole" \
		sh -c "[ $rc -eq 0 ] && grep -qx 'policy    $long' '$out'"
	UCOPY_POLICY=$long run features --json
	expect "features --json: the same policy whole" python3 -c '
import json, sys
assert json.load(open(sys.argv[1]))["policy"] == sys.argv[2]
' "$out" "$long"
else
	echo "SKIP features: a policy past 512 bytes: movsb_aligned is an x86-64 kernel"
fi

run features --json
expect "features --json parses" json_ok
expect "features --json has the documented keys" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("vendor", "family", "model", "stepping", "brand"):
    assert k in d["cpu"], k
assert isinstance(d["features"], list) and all(f == f.lower() for f in d["features"])
for k in ("l1d", "l2", "l3"):
    assert isinstance(d["caches"][k], int), k
assert d["policy"] and d["policy_source"] == "default"
' "$out"

# The features the library reports agree with the kernel's view of the CPU:
# not under an emulator, whose /proc/cpuinfo is the host's.
arch=$(ucopy_arch)
if [ "$arch" != "$(uname -m)" ]; then
	echo "SKIP features --json agrees with /proc/cpuinfo: the command is built for $arch" \
		"and the kernel runs $(uname -m) (an emulator): /proc/cpuinfo is the host's CPU"
elif [ "$arch" = aarch64 ] && grep -q '^Features' /proc/cpuinfo; then
	expect "features --json agrees with /proc/cpuinfo" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
flags = set(next(l for l in open("/proc/cpuinfo") if l.startswith("Features")).split(":")[1].split())
for f in ("asimd", "sve", "mops"):
    assert (f in flags) == (f in d["features"]), f
' "$out"
elif [ -r /proc/cpuinfo ] && grep -q '^flags' /proc/cpuinfo; then
	expect "features --json agrees with /proc/cpuinfo" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
flags = set(next(l for l in open("/proc/cpuinfo") if l.startswith("flags")).split(":")[1].split())
for f in ("erms", "fsrm", "avx2", "avx512f", "sse2"):
    assert (f in flags) == (f in d["features"]), f
' "$out"
fi

UCOPY_POLICY=bogus run features
expect "UCOPY_POLICY=bogus falls back, says why, and is refused (exit 2)" \
	sh -c "[ $rc -eq 2 ] && grep -q \"^ucopy: bad UCOPY_POLICY 'bogus'\" '$err' && grep -q '^source    default' '$out' && grep -q \"reason .*UCOPY_POLICY='bogus' ignored\" '$out'"

UCOPY_POLICY=bogus run features --json
expect "UCOPY_POLICY=bogus: JSON reason" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["policy_source"] == "default" and "bogus" in d["policy_reason"], d
' "$out"

# Control bytes in UCOPY_POLICY (and so in the reason, which quotes it) are
# shown escaped, never sent raw to the terminal: ESC [31m used to turn the
# rest of the line red.  The library's reason escapes them itself (a
# program may print it), a backslash doubled so the escapes can be told from
# the text, and the command escapes what is left once, not twice: invalid
# bytes and C1 controls; well-formed UTF-8 is kept.
UCOPY_POLICY=$(printf 'a\001\033[31mb\\c\tx\177\302\233y\377\303\251') run features
expect "UCOPY_POLICY control bytes: the reason shows them escaped" python3 -c '
import sys
raw = open(sys.argv[1], "rb").read()
want = rb"a\x01\x1b[31mb\\c\x09x\x7f\xc2\x9by\xff" + "\u00e9".encode()
assert b"\nreason    UCOPY_POLICY=\x27" + want + b"\x27 ignored" in raw, raw
' "$out"
expect "UCOPY_POLICY control bytes: none reaches stdout" \
	sh -c "! LC_ALL=C grep -q '[[:cntrl:]]' '$out'"
UCOPY_POLICY=$(printf 'a\001\033[31mb\\c\tx\177\302\233y\377\303\251') run features --json
expect "UCOPY_POLICY control bytes: JSON escapes them" python3 -c '
import json, sys
raw = open(sys.argv[1], "rb").read()
assert not any(b < 0x20 and b != 0x0a or b == 0x7f for b in raw), raw
assert b"\xc2\x9b" not in raw, raw
d = json.loads(raw)
want = "a\\x01\\x1b[31mb\\\\c\\x09x\\x7f\x9by\xff\xe9"
assert "UCOPY_POLICY=\x27" + want + "\x27 ignored" in d["policy_reason"], d["policy_reason"]
' "$out"

# A kernel and a named policy of this architecture.
case $arch in
aarch64) kernel=ldp named=arm64-5.15 ;;
*) kernel=movsb named=linux-6.4 ;;
esac
UCOPY_POLICY="64:word,$kernel" run features --json
expect "UCOPY_POLICY policy text is used" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["policy_source"] == "UCOPY_POLICY" and d["policy"] == "64:word," + sys.argv[2], d
' "$out" "$kernel"

UCOPY_POLICY=$named run features
expect "UCOPY_POLICY named policy is used" grep -q '^source    UCOPY_POLICY' "$out"

run --version
expect "--version" sh -c "[ $rc -eq 0 ] && grep -q '^ucopy [0-9]*\.[0-9]*\.[0-9]*$' '$out'"
# The second line names the commit the command was built from: in a
# checkout of its own, one git knows.
built=$(sed -n 's/^built from \([^ ]*\)$/\1/p' "$out")
expect "--version names the commit built from" test -n "$built"
if [ "$built" != unknown ] && git rev-parse --git-dir >/dev/null 2>&1; then
	expect "--version's commit is this checkout's" \
		git rev-parse -q --verify "${built%-dirty}^{commit}"
fi
run --help
expect "--help lists the commands" sh -c "[ $rc -eq 0 ] && grep -q 'features' '$out' && grep -q 'bench' '$out'"
run help features
expect "help features" sh -c "[ $rc -eq 0 ] && grep -q 'usage: ucopy features' '$out'"
run features --help
expect "features --help" sh -c "[ $rc -eq 0 ] && grep -q 'usage: ucopy features' '$out'"

usage_error "unknown command" "unknown command 'frobnicate'" frobnicate
usage_error "unknown option" "unknown option '--frob'" --frob
usage_error "features: unknown option" "unknown option '--xml'" features --xml
usage_error "features: stray argument" "unexpected argument 'extra'" features extra
usage_error "help: unknown command" "unknown command 'nope'" help nope
usage_error "--version takes no argument" "unexpected argument 'extra' after '--version'" --version extra
usage_error "--help takes no argument" "unexpected argument 'extra' after '--help'" --help extra
run help --help
expect "help --help is the main page" sh -c "[ $rc -eq 0 ] && grep -q '^usage: ucopy COMMAND' '$out'"
run --help
expect "--help names every variable the command reads" \
	sh -c "for v in UCOPY_POLICY UCOPY_PROFILE UCOPY_FEATURES UCOPY_DATA_DIR UCOPY_PRELOAD; do grep -q \"^  \$v \" '$out' || exit 1; done"
run
expect "no command: usage on stderr, exit 2" sh -c "[ $rc -eq 2 ] && [ ! -s '$out' ] && grep -q usage '$err'"

# --cpu: auto for a CPU described, not at hand.  Described as this machine
# is (its vendor, family, model, features and caches), it must choose what
# the library chose running; the row is the same one.
run features --json
if [ "$(ucopy_arch)" = x86_64 ] && [ $rc -eq 0 ]; then
	spec=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cpu"]
v = {"AuthenticAMD": "amd", "GenuineIntel": "intel"}.get(c["vendor"], "")
print("%s:%d:%d none,%s %d,%d" % (v, c["family"], c["model"], ",".join(d["features"]),
                                  d["caches"]["l2"], d["caches"]["l3"]))' "$out")
	set -- $spec
	UCOPY_POLICY= run features --cpu "$1" --assume-features "$2" --caches "$3" --json
	cp "$out" "$out.cpu"
	UCOPY_POLICY= run features --json
	expect "features --cpu: this machine described chooses what it runs ($1)" python3 -c '
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert b["policy_source"] != "default" or a["policy"] == b["policy"], (a["policy"], b["policy"])
assert a["auto_row"] == b["auto_row"], (a["auto_row"], b["auto_row"])
assert a["features_from"] == "assumed" and a["features"] == b["features"]
' "$out.cpu" "$out"
	rm -f "$out.cpu"
	# A family no row knows takes the default row, with any vendor: with
	# SSE2 alone its vector kernel, then streaming stores from 32 MiB (the
	# L3 unknown) where the derived limits (lib/x86_64/rows.c) have them.
	run features --cpu intel:15:4 --assume-features none,sse2
	quarters=$(sed -n 's/^const struct ucopy_default_limits ucopy_derived_default = { [0-9]*, [0-9]*, \([0-9]*\) };$/\1/p' lib/x86_64/rows.c)
	want=sse2
	[ "$quarters" != 0 ] && want=32M:sse2,nt
	expect "features --cpu: an unknown family takes the default row ($want)" \
		sh -c "[ -n '$quarters' ] && [ $rc -eq 0 ] && grep -q '^auto      default: ' '$out' &&
			grep -q '^policy    $want\$' '$out' &&
			grep -q 'L3 unknown (the streaming threshold falls back to 32 MiB)' '$out'"
	# Zen 4 as the corpus measured it (data/machines/amd-25-17): its
	# derived row (lib/x86_64/rows.c), named with the folder it came from.
	run features --cpu AuthenticAMD:0x19:0x11 --assume-features none,sse2,avx,avx2,avx512f,avx512bw,avx512vl,erms,fsrm,rep_good --caches 1M,32M
	zen4=$(sed -n 's/^policy    //p' "$out")
	expect "features --cpu: Zen 4 takes its derived row" \
		sh -c "[ $rc -eq 0 ] && grep -q '^auto      AMD family 0x19 models 0x10-0x1f, 0x60-0xaf (Zen 4): derived from data/machines/amd-25-17 ' '$out' &&
			grep -qF '\"$zen4\" },' lib/x86_64/rows.c"
	# Zen 3 (model 1), with no reports in the corpus: the family 0x19 row
	# written by hand, avx2 to a quarter of the L3.
	run features --cpu AuthenticAMD:0x19:0x01 --assume-features none,sse2,avx,avx2,erms,fsrm,rep_good --caches 512K,32M
	expect "features --cpu: Zen 3 takes the family 0x19 row" \
		sh -c "[ $rc -eq 0 ] && grep -q '^auto      AMD family 0x19 (Zen 3): ' '$out' && grep -q '^policy    8M:avx2,nt$' '$out'"
	run features --cpu amd:025:017 --json
	expect "features --cpu: a leading 0 is decimal, not octal" python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["cpu"]
assert (c["family"], c["model"]) == (25, 17), c
' "$out"
	usage_error "features --cpu: bad vendor" "bad --cpu 'via:6:15'" features --cpu via:6:15
	usage_error "features --cpu: missing model" "bad --cpu 'amd:25'" features --cpu amd:25
	usage_error "features --cpu: model out of range" "bad --cpu 'amd:25:70000'" features --cpu amd:25:70000
	usage_error "features --cpu: bad features" "bad --assume-features 'avx9'" features --cpu amd:25:17 --assume-features avx9
	usage_error "features --cpu: bad caches" "bad --caches '1M'" features --cpu amd:25:17 --caches 1M
	usage_error "features: --caches without --cpu" "--caches describes the CPU --cpu names" features --caches 1M,32M
else
	echo "SKIP features --cpu: x86-64's rows (the aarch64 port has its default row only)"
fi
