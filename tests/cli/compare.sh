# CLI tests: ucopy compare.  Only the self-comparison looks at timings, and
# only at the verdict, which must never be a difference for a policy against
# itself, on any machine.
. tests/cli/lib.sh
only_arch x86_64 "its cases name x86-64 kernels and policies (movsb, linux-6.4, erms); tests/cli/arm64.sh runs compare on aarch64"

# A policy against itself: 4 KiB hot copies, a short budget.  An interval too
# wide for the margin is "inconclusive", which is the right answer on a
# machine busy enough to make it so; the verdict itself says to measure
# longer, so the test does that once, with four times the budget.  A loaded
# 2-core guest can be that busy twice, so "inconclusive" passes too (the
# contract allows it); a difference (regression, improvement, slower,
# faster) never does.
verdict_kind() {
	kind=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["verdict"]["kind"])' "$out" 2>/dev/null)
}
run compare linux-6.4 linux-6.4 --sizes 4K --seconds 0.5 --json -q
verdict_kind
tried=$kind
if [ "$kind" = inconclusive ]; then
	run compare linux-6.4 linux-6.4 --sizes 4K --seconds 2 --json -q
	verdict_kind
	tried="$tried, then $kind"
fi
expect "compare: a policy against itself is no difference, or inconclusive ($tried)" \
	sh -c "[ $rc -eq 0 ] && case '$kind' in
	       equivalent) grep -q 'no significant difference (within' '$out' ;;
	       inconclusive) grep -q 'inconclusive' '$out' ;;
	       *) false ;; esac"

expect "compare --json parses" json_ok
expect "compare --json has the documented keys" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("machine", "config", "a", "b", "ratio", "verdict", "mann_whitney_p"):
    assert k in d, k
for s in ("a", "b"):
    v = d[s]
    for k in ("spec", "resolved", "policy", "task_clock_ms", "cycles", "instructions",
              "ipc", "branches", "branch_misses", "elapsed_s", "bytes", "gbps",
              "ns_median", "ns_p10", "ns_p90", "copies"):
        assert k in v, (s, k)
    assert v["policy"] == "movsb" and v["bytes"] > 0 and v["gbps"] > 0
    # a counter is a number or null, and null says why
    for c in ("cycles", "instructions", "branches", "branch_misses"):
        assert v[c] is None or v[c] >= 0, c
        if v[c] is None:
            assert v["counters_unavailable"][c.replace("_", "-")], c
r = d["ratio"]
assert r["lo"] <= r["est"] <= r["hi"] and r["level"] == 0.95
assert d["verdict"]["kind"] in ("equivalent", "inconclusive")
assert d["config"]["workload"] == "sizes:4K" and d["config"]["rounds"] >= 20
assert 0 <= d["config"]["slow_rounds"] <= d["config"]["rounds"], d["config"]
' "$out"

# The text: a perf-stat block for each side, the ratio, the verdict.
run compare movsb word --sizes 64 --runs 20 -q
expect "compare: text has a perf-stat block per side, the ratio and a verdict" \
	sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^ Performance counter stats for [AB], ' '$out') -eq 2 ] &&
	       [ \$(grep -c 'msec task-clock' '$out') -eq 2 ] && [ \$(grep -c ' cycles' '$out') -eq 2 ] &&
	       [ \$(grep -c ' insn per cycle\| instructions' '$out') -ge 2 ] &&
	       [ \$(grep -c ' branch-misses' '$out') -eq 2 ] && [ \$(grep -c 'GB/s' '$out') -ge 2 ] &&
	       [ \$(grep -c 'seconds time elapsed' '$out') -eq 2 ] &&
	       grep -q '^ B/A time per copy .*95% CI \[' '$out' &&
	       tail -1 '$out' | grep -q 'than A (\|no significant difference\|inconclusive'"
run compare movsb word --sizes 64 --runs 20 -q --json
if python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["a"]["cycles"] is not None)' "$out"; then
	run compare movsb word --sizes 64 --runs 20 -q
	expect "compare: counters the machine lacks read <not supported>" \
		grep -q '<not supported>  *cycles\|<not permitted[^>]*>  *cycles' "$out"
