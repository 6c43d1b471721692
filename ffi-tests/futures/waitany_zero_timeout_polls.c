/* Rule (spec §8.3): timeoutNS == 0 polls every listed future once without
 * blocking and needs no instance feature. While nothing listed is complete it
 * returns TimedOut at once, leaves completed = false and fires nothing; once
 * the operation completes, a poll returns Success, sets completed and fires
 * the callback (exactly once). Polling alone makes progress. Uses an instance
 * created WITHOUT TimedWaitAny. */
#define _GNU_SOURCE
#include "futures_util.h"

static FuRec wd, mp, pop;

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 0 /* no TimedWaitAny */, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  fu_rec_init(&wd, "work-done WaitAnyOnly");
  fu_rec_init(&mp, "map WaitAnyOnly");
  fu_rec_init(&pop, "pop WaitAnyOnly");

  SpinJob job = fu_calibrate(&ctx, 0, 0.3);
  REQUIRE(job.ok);
  WGPUBuffer buf = fu_busy_map_buffer(&ctx, job.iterations, job.dispatches);
  WGPUFuture f_wd = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wd);
  WGPUFuture f_mp = fu_map_read(buf, WGPUCallbackMode_WaitAnyOnly, &mp);

  /* Pending: TimedOut, at once, nothing fired, completed stays false. */
  WGPUFutureWaitInfo w[2] = {WGPU_FUTURE_WAIT_INFO_INIT, WGPU_FUTURE_WAIT_INFO_INIT};
  w[0].future = f_wd;
  w[1].future = f_mp;
  double t0 = now_s();
  CHECK_EQ(fu_wait_any(ctx.instance, 1, &w[0], 0), WGPUWaitStatus_TimedOut);
  CHECK_EQ(fu_wait_any(ctx.instance, 1, &w[1], 0), WGPUWaitStatus_TimedOut);
  CHECK_EQ(fu_wait_any(ctx.instance, 2, w, 0), WGPUWaitStatus_TimedOut);
  double poll_s = now_s() - t0;
  CHECK(poll_s < 0.25); /* three polls, none blocking */
  CHECK(!w[0].completed);
  CHECK(!w[1].completed);
  FU_CHECK_NOT_CALLED(&wd);
  FU_CHECK_NOT_CALLED(&mp);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Pending);

  /* Polling until done: Success, callback once, completed set before it. */
  int polls = 0;
  WGPUWaitStatus st = WGPUWaitStatus_TimedOut;
  WGPUBool completed = WGPU_FALSE;
  double deadline = now_s() + FU_WAIT_S;
  while (st == WGPUWaitStatus_TimedOut && now_s() < deadline) {
    st = fu_wait1(ctx.instance, f_wd, 0, &wd, &completed);
    polls++;
    if (st == WGPUWaitStatus_TimedOut) {
      FU_CHECK_NOT_CALLED(&wd);
      sleep_s(0.002);
    }
  }
  CHECK_EQ(st, WGPUWaitStatus_Success);
  CHECK(polls > 1);
  CHECK(completed);
  FU_CHECK_ONCE(&wd);
  CHECK_EQ(wd.completed_seen, 1);
  CHECK(wd.on_main);
  FU_CHECK_NOT_CALLED(&mp); /* not listed */

  CHECK_EQ(fu_poll1_until(ctx.instance, f_mp, FU_WAIT_S, &mp, &completed), WGPUWaitStatus_Success);
  CHECK(completed);
  FU_CHECK_ONCE(&mp);
  FU_CHECK_STATUS(&mp, WGPUMapAsyncStatus_Success);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Mapped);

  /* Polls again: Success, no re-fire. */
  w[0].completed = w[1].completed = WGPU_FALSE;
  CHECK_EQ(fu_wait_any(ctx.instance, 2, w, 0), WGPUWaitStatus_Success);
  CHECK(w[0].completed);
  CHECK(w[1].completed);
  FU_CHECK_ONCE(&wd);
  FU_CHECK_ONCE(&mp);

  /* A CPU-timeline future completes on the CPU: polls deliver it. */
  WGPUFuture f_pop = fu_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &pop);
  CHECK_EQ(fu_poll1_until(ctx.instance, f_pop, FU_WAIT_S, &pop, &completed), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&pop);
  CHECK_EQ(pop.completed_seen, 1);

  wgpuBufferUnmap(buf);
  wgpuBufferRelease(buf);
  ctx_release(&ctx);
  return test_finish();
}
