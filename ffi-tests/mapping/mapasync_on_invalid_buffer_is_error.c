/* Rule (WebGPU CTS / Dawn; DECISIONS "MapAsync on an invalid buffer"):
 * MapAsync on an invalid buffer (created with an invalid usage) raises one
 * validation error and completes with Error (not Aborted); the buffer stays
 * Unmapped. On a lost device it is still Aborted with no error. */
#include "mapping_util.h"

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  /* MapRead with anything but CopyDst is an invalid usage. */
  WGPUBuffer bad = NULL;
  EXPECT_VALIDATION(&ctx, bad = make_buffer(ctx.device, 16, WGPUBufferUsage_MapRead | WGPUBufferUsage_Storage, 0));
  REQUIRE(bad != NULL);
  MapResult r;
  mu_map_result_init(&r);
  WGPUFuture f = {0};
  int before = ctx.uncaptured_errors;
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  f = mu_map_async(bad, WGPUMapMode_Read, 0, 16, WGPUCallbackMode_WaitAnyOnly, &r);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_Validation);
  CHECK_EQ(ctx.uncaptured_errors, before);
  CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&r.calls), 1);
  CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Error);
  CHECK(atomic_load(&r.msg_nonempty));
  CHECK_EQ(wgpuBufferGetMapState(bad), WGPUBufferMapState_Unmapped);

  /* A second try behaves the same (the state went back to Unmapped). */
  mu_map_result_init(&r);
  EXPECT_VALIDATION(&ctx, f = mu_map_async(bad, WGPUMapMode_Read, 0, 16, WGPUCallbackMode_WaitAnyOnly, &r));
  CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Error);

  /* Lost device: Aborted, no error. */
  wgpuDeviceDestroy(ctx.device);
  mu_map_result_init(&r);
  EXPECT_NO_VALIDATION(&ctx, f = mu_map_async(bad, WGPUMapMode_Read, 0, 16, WGPUCallbackMode_WaitAnyOnly, &r));
  CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Aborted);

  wgpuBufferRelease(bad);
  ctx_release(&ctx);
  return test_finish();
}