fi

# --assume-features: the policies an ERMS-only Xeon ran, printed as resolved.
run compare linux-6.3 linux-6.4-rc1 --sizes 32K --assume-features erms,-fsrm --runs 20 -q
expect "compare --assume-features erms,-fsrm resolves and prints the policies" \
	sh -c "[ $rc -eq 0 ] && grep -q '^A  *linux-6.3 -> 64:word,movsb$' '$out' &&
	       grep -q '^B  *linux-6.4-rc1 -> 8:byte,64:word,unrolled$' '$out' &&
	       grep -q '^assumed   erms,-fsrm: ' '$out'"
if grep -q '^flags.* fsrm' /proc/cpuinfo 2>/dev/null; then
	expect "compare: says rep movsb runs at this FSRM CPU's speed" \
		grep -q '^note .*has fsrm' "$out"
fi
run compare linux-6.3 linux-6.4 --sizes 32K --assume-features none,sse2,avx512f --runs 20 -q --json
expect "compare: named policies resolve for the assumed feature set" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["a"]["resolved"] == "unrolled" and d["b"]["resolved"] == "8:byte,64:word,unrolled"
assert d["config"]["assume_features"] == "none,sse2,avx512f"
assert d["config"]["features"] == "sse2,avx512f"
' "$out"

run compare libc movsb --sizes 64 --fault-tolerant --runs 20 -q
expect "compare --fault-tolerant times ucopy_policy_try and names what it replaces" \
	sh -c "[ $rc -eq 0 ] && grep -q '^path      ucopy_policy_try' '$out' &&
	       grep -q 'A: ucopy_policy_try runs libc -> ' '$out'"

run compare linux-6.4 linux-6.4 --workload aio-poll --runs 20 -q --json
expect "compare --workload aio-poll: per iocb + io_event" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["config"]["workload"] == "aio-poll" and d["config"]["unit_copies"] == 2
assert d["a"]["unit_ns"] > 0
' "$out"

run compare --list-workloads
expect "compare --list-workloads names each workload and what it models" \
	sh -c "[ $rc -eq 0 ] && grep -q '^tcp-sendmsg  *tcp_sendmsg' '$out' && grep -q '^aio-poll ' '$out' &&
	       grep -q '^cold-read ' '$out' && grep -q '^dist:FILE ' '$out'"
run help compare
expect "help compare" sh -c "[ $rc -eq 0 ] && grep -q 'usage: ucopy compare A B' '$out'"

dist=$(mktemp)
printf '64 1\n' >"$dist"
run compare movsb movsb --dist "$dist" --runs 20 -q --json
expect "compare --dist FILE" python3 -c '
import json, sys
assert json.load(open(sys.argv[1]))["config"]["workload"].startswith("dist:")' "$out"
printf '64 x\n' >"$dist"
usage_error "compare: malformed distribution file" "$dist" compare movsb movsb --dist "$dist"
rm -f "$dist"

usage_error "compare: unknown policy A" "A: unknown policy or kernel 'bogus'" compare bogus movsb --sizes 64
usage_error "compare: unknown policy B" "B: unknown policy or kernel 'linux-9.9'" compare movsb linux-9.9 --sizes 64
usage_error "compare: bad policy text" "B: " compare movsb '64:word,frob' --sizes 64
usage_error "compare: unknown workload" "unknown workload 'tcp'" compare movsb word --workload tcp
usage_error "compare: malformed feature list" "bad --assume-features 'erms,frob'" compare movsb word --sizes 64 --assume-features erms,frob
usage_error "compare: --assume-features does not re-derive a profile" \
	"B: 'calibrated' is this CPU's measured profile, which --assume-features cannot resolve" \
	compare auto ' calibrated ' --sizes 64 --assume-features -avx512f
