/*
 * workload.c - the workloads `ucopy compare` replays (workload.h).
 *
 * Every workload is a cell of the measuring core: a copy sequence plus the
 * regions its source and destination walk.  The core offers the cache states
 * `bench` sweeps; the layouts here are the kernel paths', set on the cell's
 * sides directly.
 */
#include "workload.h"
#include "datadir.h"
#include "errmsg.h"
#include "output.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	const char *models;
} named[] = {
	{ "tcp-sendmsg",
	  "tcp_sendmsg(): a 32 MiB payload copied from a user buffer in 32 KiB "
	  "chunks into a ring of order-3 pages bigger than L2 (Dumazet, 2023)" },
	{ "aio-poll",
	  "aio polling: alternating 64-byte iocb and 32-byte io_event copies "
	  "between hot buffers (Axboe, 2018)" },
	{ "cold-read",
	  "copies from a source in no cache (flushed, as after a device wrote "
	  "it) into a hot buffer; 4 KiB unless --sizes is given (arm64 "
	  "4.19 -> 5.15)" },
	{ "dist:FILE",
	  "sizes drawn from a distribution file (fleetbench, LLVM libc or "
	  "'size weight' lines) or a shipped one by name (dist:Memcpy_Fleet; "
	  "ucopy bench --list-dists), as --dist FILE" },
};
#define NNAMED (sizeof named / sizeof named[0])

const char *workload_list_name(size_t i)
{
	return i < NNAMED ? named[i].name : NULL;
}

const char *workload_list_models(size_t i)
{
	return i < NNAMED ? named[i].models : NULL;
}

static int setup_tcp(struct workload *w)
{
	if (copy_seq_fixed(&w->seq, WORKLOAD_TCP_CHUNK, 0, 0) < 0)
		return -2;
	size_t l2 = ucopy_cpu()->l2;
	size_t ring = 2 * l2 > WORKLOAD_TCP_RING_MIN ? 2 * l2 : WORKLOAD_TCP_RING_MIN;
	ring = size_round_up(ring, WORKLOAD_TCP_CHUNK);
	cell_init(&w->cell, &w->seq, CACHE_HOT, 0, 0);
	/* The user buffer is read front to back, chunk after chunk, and the
	 * pages are filled in ring order: both sides stream, as in the kernel,
	 * so the prefetchers help exactly as much as they do there. */
	w->cell.src.region = WORKLOAD_TCP_PAYLOAD;
	w->cell.dst.region = ring;
	w->cell.sequential = 1;
	w->cache = "stream";
	w->unit = "32 MiB payload";
	w->unit_copies = WORKLOAD_TCP_PAYLOAD / WORKLOAD_TCP_CHUNK;
	char r[32];
	fmt_size_iec(r, sizeof r, ring);
	snprintf(w->what, sizeof w->what,
		 "32 KiB copies from a 32 MiB user buffer, in order, into a %s ring "
		 "of %zu 32 KiB pages (L2 %zu KiB)", r, ring / WORKLOAD_TCP_CHUNK,
		 l2 >> 10);
	return 0;
}

static int setup_aio(struct workload *w, enum cache_state cache)
{
	/* struct iocb is 64 bytes, struct io_event 32: io_submit() copies the
	 * former in, io_getevents() the latter out, one of each per request. */
	static const size_t n[2] = { 64, 32 };
	if (copy_seq_sizes(&w->seq, n, 2) < 0)
		return -2;
	cell_init(&w->cell, &w->seq, cache, 0, 0);
	w->cache = cache_name(cache);
	w->unit = "iocb + io_event";
	w->unit_copies = 2;
	snprintf(w->what, sizeof w->what,
		 "64-byte and 32-byte copies in turn, cache %s", w->cache);
	return 0;
}

