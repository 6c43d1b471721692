/* Fault `lose-in-callback`: the device is lost while a successful map's
 * callback is being delivered (inside WaitAny, before the buffer becomes
 * Mapped). The callback runs once with Aborted, not Success; the buffer is
 * Unmapped with no range; the lost callback runs once with reason Unknown;
 * and a second buffer's map, delivered after, is Aborted too. */
#include "fault_util.h"

int main(void) {
  fault_plan("lose-in-callback");
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUBuffer a = mu_buffer_with_data(&ctx, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 1);
  WGPUBuffer b = mu_buffer_with_data(&ctx, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 2);
  REQUIRE(a != NULL && b != NULL);
  MapResult ra, rb;
  mu_map_result_init(&ra);
  mu_map_result_init(&rb);
  WGPUFuture fa = mu_map_async(a, WGPUMapMode_Read, 0, 256, WGPUCallbackMode_WaitAnyOnly, &ra);
  WGPUFuture fb = mu_map_async(b, WGPUMapMode_Read, 0, 256, WGPUCallbackMode_WaitAnyOnly, &rb);
  CHECK_EQ(mu_wait(ctx.instance, fa), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&ra.calls), 1);
  CHECK_EQ(atomic_load(&ra.status), WGPUMapAsyncStatus_Aborted);
  CHECK_EQ(wgpuBufferGetMapState(a), WGPUBufferMapState_Unmapped);
  CHECK(wgpuBufferGetConstMappedRange(a, 0, 4) == NULL);
  CHECK_EQ(mu_wait(ctx.instance, fb), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&rb.calls), 1);
  CHECK_EQ(atomic_load(&rb.status), WGPUMapAsyncStatus_Aborted);
  CHECK_EQ(fault_wait_lost(&ctx), 1);
  CHECK_EQ(ctx.lost_reason, WGPUDeviceLostReason_Unknown);
  wgpuBufferRelease(a);
  wgpuBufferRelease(b);
  ctx_release(&ctx);
  CHECK_EQ(ctx.lost_calls, 1);
  return test_finish();
}
