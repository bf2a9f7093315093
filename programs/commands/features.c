/*
 * features.c - `ucopy features`: what libucopy detected and what it chose.
 */
#include "cli.h"
#include "json.h"
#include "machine.h"
#include "output.h"
#include "ucopy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void help_features(FILE *f)
{
	fputs("usage: ucopy features [--json]\n\n"
	      "Prints the CPU, every copy-relevant feature as present or absent, the\n"
	      "data caches, the kernels this CPU can run, and the policy ucopy_memcpy\n"
	      "uses with where it came from (default, UCOPY_POLICY, or a profile) and,\n"
	      "when a setting was rejected, why.  A UCOPY_POLICY, UCOPY_PROFILE or\n"
	      "UCOPY_FEATURES that the library ignores, or a UCOPY_POLICY naming a\n"
	      "kernel this CPU does not run, is shown, then refused (exit 2).\n\n"
	      "  --json   one JSON object: cpu {arch, vendor, family, model, stepping,\n"
	      "           brand}, features [names present], caches {l1d, l2, l3} in\n"
	      "           bytes, kernels [{name, supported}], features_mask (what\n"
	      "           UCOPY_FEATURES did), auto_row (auto's row for this CPU and\n"
	      "           why), policy, policy_source, policy_reason, profile (the\n"
	      "           calibration profile looked at, or \"\"), version\n\n"
	      "usage: ucopy features --cpu VENDOR:FAMILY:MODEL [--assume-features LIST]\n"
	      "                      [--caches L2,L3] [--json]\n\n"
	      "Prints the policy auto would choose on that CPU, and the row it came\n"
	      "from, without the CPU at hand.  VENDOR is amd, intel (or the CPUID\n"
	      "strings AuthenticAMD, GenuineIntel), or on aarch64 the MIDR implementer\n"
	      "(0x41); FAMILY and MODEL decimal or 0x-hex (on aarch64 FAMILY is 0 and\n"
	      "MODEL the MIDR part).\n\n"
	      "  --assume-features LIST  the CPU's features: erms,-fsrm changes this\n"
	      "           machine's, none,sse2,avx2,erms is the whole set (default: this\n"
	      "           machine's, which the output says)\n"
	      "  --caches L2,L3  its cache sizes (1M,32M; 0 for unknown, the default:\n"
	      "           the streaming threshold then falls back to 32 MiB)\n", f);
}

static void print_json(const struct ucopy_cpu *c, const char *policy,
		       const char *why, const struct ucopy_active *a)
{
	struct json j;
	json_init(&j, stdout, 1);
	json_begin_object(&j);
	machine_json_cpu(&j);
	json_key(&j, "kernels");
	json_begin_array(&j);
	for (size_t i = 0; i < ucopy_kernel_count(); i++) {
		const struct ucopy_kernel *k = ucopy_kernel_at(i);
		json_begin_object(&j);
		json_key(&j, "name"); json_string(&j, k->name);
		json_key(&j, "supported");
		json_bool(&j, ucopy_kernel_supported(k, c->features));
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "features_mask"); json_string(&j, c->mask_note);
	json_key(&j, "auto_row"); json_string(&j, why);
	json_key(&j, "policy"); json_string(&j, policy);
	json_key(&j, "policy_source"); json_string(&j, ucopy_source_name(a->source));
	json_key(&j, "policy_reason"); json_string(&j, a->reason);
	json_key(&j, "profile"); json_string(&j, a->profile);
	json_key(&j, "version"); json_string(&j, ucopy_version_string());
	json_end_object(&j);
	json_finish(&j);
}

static void print_text(const struct ucopy_cpu *c, const char *policy,
		       const char *why, const struct ucopy_active *a)
{
	char l1[16], l2[16], l3[16];
	/* The brand, the profile's path and the reason (which quotes
	 * UCOPY_POLICY and profile lines) come from outside: escaped, so that
	 * no control byte in them reaches the terminal. */
	fputs("cpu       ", stdout);
	fput_escaped(c->brand[0] ? c->brand : "unknown", stdout);
	putchar('\n');
	printf("          %s %s, family %u model %u stepping %u\n", c->arch,
	       c->vendor, c->family, c->model, c->stepping);
	printf("features ");
	unsigned shown = 0;
	for (unsigned b = 0; b < UCOPY_FEAT_COUNT; b++) {
		if (!ucopy_feature_name(b))
			continue;   /* another architecture's bit */
		if (shown && shown % 5 == 0)
			printf("\n         ");
		shown++;
		printf(" %-13s %-4s", ucopy_feature_name(b),
		       c->features & (UINT64_C(1) << b) ? "yes"
		       : c->detected & (UINT64_C(1) << b) ? "off" : "no");
	}
	if (c->mask_note[0]) {
		fputs("\nmask      ", stdout);
		fput_escaped_message(c->mask_note, stdout);
	}
	ucopy_size_format(c->l1d, l1, sizeof l1);
	ucopy_size_format(c->l2, l2, sizeof l2);
	ucopy_size_format(c->l3, l3, sizeof l3);
	printf("\ncaches    L1d %s, L2 %s, L3 %s\n", l1, l2, l3);
	printf("kernels  ");
	for (size_t i = 0; i < ucopy_kernel_count(); i++) {
		const struct ucopy_kernel *k = ucopy_kernel_at(i);
		printf(" %s%s", k->name,
		       ucopy_kernel_supported(k, c->features) ? "" : "(unsupported)");
	}
	printf("\npolicy    %s\n", policy);
	printf("auto      %s\n", why);
	printf("source    %s", ucopy_source_name(a->source));
	if (a->source == UCOPY_SOURCE_DEFAULT)
		printf(" (auto)");
	else if (a->source == UCOPY_SOURCE_PROFILE) {
		fputs(" (", stdout);
		fput_escaped(a->profile, stdout);
		putchar(')');
	}
	printf("\n");
	if (a->reason[0]) {
		fputs("reason    ", stdout);
		fput_escaped_message(a->reason, stdout);
		putchar('\n');
	}
}

