#!/bin/sh
# Runs the test programs given as arguments and the CLI tests in tests/cli/,
# then prints "N passed, N failed[, N skipped]" as the last line.
# A program that dies, or exits non-zero without reporting a FAIL, counts as
# one more failure.
B=${B:-build}
export B
# The tests decide the library's settings themselves: a profile that a real
# `ucopy calibrate` saved for the user must not change what they see, nor
# a UCOPY_DATA_DIR the files the command finds.
unset UCOPY_POLICY UCOPY_PROFILE UCOPY_FEATURES UCOPY_DATA_DIR
XDG_CACHE_HOME=$(mktemp -d)
export XDG_CACHE_HOME
pass=0 fail=0 skip=0
log=$(mktemp)
trap 'rm -rf "$log" "$XDG_CACHE_HOME"' EXIT
run() {
	name=$1; shift
	"$@" >"$log" 2>&1
	rc=$?
	cat "$log"
	p=$(grep -c '^PASS ' "$log"); f=$(grep -c '^FAIL ' "$log"); s=$(grep -c '^SKIP ' "$log")
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $name: exit status $rc"
		fail=$((fail + 1))
	fi
}
cli=1
for t in "$@"; do
	case $t in
	--no-cli) cli= ;;   # the library's tests only (make check-generic)
	# UCOPY_TEST_WRAP: a command to run each test under (make
	# check-emulated: qemu-x86_64 -cpu MODEL).
	*) run "$t" $UCOPY_TEST_WRAP "$t" ;;
	esac
done
for t in ${cli:+tests/cli/*.sh}; do
	[ -f "$t" ] && run "$t" sh "$t"
done
if [ $skip -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ $fail -eq 0 ]
