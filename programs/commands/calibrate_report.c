/*
 * calibrate_report.c - what `ucopy calibrate` prints once the profile is
 * saved: the machine, the policy and the evidence for each of its rules,
 * the cliffs, the gains and what it was verified on (calibrate.h).
 */
#include "calibrate.h"

#include <stdio.h>
#include <string.h>

#include "machine.h"

void calibrate_report(const struct run *r, const char *path)
{
	const struct calibration *cal = &r->cal;
	char text[512], a[32], b[32];

	machine_cpu_line(text, sizeof text);
	printf("machine   %s\n", text);
	ucopy_policy_format(&cal->policy, text, sizeof text);
	printf("policy    %s\n", text);
	char row[768];
	ucopy_auto_explain(row, sizeof row);
	printf("auto      %s\n", row);
	if (!cal->accepted) {
		ucopy_policy_format(&cal->derived, text, sizeof text);
		printf("          auto's: calibration found nothing better (derived %s)\n", text);
	} else {
		ucopy_policy_format(&r->auto_policy, text, sizeof text);
		printf("          (auto is %s)\n", text);
	}
	printf("classes   sizes               kernel       evidence\n");
	for (unsigned i = 0; i < cal->policy.nrules; i++) {
		size_t from = i ? cal->policy.rule[i - 1].limit : 0;
		size_t to = cal->policy.rule[i].limit;
		char range[80];
		ucopy_size_format(from, a, sizeof a);
		ucopy_size_format(to, b, sizeof b);
		if (to == SIZE_MAX)
			snprintf(range, sizeof range, "%s and up", a);
		else
			snprintf(range, sizeof range, "%s .. %s", a, b);
		printf("          %-19s %-12s", range, cal->policy.rule[i].kernel->name);
		if (i < cal->ncross) {
			const struct cal_cross *x = &cal->cross[i];
			if (x->inherited && !cal->accepted) {
				printf(" as auto");
			} else if (x->inherited) {
				ucopy_size_format(x->below, a, sizeof a);
				printf(" as auto (not measured above %s)", a);
			} else {
				printf(" %s/%s:", x->to->name, x->from->name);
				for (unsigned e = 0; e < x->nev; e++) {
					ucopy_size_format(x->ev_size[e], a, sizeof a);
					printf(" %.2f@%s", x->ev_ratio[e], a);
				}
			}
		}
		printf("\n");
	}
	if (cal->ncliffs == 0) {
		const struct cal_effect *worst = NULL;
		for (size_t i = 0; i < cal->neffects; i++)
			if (!worst || cal->effect[i].distance > worst->distance)
				worst = &cal->effect[i];
		if (worst) {
			ucopy_size_format(worst->size, a, sizeof a);
			printf("cliffs    none (worst distance effect %.2fx: %s at %s)\n",
			       worst->distance, worst->kernel->name, a);
		}
	}
	for (size_t i = 0; i < cal->ncliffs; i++) {
		const struct cal_cliff *x = &cal->cliff[i];
		/* The derivation keeps a cliff's kernel away from its size, but
		 * the policy saved may be auto's, or take auto's rule where the
		 * derived one lost, and auto's rules need not. */
		const struct ucopy_kernel *used = ucopy_policy_kernel(&cal->policy, x->size);
		ucopy_size_format(x->size, a, sizeof a);
		printf("%s %s %.1fx slower at %s bytes, (dst - src) mod 4096 = %u: %s\n",
		       i ? "         " : "cliffs   ", x->kernel->name, x->ratio, a,
		       (x->dst - x->src) & 4095,
		       !strcmp(x->kernel->name, "libc") ? "the C library"
		       : used != x->kernel ? "not used there"
		       : cal->accepted ? "used there (auto's rule, where the derived one lost)"
				       : "used there (auto's policy, kept)");
	}
	static const char *const state[CAL_NSTATES] = { "hot  ", "cold ", "mixed" };
	for (int s = 0, first = 1; s < CAL_NSTATES; s++) {
		if (!cal->gain_sizes[s])
			continue;
		printf("%s %s: %.3fx over auto, %.3fx over libc (geometric mean of %u %s)\n",
		       first ? "gain     " : "         ", state[s],
		       cal->gain[CAL_REF_AUTO][s], cal->gain[CAL_REF_LIBC][s],
		       cal->gain_sizes[s], s == CAL_MIXED ? "workloads" : "sizes");
		first = 0;
	}
	if (r->dists_verified)
		printf("verified  on %zu distributions in %s (%s), seed %d, sizes in an "
		       "order no predictor learns\n", r->dists_verified, r->dists.path,
		       r->dists.from, VERIFY_SEED);
	else
		printf("verified  on sizes drawn from 4 classes (no distribution files)\n");
	for (size_t i = 0; r->have_replay && i < cal->nchecks; i++)
		if (!strncmp(cal->check[i].name, "replay:", 7))
			printf("replay    %s (%zu calls): %s %.2f ns a call, auto %.2f, libc %.2f\n",
			       r->replay_path, r->replay.seq.len,
			       cal->accepted ? "calibrated" : "derived (not kept)", cal->check[i].ns,
			       cal->check[i].ref[CAL_REF_AUTO], cal->check[i].ref[CAL_REF_LIBC]);
	for (unsigned i = 0; i < cal->nnotes; i++)
		printf("note      %s\n", cal->notes[i]);
	printf("profile   %s\n", path);
}
