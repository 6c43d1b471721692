/* Rule (webgpu.h §9.2, §9.3, §9.5): wgpuBufferDestroy while a map is Pending
 * aborts it (destroy unmaps): callback Aborted with a non-empty message, state
 * Unmapped at once, no validation error, WaitAny returns promptly (not after
 * the GPU work the map waited for). Destroy of a Mapped buffer unmaps it.
 * Destroy may be called any number of times. */
#include "mapping_util.h"

static void pending_case(Ctx *ctx, WGPUCallbackMode mode, uint32_t delay_workgroups) {
  WGPUBuffer buf = make_buffer(ctx->device, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  if (!buf) {
    CHECK(buf != NULL);
    return;
  }
  if (delay_workgroups) mu_gpu_delay_into(ctx, buf, delay_workgroups);
  MapResult r;
  mu_map_result_init(&r);
  WGPUFuture f = mu_map_async(buf, WGPUMapMode_Read, 0, 256, mode, &r);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Pending);

  EXPECT_NO_VALIDATION(ctx, wgpuBufferDestroy(buf));
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);

  double t0 = now_s();
  if (mode == WGPUCallbackMode_AllowSpontaneous) {
    CHECK(mu_sleep_until(&r.calls, 1, 5000));
  } else {
    CHECK_EQ(atomic_load(&r.calls), 0);
    CHECK_EQ(mu_wait(ctx->instance, f), WGPUWaitStatus_Success);
  }
  CHECK(now_s() - t0 < 0.3);
  CHECK_EQ(atomic_load(&r.calls), 1);
  CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Aborted);
  CHECK(atomic_load(&r.msg_nonempty));
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);
  CHECK(wgpuBufferGetConstMappedRange(buf, 0, 4) == NULL);

  /* Destroy again: fine, no error, no second callback. */
  EXPECT_NO_VALIDATION(ctx, wgpuBufferDestroy(buf));
  CHECK_EQ(mu_wait(ctx->instance, f), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&r.calls), 1);
  /* Unmap after destroy: nothing happens, no error. */
  EXPECT_NO_VALIDATION(ctx, wgpuBufferUnmap(buf));
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);
  wgpuBufferRelease(buf);
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  pending_case(&ctx, WGPUCallbackMode_WaitAnyOnly, 7 * MU_DELAY_100MS);
  pending_case(&ctx, WGPUCallbackMode_AllowSpontaneous, 3 * MU_DELAY_100MS);
  pending_case(&ctx, WGPUCallbackMode_WaitAnyOnly, 0);

  /* Destroy while Mapped: Unmapped, ranges gone, no error. */
  WGPUBuffer buf = make_buffer(ctx.device, 64, WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc, 0);
  REQUIRE(buf != NULL);
  CHECK_EQ(mu_map_wait(ctx.instance, buf, WGPUMapMode_Write, 0, 64), WGPUMapAsyncStatus_Success);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Mapped);
  CHECK(wgpuBufferGetMappedRange(buf, 0, 16) != NULL);
  EXPECT_NO_VALIDATION(&ctx, wgpuBufferDestroy(buf));
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);
  CHECK(wgpuBufferGetMappedRange(buf, 16, 16) == NULL);
  CHECK(wgpuBufferGetConstMappedRange(buf, 16, 16) == NULL);
  wgpuBufferRelease(buf);

  /* Destroy of a mappedAtCreation buffer before Unmap. */
  WGPUBuffer mc = make_buffer(ctx.device, 64, WGPUBufferUsage_CopySrc, 1);
  REQUIRE(mc != NULL);
  CHECK_EQ(wgpuBufferGetMapState(mc), WGPUBufferMapState_Mapped);
  EXPECT_NO_VALIDATION(&ctx, wgpuBufferDestroy(mc); wgpuBufferDestroy(mc));
  CHECK_EQ(wgpuBufferGetMapState(mc), WGPUBufferMapState_Unmapped);
  CHECK(wgpuBufferGetMappedRange(mc, 0, 16) == NULL);
  wgpuBufferRelease(mc);

  /* Destroy of a never-mapped buffer, several times. */
  WGPUBuffer plain = make_buffer(ctx.device, 64, WGPUBufferUsage_CopyDst, 0);
  EXPECT_NO_VALIDATION(&ctx, wgpuBufferDestroy(plain); wgpuBufferDestroy(plain); wgpuBufferDestroy(plain));
  wgpuBufferRelease(plain);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
