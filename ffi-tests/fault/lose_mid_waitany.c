/* Fault `lose-mid-waitany`: the device is lost (from another thread) 100 ms
 * into a WaitAny that sleeps on a map behind about 1.5 s of GPU work. The
 * WaitAny returns Success, the map callback runs once with Aborted (Success
 * would mean the work ended first), the lost callback once with reason
 * Unknown, and the buffer is Unmapped. The fault is planned for the 3rd
 * WaitAny: ctx_init waits twice (adapter, device). */
#include "fault_util.h"

int main(void) {
  fault_plan("lose-mid-waitany@3");
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUBuffer buf = make_buffer(ctx.device, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  REQUIRE(buf != NULL);
  mu_gpu_delay_into(&ctx, buf, 15 * MU_DELAY_100MS);
  MapResult r;
  mu_map_result_init(&r);
  WGPUFuture f = mu_map_async(buf, WGPUMapMode_Read, 0, 256, WGPUCallbackMode_WaitAnyOnly, &r);
  double t0 = now_s();
  CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
  double took = now_s() - t0;
  printf("WaitAny returned after %.3f s\n", took);
  CHECK(took >= 0.09);
  CHECK_EQ(atomic_load(&r.calls), 1);
  CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Aborted);
  CHECK_EQ(fault_wait_lost(&ctx), 1);
  CHECK_EQ(ctx.lost_reason, WGPUDeviceLostReason_Unknown);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);
  wgpuBufferRelease(buf);
  ctx_release(&ctx);
  CHECK_EQ(ctx.lost_calls, 1);
  CHECK_EQ(atomic_load(&r.calls), 1);
  return test_finish();
}
