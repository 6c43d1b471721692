/* Rule (wgpu_shim.h, WGPUInstanceFeatureName_ShimReadinessHandle): the fd of
 * wgpuShimInstanceGetReadinessFd is readable exactly while
 * wgpuInstanceProcessEvents has callbacks to run, i.e. an AllowProcessEvents
 * (or AllowSpontaneous) operation has completed and its callback was not
 * delivered yet:
 *   - unreadable with nothing ready; it becomes readable when queue work
 *     completes, without any API call (the application sleeps in poll(2));
 *   - it stays readable until ProcessEvents, and is unreadable once
 *     ProcessEvents delivered everything;
 *   - WaitAnyOnly completions never make it readable;
 *   - a WaitAny that delivers the only ready AllowProcessEvents future clears
 *     it (one that delivers one of two leaves it readable);
 *   - a CPU-timeline AllowProcessEvents completion (PopErrorScope) makes it
 *     readable when the call returns; an AllowProcessEvents user event
 *     signalled by another thread makes it readable while this thread sleeps
 *     in poll(2);
 *   - once an AllowSpontaneous callback was delivered it is unreadable;
 *   - without the feature GetReadinessFd returns -1.
 * On Windows the same of the event of wgpuShimInstanceGetReadinessEvent
 * (signalled for readable, NULL for -1), waited on for poll(2)
 * (eventloop_util.h). */
#include "eventloop_util.h"

static ElRec map1, wd1, map2, wd2, probe2, map3, map4a, map4b, pop5, spont6, ue7;

typedef struct {
  WGPUInstance instance;
  WGPUFuture future;
  WGPUStatus status;
} Signal7;

static void *signal7(void *arg) {
  Signal7 *s = (Signal7 *)arg;
  sleep_s(0.05);
  s->status = wgpuShimInstanceSignalUserEvent(s->instance, s->future);
  return NULL;
}

