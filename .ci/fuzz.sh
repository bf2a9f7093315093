#!/usr/bin/env bash
# Builds the libFuzzer targets (make fuzz) and runs each for a bounded time.
# FUZZ_SECONDS sets the time per target (default 15).  Seed inputs are made
# in a temporary directory; the distribution target also starts from the
# fleetbench files that ship in data/distributions (copied there, so the
# fuzzer never writes beside them).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${FUZZ_SECONDS:-15}
B=${B:-build}

make --no-print-directory B="$B" fuzz

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/policy" "$work/sizespec" "$work/dist" "$work/sequence"
printf '8:byte,64:word,2K:avx2,24M:movsb,nt' >"$work/policy/1"
printf 'linux-6.4' >"$work/policy/2"
printf '64:word,movsb' >"$work/policy/3"
printf '1K-1M:x2' >"$work/sizespec/1"
printf '1-64:+8,4352,64K' >"$work/sizespec/2"
printf '0:0.5,8:0.25,4352:0.25\n0:1\n1:0.5,8:0.25,64:0.25\n' >"$work/dist/1"
printf '0.1,0.2,0,0.7\n' >"$work/dist/2"
printf '# plain\n64 3\n4K 1\n' >"$work/dist/3"
cp data/distributions/*.csv "$work/dist/"
printf '# ucopy sequence 1\n# two threads\n0 64 0 0 0\n0 4352 1 2 1\n1 8 63 0 1\n' >"$work/sequence/1"

status=0
for t in policy sizespec dist sequence; do
	bin="$B-fuzz/fuzz_$t"
	echo "fuzz: $t for ${secs}s"
	# Only the fuzzer's summary lines; the full log is kept on failure.
	if ! "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=0 \
		"$work/$t" >"$work/$t.log" 2>&1; then
		echo "FAIL fuzz_$t"
		tail -40 "$work/$t.log"
		status=1
	else
		grep -E '^#[0-9]+.*DONE' "$work/$t.log" | tail -1 || true
		echo "PASS fuzz_$t"
	fi
done
exit $status
