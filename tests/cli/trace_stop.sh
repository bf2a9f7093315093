# A server is traced by running it and stopping it: `ucopy trace` of a
# program that SIGINT (the terminal's ^C, which reaches the program), SIGTERM
# or SIGHUP (sent to ucopy, which passes them on) ends writes what it
# recorded, and exits as the program did: 128 + the signal.
. tests/cli/lib.sh

prog=$B/tests/server_prog
needs_preload trace_stop "$prog"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT

# stop NAME SIGNAL TO [ARGS...]: traces the server to $tmp/NAME, sends SIGNAL
# to the program (TO=prog) or to ucopy (TO=ucopy) once it has made its
# copies, and leaves ucopy's status in $rc.  A background job of a script
# starts with SIGINT ignored: env gives the program its default back, as an
# interactive shell's foreground job has it.
stop() {
	name=$1 sig=$2 to=$3; shift 3
	env --default-signal=INT "$UCOPY" trace -o "$tmp/$name" -- "$prog" 1000 "$tmp/$name.ready" "$@" \
		>"$out" 2>"$err" &
	pid=$!
	i=0
	while [ ! -s "$tmp/$name.ready" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	if [ "$to" = prog ]; then
		kill -"$sig" "$(cat "$tmp/$name.ready")"
	else
		kill -"$sig" "$pid"
	fi
	wait "$pid"
	rc=$?
}

# copies NAME [more]: "yes" when the three files are there with the
# server's 1000 copies of 3001 bytes (and no other, unless "more": a
# program that ends by exit() may copy in its C library's exit path), and
# the processes' records were merged and removed.
copies() {
	only='^3001:1$'
	[ "$2" = more ] && only='(^|,)3001:'
	if [ "$(grep -c '^0 3001 ' "$tmp/$1.seq" 2>/dev/null)" = 1000 ] &&
		grep -Eq "$only" "$tmp/$1.csv" && [ -s "$tmp/$1.llvm.csv" ] &&
		[ -z "$(ls -d "$tmp/$1".parts.* 2>/dev/null)" ]; then
		echo yes
	else
		echo no
	fi
}

if ! env --default-signal=INT true 2>/dev/null; then
	echo "SKIP trace_stop: SIGINT: this env has no --default-signal (coreutils 8.31 or later)"
else
	stop int INT prog
	expect "trace_stop: a program ended by SIGINT writes its copies; ucopy exits 130" \
		sh -c "[ $rc -eq 130 ] && [ $(copies int) = yes ]"
fi
stop term TERM ucopy
expect "trace_stop: SIGTERM to ucopy ends the program, which writes its copies; ucopy exits 143" \
	sh -c "[ $rc -eq 143 ] && [ $(copies term) = yes ]"
stop hup HUP ucopy
expect "trace_stop: SIGHUP likewise: 129" sh -c "[ $rc -eq 129 ] && [ $(copies hup) = yes ]"
expect "trace_stop: ... and ucopy says what it wrote, no error" \
	sh -c "grep -q '^ucopy trace: 1000 copies in 1 thread of 1 process' '$err' && ! grep -q 'no copies' '$err'"
# A program's own handler is left to it: it exits 5, and its record is
# written at exit as always.
stop own TERM ucopy own-handler
expect "trace_stop: a program that handles SIGTERM itself keeps its handler (exit 5) and its copies" \
	sh -c "[ $rc -eq 5 ] && [ $(copies own more) = yes ]"
# An ignored signal stays ignored: nohup's SIGHUP does not stop the server,
# SIGTERM then does.
env --default-signal=INT nohup "$UCOPY" trace -o "$tmp/nohup" -- "$prog" 1000 "$tmp/nohup.ready" >"$out" 2>"$err" &
pid=$!
i=0
while [ ! -s "$tmp/nohup.ready" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
kill -HUP "$(cat "$tmp/nohup.ready")"
sleep 0.2
kill -TERM "$pid"
wait "$pid"
rc=$?
expect "trace_stop: a SIGHUP the program inherited ignored stays ignored" \
	sh -c "[ $rc -eq 143 ] && [ $(copies nohup) = yes ]"
# SIGKILL leaves no record, and ucopy says so.
stop kill KILL prog
expect "trace_stop: SIGKILL: nothing written, exit 1, the reason" \
	sh -c "[ $rc -eq 1 ] && grep -q 'no copies were recorded' '$err' && [ ! -e '$tmp/kill.seq' ]"

# ready FILE...: waits (10 s at most) for the servers to write their pids.
ready() {
	for f in "$@"; do
		i=0
		while [ ! -s "$f" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	done
}

if ! env --default-signal=INT true 2>/dev/null || ! command -v setsid >/dev/null 2>&1; then
	echo "SKIP trace_stop: ^C to a program's processes: needs env --default-signal and setsid"
else
	# ^C reaches every process of the program: the one ucopy started,
	# with a small record, ends first; ucopy used to merge at once,
	# without the record its background child was still writing, and
	# succeed.  It now waits for records being written.
	# (A shell's background job starts with SIGINT ignored: env gives
	# the child its default back.)
	setsid env --default-signal=INT "$UCOPY" trace -o "$tmp/fork" -- sh -c \
		"env --default-signal=INT \"$prog\" 1000000 \"$tmp/fork.big\" &
		 exec \"$prog\" 10 \"$tmp/fork.ready\"" >"$out" 2>"$err" &
	pid=$!
	ready "$tmp/fork.big" "$tmp/fork.ready"
	pgid=$(cut -d' ' -f5 "/proc/$(cat "$tmp/fork.ready")/stat")
	kill -INT "-$pgid"
	wait "$pid"
	rc=$?
	expect "trace_stop: ^C to a program and its child: both records merged, exit 130" \
		sh -c "[ $rc -eq 130 ] && [ \$(grep -c '^[01] 3001 ' '$tmp/fork.seq') -eq 1000010 ] &&
		       grep -q '^ucopy trace: 1000010 copies in 2 threads of 2 processes' '$err' &&
		       ! grep -q 'still writing\|cannot write' '$err' &&
		       [ -z \"\$(ls -d '$tmp/fork'.parts.* 2>/dev/null)\" ]"

	# A second signal while ucopy merges used to kill it: no output, the
	# records left behind.  It is held until the files are written.
	env --default-signal=INT "$UCOPY" trace -o "$tmp/twice" -- "$prog" 1000000 "$tmp/twice.ready" \
		>"$out" 2>"$err" &
	pid=$!
	ready "$tmp/twice.ready"
	server=$(cat "$tmp/twice.ready")
	kill -INT "$server"
	while [ -e "/proc/$server" ]; do sleep 0.01; done
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	expect "trace_stop: a second SIGINT, to ucopy while it merges, waits for the files: exit 130" \
		sh -c "[ $rc -eq 130 ] && [ \$(grep -c '^0 3001 ' '$tmp/twice.seq') -eq 1000000 ] &&
		       [ -s '$tmp/twice.llvm.csv' ] && grep -q 'written first' '$err' &&
		       grep -q '^ucopy trace: 1000000 copies in 1 thread of 1 process' '$err' &&
		       [ -z \"\$(ls -d '$tmp/twice'.parts.* 2>/dev/null)\" ]"

	# A record that stays NAME.tmp (its writer stopped, or still at it):
	# ucopy waits for it to grow, and a signal to ucopy ends the wait; the
	# directory is kept for it, and named, rather than removed under a
	# process that would then fail to write.
	env --default-signal=INT "$UCOPY" trace -o "$tmp/stall" -- sh -c \
		"printf x >\"\$UCOPY_TRACE_OUT.1.seq.tmp\"; exec \"$prog\" 10 \"$tmp/stall.ready\"" \
		>"$out" 2>"$err" &
	pid=$!
	ready "$tmp/stall.ready"
	start=$(date +%s)
	kill -TERM "$pid"
	sleep 0.5
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	took=$(($(date +%s) - start))
	expect "trace_stop: a record being written: waited for, until a second signal; its directory kept and named" \
		sh -c "[ $rc -eq 143 ] && [ $took -lt 4 ] && [ \$(grep -c '^0 3001 ' '$tmp/stall.seq') -eq 10 ] &&
		       grep -q 'p.1.seq.tmp left out' '$err' &&
		       grep -q 'stall.parts.* is left: a process is still writing its record there, or was killed writing it (p.1.seq.tmp)' '$err' &&
		       [ \"\$(ls '$tmp'/stall.parts.*)\" = p.1.seq.tmp ]"
fi

# ... and without a second signal the wait ends 5 s after the record last
# grew, and says so.
start=$(date +%s)
"$UCOPY" trace -o "$tmp/stuck" -- sh -c \
	"printf x >\"\$UCOPY_TRACE_OUT.1.seq.tmp\"; exec \"$B/tests/trace_prog\"" >"$out" 2>"$err"
rc=$?
took=$(($(date +%s) - start))
expect "trace_stop: a record that stops growing is waited for 5 s, then left out, and said so (${took} s)" \
	sh -c "[ $rc -eq 0 ] && [ $took -ge 4 ] && [ $took -lt 15 ] &&
	       grep -q '^ucopy trace: 1 record still being written after 5 s (not growing): merging without it' '$err' &&
	       grep -q 'p.1.seq.tmp left out' '$err' && [ -s '$tmp/stuck.seq' ]"
