# The default row derived from the corpus (programs/core/default_row.c):
# on a synthetic corpus of two machines whose answer is known, `ucopy
# derive --rows` writes the limits with the least worst-case regret.
#   amd-25-1 (Zen 3 class: AVX2, no AVX-VNNI, L3 16 MiB): avx2 fastest below
#     8 KiB, movsb_safe from 8 KiB to 4 MiB, nt from 8 MiB;
#   amd-26-2 (AVX-512 with AVX-VNNI, L3 32 MiB): avx512 fastest below
#     16 KiB, movsb_safe from 16 KiB to 8 MiB, nt512 from 16 MiB.
# The only limits that send every size to its fastest kernel on both are a
# vector limit of 8 KiB, 16 KiB for avx512, and streaming stores from half
# the L3 (8 MiB and 16 MiB): { 8192, 16384, 2 }.  A second corpus where no
# kernel streams faster keeps no streaming stores, and where a machine's
# reports do not tell two limits apart the hand row's value stays.  A third
# sets two AVX2 machines against each other: amd-25-1 as above (a wrong
# kernel costs 2x there), amd-23-49 with avx2 fastest only below 2 KiB (a
# wrong kernel costs 3x).  A vector limit of 2 KiB costs amd-25-1 two sizes
# at 2x, 8 KiB costs amd-23-49 two at 3x, 4 KiB one size on each: the
# least worst case is 4 KiB, where the least total regret would be 2 KiB.
. tests/cli/lib.sh
only_arch x86_64 "the synthetic machines are x86-64 CPUs with x86-64 kernels"

dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out" "$err"' EXIT
# synth DIR MODE: the machines in DIR; MODE a: as above, b: nothing streams
# faster, c: amd-25-1 and amd-23-49, nothing streams faster, d: as a, but
# amd-26-2's reports did not time nt512.
synth() {
	python3 - "$1" "$2" <<'PY'
import gzip, json, os, sys
d, mode = sys.argv[1], sys.argv[2]
stream = mode in ("a", "d")
K, M = 1 << 10, 1 << 20
sizes = [256, 1 * K, 2 * K, 4 * K, 8 * K, 16 * K, 32 * K, 64 * K, 1 * M, 4 * M, 8 * M,
         16 * M, 64 * M]
machines = {
    "amd-25-1": (25, 1, ["sse2", "avx", "avx2", "erms", "fsrm", "rep_good"], 16 * M,
                 lambda n: "avx2" if n < 8 * K else "nt" if stream and n >= 8 * M
                 else "movsb_safe"),
    "amd-26-2": (26, 2, ["sse2", "avx", "avx2", "avx512f", "avx512bw", "avx512vl",
                         "avx_vnni", "erms", "fsrm", "rep_good"], 32 * M,
                 lambda n: "avx512" if n < 16 * K else "nt512" if stream and n >= 16 * M
                 else "movsb_safe"),
}
if mode == "c":
    del machines["amd-26-2"]
    machines["amd-23-49"] = (23, 49, ["sse2", "avx", "avx2", "erms", "fsrm", "rep_good"],
                             16 * M, lambda n: "avx2" if n < 2 * K else "movsb_safe")
slow = {"amd-23-49": 3.0}
os.makedirs(d, exist_ok=True)
open(os.path.join(d, "families.txt"), "w").write("AuthenticAMD 0x19 0x00-0x0f Zen 3\n")
for name, (fam, model, feats, l3, best) in machines.items():
    m = os.path.join(d, name)
    os.makedirs(m, exist_ok=True)
    for i in (1, 2):
        series = [{"name": k, "points": [{"size": n, "ns_median": 1.0 if k == best(n) else 2.0}
                                         for n in sizes]}
                  for k in ("avx2", "avx512", "movsb_safe", "nt", "nt512", "sse2")
                  if not (mode == "d" and name == "amd-26-2" and k == "nt512")]
        r = {"schema": 2, "date": "2026-12-0%d" % i, "seed": i,
             "machine": {"cpu": {"arch": "x86_64", "vendor": "AuthenticAMD",
                                 "family": fam, "model": model},
                         "features": feats, "caches": {"l2": 1 * M, "l3": l3}},
             "sweep": [{"cache": c, "sizes": sizes, "series": series} for c in ("hot", "cold")]}
        json.dump(r, gzip.open(os.path.join(m, "report-%d.json.gz" % i), "wt"))
PY
}
limits() {
	sed -n 's/^const struct ucopy_default_limits ucopy_derived_default = \(.*\);$/\1/p' "$1"
}

