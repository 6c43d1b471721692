/* The live-mapping checks that each WGPU_SHIM_STALE_MAPPINGS setting must
 * pass (header-only; include after stale_util.h or stale_fault.h): words
 * written through wgpuBufferGetMappedRange (two ranges of one mapping) or
 * with wgpuBufferWriteMappedRange, in a MapWrite map or a buffer mapped at
 * creation, reach the buffer at unmap; a MapRead map shows the buffer's
 * bytes through wgpuBufferGetConstMappedRange (also a sub-range mapping)
 * and wgpuBufferReadMappedRange; one buffer mapped again and again gets a
 * working view each time, which shows what the last mapping wrote. 256 B,
 * 4 KiB, 1 MiB and 8 MiB buffers. */
#ifndef WGPU_SHIM_STALE_LIVE_H
#define WGPU_SHIM_STALE_LIVE_H

#include "stale_util.h"

/* A check of a view whose mapping has ended (`write`: by writing), named
 * `what` in its failure. */
typedef int (*SuStaleCheck)(const volatile void *p, int write, const char *what);

/* Whether buffer b (CopySrc) holds `word` in every word, read by a copy. */
static inline int su_holds(Ctx *ctx, WGPUBuffer b, size_t size, uint32_t word) {
  uint32_t *back = (uint32_t *)malloc(size);
  int ok = back && mu_read_buffer(ctx, b, 0, back, size) && su_find_not(back, size, word, 1, 0) == SIZE_MAX;
  free(back);
  return ok;
}

/* Runs the checks above on ctx's device; `stale` (NULL: none) is run on the
 * views of mappings that ended. Returns 0, or test_finish()'s status when a
 * requirement failed (REQUIRE). */
static inline int su_live_mappings_work(Ctx *ctx, SuStaleCheck stale) {
  for (int s = 0; s < 4; s++) {
    size_t size = s < 2 ? su_small_size(s) : su_large_size(s);
    uint32_t *words = (uint32_t *)malloc(size);
    REQUIRE(words != NULL);
    SuMapped w, r, c;

    /* MapWrite: GetMappedRange's two halves, then WriteMappedRange. */
    REQUIRE(su_open(ctx, SU_MAP_WRITE, size, SU_A, &w));
    wgpuBufferUnmap(w.buffer);
    CHECK(su_holds(ctx, w.buffer, size, SU_A));
    CHECK_EQ(mu_map_wait(ctx->instance, w.buffer, WGPUMapMode_Write, 0, size), WGPUMapAsyncStatus_Success);
    su_fill_words(words, size, SU_B);
    CHECK_EQ(wgpuBufferWriteMappedRange(w.buffer, 0, words, size), WGPUStatus_Success);
    wgpuBufferUnmap(w.buffer);
    CHECK(su_holds(ctx, w.buffer, size, SU_B));

    /* The same buffer mapped again and again: each view works and shows
     * what the last one wrote; `stale` checks the one before. */
    uint32_t last = SU_B;
    const volatile uint8_t *before = NULL;
    int times = size > 4096 ? 3 : 24;
    for (int i = 0; i < times; i++) {
      CHECK_EQ(mu_map_wait(ctx->instance, w.buffer, WGPUMapMode_Write, 0, size), WGPUMapAsyncStatus_Success);
      uint32_t *v = (uint32_t *)wgpuBufferGetMappedRange(w.buffer, 0, size);
      REQUIRE(v != NULL);
      CHECK(su_find_not(v, size, last, 1, 0) == SIZE_MAX);
      last = 0x01010101u * (uint32_t)(i + 1);
      su_fill_words(v, size, last);
      wgpuBufferUnmap(w.buffer);
      if (stale && before) stale(before, 1, "a MapWrite view of an earlier mapping of the same buffer");
      before = (const volatile uint8_t *)v;
    }
    CHECK(su_holds(ctx, w.buffer, size, last));
    su_close(&w);

    /* MapRead: GetConstMappedRange (su_open), ReadMappedRange, a sub-range
     * map. */
    REQUIRE(su_open(ctx, SU_MAP_READ, size, SU_A, &r));
    memset(words, 0, size);
    CHECK_EQ(wgpuBufferReadMappedRange(r.buffer, 0, words, size), WGPUStatus_Success);
    CHECK(su_find_not(words, size, SU_A, 1, 0) == SIZE_MAX);
    wgpuBufferUnmap(r.buffer);
    CHECK_EQ(mu_map_wait(ctx->instance, r.buffer, WGPUMapMode_Read, size / 2, size / 2), WGPUMapAsyncStatus_Success);
    const uint32_t *half = (const uint32_t *)wgpuBufferGetConstMappedRange(r.buffer, size / 2, size / 2);
    CHECK(half != NULL && su_find_not(half, size / 2, SU_A, 1, 0) == SIZE_MAX);
    wgpuBufferUnmap(r.buffer);
    if (stale) stale(r.view[0], 0, "a MapRead view of an earlier mapping of the same buffer");
    if (stale && half) stale(half, 0, "a MapRead view of a sub-range mapping");
    su_close(&r);

    /* Mapped at creation. */
    REQUIRE(su_open(ctx, SU_AT_CREATION, size, SU_A, &c));
    wgpuBufferUnmap(c.buffer);
    CHECK(su_holds(ctx, c.buffer, size, SU_A));
    su_close(&c);
    free(words);
  }

  return 0;
}

#endif
