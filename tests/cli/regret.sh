# ucopy regret, auto's regret on the corpus (issue 42), on a synthetic
# corpus whose answer is known: one machine, a Zen 3 (AMD 25/1, whose row
# of auto is written by hand: 8M:avx2,nt with these features and a 32 MiB
# L3; a corpus CPU's derived row would move with the corpus), two reports.
# make check does not judge the real corpus (its regret is
# docs/performance.md's table, by `ucopy regret --markdown`).
. tests/cli/lib.sh
only_arch x86_64 "the synthetic machine is an x86-64 CPU with x86-64 kernels"

dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out" "$err"' EXIT
# synth DIR SLOW_SSE2: two reports in DIR/amd-25-1.  Every kernel auto runs
# is the fastest at its sizes (1.0 ns) and every other one 2.0, except:
# at 1 MiB sse2 reads 0.5 in the first report and 3.0 in the second (a
# winner by noise, which choosing on one report and timing on the other
# must not count against auto); and with SLOW_SSE2 = 0, at 64 KiB sse2
# reads 0.8 in both (a real winner: regret 1.25 there).
synth() {
	python3 - "$1" "$2" <<'PY'
import gzip, json, os, sys
d, real = sys.argv[1], sys.argv[2] == "0"
m = os.path.join(d, "amd-25-1")
os.makedirs(m, exist_ok=True)
open(os.path.join(m, "README.md"), "w").write("family 25 model 1\n")
sizes = [64, 4096, 65536, 1 << 20, 64 << 20]
auto = lambda n: "avx2" if n < 8 << 20 else "nt"
for i in (1, 2):
    series = []
    for k in ("avx2", "nt", "movsb_safe", "sse2", "libc"):
        pts = []
        for n in sizes:
            ns = 1.0 if k == auto(n) else 2.0
            if k == "sse2" and n == 1 << 20:
                ns = 0.5 if i == 1 else 3.0
            if k == "sse2" and n == 65536 and real:
                ns = 0.8
            if k == "libc":
                ns = 0.1   # never a kernel a policy picks
            pts.append({"size": n, "ns_median": ns})
        series.append({"name": k, "points": pts})
    r = {"schema": 2, "date": "2026-12-0%d" % i, "seed": i,
         "machine": {"cpu": {"arch": "x86_64", "vendor": "AuthenticAMD", "family": 25, "model": 1},
                     "features": ["sse2", "avx", "avx2", "erms", "fsrm", "rep_good"],
                     "caches": {"l2": 512 << 10, "l3": 32 << 20}},
         "sweep": [{"cache": "hot", "sizes": sizes, "series": series},
                   {"cache": "cold", "sizes": sizes, "series": series}]}
    json.dump(r, gzip.open(os.path.join(m, "report-%d.json.gz" % i), "wt"))
PY
}

synth "$dir/a" 1
run regret --corpus "$dir/a" --check
expect "regret: auto fastest everywhere, a noise winner not counted: within bounds" \
	sh -c "[ $rc -eq 0 ] && grep -q '^amd-25-1   auto        hot  avx2 < 8M: 1.000; nt >= 8M: 1.000 | worst 1.000' '$out' && ! grep -q OVER '$out'"

synth "$dir/b" 0
run regret --corpus "$dir/b" --check
expect "regret: a kernel 1.25x faster than auto's at 64K is found, and --check fails" \
	sh -c "[ $rc -eq 1 ] && grep -q '^OVER amd-25-1 auto hot: 64K at 1.250 > 1.15' '$out' &&
		grep -q '^OVER amd-25-1 auto hot band avx2: geomean 1.057 > 1.05' '$out'"

run regret --corpus "$dir/b" --markdown
expect "regret: --markdown is the table docs/performance.md holds" \
	sh -c "[ $rc -eq 0 ] && grep -q '^| machine | policy | row | cache | regret by band (geomean) | worst size |$' '$out' &&
		grep -q '^| amd-25-1 (2 reports) | auto: .8M:avx2,nt. | AMD family 0x19 (Zen 3) | hot | avx2 < 8M: 1.057; nt >= 8M: 1.000 | 1.250 at 64K |$' '$out'"

