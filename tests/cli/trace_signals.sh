# What a traced program sees of the interposer's stop handler
# (preload/preload.c): SIGINT, SIGTERM and SIGHUP read as the SIG_DFL it
# inherited, a handler it installs replaces the interposer's and runs, and a
# fork leaves the signal mask as it was, in parent and child.
. "$(dirname "$0")/lib.sh"

needs_preload trace_signals
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT
cc=${CC:-cc}

if ! command -v "$cc" >/dev/null 2>&1; then
	echo "SKIP trace_signals: the program's view of its signals: no C compiler ($cc)"
else
	cat >"$tmp/view.c" <<'C'
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t got;
static void on_int(int sig) { got = sig; }

/* 0 when the mask holds SIGHUP (set below) and none of SIGINT, SIGTERM. */
static int mask_as_set(void)
{
	sigset_t m;
	sigprocmask(SIG_SETMASK, NULL, &m);
	return !(sigismember(&m, SIGHUP) && !sigismember(&m, SIGINT) &&
		 !sigismember(&m, SIGTERM));
}

int main(int argc, char **argv)
{
	static char a[3000], b[3000];
	void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
	struct sigaction old, sa = { .sa_handler = on_int };
	cpy(a, b, sizeof a);
	(void)argv;
	if (argc > 1) {
		/* SIG_DFL set again: under trace, still the record first. */
		if (signal(SIGINT, SIG_DFL) != SIG_DFL)
			return printf("signal: SIGINT's old handler is not SIG_DFL\n"), 1;
		printf("dying\n");
		fflush(stdout);
		raise(SIGINT);
		return printf("SIGINT did not end the program\n"), 1;
	}
	if (sigaction(SIGINT, NULL, &old) || old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO))
		return printf("sigaction: SIGINT does not read as SIG_DFL\n"), 1;
	if (signal(SIGTERM, SIG_IGN) != SIG_DFL)
		return printf("signal: SIGTERM's old handler is not SIG_DFL\n"), 1;
	if (sigaction(SIGTERM, NULL, &old) || old.sa_handler != SIG_IGN)
		return printf("signal: SIGTERM is not ignored after signal(SIG_IGN)\n"), 1;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, &old) || old.sa_handler != SIG_DFL)
		return printf("sigaction: installing a SIGINT handler\n"), 1;
	if (sigaction(SIGINT, NULL, &old) || old.sa_handler != on_int)
		return printf("sigaction: SIGINT does not read as the program's handler\n"), 1;
	raise(SIGINT);
	if (got != SIGINT)
		return printf("the program's SIGINT handler did not run\n"), 1;
	sigset_t hup;
	sigemptyset(&hup);
	sigaddset(&hup, SIGHUP);
	sigprocmask(SIG_BLOCK, &hup, NULL);
	pid_t p = fork();
	if (p == 0)
		_exit(mask_as_set());
	int st;
	if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st))
		return printf("fork: the child's signal mask is not the parent's\n"), 1;
	if (mask_as_set())
		return printf("fork: the parent's signal mask changed\n"), 1;
	cpy(a, b, 100);
	printf("ok\n");
	return 0;
}
C
	if ! "$cc" -O1 -o "$tmp/view" "$tmp/view.c" 2>"$err"; then
		echo "SKIP trace_signals: the program's view of its signals: $cc failed"
	else
		# The interposer's handler is installed where the program's
		# SIGINT is at its default, which a script's background job's
		# is not.
		env --default-signal=INT "$UCOPY" trace -o "$tmp/view" -- "$tmp/view" >"$out" 2>"$err"
		rc=$?
		expect "trace_signals: SIGINT reads as SIG_DFL; the program's own handler replaces the interposer's and runs" \
			sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$out')\" = ok ]"
		expect "trace_signals: ... and the record is written at exit, as the program ends by exit" \
			sh -c "grep -q '^0 3000 ' '$tmp/view.seq' && grep -q '^0 100 ' '$tmp/view.seq'"
		env --default-signal=INT "$UCOPY" trace -o "$tmp/dfl" -- "$tmp/view" dfl >"$out" 2>"$err"
		rc=$?
		expect "trace_signals: SIG_DFL set again by the program: SIGINT still writes the record first, exit 130" \
			sh -c "[ $rc -eq 130 ] && [ \"\$(cat '$out')\" = dying ] && grep -q '^0 3000 ' '$tmp/dfl.seq'"
	fi
fi

# Python installs its KeyboardInterrupt handler only over SIG_DFL: under
# trace it saw the interposer's handler, and a ^C killed it with no
# KeyboardInterrupt, no cleanup.
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP trace_signals: Python's KeyboardInterrupt: no python3"
else
	cat >"$tmp/kbi.py" <<'PY'
import os, signal, sys, time
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)
    print("no KeyboardInterrupt")
except KeyboardInterrupt:
    print("KeyboardInterrupt")
    sys.exit(0)
PY
	env --default-signal=INT "$UCOPY" trace -o "$tmp/py" -- python3 "$tmp/kbi.py" >"$out" 2>"$err"
	rc=$?
	expect "trace_signals: Python raises KeyboardInterrupt on SIGINT under trace, and its record is written" \
		sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$out')\" = KeyboardInterrupt ] && [ -s '$tmp/py.seq' ]"
fi
