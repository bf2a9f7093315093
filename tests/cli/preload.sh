# `ucopy run` and `ucopy compare A B -- CMD`: libucopy-preload.so under a
# program, its status passed on, its children inheriting it or not, bad
# input refused with one message.
. tests/cli/lib.sh

prog=$B/tests/preload_prog
needs_preload preload "$prog" "$B/tests/libpreload_dl.so"

# Before main, four threads, a forked child, the _chk forms: all ucopy's.
run run -- "$prog" "$BABS/tests/libpreload_dl.so"
expect "preload: copies before main, in threads, after fork, through _chk, in a dlopen'ed library, are right" \
	[ "$rc" -eq 0 ]
expect "preload: the program's memcpy is the interposer's" \
	grep -q "^memcpy is in .*/libucopy-preload.so" "$out"
expect "preload: the memcpy of a library dlopen'ed after main is the interposer's" \
	grep -q "^the dlopen'ed library's memcpy is in .*/libucopy-preload.so" "$out"
run run --policy 64:libc,avx2 -- "$prog"
expect "preload: a policy with the libc kernel (which calls memcpy by name) does not recurse" \
	[ "$rc" -eq 0 ]
run run -- "$prog" chk-overflow
expect "preload: __memcpy_chk past the destination aborts as glibc's __chk_fail (134)" \
	[ "$rc" -eq 134 ]
expect "preload: ... with glibc's message" grep -q "buffer overflow detected" "$err"

# memcpy between overlapping buffers is undefined, and glibc's gives
# memmove's result: the interposer's must too, in every entry, both ways.
run run -- "$B/tests/overlap_prog"
expect "preload: memcpy, mempcpy and __memcpy_chk on overlapping buffers give memmove's result ($(tail -1 "$out"))" \
	sh -c "[ $rc -eq 0 ] && grep -q '^0 of [1-9][0-9]* overlapping cases differ' '$out'"

# The pipe the interposer says it loaded on is not left to the program.
fds='echo "${UCOPY_PRELOAD_NOTIFY-unset}"; ls /proc/$$/fd | tr "\n" " "'
want=$(sh -c "$fds")
run run -- sh -c "$fds"
expect "run: the program has the descriptors and environment it would have without ucopy" \
	sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$out')\" = '$want' ] && [ ! -s '$err' ]"

run run -- sh -c 'exit 7'
expect "run: the program's exit status is ucopy's" [ "$rc" -eq 7 ]
run run -- sh -c 'kill -TERM $$'
expect "run: killed by SIGTERM gives 128+15" [ "$rc" -eq 143 ]
# SIGCHLD ignored by whoever started ucopy (it survives exec): the kernel
# would reap the child itself and the status be lost.
python3 -c 'import os, signal, sys; signal.signal(signal.SIGCHLD, signal.SIG_IGN); os.execv(sys.argv[1], sys.argv[1:])' \
	"$UCOPY" run -- sh -c 'exit 3' >"$out" 2>"$err"
expect "run: the status comes through with SIGCHLD ignored" [ "$?" -eq 3 ]
# SIGTERM to ucopy goes to the program, and ucopy ends with its status.
"$UCOPY" run -- sleep 31.25 >"$out" 2>"$err" &
pid=$!
sleep 0.5
kill -TERM "$pid"
wait "$pid"
rc=$?
expect "run: a SIGTERM to ucopy is passed to the program (143), which does not outlive it" \
	sh -c "[ $rc -eq 143 ] && ! pgrep -f 'slee[p] 31.25' >/dev/null"
run run -- "$prog" --help
expect "run: options after '--' are the program's" grep -q "cannot load --help" "$out"

# The shell and the shell it executes: both hold the interposer, or only
# the first with --no-inherit.
has='grep -q libucopy-preload /proc/$$/maps && echo 1 || echo 0'
maps="$has; sh -c '$has'"
run run -- sh -c "$maps"
expect "run: the program's children inherit the interposer" [ "$(tr '\n' ' ' <"$out")" = "1 1 " ]
run run --no-inherit -- sh -c "$maps"
expect "run --no-inherit: the program has it, its children do not" \
	[ "$(tr '\n' ' ' <"$out")" = "1 0 " ]

