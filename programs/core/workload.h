/*
 * workload.h - the copy workloads `ucopy compare` replays: the copy pattern
 * of a real kernel path (its sizes, and the buffers it copies between), set
 * up as a cell of the measuring core.
 *
 *   tcp-sendmsg  tcp_sendmsg() copying a 32 MiB payload from a user buffer in
 *                32 KiB chunks into order-3 (32 KiB) pages; the pages form a
 *                ring bigger than L2, as the skbs in flight in a socket's
 *                send buffer do.  Eric Dumazet's 2023 report.
 *   aio-poll     alternating 64-byte (struct iocb, copied in) and 32-byte
 *                (struct io_event, copied out) copies between hot buffers.
 *                Jens Axboe's 2018 patch.
 *   cold-read    copies whose source is in no cache (as after a device
 *                wrote it by DMA: a region 4x the LLC walked in scattered
 *                order, or flushed lines) into a hot destination; 4 KiB
 *                unless sizes are given.  The arm64 4.19 -> 5.15 report.
 *   dist:FILE    sizes drawn from a distribution file (as `ucopy bench
 *                --dist`), in the unlearnable regime (dist.h) or, asked,
 *                the repeated one.
 * and, for --sizes SPEC without a workload, the listed sizes in turn.
 */
#ifndef UCOPY_WORKLOAD_H
#define UCOPY_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "dist.h"
#include "measure.h"
#include "sizespec.h"

enum workload_kind {
	WORKLOAD_TCP_SENDMSG,
	WORKLOAD_AIO_POLL,
	WORKLOAD_COLD_READ,
	WORKLOAD_DIST,
	WORKLOAD_SIZES
};

/* tcp-sendmsg: tcp_sendmsg() copies at most a page fragment at a time, and
 * the fragments are order-3 (32 KiB) pages (SKB_FRAG_PAGE_ORDER). */
#define WORKLOAD_TCP_CHUNK ((size_t)32 << 10)
#define WORKLOAD_TCP_PAYLOAD ((size_t)32 << 20)
/* The ring is at least the default tcp_wmem maximum (4 MiB: what one socket
 * may have queued), and twice L2 where L2 is bigger. */
#define WORKLOAD_TCP_RING_MIN ((size_t)4 << 20)
/* cold-read: the source walks 4x the LLC, up to WORKLOAD_COLD_WALK_MAX;
 * past that its lines are flushed before each batch instead, and a region of
 * WORKLOAD_COLD_REGION is big enough that one batch (at most about a
 * millisecond of copying, some tens of MB) never comes round to lines it
 * read earlier, which would be cached again. */
#define WORKLOAD_COLD_WALK_MAX ((size_t)2 << 30)
#define WORKLOAD_COLD_REGION ((size_t)64 << 20)
#define WORKLOAD_COLD_MAX_SIZE ((size_t)4 << 20)
#define WORKLOAD_COLD_DEFAULT ((size_t)4 << 10)
/* --sizes: at most this many sizes in a sequence. */
#define WORKLOAD_MAX_SIZES ((size_t)1 << 16)

/* What the command line asked for. */
struct workload_opts {
	const char *name;          /* --workload NAME, or NULL */
	const char *dist_path;     /* --dist FILE, or NULL */
	const char *sizes;         /* --sizes SPEC, or NULL */
	const char *cache;         /* --cache STATE, or NULL (workload default) */
	const char *regime;        /* --regime for dist:, or NULL (unlearnable) */
	uint64_t seed;             /* for a distribution's sequence */
};

/* A workload's description: path, distribution, regime condition, cache. */
#define WORKLOAD_WHAT_LEN 384

struct workload {
	enum workload_kind kind;
	char name[64];             /* "tcp-sendmsg", "dist:PATH", "sizes:SPEC" */
	char what[WORKLOAD_WHAT_LEN];   /* the buffers and sizes, in one line */
	const char *cache;         /* "hot", "warm", "cold", or the layout name */
	struct copy_seq seq;
	struct dist dist;          /* WORKLOAD_DIST only */
	enum dist_regime regime;   /* WORKLOAD_DIST only */
	struct cell cell;          /* points at seq: do not move a set-up workload */
	/* A unit of work the original report counted (a payload, an iocb and its
	 * event), for "time per unit"; unit_copies 0 when a copy is the unit. */
	const char *unit;
	size_t unit_copies;
};

/* Sets up the workload the options ask for.
 * @return : 0; -1 on bad input (unknown workload, conflicting options, bad
 *           size list or distribution file) or -2 when out of memory, with
 *           the message in err.  w is then empty. */
int workload_setup(struct workload *w, const struct workload_opts *o,
		   char *err, size_t errlen);
void workload_free(struct workload *w);

/* The named workloads, for --list-workloads: name and what it models.
 * @return : NULL past the last. */
const char *workload_list_name(size_t i);
const char *workload_list_models(size_t i);

#endif
