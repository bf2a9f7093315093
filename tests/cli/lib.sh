# Sourced by the CLI tests: runs the command and reports PASS/FAIL lines in
# the format tests/run.sh counts.
B=${B:-build}
UCOPY=${UCOPY:-$B/ucopy}
out=$(mktemp) err=$(mktemp)
# $B as an absolute path, for what runs elsewhere (LD_PRELOAD, dlopen).
case $B in /*) BABS=$B ;; *) BABS=$PWD/$B ;; esac
trap 'rm -f "$out" "$err"' EXIT

# run ARGS...: runs ucopy, leaving stdout in $out, stderr in $err, status in $rc.
run() {
	"$UCOPY" "$@" >"$out" 2>"$err"
	rc=$?
}

# expect NAME COND...: PASS if the shell test COND succeeds, else FAIL with
# what the command printed.
expect() {
	name=$1; shift
	if "$@" 2>/dev/null; then
		echo "PASS $name"
	else
		echo "FAIL $name: [$*] rc=$rc"
		sed 's/^/  stdout: /' "$out" | head -5
		sed 's/^/  stderr: /' "$err" | head -5
	fi
}

# usage_error NAME PATTERN ARGS...: the command must exit 2 with one line on
# stderr that matches PATTERN and print nothing on stdout.
usage_error() {
	name=$1 pattern=$2; shift 2
	run "$@"
	expect "$name" is_usage_error "$pattern"
}

is_usage_error() {
	[ "$rc" -eq 2 ] && [ ! -s "$out" ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q -- "$1" "$err"
}

json_ok() {
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$out" 2>/dev/null
}

# needs_preload NAME [FILE...]: exits after a SKIP line unless
# libucopy-preload.so and the FILEs are built and the interposer loads here
# (a sanitized build's needs its runtime loaded first; an exec'd true, as
# the shell's builtin would not load it).
needs_preload() {
	name=$1; shift
	for f in "$B/libucopy-preload.so" "$@"; do
		if [ ! -e "$f" ]; then
			echo "SKIP $name: $f is not built"
			exit 0
		fi
	done
	if ! env LD_PRELOAD="$BABS/libucopy-preload.so" true 2>"$err"; then
		echo "SKIP $name: the interposer does not load here ($(head -c 120 "$err"))"
		exit 0
	fi
}
