/*
 * test_default_row.c - the default row's shape, stated twice: by the library
 * (ucopy_arch_default_row, lib/x86_64/policies.c), which runs it, and by the
 * derivation (default_row_policy, programs/core/default_row.c), which
 * judges its limits on the corpus.  For CPUs of every kind of feature set
 * and cache, and every limit the derivation may choose and more, the two
 * write the same policy.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "default_row.h"
#include "ucopy.h"
#ifdef UCOPY_PORT_x86_64
#include "x86_64.h"
#endif

#define K ((size_t)1 << 10)
#define M ((size_t)1 << 20)

int main(void)
{
#ifndef UCOPY_PORT_x86_64
	check_skip("default row: both statements agree", "the default row's shape is x86-64's");
	return check_exit();
#else
	static const char *const features[] = {
		"sse2,avx,avx2,avx512f,avx512bw,avx512vl,avx_vnni,erms,fsrm,rep_good",
		"sse2,avx,avx2,avx512f,avx512bw,avx512vl,erms,fsrm,rep_good",
		"sse2,avx,avx2,erms,rep_good",
		"sse2,avx,avx2",
		"sse2,erms",
		"sse2",
	};
	static const char *const vendors[] = { "AuthenticAMD", "GenuineIntel", "HygonGenuine" };
	static const size_t caches[][2] = { { 0, 0 }, { 512 * K, 16 * M }, { 1 * M, 32 * M },
					    { 2 * M, 320 * M }, { 1 * M, 508 * M }, { 256 * K, 3 * M } };
	static const size_t limits[] = { 100, 256, 512, 1 * K, 1536, 2 * K, 4 * K, 8 * K,
					 16 * K, 25 * K, 32 * K, 64 * K };
	unsigned tried = 0;
	for (size_t fi = 0; fi < sizeof features / sizeof features[0]; fi++)
		for (size_t vi = 0; vi < sizeof vendors / sizeof vendors[0]; vi++)
			for (size_t ci = 0; ci < sizeof caches / sizeof caches[0]; ci++) {
				struct corpus_report r;
				char err[256], want[256], got[256], list[256];
				memset(&r, 0, sizeof r);
				snprintf(r.cpu.arch, sizeof r.cpu.arch, "x86_64");
				snprintf(r.cpu.vendor, sizeof r.cpu.vendor, "%s", vendors[vi]);
				r.cpu.family = 0x42;
				r.cpu.model = 1;
				r.cpu.l2 = caches[ci][0];
				r.cpu.l3 = caches[ci][1];
				snprintf(list, sizeof list, "none,%s", features[fi]);
				if (ucopy_features_parse(list, 0, &r.cpu.features, err, sizeof err)) {
					CHECK(0, "features '%s': %s", list, err);
					continue;
				}
				r.cpu.detected = r.cpu.features;
				for (size_t a = 0; a < sizeof limits / sizeof limits[0]; a++)
					for (size_t b = 0; b < sizeof limits / sizeof limits[0]; b++)
						for (unsigned q = 0; q <= 8; q++) {
							struct default_limits dl = { limits[a], limits[b], q };
							struct ucopy_default_limits ll = { limits[a], limits[b], q };
							struct ucopy_policy p;
							if (default_row_policy(&r, &dl, &p, err, sizeof err)) {
								CHECK(0, "%s %s: %s", vendors[vi], list, err);
								continue;
							}
							ucopy_policy_fit(&p, r.cpu.features, NULL, 0);
							ucopy_policy_format(&p, want, sizeof want);
							ucopy_arch_default_row(&r.cpu, r.cpu.features, &ll,
									       got, sizeof got);
							tried++;
							CHECK(!strcmp(want, got),
							      "%s %s, L2 %zu L3 %zu, limits %zu %zu %u: "
							      "derivation '%s', library '%s'", vendors[vi],
							      list, caches[ci][0], caches[ci][1], limits[a],
							      limits[b], q, want, got);
						}
			}
	CHECK(tried > 10000, "only %u cases", tried);
	check_group("default row: the derivation's statement of its shape is the library's");
	return check_exit();
#endif
}
