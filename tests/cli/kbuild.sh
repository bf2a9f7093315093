# ucopy kbuild: kernel-style sources (tests/kstyle/) built into shared
# objects; the entry and the ALTERNATIVEs chosen as asked, one export, the
# fault sites as notes; bad input refused with one line (a source that does
# not build: the compiler's messages, then one line).  test_kbuild.c runs
# what it builds; this also runs the arm64 routines cross-built on x86-64
# when an aarch64 test_kbuild and qemu-aarch64 are there.
. tests/cli/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT
arch=$(ucopy_arch)
KS=tests/kstyle

run kbuild --help
expect "kbuild --help: usage, the conventions and the features" \
	sh -c "[ $rc -eq 0 ] && grep -q '^usage: ucopy kbuild FILE.S' '$out' && grep -q 'rep_movs ' '$out' &&
	       grep -q -- '--features LIST' '$out'"

# Bad input: one line, exit 2.
usage_error "kbuild: a missing file" "bad file '$tmp/none.S': No such file" kbuild "$tmp/none.S"
usage_error "kbuild: no file" "no FILE.S to build" kbuild
usage_error "kbuild: an unknown feature, named" "bad --features 'none,frob': unknown feature 'frob'" \
	kbuild $KS/x86_64/copy_user_rcx.S --features none,frob --dry-run
usage_error "kbuild: an unknown architecture" "bad --arch 'mips'" kbuild $KS/x86_64/copy_user_rcx.S --arch mips
usage_error "kbuild: a convention of another architecture" "bad --convention 'rep_movs' for aarch64 (expected c)" \
	kbuild $KS/aarch64/copy_from_user_515.S --arch aarch64 --convention rep_movs
usage_error "kbuild: another architecture's features" "bad --features 'erms': this ucopy names" \
	kbuild $KS/x86_64/copy_user_rcx.S --arch "$([ "$arch" = x86_64 ] && echo aarch64 || echo x86_64)" --features erms
usage_error "kbuild: --symbol must be an identifier" "bad --symbol 'a b'" \
	kbuild $KS/x86_64/copy_user_rcx.S --arch x86_64 --features none --symbol 'a b'
usage_error "kbuild: an unknown entry needs its convention" "--entry foo is no routine kbuild knows for x86_64: --convention" \
	kbuild $KS/x86_64/copy_user_rcx.S --arch x86_64 --features none --entry foo
printf '#include <linux/linkage.h>\nSYM_FUNC_START(my_copy)\n\tret\nSYM_FUNC_END(my_copy)\n' >"$tmp/mine.S"
usage_error "kbuild: no known entry: the functions it found are named" \
	"defines no routine kbuild knows for x86_64 (it defines my_copy): --entry SYMBOL and --convention" \
	kbuild "$tmp/mine.S" --arch x86_64 --features none
printf '#include <linux/linkage.h>\nSYM_FUNC_START(rep_movs_alternative)\n\tret\nSYM_FUNC_END(rep_movs_alternative)\nSYM_FUNC_START(__copy_user_nocache)\n\tret\nSYM_FUNC_END(__copy_user_nocache)\n' >"$tmp/two.S"
usage_error "kbuild: two known entries: --entry picks" \
	"defines more than one routine kbuild knows (rep_movs_alternative, __copy_user_nocache): --entry" \
	kbuild "$tmp/two.S" --arch x86_64 --features none

# A source that does not assemble: the compiler's message, then one line.
if [ "$arch" = x86_64 ]; then
	printf '#include <linux/linkage.h>\nSYM_FUNC_START(rep_movs_alternative)\n\tmovq %%rax\n' >"$tmp/bad.S"
else
	printf '#include <linux/linkage.h>\nSYM_FUNC_START(__arch_copy_from_user)\n\tfrob x0\n' >"$tmp/bad.S"
fi
run kbuild "$tmp/bad.S" --features none -o "$tmp/bad.so"
expect "kbuild: a source that does not assemble: the assembler's message, one line of ours, exit 2" \
	sh -c "[ $rc -eq 2 ] && [ ! -s '$out' ] && grep -qi 'bad.S:.*error' '$err' &&
	       tail -1 '$err' | grep -q \"^ucopy: $tmp/bad.S did not build (.*: exit 1; its messages are above)\" &&
	       [ ! -e '$tmp/bad.so' ]"

if [ "$arch" != x86_64 ]; then
	echo "SKIP kbuild: the x86-64 builds: the command is built for $arch (tests/test_kbuild.c runs its own)"
