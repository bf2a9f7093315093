#!/usr/bin/env python3
"""regret.py: auto's regret on the corpus of measured machines (issue 42).

For every machine in the corpus (data/machines/<vendor>-<family>-<model>/,
data/machines/README.md) with two reports or more, the policy auto chooses
there is asked of the command (`ucopy features --cpu V:F:M --assume-features
none,<the report's features> --caches L2,L3 --json`), as is the default
row's (the same CPU under a vendor no row knows).  Then, per size of the
reports' sweeps, hot and cold, the regret of a policy is the time of the
kernel it runs at that size over the time of the fastest kernel, the
fastest chosen on one report and both timed on another, so that the noise
that made a kernel look fastest once is not counted as its speed
(every ordered pair of reports; the median over the pairs, and 1 where
that is below 1: auto ahead of a kernel that only looked fastest).  A band is a
rule of the policy: the sizes it sends to one kernel; its regret is the
geometric mean over its sizes.

Bounds (issue 42): every band's geometric mean at most 1.05 and no size
above 1.15, for auto on every machine.  --check exits 1 when one is broken.

Usage: tests/regret.py [--ucopy PATH] [--corpus DIR] [--check] [--markdown]
"""
import argparse
import gzip
import json
import math
import os
import statistics
import subprocess
import sys

BAND_BOUND = 1.05
SIZE_BOUND = 1.15
# The sweep's series that are not kernels a policy can pick.
NOT_KERNELS = {"libc", "ucopy"}
# No row of auto is keyed by family 0 (x86-64) or MIDR part 0 (aarch64):
# the CPU's own vendor with that id takes the default row, and keeps what
# the vendor decides beside the row (on Intel the streaming threshold).
NO_ROW_ID = 0


def parse_size(text):
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if text[-1] in mult:
        return int(text[:-1]) * mult[text[-1]]
    return int(text)


def policy_rules(text):
    """'17K:avx512,192K:movsb_safe,movsb_aligned' as [(limit, kernel)]:
    sizes below a limit go to its kernel, the last rule takes the rest."""
    rules = []
    for part in text.split(","):
        if ":" in part:
            limit, kernel = part.split(":")
            rules.append((parse_size(limit), kernel))
        else:
            rules.append((math.inf, part))
    return rules


def kernel_at(rules, size):
    for i, (limit, kernel) in enumerate(rules):
        if size < limit:
            return i, kernel
    return len(rules) - 1, rules[-1][1]


def sweep_table(report):
    """{cache: {kernel: {size: ns}}} from a report's sweep."""
    out = {}
    for part in report["sweep"]:
        t = out.setdefault(part["cache"], {})
        for s in part["series"]:
            if s["name"] in NOT_KERNELS:
                continue
            t[s["name"]] = {p["size"]: p["ns_median"] for p in s["points"]
                            if p["ns_median"] is not None}
    return out


def regret(rules, tables):
    """Per cache state: {size: regret} (median over ordered pairs of
    reports) and {band index: (geomean, sizes)}."""
    out = {}
    missing = set()
    for cache in ("hot", "cold"):
        per_size = {}
        sizes = sorted(set.intersection(*[set().union(*[set(k) for k in t[cache].values()])
                                          for t in tables if cache in t]) if all(cache in t for t in tables) else set())
        for n in sizes:
            vals = []
            for a in range(len(tables)):
                for b in range(len(tables)):
                    if a == b:
                        continue
                    ta, tb = tables[a][cache], tables[b][cache]
                    cands = [k for k in ta if n in ta[k] and n in tb.get(k, {})]
                    if not cands:
                        continue
                    best = min(cands, key=lambda k: ta[k][n])
                    _, mine = kernel_at(rules, n)
                    if mine not in tb or n not in tb[mine]:
                        missing.add((cache, n, mine))
                        continue
                    vals.append(tb[mine][n] / tb[best][n])
            if vals:
                # Below 1 the kernel chosen on one report was slower on
                # the other than auto's: no regret, and not a credit that
                # would hide a real loss elsewhere in the band.
                per_size[n] = max(1.0, statistics.median(vals))
        bands = {}
        for n, r in per_size.items():
            i, _ = kernel_at(rules, n)
            bands.setdefault(i, []).append(r)
        out[cache] = (per_size, {i: (math.exp(sum(map(math.log, v)) / len(v)), len(v))
                                 for i, v in bands.items()})
    return out, sorted(missing)


