/* Rule (webgpu.h §9.2, §12): MapAsync on a buffer whose map state is not
 * Unmapped (Pending or Mapped) completes with status Error (not Aborted) and a
 * non-empty message, and raises exactly one validation error on the device.
 * The existing pending request or mapping is untouched and keeps working. */
#include "mapping_util.h"

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  uint8_t expect[64];
  mu_fill(expect, sizeof expect, 7);
  WGPUBuffer buf = mu_buffer_with_data(&ctx, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 7);
  REQUIRE(buf != NULL);

  /* --- Second MapAsync while the first is Pending. --- */
  MapResult first;
  mu_map_result_init(&first);
  WGPUFuture f1 = mu_map_async(buf, WGPUMapMode_Read, 0, 64, WGPUCallbackMode_WaitAnyOnly, &first);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Pending);

  /* Exactly one validation error, counted on the uncaptured callback. */
  int before = ctx.uncaptured_errors;
  MapResult second;
  mu_map_result_init(&second);
  WGPUFuture f2 = mu_map_async(buf, WGPUMapMode_Read, 0, 64, WGPUCallbackMode_WaitAnyOnly, &second);
  CHECK_EQ(mu_wait(ctx.instance, f2), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&second.calls), 1);
  CHECK_EQ(atomic_load(&second.status), WGPUMapAsyncStatus_Error);
  CHECK(atomic_load(&second.msg_nonempty));
  CHECK_EQ(mu_uncaptured_since(&ctx, before, 1000), 1);
  CHECK_EQ(ctx.last_error_type, WGPUErrorType_Validation);

  /* The first request is untouched: still Pending, not yet called. */
  CHECK_EQ(atomic_load(&first.calls), 0);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Pending);

  /* The same through an error scope, with a sub-range and the other mode. */
  MapResult third;
  mu_map_result_init(&third);
  WGPUFuture f3 = {0};
  EXPECT_VALIDATION(&ctx, f3 = mu_map_async(buf, WGPUMapMode_Read, 8, 8, WGPUCallbackMode_WaitAnyOnly, &third));
  CHECK_EQ(mu_wait(ctx.instance, f3), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&third.status), WGPUMapAsyncStatus_Error);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Pending);

  /* The first request then completes normally, with the full range. */
  CHECK_EQ(mu_wait(ctx.instance, f1), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&first.calls), 1);
  CHECK_EQ(atomic_load(&first.status), WGPUMapAsyncStatus_Success);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Mapped);
  const uint8_t *p = (const uint8_t *)wgpuBufferGetConstMappedRange(buf, 0, 64);
  CHECK(p != NULL);
  if (p) CHECK(memcmp(p, expect, 64) == 0);
  /* The failed requests did not get a second delivery. */
  CHECK_EQ(atomic_load(&second.calls), 1);
  CHECK_EQ(atomic_load(&third.calls), 1);

  /* --- MapAsync while Mapped. --- */
  before = ctx.uncaptured_errors;
  MapResult fourth;
  mu_map_result_init(&fourth);
  WGPUFuture f4 = mu_map_async(buf, WGPUMapMode_Read, 0, 64, WGPUCallbackMode_WaitAnyOnly, &fourth);
  CHECK_EQ(mu_wait(ctx.instance, f4), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&fourth.calls), 1);
  CHECK_EQ(atomic_load(&fourth.status), WGPUMapAsyncStatus_Error);
  CHECK(atomic_load(&fourth.msg_nonempty));
  CHECK_EQ(mu_uncaptured_since(&ctx, before, 1000), 1);
  CHECK_EQ(ctx.last_error_type, WGPUErrorType_Validation);

  MapResult fifth;
  mu_map_result_init(&fifth);
  WGPUFuture f5 = {0};
  EXPECT_VALIDATION(&ctx, f5 = mu_map_async(buf, WGPUMapMode_Read, 0, 16, WGPUCallbackMode_AllowSpontaneous, &fifth));
  CHECK_EQ(mu_wait(ctx.instance, f5), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&fifth.calls), 1);
  CHECK_EQ(atomic_load(&fifth.status), WGPUMapAsyncStatus_Error);

  /* The mapping is untouched: still Mapped, the earlier pointer still reads
   * the data, new ranges can still be taken. */
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Mapped);
  if (p) CHECK(memcmp(p, expect, 64) == 0);
  const uint8_t *q = (const uint8_t *)wgpuBufferGetConstMappedRange(buf, 32, 32);
  CHECK(q != NULL);
  if (q) CHECK(memcmp(q, expect + 32, 32) == 0);
  uint8_t tmp[16];
  CHECK_EQ(wgpuBufferReadMappedRange(buf, 16, tmp, 16), WGPUStatus_Success);
  CHECK(memcmp(tmp, expect + 16, 16) == 0);

  /* Unmap still works and the buffer can be mapped again. */
  wgpuBufferUnmap(buf);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);
  CHECK_EQ(mu_map_wait(ctx.instance, buf, WGPUMapMode_Read, 0, 64), WGPUMapAsyncStatus_Success);
  wgpuBufferUnmap(buf);

  /* --- mappedAtCreation buffer (Mapped from the start). --- */
  WGPUBuffer mc = make_buffer(ctx.device, 16, WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc, 1);
  REQUIRE(mc != NULL);
  uint32_t *m = (uint32_t *)wgpuBufferGetMappedRange(mc, 0, 16);
  CHECK(m != NULL);
  MapResult sixth;
  mu_map_result_init(&sixth);
  WGPUFuture f6 = {0};
  EXPECT_VALIDATION(&ctx, f6 = mu_map_async(mc, WGPUMapMode_Write, 0, 16, WGPUCallbackMode_WaitAnyOnly, &sixth));
  CHECK_EQ(mu_wait(ctx.instance, f6), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&sixth.status), WGPUMapAsyncStatus_Error);
  CHECK_EQ(wgpuBufferGetMapState(mc), WGPUBufferMapState_Mapped);
  if (m) m[0] = 0xC0FFEEu; /* the creation mapping is still writable */
  wgpuBufferUnmap(mc);
  CHECK_EQ(wgpuBufferGetMapState(mc), WGPUBufferMapState_Unmapped);

  wgpuBufferRelease(mc);
  wgpuBufferRelease(buf);
  ctx_release(&ctx);
  return test_finish();
}
