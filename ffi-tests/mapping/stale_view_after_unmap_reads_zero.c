/* Rule (issue 35; WGPU_SHIM_STALE_MAPPINGS unset, so its default `zero`):
 * after wgpuBufferUnmap every address that wgpuBufferGetMappedRange or
 * wgpuBufferGetConstMappedRange returned for the mapping reads as zeros, and
 * keeps doing so while other buffers, filled with another pattern, take its
 * place: the buffer itself released, new buffers of the same size made,
 * filled and mapped along every path. The same buffer mapped again gets a
 * new view, which shows the buffer's bytes while the old one stays zero;
 * what was written through a write view reached the buffer at unmap. Every
 * path (a MapWrite map, a MapRead map, mappedAtCreation), 256 B and 4 KiB
 * buffers for 200 cycles, 1 MiB and 8 MiB for 16. */
#include "stale_util.h"

#define SMALL_CYCLES 200
#define LARGE_CYCLES 16

/* The buffers of `a`, unmapped and not yet released: each mapped again (the
 * MapRead one must show SU_A; the MapWrite one takes SU_B through its new
 * view) while the kept views are checked, then read back by a copy (the one
 * mapped at creation must hold SU_A, what its view held at unmap; the
 * MapWrite one SU_B). */
static void map_again(Ctx *ctx, SuMapped a[SU_PATHS], SuKeptList *kept) {
  size_t size = a[0].size;
  WGPUBuffer rb = a[SU_MAP_READ].buffer;
  CHECK_EQ(mu_map_wait(ctx->instance, rb, WGPUMapMode_Read, 0, size), WGPUMapAsyncStatus_Success);
  const uint32_t *r = (const uint32_t *)wgpuBufferGetConstMappedRange(rb, 0, size);
  CHECK(r != NULL);
  if (r) CHECK(su_find_not(r, size, SU_A, 1, 0) == SIZE_MAX);
  WGPUBuffer wb = a[SU_MAP_WRITE].buffer;
  CHECK_EQ(mu_map_wait(ctx->instance, wb, WGPUMapMode_Write, 0, size), WGPUMapAsyncStatus_Success);
  uint32_t *w = (uint32_t *)wgpuBufferGetMappedRange(wb, 0, size);
  CHECK(w != NULL);
  if (w) su_fill_words(w, size, SU_B);
  atomic_fetch_add(su_map_counter(), 2);
  su_check_kept(kept, 1, 0, "while the same buffers are mapped again");
  wgpuBufferUnmap(rb);
  wgpuBufferUnmap(wb);
  uint32_t *back = (uint32_t *)malloc(size);
  if (!back) return;
  CHECK(mu_read_buffer(ctx, a[SU_AT_CREATION].buffer, 0, back, size));
  CHECK(su_find_not(back, size, SU_A, 1, 0) == SIZE_MAX);
  CHECK(mu_read_buffer(ctx, wb, 0, back, size));
  CHECK(su_find_not(back, size, SU_B, 1, 0) == SIZE_MAX);
  free(back);
}

int main(void) {
  su_set_mode(NULL);
  start_watchdog(120);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  SuKeptList kept = {0};
  double t0 = now_s();

  for (int cycle = 0; cycle < SMALL_CYCLES + LARGE_CYCLES; cycle++) {
    int large = cycle >= SMALL_CYCLES;
    size_t size = large ? su_large_size(cycle) : su_small_size(cycle);
    SuMapped a[SU_PATHS];
    size_t first = kept.n;
    for (int p = 0; p < SU_PATHS; p++) REQUIRE(su_open(&ctx, (SuPath)p, size, SU_A, &a[p]));
    for (int p = 0; p < SU_PATHS; p++) {
      su_end(&a[p], SU_UNMAP);
      CHECK_EQ(wgpuBufferGetMapState(a[p].buffer), WGPUBufferMapState_Unmapped);
      su_keep(&kept, &a[p], SU_UNMAP, cycle);
    }
    for (size_t i = first; i < kept.n; i++) su_check_zero(&kept.v[i], 1, 0, "right after the unmap");
    if (large || cycle % 10 == 0) map_again(&ctx, a, &kept);
    for (int p = 0; p < SU_PATHS; p++) su_close(&a[p]);
    su_others_and_check(&ctx, size, large ? 2 : 3, &kept, (size_t)cycle);
  }
  su_check_kept(&kept, 1, 0, "at the end");
  printf("%d cycles in %.1f s\n", SMALL_CYCLES + LARGE_CYCLES, now_s() - t0);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  su_kept_free(&kept);
  ctx_release(&ctx);
  return test_finish();
}
