# Sourced by the CLI tests: runs the command and reports PASS/FAIL lines in
# the format tests/run.sh counts.
B=${B:-build}
UCOPY=${UCOPY:-$B/ucopy}
out=$(mktemp) err=$(mktemp)
# $B as an absolute path, for what runs elsewhere (LD_PRELOAD, dlopen).
case $B in /*) BABS=$B ;; *) BABS=$PWD/$B ;; esac
trap 'rm -f "$out" "$err"' EXIT

# The architecture the command was built for ("x86_64", "aarch64"): under
# make check-aarch64, UCOPY is a script that runs it under qemu-aarch64.
ucopy_arch() {
	"$UCOPY" features --json 2>/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["cpu"]["arch"])' 2>/dev/null
}

# only_arch ARCH WHY: ends a test file that is written for one architecture's
# kernels and policies with one SKIP line, saying why, on any other.
only_arch() {
	a=$(ucopy_arch)
	if [ "$a" != "$1" ]; then
		echo "SKIP $(basename "$0"): the command is built for ${a:-an unknown architecture}; $2"
		exit 0
	fi
}

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
	if [ "$(ucopy_arch)" != "$(uname -m)" ]; then
		echo "SKIP $name: the interposer is built for $(ucopy_arch), this machine's programs are $(uname -m) (make check-aarch64 runs under an emulator)"
		exit 0
	fi
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
