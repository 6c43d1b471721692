/* Rule (webgpu.h §2, §6 "Device lost", §9.2): wgpuDeviceDestroy destroys every
 * buffer of the device: a Pending map is aborted (callback Aborted, state
 * Unmapped immediately, WaitAny returns promptly, not after the GPU work), a
 * Mapped buffer becomes Unmapped, and the device-lost callback reports
 * Destroyed. Maps on several buffers and in every callback mode are all
 * aborted exactly once; a buffer still mapped at creation is unmapped too. */
#include "mapping_util.h"

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  /* A: pending behind a long GPU job (WaitAnyOnly). */
  WGPUBuffer a = make_buffer(ctx.device, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  mu_gpu_delay_into(&ctx, a, 7 * MU_DELAY_100MS);
  /* B: pending, AllowSpontaneous. C: pending, AllowProcessEvents.
   * D: mapped for write. */
  WGPUBuffer b = make_buffer(ctx.device, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  WGPUBuffer c = make_buffer(ctx.device, 64, WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc, 0);
  WGPUBuffer d = make_buffer(ctx.device, 64, WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc, 0);
  /* E: still mapped at creation. F: never mapped. */
  WGPUBuffer e = make_buffer(ctx.device, 64, WGPUBufferUsage_CopySrc, 1);
  WGPUBuffer f = make_buffer(ctx.device, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  REQUIRE(a && b && c && d && e && f);
  CHECK_EQ(wgpuBufferGetMapState(e), WGPUBufferMapState_Mapped);
  CHECK(wgpuBufferGetMappedRange(e, 0, 64) != NULL);
  CHECK_EQ(mu_map_wait(ctx.instance, d, WGPUMapMode_Write, 0, 64), WGPUMapAsyncStatus_Success);
  CHECK(wgpuBufferGetMappedRange(d, 0, 64) != NULL);

  MapResult ra, rb, rc;
  mu_map_result_init(&ra);
  mu_map_result_init(&rb);
  mu_map_result_init(&rc);
  WGPUFuture fa = mu_map_async(a, WGPUMapMode_Read, 0, 256, WGPUCallbackMode_WaitAnyOnly, &ra);
  WGPUFuture fb = mu_map_async(b, WGPUMapMode_Read, 0, 64, WGPUCallbackMode_AllowSpontaneous, &rb);
  WGPUFuture fc = mu_map_async(c, WGPUMapMode_Write, 0, 64, WGPUCallbackMode_AllowProcessEvents, &rc);
  CHECK_EQ(wgpuBufferGetMapState(a), WGPUBufferMapState_Pending);

  int calls_before = atomic_load(&rb.calls); /* B may already be done */
  wgpuDeviceDestroy(ctx.device);

  /* Immediately Unmapped. */
  CHECK_EQ(wgpuBufferGetMapState(a), WGPUBufferMapState_Unmapped);
  CHECK_EQ(wgpuBufferGetMapState(c), WGPUBufferMapState_Unmapped);
  CHECK_EQ(wgpuBufferGetMapState(d), WGPUBufferMapState_Unmapped);
  CHECK_EQ(wgpuBufferGetMapState(b), WGPUBufferMapState_Unmapped);
  CHECK(wgpuBufferGetMappedRange(d, 0, 16) == NULL);
  CHECK_EQ(wgpuBufferGetMapState(e), WGPUBufferMapState_Unmapped);
  CHECK(wgpuBufferGetMappedRange(e, 0, 16) == NULL);
  CHECK_EQ(wgpuBufferGetMapState(f), WGPUBufferMapState_Unmapped);
  CHECK(wgpuBufferGetConstMappedRange(a, 0, 16) == NULL);

  /* A: WaitAny returns at once with Aborted. */
  double t0 = now_s();
  CHECK_EQ(mu_wait(ctx.instance, fa), WGPUWaitStatus_Success);
  CHECK(now_s() - t0 < 0.3);
  CHECK_EQ(atomic_load(&ra.calls), 1);
  CHECK_EQ(atomic_load(&ra.status), WGPUMapAsyncStatus_Aborted);
  CHECK(atomic_load(&ra.msg_nonempty));

  /* B: spontaneous delivery, Aborted (unless it had already succeeded before
   * the destroy, which a tiny copy-free map may do). */
  CHECK(mu_sleep_until(&rb.calls, 1, 5000));
  CHECK_EQ(atomic_load(&rb.calls), 1);
  if (calls_before == 0) {
    int st = atomic_load(&rb.status);
    CHECK(st == WGPUMapAsyncStatus_Aborted || st == WGPUMapAsyncStatus_Success);
  }

  /* C: delivered by ProcessEvents, Aborted. */
  CHECK(mu_poll_until(ctx.instance, &rc.calls, 1, 5000));
  CHECK_EQ(atomic_load(&rc.calls), 1);
  CHECK_EQ(atomic_load(&rc.status), WGPUMapAsyncStatus_Aborted);

  /* Waiting on all again: completed, no second calls. */
  CHECK_EQ(mu_wait(ctx.instance, fb), WGPUWaitStatus_Success);
  CHECK_EQ(mu_wait(ctx.instance, fc), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&ra.calls), 1);
  CHECK_EQ(atomic_load(&rb.calls), 1);
  CHECK_EQ(atomic_load(&rc.calls), 1);

  /* The lost callback (AllowSpontaneous in the harness) says Destroyed, once. */
  WGPUFuture lost = wgpuDeviceGetLostFuture(ctx.device);
  CHECK_EQ(mu_wait(ctx.instance, lost), WGPUWaitStatus_Success);
  CHECK_EQ(ctx.lost_calls, 1);
  CHECK_EQ(ctx.lost_reason, WGPUDeviceLostReason_Destroyed);
  CHECK(!ctx.lost_device_was_null);

  /* Unmap / Destroy on those buffers now: harmless. */
  wgpuBufferUnmap(a);
  wgpuBufferUnmap(d);
  wgpuBufferDestroy(b);
  CHECK_EQ(wgpuBufferGetMapState(d), WGPUBufferMapState_Unmapped);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  wgpuBufferRelease(a);
  wgpuBufferRelease(b);
  wgpuBufferRelease(c);
  wgpuBufferRelease(d);
  wgpuBufferRelease(e);
  wgpuBufferRelease(f);
  ctx_release(&ctx);
  return test_finish();
}