int main(void) {
  el_begin(90);

  /* Without the feature: -1 (Windows: NULL), and again on a second call. */
  WGPUInstance plain = el_create_instance(0);
  REQUIRE(plain != NULL);
  CHECK(el_readiness(plain) == EL_NO_HANDLE);
  CHECK(el_readiness(plain) == EL_NO_HANDLE);
  wgpuInstanceRelease(plain);

  /* Reachable through wgpuGetProcAddress, the same function. */
  WGPUProc proc = wgpuGetProcAddress(sv(EL_READINESS_GETTER));
  CHECK(proc != NULL);
  CHECK(proc == (WGPUProc)EL_READINESS_FN);

  Ctx ctx;
  REQUIRE(el_ctx_init(&ctx, EL_READINESS) == 0);
  ElHandle fd = el_readiness(ctx.instance);
  REQUIRE(fd != EL_NO_HANDLE);
  CHECK(el_readiness(ctx.instance) == fd); /* stable */
  EL_CHECK_READABLE(fd, 0, "fresh instance with a device, nothing issued");

  SpinJob job = el_calibrate(&ctx, 0.3);
  REQUIRE(job.ok);
  /* Calibration used WaitAnyOnly work-dones only. */
  EL_CHECK_READABLE(fd, 0, "after WaitAnyOnly calibration work-dones were delivered");

  /* ---- 1. AllowProcessEvents map + work-done, readable without API calls. */
  el_rec_init(&map1, "APE map");
  el_rec_init(&wd1, "APE work-done");
  WGPUBuffer b1;
  el_data_maps(&ctx, job.iterations, job.dispatches, 1000, &b1, 1);
  double t_submit = now_s();
  el_map_checked(b1, 1000, WGPUCallbackMode_AllowProcessEvents, &map1);
  el_workdone(ctx.queue, WGPUCallbackMode_AllowProcessEvents, &wd1);
  EL_CHECK_READABLE(fd, 0, "job of 0.3 s just submitted");
  int r = el_readable(fd, EL_WAIT_S); /* no API call while waiting */
  double t_ready = now_s() - t_submit;
  CHECK_EQ(r, 1);
  fprintf(stderr, "fd readable %.3f s after submit (job %.3f s)\n", t_ready, job.seconds);
  CHECK(t_ready >= 0.03); /* readable because the job ended, not at once (the job is >= 0.3 s) */
  EL_CHECK_NOT_CALLED(&map1);
  EL_CHECK_NOT_CALLED(&wd1);
  /* Stays readable (poll does not consume it) while nothing is delivered. */
  sleep_s(0.1);
  EL_CHECK_READABLE(fd, 1, "ready APE callbacks, no ProcessEvents yet (after 100 ms)");
  EL_CHECK_READABLE(fd, 1, "ready APE callbacks, polled again");
  EL_CHECK_NOT_CALLED(&map1);
  EL_CHECK_NOT_CALLED(&wd1);
  /* Drive by fd + ProcessEvents only, until both ran. */
  int spurious = 0;
  double deadline = now_s() + EL_WAIT_S;
  while ((el_calls(&map1) < 1 || el_calls(&wd1) < 1) && now_s() < deadline) {
    if (el_readable(fd, 2.0) != 1) {
      fprintf(stderr, "fd not readable within 2 s while callbacks are outstanding\n");
      break;
    }
    int before = el_calls(&map1) + el_calls(&wd1);
    wgpuInstanceProcessEvents(ctx.instance);
    if (el_calls(&map1) + el_calls(&wd1) == before) spurious++;
  }
  EL_CHECK_ONCE(&map1);
  EL_CHECK_ONCE(&wd1);
  CHECK_EQ(map1.status, WGPUMapAsyncStatus_Success);
  CHECK(map1.data_checked && map1.data_ok);
  CHECK(map1.on_main && wd1.on_main);
  CHECK(map1.seq < wd1.seq);
  CHECK_EQ(spurious, 0);
  EL_CHECK_READABLE(fd, 0, "ProcessEvents delivered everything");
  CHECK_EQ(el_readable(fd, 0.1), 0);
  wgpuInstanceProcessEvents(ctx.instance); /* nothing left: no second call */
  EL_CHECK_ONCE(&map1);
  EL_CHECK_ONCE(&wd1);
  wgpuBufferUnmap(b1);

  /* ---- 2. WaitAnyOnly completions never make it readable. */
  el_rec_init(&map2, "WaitAnyOnly map");
  el_rec_init(&wd2, "WaitAnyOnly work-done");
  el_rec_init(&probe2, "WaitAnyOnly probe work-done");
  WGPUBuffer b2;
  el_data_maps(&ctx, job.iterations, job.dispatches, 2000, &b2, 1);
  WGPUFuture f_map2 = el_map_checked(b2, 2000, WGPUCallbackMode_WaitAnyOnly, &map2);
  WGPUFuture f_wd2 = el_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wd2);
  WGPUFuture f_probe2 = el_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &probe2);
  /* Over the whole job and beyond: never readable. */
  CHECK_EQ(el_readable(fd, job.seconds + 0.3), 0);
  CHECK_EQ(el_wait1(ctx.instance, f_probe2, EL_WAIT_S, NULL), WGPUWaitStatus_Success);
  EL_CHECK_ONCE(&probe2);
  /* map2 and wd2 completed with the same submission; they are ready and undelivered. */
  CHECK_EQ(el_readable(fd, 0.1), 0);
  wgpuInstanceProcessEvents(ctx.instance); /* never delivers WaitAnyOnly */
  EL_CHECK_NOT_CALLED(&map2);
  EL_CHECK_NOT_CALLED(&wd2);
  CHECK_EQ(el_wait1(ctx.instance, f_map2, EL_WAIT_S, NULL), WGPUWaitStatus_Success);
  CHECK_EQ(el_wait1(ctx.instance, f_wd2, EL_WAIT_S, NULL), WGPUWaitStatus_Success);
  EL_CHECK_ONCE(&map2);
  EL_CHECK_ONCE(&wd2);
  CHECK(map2.data_ok);
  EL_CHECK_READABLE(fd, 0, "WaitAnyOnly callbacks delivered");
  wgpuBufferUnmap(b2);

  /* ---- 3. WaitAny delivering the only ready APE future clears the fd. */
  el_rec_init(&map3, "APE map delivered by WaitAny");
  WGPUBuffer b3;
  el_data_maps(&ctx, job.iterations, job.dispatches / 4 + 1, 3000, &b3, 1);
  WGPUFuture f_map3 = el_map_checked(b3, 3000, WGPUCallbackMode_AllowProcessEvents, &map3);
  CHECK_EQ(el_readable(fd, EL_WAIT_S), 1);
  EL_CHECK_NOT_CALLED(&map3);
  WGPUBool completed = 0;
  CHECK_EQ(el_wait1(ctx.instance, f_map3, EL_WAIT_S, &completed), WGPUWaitStatus_Success);
  CHECK(completed);
  EL_CHECK_ONCE(&map3);
  CHECK(map3.on_main && map3.data_ok);
  EL_CHECK_READABLE(fd, 0, "WaitAny delivered the only ready APE callback");
  wgpuInstanceProcessEvents(ctx.instance);
  EL_CHECK_ONCE(&map3);
  wgpuBufferUnmap(b3);

  /* ---- 4. Two ready: WaitAny delivering one leaves it readable. */
  el_rec_init(&map4a, "APE map A");
  el_rec_init(&map4b, "APE map B");
  WGPUBuffer b4[2];
  el_data_maps(&ctx, job.iterations, job.dispatches / 4 + 1, 4000, b4, 2);
  WGPUFuture f_map4a = el_map_checked(b4[0], 4000, WGPUCallbackMode_AllowProcessEvents, &map4a);
  el_map_checked(b4[1], 4000 + EL_MAP_WORDS, WGPUCallbackMode_AllowProcessEvents, &map4b);
  /* Both complete with the one submission; wait until the fd says so, then a
   * little more so that both are surely ready. */
  CHECK_EQ(el_readable(fd, EL_WAIT_S), 1);
  sleep_s(0.1);
  CHECK_EQ(el_wait1(ctx.instance, f_map4a, EL_WAIT_S, NULL), WGPUWaitStatus_Success);
  EL_CHECK_ONCE(&map4a);
  EL_CHECK_NOT_CALLED(&map4b);
  EL_CHECK_READABLE(fd, 1, "one of two ready APE callbacks delivered by WaitAny");
  wgpuInstanceProcessEvents(ctx.instance);
  EL_CHECK_ONCE(&map4b);
  CHECK(map4a.data_ok && map4b.data_ok);
  EL_CHECK_READABLE(fd, 0, "ProcessEvents delivered the second");
  wgpuBufferUnmap(b4[0]);
  wgpuBufferUnmap(b4[1]);

  /* ---- 5. CPU-timeline APE completion: readable when the call returns. */
  el_rec_init(&pop5, "APE pop error scope");
  el_push_pop(ctx.device, WGPUCallbackMode_AllowProcessEvents, &pop5);
  EL_CHECK_READABLE(fd, 1, "APE PopErrorScope returned (complete at once)");
  EL_CHECK_NOT_CALLED(&pop5);
  wgpuInstanceProcessEvents(ctx.instance);
  EL_CHECK_ONCE(&pop5);
  EL_CHECK_READABLE(fd, 0, "APE PopErrorScope delivered");

  /* ---- 6. A spontaneous callback, once delivered, leaves it unreadable. */
  el_rec_init(&spont6, "AllowSpontaneous work-done");
  el_submit_spin(&ctx, job.iterations, job.dispatches / 4 + 1);
  el_workdone(ctx.queue, WGPUCallbackMode_AllowSpontaneous, &spont6);
  deadline = now_s() + EL_WAIT_S;
  while (el_calls(&spont6) < 1 && now_s() < deadline) sleep_s(0.002);
  EL_CHECK_ONCE(&spont6);
  sleep_s(0.02);
  EL_CHECK_READABLE(fd, 0, "the spontaneous callback was delivered");

  /* ---- 7. An APE user event signalled by another thread: readable while the
   *         main thread sleeps in poll (no API call), cleared by ProcessEvents. */
  el_rec_init(&ue7, "APE user event signalled by another thread");
  WGPUFuture f_ue7 = el_user_event(ctx.instance, WGPUCallbackMode_AllowProcessEvents, &ue7);
  REQUIRE(f_ue7.id != 0);
  EL_CHECK_READABLE(fd, 0, "APE user event created, not signalled");
  Signal7 s7 = {ctx.instance, f_ue7, WGPUStatus_Error};
  pthread_t th;
  REQUIRE(pthread_create(&th, NULL, signal7, &s7) == 0);
  double t7 = now_s();
  CHECK_EQ(el_readable(fd, EL_WAIT_S), 1);
  CHECK(now_s() - t7 >= 0.03); /* the signal comes after 50 ms */
  pthread_join(th, NULL);
  CHECK_EQ(s7.status, WGPUStatus_Success);
  EL_CHECK_NOT_CALLED(&ue7);
  wgpuInstanceProcessEvents(ctx.instance);
  EL_CHECK_ONCE(&ue7);
  CHECK(ue7.on_main);
  EL_CHECK_READABLE(fd, 0, "APE user event delivered");

  /* A NULL instance: -1, nothing else happens. */
  CHECK(el_readiness(NULL) == EL_NO_HANDLE);

  wgpuBufferRelease(b1);
  wgpuBufferRelease(b2);
  wgpuBufferRelease(b3);
  wgpuBufferRelease(b4[0]);
  wgpuBufferRelease(b4[1]);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
