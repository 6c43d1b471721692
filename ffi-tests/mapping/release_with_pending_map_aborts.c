/* Rule (DECISIONS.md "Last external release of a buffer with a pending map";
 * webgpu.h §2 leaves it open): releasing the last external reference of a
 * buffer whose map is Pending aborts the map (callback Aborted, in every
 * callback mode, WaitAny returns promptly), as Unmap would. The buffer itself
 * is NOT destroyed: a command buffer recorded before the release that copies
 * from it still submits without a validation error and copies its contents.
 * Releasing a buffer that is merely Mapped (no pending map) raises nothing. */
#include "mapping_util.h"

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  /* --- WaitAnyOnly, behind a long GPU job. --- */
  {
    WGPUBuffer buf = make_buffer(ctx.device, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
    REQUIRE(buf != NULL);
    mu_gpu_delay_into(&ctx, buf, 7 * MU_DELAY_100MS);
    MapResult r;
    mu_map_result_init(&r);
    WGPUFuture f = mu_map_async(buf, WGPUMapMode_Read, 0, 256, WGPUCallbackMode_WaitAnyOnly, &r);
    EXPECT_NO_VALIDATION(&ctx, wgpuBufferRelease(buf));
    double t0 = now_s();
    CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
    CHECK(now_s() - t0 < 0.3);
    CHECK_EQ(atomic_load(&r.calls), 1);
    CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Aborted);
    CHECK(atomic_load(&r.msg_nonempty));
  }

  /* --- AllowSpontaneous: arrives with no WaitAny / ProcessEvents. --- */
  {
    WGPUBuffer buf = make_buffer(ctx.device, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
    REQUIRE(buf != NULL);
    mu_gpu_delay_into(&ctx, buf, 3 * MU_DELAY_100MS);
    MapResult r;
    mu_map_result_init(&r);
    WGPUFuture f = mu_map_async(buf, WGPUMapMode_Read, 0, 256, WGPUCallbackMode_AllowSpontaneous, &r);
    wgpuBufferRelease(buf);
    CHECK(mu_sleep_until(&r.calls, 1, 5000));
    CHECK_EQ(atomic_load(&r.calls), 1);
    CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Aborted);
    CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
    CHECK_EQ(atomic_load(&r.calls), 1);
  }

  /* --- AddRef'd buffer: releasing one of two refs does NOT abort. --- */
  {
    WGPUBuffer buf = make_buffer(ctx.device, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
    REQUIRE(buf != NULL);
    wgpuBufferAddRef(buf);
    MapResult r;
    mu_map_result_init(&r);
    WGPUFuture f = mu_map_async(buf, WGPUMapMode_Read, 0, 64, WGPUCallbackMode_WaitAnyOnly, &r);
    wgpuBufferRelease(buf); /* one ref left */
    CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Pending);
    CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
    CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Success);
    CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Mapped);
    CHECK(wgpuBufferGetConstMappedRange(buf, 0, 64) != NULL);
    EXPECT_NO_VALIDATION(&ctx, wgpuBufferRelease(buf)); /* last ref while Mapped */
  }

  /* --- The buffer is not destroyed by the release. --- */
  {
    /* W holds known data (written at creation). */
    uint8_t expect[256];
    mu_fill(expect, sizeof expect, 11);
    WGPUBuffer w = make_buffer(ctx.device, 256, WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc, 1);
    REQUIRE(w != NULL);
    void *p = wgpuBufferGetMappedRange(w, 0, 256);
    REQUIRE(p != NULL);
    memcpy(p, expect, 256);
    wgpuBufferUnmap(w);
    WGPUBuffer dst = make_buffer(ctx.device, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
    REQUIRE(dst != NULL);

    /* Record a copy W -> dst now, submit it only after W's release. */
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
    wgpuCommandEncoderCopyBufferToBuffer(enc, w, 0, dst, 0, 256);
    WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
    wgpuCommandEncoderRelease(enc);

    MapResult r;
    mu_map_result_init(&r);
    WGPUFuture f = mu_map_async(w, WGPUMapMode_Write, 0, 256, WGPUCallbackMode_WaitAnyOnly, &r);
    wgpuBufferRelease(w); /* last external ref, map pending */
    CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
    CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Aborted);

    /* Submitting the copy: W is neither destroyed nor mapped. */
    EXPECT_NO_VALIDATION(&ctx, wgpuQueueSubmit(ctx.queue, 1, &cmd));
    wgpuCommandBufferRelease(cmd);
    CHECK_EQ(mu_map_wait(ctx.instance, dst, WGPUMapMode_Read, 0, 256), WGPUMapAsyncStatus_Success);
    const uint8_t *q = (const uint8_t *)wgpuBufferGetConstMappedRange(dst, 0, 256);
    CHECK(q != NULL);
    if (q) CHECK(memcmp(q, expect, 256) == 0);
    wgpuBufferUnmap(dst);
    wgpuBufferRelease(dst);
  }

  CHECK_EQ(ctx.uncaptured_errors, 0);
  CHECK_EQ(ctx.lost_calls, 0);
  ctx_release(&ctx);
  return test_finish();
}
