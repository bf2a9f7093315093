# CLI tests: ucopy bench output (JSON, CSV, table) and its error cases.
# Budgets are tiny: these check shapes and fields, never timings.
. tests/cli/lib.sh
only_arch x86_64 "its cases name x86-64 kernels and policies (movsb, avx2, linux-6.4); tests/cli/arm64.sh runs bench on aarch64"

# bad NAME PATTERN ARGS...: exit 2, one line on stderr matching PATTERN (a
# grep -E pattern), nothing on stdout.
bad() {
	name=$1 pattern=$2; shift 2
	run bench "$@"
	if [ $rc -eq 2 ] && [ ! -s "$out" ] && [ "$(wc -l <"$err")" -eq 1 ] &&
		grep -Eq -- "$pattern" "$err"; then
		echo "PASS bench error: $name"
	else
		echo "FAIL bench error: $name: rc=$rc, want 2 and /$pattern/"
		sed 's/^/  stdout: /' "$out" | head -3
		sed 's/^/  stderr: /' "$err" | head -3
	fi
}

run bench --kernels movsb,libc --sizes 64,4352 --distance 1,2048 --seconds 0.1 --format json --seed 7
expect "bench --format json parses" json_ok
expect "bench JSON has machine, config and every result field" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = d["machine"]
for k in ("cpu", "features", "caches", "compiler", "cflags", "date"):
    assert k in m, k
c = d["config"]
assert [v["name"] for v in c["variants"]] == ["movsb", "libc"], c["variants"]
assert [v["kind"] for v in c["variants"]] == ["kernel", "kernel"], c["variants"]
assert c["sizes"] == [64, 4352] and c["distance"] == [1, 2048] and c["seed"] == 7, c
assert c["cache"] == "hot" and c["seconds"] == 0.1 and c["timer"] in ("tsc", "clock_gettime")
r = d["results"]
# The counters are named in config as in the results: underscores.
assert sorted(c["counters"]) == ["branch_misses", "branches", "cycles", "instructions",
                                 "task_clock"], c["counters"]
for k in c["counters"]:
    assert k in r[0] or k + "_ns" in r[0], k
assert len(r) == 2 * 2 * 2, len(r)
keys = ("variant", "size", "src_align", "dst_align", "distance", "cache", "ns_median",
        "ns_p10", "ns_p90", "gbps", "ratio", "ratio_lo", "ratio_hi", "cycles", "instructions")
for x in r:
    for k in keys:
        assert k in x, k
    assert x["ns_median"] > 0 and x["ns_p10"] <= x["ns_median"] <= x["ns_p90"], x
    # The interval ends are per-round ratios around their median, so
    # lo <= ratio <= hi by construction; what this checks is that every cell
    # had the rounds for an interval at all (null below 6).
    assert x["gbps"] > 0 and x["ratio_lo"] <= x["ratio"] <= x["ratio_hi"], x
    assert (x["dst_align"] - x["src_align"]) % 4096 == x["distance"], x
    for k in ("cycles", "instructions"):
        assert x[k] is None or x[k] > 0, (k, x[k])
base = [x for x in r if x["variant"] == "movsb"]
assert all(x["ratio"] == 1 and x["ratio_lo"] == 1 and x["ratio_hi"] == 1 for x in base), base
assert all(x["rounds"] >= 6 for x in r), [x["rounds"] for x in r]
# Slow rounds belong to a cell: the same count on the row of each variant.
assert all(0 <= x["slow_rounds"] <= x["rounds"] for x in r), r
cells = {}
for x in r:
    cells.setdefault((x["size"], x["distance"], x["src_align"]), set()).add(x["slow_rounds"])
assert all(len(v) == 1 for v in cells.values()), cells
assert {x["distance"] for x in r} == {1, 2048} and {x["size"] for x in r} == {64, 4352}
' "$out"

# The progress line: only for runs over a second, on a terminal, without -q.
run bench --kernels word --sizes 8 --seconds 1.5
expect "bench: no progress line when stderr is not a terminal" sh -c "[ $rc -eq 0 ] && [ ! -s '$err' ]"
if command -v script >/dev/null 2>&1; then
	script -qc "'$UCOPY' bench --kernels word --sizes 8 --seconds 1.5" /dev/null >"$out" 2>&1 </dev/null
	rc=$?
	expect "bench: a progress line with the percent done on a terminal" \
		sh -c "[ $rc -eq 0 ] && grep -aqE 'ucopy bench: +[0-9]+% \\([0-9]+ s left\\)' '$out'"