else
	have_tools=1
	for t in objdump readelf nm; do command -v $t >/dev/null || have_tools=; done
	run kbuild $KS/x86_64/copy_user_rcx.S --features none,erms -o "$tmp/erms.so"
	expect "kbuild: 6.4-style with erms: the line says what was built" \
		grep -q "^$tmp/erms.so: ucopy_kroutine = rep_movs_alternative (rep_movs convention), x86_64, features erms (as given)\$" "$out"
	run kbuild $KS/x86_64/copy_user_rcx.S --features none -o "$tmp/plain.so"
	expect "kbuild: 6.4-style without erms builds" sh -c "[ $rc -eq 0 ] && [ -s '$tmp/plain.so' ]"
	if [ -n "$have_tools" ]; then
		expect "kbuild: --features erms takes ALTERNATIVE's rep movsb, none the jump (objdump)" \
			sh -c "objdump -d '$tmp/erms.so' | grep -q 'rep movsb' && ! objdump -d '$tmp/plain.so' | grep -q 'rep movsb'"
		expect "kbuild: one export, ucopy_kroutine; the kernel's symbol kept, hidden" \
			sh -c "[ \"\$(nm -D --defined-only '$tmp/erms.so' | awk '{print \$3}')\" = ucopy_kroutine ] &&
			       nm '$tmp/erms.so' | grep -q ' t rep_movs_alternative\$'"
		expect "kbuild: five _ASM_EXTABLE_UA entries, five ucopy fault-site notes" \
			sh -c "[ \$(readelf -n '$tmp/erms.so' | grep -c '0x55430001') -eq 5 ]"
		expect "kbuild: no text relocations, a stack that is not executable" \
			sh -c "! readelf -d '$tmp/erms.so' | grep -q TEXTREL && readelf -lW '$tmp/erms.so' | grep -q 'GNU_STACK.* RW '"
		run kbuild $KS/x86_64/copy_user_eax.S --features none,erms -o "$tmp/eax_erms.so"
		expect "kbuild: 6.3-style with erms: copy_user_enhanced_fast_string, as copy_user_generic() chose" \
			sh -c "grep -q '= copy_user_enhanced_fast_string (copy_user convention)' '$out' &&
			       objdump -d '$tmp/eax_erms.so' | grep -A3 '<ucopy_kroutine>:' | grep -q 'call.*<copy_user_enhanced_fast_string>'"
		run kbuild $KS/x86_64/copy_user_eax.S --features none,rep_good -o "$tmp/eax.so"
		expect "kbuild: 6.3-style without erms: copy_user_generic_unrolled (the file has no _string)" \
			sh -c "grep -q '= copy_user_generic_unrolled ' '$out' &&
			       objdump -d '$tmp/eax.so' | grep -A3 '<ucopy_kroutine>:' | grep -q 'call.*<copy_user_generic_unrolled>'"
		expect "kbuild: _ASM_EXTABLE_CPY is a fault site of type 1, the trap number in eax" \
			sh -c "readelf -n '$tmp/eax.so' | grep -A1 0x55430001 | grep -q 'data: .. .. .. .. .. .. .. .. 01 00 00 00 00 00 00 00'"
	else
		echo "SKIP kbuild: what was built: needs objdump, readelf and nm"
	fi
	run kbuild $KS/x86_64/copy_user_rcx.S --features none --symbol my_copy --entry rep_movs_alternative -o "$tmp/named.so"
	expect "kbuild: --symbol names the export" sh -c "[ $rc -eq 0 ] && grep -q ': my_copy = rep_movs_alternative' '$out'"
	run kbuild $KS/x86_64/copy_user_rcx_badcount.S --features none --dry-run
	expect "kbuild: a file that includes the routine it changes: its entry found in the include" \
		sh -c "[ $rc -eq 0 ] && grep -q -- '-DUCOPY_KENTRY=rep_movs_alternative' '$out'"
	run kbuild $KS/x86_64/copy_user_rcx.S --features none,erms,fsrm --dry-run
	expect "kbuild --dry-run: the compiler's line, a -D per feature, the file's directory first" \
		sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$out') -eq 1 ] && grep -q -- '-shared -fPIC -nostdlib' '$out' &&
		       grep -q -- '-DUCOPY_KFEAT_ERMS -DUCOPY_KFEAT_FSRM -I$KS/x86_64 -I' '$out' && grep -q -- '-Wl,-z,text' '$out' &&
		       grep -q 'wrap-rep_movs.S -o copy_user_rcx.so\$' '$out' && [ ! -e copy_user_rcx.so ]"
	case $UCOPY in /*) u=$UCOPY ;; *) u=$PWD/$UCOPY ;; esac
	(cd "$tmp" && "$u" kbuild "$OLDPWD/$KS/x86_64/copy_user_rcx.S" --features none >/dev/null 2>&1)
	expect "kbuild: the default output is FILE's name with .so, here" [ -s "$tmp/copy_user_rcx.so" ]
fi

# The arm64 routines, cross-built on x86-64, run under qemu-aarch64 by the
# aarch64 test_kbuild that make check-aarch64 builds.
if [ "$arch" = x86_64 ] && command -v aarch64-linux-gnu-gcc >/dev/null; then
	for v in 515 419; do
		run kbuild --arch aarch64 $KS/aarch64/copy_from_user_$v.S -o "$tmp/cfu$v.so"
		expect "kbuild --arch aarch64: the $v-style arm64 routine, an aarch64 object" \
			sh -c "[ $rc -eq 0 ] && grep -q '= __arch_copy_from_user (c convention), aarch64, features none' '$out' &&
			       { ! command -v readelf >/dev/null || readelf -h '$tmp/cfu$v.so' | grep -q 'Machine:.*AArch64'; }"
		drive=${B}-aarch64/tests/test_kbuild
		if [ -x "$drive" ] && command -v qemu-aarch64 >/dev/null; then
			qemu-aarch64 -L /usr/aarch64-linux-gnu "$drive" "$tmp/cfu$v.so" ucopy_kroutine --source-only >"$out" 2>"$err"
			rc=$?
			expect "kbuild --arch aarch64: the $v-style routine exact under qemu-aarch64" \
				sh -c "[ $rc -eq 0 ] && tail -1 '$out' | grep -qx ok"
		else
			echo "SKIP kbuild: the cross-built $v-style routine run: needs $drive (make check-aarch64) and qemu-aarch64"
		fi
	done
else
	echo "SKIP kbuild: the arm64 cross-build: needs an x86-64 command and aarch64-linux-gnu-gcc"
fi

# What kbuild built, checked and timed by the commands on this
# architecture (under check-aarch64, the arm64 routines under qemu): the
# right routine passes `check` and is timed by `bench` beside the policy
# it is the kernel's version of; the routine missing a fault-table entry
# and the one whose fixup counts one byte short fail `check` (exit 1) at
# their first case, and the command survives the first one's crash.
case $arch in
x86_64) right=$KS/x86_64/copy_user_rcx.S noentry=$KS/x86_64/copy_user_rcx_noentry.S
	feat=none,erms policy=linux-6.4 ;;
aarch64) right=$KS/aarch64/copy_from_user_515.S noentry= feat=none policy=arm64-5.15 ;;
*) right= ;;
esac
if [ -z "$right" ]; then
	echo "SKIP kbuild: check and bench of a built routine: no kernel-style source for $arch"
else
	run kbuild "$right" --features $feat -o "$tmp/right.so"
	# arm64's copy_from_user lists only its loads, as the kernel's does.
	sides=both
	[ "$arch" = aarch64 ] && sides=src
	expect "kbuild then check: the right kernel-style routine passes ucopy check (faults: $sides)" \
		sh -c "[ $rc -eq 0 ] && $UCOPY check --routine '$tmp/right.so:ucopy_kroutine:try' --quick --faults $sides >'$out' 2>'$err' &&
		       grep -q '^$tmp/right.so:ucopy_kroutine:try: [0-9]* cases run, 0 failed' '$out'"
	run bench --routine "$tmp/right.so:ucopy_kroutine:try" --policies $policy --sizes 64,4K --seconds 0.5 --format csv
	expect "kbuild then bench: the routine timed beside $policy at each size" \
		sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^ucopy_kroutine:try,' '$out') -eq 2 ] &&
		       [ \$(grep -c '^$policy,' '$out') -eq 2 ]"
	if [ -n "$noentry" ]; then
		run kbuild "$noentry" --features none -o "$tmp/noentry.so"
		run check --routine "$tmp/noentry.so:ucopy_kroutine:try" --quick
		expect "kbuild then check: a store without _ASM_EXTABLE_UA is a crash at an injected fault, reported" \
			sh -c "[ $rc -eq 1 ] && grep -q '^FAIL .* fault=dst-segv@0: the routine was killed by SIGSEGV at the injected fault' '$out'"
		run check --routine "$tmp/noentry.so:ucopy_kroutine:try" --quick --faults src
		expect "kbuild then check --faults src: the same routine passes where its table covers it (copy_from_user's side)" \
			sh -c "[ $rc -eq 0 ] && grep -q ' 0 failed' '$out' && ! grep -q 'fault=dst' '$out'"
		run check --routine "$tmp/noentry.so:ucopy_kroutine:try" --quick --faults dst
		expect "kbuild then check --faults dst: still the crash at the first destination fault" \
			sh -c "[ $rc -eq 1 ] && grep -q '^FAIL .* fault=dst-segv@0: the routine was killed' '$out'"
		run kbuild $KS/x86_64/copy_user_rcx_badcount.S --features none -o "$tmp/badcount.so"
		run check --routine "$tmp/badcount.so:ucopy_kroutine:try" --quick
		expect "kbuild then check: a fixup one byte short is a wrong count at the first source fault" \
			sh -c "[ $rc -eq 1 ] && grep -q '^FAIL .* size=1 dst_align=1 fault=src-segv@0: returned 0, expected 1\$' '$out'"
	fi
fi
