# The corpus of measured machines (data/machines/README.md): every report
# reads, names its layout's version, and was measured on the folder's CPU;
# every folder has a README that gives that CPU's family and model.
. tests/cli/lib.sh

expect "corpus: every report reads and is the folder's CPU" python3 - data/machines <<'PY'
import gzip, json, os, re, sys
root = sys.argv[1]
bad, reports = [], 0
for m in sorted(os.listdir(root)):
    d = os.path.join(root, m)
    if not os.path.isdir(d):
        continue
    g = re.fullmatch(r"(amd|intel|arm)-(\d+)-(\d+)", m)
    if not g:
        bad.append("%s: not <vendor>-<family>-<model>" % m)
        continue
    vendor = {"amd": "AuthenticAMD", "intel": "GenuineIntel"}.get(g[1])
    family, model = int(g[2]), int(g[3])
    readme = os.path.join(d, "README.md")
    if not os.path.isfile(readme) or \
            "family %d model %d" % (family, model) not in open(readme).read():
        bad.append("%s: no README naming family %d model %d" % (m, family, model))
    for f in sorted(os.listdir(d)):
        if not re.fullmatch(r"report-\d+\.json\.gz", f):
            continue
        reports += 1
        try:
            r = json.load(gzip.open(os.path.join(d, f)))
        except Exception as e:
            bad.append("%s/%s: %s" % (m, f, e))
            continue
        # Schema 1 has no key (docs/report.md, "The JSON's schema").
        schema = r.get("schema", 1)
        if schema not in (1, 2, 3, 4):
            bad.append("%s/%s: schema %r, not one this test knows" % (m, f, schema))
        cpu = r["machine"]["cpu"]
        if (cpu["family"], cpu["model"]) != (family, model) or \
                (vendor and cpu["vendor"] != vendor):
            bad.append("%s/%s: measured on %s %d/%d" % (m, f, cpu["vendor"], cpu["family"],
                                                       cpu["model"]))
        if schema >= 2 and "distribution_dir" not in r:
            bad.append("%s/%s: schema 2 without distribution_dir" % (m, f))
if reports < 4:
    bad.append("%d reports in all, expected at least 4" % reports)
if bad:
    print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
