/* Rule (issue 35; WGPU_SHIM_STALE_MAPPINGS=zero): the LAST wgpuBufferRelease
 * of a mapped buffer ends its mapping, after which every address that
 * wgpuBufferGetMappedRange or wgpuBufferGetConstMappedRange returned for it
 * reads as zeros, and keeps doing so while new buffers of the same size,
 * filled with another pattern, are made and mapped along every path (taking
 * the released one's memory). A release that is not the last (after an
 * AddRef) leaves the buffer mapped and its views showing its bytes. Every
 * path (a MapWrite map, a MapRead map, mappedAtCreation), 256 B and 4 KiB
 * buffers for 200 cycles, 1 MiB and 8 MiB for 16. */
#include "stale_util.h"

#define SMALL_CYCLES 200
#define LARGE_CYCLES 16

int main(void) {
  su_set_mode("zero");
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
      /* Not the last release: still mapped, the views still its own. */
      wgpuBufferAddRef(a[p].buffer);
      wgpuBufferRelease(a[p].buffer);
      CHECK_EQ(wgpuBufferGetMapState(a[p].buffer), WGPUBufferMapState_Mapped);
      CHECK(su_views_are(&a[p], SU_A));
      su_end(&a[p], SU_RELEASE);
      su_keep(&kept, &a[p], SU_RELEASE, cycle);
    }
    for (size_t i = first; i < kept.n; i++) su_check_zero(&kept.v[i], 1, 0, "right after the last release");
    su_others_and_check(&ctx, size, large ? 2 : 3, &kept, (size_t)cycle);
  }
  su_check_kept(&kept, 1, 0, "at the end");
  printf("%d cycles in %.1f s\n", SMALL_CYCLES + LARGE_CYCLES, now_s() - t0);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  su_kept_free(&kept);
  ctx_release(&ctx);
  return test_finish();
}
