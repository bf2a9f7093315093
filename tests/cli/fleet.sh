# CLI test: `ucopy fleet` puts reports of many machines on one page: the
# corpus, bad input of every kind, an emulated report, another
# architecture, sentences on crafted reports whose answer is known, and a
# page of 20 machines rendered in headless Chromium.
. tests/cli/lib.sh

dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out" "$err"' EXIT
z4=data/machines/amd-25-17/report-1.json.gz
z5=data/machines/amd-26-2/report-6.json.gz

# The corpus: every machine named, every section there, the JSON valid.
run fleet -o "$dir/corpus.html" --json - data/machines/*/report-*.json.gz
expect "fleet: the corpus" sh -c "[ $rc -eq 0 ] && [ -s '$dir/corpus.html' ]"
expect "fleet: --json - is JSON" json_ok
expect "fleet: every section" sh -c "for s in machines differs winners vs-libc policies regret; do grep -q \"<h2 id=\\\"\$s\\\"\" '$dir/corpus.html' || exit 1; done"
expect "fleet: every machine named" sh -c "grep -q 'AMD EPYC' '$dir/corpus.html' && grep -q 'Oxide Virtual Turin-like Processor' '$dir/corpus.html'"
expect "fleet: no script, nothing from the network" sh -c "! grep -qiE '<script|src=\"http|href=\"http' '$dir/corpus.html'"
python3 - "$out" <<'EOF' >"$dir/corpus.check" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x for x in d["machines"]}
assert set(m) == {"AMD EPYC", "Oxide Virtual Turin-like Processor"}, m.keys()
assert len(m["AMD EPYC"]["reports"]) == 2 and len(m["Oxide Virtual Turin-like Processor"]["reports"]) == 6
for x in m.values():
    assert x["compared"] and x["commit"] is None and x["segments"] and x["workloads"]
    assert sum(r["shown"] for r in x["reports"]) == 1
assert d["skipped"] == [] and d["differences"]
EOF
expect "fleet: the JSON has both machines and their reports" sh -c "[ ! -s '$dir/corpus.check' ]"
[ -s "$dir/corpus.check" ] && sed 's/^/  /' "$dir/corpus.check"

# One report: one column.
run fleet -q -o "$dir/one.html" "$z4"
expect "fleet: one report" sh -c "[ $rc -eq 0 ] && [ \$(grep -o 'data-machine=\"' '$dir/one.html' | wc -l) -ge 1 ] && grep -q 'need two' '$dir/one.html'"

# Bad input: one line naming the file and the reason, exit 2, no page.
printf 'hello' >"$dir/text.json"
printf '{"a": 1}' >"$dir/other.json"
head -c 20000 "$z4" >"$dir/cut.json.gz"
python3 - "$z4" "$dir" <<'EOF'
import gzip, json, sys
raw = open(sys.argv[1], "rb").read()
b = bytearray(raw)
for i in range(len(b) // 2, len(b) // 2 + 64):
    b[i] ^= 0x5a
open(sys.argv[2] + "/corrupt.json.gz", "wb").write(bytes(b))
r = json.load(gzip.open(sys.argv[1]))
r["schema"] = 99
json.dump(r, open(sys.argv[2] + "/schema99.json", "w"))
EOF
mkdir "$dir/adir"
page="$dir/bad.html"
usage_error "fleet: not JSON" "text.json: not JSON" fleet -o "$page" "$z4" "$dir/text.json"
usage_error "fleet: JSON that is not a report" "other.json: no machine.cpu .*not a ucopy report" fleet -o "$page" "$dir/other.json"
usage_error "fleet: a truncated gzip file" "cut.json.gz: not a whole gzip file" fleet -o "$page" "$dir/cut.json.gz"
usage_error "fleet: a corrupt gzip file" "corrupt.json.gz: not a whole gzip file (gzip -dc failed: truncated, corrupt" fleet -o "$page" "$dir/corrupt.json.gz"
usage_error "fleet: an unknown schema" "schema99.json: schema 99; this ucopy reads schemas 1-5" fleet -o "$page" "$dir/schema99.json"
usage_error "fleet: a directory" "adir: a directory, not a report" fleet -o "$page" "$dir/adir"
usage_error "fleet: a missing file" "nothing.json: cannot open: No such file" fleet -o "$page" "$dir/nothing.json"
usage_error "fleet: no file at all" "no report given" fleet -o "$page"
usage_error "fleet: the page over a report" "it is the report file" fleet -o "$dir/text.json" "$dir/text.json"
expect "fleet: nothing written on bad input" test ! -e "$page"

# --skip-bad: named on stderr and on the page, the rest shown.
run fleet -o "$page" --json "$dir/bad.json" --skip-bad "$dir/text.json" "$z4" "$dir/adir"
expect "fleet: --skip-bad goes on" sh -c "[ $rc -eq 0 ] && grep -q 'text.json: not JSON' '$err' && grep -q 'adir: a directory' '$err'"
expect "fleet: --skip-bad names them on the page" sh -c "grep -q 'id=\"left-out\"' '$page' && grep -q 'text.json' '$page' && grep -q 'adir' '$page'"
expect "fleet: --skip-bad names them in the JSON" python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['skipped']) == 2" "$dir/bad.json"
run fleet -o "$page.2" --skip-bad "$dir/text.json" "$dir/adir"
expect "fleet: --skip-bad with nothing left" sh -c "[ $rc -eq 2 ] && [ ! -e '$page.2' ] && grep -q 'no report left' '$err'"

# Variants: a copy of the same machine and date; an emulated report;
# another architecture; and two crafted machines whose differences are known.
python3 - "$z4" "$z5" "$dir" <<'EOF'
import gzip, json, shutil, sys
z4, z5, d = sys.argv[1:]
shutil.copy(z4, d + "/same.json.gz")
r = json.load(gzip.open(z4))
r["machine"]["emulator"] = "/usr/bin/qemu-x86_64"
r["machine"]["cpu"]["brand"] = "Emulated EPYC"
json.dump(r, open(d + "/emulated.json", "w"))
r = json.load(gzip.open(z4))
r["machine"]["cpu"].update(arch="aarch64", vendor="ARM", family=0, model=3331, brand="Test Cortex-A53")
r["machine"]["features"] = ["neon"]
for g in r["segments"]:
    g["kernel"] = {"avx2": "neon", "avx512": "ldp"}.get(g["kernel"], "ldtr")
json.dump(r, open(d + "/arm.json", "w"))
# A and B: the same report but for one hot band's kernel, one policy
# behind on one workload, and one size class lost to libc.
a = json.load(gzip.open(z4))
a["machine"]["cpu"]["brand"] = "Crafted A"
b = json.loads(json.dumps(a))
b["machine"]["cpu"]["brand"] = "Crafted B"
b["machine"]["cpu"]["model"] = 99
seg = [g for g in b["segments"] if g["cache"] == "hot" and g["kernel"] == "avx512"][0]
seg["kernel"] = "movsb"
band = (seg["from"], seg["to"])
for w in b["workloads"]["workloads"]:
    if w["name"] == "tcp-sendmsg":
        for x in w["results"]:
            if x["policy"] == "linux-6.4-rc1":
                x["vs_best"] = {"est": 1.43, "lo": 1.40, "hi": 1.46}
for x in a["workloads"]["workloads"]:
    for y in x["results"]:
        if y["vs_best"]["lo"] is not None and y["vs_best"]["lo"] > 1.05:
            y["vs_best"] = {"est": 1.01, "lo": 0.99, "hi": 1.03}
    for y in b["workloads"]["workloads"][a["workloads"]["workloads"].index(x)]["results"]:
        if y["policy"] != "linux-6.4-rc1" or x["name"] != "tcp-sendmsg":
            y["vs_best"] = {"est": 1.01, "lo": 0.99, "hi": 1.03}
for r in (a, b):
    for t in ("classes", "distributions", "distributions_repeated"):
        for row in r[t]["rows"]:
            row["ratio"] = {"est": 0.9, "lo": 0.85, "hi": 0.95}
    for v in r["cliff"]["variants"]:
        for p in v["per_size"]:
            p["worst_slowdown"] = 1.1
b["classes"]["rows"][0]["ratio"] = {"est": 1.2, "lo": 1.1, "hi": 1.3}
json.dump(a, open(d + "/a.json", "w"))
json.dump(b, open(d + "/b.json", "w"))
open(d + "/band", "w").write("%d %d %s\n" % (band[0], band[1], b["classes"]["rows"][0]["name"]))
EOF

run fleet -o "$dir/same.html" --json - "$z4" "$dir/same.json.gz"
expect "fleet: the same machine and date twice: both kept, labelled" sh -c "[ $rc -eq 0 ] && grep -q 'same machine and date as' '$dir/same.html' && grep -q 'same.json.gz' '$dir/same.html' && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d[\"machines\"]) == 1 and len(d[\"machines\"][0][\"reports\"]) == 2 and all(r[\"same_date_as\"] for r in d[\"machines\"][0][\"reports\"])' '$out'"

run fleet -o "$dir/emu.html" --json - "$z4" "$z5" "$dir/emulated.json"
expect "fleet: an emulated report is shown and marked" sh -c "[ $rc -eq 0 ] && grep -q 'Emulated EPYC' '$dir/emu.html' && grep -q 'qemu-x86_64' '$dir/emu.html' && grep -q 'id=\"left-out\"' '$dir/emu.html'"
python3 - "$out" <<'EOF' >"$dir/emu.check" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
e = [m for m in d["machines"] if m["name"] == "Emulated EPYC"][0]
assert not e["compared"] and e["emulator"] == "/usr/bin/qemu-x86_64"
assert not e["regret"]["judged"]
# Named in the one sentence that says it is left out, in no comparison.
said = [s for s in d["differences"] if "Emulated EPYC" in s]
assert len(said) == 1 and "emulator" in said[0], said
EOF
expect "fleet: an emulated report is left out of every comparison" sh -c "[ ! -s '$dir/emu.check' ]"
[ -s "$dir/emu.check" ] && sed 's/^/  /' "$dir/emu.check"
expect "fleet: an emulated report has no column in the timing tables" sh -c "! sed -n '/id=\"t-classes\"/,/<\/table>/p' '$dir/emu.html' | grep -q 'Emulated EPYC'"

# Another architecture than the build's: the crafted aarch64 report on an
# x86-64 build; the corpus's own x86-64 reports under make check-aarch64.
if [ "$(ucopy_arch)" = x86_64 ]; then
	run fleet -o "$dir/arm.html" --json - "$z4" "$dir/arm.json"
	expect "fleet: another architecture is shown by its kernels' names" sh -c "[ $rc -eq 0 ] && grep -q 'Test Cortex-A53' '$dir/arm.html' && grep -q 'data-kernel=\"ldp\"' '$dir/arm.html' && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); m=[x for x in d[\"machines\"] if x[\"cpu\"][\"arch\"] == \"aarch64\"][0]; assert \"measured on aarch64\" in m[\"regret\"][\"why_not\"]' '$out'"
else
	run fleet -o "$dir/arm.html" --json - "$z4"
	expect "fleet: another architecture is shown by its kernels' names" sh -c "[ $rc -eq 0 ] && grep -q 'data-kernel=\"avx2\"' '$dir/arm.html' && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert \"measured on x86_64\" in d[\"machines\"][0][\"regret\"][\"why_not\"]' '$out'"
fi

# The crafted pair: exactly the one band, the one policy, the one class.
run fleet -o "$dir/ab.html" --json - "$dir/a.json" "$dir/b.json"
read lo hi class <"$dir/band"
python3 - "$out" "$lo" "$hi" "$class" <<'EOF' >"$dir/ab.check" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
lo, hi, cls = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def iec(n):
    for u, s in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if n >= u and n % u == 0:
            return "%d %s" % (n // u, s)
    return "%d B" % n
bands = [s for s in d["differences"] if s.startswith(("Hot", "Cold"))]
want = "Hot, %s to %s: avx512 fastest on Crafted A; movsb fastest on Crafted B." % (iec(lo), iec(hi))
assert bands == [want], (bands, want)
pol = [s for s in d["differences"] if s.startswith("On ") and "behind" in s]
assert len(pol) == 1 and pol[0].startswith("On tcp-sendmsg, linux-6.4-rc1 is 5% or more behind the fastest policy on Crafted B (1.43") and pol[0].endswith("not on Crafted A."), pol
lost = [s for s in d["differences"] if "loses to libc" in s]
assert len(lost) == 1 and lost[0].startswith("On Crafted B,") and "sizes %s (1.200" % cls in lost[0], lost
EOF
expect "fleet: what differs, on crafted reports" sh -c "[ $rc -eq 0 ] && [ ! -s '$dir/ab.check' ]"
[ -s "$dir/ab.check" ] && sed 's/^/  /' "$dir/ab.check"

# An assumed feature set: a copy of a real report as --assume-features
# erms,-fsrm writes it, one policy behind on tcp-sendmsg there alone.  Its
# own column and the assumed one: the assumed one labelled, in the machines
# table and the historic policies, in no other section, and the only machine
# of a policy sentence.
python3 - "$z5" "$dir" <<'EOF'
import gzip, json, sys
r = json.load(gzip.open(sys.argv[1]))
r["schema"] = 5
r["ucopy_commit"] = "0123456789ab-dirty"
feats = [f for f in r["machine"]["features"] if f != "fsrm"]
r["workloads"]["assumed_features"] = {"list": "erms,-fsrm", "features": feats}
for w in r["workloads"]["workloads"]:
    for x in w["results"]:
        if w["name"] == "tcp-sendmsg" and x["policy"] == "linux-6.4-rc1":
            x["vs_best"] = {"est": 1.43, "lo": 1.40, "hi": 1.46}
json.dump(r, open(sys.argv[2] + "/assumed.json", "w"))
r["machine"]["cpu"]["model"] = 99
json.dump(r, open(sys.argv[2] + "/assumed-other.json", "w"))
EOF
run fleet -o "$dir/assumed.html" --json - "$z5" "$dir/assumed.json"
python3 - "$out" "$dir/assumed.html" <<'EOF' >"$dir/assumed.check" 2>&1
import json, re, sys
d = json.load(open(sys.argv[1]))
page = open(sys.argv[2]).read()
own, assumed = "Oxide Virtual Turin-like Processor", "Oxide Virtual Turin-like Processor, assuming erms,-fsrm"
m = {x["name"]: x for x in d["machines"]}
assert set(m) == {own, assumed}, m.keys()
assert m[own]["assumed_features"] is None, m[own]["assumed_features"]
# The commit: schema 5's, and "not recorded" for the schema 4 original.
assert m[assumed]["commit"] == "0123456789ab-dirty" and m[own]["commit"] is None, m[assumed]["commit"]
assert "commit 0123456789ab-dirty" in page and "commit not recorded (before schema 5)" in page
assert m[assumed]["assumed_features"]["list"] == "erms,-fsrm", m[assumed]
assert "fsrm" not in m[assumed]["assumed_features"]["features"]
def table(tid):
    t = re.search(r'<table class="data fleet" id="%s">.*?</table>' % tid, page, re.S)
    return t.group(0) if t else ""
def svg(sid):
    t = re.search(r'<svg[^>]* id="%s".*?</svg>' % sid, page, re.S)
    return t.group(0) if t else ""
heads = lambda t: re.findall(r'<th scope="col" data-machine="\d+">([^<]*)</th>', t)
for tid in ("t-machines", "t-work-tcp-sendmsg", "t-work-aio-poll", "t-work-cold-read"):
    assert heads(table(tid)) == [own, assumed], (tid, heads(table(tid)))
for tid in ("t-classes", "t-dists", "t-cliff", "t-regret"):
    assert heads(table(tid)) == [own], (tid, heads(table(tid)))
assert svg("chart-winners") and "assuming" not in svg("chart-winners")
assert re.search(r'<tr data-row="assumed">.*?<td>none: its own</td><td>erms,-fsrm<span class="more">gives [a-z0-9_ ]*; for the historic policies alone</span></td>', page), "no assumed row"
assert "does not record" not in page and "not recorded" not in page.replace("commit not recorded", "")
pol = [s for s in d["differences"] if s.startswith("On tcp-sendmsg, linux-6.4-rc1")]
want = "On tcp-sendmsg, linux-6.4-rc1 is 5%% or more behind the fastest policy on %s (1.43" % assumed
assert len(pol) == 1 and pol[0].startswith(want) and pol[0].endswith("not on %s." % own), pol
assert not [s for s in d["differences"] if "assuming" in s and not s.startswith("On ")], d["differences"]
assert "Only one machine to compare" in " ".join(d["differences"])
EOF
expect "fleet: an assumed feature set is its own column, of the policies alone" sh -c "[ $rc -eq 0 ] && [ ! -s '$dir/assumed.check' ]"
[ -s "$dir/assumed.check" ] && sed 's/^/  /' "$dir/assumed.check"
# Another CPU of the same brand, assuming the same: the CPUs told apart
# first, so that no column's name could be another machine's.
run fleet -o "$dir/assumed2.html" --json - "$z5" "$dir/assumed.json" "$dir/assumed-other.json"
expect "fleet: two CPUs of one brand are told apart before their assumption" python3 -c '
import json, sys
names = sorted(m["name"] for m in json.load(open(sys.argv[1]))["machines"])
b = "Oxide Virtual Turin-like Processor"
assert names == [b + " (x86_64 26/2/1)", b + " (x86_64 26/2/1), assuming erms,-fsrm",
                 b + " (x86_64 26/99/1), assuming erms,-fsrm"], names
' "$out"

# 20 machines: two real reports and 18 variants of them (other brands,
# models and dates, every time scaled), rendered at 1280 px.
python3 - "$z4" "$z5" "$dir/many" <<'EOF'
import gzip, json, os, sys
os.mkdir(sys.argv[3])
def scale(v, k):
    if isinstance(v, dict):
        return {a: (b * k if a.startswith("ns") and isinstance(b, (int, float)) else scale(b, k))
                for a, b in v.items()}
    if isinstance(v, list):
        return [scale(x, k) for x in v]
    return v
for i in range(20):
    r = json.load(gzip.open(sys.argv[1 + i % 2]))
    if i >= 2:
        r = scale(r, 1 + i / 20)
        r["machine"]["cpu"]["brand"] = "Generated CPU %02d with a rather long brand string" % i
        r["machine"]["cpu"]["model"] = 100 + i
        r["date"] = "2027-01-%02d 10:00 UTC" % i
    with gzip.open("%s/r%02d.json.gz" % (sys.argv[3], i), "wt") as f:
        json.dump(r, f)
EOF
run fleet -o "$dir/many.html" --json - "$dir"/many/r*.json.gz
expect "fleet: 20 machines" sh -c "[ $rc -eq 0 ] && python3 -c 'import json,sys; assert len(json.load(open(sys.argv[1]))[\"machines\"]) == 20' '$out'"
expect "fleet: 20 machines, each a column of every machine table" sh -c "[ \$(sed -n '/id=\"t-machines\"/,/<\/thead>/p' '$dir/many.html' | grep -o '<th scope=\"col\"' | wc -l) -eq 20 ] && grep -q '<div class=\"scroll\"><table class=\"data fleet\" id=\"t-machines\"' '$dir/many.html'"

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	echo "SKIP fleet: renders in headless chromium: chromium is not installed"
	exit 0
fi
# The page as Chromium lays it out, with a script added to this copy only
# (the page has none) that writes the document's width where --dump-dom
# shows it: the 20 columns scroll inside their tables, not the page.
for p in corpus many; do
	sed 's|</body>|<script>document.body.setAttribute("data-width", document.documentElement.scrollWidth)</script></body>|' \
		"$dir/$p.html" >"$dir/$p-measured.html"
	timeout 60 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$dir/profile" --window-size=1280,2000 --dump-dom \
		"file://$dir/$p-measured.html" >"$dir/$p.dom" 2>"$dir/$p.log"
	width=$(sed -n 's/.*<body data-width="\([0-9]*\)".*/\1/p' "$dir/$p.dom")
	expect "fleet: $p page laid out at 1280 px within 1280 px (got ${width:-none})" sh -c "[ -n '$width' ] && [ '$width' -le 1280 ]"
	expect "fleet: $p page rendered with every section" sh -c "for s in machines differs winners vs-libc policies regret; do grep -q \"id=\\\"\$s\\\"\" '$dir/$p.dom' || exit 1; done"
	timeout 60 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$dir/profile" --screenshot="$dir/$p.png" --window-size=1280,2000 \
		"file://$dir/$p.html" >>"$dir/$p.log" 2>&1
	expect "fleet: $p page screenshot at 1280 px" sh -c "[ \"\$(head -c 8 '$dir/$p.png' | od -An -tx1 | tr -d ' \n')\" = 89504e470d0a1a0a ] && [ \$(wc -c <'$dir/$p.png') -gt 20000 ]"
done
expect "fleet: every machine named in the rendered corpus page" sh -c "grep -q 'AMD EPYC' '$dir/corpus.dom' && grep -q 'Oxide Virtual Turin-like Processor' '$dir/corpus.dom'"
missing=0
for i in $(seq 2 19); do
	grep -q "Generated CPU $(printf %02d "$i")" "$dir/many.dom" || missing=$((missing + 1))
done
expect "fleet: every machine named in the rendered 20-machine page" sh -c "[ $missing -eq 0 ] && grep -q 'AMD EPYC' '$dir/many.dom' && grep -q 'Oxide Virtual' '$dir/many.dom'"
