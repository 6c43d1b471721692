/* Rule (issue 35; WGPU_SHIM_STALE_MAPPINGS=zero): a write through a stale
 * view (an address that wgpuBufferGetMappedRange or
 * wgpuBufferGetConstMappedRange returned for a mapping that has ended:
 * unmap, destroy, last release) succeeds and reaches no buffer: not the old
 * one (mapped again, or copied out, it holds what it held at unmap) and not
 * a buffer made after it, whether the write comes before that buffer is
 * made or while it is mapped. 0xAB bytes over whole views; every path (a
 * MapWrite map, a MapRead map, mappedAtCreation), 256 B and 4 KiB buffers
 * for 150 cycles, 1 MiB and 8 MiB for 18, the end rotating. */
#include "stale_util.h"

#define SMALL_CYCLES 150
#define LARGE_CYCLES 18

/* Writes SU_STALE_BYTE over both views of every buffer of a, the MapRead
 * (const) ones last. */
static void stale_write(SuMapped a[SU_PATHS]) {
  SuPath order[SU_PATHS] = {SU_MAP_WRITE, SU_AT_CREATION, SU_MAP_READ};
  for (int i = 0; i < SU_PATHS; i++)
    for (int r = 0; r < 2; r++) memset(a[order[i]].view[r], SU_STALE_BYTE, a[order[i]].len[r]);
}

/* Whether none of p[0, n) is SU_STALE_BYTE. */
static int no_stale_byte(const void *p, size_t n) { return p && memchr(p, SU_STALE_BYTE, n) == NULL; }

/* Whether buffer b (CopySrc) holds `word` in every word, read by a copy. */
static int holds(Ctx *ctx, WGPUBuffer b, size_t size, uint32_t word) {
  uint32_t *back = (uint32_t *)malloc(size);
  int ok = back && mu_read_buffer(ctx, b, 0, back, size) && su_find_not(back, size, word, 1, 0) == SIZE_MAX;
  free(back);
  return ok;
}

int main(void) {
  su_set_mode("zero");
  start_watchdog(120);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  double t0 = now_s();

  for (int cycle = 0; cycle < SMALL_CYCLES + LARGE_CYCLES; cycle++) {
    int large = cycle >= SMALL_CYCLES;
    size_t size = large ? su_large_size(cycle) : su_small_size(cycle);
    SuEnd end = (SuEnd)(cycle % 3); /* unmap, destroy, last release */
    SuMapped a[SU_PATHS], c[SU_PATHS];
    for (int p = 0; p < SU_PATHS; p++) REQUIRE(su_open(&ctx, (SuPath)p, size, SU_A, &a[p]));
    for (int p = 0; p < SU_PATHS; p++) su_end(&a[p], end);
    stale_write(a);

    if (end == SU_UNMAP) {
      /* The old buffers hold what they held at unmap. */
      WGPUBuffer rb = a[SU_MAP_READ].buffer, wb = a[SU_MAP_WRITE].buffer;
      CHECK_EQ(mu_map_wait(ctx.instance, rb, WGPUMapMode_Read, 0, size), WGPUMapAsyncStatus_Success);
      const void *r = wgpuBufferGetConstMappedRange(rb, 0, size);
      CHECK(r != NULL && su_find_not((const uint32_t *)r, size, SU_A, 1, 0) == SIZE_MAX);
      wgpuBufferUnmap(rb);
      CHECK_EQ(mu_map_wait(ctx.instance, wb, WGPUMapMode_Write, 0, size), WGPUMapAsyncStatus_Success);
      CHECK(no_stale_byte(wgpuBufferGetConstMappedRange(wb, 0, size), size));
      wgpuBufferUnmap(wb);
      CHECK(holds(&ctx, wb, size, SU_A));
      CHECK(holds(&ctx, a[SU_AT_CREATION].buffer, size, SU_A));
      atomic_fetch_add(su_map_counter(), 2);
    }
    for (int p = 0; p < SU_PATHS; p++) su_close(&a[p]);

    /* New buffers, left as created (zeros): the earlier stale write is not
     * in them, nor one made while they are mapped. */
    for (int p = 0; p < SU_PATHS; p++) REQUIRE(su_open(&ctx, (SuPath)p, size, SU_NO_FILL, &c[p]));
    for (int p = 0; p < SU_PATHS; p++) CHECK(su_views_are(&c[p], 0));
    stale_write(a);
    for (int p = 0; p < SU_PATHS; p++) {
      if (!su_views_are(&c[p], 0))
        fprintf(stderr, "cycle %d: a new %zu-byte buffer's view (%s) is not all zeros after a stale write\n", cycle,
                size, su_path_name((SuPath)p));
      CHECK(su_views_are(&c[p], 0));
      wgpuBufferUnmap(c[p].buffer);
    }
    CHECK(holds(&ctx, c[SU_MAP_WRITE].buffer, size, 0));
    CHECK(holds(&ctx, c[SU_AT_CREATION].buffer, size, 0));
    CHECK_EQ(mu_map_wait(ctx.instance, c[SU_MAP_READ].buffer, WGPUMapMode_Read, 0, size), WGPUMapAsyncStatus_Success);
    CHECK(no_stale_byte(wgpuBufferGetConstMappedRange(c[SU_MAP_READ].buffer, 0, size), size));
    for (int p = 0; p < SU_PATHS; p++) su_close(&c[p]);
  }
  printf("%d cycles in %.1f s\n", SMALL_CYCLES + LARGE_CYCLES, now_s() - t0);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
