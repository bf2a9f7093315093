# CLI tests: ucopy report on a tiny budget.  The page is checked with an
# HTML parser against the JSON written beside it: three charts, one series
# per measured variant, the sweep's point counts, every table row, and no
# external reference.  Then the error cases.
. tests/cli/lib.sh

dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out" "$err"' EXIT

# The distributions are the ones that ship (data/distributions), found
# without being named.
run report --quick --seconds 2 -q -o "$dir/r.html" --json "$dir/r.json" --seed 010
expect "report --quick: exit 0, nothing on stdout or stderr" \
	sh -c "[ $rc -eq 0 ] && [ ! -s '$out' ] && [ ! -s '$err' ] && [ -s '$dir/r.html' ] && [ -s '$dir/r.json' ]"
expect "report --seed 010 is ten (decimal, as in every command)" python3 -c '
import json, sys
assert json.load(open(sys.argv[1]))["seed"] == 10' "$dir/r.json"

cat >"$dir/check.py" <<'PY'
import json, os, re, sys
from html.parser import HTMLParser

page, data = sys.argv[1], json.load(open(sys.argv[2]))
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}
# SVG children written self-closed (<line/>, <rect/>) need no end tag.

class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.elems = [], [], []
        self.style = ""
        self.in_style = False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.elems.append((tag, a, [t for t, _ in self.stack]))
        self.stack.append((tag, a))
        if tag in VOID:
            self.stack.pop()
        self.in_style = tag == "style"
    def handle_startendtag(self, tag, attrs):
        self.elems.append((tag, dict(attrs), [t for t, _ in self.stack]))
    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append("unbalanced </%s> (open: %s)" % (tag, [t for t, _ in self.stack[-3:]]))
            return
        self.stack.pop()
        self.in_style = False
    def handle_data(self, d):
        if self.in_style:
            self.style += d

p = Page()
text = open(page, encoding="utf-8").read()
p.feed(text)
p.close()
fails = []
def check(cond, what):
    if not cond:
        fails.append(what)

check(not p.errors, "parse: %s" % p.errors[:3])
check(not p.stack, "unclosed elements: %s" % [t for t, _ in p.stack])
check(text.startswith("<!DOCTYPE html>"), "doctype")

# Self-contained: no external URL, no script, no stylesheet import.
for tag, a, _ in p.elems:
    for k in ("src", "href", "xlink:href", "action", "data"):
        v = a.get(k) or ""
        check(not re.match(r"\s*(https?:)?//", v), "external %s=%s on <%s>" % (k, v, tag))
    check(tag not in ("script", "link", "iframe", "img", "object"), "<%s> in page" % tag)
check("http://" not in text and "https://" not in text, "an http(s) URL in the page")
check("@import" not in p.style and "url(" not in p.style, "@import or url() in the stylesheet")

svgs = {a.get("id"): a for tag, a, _ in p.elems if tag == "svg"}
for sid in ("chart-ns", "chart-gbps", "chart-cliff"):
    check(sid in svgs, "svg #%s" % sid)

# Which svg each element is in: track by order of appearance.
owner, cur = [], None
for tag, a, anc in p.elems:
    if tag == "svg":
        cur = a.get("id")
    elif "svg" not in anc:
        cur = None
    owner.append(cur)
def in_chart(chart, tag, cls):
    return [a for (t, a, anc), o in zip(p.elems, owner)
            if o == chart and t == tag and cls in (a.get("class") or "").split()]

hot = next(s for s in data["sweep"] if s["cache"] == "hot")
names = [s["name"] for s in hot["series"]]
check(len(names) >= 3 and "libc" in names and "ucopy" in names, "hot series %s" % names)
for chart, key in (("chart-ns", "ns_median"), ("chart-gbps", "gbps")):
    paths = in_chart(chart, "path", "series")
    got = {a["data-series"]: a for a in paths}
    check(sorted(got) == sorted(names), "%s series %s != %s" % (chart, sorted(got), sorted(names)))
    check(len(paths) == len(names), "%s: one path per series" % chart)
    for s in hot["series"]:
        a = got.get(s["name"])
        if not a:
            continue
        want = sum(1 for pt in s["points"] if pt[key] is not None and pt[key] > 0)
        check(int(a["data-points"]) == want, "%s %s: %s points, JSON %d" % (chart, s["name"], a["data-points"], want))
        check(len(re.findall(r"[ML]", a["d"])) == want, "%s %s: path has %d points" % (chart, s["name"], len(re.findall(r"[ML]", a["d"]))))
        check(want == len(hot["sizes"]), "%s %s: %d of %d sizes measured" % (chart, s["name"], want, len(hot["sizes"])))
    hl = [a for a in paths if "hl" in a["class"].split()]
    check([a["data-series"] for a in hl] == ["libc"], "%s: libc highlighted" % chart)