# A machine with one report is not judged; a corpus with none is an error.
rm "$dir/a/amd-25-1/report-2.json.gz"
usage_error "regret: no machine with two reports" "no machine folder with two reports" \
	regret --corpus "$dir/a"
usage_error "regret: a corpus that is not there" "$dir/none: cannot read" \
	regret --corpus "$dir/none"
printf 'not json' | gzip >"$dir/b/amd-25-1/report-3.json.gz"
usage_error "regret: a damaged report is named" "report-3.json.gz: not JSON" \
	regret --corpus "$dir/b"
run regret --corpus "$dir/b" --allow-missing
expect "regret: --allow-missing names it and judges the rest" \
	sh -c "[ $rc -eq 0 ] && grep -q 'report-3.json.gz: not JSON.*skipped' '$err' && grep -q '^amd-25-1 ' '$out'"
usage_error "regret: an unknown option" "unexpected argument '--bogus'" regret --bogus

# The distributions (schema 4: each row timed with ucopy_memcpy and each
# vector kernel alone).  add_dists DIR ACTIVE: the reports of DIR/amd-25-1
# say ucopy ran ACTIVE; on Memcpy_A sse2 alone is 0.8 of ucopy's time in
# both reports (regret 1.25), on Memcpy_B ucopy is fastest.
add_dists() {
	python3 - "$1" "$2" <<'PY'
import glob, gzip, json, sys
d, active = sys.argv[1], sys.argv[2]
for f in sorted(glob.glob(d + "/amd-25-1/report-*.json.gz")):
    r = json.load(gzip.open(f))
    r["schema"] = 4
    r["policy"] = {"active": active}
    rows = [{"name": n, "alone": {"ns_ucopy": 1.0, "kernels": [
        {"name": "sse2", "ns": 0.8 if n == "Memcpy_A" else 1.5},
        {"name": "avx2", "ns": 1.1}]}} for n in ("Memcpy_A", "Memcpy_B")]
    for key in ("distributions", "distributions_repeated"):
        r[key] = {"rows": rows}
    json.dump(r, gzip.open(f, "wt"))
PY
}
synth "$dir/e" 1
add_dists "$dir/e" 8M:avx2,nt
run regret --corpus "$dir/e" --check
expect "regret: on the distributions, a kernel alone 1.25x faster than ucopy is found" \
	sh -c "[ $rc -eq 1 ] &&
		grep -q '^amd-25-1   auto        distributions, unlearnable: 2 files, 2 reports: 1.118 | worst 1.250 at Memcpy_A' '$out' &&
		grep -q '^OVER amd-25-1 auto distributions, repeated: Memcpy_A at 1.250 > 1.15' '$out' &&
		grep -q '^OVER amd-25-1 auto distributions, repeated: geomean 1.118 > 1.05' '$out'"
add_dists "$dir/e" 8M:avx2,movsb_safe
run regret --corpus "$dir/e" --check
expect "regret: reports that ran another policy do not judge auto's on the distributions" \
	sh -c "[ $rc -eq 0 ] &&
		grep -q '^amd-25-1   auto        distributions, unlearnable: not judged: 0 reports timed the vector kernels alone with this policy (2 needed)' '$out'"

# The default row as a CPU the corpus never saw gets it: derived from the
# other machines; with none left, the hand row's limits (2 KiB, streaming
# stores from a quarter of the 32 MiB L3).
synth "$dir/f" 1
run regret --corpus "$dir/f"
expect "regret: the default row derived without the machine, for a CPU never seen" \
	sh -c "[ $rc -eq 0 ] && grep -q '^amd-25-1   unseen      hot  .* | 2K:avx2,8M:movsb_safe,nt\$' '$out'"
run regret --corpus "$dir/f" --markdown
expect "regret --markdown: ... and its row says where it came from" \
	sh -c "[ $rc -eq 0 ] && grep -q '| unseen: .2K:avx2,8M:movsb_safe,nt. | default, derived without this machine (none left: the hand limits) | hot |' '$out'"
