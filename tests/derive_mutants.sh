#!/bin/bash
# tests/derive_mutants.sh: each rule of the derivation (programs/core/
# derive.c, calibration.h; docs/calibrate.md "How a policy is derived") and
# of the default row's (programs/core/default_row.c; "The default row")
# broken on purpose, one at a time, in a copy of the tree: test_derive, or
# for the default row tests/cli/default_row.sh, must fail on every one.
# `make check-derive` runs it (about 4 minutes: the copy rebuilds the test
# once per mutant).
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tree"
(cd "$src" && tar cf - Makefile include lib programs tests data/machines) | (cd "$tmp/tree" && tar xf -)
cd "$tmp/tree" || exit 2

# FILE@TEXT@REPLACEMENT[@cli]: a rule and how it is broken; @cli: judged by
# tests/cli/default_row.sh.
mutants=(
 "programs/core/calibration.h@#define CAL_WIN 0.03@#define CAL_WIN 0.02"
 "programs/core/derive.c@return v->est <= 1 - CAL_WIN && v->hi <= 1 - CAL_WIN;@return v->est <= 1 - CAL_WIN;"
 "programs/core/derive.c@		fill_gaps(cal, &w);@		;"
 "programs/core/calibration.h@#define CAL_NARROW_WIN 0.10@#define CAL_NARROW_WIN 0.0"
 "programs/core/calibration.h@#define CAL_NARROW 2.0@#define CAL_NARROW 1.0"
 "programs/core/calibration.h@#define CAL_RULES 4@#define CAL_RULES 10"
 "programs/core/calibration.h@#define CAL_EXTRA_WIN 0.05@#define CAL_EXTRA_WIN 0.0"
 "programs/core/derive.c@	return measured(pt, k) && calibration_clean(cal, ucopy_kernel_at((size_t)k), pt->size);@	return measured(pt, k);"
 "programs/core/derive.c@	return score(cal, pt, k, d) * wk <= wd;@	return 0;"
 "programs/core/derive.c@	return score(cal, pt, k, d) * wk <= wd;@	return 1;"
 "programs/core/derive.c@	return cal->l2 && pt->size > cal->l2;@	return 0;"
 "programs/core/derive.c@	if (m && loses(&mixed))@	if (0)"
 "programs/core/derive.c@	return c && holds(&cold) && !(h && loses(&hot));@	return c && holds(&cold);"
 "programs/core/calibration.h@#define CAL_SHORT 256@#define CAL_SHORT 0"
 "programs/core/derive.c@	if (pt->size < CAL_SHORT && !(m && holds(&mixed)))@	if (0)"
 "programs/core/derive.c@			c->limit = CAL_SHORT;@			;"
 "programs/core/derive.c@	if (cal->keep_tail)@	if (1)"
 "programs/core/derive.c@	const double change = 1e6;@	const double change = 0;"
 "programs/core/derive.c@	return v->lo > 1;@	return v->est > 1;"
 "programs/core/derive.c@		if (s == CAL_COLD && !beyond_l2(cal, pt))@		if (s == CAL_COLD)"
 "programs/core/derive.c@	if (beyond_l2(cal, pt) && versus(pt, CAL_COLD, k, d, &v))@	if (0)"
 "programs/core/derive.c@w->pick[i - 1] == w->def[i - 1] &&@1 &&"
 "programs/core/derive.c@		if (!out || b[j].gain < out->gain)@		if (!out || b[j].gain <= out->gain)"
 "programs/core/default_row.c@	return (x < y) - (x > y);@	return (x > y) - (x < y);@cli"
 "programs/core/default_row.c@			if (g.st[s].missing_size)@			if (0)@cli"
 "programs/core/default_row.c@					if (sc[i] < scores[i])@					if (sc[i] <= scores[i])@cli"
 "programs/core/default_row.c@	4 * KIB, 256, 512, 1 * KIB, 2 * KIB,@	256, 4 * KIB, 512, 1 * KIB, 2 * KIB,@cli"
)
# judge KIND: build and run the test a mutant is judged by; 2: no build.
judge() {
	if [ "$1" = cli ]; then
		make -s B=b b/ucopy >/dev/null 2>&1 || return 2
		UCOPY=$PWD/b/ucopy sh tests/cli/default_row.sh 2>&1 | grep -q '^FAIL' && return 1
		return 0
	fi
	make -s B=b b/tests/test_derive >/dev/null 2>&1 || return 2
	./b/tests/test_derive >/dev/null 2>&1
}
judge derive && judge cli ||
	{ echo "FAIL derive_mutants: a test fails before any mutant"; exit 1; }
survived=0
for m in "${mutants[@]}"; do
	IFS='@' read -r f text repl kind <<<"$m"
	cp "$f" "$f.orig"
	if ! python3 - "$f" "$text" "$repl" <<'PY'
import sys
f, a, b = sys.argv[1:]
s = open(f).read()
if s.count(a) != 1:
    sys.exit(1)
open(f, "w").write(s.replace(a, b))
PY
	then
		echo "FAIL derive_mutants: '$text' is not once in $f (update the mutant)"
		survived=$((survived + 1))
		continue
	fi
	judge "${kind:-derive}"
	case $? in
	2) echo "FAIL derive_mutants: '$repl' in $f does not build"
	   survived=$((survived + 1)) ;;
	0) echo "FAIL derive_mutants: the test passes with '$repl' in $f"
	   survived=$((survived + 1)) ;;
	*) echo "PASS derive_mutants: '$repl' in $f fails its test" ;;
	esac
	mv "$f.orig" "$f"
done
[ "$survived" -eq 0 ]
