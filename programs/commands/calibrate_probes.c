/*
 * calibrate_probes.c - phase 3 of `ucopy calibrate`: each kernel at small
 * distances and misalignments against its control cells, and the cliffs
 * seen twice (calibrate.h).
 */
#include "calibrate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/*=====   3: distance and alignment probes   =====*/

/* A probe cell: the copy runs at src + src_off to dst + dst_off from
 * page-aligned slots, so (dst - src) mod 4096 is dst_off - src_off.
 * `control` is the cell with the same alignments mod 64 at a distance of
 * about 2 KiB (-1: it is a control, or the aligned base). */
struct probe_cell {
	uint32_t src, dst;
	int control;
	int misaligned;   /* an alignment cell, compared with cell 0 */
	int quick;        /* also in --quick */
};

static const struct probe_cell cells[] = {
	{ 0, 2048, -1, 0, 1 },   /* 0: aligned, far: the base */
	{ 0, 0, 0, 0, 1 },       /* distance 0 (exact 4K alias) */
	{ 0, 1, 3, 0, 1 },       /* 2: distance 1 */
	{ 0, 2049, -1, 1, 1 },
	{ 0, 8, 5, 0, 0 },       /* 4: distance 8 */
	{ 0, 2056, -1, 1, 0 },
	{ 0, 31, 7, 0, 0 },      /* 6: distance 31 */
	{ 0, 2079, -1, 1, 0 },
	{ 0, 63, 9, 0, 1 },      /* 8: distance 63 */
	{ 0, 2111, -1, 1, 1 },
	{ 1, 0, 11, 0, 1 },      /* 10: distance -1 */
	{ 1, 2048, -1, 1, 1 },
	{ 63, 0, 13, 0, 0 },     /* 12: distance -63 */
	{ 63, 2048, -1, 1, 0 },
	{ 15, 2063, -1, 1, 0 },  /* both misaligned, far */
	/* distance 200: where a block loop that stores before it loads
	 * meets its own stores by page offset (docs/performance-zen5.md, "4K
	 * aliasing in avx512's block loop"), beside 0/2056, the same
	 * alignments. */
	{ 0, 200, 5, 0, 0 },
};
#define NCELLS (sizeof cells / sizeof cells[0])

struct probe_ctx {
	ucopy_kernel_fn fn;
	uint32_t src, dst;
};

static void probe_call(void *ctx, void *dst, const void *src, size_t n)
{
	const struct probe_ctx *p = ctx;
	p->fn((char *)dst + p->dst, (const char *)src + p->src, n);
}

/* One cell of n bytes whose slots have room for every probe offset. */
static int probe_seq(struct copy_seq *s, size_t n)
{
	if (copy_seq_sizes(s, &n, 1))
		return -1;
	s->max_off = 4096 + 64;   /* room, not an offset any op uses */
	return 0;
}

/* Kernels to probe at n: the candidates within reach of the best at the
 * sweep point nearest n, libc for the record, and movsb and movsb_safe,
 * whose difference is exactly the cliff. */
static size_t probe_kernels(const struct run *r, size_t n, size_t *idx)
{
	const struct cal_point *pt = NULL;
	size_t nk = 0;
	double best = INFINITY;
	for (size_t i = 0; i < r->cal.npoints; i++) {
		const struct cal_point *p = &r->cal.point[i];
		if (!pt || fabs(log((double)p->size / (double)n)) <
			   fabs(log((double)pt->size / (double)n)))
			pt = p;
	}
	if (!pt)
		return 0;
	for (size_t k = 0; k < r->nk; k++)
		if (r->candidate[k] && !isnan(pt->ns[CAL_HOT][k]))
			best = fmin(best, pt->ns[CAL_HOT][k]);
	for (size_t k = 0; k < r->nk; k++) {
		const char *name = kernel(k)->name;
		double t = pt->ns[CAL_HOT][k];
		int named = !strcmp(name, "movsb") || !strcmp(name, "movsb_safe");
		if ((int)k == libc_index() ||
		    (r->candidate[k] && (t <= FINALIST_RATIO * best ||
					 (named && !isnan(t)))))
			idx[nk++] = k;
	}
	return nk;
}

/* Re-times one cell of kernel k against its control, alone.
 * @return : the ratio, or NaN on failure. */
