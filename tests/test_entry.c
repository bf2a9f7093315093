/*
 * test_entry.c - the entries of ucopy_memcpy and ucopy_try (x86-64:
 * kernels/x86_64/entry.S, KERNEL_ENTRY in asm.h; aarch64:
 * kernels/aarch64/entry.S, the generic entry's words only).
 *
 * Each case runs in a child, because the active policy is resolved once per
 * process: it sets UCOPY_POLICY (or not), copies every size 0..600 and some
 * at the rule limits through ucopy_memcpy and ucopy_try, and checks which
 * fast-entry word dispatch.c set and where the generic entry's words send
 * sizes around every limit.  Under the default policy it also checks
 * that the IFUNC resolver (raw CPUID) picks the entry of auto's first
 * kernel: the resolver and x86_64/policies.c's auto must agree, or the default
 * policy silently loses its fast path.
 */
#include "check.h"
#include "internal.h"
#ifdef UCOPY_PORT_x86_64
#include "x86_64.h"
#endif

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(UCOPY_PORT_x86_64) || defined(UCOPY_PORT_aarch64)
#ifdef UCOPY_PORT_x86_64
static const char *const entry_kernel[UCOPY_NENTRIES] = { "sse2", "avx2", "avx512" };
#endif

static unsigned char src[10000], dst[10000];

#ifdef UCOPY_PORT_x86_64
/* The fast entries' layout (asm.h, KERNEL_ENTRY): 13 bytes of compare and
 * branch that run straight into the body, the body's first `head` bytes in
 * the entry's line; the try body placed in its line as the plain one.  A
 * layout that drifts copies correctly and only runs slower, so nothing else
 * would notice (avx512 without its head: ucopy_memcpy's 64 and 128 byte
 * copies took 1.11-1.25x glibc's time instead of 1.03-1.09x, Zen 5 guest;
 * docs/performance.md, "The fast path by lines"; avx2, with its two
 * classes below 32 bytes, laid out as it fell instead of by lines: 1.00-1.16x
 * at 2-24 bytes instead of 0.91-1.01x, Zen 3 guest;
 * docs/performance-zen3.md, "The short paths' lines").  Inside the body,
 * each head is held by an .org line at assembly time (avx2.S, avx512.S). */
#define ENTRY_SYMS(name)                                          \
	extern const unsigned char ucopy_memcpy_##name[] HIDDEN; \
	extern const unsigned char ucopy_try_##name[] HIDDEN
ENTRY_SYMS(sse2);
ENTRY_SYMS(avx2);
ENTRY_SYMS(avx512);

/* With IBT (-fcf-protection) the entry and the body each begin with a
 * 4-byte endbr64 (asm.h, ENDBR). */
#if defined(__CET__) && (__CET__ & 1)
#define ENDBR_LEN 4
#else
#define ENDBR_LEN 0
#endif

static void layout(void)
{
	static const struct {
		const char *name;
		const unsigned char *entry, *try_entry;
		const void *body, *try_body;
		unsigned head;
	} e[] = {
		{ "sse2", ucopy_memcpy_sse2, ucopy_try_sse2, (const void *)ucopy_k_sse2,
		  (const void *)ucopy_t_sse2, 0 },
		{ "avx2", ucopy_memcpy_avx2, ucopy_try_avx2, (const void *)ucopy_k_avx2,
		  (const void *)ucopy_t_avx2, 45 },
		{ "avx512", ucopy_memcpy_avx512, ucopy_try_avx512,
		  (const void *)ucopy_k_avx512, (const void *)ucopy_t_avx512, 13 },
	};
	for (size_t i = 0; i < sizeof e / sizeof e[0]; i++) {
		uintptr_t body = (uintptr_t)e[i].body, try_body = (uintptr_t)e[i].try_body;
		CHECK((uintptr_t)e[i].entry + 13 + ENDBR_LEN == body, "%s: the entry is not "
		      "%d bytes before the body", e[i].name, 13 + ENDBR_LEN);
		CHECK((uintptr_t)e[i].try_entry + 13 + ENDBR_LEN == try_body, "%s: the try entry "
		      "is not %d bytes before the try body", e[i].name, 13 + ENDBR_LEN);
		/* With IBT, avx2's entry, landing pads and head are 66 bytes:
		 * the entry starts a line instead. */
		if (13 + 2 * ENDBR_LEN + e[i].head > 64)
			CHECK((uintptr_t)e[i].entry % 64 == 0, "%s: the entry does not start a "
			      "line", e[i].name);
		else
			CHECK((body + ENDBR_LEN + e[i].head) % 64 == 0, "%s: the body's %u-byte "
			      "head does not end a line (it starts %u bytes into one)", e[i].name,
			      e[i].head, (unsigned)(body % 64));
		CHECK(body % 64 == try_body % 64, "%s: the bodies start %u and %u bytes into "
		      "their lines", e[i].name, (unsigned)(body % 64),
		      (unsigned)(try_body % 64));
	}
	check_group("entry: each fast entry runs into its body, laid out by lines");
}
#endif

