/* Rule (webgpu.h §9.2, gpuweb #5101): MapAsync on a buffer whose device is
 * lost (after wgpuDeviceDestroy, or after the device's last release) completes
 * with Aborted, not Error, and raises no validation error (no uncaptured
 * error, an error scope pops NoError). The buffer ends Unmapped. This holds
 * for buffers made before the loss and for buffers created on the lost
 * device, in every callback mode. */
#include "mapping_util.h"

static void expect_aborted(Ctx *ctx, WGPUBuffer buf, WGPUMapMode mode, WGPUCallbackMode cbmode, const char *what) {
  MapResult r;
  mu_map_result_init(&r);
  int before = ctx->uncaptured_errors;
  WGPUFuture f = mu_map_async(buf, mode, 0, 64, cbmode, &r);
  WGPUWaitStatus ws = mu_wait(ctx->instance, f);
  int ok = ws == WGPUWaitStatus_Success && atomic_load(&r.calls) == 1 &&
           atomic_load(&r.status) == WGPUMapAsyncStatus_Aborted && atomic_load(&r.msg_nonempty) &&
           ctx->uncaptured_errors == before && wgpuBufferGetMapState(buf) == WGPUBufferMapState_Unmapped;
  if (!ok) {
    fprintf(stderr, "  case '%s': wait=%d calls=%d status=%d msg_nonempty=%d new_uncaptured=%d state=%d\n", what,
            (int)ws, atomic_load(&r.calls), atomic_load(&r.status), atomic_load(&r.msg_nonempty),
            ctx->uncaptured_errors - before, (int)wgpuBufferGetMapState(buf));
  }
  harness_check(ok, what, __FILE__, __LINE__);
  CHECK(wgpuBufferGetConstMappedRange(buf, 0, 4) == NULL);
}

int main(void) {
  start_watchdog(60);

  /* --- After wgpuDeviceDestroy. --- */
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUBuffer r1 = make_buffer(ctx.device, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  WGPUBuffer w1 = make_buffer(ctx.device, 64, WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc, 0);
  REQUIRE(r1 && w1);
  wgpuDeviceDestroy(ctx.device);
  CHECK_EQ(mu_wait(ctx.instance, wgpuDeviceGetLostFuture(ctx.device)), WGPUWaitStatus_Success);

  expect_aborted(&ctx, r1, WGPUMapMode_Read, WGPUCallbackMode_WaitAnyOnly, "read, made before destroy");
  expect_aborted(&ctx, w1, WGPUMapMode_Write, WGPUCallbackMode_AllowProcessEvents, "write, made before destroy");
  expect_aborted(&ctx, r1, WGPUMapMode_Read, WGPUCallbackMode_AllowSpontaneous, "read again, spontaneous");

  /* Even requests that would fail validation on a live device are Aborted:
   * the device-lost check comes first (§9.2 order). */
  {
    MapResult r;
    mu_map_result_init(&r);
    wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
    WGPUFuture f = mu_map_async(r1, WGPUMapMode_Read, 4, 64, WGPUCallbackMode_WaitAnyOnly, &r);
    CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError); /* lost device: scopes pop NoError */
    CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
    CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Aborted);
  }

  /* A buffer created on the lost device (a valid-looking object). */
  WGPUBuffer r2 = make_buffer(ctx.device, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  CHECK(r2 != NULL);
  if (r2) expect_aborted(&ctx, r2, WGPUMapMode_Read, WGPUCallbackMode_WaitAnyOnly, "created after destroy");
  CHECK_EQ(ctx.uncaptured_errors, 0);

  wgpuBufferRelease(r1);
  wgpuBufferRelease(w1);
  if (r2) wgpuBufferRelease(r2);
  ctx_release(&ctx);

  /* --- After the device's last release (which destroys it). --- */
  Ctx ctx2;
  REQUIRE(ctx_init(&ctx2) == 0);
  WGPUBuffer r3 = make_buffer(ctx2.device, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  REQUIRE(r3 != NULL);
  WGPUFuture lost = wgpuDeviceGetLostFuture(ctx2.device);
  wgpuQueueRelease(ctx2.queue);
  ctx2.queue = NULL;
  wgpuDeviceRelease(ctx2.device);
  ctx2.device = NULL;
  CHECK_EQ(mu_wait(ctx2.instance, lost), WGPUWaitStatus_Success);
  CHECK_EQ(ctx2.lost_calls, 1);
  expect_aborted(&ctx2, r3, WGPUMapMode_Read, WGPUCallbackMode_WaitAnyOnly, "after last device release");
  CHECK_EQ(ctx2.uncaptured_errors, 0);
  wgpuBufferRelease(r3);
  ctx_release(&ctx2);

  return test_finish();
}
