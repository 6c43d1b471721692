/* Rule (spec §8.2 "a new implementation should guarantee progress without
 * polling"; DECISIONS "Spontaneous callbacks"): AllowSpontaneous callbacks
 * arrive while the application makes no API call at all. Queue work finishing
 * later than the call is delivered by another thread (the device's progress
 * thread); GetConstMappedRange works inside the spontaneous map callback
 * (§8.7 exception), so no internal lock is held there. CPU-timeline ops and
 * device loss are delivered too without any polling. */
#define _GNU_SOURCE
#include "futures_util.h"

static FuRec wd, mp, pop, comp, lost;

int main(void) {
  fu_begin(60);
  Ctx ctx;
  fu_rec_init(&lost, "spontaneous device lost");
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, &lost) == 0);
  fu_rec_init(&wd, "spontaneous work-done");
  fu_rec_init(&mp, "spontaneous map");
  fu_rec_init(&pop, "spontaneous pop error scope");
  fu_rec_init(&comp, "spontaneous compilation info");
  mp.probe_range = 1;

  /* A job long enough that its work-done cannot have completed when issued. */
  SpinJob job = fu_calibrate(&ctx, 1, 0.15);
  REQUIRE(job.ok);

  WGPUBuffer buf = fu_busy_map_buffer(&ctx, job.iterations, job.dispatches);
  double t_issue = now_s();
  WGPUFuture f_wd = fu_workdone(ctx.queue, WGPUCallbackMode_AllowSpontaneous, &wd);
  WGPUFuture f_mp = fu_map_read(buf, WGPUCallbackMode_AllowSpontaneous, &mp);
  double issue_s = now_s() - t_issue;
  int wd_at_return = fu_calls(&wd);
  CHECK(f_wd.id != 0);
  CHECK(f_mp.id != 0);

  FuRec *q[] = {&wd, &mp};
  CHECK(fu_sleep_until(q, 2, 5.0)); /* no API calls while waiting */
  FU_CHECK_ONCE(&wd);
  FU_CHECK_ONCE(&mp);
  FU_CHECK_STATUS(&wd, WGPUQueueWorkDoneStatus_Success);
  FU_CHECK_STATUS(&mp, WGPUMapAsyncStatus_Success);
  /* The job was still running when both calls returned quickly, so the
   * work-done callback must come from another thread while main sleeps. */
  if (issue_s < 0.05 && wd_at_return == 0) {
    CHECK(!wd.on_main);
    CHECK_EQ(wd.phase, FU_PHASE_SLEEP);
  }
  CHECK(mp.range != NULL); /* Mapped already when its callback runs */
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Mapped);
  CHECK(wgpuBufferGetConstMappedRange(buf, 0, FU_MAP_SIZE) != NULL);
  wgpuBufferUnmap(buf);

  /* CPU-timeline operations: delivered with no polling (maybe inline). */
  fu_push_pop(ctx.device, WGPUCallbackMode_AllowSpontaneous, &pop);
  WGPUShaderModule module = make_wgsl(ctx.device, HARNESS_SPIN_WGSL);
  fu_compinfo(module, WGPUCallbackMode_AllowSpontaneous, &comp);
  FuRec *c[] = {&pop, &comp};
  CHECK(fu_sleep_until(c, 2, 5.0));
  FU_CHECK_ONCE(&pop);
  FU_CHECK_ONCE(&comp);
  FU_CHECK_STATUS(&pop, WGPUPopErrorScopeStatus_Success);
  FU_CHECK_STATUS(&comp, WGPUCompilationInfoRequestStatus_Success);
  CHECK(!comp.info_null);

  /* Device loss, spontaneous mode: delivered with no polling. */
  FU_CHECK_NOT_CALLED(&lost);
  wgpuDeviceDestroy(ctx.device);
  CHECK(fu_sleep_until1(&lost, 5.0));
  FU_CHECK_ONCE(&lost);
  FU_CHECK_STATUS(&lost, WGPUDeviceLostReason_Destroyed);
  CHECK(!lost.dev_ptr_null);
  CHECK(lost.dev_seen == ctx.device);

  /* Nothing fires twice, releasing included. */
  fu_idle(0.1);
  wgpuShaderModuleRelease(module);
  wgpuBufferRelease(buf);
  ctx_release(&ctx);
  fu_idle(0.05);
  FU_CHECK_ONCE(&wd);
  FU_CHECK_ONCE(&mp);
  FU_CHECK_ONCE(&pop);
  FU_CHECK_ONCE(&comp);
  FU_CHECK_ONCE(&lost);
  return test_finish();
}
