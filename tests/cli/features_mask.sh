# UCOPY_FEATURES: the library's feature mask.  Removals apply, additions and
# junk are refused whole with a note; and the library's own tests pass under
# several masks, so every resolution path runs on any machine.
. tests/cli/lib.sh
only_arch x86_64 "its masks are x86-64 features (sse2, avx2, erms); tests/cli/arm64.sh masks asimd"

UCOPY_FEATURES=none,sse2 run features
expect "mask: 'none,sse2' keeps sse2 only: auto's vector kernel is sse2" \
	sh -c "grep -q '^policy .*sse2' '$out' && ! grep -q '^policy .*avx' '$out'"
expect "mask: the features line says what is off" grep -q 'avx2 *off' "$out"
# What the mask removes is what the CPU had of it: a Zen 3 has no avx512f.
removed=avx2
"$UCOPY" features | grep -q 'avx512f *yes' && removed=avx2,avx512f
UCOPY_FEATURES=-avx512f,-avx2 run features
expect "mask: -avx512f,-avx2 shown in ucopy features (removed $removed)" \
	grep -q "^mask *UCOPY_FEATURES removed $removed\$" "$out"
# The auto row's words name the CPU's kernels: under a mask the line also
# says what the row made of what is left, the policy the library runs.
expect "mask: the auto line ends with the policy the row gives under the mask" \
	sh -c "p=\$(sed -n 's/^policy *//p' '$out'); [ -n \"\$p\" ] &&
	       grep -q \"^auto .*; without the features UCOPY_FEATURES removed, the row gives \$p\\\$\" '$out'"
run features
expect "mask: none set, the auto line is the row's alone" \
	sh -c "grep -q '^auto ' '$out' && ! grep -q 'UCOPY_FEATURES removed' '$out'"
UCOPY_FEATURES=-avx512f,-avx2 run features --json
expect "mask: in the JSON too" grep -q '"features_mask": "UCOPY_FEATURES removed' "$out"
expect "mask: -avx512f,-avx2: auto uses no avx kernel" sh -c "! grep -q '^policy.*avx' '$out'"
UCOPY_FEATURES=+frob run features
expect "mask: an unknown feature is refused whole, with a note" \
	grep -q "UCOPY_FEATURES='+frob' ignored: unknown feature 'frob'" "$out"
expect "mask: and ucopy features exits 2" sh -c "[ $rc -eq 2 ] && grep -q '^ucopy: bad UCOPY_FEATURES' '$err'"
# A feature the CPU lacks (the first 'no' in the feature table), added.
lacking=$("$UCOPY" features | sed -n '/^features/,/^caches/p' | tr -s ' ' '\n' | grep -B1 -x no | head -1)
if [ -n "$lacking" ]; then
	UCOPY_FEATURES=-sse2,$lacking run features
	expect "mask: adding $lacking, which the CPU lacks, is refused whole, with a note" \
		grep -q "UCOPY_FEATURES='-sse2,$lacking' ignored: it adds $lacking, which the CPU lacks (only removals apply)" "$out"
	expect "mask: and the command's message names it" sh -c "[ $rc -eq 2 ] &&
		grep -q \"^ucopy: bad UCOPY_FEATURES '-sse2,$lacking': it adds $lacking, which the CPU lacks\" '$err'"
	expect "mask: nothing was removed" grep -q 'sse2 *yes' "$out"
else
	echo "SKIP mask: an addition: this CPU has every feature ucopy names"
fi

# A kernel the mask took away is refused by every command that times a
# policy, compare's workloads too, not timed as another under its name.
if "$UCOPY" features | grep -q 'avx2 *yes'; then
	for cmd in "bench --kernels avx2 --sizes 64" "compare avx2 sse2 --sizes 64" \
		   "compare avx2 sse2 --dist Memcpy_7"; do
		UCOPY_FEATURES=-avx2 run $cmd --seconds 0.1
		expect "mask: ${cmd%% *} refuses avx2 under -avx2 (${cmd#* * * })" \
			is_usage_error "avx2.*UCOPY_FEATURES removed avx2"
	done
else
	echo "SKIP mask: a kernel the mask took away: this CPU has no avx2 to take"
fi

# The library's tests under masks: every path of auto and fit on this CPU.
for m in -avx512f -avx512f,-avx2 -avx512f,-avx2,-erms,-fsrm,-rep_good -avx_vnni -fsrm none; do
	for t in test_policy test_kernels test_entry; do
		[ -x "$B/tests/$t" ] || continue
		if UCOPY_FEATURES=$m "$B/tests/$t" >"$out" 2>&1 && ! grep -q '^FAIL' "$out"; then
			echo "PASS mask: $t under UCOPY_FEATURES=$m"
		else
			echo "FAIL mask: $t under UCOPY_FEATURES=$m"
			grep -A3 '^FAIL\|^  ' "$out" | head -6 | sed 's/^/  /'
		fi
	done
done
