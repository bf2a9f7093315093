/*
 * cells.c - where and how much a cell copies: its cache state, each side's
 * offset, region and flushing, and the buffers that takes (measure.h).
 */
#include "measure.h"

#include <string.h>

static const char *const cache_names[] = { "hot", "warm", "cold" };

const char *cache_name(enum cache_state c)
{
	return (unsigned)c < 3 ? cache_names[c] : "?";
}

int cache_parse(const char *s, enum cache_state *c)
{
	for (unsigned i = 0; i < 3; i++)
		if (!strcmp(s, cache_names[i])) {
			*c = (enum cache_state)i;
			return 0;
		}
	return -1;
}

size_t cell_slot_stride(const struct copy_seq *s)
{
	size_t need = s->max_n + s->max_off;
	return need ? size_round_up(need, 64) : 64;
}

static size_t cache_l2(void)
{
	size_t l2 = ucopy_cpu()->l2;
	return l2 ? l2 : (size_t)1 << 20;
}

size_t cache_llc(void)
{
	const struct ucopy_cpu *c = ucopy_cpu();
	return c->l3 ? c->l3 : c->l2 ? c->l2 : (size_t)32 << 20;
}

void cell_init_drawn(struct cell *c, const struct copy_seq *seq, enum cache_state cache)
{
	cell_init(c, seq, cache, 0, CELL_DRAWN_DST);
}

int cell_init(struct cell *c, const struct copy_seq *seq, enum cache_state cache,
	      uint32_t src_offset, uint32_t dst_offset)
{
	memset(c, 0, sizeof *c);
	if (src_offset >= 4096 || dst_offset >= 4096)
		return -1;
	c->seq = seq;
	c->src.offset = src_offset;
	c->dst.offset = dst_offset;
	size_t stride = cell_slot_stride(seq);
	if (cache == CACHE_WARM) {
		c->src.region = c->dst.region = cache_l2() / 4;
	} else if (cache == CACHE_COLD) {
		/* Each copy touches about this many bytes of cache lines: a
		 * fixed copy's offset decides whether it spills into one more
		 * line; random offsets spill half a line on average. */
		size_t spill = seq->len == 1 ? (src_offset > dst_offset ? src_offset : dst_offset) % 64
					     : 32;
		size_t touched = size_round_up((size_t)seq->mean_n + spill, 64);
		if (touched == 0)
			touched = 64;
		size_t llc = cache_llc();
		size_t slots = (2 * llc + touched - 1) / touched;
		size_t region = slots * stride;
		if (region > 4 * llc)
			region = 4 * llc / stride * stride;
		if (region < stride)
			region = stride;
		c->src.region = c->dst.region = region;
		/* A pass must push 4x the LLC through the caches before a line
		 * comes round again; when it cannot, flush instead. */
		if (2 * (region / stride) * touched < 4 * llc)
			c->src.flush = c->dst.flush = 1;
	}
	return 0;
}

/* A side's buffer: its base offset, its slots (one when hot) and the 64
 * bytes a copy's own offset may add past the last. */
static size_t side_bytes(const struct side *s, size_t stride)
{
	size_t nslots = s->region ? s->region / stride : 1;
	return size_round_up(s->offset + (nslots ? nslots : 1) * stride + 64, 4096);
}

void cell_map_bytes(const struct cell *c, size_t *src, size_t *dst)
{
	size_t stride = cell_slot_stride(c->seq);
	*src = side_bytes(&c->src, stride);
	*dst = side_bytes(&c->dst, stride);
}