cells = in_chart("chart-cliff", "rect", "cell")
want = sum(1 for v in data["cliff"]["variants"] for c in v["cells"] if c["slowdown"] is not None)
check(len(cells) == want and want > 0, "cliff cells %d, JSON %d" % (len(cells), want))

def rows(tid):
    t = None
    out = []
    for (tag, a, anc), o in zip(p.elems, owner):
        if tag == "table":
            t = a.get("id")
        if tag == "tr" and t == tid and a.get("data-row") is not None:
            out.append(a["data-row"])
    return out
check(len(rows("t-segments")) == len(data["segments"]), "segments rows")
check(len(rows("t-crossovers")) == len(data["crossovers"]), "crossover rows")
check(rows("t-policy") == ["active", "recommended"], "policy rows %s" % rows("t-policy"))
check(len(rows("t-thresholds")) == len(data["policy"]["thresholds"]), "threshold rows")
check(len(rows("t-cliff")) == 2 * len(data["cliff"]["sizes"]), "cliff rows")
check(rows("t-probes") == [k["name"] for k in data["probes"]["kernels"]], "probe rows")
# The probes reach past rep movsb's window (1..63) into the one where a
# block loop meets its own stores by page offset (below 512).
pd = data["probes"]["distances"]
check(any(d < 64 for d in pd) and any(64 <= d < 512 for d in pd), "probe distances %s" % pd)
check(all(len(ps["ns"]) == len(pd) for k in data["probes"]["kernels"] for ps in k["per_size"]),
      "a probe time per distance")
# There, a multiple of 64 as the control is: the aliasing alone, not also a
# destination off the source's line alignment.
check(all(d % 64 == 0 for d in pd if d >= 64), "probe distances past 63 off a line: %s" % pd)
cap = re.search(r'<table[^>]*id="t-probes"[^>]*>\s*<caption>([^<]*)</caption>', text)
want = ", ".join(str(d) for d in pd[:-1]) + " or %d" % pd[-1]
check(cap is not None and ("= %s (mod 4096)" % want) in cap.group(1),
      "probe caption names every distance (%s): %s" % (want, cap and cap.group(1)))
w = data["workloads"]
check(rows("t-workloads") == [q["name"] for q in w["policies"]] + ["fastest-ns"], "workload rows %s" % rows("t-workloads"))
check(len(w["workloads"]) == 3, "three workloads: %s" % [x["name"] for x in w["workloads"]])
# --quick maps at most 256 MiB for a workload: cold-read walks 4x the LLC
# (64 MiB, flushed, past 2 GiB), so it runs only where that is small.
c = data["machine"]["caches"]
llc = c.get("l3") or c.get("l2") or 32 << 20
region = (4 * llc if 4 * llc <= 2 << 30 else 64 << 20) // 4096 * 4096
for x in w["workloads"]:
    unrun = all(q["ns_median"] is None for q in x["results"])
    want = x["name"] == "cold-read" and region > 256 << 20
    check(unrun == want, "%s: %s (region %d)" % (x["name"], "not run" if unrun else "run", region))
    check((x["best"] is None) == unrun, "%s: best %s" % (x["name"], x["best"]))
    check(("%s: not run with --quick" % x["name"] in w.get("reason", "")) == unrun,
          "%s: reason %r" % (x["name"], w.get("reason")))
check(rows("t-classes") == [r["name"] for r in data["classes"]["rows"]] and data["classes"]["rows"], "class rows")
check(rows("t-dists") == [r["name"] for r in data["distributions"]["rows"]], "distribution rows")
# Both regimes, the same distributions in each, every claim with its condition.
dr, du = data["distributions_repeated"], data["distributions"]
check(rows("t-dists-repeated") == [r["name"] for r in dr["rows"]] and
      [r["name"] for r in dr["rows"]] == [r["name"] for r in du["rows"]] and du["rows"],
      "repeated-regime rows %s" % rows("t-dists-repeated"))
