# CLI tests: bench --replay of a recorded sequence, bench --dist in both
# regimes, and their refusals.  Budgets are tiny: shapes and exact values,
# never timings.
. tests/cli/lib.sh

dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out" "$err"' EXIT
seq=$dir/small.seq
# Two threads; every line's dst_align is (src_align + distance) mod 64.
printf '# ucopy sequence 1\n# written by hand\n0 64 0 0 0\n0 4352 1 2 1\n0 100 3 7 4\n1 8 63 0 1\n1 0 0 0 0\n' >"$seq"

cp "$seq" "$dir/keep.seq"
usage_error "bench --replay: -o the sequence is refused" \
	"cannot write '$seq': it is the --replay file (expected another file" \
	bench --kernels word --replay "$seq" -o "$seq" --seconds 0.05
usage_error "calibrate --replay: -o the sequence is refused" \
	"cannot write '$seq': it is the --replay file" calibrate --quick --replay "$seq" -o "$seq"
expect "replay: ... and the sequence is unchanged" cmp -s "$seq" "$dir/keep.seq"

run bench --kernels libc,word --replay "$seq" --seconds 0.1 --format json --seed 5
expect "bench --replay: JSON names the file, its calls and threads, one cell" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = d["config"]
assert c["dist"] is None and c["sizes"] is None and c["src_align"] is None, c
p = c["replay"]
assert p["file"] == sys.argv[2] and p["calls"] == 5 and p["threads"] == 2, p
assert p["max_size"] == 4352 and p["mean"] == (64 + 4352 + 100 + 8) / 5, p
assert [(g["regime"], g["sequence"]) for g in p["regimes"]] == [("recorded", 5)], p
assert "recorded order of 5 calls from 2 threads" in p["regimes"][0]["condition"], p
r = d["results"]
assert [x["variant"] for x in r] == ["libc", "word"], r
for x in r:
    assert x["replay"] == sys.argv[2] and x["dist"] is None and x["size"] is None, x
    assert x["regime"] == "recorded" and x["sequence"] == 5, x
    assert x["rounds"] >= 6 and x["ns_median"] > 0, x
' "$out" "$seq"

run bench --kernels word --replay "$seq" --seconds 0.05
expect "bench --replay: the table names the file and the order" sh -c "[ $rc -eq 0 ] &&
	grep -q '^# replay $seq (5 calls, mean 904.8 B, sizes up to 4352 B)\$' '$out' &&
	grep -q '^# regime recorded: the recorded order of 5 calls from 2 threads' '$out' &&
	grep -Eq '^word +small.seq recorded +rec +rec +rec ' '$out'"
run bench --kernels word --replay "$seq" --seconds 0.05 --format csv
expect "bench --replay: CSV has regime, sequence and replay columns" sh -c "[ $rc -eq 0 ] &&
	head -1 '$out' | grep -q ',copies,regime,sequence,replay,slow_rounds,scrub_every\$' &&
	tail -1 '$out' | grep -q '^word,,,,,,hot,.*,recorded,5,$seq,[0-9][0-9]*,0\$'"

# Both regimes of a distribution: two cells, each named, the repeated one
# as long as asked, drawn with one seed.
printf '# sizes\n16 5\n256 3\n4K 1\n' >"$dir/d.txt"
run bench --kernels word --dist "$dir/d.txt" --regime both --repeat-len 1K --seconds 0.1 --format json --seed 3
expect "bench --regime both: a cell per regime, each named with its length" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
g = d["config"]["dist"]["regimes"]
assert [(x["regime"], x["sequence"]) for x in g] == [("unlearnable", 65536), ("repeated", 1024)], g
assert g[0]["condition"] == "sizes in an order no predictor learns (65536 copies)", g
assert g[1]["condition"] == "a repeated sequence of 1024 copies, each variant at its steady state", g
assert d["config"]["replay"] is None
r = d["results"]
assert [(x["regime"], x["sequence"]) for x in r] == [("unlearnable", 65536), ("repeated", 1024)], r
' "$out"
run bench --kernels word --dist "$dir/d.txt" --seconds 0.05 --format json
expect "bench --dist: the unlearnable regime unless asked" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [(x["regime"], x["sequence"]) for x in d["results"]] == [("unlearnable", 65536)], d["results"]
' "$out"
run bench --kernels word --dist "$dir/d.txt" --regime repeated --seconds 0.05
expect "bench --regime repeated: the table says which" sh -c "[ $rc -eq 0 ] &&
	grep -q '^# regime repeated: a repeated sequence of 8192 copies, each variant at its steady state\$' '$out' &&
	grep -Eq '^word +d.txt repeated ' '$out' && ! grep -q unlearnable '$out'"

