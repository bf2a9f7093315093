# The command's parsers of sizes, offsets and distances under valgrind's
# memcheck: no error it sees, and the status and message the command gives
# natively.  Each run parses and exits before anything is timed (valgrind
# runs no rdtscp): a refused option, an output file that cannot be written
# (checked after every option is parsed), --help.  A size parser once ran
# strlen over an error buffer it had not written (bench --distance 1).
. tests/cli/lib.sh

name=valgrind_parse
if ! command -v valgrind >/dev/null 2>&1; then
	echo "SKIP $name: valgrind is not installed"
	exit 0
fi
if [ "$(ucopy_arch)" != "$(uname -m)" ]; then
	echo "SKIP $name: the command is built for $(ucopy_arch) and runs under an emulator, not under valgrind"
	exit 0
fi
if nm "$UCOPY" 2>/dev/null | grep -q '__asan_init'; then
	echo "SKIP $name: a build with AddressSanitizer cannot run under valgrind"
	exit 0
fi

vlog=$(mktemp)
trap 'rm -f "$out" "$err" "$vlog"' EXIT

# vg ARGS...: ucopy under memcheck, as run() runs it; valgrind's own report
# goes to $vlog, and an error it sees makes the status 99.  Its errors are
# the "==PID==" lines there: what it says of debug information it cannot
# read (clang 14's DWARF 5) is no error of the command's.
vg() {
	valgrind -q --error-exitcode=99 --log-file="$vlog" "$UCOPY" "$@" >"$out" 2>"$err"
	rc=$?
}

# Whether valgrind runs the command at all is asked first (a status of 99
# is an error seen: that is judged below).
vg --help
if [ "$rc" -ne 0 ] && [ "$rc" -ne 99 ]; then
	echo "SKIP $name: valgrind cannot run this build (status $rc: $(head -c 160 "$vlog" | tr '\n' ' '))"
	exit 0
fi

# judge NAME STATUS PATTERN ARGS...: the run just made of ARGS gave status
# STATUS, PATTERN on stderr (an empty one: nothing asked), and valgrind saw
# no error.  clean runs ARGS first.
judge() {
	cname=$1 want=$2 pattern=$3; shift 3
	if [ "$rc" -eq "$want" ] && ! grep -q '^==[0-9]*==' "$vlog" &&
	   { [ -z "$pattern" ] || grep -q -- "$pattern" "$err"; }; then
		echo "PASS $name: $cname"
	else
		echo "FAIL $name: $cname: ucopy $* under valgrind: status $rc (expected $want)"
		grep '^==[0-9]*== *[^ ]' "$vlog" | head -8 | sed 's/^/  valgrind: /'
		head -3 "$err" | sed 's/^/  stderr: /'
	fi
}
clean() {
	a=$1 b=$2 c=$3; shift 3
	vg "$@"
	judge "$a" "$b" "$c" "$@"
}

judge "ucopy --help" 0 "" --help
nowhere=/nonexistent/ucopy-valgrind/out
clean "bench --distance 1 --sizes 64" 2 "cannot write '$nowhere'" \
	bench --distance 1 --sizes 64 -o "$nowhere"
clean "bench with ranges of sizes, offsets and distances" 2 "cannot write '$nowhere'" \
	bench --sizes 1K-4K:x2,64,1-64:+8 --src-align 0-63:+8 --distance 3,200 -o "$nowhere"
clean "bench --distance and --dst-align" 2 "both set the destination offset" \
	bench --distance 1 --dst-align 0
clean "a distance too large" 2 "distance 5000 is too large (at most 4095)" \
	bench --distance 5000
clean "too many sizes" 2 "too many sizes" bench --sizes 1-1G
clean "compare --sizes" 2 "a copy of 0 bytes" compare libc libc --sizes 64,0
