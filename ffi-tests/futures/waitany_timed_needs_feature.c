/* Rule (spec §8.3, §8.4): on an instance created without
 * WGPUInstanceFeatureName_TimedWaitAny, WaitAny with timeoutNS > 0 (UINT64_MAX
 * included) returns Error at once, whether the listed future is pending,
 * complete or already delivered, and delivers nothing; timeoutNS == 0 still
 * works. An instance from wgpuCreateInstance(NULL) has no features either. */
#define _GNU_SOURCE
#include "futures_util.h"

static FuRec wd, pending, ra;

static void check_timed_error(WGPUInstance inst, WGPUFuture f) {
  WGPUBool completed = WGPU_FALSE;
  double t0 = now_s();
  CHECK_EQ(fu_wait1(inst, f, 1e-6, NULL, &completed), WGPUWaitStatus_Error);
  CHECK_EQ(fu_wait1(inst, f, 0.5, NULL, &completed), WGPUWaitStatus_Error);
  CHECK_EQ(fu_wait1(inst, f, -1 /* UINT64_MAX */, NULL, &completed), WGPUWaitStatus_Error);
  CHECK(now_s() - t0 < 0.4); /* refused, not waited */
  CHECK(!completed);
}

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 0, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  fu_rec_init(&wd, "work-done WaitAnyOnly");
  fu_rec_init(&pending, "pending work-done WaitAnyOnly");
  fu_rec_init(&ra, "request adapter on NULL-descriptor instance");

  /* Complete but undelivered. */
  submit_empty(&ctx);
  WGPUFuture f = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wd);
  sleep_s(0.1);
  check_timed_error(ctx.instance, f);
  FU_CHECK_NOT_CALLED(&wd);
  WGPUBool completed = WGPU_FALSE;
  CHECK_EQ(fu_poll1_until(ctx.instance, f, FU_WAIT_S, &wd, &completed), WGPUWaitStatus_Success);
  CHECK(completed);
  FU_CHECK_ONCE(&wd);
  /* Delivered. */
  check_timed_error(ctx.instance, f);
  FU_CHECK_ONCE(&wd);

  /* Pending. */
  SpinJob job = fu_calibrate(&ctx, 0, 0.2);
  WGPUBuffer out = submit_spin_job(&ctx, job.iterations, job.dispatches);
  WGPUFuture fp = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &pending);
  check_timed_error(ctx.instance, fp);
  FU_CHECK_NOT_CALLED(&pending);
  CHECK_EQ(fu_poll1_until(ctx.instance, fp, FU_WAIT_S, &pending, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&pending);

  /* wgpuCreateInstance(NULL): no TimedWaitAny. */
  WGPUInstance plain = wgpuCreateInstance(NULL);
  CHECK(plain != NULL);
  if (plain) {
    WGPUFuture fa = fu_request_adapter(plain, WGPUCallbackMode_WaitAnyOnly, &ra);
    check_timed_error(plain, fa);
    CHECK_EQ(fu_poll1_until(plain, fa, FU_WAIT_S, &ra, NULL), WGPUWaitStatus_Success);
    FU_CHECK_ONCE(&ra);
    if (ra.obj) wgpuAdapterRelease((WGPUAdapter)ra.obj);
    wgpuInstanceRelease(plain);
  }

  wgpuBufferRelease(out);
  ctx_release(&ctx);
  return test_finish();
}
