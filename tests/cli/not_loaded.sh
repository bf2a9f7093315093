# A program that ignores LD_PRELOAD (statically linked, or setuid and run by
# another user) runs without the interposer: compare refuses (exit 2, with
# the reason), run warns once, trace says why nothing was recorded and keeps
# the program's status.  The interposer loading in any process the program
# starts counts (a shell that runs it).
. tests/cli/lib.sh

needs_preload not_loaded
tmp=$(mktemp -d -p "$BABS")
trap 'rm -rf "$tmp" "$out" "$err"' EXIT
chmod 755 "$tmp"
why="the interposer was not loaded by '.*static' (a statically linked or setuid program ignores LD_PRELOAD)"

if ! ${CC:-cc} -O1 -fno-builtin -static -o "$tmp/static" tests/static_prog.c 2>"$err"; then
	echo "SKIP not_loaded: static program: '${CC:-cc} -static' cannot link here (no static C library?): $(head -c 120 "$err")"
else
	run compare auto libc --runs 4 -- "$tmp/static"
	expect "not_loaded: compare on a static program refuses with the reason (exit 2), no ratio" \
		sh -c "[ $rc -eq 2 ] && [ ! -s '$out' ] && [ \$(wc -l <'$err') -eq 1 ] &&
			grep -q \"$why: no comparison\" '$err'"
	run compare libc auto --runs 4 -- "$tmp/static" 3
	expect "not_loaded: ... whichever side runs the interposer, saying how the run ended" \
		sh -c "[ $rc -eq 2 ] && grep -q \"$why; it ended with exit 3: no comparison\" '$err'"
	run run -- "$tmp/static" 4
	expect "not_loaded: run on a static program keeps its status and warns once" \
		sh -c "[ $rc -eq 4 ] && [ \$(wc -l <'$err') -eq 1 ] &&
			grep -q \"^ucopy: warning: $why: it ran with its own copies\" '$err'"
	run run -- sh -c "'$tmp/static' 0"
	expect "not_loaded: run: a shell that runs it loaded the interposer: no warning" \
		sh -c "[ $rc -eq 0 ] && [ ! -s '$err' ]"
	run trace -o "$tmp/t" -- "$tmp/static" 3
	expect "not_loaded: trace on a static program names the reason and keeps its status (3)" \
		sh -c "[ $rc -eq 3 ] && [ \$(wc -l <'$err') -eq 1 ] &&
			grep -q \"$why: no copies were recorded; nothing written\" '$err' &&
			! grep -q 'killed by a signal' '$err'"
	expect "not_loaded: ... and leaves no file, nor its records' directory" \
		sh -c "[ -z \"\$(ls '$tmp' | grep '^t')\" ]"
	run trace -o "$tmp/t" -- "$tmp/static" 0
	expect "not_loaded: trace on a static program that ends well: exit 1, not 0" \
		sh -c "[ $rc -eq 1 ] && grep -q \"$why\" '$err'"
fi

# Setuid: ld.so ignores LD_PRELOAD (a path with a slash) in a program whose
# effective user is not the real one.  As root, a copy of a dynamic program
# owned by root with u+s, run by nobody through setpriv.
if [ "$(id -u)" != 0 ]; then
	echo "SKIP not_loaded: setuid: making a setuid program for another user takes root"
elif ! command -v setpriv >/dev/null || ! setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
	echo "SKIP not_loaded: setuid: setpriv cannot run a program as nobody here"
elif ! setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$UCOPY" 2>/dev/null; then
	echo "SKIP not_loaded: setuid: nobody cannot run $UCOPY (a directory above it is closed to others)"
else
	cp "$B/tests/server_prog" "$tmp/suid"
	chmod 4755 "$tmp/suid"
	if [ ! -u "$tmp/suid" ] || findmnt -n -o OPTIONS -T "$tmp" | grep -q nosuid; then
		echo "SKIP not_loaded: setuid: the setuid bit does not hold in $tmp (a nosuid mount)"
	else
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$UCOPY" compare auto libc --runs 2 -- \
			"$tmp/suid" >"$out" 2>"$err"
		rc=$?
		expect "not_loaded: compare on a setuid program run by another user refuses (exit 2)" \
			sh -c "[ $rc -eq 2 ] && grep -q \"the interposer was not loaded by '.*suid' (a statically linked or setuid\" '$err'"
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$UCOPY" run -- "$tmp/suid" >"$out" 2>"$err"
		rc=$?
		expect "not_loaded: run on a setuid program run by another user warns, keeps its status" \
			sh -c "[ $rc -eq 2 ] && grep -q '^ucopy: warning: the interposer was not loaded' '$err'"
	fi
fi