usage_error "compare: --workload with --dist" "--workload and --dist" compare movsb word --workload aio-poll --dist x.csv
usage_error "compare: --dist with --sizes" "--dist draws its own sizes" compare movsb word --dist x.csv --sizes 64
usage_error "compare: --sizes with tcp-sendmsg" "--sizes does not apply" compare movsb word --workload tcp-sendmsg --sizes 64
usage_error "compare: --cache with cold-read" "--cache does not apply" compare movsb word --workload cold-read --cache hot
usage_error "compare: bad cache state" "bad cache state 'lukewarm'" compare movsb word --sizes 64 --cache lukewarm
usage_error "compare: no workload" "no workload" compare movsb word
usage_error "compare: --runs 0" "bad --runs '0'" compare movsb word --sizes 64 --runs 0
usage_error "compare: --runs 2.5" "bad --runs '2.5'" compare movsb word --sizes 64 --runs 2.5
usage_error "compare: --seconds 0" "bad budget '0'" compare movsb word --sizes 64 --seconds 0
usage_error "compare: --seconds nan" "bad budget 'nan'" compare movsb word --sizes 64 --seconds nan
usage_error "compare: --margin 0" "bad --margin '0'" compare movsb word --sizes 64 --margin 0
usage_error "compare -- CMD: --margin 0, as the workload mode" "bad --margin '0' (expected a percentage, 0.1..50)" compare auto libc --margin 0 -- true
usage_error "compare: bad seed" "bad seed '-1'" compare movsb word --sizes 64 --seed -1
usage_error "compare: one policy" "expected two policies" compare movsb --sizes 64
usage_error "compare: three policies" "unexpected argument 'avx2'" compare movsb word avx2 --sizes 64
usage_error "compare: unknown option" "unknown option '--frob'" compare movsb word --frob
usage_error "compare: option without value" "option '--workload' needs a value" compare movsb word --workload
usage_error "compare: option given twice" "option '--sizes' given twice" compare movsb word --sizes 64 --sizes 32
usage_error "compare: bad size" "12Q" compare movsb word --sizes 12Q
# 20 rounds of 64 MiB copies cannot fit 1 ms: refused, not run for 0.4 s.
usage_error "compare: a budget the workload cannot keep" \
	"workload 'sizes:64M' needs a budget of at least [0-9.]* s for 20 rounds, more than --seconds 0.001 (more seconds, or smaller sizes)" \
	compare linux-6.3 linux-6.4 --sizes 64M --seconds 0.001
usage_error "compare: --list-workloads with others" "--list-workloads takes no other" compare --list-workloads movsb
if [ "$(uname -m)" != aarch64 ]; then
	usage_error "compare: arm64 policies need an aarch64 machine" "A: policy 'arm64-4.19' is for aarch64" \
		compare arm64-4.19 arm64-5.15 --workload cold-read
fi
# With --runs the rounds are fixed and --seconds sets how long each is:
# 0.003 s over 30 rounds is the shortest batch (50 us), 0.06 s the longest
# (1 ms), 20 times as many copies a round.  The batch is planned from the
# time left after the warm-up, so a process the host stops for most of the
# 60 ms plans small ones (CI on a 2-vCPU Zen 5 guest read 7816 against
# 9073 copies once): up to three tries, and the verdict is the last one's.
# A batch that does not follow --seconds fails all three.
rounds_batch() {
	"$UCOPY" compare movsb word --sizes 64 --runs 30 --seconds "$1" -q --json |
		python3 -c 'import json,sys; c=json.load(sys.stdin)["config"]; print(c["rounds"], int(c["batch_mean"]))'
}
rounds_follow() {
	[ "${1%% *}" = 30 ] && [ "${2%% *}" = 30 ] && [ "${2#* }" -gt $((4 * ${1#* })) ]
}
for try in 1 2 3; do
	short=$(rounds_batch 0.003) long=$(rounds_batch 0.06)
	rounds_follow "$short" "$long" && break
done
expect "compare: --runs with --seconds: exactly the rounds, each as long as the seconds make it ($short / $long, try $try)" \
	rounds_follow "$short" "$long"
run compare movsb word --sizes 64 --runs 20 --seconds 0.05
expect "compare: --runs with --seconds says what the budget is for" \
	grep -q '^method .*budget 0.05 s (with --runs: the rounds.*length, not the time taken)' "$out"
