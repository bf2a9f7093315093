# `ucopy derive`: the corpus's reports give a policy, the same one every
# time; bad reports are named with the reason (exit 2) or skipped under
# --allow-missing.
. tests/cli/lib.sh
only_arch x86_64 "the corpus's reports are of x86-64 machines"

Z4=data/machines/amd-25-17 Z5=data/machines/amd-26-2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT

run derive $Z4/report-1.json.gz $Z4/report-2.json.gz
cp "$out" "$tmp/first"
expect "derive: Zen 4's reports derive a policy" grep -q '^derived   [0-9]' "$out"
run derive $Z4/report-1.json.gz $Z4/report-2.json.gz
expect "derive: the same reports, the same output byte for byte" cmp -s "$out" "$tmp/first"
run derive $Z4/report-2.json.gz $Z4/report-1.json.gz
same_policy() {
	[ "$(sed -n '/^derived/,$p' "$out")" = "$(sed -n '/^derived/,$p' "$tmp/first")" ]
}
expect "derive: the reports in the other order, the same policy and thresholds" same_policy
usage_error "derive: the same report twice is refused" \
	"report-1.json.gz: the same report as .*report-1.json.gz (its date and seed)" \
	derive $Z4/report-1.json.gz $Z4/report-1.json.gz
run derive --json $Z5/report-*.json.gz
expect "derive --json: one JSON object" json_ok
expect "derive --json: the default and the policy" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["cpu"]["family"] == 26 and len(d["reports"]) >= 2 and d["policy"] and d["default"]
assert all(t["limit"] > 0 for t in d["thresholds"]) and d["skipped"] == []' "$out"

# Bad reports, each made from a good one.
zcat $Z4/report-1.json.gz >"$tmp/good.json"
head -c 20000 $Z4/report-1.json.gz >"$tmp/cut.json.gz"
head -c 5000 "$tmp/good.json" >"$tmp/cut.json"
python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
d = json.load(open(t + "/good.json"))
d["schema"] = 9
json.dump(d, open(t + "/schema9.json", "w"))
d["schema"] = 2
d["machine"]["cpu"]["arch"] = "aarch64"
json.dump(d, open(t + "/arm.json", "w"))
d["machine"]["cpu"]["arch"] = "x86_64"
for name, key, value in (("family", "cpu", 1e300), ("l2", "caches", -5)):
    d["machine"][key][name] = value
    json.dump(d, open(t + "/bad-%s.json" % name, "w"))
    d = json.load(open(t + "/good.json"))
d["sweep"][0]["series"][3]["points"][2]["ns_median"] = -1
json.dump(d, open(t + "/bad-ns.json", "w"))
d = json.load(open(t + "/good.json"))
d["sweep"][0]["sizes"][1] = 2.5
json.dump(d, open(t + "/bad-size.json", "w"))
open(t + "/huge.json", "w").write(open(t + "/good.json").read().replace('"budget_seconds": 60', '"budget_seconds": 1e999', 1))
PY
printf 'not json\n' >"$tmp/text.json"
usage_error "derive: a truncated gzip file" "cut.json.gz: not a whole gzip file" derive "$tmp/cut.json.gz"
usage_error "derive: a truncated report" "cut.json: not JSON (line [0-9]*, column [0-9]*: .*): truncated" derive "$tmp/cut.json"
usage_error "derive: schema 9" "schema9.json: schema 9; this ucopy reads schemas 1-5" derive "$tmp/schema9.json"
usage_error "derive: another architecture" "arm.json: measured on aarch64; this ucopy is built for x86_64" derive "$tmp/arm.json"
usage_error "derive: not JSON" "text.json: not JSON" derive "$tmp/text.json"
usage_error "derive: a family of 1e300" "bad-family.json: machine.cpu's family, model or stepping is not a whole number" \
	derive "$tmp/bad-family.json"
usage_error "derive: a negative L2" "bad-l2.json: machine.caches holds a size that is not a whole number" \
	derive "$tmp/bad-l2.json"
usage_error "derive: a negative time" "bad-ns.json: sweep series .*: a point whose size, ns_median, vs_libc or vs_best is not a positive number" \
	derive "$tmp/bad-ns.json"
usage_error "derive: a fractional size" "bad-size.json: a sweep size is not a whole number of bytes" \
	derive "$tmp/bad-size.json"
usage_error "derive: a number no double holds" "huge.json: not JSON (line [0-9]*, column [0-9]*: a value was expected)" \
	derive "$tmp/huge.json"
usage_error "derive: two CPUs" "report-1.json.gz: measured on AuthenticAMD 26/2, not AuthenticAMD 25/17" derive $Z4/report-1.json.gz $Z5/report-1.json.gz
# Schema 4's distributions timed with each vector kernel alone: a damaged
# row is refused, never read as no kernel being faster.
for bad in zero empty unknown twice samename; do
	zcat $Z5/report-5.json.gz | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["schema"] == 4
rows = d["distributions_repeated"]["rows"]
ks = rows[1]["alone"]["kernels"]
bad = sys.argv[1]
if bad == "zero":
    ks[0]["ns"] = 0
elif bad == "empty":
    rows[1]["alone"]["kernels"] = []
elif bad == "unknown":
    ks[0]["name"] = "libc"
elif bad == "twice":
    ks.append(dict(ks[0]))
else:
    rows[1]["name"] = rows[0]["name"]
json.dump(d, sys.stdout)' "$bad" >"$tmp/alone-$bad.json"
	usage_error "derive: distributions timed alone, $bad" "alone-$bad.json: distributions_repeated: a row without a name or named twice, or whose kernels timed alone are none, not this ucopy's, named twice, or have a time that is not a positive number" \
		derive "$tmp/alone-$bad.json"
done
usage_error "derive: a missing file" "nosuch.json: cannot open" derive "$tmp/nosuch.json"
usage_error "derive: a directory" "a directory, not a report" derive "$tmp"
usage_error "derive: no report" "no report given" derive
usage_error "derive: an unknown option" "unknown option '--frob'" derive --frob

skipped_one() {
	[ "$rc" -eq 0 ] && grep -q "schema9.json: schema 9.*skipped" "$err" &&
		[ "$(sed -n '/^derived/p' "$out")" = "$(sed -n '/^derived/p' "$tmp/first")" ]
}
none_left() {
	[ "$rc" -eq 2 ] && grep -q "no report left" "$err"
}
run derive --allow-missing "$tmp/schema9.json" $Z4/report-1.json.gz $Z4/report-2.json.gz
expect "derive --allow-missing: the bad one named, the rest derived" skipped_one
run derive --allow-missing "$tmp/schema9.json" "$tmp/arm.json"
expect "derive --allow-missing: nothing left is an error" none_left