synth "$dir/a" a
run derive --rows "$dir/a" -o "$dir/a.c"
expect "default row: the limits that fit both machines (8K, 16K with zmm, half the L3)" \
	sh -c "[ $rc -eq 0 ] && [ '$(limits "$dir/a.c")' = '{ 8192, 16384, 2 }' ] &&
		grep -q '^ \* state, worst first: 1.000, 1.000, 1.000, 1.000.$' '$dir/a.c'"
expect "default row: each machine's row starts from what the default gives it" \
	sh -c "grep -qx ' \*   $dir/a/amd-25-1 gets 8K:avx2,8M:movsb_safe,nt' '$dir/a.c' &&
		grep -qx ' \*   $dir/a/amd-26-2 gets 16K:avx512,16M:movsb_safe,nt512' '$dir/a.c'"

# ucopy regret's "unseen": each machine's default row derived from the other
# alone, so the limit only the other's kernel judges stays the hand row's.
run regret --corpus "$dir/a"
expect "default row: unseen, each machine's from the other's reports" \
	sh -c "[ $rc -eq 0 ] && grep -q '^amd-25-1   unseen      hot  .* | 2K:avx2,8M:movsb_safe,nt\$' '$out' &&
		grep -q '^amd-26-2   unseen      hot  .* | 4K:avx512,16M:movsb_safe,nt512\$' '$out'"

synth "$dir/b" b
run derive --rows "$dir/b" -o "$dir/b.c"
expect "default row: no streaming stores where none is faster" \
	sh -c "[ $rc -eq 0 ] && [ '$(limits "$dir/b.c")' = '{ 8192, 16384, 0 }' ]"

synth "$dir/c" c
run derive --rows "$dir/c" -o "$dir/c.c"
expect "default row: the least worst case, not the least total (4K, not 2K)" \
	sh -c "[ $rc -eq 0 ] && [ '$(limits "$dir/c.c")' = '{ 4096, 4096, 0 }' ]"

# A limit that sends a size to a kernel a machine's reports did not time
# is not judged there, so not taken: amd-26-2 cannot judge streaming stores.
synth "$dir/d" d
run derive --rows "$dir/d" -o "$dir/d.c"
expect "default row: limits a machine's reports cannot judge are not taken" \
	sh -c "[ $rc -eq 0 ] && [ '$(limits "$dir/d.c")' = '{ 8192, 16384, 0 }' ]"

# One machine alone: the avx512 limit has nothing to judge it and stays
# the hand row's (4 KiB).
rm -r "$dir/b/amd-26-2"
run derive --rows "$dir/b" -o "$dir/e.c"
expect "default row: a limit no machine judges keeps the hand row's value" \
	sh -c "[ $rc -eq 0 ] && [ '$(limits "$dir/e.c")' = '{ 8192, 4096, 0 }' ]"

# No machine with two reports: nothing to judge the default row on; it
# keeps the hand row's limits and says so.
rm "$dir/b/amd-25-1/report-2.json.gz"
run derive --rows "$dir/b" -o "$dir/f.c"
expect "default row: no machine with two reports keeps the hand row's limits" \
	sh -c "[ $rc -eq 0 ] && [ '$(limits "$dir/f.c")' = '{ 2048, 4096, 1 }' ] &&
		grep -q 'the hand row.s, as no machine has two' '$dir/f.c'"
