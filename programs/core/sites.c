/*
 * sites.c - the timed loops: one per kind of variant, slot and placement,
 * and which variant calls from which slot (batch.h).
 */
#include "batch.h"

/* The timed loop of one kind of variant, as a function of its own (the
 * sites below): DECL declares `fn` (and what else CALL needs) from the
 * variant, CALL makes the copy.  The function pointer goes through an empty
 * asm: a compiler that could see its value (LTO, a variant set up in the
 * same file) might call or inline it directly instead.  The walks' cursors
 * go to memory around every (opaque) call: kept in this frame, which
 * run_batch_shifted moves, not in the caller's. */
#define RUN_BATCH_KIND(kind, DECL, CALL)                                        \
	static inline __attribute__((always_inline)) uint64_t                   \
	run_batch_##kind(const struct variant *v, const struct copy_seq *seq,    \
			 struct walk *ws_io, struct walk *wd_io, size_t j, size_t k) \
	{                                                                       \
		struct walk ws_local = *ws_io, wd_local = *wd_io;               \
		struct walk *ws = &ws_local, *wd = &wd_local;                   \
		const struct copy_op *op = seq->op;                             \
		size_t len = seq->len;                                          \
		DECL;                                                           \
		__asm__ volatile("" : "+r"(fn));                                \
		uint64_t t0 = timer_now();                                      \
		for (size_t i = 0; i < k; i++) {                                \
			const struct copy_op *o = &op[j];                       \
			if (++j == len)                                         \
				j = 0;                                          \
			char *s = walk_next(ws) + o->src_off;                   \
			char *d = walk_next(wd) + o->dst_off;                   \
			CALL;                                                   \
		}                                                               \
		uint64_t t1 = timer_now();                                      \
		*ws_io = ws_local;                                              \
		*wd_io = wd_local;                                              \
		return t1 - t0;                                                 \
	}

typedef void *memcpy_fn(void *, const void *, size_t);
typedef size_t try_fn(void *, const void *, size_t);
typedef void call_fn(void *, void *, const void *, size_t);
RUN_BATCH_KIND(kernel, ucopy_kernel_fn fn = v->kernel, fn(d, s, o->n))
RUN_BATCH_KIND(copy, memcpy_fn *fn = v->memcpy_fn, fn(d, s, o->n))
RUN_BATCH_KIND(try, try_fn *fn = v->try_fn, fn(d, s, o->n))
RUN_BATCH_KIND(policy, const struct ucopy_policy *fn = v->policy,
	       ucopy_policy_copy(fn, d, s, o->n))
RUN_BATCH_KIND(policy_try, const struct ucopy_policy *fn = v->policy,
	       ucopy_policy_try(fn, d, s, o->n))
RUN_BATCH_KIND(call, call_fn *fn = v->call; void *ctx = v->ctx, fn(ctx, d, s, o->n))

/* The timed loops once per kind, call site and placement.  Each variant of
 * a cell calls through sites of its own (a slot), in its warm-up and in
 * every round, so that no call instruction sees two functions: a shared
 * site was fast for the first function it called and a cycle slower for
 * any other, for the rest of the process, though the rounds already take
 * the variants in turn; so a slot keeps its function from cell to cell
 * (batch_slot_kept()).  And where a site's loop lies moves a short copy's
 * time, so each slot has its loop at BATCH_PLACES placements,
 * BATCH_STEP_TEXT bytes apart (16 bytes on within a line, and the line moves
 * too), and round r runs every variant at placement r mod BATCH_PLACES: a
 * median over rounds is one over placements, as run_batch_shifted makes it
 * one over stack placements (docs/performance-zen5.md, "One call site per
 * variant").
 *
 * A site holds one kind's loop and nothing else, so that the kernel, copy
 * and try kinds, whose loops differ only in the callee's type, compile to
 * the same instructions at the same offsets (tests/cli/sites.sh checks it):
 * loops compiled and placed each its own way, behind a switch on the kind,
 * had their own cost read as the callee's (docs/bench.md, "The loop of each
 * kind"; docs/performance-zen5.md, "ucopy_try's 1-4% was the timing loop's").  The asm's operand, the
 * kind, slot and placement, keeps the compiler and the linker from folding
 * the copies into one. */
#define BATCH_KINDS (VARIANT_CALL + 1)
#define BATCH_SLOTS 16
#define BATCH_STEP_TEXT "208"
/* The jump over a placement's padding: at least 128 bytes, so that x86's
 * jump is the same 5-byte one at every placement, and a multiple of 4, as
 * aarch64's instructions need; elsewhere the placements are one place.  The
 * padding starts with the site's number (the asm's operand) as the
 * immediate of a move that never runs, so that no two sites are the same
 * bytes (a linker folding identical functions, lld's --icf=all, merged each
 * kind's sites of one placement into one) and a disassembler reads every
 * site's padding as the same instructions (tests/cli/sites.sh). */
