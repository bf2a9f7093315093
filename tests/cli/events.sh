# CLI tests: --event, extra perf events for bench and compare.  Whether the
# machine counts the event or refuses it ("not supported" in a VM), the
# output must name it; bad names are usage errors.
. tests/cli/lib.sh

run bench --event raw:0x11 --kernels libc --sizes 64 --seconds 0.1
expect "bench --event: the table has a column for the event" \
	grep -Eq '^variant .* insns +raw:0x11$' "$out"
# Counted: a number in its column; refused: listed with its reason.
expect "bench --event: a count, or unavailable with a reason" sh -c '
	grep -Eq "^# counters unavailable: .*raw:0x11 \([a-z]" "$1" ||
	grep -Eq "^libc .* [0-9.]+[kMG]?$" "$1"' sh "$out"

run bench --event raw:0x11 --event raw:17 --kernels libc --sizes 64 --seconds 0.1 --format json
expect "bench --event: JSON names the events in config and results" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["config"]["events"]
assert [e["event"] for e in ev] == ["raw:0x11", "raw:17"], ev
assert ev[0]["type"] == 4 and ev[0]["config"] == "0x11" and ev[1]["config"] == "0x11", ev
for e in ev:
    assert e["status"], e
for r in d["results"]:
    assert sorted(r["events"]) == ["raw:0x11", "raw:17"], r["events"]
    for e in ev:
        v = r["events"][e["event"]]
        assert (v is None) == (e["status"] != "ok"), (v, e)
' "$out"

run bench --event raw:0x11 --kernels libc --sizes 64,128 --seconds 0.1 --format csv
expect "bench --event: the CSV ends with a column named by the event" \
	sh -c 'head -1 "$1" | grep -q ",replay,slow_rounds,scrub_every,raw:0x11$" && [ "$(wc -l <"$1")" -eq 3 ]' sh "$out"

run compare libc libc --sizes 64 --seconds 0.1 --event raw:0x11 -q
expect "compare --event: a line for the event in each block" \
	sh -c '[ "$(grep -Ec "^ *(<[a-z ()_]+>|[0-9,]+) +raw:0x11( |$)" "$1")" -eq 2 ]' sh "$out"
run compare libc libc --sizes 64 --seconds 0.1 --event raw:0x11 --json -q
expect "compare --event: JSON has the event beside cycles" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sides = [v for k, v in d.items() if isinstance(v, dict) and "cycles" in v]
assert len(sides) == 2, list(d)
for s in sides:
    assert list(s["events"]) == ["raw:0x11"], s["events"]
    assert (s["events"]["raw:0x11"] is None) == ("raw:0x11" in s["counters_unavailable"]), s
' "$out"

usage_error "bench --event PMU/ names no event" "bad event 'msr/': a PMU without an event name" \
	bench --event msr/ --sizes 8 --seconds 0.05
usage_error "bench --event nosuch is a usage error" "unknown event 'nosuch'" \
	bench --event nosuch --kernels libc --sizes 64 --seconds 0.1
usage_error "bench --event raw:0xZZ is a usage error" "bad raw event 'raw:0xZZ' (expected raw:0xHEX" \
	bench --event raw:0xZZ --kernels libc --sizes 64 --seconds 0.1
usage_error "bench: a fifth --event is a usage error" "too many events at 'raw:5' (expected at most 4)" \
	bench --event raw:1 --event raw:2 --event raw:3 --event raw:4 --event raw:5 --kernels libc
usage_error "bench --event ../x is a usage error" "bad event '../x'" \
	bench --event ../x --kernels libc
usage_error "compare --event nosuch is a usage error" "unknown event 'nosuch'" \
	compare libc libc --sizes 64 --event nosuch

run help bench
expect "help bench describes --event" grep -q -- "--event EVENT .*count EVENT" "$out"
run help compare
expect "help compare describes --event" grep -q -- "--event EVENT .*count EVENT" "$out"

# The whole-program compare counts the events around each run.
run compare libc libc --runs 1 --event raw:0x11 -- true
expect "compare --event -- CMD: a line for the event under A and B" \
	sh -c '[ "$(grep -Ec "^  raw:0x11 +(median|<[a-z ()_]+>)" "$1")" -eq 2 ]' sh "$out"
usage_error "compare --event nosuch -- CMD is a usage error" "unknown event 'nosuch'" \
	compare libc libc --event nosuch -- true