static void copies(void)
{
	static const size_t big[] = { 2047, 2048, 2049, 4095, 4096, 4097, 9000 };
	for (size_t i = 0; i < sizeof src; i++)
		src[i] = (unsigned char)(i * 7 + 1);
	for (size_t n = 0; n <= 600 + sizeof big / sizeof big[0]; n++) {
		size_t len = n <= 600 ? n : big[n - 601];
		memset(dst, 0, sizeof dst);
		CHECK(ucopy_memcpy(dst + 1, src + 3, len) == dst + 1, "ret %zu", len);
		CHECK(!memcmp(dst + 1, src + 3, len) && dst[0] == 0 && dst[len + 1] == 0,
		      "memcpy %zu", len);
		memset(dst, 0, sizeof dst);
		CHECK(ucopy_try(dst + 2, src + 5, len) == 0, "try ret %zu", len);
		CHECK(!memcmp(dst + 2, src + 5, len) && dst[1] == 0 && dst[len + 2] == 0,
		      "try %zu", len);
	}
}

#ifdef UCOPY_PORT_x86_64
/* The words after the first copies: only the first kernel's is set, to its
 * limit.  Returns the index of the set one, or -1. */
static int words(void)
{
	const struct ucopy_policy *p = ucopy_active()->policy;
	size_t limit = p->nrules == 1 ? SIZE_MAX : p->rule[0].limit;
	int set = -1;
	for (int i = 0; i < UCOPY_NENTRIES; i++) {
		int mine = !strcmp(p->rule[0].kernel->name, entry_kernel[i]);
		CHECK(ucopy_entry_limit[i] == (mine ? limit : 0), "word %d: %zu", i,
		      ucopy_entry_limit[i]);
		if (ucopy_fault_installed())
			CHECK(ucopy_try_entry_limit[i] == (mine ? limit : 0),
			      "try word %d: %zu", i, ucopy_try_entry_limit[i]);
		if (mine)
			set = i;
	}
	return set;
}
#endif

/* The generic entry's words (entry.S, DISPATCH) send each size to the
 * active policy's kernel for it: a size below the first limit to the first
 * function, below the second to the second, the rest to the impl (the third
 * kernel of a three-rule policy; the rule scan, not checked here, past
 * that).  The same for ucopy_try's words and the try bodies. */