static double confirm(struct run *r, size_t k, size_t n, size_t cell)
{
	struct probe_ctx ctx[2] = {
		{ kernel(k)->fn, cells[cell].src, cells[cell].dst },
		{ kernel(k)->fn, cells[cells[cell].control].src, cells[cells[cell].control].dst },
	};
	struct variant v[2];
	struct copy_seq seq;
	struct cell c;
	double med[2];

	variant_call(&v[0], "cell", probe_call, &ctx[0]);
	variant_call(&v[1], "control", probe_call, &ctx[1]);
	if (probe_seq(&seq, n))
		return NAN;
	calibrate_cell_for(&c, &seq, CAL_HOT);
	/* A fixed number of rounds: a 25x cliff at 256 KiB costs 0.2 ms a
	 * copy, and the budget is for the probes themselves. */
	int rc = calibrate_time_cell(r, v, 2, &c, 0, 15, med, NULL, NULL);
	copy_seq_free(&seq);
	return rc ? NAN : med[0] / med[1];
}

int calibrate_probes(struct run *r)
{
	static const size_t want[] = { 64, 256, 2048, 4352, 32768, 262144 };
	size_t sizes[8], ns = 0;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (want[i] <= r->max_size)
			sizes[ns++] = want[i];
	r->phase = "probes";
	for (size_t si = 0; si < ns; si++) {
		size_t n = sizes[si], idx[CAL_MAX_KERNELS];
		size_t nk = probe_kernels(r, n, idx), nv = 0;
		size_t vk[CAL_MAX_KERNELS * NCELLS], vc[CAL_MAX_KERNELS * NCELLS];
		static struct probe_ctx ctx[CAL_MAX_KERNELS * NCELLS];
		static struct variant v[CAL_MAX_KERNELS * NCELLS];
		static double med[CAL_MAX_KERNELS * NCELLS];

		calibrate_progress(r, si, ns);
		for (size_t j = 0; j < nk; j++)
			for (size_t c = 0; c < NCELLS; c++) {
				if (r->quick && !cells[c].quick)
					continue;
				ctx[nv] = (struct probe_ctx){ kernel(idx[j])->fn, cells[c].src,
							      cells[c].dst };
				variant_call(&v[nv], kernel(idx[j])->name, probe_call, &ctx[nv]);
				vk[nv] = idx[j];
				vc[nv++] = c;
			}
		if (nv == 0)
			continue;
		struct copy_seq seq;
		struct cell cl;
		if (probe_seq(&seq, n)) {
			snprintf(r->err, sizeof r->err, "out of memory");
			return -1;
		}
		calibrate_cell_for(&cl, &seq, CAL_HOT);
		int rc = calibrate_time_cell(r, v, nv, &cl, calibrate_share(r, ns - si), 0, med,
					     NULL, NULL);
		copy_seq_free(&seq);
		if (rc)
			return -1;

		double cell_ns[CAL_MAX_KERNELS][NCELLS];
		for (size_t i = 0; i < nv; i++) {
			cell_ns[vk[i]][vc[i]] = med[i];
			struct cal_probe *p = calibration_probe(&r->cal, n, cells[vc[i]].src,
								cells[vc[i]].dst);
			if (p)
				p->ns[vk[i]] = med[i];
		}
		for (size_t j = 0; j < nk; j++) {
			size_t k = idx[j], worst_cell = 0;
			double dist = 0, align = 0;
			for (size_t c = 0; c < NCELLS; c++) {
				if (r->quick && !cells[c].quick)
					continue;
				if (cells[c].control >= 0) {
					double q = cell_ns[k][c] / cell_ns[k][cells[c].control];
					if (q > dist) {
						dist = q;
						worst_cell = c;
					}
				}
				if (cells[c].misaligned)
					align = fmax(align, cell_ns[k][c] / cell_ns[k][0]);
			}
			calibration_add_effect(&r->cal, kernel(k), n, dist, align);
			if (dist <= CAL_CLIFF)
				continue;
			double again = confirm(r, k, n, worst_cell);
			calibrate_say(r, "%s at %zu bytes, offsets %u/%u: %.2fx its control, "
				      "%.2fx again", kernel(k)->name, n, cells[worst_cell].src, cells[worst_cell].dst,
			    dist, again);
			if (again > CAL_CLIFF)
				calibration_add_cliff(&r->cal, kernel(k), n, fmin(dist, again),
						      cells[worst_cell].src, cells[worst_cell].dst);
		}
	}
	return 0;
}
