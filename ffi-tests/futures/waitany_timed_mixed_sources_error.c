/* Rule (spec §8.3, §8.5; DECISIONS "Mixed sources in a timed wait"): a timed
 * wait may list futures of one source only (one queue, or the CPU timeline).
 * A pending queue future plus a pending CPU-timeline future (the device-lost
 * future of a live device), or pending futures of two queues, give Error at
 * once and deliver nothing; a poll (timeout 0) of the same list is allowed and
 * gives TimedOut. Sources are judged over listed futures not yet delivered, so
 * a delivered queue future next to a pending CPU future is not mixed. */
#define _GNU_SOURCE
#include "futures_util.h"

static FuRec wd1, wd1b, wd2, wd_done, pop;

/* A timed wait on the 2 futures of w gives Error at once: in under 250 ms
 * (generous for a loaded machine), where waiting would take the 5 s timeout
 * (or forever); a wait that ended with the job would give Success. */
static void check_refused(WGPUInstance inst, WGPUFutureWaitInfo *w, uint64_t timeout_ns) {
  double t0 = now_s();
  CHECK_EQ(fu_wait_any(inst, 2, w, timeout_ns), WGPUWaitStatus_Error);
  double took = now_s() - t0;
  if (took >= 0.25) fprintf(stderr, "refusing a mixed timed wait took %.3f s\n", took);
  CHECK(took < 0.25);
}

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  fu_rec_init(&wd1, "queue 1 work-done");
  fu_rec_init(&wd1b, "queue 1 second work-done");
  fu_rec_init(&wd2, "queue 2 work-done");
  fu_rec_init(&wd_done, "delivered queue 1 work-done");
  fu_rec_init(&pop, "pop error scope (CPU)");

  /* A second device (from a second adapter) for a second queue. */
  Ctx ctx2;
  memset(&ctx2, 0, sizeof ctx2);
  ctx2.instance = ctx.instance;
  ctx2.adapter = fu_get_adapter(ctx.instance, 1);
  REQUIRE(ctx2.adapter != NULL);
  ctx2.device = fu_get_device(ctx.instance, ctx2.adapter, 1, WGPUCallbackMode_AllowSpontaneous, NULL, &ctx2);
  REQUIRE(ctx2.device != NULL);
  ctx2.queue = wgpuDeviceGetQueue(ctx2.device);

  SpinJob job = fu_calibrate(&ctx, 1, 0.4);
  REQUIRE(job.ok);

  /* A delivered queue future, for the last part. */
  submit_empty(&ctx);
  WGPUFuture f_done = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wd_done);
  CHECK_EQ(fu_wait1(ctx.instance, f_done, FU_WAIT_S, &wd_done, NULL), WGPUWaitStatus_Success);

  WGPUBuffer out1 = submit_spin_job(&ctx, job.iterations, job.dispatches);
  WGPUBuffer out2 = submit_spin_job(&ctx2, job.iterations, job.dispatches);
  WGPUFuture f1 = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wd1);
  WGPUFuture f1b = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wd1b);
  WGPUFuture f2 = fu_workdone(ctx2.queue, WGPUCallbackMode_WaitAnyOnly, &wd2);
  WGPUFuture f_lost = wgpuDeviceGetLostFuture(ctx.device);
  CHECK(f_lost.id != 0);

  WGPUFutureWaitInfo w[2] = {WGPU_FUTURE_WAIT_INFO_INIT, WGPU_FUTURE_WAIT_INFO_INIT};
  /* queue + CPU timeline */
  w[0].future = f1;
  w[1].future = f_lost;
  check_refused(ctx.instance, w, FU_NS(5.0));
  check_refused(ctx.instance, w, UINT64_MAX);
  /* two queues */
  w[0].future = f1;
  w[1].future = f2;
  check_refused(ctx.instance, w, FU_NS(5.0));
  FU_CHECK_NOT_CALLED(&wd1);
  FU_CHECK_NOT_CALLED(&wd2);

  /* The same lists as polls: allowed; nothing is complete yet. */
  w[0].future = f1;
  w[1].future = f_lost;
  CHECK_EQ(fu_wait_any(ctx.instance, 2, w, 0), WGPUWaitStatus_TimedOut);
  w[1].future = f2;
  CHECK_EQ(fu_wait_any(ctx.instance, 2, w, 0), WGPUWaitStatus_TimedOut);
  FU_CHECK_NOT_CALLED(&wd1);
  FU_CHECK_NOT_CALLED(&wd2);

  /* One source each: allowed. */
  CHECK_EQ(fu_wait1(ctx.instance, f_lost, 0.02, NULL, NULL), WGPUWaitStatus_TimedOut); /* CPU only */
  WGPUFuture f_pop = fu_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &pop);
  w[0].future = f_lost;
  w[1].future = f_pop;
  w[0].completed = w[1].completed = WGPU_FALSE;
  CHECK_EQ(fu_wait_any(ctx.instance, 2, w, FU_NS(FU_WAIT_S)), WGPUWaitStatus_Success); /* CPU only */
  CHECK(w[1].completed);
  CHECK(!w[0].completed);
  FU_CHECK_ONCE(&pop);
  w[0].future = f1;
  w[1].future = f1b;
  w[0].completed = w[1].completed = WGPU_FALSE;
  CHECK_EQ(fu_wait_any(ctx.instance, 2, w, FU_NS(FU_WAIT_S)), WGPUWaitStatus_Success); /* one queue */
  CHECK(fu_calls(&wd1) == 1 || fu_calls(&wd1b) == 1);
  CHECK(fu_wait_all(ctx.instance, (WGPUFuture[]){f1, f1b}, NULL, 2, 1, FU_WAIT_S));
  FU_CHECK_ONCE(&wd1);
  FU_CHECK_ONCE(&wd1b);
  CHECK_EQ(fu_wait1(ctx.instance, f2, FU_WAIT_S, &wd2, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&wd2);

  /* A delivered queue future + a pending CPU future: judged over the
   * undelivered ones, so not mixed; Success because one is complete. */
  w[0].future = f_done;
  w[1].future = f_lost;
  w[0].completed = w[1].completed = WGPU_FALSE;
  CHECK_EQ(fu_wait_any(ctx.instance, 2, w, FU_NS(0.05)), WGPUWaitStatus_Success);
  CHECK(w[0].completed);
  CHECK(!w[1].completed);
  FU_CHECK_ONCE(&wd_done);

  wgpuBufferRelease(out1);
  wgpuBufferRelease(out2);
  wgpuQueueRelease(ctx2.queue);
  wgpuDeviceRelease(ctx2.device);
  wgpuAdapterRelease(ctx2.adapter);
  ctx_release(&ctx);
  return test_finish();
}
