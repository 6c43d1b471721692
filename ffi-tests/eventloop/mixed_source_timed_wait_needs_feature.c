/* Rule (wgpu_shim.h, WGPUInstanceFeatureName_ShimMixedSourceWaitAny; spec
 * §8.5): without the feature a timed WaitAny listing pending futures of more
 * than one source (a queue and the CPU timeline: a user event, a ready but
 * undelivered PopErrorScope; or two devices' queues) returns Error at once
 * and delivers nothing (a poll may mix). With the feature the same timed
 * waits are real waits: Success as soon as any listed future completes
 * (delivering it and only it), TimedOut when none does in time. TimedWaitAny
 * is still needed for a timed wait. */
#include "eventloop_util.h"

typedef struct {
  WGPUInstance instance;
  WGPUFuture future;
  double delay_s;
  double t_signal;
  WGPUStatus status;
} Signaller;

static void *signal_later(void *arg) {
  Signaller *s = (Signaller *)arg;
  sleep_s(s->delay_s);
  s->t_signal = now_s();
  s->status = wgpuShimInstanceSignalUserEvent(s->instance, s->future);
  return NULL;
}

static ElRec a_wd, a_ue, a_pop, a_wd2, b_wd, b_ue2, b_wd_late, b_pop, b_wd2, b_wd_one, b_wd_three, b_ue3, c_ue;
static ElRec b_ue[3], b_wd_retry[3];

static WGPUWaitStatus wait2(WGPUInstance instance, WGPUFuture f0, WGPUFuture f1, double timeout_s, WGPUBool *c0,
                            WGPUBool *c1) {
  WGPUFutureWaitInfo w[2] = {WGPU_FUTURE_WAIT_INFO_INIT, WGPU_FUTURE_WAIT_INFO_INIT};
  w[0].future = f0;
  w[1].future = f1;
  WGPUWaitStatus st = wgpuInstanceWaitAny(instance, 2, w, timeout_s < 0 ? UINT64_MAX : EL_NS(timeout_s));
  if (c0) *c0 = w[0].completed;
  if (c1) *c1 = w[1].completed;
  return st;
}

