/* Rule (issue 35; WGPU_SHIM_STALE_MAPPINGS=fault): once a mapping ends
 * (wgpuBufferUnmap, wgpuBufferDestroy, the last wgpuBufferRelease,
 * wgpuDeviceDestroy), a read or a write of any address that
 * wgpuBufferGetMappedRange or wgpuBufferGetConstMappedRange returned for it
 * raises SIGSEGV (or SIGBUS) at that address, and keeps doing so while new
 * buffers of the same size, filled with another pattern, are made and
 * mapped along every path. Live views work as ever until the end. Every
 * path (a MapWrite map, a MapRead map, mappedAtCreation), every end in turn,
 * 256 B and 4 KiB buffers for 200 cycles, 1 MiB and 8 MiB for 16. The faults
 * are caught by a handler that this test installs for each probing access
 * only (POSIX signals: not on Windows, ffi-tests/CMakeLists.txt). */
#include "stale_fault.h"

#define SMALL_CYCLES 200
#define LARGE_CYCLES 16

int main(void) {
  su_set_mode("fault");
  start_watchdog(120);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  SuKeptList kept = {0};
  double t0 = now_s();

  for (int cycle = 0; cycle < SMALL_CYCLES + LARGE_CYCLES; cycle++) {
    int large = cycle >= SMALL_CYCLES;
    size_t size = large ? su_large_size(cycle) : su_small_size(cycle);
    /* Over two cycles of each size, every end. */
    SuEnd end = (SuEnd)((cycle / 2) % SU_ENDS);
    Ctx dev;
    Ctx *on = &ctx;
    if (end == SU_DEVICE_DESTROY) {
      REQUIRE(su_device(ctx.instance, &dev));
      on = &dev;
    }
    SuMapped a[SU_PATHS];
    size_t first = kept.n;
    for (int p = 0; p < SU_PATHS; p++) REQUIRE(su_open(on, (SuPath)p, size, SU_A, &a[p]));
    /* Live: every word of both views is SU_A (su_open checked MapRead's). */
    for (int p = 0; p < SU_PATHS; p++) CHECK(su_views_are(&a[p], SU_A));
    if (end == SU_DEVICE_DESTROY) wgpuDeviceDestroy(dev.device);
    for (int p = 0; p < SU_PATHS; p++) {
      su_end(&a[p], end);
      su_keep(&kept, &a[p], end, cycle);
    }
    /* Reads and writes of each new stale view's first, middle and last
     * byte. */
    SuKeptList fresh = {kept.v + first, kept.n - first, 0};
    su_check_kept_fault(&fresh, 1);
    for (int p = 0; p < SU_PATHS; p++) su_close(&a[p]);
    if (end == SU_DEVICE_DESTROY) su_device_release(&dev);

    /* Other buffers of the same size, pattern B, mapped: every kept view
     * still faults (reads). */
    SuMapped b[SU_PATHS][2];
    for (int p = 0; p < SU_PATHS; p++)
      for (int k = 0; k < 2; k++) CHECK(su_open(&ctx, (SuPath)p, size, SU_B, &b[p][k]));
    su_check_kept_fault(&kept, 0);
    for (int p = 0; p < SU_PATHS; p++)
      for (int k = 0; k < 2; k++) {
        CHECK(su_views_are(&b[p][k], SU_B));
        su_close(&b[p][k]);
      }
  }
  su_check_kept_fault(&kept, 1);
  printf("%d cycles in %.1f s\n", SMALL_CYCLES + LARGE_CYCLES, now_s() - t0);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  su_kept_free(&kept);
  ctx_release(&ctx);
  return test_finish();
}