#if defined(__x86_64__)
#define BATCH_SKIP(place)                                                      \
	"jmp 1f\n\tmovl $%c0, %%eax\n\t.skip 123 + " #place " * " BATCH_STEP_TEXT \
	", 0xcc\n1:"
#elif defined(__aarch64__)
#define BATCH_SKIP(place)                                                      \
	"b 1f\n\tmovz w0, #%c0\n\t.skip 124 + " #place " * " BATCH_STEP_TEXT "\n1:"
#else
#define BATCH_SKIP(place) ""
#endif
#define BATCH_SITE(kind, e, slot, place)                                        \
	static __attribute__((noinline, aligned(64))) uint64_t                  \
	run_batch_##kind##_##slot##_##place(const struct variant *v,            \
					    const struct copy_seq *seq,         \
					    struct walk *ws, struct walk *wd,   \
					    size_t j, size_t k)                 \
	{                                                                       \
		__asm__ volatile(BATCH_SKIP(place)                              \
				 : : "i"(((e) * BATCH_SLOTS + (slot)) * BATCH_PLACES + (place))); \
		return run_batch_##kind(v, seq, ws, wd, j, k);                  \
	}
#define BATCH_SLOT(kind, e, s)                                                  \
	BATCH_SITE(kind, e, s, 0) BATCH_SITE(kind, e, s, 1)                     \
	BATCH_SITE(kind, e, s, 2) BATCH_SITE(kind, e, s, 3)
#define BATCH_KIND(kind, e)                                                     \
	BATCH_SLOT(kind, e, 0) BATCH_SLOT(kind, e, 1) BATCH_SLOT(kind, e, 2)    \
	BATCH_SLOT(kind, e, 3) BATCH_SLOT(kind, e, 4) BATCH_SLOT(kind, e, 5)    \
	BATCH_SLOT(kind, e, 6) BATCH_SLOT(kind, e, 7) BATCH_SLOT(kind, e, 8)    \
	BATCH_SLOT(kind, e, 9) BATCH_SLOT(kind, e, 10) BATCH_SLOT(kind, e, 11)  \
	BATCH_SLOT(kind, e, 12) BATCH_SLOT(kind, e, 13) BATCH_SLOT(kind, e, 14) \
	BATCH_SLOT(kind, e, 15)
/* Each kind's loop (RUN_BATCH_KIND's name) and its variant_kind: the
 * sites and the table below both come from this one list. */
#define BATCH_KIND_LIST(X)                                                      \
	X(kernel, VARIANT_KERNEL) X(copy, VARIANT_MEMCPY) X(try, VARIANT_TRY)   \
	X(policy, VARIANT_POLICY) X(policy_try, VARIANT_POLICY_TRY)             \
	X(call, VARIANT_CALL)
BATCH_KIND_LIST(BATCH_KIND)

typedef uint64_t batch_fn(const struct variant *, const struct copy_seq *, struct walk *,
			  struct walk *, size_t, size_t);
