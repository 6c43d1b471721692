/* Fault `create-oom` (the backend cannot allocate a buffer at creation),
 * injected at the 2nd CreateBuffer: an OutOfMemory error (caught by an
 * OutOfMemory error scope, not a validation one), a non-NULL invalid buffer
 * whose MapAsync gives Error once, and a device that goes on working: the
 * next buffer is created, written and read back intact. */
#include "fault_util.h"

int main(void) {
  fault_plan("create-oom@2");
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUBuffer first = make_buffer(ctx.device, 64, WGPUBufferUsage_CopyDst, 0);
  CHECK(first != NULL);

  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_OutOfMemory);
  WGPUBuffer bad = make_buffer(ctx.device, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  CHECK(bad != NULL);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_OutOfMemory);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);

  MapResult r;
  mu_map_result_init(&r);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  WGPUFuture f = mu_map_async(bad, WGPUMapMode_Read, 0, 256, WGPUCallbackMode_WaitAnyOnly, &r);
  CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
  mu_pop_type(&ctx);
  CHECK_EQ(atomic_load(&r.calls), 1);
  CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Error);
  CHECK_EQ(wgpuBufferGetMapState(bad), WGPUBufferMapState_Unmapped);

  WGPUBuffer good = mu_buffer_with_data(&ctx, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 3);
  REQUIRE(good != NULL);
  CHECK_EQ(mu_map_wait(ctx.instance, good, WGPUMapMode_Read, 0, 256), WGPUMapAsyncStatus_Success);
  const uint8_t *p = wgpuBufferGetConstMappedRange(good, 0, 256);
  uint8_t want[256];
  mu_fill(want, sizeof want, 3);
  CHECK(p && memcmp(p, want, sizeof want) == 0);
  CHECK_EQ(ctx.lost_calls, 0);
  CHECK_EQ(atomic_load(&r.calls), 1);
  wgpuBufferRelease(good);
  wgpuBufferRelease(bad);
  wgpuBufferRelease(first);
  ctx_release(&ctx);
  return test_finish();
}