# Refusals: one line, exit 2, and for a bad file its name and line.
bad() {
	name=$1 pattern=$2; shift 2
	run bench --kernels word --seconds 0.05 "$@"
	expect "bench refuses: $name" is_usage_error "$pattern"
}
printf '# ucopy sequence 1\n0 8 1 3 1\n' >"$dir/bad.seq"
bad "inconsistent alignment, with file:line" "$dir/bad.seq:2: destination alignment 3 does not match" \
	--replay "$dir/bad.seq"
printf '0 8 0 0 0\n' >"$dir/bad.seq"
bad "no header" "$dir/bad.seq:1: '0 8 0 0 0' is not a sequence header (expected '# ucopy sequence 1')" \
	--replay "$dir/bad.seq"
printf '# ucopy sequence 1\n0 8 0 0\n' >"$dir/bad.seq"
bad "field count" "$dir/bad.seq:2: 4 fields in '0 8 0 0' (expected 5" --replay "$dir/bad.seq"
printf '# ucopy sequence 1\n0 99999999 0 0 0\n' >"$dir/bad.seq"
bad "size too large" "$dir/bad.seq:2: size '99999999' is out of range (expected 0..67108864)" \
	--replay "$dir/bad.seq"
: >"$dir/bad.seq"
bad "empty file" "$dir/bad.seq: empty sequence file" --replay "$dir/bad.seq"
mkfifo "$dir/fifo"
bad "a FIFO, without waiting" "bad sequence file '$dir/fifo' (expected a regular file, not a FIFO)" \
	--replay "$dir/fifo"
bad "missing file" "cannot read '$dir/none.seq'" --replay "$dir/none.seq"
bad "replay with dist" "--replay replays recorded sizes and offsets (not with --dist" \
	--replay "$seq" --dist "$dir/d.txt"
bad "replay with sizes" "--replay replays recorded" --replay "$seq" --sizes 64
bad "replay with distance" "--replay replays recorded" --replay "$seq" --distance 1
bad "regime without dist" "--regime orders the sizes --dist draws" --sizes 64 --regime both
bad "regime with replay" "--regime orders the sizes --dist draws" --replay "$seq" --regime both
bad "unknown regime" "bad regime 'learnable' (expected unlearnable, repeated or both)" \
	--dist "$dir/d.txt" --regime learnable
bad "repeat-len without the repeated regime" "--repeat-len is the length of the repeated regime" \
	--dist "$dir/d.txt" --repeat-len 1K
bad "repeat-len 0" "bad --repeat-len '0' (expected 1..1048576 copies)" \
	--dist "$dir/d.txt" --regime both --repeat-len 0
bad "repeat-len too long" "bad --repeat-len '2M'" --dist "$dir/d.txt" --regime both --repeat-len 2M

# calibrate --replay: the sequence is one more verify workload, its times on
# a line of their own and in the profile's verify record.
run calibrate --quick --seconds 0.3 --max-size 64K --replay "$seq" -o "$dir/prof"
expect "calibrate --replay: verified on the replay, printed and recorded" sh -c "[ $rc -eq 0 ] &&
	grep -Eq '^replay    $seq \\(5 calls\\): (calibrated|derived \\(not kept\\)) [0-9.]+ ns a call, auto [0-9.]+, libc [0-9.]+\$' '$out' &&
	grep -Eq '^# verify mixed replay:small.seq derived=[0-9.]+ auto=' '$dir/prof'"
run calibrate --quick --seconds 0.3 --max-size 64K -o "$dir/prof"
expect "calibrate without --replay: no replay line" sh -c "[ $rc -eq 0 ] && ! grep -q '^replay' '$out' && ! grep -q 'replay:' '$dir/prof'"
printf '# ucopy sequence 1\n0 8 0 0 0\n0 8 0 0 0 0\n' >"$dir/bad.seq"
usage_error "calibrate --replay: a bad file is refused before measuring, with file:line" \
	"$dir/bad.seq:3: more than 5 fields" calibrate --quick --replay "$dir/bad.seq" -o "$dir/prof2"

# compare on a distribution: the regime asked, named in the description.
run compare word word --dist "$dir/d.txt" --regime repeated --runs 20 -q --json
expect "compare --regime repeated: named, with its length" python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["config"]
assert c["regime"] == "repeated", c
assert ", a repeated sequence of 8192 copies, each variant at its steady state, cache hot" in c["workload_description"], c
' "$out"
run compare word word --dist "$dir/d.txt" --runs 20 -q --json
expect "compare --dist: unlearnable unless asked" python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["config"]
assert c["regime"] == "unlearnable", c
assert "sizes in an order no predictor learns (65536 copies)" in c["workload_description"], c
' "$out"
usage_error "compare --regime without a distribution" "--regime orders the sizes of a distribution" \
	compare word word --sizes 64 --regime repeated
usage_error "compare --regime both (one workload)" "bad regime 'both' (expected unlearnable or repeated)" \
	compare word word --dist "$dir/d.txt" --regime both