else
	echo "SKIP bench: progress line on a terminal: no script(1)"
fi

# The budget is the whole measurement: warm-up and every cell included, and
# used.  It is read off the command's own clock (config.elapsed_seconds), so
# that process start and exit, slow under a sanitizer on a loaded CI
# machine, are not counted against it; the wall clock checks that the field
# is not made up.  A stall of the machine in the last cell cannot be paid
# back by later cells, so a miss is run once more: two misses in a row fail.
budget_kept() {
	start=$(date +%s.%N)
	run bench --kernels byte,avx2 --sizes 64,1-200:x2 --seconds 1 -q --format json
	python3 -c '
import json, sys, time
wall = time.time() - float(sys.argv[2])
took = json.load(open(sys.argv[1]))["config"]["elapsed_seconds"]
assert 0.9 < took < 1.3 and took <= wall, (took, wall)
' "$out" "$start"
}
budget_kept || budget_kept
kept=$?
expect "bench --seconds 1: the measurement takes about a second" \
	sh -c "[ $kept -eq 0 ] && [ $rc -eq 0 ]"

# Policies (one given as policy text with commas) beside a kernel, warm.
run bench --kernels avx2 --policies linux-6.4,64:word,movsb --sizes 128 --cache warm --seconds 0.05 --format json -q
expect "bench policies: named and text, kernels first" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = d["config"]["variants"]
assert [x["name"] for x in v] == ["avx2", "linux-6.4", "64:word,movsb"], v
assert v[1]["kind"] == "policy" and v[2]["policy"] == "64:word,movsb", v
assert all(x["cache"] == "warm" for x in d["results"])
' "$out"

# A distribution file (plain format, written here).
dist=$(mktemp)
trap 'rm -f "$out" "$err" "$dist"' EXIT
printf '# sizes\n16 5\n256 3\n4K 1\n' >"$dist"
run bench --kernels avx2 --dist "$dist" --seconds 0.05 --format json --seed 3
expect "bench --dist: size null, dist named, offsets null" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = d["config"]
assert c["dist"]["format"] == "plain" and c["dist"]["sizes"] == 3 and c["sizes"] is None, c
x = d["results"][0]
assert x["size"] is None and x["dist"] == sys.argv[2] and x["distance"] is None, x
assert x["gbps"] > 0
' "$out" "$dist"

