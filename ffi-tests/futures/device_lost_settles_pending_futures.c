/* Rule (spec §6 "Device lost", §9.2, I#209, gpuweb #5101): when the device is
 * lost (wgpuDeviceDestroy) with work in flight, a pending MapAsync completes
 * with Aborted and a pending OnSubmittedWorkDone with Success; neither hangs.
 * After the loss, a new MapAsync is Aborted, a new OnSubmittedWorkDone
 * succeeds, and PopErrorScope gives Success with NoError. Errors from the lost
 * device are discarded (no uncaptured-error callback). The (WaitAnyOnly) lost
 * callback runs once, reason Destroyed. Non-spontaneous futures still wait for
 * WaitAny / ProcessEvents to be delivered. */
#define _GNU_SOURCE
#include "futures_util.h"

static FuRec lost, map_w, map_p, wd_w, wd_p, map_after, wd_after, pop_after;

int main(void) {
  fu_begin(60);
  Ctx ctx;
  fu_rec_init(&lost, "device lost WaitAnyOnly");
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_WaitAnyOnly, &lost) == 0);
  fu_rec_init(&map_w, "pending map WaitAnyOnly");
  fu_rec_init(&map_p, "pending map APE");
  fu_rec_init(&wd_w, "pending work-done WaitAnyOnly");
  fu_rec_init(&wd_p, "pending work-done APE");
  fu_rec_init(&map_after, "map after loss");
  fu_rec_init(&wd_after, "work-done after loss");
  fu_rec_init(&pop_after, "pop after loss");

  SpinJob job = fu_calibrate(&ctx, 1, 0.3);
  CHECK(job.ok);
  WGPUBuffer bb[2];
  fu_busy_map_buffers(&ctx, job.iterations, job.dispatches, bb, 2);
  WGPUBuffer b1 = bb[0], b2 = bb[1];
  WGPUFuture fm1 = fu_map_read(b1, WGPUCallbackMode_WaitAnyOnly, &map_w);
  fu_map_read(b2, WGPUCallbackMode_AllowProcessEvents, &map_p);
  WGPUFuture fw1 = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wd_w);
  fu_workdone(ctx.queue, WGPUCallbackMode_AllowProcessEvents, &wd_p);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  WGPUFuture f_lost = wgpuDeviceGetLostFuture(ctx.device);

  int errors_before = ctx.uncaptured_errors;
  wgpuDeviceDestroy(ctx.device);
  fu_idle(0.05);
  FU_CHECK_NOT_CALLED(&map_w);
  FU_CHECK_NOT_CALLED(&wd_w);
  FU_CHECK_NOT_CALLED(&lost);

  CHECK_EQ(fu_wait1(ctx.instance, fm1, FU_WAIT_S, &map_w, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&map_w);
  FU_CHECK_STATUS(&map_w, WGPUMapAsyncStatus_Aborted);
  CHECK_EQ(wgpuBufferGetMapState(b1), WGPUBufferMapState_Unmapped);
  CHECK_EQ(fu_wait1(ctx.instance, fw1, FU_WAIT_S, &wd_w, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&wd_w);
  FU_CHECK_STATUS(&wd_w, WGPUQueueWorkDoneStatus_Success);
  FuRec *pe[2] = {&map_p, &wd_p};
  CHECK(fu_pump_until(ctx.instance, pe, 2, FU_WAIT_S));
  FU_CHECK_ONCE(&map_p);
  FU_CHECK_STATUS(&map_p, WGPUMapAsyncStatus_Aborted);
  FU_CHECK_ONCE(&wd_p);
  FU_CHECK_STATUS(&wd_p, WGPUQueueWorkDoneStatus_Success);
  CHECK_EQ(fu_wait1(ctx.instance, f_lost, FU_WAIT_S, &lost, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&lost);
  FU_CHECK_STATUS(&lost, WGPUDeviceLostReason_Destroyed);

  /* After the loss. */
  WGPUBuffer b3 = fu_idle_map_buffer(&ctx);
  WGPUFuture fm3 = fu_map_read(b3, WGPUCallbackMode_WaitAnyOnly, &map_after);
  CHECK_EQ(fu_wait1(ctx.instance, fm3, FU_WAIT_S, &map_after, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&map_after);
  FU_CHECK_STATUS(&map_after, WGPUMapAsyncStatus_Aborted);
  WGPUFuture fw3 = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wd_after);
  CHECK_EQ(fu_wait1(ctx.instance, fw3, FU_WAIT_S, &wd_after, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&wd_after);
  FU_CHECK_STATUS(&wd_after, WGPUQueueWorkDoneStatus_Success);
  /* An invalid buffer (MapRead | MapWrite): a validation error, discarded. */
  WGPUBuffer bad = make_buffer(ctx.device, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_MapWrite, 0);
  WGPUFuture fp = fu_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &pop_after);
  CHECK_EQ(fu_wait1(ctx.instance, fp, FU_WAIT_S, &pop_after, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&pop_after);
  FU_CHECK_STATUS(&pop_after, WGPUPopErrorScopeStatus_Success);
  CHECK_EQ(pop_after.error_type, WGPUErrorType_NoError);
  WGPUBuffer bad2 = make_buffer(ctx.device, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_MapWrite, 0);
  fu_idle(0.05);
  CHECK_EQ(ctx.uncaptured_errors, errors_before);

  if (bad) wgpuBufferRelease(bad);
  if (bad2) wgpuBufferRelease(bad2);
  wgpuBufferRelease(b1);
  wgpuBufferRelease(b2);
  wgpuBufferRelease(b3);
  ctx_release(&ctx);
  FU_CHECK_ONCE(&lost);
  return test_finish();
}
