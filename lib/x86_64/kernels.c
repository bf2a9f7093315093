/*
 * x86_64/kernels.c - the x86-64 kernels: their names, what each needs.
 *
 * The bodies are in lib/kernels/x86_64/, one file each.
 */
#include "arch.h"
#include "x86_64.h"

/* A fault-capable kernel: its plain and its try body (lib/kernels/x86_64/),
 * and the flag that says it has the second. */
#define BODIES(name) UCOPY_KERNEL_FAULT_CAPABLE, ucopy_k_##name, ucopy_t_##name

const struct ucopy_kernel ucopy_arch_kernels[] = {
	{ "byte", "one byte at a time", 0, BODIES(byte) },
	{ "word", "8-byte words, then bytes (the kernel's short-copy path)",
	  0, BODIES(word) },
	{ "unrolled", "64-byte blocks of eight 8-byte moves, then words, then bytes",
	  0, BODIES(unrolled) },
	/* rep movsq and rep movsb run on every x86-64; REP_GOOD, ERMS and
	 * FSRM only make them fast, which is for a policy to weigh. */
	{ "movsq", "rep movsq, then rep movsb for the tail", 0, BODIES(movsq) },
	{ "movsb", "rep movsb", 0, BODIES(movsb) },
	/* The head's xmm moves are SSE2, x86-64's baseline. */
	{ "movsb_aligned",
	  "rep movsb, from 128 bytes with the destination from a cache line's start",
	  UCOPY_F(SSE2), BODIES(movsb_aligned) },
	{ "movsb_safe",
	  "movsb_aligned, but avx2 when (dst - src) mod 4096 is 1..63 (the Zen 3 cliff)",
	  UCOPY_F(ERMS) | UCOPY_F(AVX2) | UCOPY_F(SSE2), BODIES(movsb_safe) },
	{ "movsb_coaligned",
	  "movsb_aligned when (dst - src) mod 32 is 0 (but not 32 mod 4096), else avx2",
	  UCOPY_F(ERMS) | UCOPY_F(AVX2) | UCOPY_F(SSE2), BODIES(movsb_coaligned) },
	{ "sse2", "16-byte vectors, overlapping head and tail, aligned-store loop",
	  UCOPY_F(SSE2), BODIES(sse2) },
	{ "avx2", "32-byte vectors, overlapping head and tail, aligned-store loop",
	  UCOPY_F(AVX2), BODIES(avx2) },
	/* Byte-masked moves (BW) of zmm16, ymm16-17/xmm16-17 near a page end
	 * (VL), zmm16-27 in all: EVEX-only registers need no vzeroupper. */
	{ "avx512", "64-byte vectors, one masked move below 64 bytes, aligned-store loop",
	  UCOPY_F(AVX512F) | UCOPY_F(AVX512BW) | UCOPY_F(AVX512VL), BODIES(avx512) },
	{ "nt", "non-temporal stores of whole cache lines (sse2 below 129 bytes)",
	  UCOPY_F(SSE2), BODIES(nt) },
	/* zmm16-19 only; below 257 bytes the avx512 kernel, hence BW and VL. */
	{ "nt512", "non-temporal 64-byte zmm stores of whole cache lines (avx512 below 257 bytes)",
	  UCOPY_F(AVX512F) | UCOPY_F(AVX512BW) | UCOPY_F(AVX512VL), BODIES(nt512) },
};

const size_t ucopy_arch_nkernels = sizeof ucopy_arch_kernels / sizeof ucopy_arch_kernels[0];

/* For `libc`: the widest vector kernel the CPU runs that has no cliff of its
 * own (avx512 lowers the clock on some CPUs; movsb has the Zen 3 cliff), and
 * sse2 when CPU detection reported nothing (SSE2 is x86-64 baseline). */
const char *const ucopy_arch_fault_capable_order[] = { "avx2", "sse2", NULL };