static int setup_cold(struct workload *w, const struct sizes *s)
{
	int rc = s ? copy_seq_sizes(&w->seq, s->v, s->n)
		   : copy_seq_fixed(&w->seq, WORKLOAD_COLD_DEFAULT, 0, 0);
	if (rc < 0)
		return -2;
	cell_init(&w->cell, &w->seq, CACHE_HOT, 0, 0);
	/* The source walks, in the core's scattered order, a region four times
	 * the LLC, so every line a copy reads was evicted to memory long before,
	 * as the lines of a buffer a device just wrote by DMA are.  Flushing the
	 * lines instead (clflush) says the same more exactly, but costs many
	 * times the copy it prepares (docs/performance.md, "Cold sources:
	 * clflush against a walked region").  It is the fallback for an LLC so
	 * large that the region would not be reasonable to map. */
	size_t llc = cache_llc();
	size_t stride = cell_slot_stride(&w->seq);
	size_t region = 4 * llc;
	if (region > WORKLOAD_COLD_WALK_MAX) {
		region = WORKLOAD_COLD_REGION;
		w->cell.src.flush = 1;
	}
	if (region < 16 * stride)
		region = 16 * stride;
	w->cell.src.region = region / stride * stride;
	w->cache = "cold source";
	w->unit = NULL;
	w->unit_copies = 0;
	char n[64], r[32];
	if (w->seq.len == 1) {
		fmt_size_iec(n, sizeof n - 8, w->seq.max_n);
		strcat(n, " copies");
	} else {
		snprintf(n, sizeof n, "copies of %zu sizes up to %zu bytes", w->seq.len,
			 w->seq.max_n);
	}
	fmt_size_iec(r, sizeof r, w->cell.src.region);
	snprintf(w->what, sizeof w->what,
		 w->cell.src.flush
		 ? "%s from a %s source flushed from every cache before each "
		   "batch, into a hot destination"
		 : "%s from a %s source walked in scattered order (4x the "
		   "LLC: every line comes from memory), into a hot destination", n, r);
	return 0;
}

static int setup_dist(struct workload *w, const char *arg, enum cache_state cache,
		      enum dist_regime regime, uint64_t seed, char *err, size_t errlen)
{
	size_t len = regime == REGIME_REPEATED ? DIST_SEQ_REPEAT_DEFAULT : DIST_SEQ_UNLEARNABLE;
	char cond[128];
	dist_regime_condition(regime, len, 0, cond, sizeof cond);
	w->regime = regime;
	char path[4096];
	if (data_dist_path(arg, path, sizeof path, err, errlen) < 0 ||
	    dist_read_file(path, &w->dist, err, errlen) < 0)
		return -1;
	if (dist_regime_sample(&w->dist, regime, len, seed, &w->seq) < 0)
		return errmsg(err, errlen, "out of memory") - 1;
	cell_init_drawn(&w->cell, &w->seq, cache);
	w->cache = cache_name(cache);
	w->unit = NULL;
	w->unit_copies = 0;
	snprintf(w->what, sizeof w->what,
		 "sizes drawn from %.110s (%s, %zu size%s, mean %.0f bytes), %.100s, cache %s",
		 path, dist_format_name(w->dist.format), w->dist.n, w->dist.n == 1 ? "" : "s",
		 w->dist.mean, cond, w->cache);
	return 0;
}

static int setup_sizes(struct workload *w, const struct sizes *s,
		       enum cache_state cache)
{
	if (copy_seq_sizes(&w->seq, s->v, s->n) < 0)
		return -2;
	cell_init(&w->cell, &w->seq, cache, 0, 0);
	w->cache = cache_name(cache);
	w->unit = NULL;
	w->unit_copies = 0;
	size_t min = s->v[0];
	for (size_t i = 1; i < s->n; i++)
		if (s->v[i] < min)
			min = s->v[i];
	if (s->n == 1)
		snprintf(w->what, sizeof w->what, "%zu-byte copies, cache %s", min,
			 w->cache);
	else
		snprintf(w->what, sizeof w->what,
			 "%zu sizes copied in turn (%zu to %zu bytes), cache %s", s->n,
			 min, w->seq.max_n, w->cache);
	return 0;
}