usage_error "run: no '--'" "no program to run" run
usage_error "run: a program without '--'" "comes after '--'" run true
usage_error "run: nothing after '--'" "no program after '--'" run --
usage_error "run: an unknown policy" "bad --policy 'nope'" run --policy nope -- true
usage_error "run: a program that does not exist" "cannot run '/nonexistent/x'" run -- /nonexistent/x
# In the build directory, not /tmp: a noexec /tmp would refuse it as EACCES.
noint=$(mktemp -p "$BABS")
printf '#!/nonexistent/interpreter\necho hi\n' >"$noint"
chmod +x "$noint"
usage_error "run: a script whose interpreter does not exist says so, not 'No such file'" \
	"cannot run '$noint': its interpreter (the #! line) or dynamic loader does not exist" \
	run -- "$noint"
rm -f "$noint"

# Whole-program compare: the structure, not the speed.
run compare auto libc --runs 6 -- "$prog"
expect "compare -- CMD: both sides measured" \
	sh -c "grep -q '^ A: auto' '$out' && grep -q '^ B: libc' '$out' && grep -q 'task-clock *median' '$out'"
expect "compare -- CMD: ratio with an interval, and a verdict" \
	sh -c "grep -q 'B/A wall .*95% CI \[' '$out' && grep -q '^ verdict (wall time' '$out'"
expect "compare -- CMD: the program's output is discarded" sh -c "! grep -q '^ok' '$out'"
run compare auto libc --runs 2 --keep-output -- "$prog"
expect "compare --keep-output: the program's output is kept" grep -q "^ok" "$out"
run compare auto libc --runs 2 -- sh -c 'exit 3'
expect "compare: failed runs are reported, and none left is an error" \
	sh -c "[ $rc -eq 1 ] && grep -q 'run 2 of B failed: exit 3' '$err' && grep -q 'no round' '$err'"
run compare auto libc --runs 6 -- sh -c '[ -z "$LD_PRELOAD" ] || exit 4'
expect "compare: a failing side is reported, the rounds it spoiled left out" \
	sh -c "[ $rc -eq 1 ] && grep -q 'run 1 of A failed: exit 4' '$err' && ! grep -q 'run [0-9]* of B failed' '$err'"
# Started from under the interposer (ucopy run -- ucopy compare ...), libc's
# side still runs without it, and keeps the other preloaded libraries.
LD_PRELOAD="/lib/nonexistent-other.so $BABS/libucopy-preload.so" "$UCOPY" compare auto libc --runs 2 -- \
	sh -c 'case "$LD_PRELOAD" in *libucopy-preload.so*) [ -n "$UCOPY_POLICY" ] || exit 5;; *) [ "$LD_PRELOAD" = /lib/nonexistent-other.so ] || exit 6;; esac' \
	>"$out" 2>"$err"
expect "compare: libc's side has no interposer even when ucopy was started under one" \
	sh -c "[ $? -eq 0 ] && ! grep -q 'failed' '$err'"
usage_error "compare -- CMD: one policy" "expected two policies" compare auto -- true
usage_error "compare -- CMD: an unknown policy" "B: bad policy 'nope': unknown policy" compare auto nope -- true
usage_error "compare -- CMD: a program that does not exist" "cannot run" compare auto libc -- /nonexistent/x
# Started with 0 and 1 (or 2) closed, the command's pipes took those numbers
# and the child's dup2 onto its stdout replaced the one that says exec
# failed: "run N failed: exit 127", once a run.
"$UCOPY" compare auto libc --runs 2 -- ucopy-no-such-program <&- >&- 2>"$err"
rc=$?
expect "compare -- CMD: started with stdin and stdout closed, a program that does not exist is still one message" \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ] && grep -q \"cannot run 'ucopy-no-such-program'\" '$err'"
"$UCOPY" compare auto libc --runs 2 -- /nonexistent/x <&- 2>&- >"$out"
rc=$?
expect "compare -- CMD: ... with stdin and stderr closed: exit 2" sh -c "[ $rc -eq 2 ] && [ ! -s '$out' ]"
for cmd in run "trace -o $BABS/closed-fds"; do
	"$UCOPY" $cmd -- /nonexistent/x <&- >&- 2>"$err"
	rc=$?
	expect "${cmd%% *}: started with stdin and stdout closed, a program that does not exist is one message" \
		sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ] && grep -q \"cannot run '/nonexistent/x'\" '$err'"
