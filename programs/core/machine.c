/*
 * machine.c - describing the machine next to every result.
 */
#include "machine.h"
#include "output.h"
#include "ucopy.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifndef UCOPY_CFLAGS
#define UCOPY_CFLAGS "unknown"
#endif

void machine_cpu_line(char *buf, size_t len)
{
	const struct ucopy_cpu *c = ucopy_cpu();
	char l1[16], l2[16], l3[16];
	ucopy_size_format(c->l1d, l1, sizeof l1);
	ucopy_size_format(c->l2, l2, sizeof l2);
	ucopy_size_format(c->l3, l3, sizeof l3);
	snprintf(buf, len, "%s (%s %u/%u/%u), L1d %s L2 %s L3 %s",
		 c->brand[0] ? c->brand : "unknown CPU", c->vendor, c->family,
		 c->model, c->stepping, l1, l2, l3);
}

const char *machine_emulator(void)
{
	static char path[512];
	ssize_t n = readlink("/proc/thread-self/exe", path, sizeof path - 1);
	if (n <= 0)
		return NULL;
	path[n] = 0;
	const char *base = strrchr(path, '/');
	return strncmp(base ? base + 1 : path, "qemu-", 5) ? NULL : path;
}

const char *machine_kernel(void)
{
	static char release[sizeof ((struct utsname *)0)->release + 16];
	struct utsname u;
	if (!release[0])
		snprintf(release, sizeof release, "%s",
			 uname(&u) == 0 ? u.release : "unknown");
	return release;
}

const char *machine_compiler(void)
{
#if defined(__clang__)
	return "clang " __clang_version__;
#elif defined(__GNUC__)
	return "gcc " __VERSION__;
#else
	return "unknown";
#endif
}

const char *machine_cflags(void)
{
	return UCOPY_CFLAGS;
}

/* The Makefile passes `git describe`'s answer for the checkout it builds. */
#ifndef UCOPY_COMMIT
#define UCOPY_COMMIT "unknown"
#endif

const char *machine_commit(void)
{
	return UCOPY_COMMIT;
}

void machine_json_cpu(struct json *j)
{
	const struct ucopy_cpu *c = ucopy_cpu();
	json_key(j, "cpu");
	json_begin_object(j);
	json_key(j, "arch"); json_string(j, c->arch);
	json_key(j, "vendor"); json_string(j, c->vendor);
	json_key(j, "family"); json_uint(j, c->family);
	json_key(j, "model"); json_uint(j, c->model);
	json_key(j, "stepping"); json_uint(j, c->stepping);
	json_key(j, "brand"); json_string(j, c->brand);
	json_end_object(j);
	json_key(j, "features");
	machine_json_features(j, c->features);
	json_key(j, "caches");
	json_begin_object(j);
	json_key(j, "l1d"); json_uint(j, c->l1d);
	json_key(j, "l2"); json_uint(j, c->l2);
	json_key(j, "l3"); json_uint(j, c->l3);
	json_end_object(j);
}

void machine_json_features(struct json *j, uint64_t set)
{
	json_begin_array(j);
	for (unsigned b = 0; b < UCOPY_FEAT_COUNT; b++)
		if (set & (UINT64_C(1) << b) && ucopy_feature_name(b))
			json_string(j, ucopy_feature_name(b));
	json_end_array(j);
}

void machine_json(struct json *j)
{
	char date[32];
	time_t now = time(NULL);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));

	json_begin_object(j);
	machine_json_cpu(j);
	json_key(j, "kernel"); json_string(j, machine_kernel());
	json_key(j, "compiler"); json_string(j, machine_compiler());
	json_key(j, "cflags"); json_string(j, machine_cflags());
	json_key(j, "date"); json_string(j, date);
	/* null on a real CPU: a reader must be able to tell emulated timings. */
	json_key(j, "emulator"); json_string(j, machine_emulator());
	json_end_object(j);
}
