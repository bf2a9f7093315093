# CLI tests of the lab on aarch64 (make check-aarch64 runs them under
# qemu-aarch64; on an arm64 machine make check does): features, bench and
# the reproduction of the arm64 4.19 -> 5.15 report, compare arm64-4.19
# arm64-5.15 --workload cold-read, which must warn when it is emulated.
. tests/cli/lib.sh
only_arch aarch64 "the aarch64 port's kernels and policies; the x86-64 ones are in bench.sh and compare.sh"

# Whether the command runs under an emulator: the kernel's thread-self link
# names it (programs/core/machine.c); the command says so in its JSON.
run bench --kernels word --sizes 8 --seconds 0.01 --format json -q
emulator=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["machine"]["emulator"] or "")' "$out")
case $UCOPY_TEST_WRAP$(cat "$UCOPY" 2>/dev/null | head -c 300) in
*qemu-aarch64*) want_emulated=1 ;;
*) want_emulated= ;;
esac
emulated=$([ -n "$emulator" ] && echo 1)
expect "the JSON's machine.emulator says whether this runs under qemu" \
	sh -c "[ '$emulated' = '$want_emulated' ]"

run features
expect "features: the port's features, its kernels, and auto's row" \
	sh -c "[ $rc -eq 0 ] && grep -q '^features  asimd *yes' '$out' && grep -q 'sve' '$out' &&
	       grep -q 'mops' '$out' && grep -q '^kernels   byte word ldp ldtr neon mops' '$out' &&
	       grep -q '^auto .*Not measured on real hardware' '$out'"
run features --json
expect "features --json: arch aarch64, asimd, a MIDR implementer as the vendor" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["cpu"]["arch"] == "aarch64", d["cpu"]
assert "asimd" in d["features"], d["features"]
assert d["cpu"]["vendor"].startswith("0x"), d["cpu"]
' "$out"
UCOPY_FEATURES=-asimd run features
expect "UCOPY_FEATURES=-asimd: auto takes ldp" sh -c "grep -q '^policy    ldp$' '$out'"

run bench --kernels ldp,ldtr,neon --sizes 64,4096 --seconds 0.1 --format json --seed 7 -q
expect "bench of the arm64 kernels: JSON with every variant and a timer" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = d["config"]
assert [v["name"] for v in c["variants"]] == ["ldp", "ldtr", "neon"], c["variants"]
assert c["timer"] in ("cntvct", "clock_gettime"), c["timer"]
assert len(d["results"]) == 6 and all(r["ns_median"] > 0 for r in d["results"]), d["results"]
' "$out"

# The reproduction: both named policies, the cold-read workload.
run compare arm64-4.19 arm64-5.15 --workload cold-read --runs 20 -q
expect "compare arm64-4.19 arm64-5.15 --workload cold-read runs: ldp against ldtr" \
	sh -c "[ $rc -eq 0 ] && grep -q '^A  *arm64-4.19 -> ldp$' '$out' &&
	       grep -q '^B  *arm64-5.15 -> ldtr$' '$out' && grep -q '^workload  cold-read' '$out'"
if [ -n "$want_emulated" ]; then
	expect "compare under an emulator says its timings mean nothing" \
		grep -q "^warning   emulated: this runs under '.*qemu-aarch64'.*mean nothing" "$out"
else
	expect "compare on a real CPU has no emulation warning" sh -c "! grep -q '^warning   emulated' '$out'"
fi
run compare arm64-4.19 arm64-5.15 --workload cold-read --runs 20 -q --json
expect "compare --json: the emulator in machine, the two kernels" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert bool(d["machine"]["emulator"]) == (sys.argv[2] == "1"), d["machine"]
assert d["a"]["policy"] == "ldp" and d["b"]["policy"] == "ldtr", (d["a"], d["b"])
' "$out" "$want_emulated"

usage_error "compare: an x86-64 policy is another architecture's" \
	"A: policy 'linux-6.4' is for x86_64; this library is built for aarch64" \
	compare linux-6.4 arm64-5.15 --workload cold-read
usage_error "bench: an x86-64 kernel is unknown here" "unknown kernel 'movsb'" \
	bench --kernels movsb --sizes 64