int main(void) {
  el_begin(120);
  SpinJob job; /* calibrated once, in A, for both parts */

  /* ================= A: without the feature ================= */
  {
    Ctx ctx, ctx2;
    REQUIRE(el_ctx_init(&ctx, 0) == 0);
    REQUIRE(el_add_device(&ctx, &ctx2) == 0);
    job = el_calibrate(&ctx, 0.25);
    REQUIRE(job.ok);
    el_rec_init(&a_wd, "A: queue 1 work-done");
    el_rec_init(&a_ue, "A: user event");
    el_rec_init(&a_pop, "A: pop error scope");
    el_rec_init(&a_wd2, "A: queue 2 work-done");
    el_submit_spin(&ctx, job.iterations, job.dispatches);
    el_submit_spin(&ctx2, job.iterations, job.dispatches);
    WGPUFuture wd = el_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &a_wd);
    WGPUFuture wd2 = el_workdone(ctx2.queue, WGPUCallbackMode_WaitAnyOnly, &a_wd2);
    WGPUFuture ue = el_user_event(ctx.instance, WGPUCallbackMode_WaitAnyOnly, &a_ue);
    WGPUFuture pop = el_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &a_pop); /* ready, undelivered */
    CHECK(wd.id && wd2.id && ue.id && pop.id);

    /* Refused at once: well under one of the 5 s timeouts (both scaled under
     * memcheck, WGPU_SHIM_TEST_TIME_SCALE). */
    double scale = harness_time_scale(), t0 = now_s();
    CHECK_EQ(wait2(ctx.instance, wd, ue, 5.0 * scale, NULL, NULL), WGPUWaitStatus_Error);
    CHECK_EQ(wait2(ctx.instance, ue, wd, -1, NULL, NULL), WGPUWaitStatus_Error);
    CHECK_EQ(wait2(ctx.instance, wd, pop, 5.0 * scale, NULL, NULL), WGPUWaitStatus_Error);
    CHECK_EQ(wait2(ctx.instance, wd, wd2, 5.0 * scale, NULL, NULL), WGPUWaitStatus_Error);
    CHECK(now_s() - t0 < 0.3 * scale);
    EL_CHECK_NOT_CALLED(&a_pop); /* the Error delivered nothing, the ready one included */
    EL_CHECK_NOT_CALLED(&a_wd);
    /* A poll may mix. */
    WGPUBool c0 = 0, c1 = 0;
    CHECK_EQ(wait2(ctx.instance, wd, ue, 0, &c0, &c1), WGPUWaitStatus_TimedOut);
    CHECK(!c0 && !c1);
    /* One source each: allowed (the user event and pop are both CPU). */
    CHECK_EQ(wait2(ctx.instance, ue, pop, 5.0, &c0, &c1), WGPUWaitStatus_Success);
    CHECK(!c0 && c1);
    EL_CHECK_ONCE(&a_pop);
    CHECK_EQ(wgpuShimInstanceSignalUserEvent(ctx.instance, ue), WGPUStatus_Success);
    CHECK_EQ(el_wait1(ctx.instance, ue, 0, NULL), WGPUWaitStatus_Success);
    EL_CHECK_ONCE(&a_ue);
    CHECK_EQ(el_wait1(ctx.instance, wd, EL_WAIT_S, NULL), WGPUWaitStatus_Success);
    CHECK_EQ(el_wait1(ctx.instance, wd2, EL_WAIT_S, NULL), WGPUWaitStatus_Success);
    EL_CHECK_ONCE(&a_wd);
    EL_CHECK_ONCE(&a_wd2);
    el_ctx2_release(&ctx2);
    ctx_release(&ctx);
  }

  /* The mixed feature does not lift the need for TimedWaitAny. */
  {
    WGPUInstance inst = el_create_instance(EL_MIXED | EL_NO_TIMED);
    REQUIRE(inst != NULL);
    el_rec_init(&c_ue, "C: user event");
    WGPUFuture ue = el_user_event(inst, WGPUCallbackMode_WaitAnyOnly, &c_ue);
    CHECK_EQ(el_wait1(inst, ue, 0.05, NULL), WGPUWaitStatus_Error);
    CHECK_EQ(el_wait1(inst, ue, 0, NULL), WGPUWaitStatus_TimedOut);
    CHECK_EQ(wgpuShimInstanceSignalUserEvent(inst, ue), WGPUStatus_Success);
    CHECK_EQ(el_wait1(inst, ue, 0, NULL), WGPUWaitStatus_Success);
    EL_CHECK_ONCE(&c_ue);
    wgpuInstanceRelease(inst);
  }

  /* ================= B: with the feature ================= */
  {
    Ctx ctx, ctx2;
    REQUIRE(el_ctx_init(&ctx, EL_MIXED) == 0);
    REQUIRE(el_add_device(&ctx, &ctx2) == 0);

    /* 1. queue (long job, just submitted) + a user event nobody signals: a
     *    real wait that times out, delivering nothing. */
    el_rec_init(&b_wd, "B: queue work-done (long job)");
    el_rec_init(&b_ue2, "B: user event never signalled");
    el_submit_spin(&ctx, job.iterations, job.dispatches);
    WGPUFuture wd = el_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &b_wd);
    WGPUFuture ue2 = el_user_event(ctx.instance, WGPUCallbackMode_WaitAnyOnly, &b_ue2);
    WGPUBool c0 = 0, c1 = 0;
    double t0 = now_s();
    CHECK_EQ(wait2(ctx.instance, wd, ue2, 0.03, &c0, &c1), WGPUWaitStatus_TimedOut);
    CHECK(now_s() - t0 >= 0.025);
    CHECK(!c0 && !c1);
    EL_CHECK_NOT_CALLED(&b_wd);
    EL_CHECK_NOT_CALLED(&b_ue2);

    /* 2. queue + user event signalled 100 ms later by another thread: the
     *    timed wait ends at the signal and delivers only the user event. (If
     *    the job ends first after all, e.g. the machine got much less busy
     *    than at calibration, the queue legitimately wins: retry with a
     *    longer job, at most twice.) */
    WGPUFuture wds[3];
    int n_wds = 0;
    int user_won = 0;
    pthread_t th;
    for (int attempt = 0; attempt < 3 && !user_won; attempt++) {
      WGPUFuture q = wd;
      ElRec *qrec = &b_wd;
      if (attempt > 0) {
        el_rec_init(&b_wd_retry[attempt], "B: queue work-done (retry)");
        el_submit_spin(&ctx, job.iterations, job.dispatches << attempt);
        q = el_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &b_wd_retry[attempt]);
        qrec = &b_wd_retry[attempt];
      }
      wds[n_wds++] = q;
      el_rec_init(&b_ue[attempt], "B: user event signalled after 100 ms");
      WGPUFuture ue = el_user_event(ctx.instance, WGPUCallbackMode_WaitAnyOnly, &b_ue[attempt]);
      Signaller s = {ctx.instance, ue, 0.1, 0, WGPUStatus_Error};
      REQUIRE(pthread_create(&th, NULL, signal_later, &s) == 0);
      WGPUFutureWaitInfo w[3] = {WGPU_FUTURE_WAIT_INFO_INIT, WGPU_FUTURE_WAIT_INFO_INIT, WGPU_FUTURE_WAIT_INFO_INIT};
      w[0].future = q;
      w[1].future = ue2;
      w[2].future = ue;
      t0 = now_s();
      WGPUWaitStatus st = wgpuInstanceWaitAny(ctx.instance, 3, w, EL_NS(5.0));
      double t_back = now_s();
      pthread_join(th, NULL);
      CHECK_EQ(st, WGPUWaitStatus_Success);
      if (st != WGPUWaitStatus_Success) break;
      CHECK_EQ(s.status, WGPUStatus_Success);
      CHECK(!w[1].completed);
      EL_CHECK_NOT_CALLED(&b_ue2);
      if (w[2].completed && !w[0].completed) {
        user_won = 1;
        EL_CHECK_ONCE(&b_ue[attempt]);
        EL_CHECK_NOT_CALLED(qrec);
        CHECK(b_ue[attempt].on_main);
        CHECK(t_back >= s.t_signal); /* it waited for the signal */
        CHECK(t_back - t0 >= 0.09);
        fprintf(stderr, "B2: returned %.3f s after the wait began (signal at %.3f s)\n", t_back - t0,
                s.t_signal - t0);
      } else {
        fprintf(stderr, "B2 attempt %d: the job ended before the signal; retrying with a longer job\n", attempt);
        CHECK(w[0].completed);
        EL_CHECK_ONCE(qrec);
        CHECK_EQ(el_wait1(ctx.instance, ue, 0, NULL), WGPUWaitStatus_Success);
        EL_CHECK_ONCE(&b_ue[attempt]);
      }
    }
    CHECK(user_won);

    /* 3. queue + the unsignalled user event, until the queue completes:
     *    Success by the queue. */
    for (int i = 0; i < n_wds; i++) {
      CHECK_EQ(wait2(ctx.instance, wds[i], ue2, EL_WAIT_S, &c0, &c1), WGPUWaitStatus_Success);
      CHECK(c0 && !c1);
    }
    EL_CHECK_ONCE(&b_wd);
    EL_CHECK_NOT_CALLED(&b_ue2);

    /* 4. queue (pending) + PopErrorScope (complete at once): Success at once. */
    el_rec_init(&b_wd_late, "B: queue work-done (second long job)");
    el_rec_init(&b_pop, "B: pop error scope");
    el_submit_spin(&ctx, job.iterations, job.dispatches);
    WGPUFuture wd_late = el_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &b_wd_late);
    WGPUFuture pop = el_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &b_pop);
    t0 = now_s();
    CHECK_EQ(wait2(ctx.instance, wd_late, pop, 5.0, &c0, &c1), WGPUWaitStatus_Success);
    CHECK(now_s() - t0 < job.seconds * 0.5);
    CHECK(!c0 && c1);
    EL_CHECK_ONCE(&b_pop);
    EL_CHECK_NOT_CALLED(&b_wd_late);

    /* 5. Two devices' queues in one timed wait: Success when either
     *    completes (normally device 2's short job), delivering only it. */
    el_rec_init(&b_wd2, "B: queue 2 work-done (short job)");
    el_submit_spin(&ctx2, job.iterations, job.dispatches / 8 + 1);
    WGPUFuture wd2 = el_workdone(ctx2.queue, WGPUCallbackMode_WaitAnyOnly, &b_wd2);
    CHECK_EQ(wait2(ctx.instance, wd_late, wd2, 5.0, &c0, &c1), WGPUWaitStatus_Success);
    CHECK(c0 || c1);
    EL_CHECK_CALLS(&b_wd_late, c0 ? 1 : 0);
    EL_CHECK_CALLS(&b_wd2, c1 ? 1 : 0);
    if (!c1) fprintf(stderr, "B5: device 1's long job ended first\n");
    CHECK_EQ(el_wait1(ctx.instance, wd2, EL_WAIT_S, NULL), WGPUWaitStatus_Success);
    CHECK_EQ(el_wait1(ctx.instance, wd_late, EL_WAIT_S, NULL), WGPUWaitStatus_Success);
    EL_CHECK_ONCE(&b_wd_late);
    EL_CHECK_ONCE(&b_wd2);

    /* 6. Three sources (two queues, CPU) in one timed wait: Success when the
     *    first completes (normally the user event, signalled after 100 ms). */
    el_rec_init(&b_wd_one, "B: queue 1 work-done (three sources)");
    el_rec_init(&b_wd_three, "B: queue 2 work-done (three sources)");
    el_rec_init(&b_ue3, "B: user event 3");
    el_submit_spin(&ctx, job.iterations, job.dispatches);
    el_submit_spin(&ctx2, job.iterations, job.dispatches);
    WGPUFuture q1 = el_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &b_wd_one);
    WGPUFuture q2 = el_workdone(ctx2.queue, WGPUCallbackMode_WaitAnyOnly, &b_wd_three);
    WGPUFuture ue3 = el_user_event(ctx.instance, WGPUCallbackMode_WaitAnyOnly, &b_ue3);
    Signaller s3 = {ctx.instance, ue3, 0.1, 0, WGPUStatus_Error};
    REQUIRE(pthread_create(&th, NULL, signal_later, &s3) == 0);
    WGPUFutureWaitInfo w3[3] = {WGPU_FUTURE_WAIT_INFO_INIT, WGPU_FUTURE_WAIT_INFO_INIT, WGPU_FUTURE_WAIT_INFO_INIT};
    w3[0].future = q1;
    w3[1].future = q2;
    w3[2].future = ue3;
    CHECK_EQ(wgpuInstanceWaitAny(ctx.instance, 3, w3, EL_NS(5.0)), WGPUWaitStatus_Success);
    CHECK(w3[0].completed || w3[1].completed || w3[2].completed);
    EL_CHECK_CALLS(&b_wd_one, w3[0].completed ? 1 : 0);
    EL_CHECK_CALLS(&b_wd_three, w3[1].completed ? 1 : 0);
    EL_CHECK_CALLS(&b_ue3, w3[2].completed ? 1 : 0);
    pthread_join(th, NULL);
    CHECK_EQ(s3.status, WGPUStatus_Success);
    CHECK_EQ(el_wait1(ctx.instance, ue3, EL_WAIT_S, NULL), WGPUWaitStatus_Success);
    CHECK_EQ(el_wait1(ctx.instance, q1, EL_WAIT_S, NULL), WGPUWaitStatus_Success);
    CHECK_EQ(el_wait1(ctx.instance, q2, EL_WAIT_S, NULL), WGPUWaitStatus_Success);
    EL_CHECK_ONCE(&b_ue3);
    EL_CHECK_ONCE(&b_wd_one);
    EL_CHECK_ONCE(&b_wd_three);

    /* ue2 was never signalled: cancelled at release. */
    el_ctx2_release(&ctx2);
    ctx_release(&ctx);
    EL_CHECK_ONCE(&b_ue2);
    CHECK_EQ(b_ue2.status, WGPUShimUserEventStatus_CallbackCancelled);
  }
  return test_finish();
}