conds = {"unlearnable": "sizes in an order no predictor learns (65536 copies)",
         "repeated": "a repeated sequence of 8192 copies, each variant at its steady state"}
for name, a in (("distributions", du), ("distributions_repeated", dr)):
    check(conds.get(a["regime"]) == a["condition"] and str(a["sequence"]) in a["condition"],
          "%s: regime %r, condition %r" % (name, a["regime"], a["condition"]))
    check(a["condition"] in text, "%s: the page states %r" % (name, a["condition"]))
check(du["regime"] == "unlearnable" and dr["regime"] == "repeated", "regimes")
check(data["classes"]["regime"] == "unlearnable" and
      data["classes"]["condition"].startswith("sizes in an order no predictor learns"),
      "classes: %r" % data["classes"]["condition"])
against = [f for f in data["findings"] if f.startswith("Against libc's memcpy")]
check(against and all(" (sizes in an order no predictor learns (" in f or " (a repeated sequence of 8192 copies, each variant at its steady state)" in f
                      for f in against), "every comparison with libc states its condition: %s" % against)
check(len(data["findings"]) >= 3, "findings: %s" % data["findings"])
check(text.count("<li>") >= len(data["findings"]), "findings listed")
for k in ("cpu", "features", "caches"):
    check(k in data["machine"], "machine.%s" % k)
for label in ("CPU", "Features", "Caches", "Kernel", "Compiler", "ucopy", "Date", "Budget"):
    check("<dt>%s</dt>" % label in text, "header %s" % label)
# The machine table says where the distributions came from and how that
# directory was found, as the JSON does: here, unless UCOPY_DATA_DIR says
# otherwise, the source tree's.
dd = data.get("distribution_dir")
check(dd and dd["from"] in ("--dist-dir", "UCOPY_DATA_DIR", "source tree", "installed") and
      os.path.isfile(os.path.join(dd["path"], "Memcpy_1.csv")), "distribution_dir %r" % dd)
check(not dd or os.environ.get("UCOPY_DATA_DIR") or dd["from"] == "source tree",
      "found in %r, not the source tree" % (dd and dd["from"]))
check(dd and "<dt>Distributions</dt><dd>%d files in %s (%s)</dd>" % (len(du["rows"]), dd["path"], dd["from"]) in text,
      "the machine table's distributions: %s" % re.findall(r"<dt>Distributions</dt><dd>[^<]*</dd>", text))
# The layout's version comes first (docs/report.md, "The JSON's schema").
check(list(data)[:1] == ["schema"] and data["schema"] == 5, "schema: %r" % list(data.items())[:1])
# Schema 4: every distribution row, in both regimes, timed ucopy against
# each vector kernel this CPU runs alone (REPORT_DIST_KERNELS).
vec = [k for k in ("sse2", "avx2", "avx512", "neon") if k in names]
for key in ("distributions", "distributions_repeated"):
    for row in data[key]["rows"]:
        al = row.get("alone") or {}
        check(al.get("ns_ucopy", 0) > 0 and [k["name"] for k in al.get("kernels", [])] == vec and
              all(k["ns"] > 0 for k in al["kernels"]), "%s %s alone: %r" % (key, row["name"], al))
# auto's row, as ucopy features says it, in the JSON and on the page.
row = data["policy"].get("auto_row", "")
esc = lambda t: (t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                 .replace('"', "&quot;").replace("'", "&#39;"))
check(row and "<dt>auto&#39;s row</dt><dd>%s</dd>" % esc(row) in text, "auto's row %r" % row)
if fails:
    print("\n".join(fails[:12]))
    sys.exit(1)
PY
expect "report: the page parses and matches its JSON" python3 "$dir/check.py" "$dir/r.html" "$dir/r.json"

# Every sweep point has its paired interval against the fastest kernel
# (exactly 1 for that kernel; the median of paired ratios of a kernel that
# ties it may read just under 1), and `ucopy derive` reads the report back.
expect "report: vs_best on every sweep point, exactly 1 for one kernel" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for part in d["sweep"]:
    for i, n in enumerate(part["sizes"]):
        pts = [s["points"][i] for s in part["series"] if s["name"] not in ("libc", "ucopy")]
        timed = [p for p in pts if p["ns_median"] is not None]
        assert all(0 < p["vs_best"]["lo"] <= p["vs_best"]["est"] <= p["vs_best"]["hi"]
                   for p in timed), (part["cache"], n)
        assert any(abs(p["vs_best"]["est"] - 1) < 1e-9 for p in timed), (part["cache"], n)