/* Over 100 lines: the options checked against one another, then a short branch per workload. */
int workload_setup(struct workload *w, const struct workload_opts *o,
		   char *err, size_t errlen)
{
	memset(w, 0, sizeof *w);
	err[0] = 0;
	const char *name = o->name, *path = o->dist_path;
	enum workload_kind kind;

	if (name && path)
		return errmsg(err, errlen,
			    "--workload and --dist both choose the workload (give one)");
	if (name && !strncmp(name, "dist:", 5)) {
		path = name + 5;
		name = NULL;
		if (!*path)
			return errmsg(err, errlen,
				    "workload 'dist:' names no file (expected dist:FILE)");
	}
	if (path && o->sizes)
		return errmsg(err, errlen,
			    "--dist draws its own sizes (not with --sizes)");
	if (name) {
		if (!strcmp(name, "tcp-sendmsg"))
			kind = WORKLOAD_TCP_SENDMSG;
		else if (!strcmp(name, "aio-poll"))
			kind = WORKLOAD_AIO_POLL;
		else if (!strcmp(name, "cold-read"))
			kind = WORKLOAD_COLD_READ;
		else
			return errmsg(err, errlen,
				    "unknown workload '%s' (expected tcp-sendmsg, "
				    "aio-poll, cold-read or dist:FILE)", name);
	} else if (path) {
		kind = WORKLOAD_DIST;
	} else if (o->sizes) {
		kind = WORKLOAD_SIZES;
	} else {
		return errmsg(err, errlen,
			    "no workload (expected --workload NAME, --dist FILE or "
			    "--sizes SPEC; --list-workloads names them)");
	}
	/* The sizes and cache state are part of what tcp-sendmsg and aio-poll
	 * model; cold-read's sizes vary (the arm64 report was about 4 KiB pages,
	 * but network receives are shorter) and its cache state is its point. */
	if (o->sizes && (kind == WORKLOAD_TCP_SENDMSG || kind == WORKLOAD_AIO_POLL))
		return errmsg(err, errlen,
			    "--sizes does not apply to workload '%s' (it copies "
			    "fixed sizes; only cold-read takes --sizes)", name);
	if (o->cache && (kind == WORKLOAD_TCP_SENDMSG || kind == WORKLOAD_COLD_READ))
		return errmsg(err, errlen,
			    "--cache does not apply to workload '%s' (it lays out "
			    "its own buffers)", name);
	enum dist_regime regime = REGIME_UNLEARNABLE;
	if (o->regime && kind != WORKLOAD_DIST)
		return errmsg(err, errlen, "--regime orders the sizes of a distribution "
			    "(expected --dist FILE or --workload dist:FILE)");
	if (o->regime && dist_regime_parse(o->regime, &regime) < 0)
		return errmsg(err, errlen, "bad regime '%s' (expected unlearnable or "
			    "repeated)", o->regime);
	enum cache_state cache = CACHE_HOT;
	if (o->cache && cache_parse(o->cache, &cache) < 0)
		return errmsg(err, errlen,
			    "bad cache state '%s' (expected hot, warm or cold)", o->cache);

	struct sizes s = { 0 };
	if (o->sizes) {
		size_t max = kind == WORKLOAD_COLD_READ ? WORKLOAD_COLD_MAX_SIZE
							: DIST_MAX_SIZE;
		char e[200];
		if (sizespec_parse(o->sizes, NULL, WORKLOAD_MAX_SIZES, max, &s, e, sizeof e) < 0)
			return errmsg(err, errlen, "--sizes: %s", e);
		for (size_t i = 0; i < s.n; i++)
			if (s.v[i] == 0) {
				sizes_free(&s);
				return errmsg(err, errlen,
					    "--sizes: a copy of 0 bytes times only the "
					    "call (expected sizes of 1 byte or more)");
			}
	}

	int rc;
	w->kind = kind;
	switch (kind) {
	case WORKLOAD_TCP_SENDMSG:
		rc = setup_tcp(w);
		break;
	case WORKLOAD_AIO_POLL:
		rc = setup_aio(w, cache);
		break;
	case WORKLOAD_COLD_READ:
		rc = setup_cold(w, o->sizes ? &s : NULL);
		break;
	case WORKLOAD_DIST:
		rc = setup_dist(w, path, cache, regime, o->seed, err, errlen);
		break;
	default:
		rc = setup_sizes(w, &s, cache);
		break;
	}
	if (rc == 0) {
		if (kind == WORKLOAD_DIST)
			snprintf(w->name, sizeof w->name, "dist:%s", path);
		else if (kind == WORKLOAD_SIZES)
			snprintf(w->name, sizeof w->name, "sizes:%s", o->sizes);
		else
			snprintf(w->name, sizeof w->name, "%s", name);
	}
	sizes_free(&s);
	if (rc < 0) {
		if (rc == -2 && !err[0])
			errmsg(err, errlen, "out of memory");
		workload_free(w);
	}
	return rc;
}

void workload_free(struct workload *w)
{
	copy_seq_free(&w->seq);
	if (w->kind == WORKLOAD_DIST)
		dist_free(&w->dist);
	memset(w, 0, sizeof *w);
}
