/*
 * test_once.c - lock-free first use (lib/once.c): more first uses at once
 * than static slots, nested as handlers on one thread nest, never wait.
 */
#include "check.h"
#include "internal.h"

#include <string.h>
#include <unistd.h>

struct thing {
	int value;
	char pad[100];
};

static struct thing slots[2];
static struct ucopy_once once = UCOPY_ONCE(slots);
static int depth, fills;
static void *inner[8];

/* Each fill starts another first use below it, as a signal handler that
 * interrupts resolution would, five deep: past the two static slots. */
static void fill(void *slot)
{
	struct thing *t = slot;
	fills++;
	if (depth < 5) {
		int d = depth++;
		inner[d] = ucopy_once(&once, fill, NULL);
		depth--;
	}
	t->value = 42;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	alarm(10);   /* a wait for ever ends as SIGALRM */
	int won = -1;
	struct thing *t = ucopy_once(&once, fill, &won);
	CHECK(t && t->value == 42, "the published value is %d", t ? t->value : -1);
	CHECK(fills == 6, "%d fills, want 6 (one per level)", fills);
	for (int i = 0; i < 5; i++)
		CHECK(inner[i] == inner[4], "level %d got another published slot", i);
	CHECK(won == 0, "the outermost call published though the innermost finished first");
	CHECK(ucopy_once(&once, fill, NULL) == (void *)inner[4] && fills == 6,
	      "a later call does not return the published slot without filling");
	check_group("once: nested first uses beyond the static slots never wait");
	return check_exit();
}
