/* Rule (spec §8.3 "the timeout covers only the wait phase", "TimedOut", §12
 * "letting the timeout also bound how long callbacks may run"):
 *  - a timed wait on a future that stays pending returns TimedOut after about
 *    the timeout (not earlier; not 10x later) and fires nothing;
 *  - a timed wait wakes up when the future completes, well before a long
 *    timeout runs out (10 s timeout, a job of ~200 ms: back in under 4 s);
 *  - a ready future whose callback runs longer than the timeout: WaitAny
 *    returns Success after the whole callback ran, not TimedOut. */
#define _GNU_SOURCE
#include "futures_util.h"

static FuRec slow_job, slow_cb, wake;

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  fu_rec_init(&slow_job, "work-done of a 400 ms job");
  fu_rec_init(&slow_cb, "pop error scope whose callback sleeps 300 ms");
  fu_rec_init(&wake, "work-done of a 200 ms job, 10 s timeout");

  SpinJob job = fu_calibrate(&ctx, 1, 0.4);
  REQUIRE(job.ok);

  /* TimedOut after about the timeout. */
  WGPUBuffer out = submit_spin_job(&ctx, job.iterations, job.dispatches);
  WGPUFuture f = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &slow_job);
  double t0 = now_s();
  WGPUBool completed = WGPU_TRUE;
  CHECK_EQ(fu_wait1(ctx.instance, f, 0.05, &slow_job, &completed), WGPUWaitStatus_TimedOut);
  double waited = now_s() - t0;
  fprintf(stderr, "50 ms timed wait took %.3f s\n", waited);
  CHECK(waited >= 0.045);
  CHECK(waited < 0.5); /* generous: scheduling under ctest -j2 load */
  CHECK(!completed);
  FU_CHECK_NOT_CALLED(&slow_job);
  CHECK_EQ(fu_wait1(ctx.instance, f, FU_WAIT_S, &slow_job, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&slow_job);
  wgpuBufferRelease(out);

  /* Wakes when the future completes. */
  uint32_t half = job.dispatches / 2 ? job.dispatches / 2 : 1;
  out = submit_spin_job(&ctx, job.iterations, half);
  WGPUFuture fw = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wake);
  t0 = now_s();
  CHECK_EQ(fu_wait1(ctx.instance, fw, FU_WAIT_S, &wake, NULL), WGPUWaitStatus_Success);
  waited = now_s() - t0;
  fprintf(stderr, "wait on a ~%.2f s job with a %.0f s timeout took %.3f s\n", job.seconds / 2, FU_WAIT_S, waited);
  /* The job runs 0.2 s to ~1 s under load; a wait that only ends at (or
   * near) the timeout takes 10 s. */
  CHECK(waited < 0.4 * FU_WAIT_S);
  FU_CHECK_ONCE(&wake);
  wgpuBufferRelease(out);

  /* A slow callback does not turn the wait into TimedOut. */
  slow_cb.sleep_s = 0.3;
  WGPUFuture fp = fu_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &slow_cb);
  sleep_s(0.02);
  t0 = now_s();
  completed = WGPU_FALSE;
  CHECK_EQ(fu_wait1(ctx.instance, fp, 0.02, &slow_cb, &completed), WGPUWaitStatus_Success);
  waited = now_s() - t0;
  CHECK(completed);
  FU_CHECK_ONCE(&slow_cb);
  CHECK(waited >= 0.29); /* the callback ran to its end inside the call */
  CHECK(slow_cb.t_end - slow_cb.t_start >= 0.29);

  ctx_release(&ctx);
  return test_finish();
}