static void routing(void)
{
	const struct ucopy_policy *p = ucopy_active()->policy;
	size_t probe[3 * UCOPY_MAX_RULES + 4];
	size_t np = 0;
	probe[np++] = 0;
	probe[np++] = 1;
	probe[np++] = (size_t)1 << 40;
	for (unsigned i = 0; i + 1 < p->nrules; i++) {
		probe[np++] = p->rule[i].limit - 1;
		probe[np++] = p->rule[i].limit;
		probe[np++] = p->rule[i].limit + 1;
	}
	for (size_t i = 0; i < np; i++) {
		size_t n = probe[i];
		const struct ucopy_kernel *k = ucopy_policy_kernel(p, n);
		int rule = n < ucopy_first_limit ? 0 : n < ucopy_second_limit ? 1 : 2;
		ucopy_kernel_fn fn = rule == 0 ? ucopy_first_fn
				   : rule == 1 ? ucopy_second_fn : ucopy_memcpy_impl;
		if (rule < 2 || p->nrules <= 3)
			CHECK(fn == k->fn, "%zu bytes: word %d's function is not %s's",
			      n, rule, k->name);
		if (!ucopy_fault_installed())
			continue;
		rule = n < ucopy_try_first_limit ? 0 : n < ucopy_try_second_limit ? 1 : 2;
		ucopy_try_fn tf = rule == 0 ? ucopy_try_first_fn
				: rule == 1 ? ucopy_try_second_fn : ucopy_try_impl;
		if (rule < 2 || p->nrules <= 3)
			CHECK(tf == ucopy_kernel_fault_capable(k)->try_fn,
			      "%zu bytes: try word %d's function is not %s's try body",
			      n, rule, k->name);
	}
}

static void child(const char *policy)
{
	if (policy)
		setenv("UCOPY_POLICY", policy, 1);
	else
		unsetenv("UCOPY_POLICY");
	setenv("UCOPY_PROFILE", "", 1);
#ifdef UCOPY_PORT_x86_64
	for (int i = 0; i < UCOPY_NENTRIES; i++)
		CHECK(ucopy_entry_limit[i] == 0, "word %d set before first use", i);
#endif
	copies();
	routing();
#ifdef UCOPY_PORT_x86_64
	int set = words();
	if (!policy && ucopy_cpu()->features == ucopy_cpu()->detected) {
		/* Compare the resolver's choice, not function addresses: a
		 * non-PIC reference to an IFUNC in an executable is its PLT
		 * stub (clang emits one for ucopy_try). */
		CHECK(set >= 0, "auto starts with %s, which has no fast entry",
		      ucopy_active()->policy->rule[0].kernel->name);
		CHECK(ucopy_entry_class() == set,
		      "the resolver picks entry %d, auto starts with %s",
		      ucopy_entry_class(), entry_kernel[set < 0 ? 0 : set]);
	}
	/* Under UCOPY_FEATURES the resolver (raw CPUID, before the C library
	 * is up) may pick the entry of a kernel auto no longer starts with:
	 * that entry's word stays 0 and every size takes the generic path,
	 * which words() checked above. */
#endif
	fflush(stdout);
	_exit(check_failures ? 1 : 0);
}

static void run(const char *name, const char *policy)
{
	pid_t pid = fork();
	if (pid == 0)
		child(policy);
	int st = 0;
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid, "fork/wait");
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x", st);
	check_group(name);
}

#ifdef UCOPY_PORT_aarch64
int main(void)
{
	run("entry: default policy", NULL);
	run("entry: UCOPY_POLICY starting with another kernel", "64:word,ldp");
	run("entry: UCOPY_POLICY with one rule (ldtr)", "ldtr");
	run("entry: UCOPY_POLICY neon then ldp", "100:neon,ldp");
	run("entry: UCOPY_POLICY starting with byte", "8:byte,2K:neon,ldtr");
	run("entry: UCOPY_POLICY with five rules", "16:byte,64:word,1K:neon,8K:ldp,ldtr");
	return check_exit();
}
#else
int main(void)
{
	layout();
	run("entry: default policy takes the fast entry the resolver chose", NULL);
	run("entry: UCOPY_POLICY starting with another kernel", "64:word,movsb");
	run("entry: UCOPY_POLICY with one rule (sse2)", "sse2");
	run("entry: UCOPY_POLICY sse2 then avx2", "100:sse2,avx2");
	run("entry: UCOPY_POLICY starting with byte", "8:byte,2K:sse2,movsq");
	run("entry: UCOPY_POLICY with five rules",
	    "16:byte,64:word,1K:sse2,8K:unrolled,movsq");
	return check_exit();
}
#endif
#else
int main(void)
{
	check_skip("entry", "a port's entries: x86-64 and aarch64 only");
	return 0;
}
#endif