def auto_policy(ucopy, vendor, family, model, features, caches):
    cmd = [ucopy, "features", "--cpu", "%s:%d:%d" % (vendor, family, model),
           "--assume-features", "none," + ",".join(features),
           "--caches", "%d,%d" % (caches.get("l2", 0), caches.get("l3", 0)), "--json"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit("regret: %s: %s" % (" ".join(cmd), r.stderr.strip()))
    d = json.loads(r.stdout)
    return d["policy"], d["auto_row"].split(":")[0]


def machines(corpus):
    for m in sorted(os.listdir(corpus)):
        d = os.path.join(corpus, m)
        files = sorted(f for f in os.listdir(d) if f.startswith("report-") and
                       f.endswith(".json.gz")) if os.path.isdir(d) else []
        if len(files) < 2:
            continue
        reports = []
        for f in files:
            r = json.load(gzip.open(os.path.join(d, f)))
            if r.get("schema", 1) not in (1, 2, 3):
                sys.exit("regret: %s/%s: schema %r, not one this reader knows" %
                         (m, f, r.get("schema")))
            reports.append(r)
        yield m, files, reports


def fmt_size(n):
    for unit, s in ((1 << 20, "M"), (1 << 10, "K")):
        if n >= unit and n % unit == 0:
            return "%d%s" % (n // unit, s)
    return str(n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ucopy", default=os.environ.get("UCOPY", "build/ucopy"))
    ap.add_argument("--corpus", default="data/machines")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    broken = []
    rows = []
    for m, files, reports in machines(a.corpus):
        cpu = reports[0]["machine"]["cpu"]
        feats = reports[0]["machine"]["features"]
        caches = reports[0]["machine"]["caches"]
        vendor = {"AuthenticAMD": "amd", "GenuineIntel": "intel"}.get(cpu["vendor"], cpu["vendor"])
        tables = [sweep_table(r) for r in reports]
        for who in ("auto", "default row"):
            fam, model = cpu["family"], cpu["model"]
            if who != "auto":
                # x86-64's rows are keyed by family, aarch64's by part.
                fam, model = (NO_ROW_ID, model) if cpu["arch"] == "x86_64" else (0, NO_ROW_ID)
            policy, row = auto_policy(a.ucopy, vendor, fam, model, feats, caches)
            rules = policy_rules(policy)
            res, missing = regret(rules, tables)
            # A size the policy sends to a kernel a report did not time is
            # not judged, and says so: a band must not pass unseen.
            for cache, n, k in missing:
                broken.append("%s %s %s: %s at %s not in a report (not judged)" %
                              (m, who, cache, k, fmt_size(n)))
            for cache in ("hot", "cold"):
                per_size, bands = res[cache]
                if not per_size:
                    continue
                worst = max(per_size, key=per_size.get)
                band_txt = []
                for i, (g, k) in sorted(bands.items()):
                    lo = rules[i - 1][0] if i else 0
                    hi = rules[i][0]
                    span = ("< %s" % fmt_size(hi) if not lo else
                            ">= %s" % fmt_size(lo) if hi == math.inf else
                            "%s-%s" % (fmt_size(lo), fmt_size(hi)))
                    band_txt.append("%s %s: %.3f" % (rules[i][1], span, g))
                    if who == "auto" and g > BAND_BOUND:
                        broken.append("%s %s %s band %s: geomean %.3f > %.2f" %
                                      (m, who, cache, rules[i][1], g, BAND_BOUND))
                if who == "auto" and per_size[worst] > SIZE_BOUND:
                    broken.append("%s %s %s: %s at %.3f > %.2f" % (m, who, cache, fmt_size(worst),
                                                                   per_size[worst], SIZE_BOUND))
                rows.append((m, who, row, policy, cache, "; ".join(band_txt),
                             per_size[worst], fmt_size(worst), len(files)))
    if a.markdown:
        print("| machine | policy | row | cache | regret by band (geomean) | worst size |")
        print("|---|---|---|---|---|---|")
        for m, who, row, policy, cache, bands, w, ws, nf in rows:
            print("| %s (%d reports) | %s: `%s` | %s | %s | %s | %.3f at %s |" %
                  (m, nf, who, policy, row, cache, bands, w, ws))
    else:
        for m, who, row, policy, cache, bands, w, ws, nf in rows:
            print("%-10s %-11s %-4s %s | worst %.3f at %s | %s" % (m, who, cache, bands, w, ws, policy))
    for b in broken:
        print("OVER %s" % b)
    if a.check and broken:
        sys.exit(1)


if __name__ == "__main__":
    main()