#define BATCH_ROW(kind, s)                                                      \
	{ run_batch_##kind##_##s##_0, run_batch_##kind##_##s##_1,              \
	  run_batch_##kind##_##s##_2, run_batch_##kind##_##s##_3 }
#define BATCH_ROWS(kind)                                                        \
	{ BATCH_ROW(kind, 0), BATCH_ROW(kind, 1), BATCH_ROW(kind, 2),           \
	  BATCH_ROW(kind, 3), BATCH_ROW(kind, 4), BATCH_ROW(kind, 5),           \
	  BATCH_ROW(kind, 6), BATCH_ROW(kind, 7), BATCH_ROW(kind, 8),           \
	  BATCH_ROW(kind, 9), BATCH_ROW(kind, 10), BATCH_ROW(kind, 11),         \
	  BATCH_ROW(kind, 12), BATCH_ROW(kind, 13), BATCH_ROW(kind, 14),        \
	  BATCH_ROW(kind, 15) }
#define BATCH_KIND_ROWS(kind, e) [e] = BATCH_ROWS(kind),
static batch_fn *const batch_site[BATCH_KINDS][BATCH_SLOTS][BATCH_PLACES] = {
	BATCH_KIND_LIST(BATCH_KIND_ROWS)
};

/* The slots, each with the function that calls from it (a CALL variant's
 * function is the pair of call and ctx: bench_bars' wrappers differ by
 * ctx) and the last cell that called from it. */
static struct {
	enum variant_kind kind;
	uintptr_t fn, ctx;
	uint64_t cell;
} batch_owner[BATCH_SLOTS];
static size_t batch_owners;

static void batch_key(const struct variant *v, uintptr_t *fn, uintptr_t *ctx)
{
	*fn = *ctx = 0;
	switch (v->kind) {
	case VARIANT_KERNEL: *fn = (uintptr_t)v->kernel; break;
	case VARIANT_MEMCPY: *fn = (uintptr_t)v->memcpy_fn; break;
	case VARIANT_TRY: *fn = (uintptr_t)v->try_fn; break;
	case VARIANT_POLICY:
	case VARIANT_POLICY_TRY: *fn = (uintptr_t)v->policy; break;
	case VARIANT_CALL: *fn = (uintptr_t)v->call; *ctx = (uintptr_t)v->ctx; break;
	}
}

/* The slot v's function had in an earlier cell, now stamped with `cell`;
 * or BATCH_SLOTS when it has none. */
static size_t batch_slot_kept(const struct variant *v, uint64_t cell)
{
	uintptr_t fn, ctx;
	batch_key(v, &fn, &ctx);
	for (size_t s = 0; s < batch_owners; s++)
		if (batch_owner[s].kind == v->kind && batch_owner[s].fn == fn &&
		    batch_owner[s].ctx == ctx) {
			batch_owner[s].cell = cell;
			return s;
		}
	return BATCH_SLOTS;
}

/* A slot for v: the one its function has (batch_slot_kept()), else the
 * next unowned one, else the one used longest ago, taken over for good.
 * The cell's own functions were stamped first, so no slot another variant
 * of the cell calls from is taken while one is left; past that (more than
 * BATCH_SLOTS variants in one cell) the variant's index's.  By index
 * alone, calibrate's three policies called from the sites of kernels its
 * sweep had timed, beside one another. */
static size_t batch_slot_new(const struct variant *v, size_t index, uint64_t cell)
{
	size_t s = batch_slot_kept(v, cell);   /* an earlier variant's function */
	if (s < BATCH_SLOTS)
		return s;
	s = batch_owners;
	if (s < BATCH_SLOTS) {
		batch_owners++;
	} else {
		s = 0;
		for (size_t i = 1; i < BATCH_SLOTS; i++)
			if (batch_owner[i].cell < batch_owner[s].cell)
				s = i;
		if (batch_owner[s].cell == cell)
			return index % BATCH_SLOTS;
	}
	batch_owner[s].kind = v->kind;
	batch_key(v, &batch_owner[s].fn, &batch_owner[s].ctx);
	batch_owner[s].cell = cell;
	return s;
}

/* The slots of a cell's nv variants: those their functions keep first,
 * then new ones. */
void batch_slots(const struct variant *v, size_t nv, size_t *slot)
{
	static uint64_t cells;
	cells++;
	for (size_t i = 0; i < nv; i++)
		slot[i] = batch_slot_kept(&v[i], cells);
	for (size_t i = 0; i < nv; i++)
		if (slot[i] == BATCH_SLOTS)
			slot[i] = batch_slot_new(&v[i], i, cells);
}

/* k copies through slot `slot`'s loop at placement `place`. */
uint64_t run_batch(size_t slot, size_t place, const struct variant *v,
			  const struct copy_seq *seq, struct walk *ws, struct walk *wd,
			  size_t j, size_t k)
{
	return batch_site[v->kind][slot][place](v, seq, ws, wd, j, k);
}

/* run_batch with the stack SHIFT bytes lower.  Where the stack lies in its
 * page decides which copies 4K-alias with the return address and the
 * timing loop's spills, and so a short copy's time (docs/bench.md, "The
 * stack"; the effect Mytkowicz et al. measured in "Producing wrong data
 * without doing anything obviously wrong!", ASPLOS 2009).  Each round moves
 * the stack, the same for every variant in it, so a median over rounds is
 * one over placements, not the one this process started with. */
__attribute__((noinline)) uint64_t
run_batch_shifted(size_t shift, size_t slot, size_t place, const struct variant *v,
		  const struct copy_seq *seq, struct walk *ws, struct walk *wd, size_t j,
		  size_t k)
{
	char pad[shift + 1];
	__asm__ volatile("" : : "r"(pad) : "memory");
	uint64_t ticks = run_batch(slot, place, v, seq, ws, wd, j, k);
	/* pad lives until here: no tail call frees it before the batch. */
	__asm__ volatile("" : : "r"(pad) : "memory");
	return ticks;
}