#define CMD "features"

/* "amd", "intel" or a CPUID vendor string on x86-64; the MIDR implementer
 * as ucopy_cpu() writes it ("0x41") on aarch64.
 * @return : 0, or -1 when s names none. */
static int parse_vendor(const char *arch, const char *s, size_t n, char *out, size_t len)
{
	static const char *const x86[][2] = { { "amd", "AuthenticAMD" },
					      { "intel", "GenuineIntel" } };
	if (!strcmp(arch, "x86_64")) {
		for (size_t i = 0; i < 2; i++)
			if ((n == strlen(x86[i][0]) && !strncasecmp(s, x86[i][0], n)) ||
			    (n == strlen(x86[i][1]) && !strncmp(s, x86[i][1], n))) {
				snprintf(out, len, "%s", x86[i][1]);
				return 0;
			}
		return -1;
	}
	unsigned long v;
	char *end;
	if (n < 3 || n > 6 || strncmp(s, "0x", 2))
		return -1;
	v = strtoul(s + 2, &end, 16);
	if (end != s + n || v > 0xff)
		return -1;
	snprintf(out, len, "0x%02lx", v);
	return 0;
}

/* A family or model: decimal (a leading 0 too: not octal) or 0x-hex, at
 * most 0xffff. */
static int parse_id(const char *s, size_t n, unsigned *out)
{
	char buf[16], *end;
	if (n == 0 || n >= sizeof buf || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	int hex = n > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');
	if (hex && (buf[2] == '-' || buf[2] == '+' || buf[2] == ' '))
		return -1;
	unsigned long v = strtoul(hex ? buf + 2 : buf, &end, hex ? 16 : 10);
	if (*end || v > 0xffff)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* --cpu VENDOR:FAMILY:MODEL into c (arch: the library's). */
static int parse_cpu(const char *spec, struct ucopy_cpu *c)
{
	const char *a = strchr(spec, ':'), *b = a ? strchr(a + 1, ':') : NULL;
	memset(c, 0, sizeof *c);
	snprintf(c->arch, sizeof c->arch, "%s", ucopy_cpu()->arch);
	if (!a || !b || strchr(b + 1, ':') ||
	    parse_vendor(c->arch, spec, (size_t)(a - spec), c->vendor, sizeof c->vendor) < 0 ||
	    parse_id(a + 1, (size_t)(b - a - 1), &c->family) < 0 ||
	    parse_id(b + 1, strlen(b + 1), &c->model) < 0)
		return cli_usage_error(CMD, "bad --cpu '%s' (expected VENDOR:FAMILY:MODEL, %s)", spec,
				       strcmp(c->arch, "x86_64") ? "VENDOR the MIDR implementer as 0x41"
								  : "VENDOR amd or intel: amd:25:17");
	return 0;
}

/* --caches L2,L3 into c. */
static int parse_caches(const char *spec, struct ucopy_cpu *c)
{
	const char *comma = strchr(spec, ',');
	char l2[32];
	if (comma && (size_t)(comma - spec) < sizeof l2) {
		memcpy(l2, spec, (size_t)(comma - spec));
		l2[comma - spec] = 0;
		if (ucopy_size_parse(l2, &c->l2, NULL, 0) == 0 &&
		    ucopy_size_parse(comma + 1, &c->l3, NULL, 0) == 0)
			return 0;
	}
	return cli_usage_error(CMD, "bad --caches '%s' (expected L2,L3 sizes: 1M,32M; 0 for unknown)",
			       spec);
}

/* `ucopy features --cpu`: auto's choice for the CPU described. */
static int described(const char *spec, const char *assume, const char *caches, int json)
{
	struct ucopy_cpu c;
	char feats[512], l2[16], l3[16];
	int rc = parse_cpu(spec, &c);
	if (rc)
		return rc;
	if (caches && (rc = parse_caches(caches, &c)))
		return rc;
	c.features = ucopy_cpu()->features;
	if (assume && cli_parse_assume(CMD, assume, &c.features))
		return EXIT_USAGE;
	c.detected = c.features;
	char policy[256];
	int n = ucopy_auto_for(&c, policy, sizeof policy, NULL, 0);
	char *why = n < 0 ? NULL : malloc((size_t)n + 1);
	if (!why) {
		cli_error(n < 0 ? "the library cannot describe a %s CPU" : "out of memory", c.arch);
		return EXIT_FAIL;
	}
	ucopy_auto_for(&c, NULL, 0, why, (size_t)n + 1);
	const char *from = assume ? "assumed"
			   : "this machine's, not necessarily that CPU's: give --assume-features";
	if (json) {
		struct json j;
		json_init(&j, stdout, 1);
		json_begin_object(&j);
		json_key(&j, "cpu");
		json_begin_object(&j);
		json_key(&j, "arch"); json_string(&j, c.arch);
		json_key(&j, "vendor"); json_string(&j, c.vendor);
		json_key(&j, "family"); json_uint(&j, c.family);
		json_key(&j, "model"); json_uint(&j, c.model);
		json_end_object(&j);
		json_key(&j, "features");
		json_begin_array(&j);
		for (unsigned bit = 0; bit < UCOPY_FEAT_COUNT; bit++)
			if ((c.features >> bit & 1) && ucopy_feature_name(bit))
				json_string(&j, ucopy_feature_name(bit));
		json_end_array(&j);
		json_key(&j, "features_from"); json_string(&j, from);
		json_key(&j, "caches");
		json_begin_object(&j);
		json_key(&j, "l2"); json_uint(&j, c.l2);
		json_key(&j, "l3"); json_uint(&j, c.l3);
		json_end_object(&j);
		json_key(&j, "auto_row"); json_string(&j, why);
		json_key(&j, "policy"); json_string(&j, policy);
		json_key(&j, "version"); json_string(&j, ucopy_version_string());
		json_end_object(&j);
		json_finish(&j);
	} else {
		ucopy_features_format(c.features, " ", feats, sizeof feats);
		ucopy_size_format(c.l2, l2, sizeof l2);
		ucopy_size_format(c.l3, l3, sizeof l3);
		printf("cpu       %s %s, family %u model %u (described, not this machine)\n", c.arch,
		       c.vendor, c.family, c.model);
		printf("features  %s (%s)\n", feats, from);
		printf("caches    L2 %s, L3 %s%s\n", c.l2 ? l2 : "unknown", c.l3 ? l3 : "unknown",
		       c.l3 || strcmp(c.arch, "x86_64") ? ""
						: " (the streaming threshold falls back to 32 MiB)");
		printf("policy    %s\n", policy);
		printf("auto      %s\n", why);
	}
	free(why);
	return EXIT_OK;
}

int cmd_features(int argc, char **argv)
{
	int json = 0;
	const char *cpu = NULL, *assume = NULL, *caches = NULL;
	for (int i = 1; i < argc; i++) {
		int rc = 0;
		const char *v;
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--cpu", 0, &rc)))
			cpu = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--assume-features", 0, &rc)))
			assume = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--caches", 0, &rc)))
			caches = v;
		else if (!rc && argv[i][0] == '-')
			return cli_usage_error(CMD, "unknown option '%s'", argv[i]);
		else if (!rc)
			return cli_usage_error(CMD, "unexpected argument '%s'", argv[i]);
		if (rc)
			return rc;
	}
	if (!cpu && (assume || caches))
		return cli_usage_error(CMD, "%s describes the CPU --cpu names (expected --cpu "
				       "VENDOR:FAMILY:MODEL)", assume ? "--assume-features" : "--caches");
	if (cpu)
		return described(cpu, assume, caches, json);
	const struct ucopy_cpu *c = ucopy_cpu();
	const struct ucopy_active *a = ucopy_active();
	/* Both whole, however long: sixteen rules with 20-digit limits, or a
	 * row's reasons with a mask's ending, pass 512 bytes. */
	size_t np = ucopy_policy_format(a->policy, NULL, 0) + 1;
	size_t nw = ucopy_auto_explain(NULL, 0) + 1;
	char *policy = malloc(np), *why = malloc(nw);
	if (!policy || !why) {
		free(policy);
		free(why);
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	ucopy_policy_format(a->policy, policy, np);
	ucopy_auto_explain(why, nw);
	if (json)
		print_json(c, policy, why, a);
	else
		print_text(c, policy, why, a);
	free(policy);
	free(why);
	/* The report first, for the reason it gives; then the same refusal
	 * as every other command's (main() checks that stdout was written). */
	return cli_env_check(CLI_ENV_CHECK | CLI_ENV_PROFILE);
}
