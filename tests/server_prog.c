/*
 * server_prog.c - a server for `ucopy trace` to stop (tests/cli/trace_stop.sh):
 * makes N copies of 3001 bytes, writes its pid to READY, then waits for a
 * signal (30 s at most: SIGALRM ends a test that never sends one).  With
 * "own-handler" it catches SIGTERM itself and exits 5, as a server that
 * shuts down cleanly does.
 * usage: server_prog N READY [own-handler]
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void shut_down(int sig)
{
	(void)sig;
	exit(5);
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	long n = atol(argv[1]);
	static char src[4096], dst[4096];
	void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
	if (argc > 3 && !strcmp(argv[3], "own-handler"))
		signal(SIGTERM, shut_down);
	for (long i = 0; i < n; i++)
		cpy(dst, src, 3001);
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", argv[2]);
	FILE *f = fopen(tmp, "w");
	if (!f || fprintf(f, "%ld\n", (long)getpid()) < 0 || fclose(f) || rename(tmp, argv[2]))
		return 3;
	alarm(30);
	for (;;)
		pause();
}
