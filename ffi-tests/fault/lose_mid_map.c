/* Fault `lose-mid-map`: the device is lost right after a MapAsync started.
 * The map's callback gets Aborted once, the lost callback runs once with
 * reason Unknown, the buffer is Unmapped with no range, a later map gives
 * Aborted (device lost) and a later work-done future still completes once. */
#include "fault_util.h"

static void on_done(WGPUQueueWorkDoneStatus status, WGPUStringView m, void *u1, void *u2) {
  (void)m, (void)u2;
  int *rec = u1;
  rec[0]++;
  rec[1] = (int)status;
}

int main(void) {
  fault_plan("lose-mid-map");
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUBuffer buf = mu_buffer_with_data(&ctx, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 1);
  REQUIRE(buf != NULL);
  MapResult r;
  mu_map_result_init(&r);
  WGPUFuture f = mu_map_async(buf, WGPUMapMode_Read, 0, 256, WGPUCallbackMode_WaitAnyOnly, &r);
  CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&r.calls), 1);
  CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Aborted);
  CHECK_EQ(fault_wait_lost(&ctx), 1);
  CHECK_EQ(ctx.lost_reason, WGPUDeviceLostReason_Unknown);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);
  CHECK(wgpuBufferGetConstMappedRange(buf, 0, 4) == NULL);

  MapResult later;
  mu_map_result_init(&later);
  f = mu_map_async(buf, WGPUMapMode_Read, 0, 256, WGPUCallbackMode_WaitAnyOnly, &later);
  CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&later.calls), 1);
  CHECK_EQ(atomic_load(&later.status), WGPUMapAsyncStatus_Aborted);

  int done[2] = {0, 0};
  WGPUQueueWorkDoneCallbackInfo info = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  info.mode = WGPUCallbackMode_WaitAnyOnly;
  info.callback = on_done;
  info.userdata1 = done;
  CHECK_EQ(mu_wait(ctx.instance, wgpuQueueOnSubmittedWorkDone(ctx.queue, info)), WGPUWaitStatus_Success);
  CHECK_EQ(done[0], 1);

  CHECK_EQ(ctx.lost_calls, 1);
  CHECK_EQ(atomic_load(&r.calls), 1);
  wgpuBufferRelease(buf);
  ctx_release(&ctx);
  return test_finish();
}
