#!/bin/bash
# bench_layouts.sh DIR PAD... - ucopy_memcpy against glibc's memcpy on the
# shipped distributions, in both regimes, once per code layout: DIR/ucopy-pPAD
# is the command linked with a PAD-byte object before libucopy.a (make
# bench-layouts), so the library's code sits PAD bytes further on and nothing
# else changes.
#
# Why: in the repeated regime a copy's speed is mostly how well the branch
# predictor holds an 8192-copy sequence.  Relinking the same kernels 1088
# bytes further moved single files' ratios by up to 0.3 on Zen 5
# (docs/performance.md, "Code placement"), far beyond one run's interval; and
# one binary run six times moved Memcpy_6 over 0.99-1.19 ("What a repeated
# sequence's ratio depends on"): each layout's run is also one process.  A
# claim about the repeated regime is therefore made here on the median over
# runs: every layout, LAYOUT_RUNS times, the layouts in turn.
#
# Environment: LAYOUT_SECONDS (per file and run, default 2), LAYOUT_SEED
# (the sequences' seed, default 1: every run times the same sequences),
# LAYOUT_RUNS (runs of each layout, default 1).
set -u -o pipefail
# summarize WHAT < lines "FILE REGIME PAD RATIO": per file and regime each
# run's ratio (in pad order), the median, least and most; per regime the
# geomean of the medians and the worst median "over WHAT".
summarize() {
	sort -k2,2 -k1,1 -k3,3n | awk -v nl="$1" '
	function flush(   i, j, t, med) {
		if (n == 0) return
		for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j-1] > v[j]; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
		med = n % 2 ? v[(n+1)/2] : (v[n/2] + v[n/2+1]) / 2
		printf "%-13s %-11s %s  median %.3f  range %.3f-%.3f\n", key1, key2, row, med, v[1], v[n]
		if (!(key2 in cnt)) order[++nr] = key2
		geo[key2] += log(med); cnt[key2]++
		if (med > worst[key2]) { worst[key2] = med; wname[key2] = key1 }
		n = 0; row = ""
	}
	{ if ($1 != key1 || $2 != key2) { flush(); key1 = $1; key2 = $2 }
	  v[++n] = $4; row = row sprintf(" %.3f", $4) }
	END { flush()
	      for (i = 1; i <= nr; i++) { r = order[i]
		printf "%s: geomean of the medians %.3f, worst median %.3f (%s), over %s\n", r, exp(geo[r] / cnt[r]), worst[r], wname[r], nl } }'
}
# tests/cli/bench_layouts.sh checks the summary on known ratios this way.
if [ "${1:-}" = --summary ]; then
	summarize "$2 layouts"
	exit
fi
dir=$1; shift
secs=${LAYOUT_SECONDS:-2}
seed=${LAYOUT_SEED:-1}
runs=${LAYOUT_RUNS:-1}
case $secs in ''|*[!0-9.]*) echo "bench_layouts: bad LAYOUT_SECONDS '$secs' (expected seconds, e.g. 2)" >&2; exit 2;; esac
case $seed in ''|*[!0-9]*) echo "bench_layouts: bad LAYOUT_SEED '$seed' (expected a non-negative integer)" >&2; exit 2;; esac
case $runs in [1-9]) ;; *) echo "bench_layouts: bad LAYOUT_RUNS '$runs' (expected 1..9)" >&2; exit 2;; esac
first=$dir/ucopy-p$1
"$first" features | head -2
dists=$("$first" bench --list-dists | awk '!/^#/ {print $1}')
[ -n "$dists" ] || { echo "bench_layouts: no distributions found" >&2; exit 1; }
echo "ucopy_memcpy's time over glibc's memcpy per layout (library code shifted by $*" \
     "bytes), $runs run(s) of each, $secs s a file, seed $seed"
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
for run in $(seq "$runs"); do
	for pad in "$@"; do
		for d in $dists; do
			"$dir/ucopy-p$pad" bench --entries memcpy,ucopy_memcpy --dist "$d" --regime both \
				--seconds "$secs" --seed "$seed" --format csv -q |
			awk -F, -v pad="$pad" -v d="$d" '
				NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
				$1 == "ucopy_memcpy" { print d, $col["regime"], pad, $col["ratio"] }' >>"$out" ||
				exit 1
		done
	done
done
what="$# layouts"
[ "$runs" -eq 1 ] || what="$(($# * runs)) runs ($# layouts, $runs runs of each)"
summarize "$what" <"$out"