# A distribution file whose name is not UTF-8: the JSON stays valid, and the
# CSV's dist column carries the path as JSON does.
ddir=$(mktemp -d)
odd="$ddir/$(printf 'd\377x').txt"
printf '16:1,64:1\n' >"$odd"
run bench --kernels word --dist "$odd" --seconds 0.05 --format json
expect "bench --dist: a path that is not UTF-8 gives valid JSON" sh -c "[ $rc -eq 0 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1], encoding=\"utf-8\"))
assert d[\"results\"][0][\"dist\"].endswith(\"/d\\u00ffx.txt\"), d[\"results\"][0][\"dist\"]
' '$out'"
run bench --kernels word --dist "$odd" --seconds 0.05 --format csv
expect "bench --dist CSV: the dist column is the path" sh -c "[ $rc -eq 0 ] && tail -1 '$out' | grep -qF 'word,,$odd,'"
rm -rf "$ddir"

run bench --kernels word --sizes 1K --seconds 0.05 --format csv
expect "bench --format csv: header and one row" sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$out') -eq 2 ] && head -1 '$out' | grep -q '^variant,size,dist,src_align,dst_align,distance,cache,ns_median' && tail -1 '$out' | grep -q '^word,1024,,0,0,0,hot,'"

run bench --kernels word,byte --sizes 8 --seconds 0.05
expect "bench table: machine line, header, a row per variant" sh -c "[ $rc -eq 0 ] && grep -q '^# ucopy .* bench on ' '$out' && grep -q '^variant ' '$out' && grep -q '^word ' '$out' && grep -q '^byte ' '$out'"

o=$(mktemp)
run bench --kernels word --sizes 8 --seconds 0.02 -o "$o" --format json
expect "bench -o FILE: results in the file, nothing on stdout" sh -c "[ $rc -eq 0 ] && [ ! -s '$out' ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$o'"
rm -f "$o"

# An -o that names the input file: refused, the input left as it was.
ddir=$(mktemp -d)
printf '64 1\n' >"$ddir/d.csv"
ln -s d.csv "$ddir/link.csv"
bad "-o the --dist file" "cannot write '$ddir/d.csv': it is the --dist file \(expected another file" \
	--kernels word --dist "$ddir/d.csv" -o "$ddir/d.csv" --seconds 0.05
bad "-o a link to the --dist file" "cannot write '$ddir/link.csv': it is the --dist file" \
	--kernels word --dist "$ddir/d.csv" -o "$ddir/link.csv" --seconds 0.05
expect "bench: ... and the distribution is unchanged" sh -c "[ \"\$(cat '$ddir/d.csv')\" = '64 1' ]"
rm -rf "$ddir"

# Errors: exit 2, one line naming the bad input, nothing on stdout.
bad "unknown kernel" "unknown kernel 'frob' \(expected one of: .*movsb" --kernels movsb,frob
bad "empty kernel in list" "bad kernel list" --kernels movsb,
bad "unknown policy" "bad policy 'linux-9.9'" --policies linux-9.9
bad "malformed policy text" "bad policy '64:frob,movsb'" --policies 64:frob,movsb
bad "malformed size" "bad size '12Q' \(expected a number with optional K, M or G\)" --sizes 64,12Q
bad "backwards range" "bad range '256-1'" --sizes 256-1
bad "size too large" "too large" --sizes 4G
bad "alignment >= 4096" "--src-align: offset 4096 is too large \(at most 4095\)" --src-align 0,4096
bad "alignment range past 4095" "--src-align: offset 5000 is too large \(at most 4095\)" --src-align 0-5000
bad "a huge alignment range is too large, not too many" "--src-align: offset 10737418240 is too large \(at most 4095\)" --src-align 0-10G
bad "size without a start" "bad size '-5'" --sizes=-5
bad "a grid the budget cannot hold" "16777216 cells of 1 variant need a budget of at least [0-9]+ s, more than --seconds 1" --kernels word --sizes 8 --src-align 0-4095 --dst-align 0-4095 --seconds 1
# Copies themselves count: one 1 GiB cell ran 16 s at 2 GB RSS on a 0.1 s
# budget.  Even one variant copies it 8 times (warm-up and 6 rounds).
bad "a 1 GiB copy cannot keep a 0.1 s budget" \
	"^ucopy: 1 cell of [0-9]+ variants needs a budget of at least [0-9.]+ s, more than --seconds 0.1 " \
	--sizes 1G --seconds 0.1
bad "one 1 GiB copy of one kernel cannot either" \
	"2 cells of 1 variant need a budget of at least 0.1[0-9]* s, more than --seconds 0.1 " \
	--kernels word --sizes 64,1G --seconds 0.1
# The memory is checked first (the budgets here are too short as well, so
# that a broken check fails at once rather than mapping 2 GiB).
bad "buffers over --max-memory" \
	"^ucopy: the buffers need 2049 MiB, more than --max-memory 1024 MiB \(smaller sizes" \
	--kernels word --sizes 1G --seconds 0.01 --max-memory 1G
bad "cold buffers over --max-memory" "the buffers need [0-9]+ MiB, more than --max-memory 1 MiB" \
	--kernels word --sizes 8 --cache cold --max-memory 1M --seconds 0.0001
bad "bad --max-memory" "bad memory limit '1k' \(expected a size of 1M or more" --max-memory 1k
bad "negative --max-memory" "bad memory limit '-5'" --max-memory -5
run bench --kernels word --sizes 64 --src-align 4095 --distance 4095 --max-memory 1M --seconds 0.05 -q
expect "bench: a grid within --max-memory runs" [ $rc -eq 0 ]
bad "dst alignment malformed" "--dst-align: bad size 'x'" --dst-align x
bad "distance >= 4096" "--distance: distance 5000 is too large \(at most 4095\)" --distance 5000
bad "distance with dst-align" "--distance and --dst-align" --distance 1 --dst-align 1
bad "bad cache state" "bad cache state 'tepid' \(expected hot, warm or cold\)" --cache tepid
bad "budget zero" "bad budget '0'" --seconds 0
bad "budget negative" "bad budget '-1'" --seconds -1
bad "budget not a number" "bad budget 'soon'" --seconds soon
bad "budget nan" "bad budget 'nan'" --seconds nan
bad "bad format" "bad format 'xml' \(expected table, csv or json\)" --format xml
bad "missing value" "option '--sizes' needs a value" --sizes
bad "unknown option" "unknown option '--frob'" --frob
bad "stray argument" "unexpected argument 'extra'" extra
bad "missing distribution" "cannot read '/nonexistent/d.csv': No such file" --dist /nonexistent/d.csv
: >"$dist"
bad "empty distribution" "empty distribution file" --dist "$dist"
printf '0:0.5,8:0.5\n0:1' >"$dist"
bad "truncated distribution" ":2: truncated" --dist "$dist"
printf '0:0.5,8\n' >"$dist"
bad "malformed distribution" ":1: bad entry '8'" --dist "$dist"
bad "dist with sizes" "--dist draws sizes" --dist "$dist" --sizes 64
bad "unwritable output" "cannot write '/nonexistent/out'" --kernels word -o /nonexistent/out
bad "scrub too often" "bad --scrub '255' \\(expected 256\\.\\.16777216 copies" --kernels word --scrub 255
bad "scrub not a number" "bad --scrub 'often'" --kernels word --scrub often

# The company condition: the scrubber runs within every batch, no variant
# plays steady-state passes, and every form of the result names it.
printf '# sizes\n8 5\n24 3\n100 1\n' >"$dist"
run bench --entries memcpy,ucopy_memcpy --dist "$dist" --regime both --scrub 256 \
	--seconds 0.2 --format json --seed 5
expect "bench --scrub: scrubs counted, no steady passes, named in config" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = d["config"]
assert c["scrub_every"] == 256, c["scrub_every"]
for g in c["dist"]["regimes"]:
    assert g["condition"].endswith("the scrubber after every 256 copies"), g
    assert "steady state" not in g["condition"], g
for x in d["results"]:
    # A batch of k copies runs the scrubber ceil(k / 256) times.
    assert x["scrubs"] == x["rounds"] * ((x["batch"] + 255) // 256), x
    assert x["steady_passes"] == 0 and x["cycles"] is None, x
' "$out"
run bench --entries memcpy,ucopy_memcpy --dist "$dist" --regime repeated --seconds 0.2 \
	--format json --seed 5
expect "bench without --scrub: scrub_every null, steady state, no scrubs" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["config"]["scrub_every"] is None
assert d["config"]["dist"]["regimes"][0]["condition"].endswith("at its steady state")
assert all(x["scrubs"] == 0 for x in d["results"]), d["results"]
' "$out"
run bench --kernels word --sizes 64 --scrub 1024 --seconds 0.05 --format csv
expect "bench --scrub: CSV column scrub_every" sh -c 'head -1 "$1" | grep -q ",scrub_every\$" &&
	sed -n 2p "$1" | grep -q ",1024\$"' sh "$out"
run bench --kernels word --sizes 64 --scrub 1024 --seconds 0.05
expect "bench --scrub: the table says so" grep -q '^# company: the scrubber (4096 copy-like size decisions) after every 1024 copies' "$out"
# A kernel this CPU cannot run is named, when there is one.
missing=$(python3 -c '
import json, subprocess, sys
d = json.loads(subprocess.run([sys.argv[1], "features", "--json"], capture_output=True).stdout)
print(next((k["name"] for k in d["kernels"] if not k["supported"]), ""))
' "$UCOPY" 2>/dev/null)
if [ -n "$missing" ]; then
	bad "unsupported kernel" "kernel '$missing' needs .*which this CPU lacks" --kernels "$missing"
else
	echo "SKIP bench error: unsupported kernel: this CPU runs every kernel"
fi
