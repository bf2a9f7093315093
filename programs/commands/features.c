/*
 * features.c - `ucopy features`: what libucopy detected and what it chose.
 */
#include "cli.h"
#include "json.h"
#include "machine.h"
#include "output.h"
#include "ucopy.h"

#include <stdlib.h>
#include <string.h>

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
	      "           calibration profile looked at, or \"\"), version\n", f);
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

int cmd_features(int argc, char **argv)
{
	int json = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (argv[i][0] == '-')
			return cli_usage_error("features", "unknown option '%s'", argv[i]);
		else
			return cli_usage_error("features", "unexpected argument '%s'", argv[i]);
	}
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