done
# UCOPY_PRELOAD must name a shared library ld.so can preload: a text file or
# a program would be skipped with ld.so's warning, and the program run
# without ucopy under ucopy's name.
for cmd in "run" "compare auto libc --runs 2" "trace -o $BABS/../nowhere"; do
	c=${cmd%% *}
	UCOPY_PRELOAD=/etc/passwd run $cmd -- true
	expect "$c: UCOPY_PRELOAD naming a text file is refused" \
		is_usage_error "bad UCOPY_PRELOAD '/etc/passwd': not a shared library"
done
UCOPY_PRELOAD=$BABS/tests/preload_prog run run -- true
expect "run: UCOPY_PRELOAD naming a program (a PIE, ET_DYN too) is refused" \
	is_usage_error "bad UCOPY_PRELOAD '.*preload_prog': not a shared library"
UCOPY_PRELOAD=$BABS/no-such.so run run -- true
expect "run: UCOPY_PRELOAD naming no file is refused" is_usage_error "no-such.so': no such file"
UCOPY_PRELOAD=$BABS run run -- true
expect "run: UCOPY_PRELOAD naming a directory says so" is_usage_error "bad UCOPY_PRELOAD '$BABS': a directory"
UCOPY_PRELOAD="$(printf 'a\033[31mb')" run run -- true
expect "run: UCOPY_PRELOAD's control bytes do not reach the terminal" \
	is_usage_error "bad UCOPY_PRELOAD 'a\\\\x1b\[31mb': no such file"
UCOPY_PRELOAD=/dev/null run run -- true
expect "run: UCOPY_PRELOAD naming a device says so" is_usage_error "bad UCOPY_PRELOAD '/dev/null': not a regular file"
UCOPY_PRELOAD=$B/libucopy-preload.so run run -- "$prog"
expect "run: UCOPY_PRELOAD relative to the working directory works" [ "$rc" -eq 0 ]
# Another shared library, which ld.so would preload without a word while the
# program ran without ucopy; and a path LD_PRELOAD would split.
for cmd in "run" "compare auto libc --runs 2"; do
	c=${cmd%% *}
	UCOPY_PRELOAD=$BABS/libucopy.so run $cmd -- true
	expect "$c: UCOPY_PRELOAD naming another shared library is refused" \
		is_usage_error "bad UCOPY_PRELOAD '.*libucopy.so': a shared library, but not ucopy's interposer"
done
odd=$(mktemp -d)
mkdir "$odd/a b" "$odd/a:b"
cp "$B/libucopy-preload.so" "$odd/a b/" && cp "$B/libucopy-preload.so" "$odd/a:b/"
for d in "a b" "a:b"; do
	UCOPY_PRELOAD="$odd/$d/libucopy-preload.so" run run -- true
	expect "run: an interposer at a path with '$d' is refused, not dropped by ld.so" \
		is_usage_error "its full path has a space or a colon, which LD_PRELOAD cannot carry"
done
# A link at a clean path to it there is a path LD_PRELOAD carries.
ln -s "$odd/a b" "$odd/clean"
UCOPY_PRELOAD="$odd/clean/libucopy-preload.so" run run -- "$prog"
expect "run: a link without a space to an interposer at a path with one works" \
	sh -c "[ $rc -eq 0 ] && grep -q '^memcpy is in $odd/clean/libucopy-preload.so' '$out'"
# The command found in such a directory: its interposer beside it is refused too.
cp "$B/ucopy" "$odd/a b/"
(unset UCOPY_PRELOAD; "$odd/a b/ucopy" run -- true >"$out" 2>"$err")
rc=$?
expect "run: a command at a path with a space says why its interposer cannot be used" \
	is_usage_error "a b/libucopy-preload.so: its full path has a space or a colon"
rm -rf "$odd"

# A relative UCOPY_PROFILE reaches a program that changes directory as the
# file that was checked.
pdir=$(mktemp -d)
"$UCOPY" calibrate --seconds 0.2 --max-size 4K -q -o "$pdir/new" >/dev/null 2>&1
ucopy_abs=$(cd "$(dirname "$UCOPY")" && pwd)/$(basename "$UCOPY")
(cd "$pdir" && UCOPY_PROFILE=new "$ucopy_abs" run -- sh -c 'cd / && printf "%s\n" "$UCOPY_PROFILE"' \
	>"$out" 2>"$err")
rc=$?
expect "run: a relative UCOPY_PROFILE is passed on as an absolute path" sh -c "[ $rc -eq 0 ] &&
	[ \"\$(cat '$out')\" = \"\$(cd '$pdir' && pwd -P)/new\" ]"
rm -rf "$pdir"