' "$dir/r.json"
# The commit: where the command was built in a checkout of its own (CI
# builds a clone), git describe's answer, which holds HEAD's hash (a test
# may have touched the tree since, so "-dirty" is not compared); else
# "unknown".
head=
[ -e .git ] && command -v git >/dev/null && head=$(git rev-parse --short=12 HEAD 2>/dev/null)
expect "report: the JSON and the page name the commit the command was built from (${head:-unknown})" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c, head = d["ucopy_commit"], sys.argv[3]
assert (head in c) if head else c == "unknown", (c, head)
assert ("commit " + c) in open(sys.argv[2]).read()
' "$dir/r.json" "$dir/r.html" "$head"
run derive "$dir/r.json"
expect "report: ucopy derive reads the report back" sh -c "[ $rc -eq 0 ] && grep -q '^derived   ' '$out'"

# One run for --dist-dir and --assume-features.  A removal of a feature the
# CPU lacks changes nothing, and is taken as compare takes it ('-fsrm' on a
# CPU without FSRM, '-sve' on one without SVE).
if [ "$(ucopy_arch)" = aarch64 ]; then
	add=asimd del=sve
else
	add=erms del=fsrm
fi
run report --quick --seconds 0.5 -q -o "$dir/d.html" --json "$dir/d.json" \
	--dist-dir data/distributions --assume-features "$add,-$del"
expect "report --dist-dir: the machine table names the directory and how it was found" \
	sh -c "[ $rc -eq 0 ] && grep -q '<dt>Distributions</dt><dd>[0-9]* files in data/distributions (--dist-dir)</dd>' '$dir/d.html'"
expect "report --assume-features: the JSON records the list and the set it gave" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
a = d["workloads"]["assumed_features"]
add, drop = sys.argv[2], sys.argv[3]
assert a["list"] == add + ",-" + drop, a
assert set(a["features"]) == (set(d["machine"]["features"]) | {add}) - {drop}, a
' "$dir/d.json" "$add" "$del"
expect "report --assume-features: the page names the assumption, the findings too" sh -c "
	grep -q '<p class=\"note\" id=\"assumed-features\">Not this CPU&#39;s features: the policies and auto were resolved assuming --assume-features $add,-$del, which gives [a-z0-9_ ]*$add' '$dir/d.html' &&
	grep -q '<li>On the tcp-sendmsg workload (the policies resolved assuming $add,-$del)' '$dir/d.html'"
expect "report: without --assume-features, nothing says one was assumed" sh -c "
	! grep -q 'assumed-features' '$dir/r.html' &&
	python3 -c 'import json,sys; assert \"assumed_features\" not in json.load(open(sys.argv[1]))[\"workloads\"]' '$dir/r.json'"
usage_error "report: a bad --assume-features names the token" \
	"bad --assume-features 'frob': unknown feature 'frob'" report --assume-features frob
usage_error "report: --assume-features without a list" "option '--assume-features' needs a value" \
	report --assume-features

usage_error "report: bad budget" "bad budget '0'" report --seconds 0
usage_error "report: budget not a number" "bad budget 'soon'" report --seconds soon
usage_error "report: unknown option" "unknown option '--pdf'" report --pdf
usage_error "report: stray argument" "unexpected argument 'extra'" report extra
usage_error "report: -o without a value" "option '-o' needs a value" report -o
usage_error "report: missing --dist-dir" "bad --dist-dir '/nonexistent'" report --dist-dir /nonexistent
usage_error "report: -q and -v" "contradict" report -q -v
usage_error "report: the page and the JSON both on stdout" "cannot both go to stdout" \
	report -o - --json - --quick
run report --quick --seconds 0.5 -q -o "$dir/j.html" --json -
expect "report --json -: the JSON on stdout, the page in its file" sh -c "[ $rc -eq 0 ] &&
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$out' && grep -q '<html' '$dir/j.html'"
usage_error "report: --json onto the page" "bad --json path" report -o "$dir/x.html" --json "$dir/x.html"
usage_error "report: unwritable output" "cannot write '/nonexistent/r.html'" report -o /nonexistent/r.html
