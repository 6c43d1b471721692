/* Rule (issue 35; WGPU_SHIM_STALE_MAPPINGS=zero): wgpuDeviceDestroy ends the
 * mappings of the device's buffers, after which every address that
 * wgpuBufferGetMappedRange or wgpuBufferGetConstMappedRange returned for
 * them reads as zeros, and keeps doing so once the buffers and the device
 * are released and buffers of the same size, filled with another pattern,
 * are made and mapped along every path on another device (taking the memory
 * the destroyed device had). Every path (a MapWrite map, a MapRead map,
 * mappedAtCreation), 256 B and 4 KiB buffers for 100 cycles, 1 MiB and 8 MiB
 * for 16; each cycle a new device. */
#include "stale_util.h"

#define SMALL_CYCLES 100
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
    Ctx dev;
    REQUIRE(su_device(ctx.instance, &dev));
    SuMapped a[SU_PATHS];
    size_t first = kept.n;
    for (int p = 0; p < SU_PATHS; p++) REQUIRE(su_open(&dev, (SuPath)p, size, SU_A, &a[p]));
    wgpuDeviceDestroy(dev.device);
    for (int p = 0; p < SU_PATHS; p++) {
      CHECK_EQ(wgpuBufferGetMapState(a[p].buffer), WGPUBufferMapState_Unmapped);
      su_keep(&kept, &a[p], SU_DEVICE_DESTROY, cycle);
    }
    for (size_t i = first; i < kept.n; i++) su_check_zero(&kept.v[i], 1, 0, "right after the device destroy");
    for (int p = 0; p < SU_PATHS; p++) su_close(&a[p]);
    CHECK_EQ(dev.uncaptured_errors, 0);
    su_device_release(&dev);
    for (size_t i = first; i < kept.n; i++)
      su_check_zero(&kept.v[i], 1, 0, "once the buffers and the device are released");
    su_others_and_check(&ctx, size, large ? 2 : 3, &kept, (size_t)cycle);
  }
  su_check_kept(&kept, 1, 0, "at the end");
  printf("%d cycles in %.1f s\n", SMALL_CYCLES + LARGE_CYCLES, now_s() - t0);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  su_kept_free(&kept);
  ctx_release(&ctx);
  return test_finish();
}
