/* Rule (issue 35; WGPU_SHIM_STALE_MAPPINGS=driver, docs/MAPPING.md): the
 * opt-out that hands out the driver's pointers, as other implementations
 * do (no guarantee after unmap; for measuring what views cost), keeps
 * every live mapping working. Words written through
 * wgpuBufferGetMappedRange (two ranges of one mapping) or with
 * wgpuBufferWriteMappedRange, in a MapWrite map or a buffer mapped at
 * creation, reach the buffer at unmap; a MapRead map shows the buffer's
 * bytes through wgpuBufferGetConstMappedRange (also a sub-range mapping)
 * and wgpuBufferReadMappedRange; one buffer mapped again and again shows
 * what the last mapping wrote. 256 B, 4 KiB, 1 MiB and 8 MiB buffers.
 * What a pointer shows after unmap is not checked: that is the driver's. */
#include "stale_util.h"

/* Whether buffer b (CopySrc) holds `word` in every word, read by a copy. */
static int holds(Ctx *ctx, WGPUBuffer b, size_t size, uint32_t word) {
  uint32_t *back = (uint32_t *)malloc(size);
  int ok = back && mu_read_buffer(ctx, b, 0, back, size) && su_find_not(back, size, word, 1, 0) == SIZE_MAX;
  free(back);
  return ok;
}

int main(void) {
  su_set_mode("driver");
  start_watchdog(120);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  for (int s = 0; s < 4; s++) {
    size_t size = s < 2 ? su_small_size(s) : su_large_size(s);
    uint32_t *words = (uint32_t *)malloc(size);
    REQUIRE(words != NULL);
    SuMapped w, r, c;

    /* MapWrite: GetMappedRange's two halves, then WriteMappedRange. */
    REQUIRE(su_open(&ctx, SU_MAP_WRITE, size, SU_A, &w));
    wgpuBufferUnmap(w.buffer);
    CHECK(holds(&ctx, w.buffer, size, SU_A));
    CHECK_EQ(mu_map_wait(ctx.instance, w.buffer, WGPUMapMode_Write, 0, size), WGPUMapAsyncStatus_Success);
    su_fill_words(words, size, SU_B);
    CHECK_EQ(wgpuBufferWriteMappedRange(w.buffer, 0, words, size), WGPUStatus_Success);
    wgpuBufferUnmap(w.buffer);
    CHECK(holds(&ctx, w.buffer, size, SU_B));

    /* The same buffer mapped again and again: each view works and shows
     * what the last one wrote. */
    uint32_t last = SU_B;
    int times = size > 4096 ? 3 : 24;
    for (int i = 0; i < times; i++) {
      CHECK_EQ(mu_map_wait(ctx.instance, w.buffer, WGPUMapMode_Write, 0, size), WGPUMapAsyncStatus_Success);
      uint32_t *v = (uint32_t *)wgpuBufferGetMappedRange(w.buffer, 0, size);
      REQUIRE(v != NULL);
      CHECK(su_find_not(v, size, last, 1, 0) == SIZE_MAX);
      last = 0x01010101u * (uint32_t)(i + 1);
      su_fill_words(v, size, last);
      wgpuBufferUnmap(w.buffer);
    }
    CHECK(holds(&ctx, w.buffer, size, last));
    su_close(&w);

    /* MapRead: GetConstMappedRange (su_open), ReadMappedRange, a sub-range
     * map. */
    REQUIRE(su_open(&ctx, SU_MAP_READ, size, SU_A, &r));
    memset(words, 0, size);
    CHECK_EQ(wgpuBufferReadMappedRange(r.buffer, 0, words, size), WGPUStatus_Success);
    CHECK(su_find_not(words, size, SU_A, 1, 0) == SIZE_MAX);
    wgpuBufferUnmap(r.buffer);
    CHECK_EQ(mu_map_wait(ctx.instance, r.buffer, WGPUMapMode_Read, size / 2, size / 2), WGPUMapAsyncStatus_Success);
    const uint32_t *half = (const uint32_t *)wgpuBufferGetConstMappedRange(r.buffer, size / 2, size / 2);
    CHECK(half != NULL && su_find_not(half, size / 2, SU_A, 1, 0) == SIZE_MAX);
    wgpuBufferUnmap(r.buffer);
    su_close(&r);

    /* Mapped at creation. */
    REQUIRE(su_open(&ctx, SU_AT_CREATION, size, SU_A, &c));
    wgpuBufferUnmap(c.buffer);
    CHECK(holds(&ctx, c.buffer, size, SU_A));
    su_close(&c);
    free(words);
  }

  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
