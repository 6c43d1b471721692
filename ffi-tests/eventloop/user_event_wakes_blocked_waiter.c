/* Rule (wgpu_shim.h, user events): wgpuShimInstanceCreateUserEvent returns a
 * CPU-timeline future that completes when any thread calls
 * wgpuShimInstanceSignalUserEvent on it, and then behaves like every other
 * future:
 *   - a thread blocked in WaitAny(UINT64_MAX) on it wakes when another thread
 *     signals it (after 100 ms), returns Success with `completed` set, and
 *     runs the callback (WaitAnyOnly) once, itself, with status Success;
 *   - signalling it again, signalling a future that is not a user event
 *     (PopErrorScope, RequestAdapter, the null future, garbage, another
 *     instance's user event) gives WGPUStatus_Error and changes nothing;
 *   - polled (timeout 0): TimedOut before the signal, Success after;
 *   - AllowSpontaneous: the callback runs on signal, with no wait at all;
 *     AllowProcessEvents: in ProcessEvents only;
 *   - never signalled: CallbackCancelled at instance release, once;
 *   - the functions are reachable through wgpuGetProcAddress;
 *   - mode 0 is rejected (null future, no callback). */
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

static ElRec blocked, polled, spont, spont_other, ape, cancel_wao, cancel_ape, cancel_spont, other_ue, bad_mode, popr,
    null_instance;
static WGPUFutureWaitInfo *blocked_watch;
static int completed_at_callback = -1;

static void watch_hook(ElRec *r) {
  (void)r;
  completed_at_callback = blocked_watch ? (int)blocked_watch->completed : -1;
}

static void *signal_spont_from_thread(void *arg) {
  Signaller *s = (Signaller *)arg;
  s->status = wgpuShimInstanceSignalUserEvent(s->instance, s->future);
  s->t_signal = now_s();
  return NULL;
}

int main(void) {
  el_begin(60);
  /* Through wgpuGetProcAddress: the same functions. */
  CHECK(wgpuGetProcAddress(sv("wgpuShimInstanceCreateUserEvent")) == (WGPUProc)wgpuShimInstanceCreateUserEvent);
  CHECK(wgpuGetProcAddress(sv("wgpuShimInstanceSignalUserEvent")) == (WGPUProc)wgpuShimInstanceSignalUserEvent);

  WGPUInstance instance = el_create_instance(0);
  REQUIRE(instance != NULL);

  /* ---- Blocked waiter woken by another thread. */
  el_rec_init(&blocked, "WaitAnyOnly user event, blocked waiter");
  blocked.hook = watch_hook;
  WGPUFuture f = el_user_event(instance, WGPUCallbackMode_WaitAnyOnly, &blocked);
  REQUIRE(f.id != 0);
  Signaller s = {instance, f, 0.1, 0, WGPUStatus_Error};
  pthread_t th;
  REQUIRE(pthread_create(&th, NULL, signal_later, &s) == 0);
  WGPUFutureWaitInfo info = WGPU_FUTURE_WAIT_INFO_INIT;
  info.future = f;
  blocked_watch = &info;
  double t0 = now_s();
  double cpu0 = thread_cpu_s();
  WGPUWaitStatus st = wgpuInstanceWaitAny(instance, 1, &info, UINT64_MAX);
  double cpu = thread_cpu_s() - cpu0;
  double t_back = now_s();
  blocked_watch = NULL;
  pthread_join(th, NULL);
  CHECK_EQ(st, WGPUWaitStatus_Success);
  CHECK(info.completed);
  CHECK_EQ(s.status, WGPUStatus_Success);
  EL_CHECK_ONCE(&blocked);
  CHECK_EQ(blocked.status, WGPUShimUserEventStatus_Success);
  CHECK(blocked.on_main);                 /* the waiter ran it */
  CHECK(blocked.t >= s.t_signal);          /* not before the signal */
  CHECK(t_back - t0 >= 0.09);
  CHECK_EQ(completed_at_callback, 1);      /* `completed` set before the callback */
  CHECK(cpu < 0.05);                       /* it slept, it did not spin */
  fprintf(stderr, "blocked waiter: woke %.3f s after the wait began, signal at %.3f s (%.1f ms CPU)\n", t_back - t0, s.t_signal - t0, cpu * 1e3);

  /* Signalling again: Error, no second callback. Waiting again: Success, no call. */
  CHECK_EQ(wgpuShimInstanceSignalUserEvent(instance, f), WGPUStatus_Error);
  CHECK_EQ(el_wait1(instance, f, 0, NULL), WGPUWaitStatus_Success);
  CHECK_EQ(el_wait1(instance, f, 1.0, NULL), WGPUWaitStatus_Success);
  EL_CHECK_ONCE(&blocked);

  /* ---- Polled: TimedOut before, Success after. */
  el_rec_init(&polled, "WaitAnyOnly user event, polled");
  WGPUFuture fp = el_user_event(instance, WGPUCallbackMode_WaitAnyOnly, &polled);
  REQUIRE(fp.id != 0);
  CHECK(fp.id != f.id);
  WGPUBool completed = 1;
  CHECK_EQ(el_wait1(instance, fp, 0, &completed), WGPUWaitStatus_TimedOut);
  CHECK(!completed);
  CHECK_EQ(el_wait1(instance, fp, 0.05, &completed), WGPUWaitStatus_TimedOut); /* a real timed wait, too */
  wgpuInstanceProcessEvents(instance);
  EL_CHECK_NOT_CALLED(&polled);
  CHECK_EQ(wgpuShimInstanceSignalUserEvent(instance, fp), WGPUStatus_Success);
  wgpuInstanceProcessEvents(instance); /* WaitAnyOnly: not here */
  sleep_s(0.02);
  EL_CHECK_NOT_CALLED(&polled);
  CHECK_EQ(el_wait1(instance, fp, 0, &completed), WGPUWaitStatus_Success);
  CHECK(completed);
  EL_CHECK_ONCE(&polled);
  CHECK(polled.on_main);

  /* ---- AllowSpontaneous: fires on signal, no wait, no ProcessEvents. */
  el_rec_init(&spont, "AllowSpontaneous user event");
  WGPUFuture fs = el_user_event(instance, WGPUCallbackMode_AllowSpontaneous, &spont);
  REQUIRE(fs.id != 0);
  sleep_s(0.02);
  EL_CHECK_NOT_CALLED(&spont);
  CHECK_EQ(wgpuShimInstanceSignalUserEvent(instance, fs), WGPUStatus_Success);
  int inline_call = el_calls(&spont);
  double deadline = now_s() + 2.0;
  while (el_calls(&spont) < 1 && now_s() < deadline) sleep_s(0.001); /* no API call */
  EL_CHECK_ONCE(&spont);
  CHECK_EQ(spont.status, WGPUShimUserEventStatus_Success);
  fprintf(stderr, "spontaneous user event: %s\n", inline_call ? "ran inside the signal call" : "ran later");
  CHECK_EQ(wgpuShimInstanceSignalUserEvent(instance, fs), WGPUStatus_Error);
  CHECK_EQ(el_wait1(instance, fs, 0, NULL), WGPUWaitStatus_Success);
  EL_CHECK_ONCE(&spont);
  /* ... signalled from another thread, while this one makes no call. */
  el_rec_init(&spont_other, "AllowSpontaneous user event, other thread");
  WGPUFuture fs2 = el_user_event(instance, WGPUCallbackMode_AllowSpontaneous, &spont_other);
  Signaller s2 = {instance, fs2, 0, 0, WGPUStatus_Error};
  REQUIRE(pthread_create(&th, NULL, signal_spont_from_thread, &s2) == 0);
  deadline = now_s() + 2.0;
  while (el_calls(&spont_other) < 1 && now_s() < deadline) sleep_s(0.001);
  pthread_join(th, NULL);
  CHECK_EQ(s2.status, WGPUStatus_Success);
  EL_CHECK_ONCE(&spont_other);
  CHECK(!spont_other.on_main);

  /* ---- AllowProcessEvents: in ProcessEvents, not before. */
  el_rec_init(&ape, "AllowProcessEvents user event");
  WGPUFuture fa = el_user_event(instance, WGPUCallbackMode_AllowProcessEvents, &ape);
  CHECK_EQ(wgpuShimInstanceSignalUserEvent(instance, fa), WGPUStatus_Success);
  sleep_s(0.02);
  EL_CHECK_NOT_CALLED(&ape);
  wgpuInstanceProcessEvents(instance);
  EL_CHECK_ONCE(&ape);
  CHECK(ape.on_main);

  /* ---- Signalling what is not a pending user event: Error. */
  Ctx ctx;
  REQUIRE(el_ctx_init(&ctx, 0) == 0);
  el_rec_init(&popr, "pop error scope");
  WGPUFuture fpop = el_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &popr);
  CHECK_EQ(wgpuShimInstanceSignalUserEvent(ctx.instance, fpop), WGPUStatus_Error);
  EL_CHECK_NOT_CALLED(&popr);
  CHECK_EQ(el_wait1(ctx.instance, fpop, 1.0, NULL), WGPUWaitStatus_Success);
  EL_CHECK_ONCE(&popr);
  CHECK_EQ(popr.status, WGPUPopErrorScopeStatus_Success);
  CHECK_EQ(wgpuShimInstanceSignalUserEvent(ctx.instance, fpop), WGPUStatus_Error); /* completed, not a user event */
  WGPUAdapter a2 = NULL;
  {
    WGPUFuture fa2 = request_adapter_future(ctx.instance, &a2);
    CHECK_EQ(wgpuShimInstanceSignalUserEvent(ctx.instance, fa2), WGPUStatus_Error);
    CHECK_EQ(el_wait1(ctx.instance, fa2, EL_WAIT_S, NULL), WGPUWaitStatus_Success);
    CHECK(a2 != NULL);
  }
  WGPUFuture null_future = {0};
  CHECK_EQ(wgpuShimInstanceSignalUserEvent(ctx.instance, null_future), WGPUStatus_Error);
  WGPUFuture garbage = {0x123456789abcdefULL};
  CHECK_EQ(wgpuShimInstanceSignalUserEvent(ctx.instance, garbage), WGPUStatus_Error);
  /* Another instance's pending user event: Error here, still signallable there. */
  el_rec_init(&other_ue, "user event of the first instance");
  WGPUFuture fo = el_user_event(instance, WGPUCallbackMode_WaitAnyOnly, &other_ue);
  CHECK_EQ(wgpuShimInstanceSignalUserEvent(ctx.instance, fo), WGPUStatus_Error);
  CHECK_EQ(el_wait1(instance, fo, 0, NULL), WGPUWaitStatus_TimedOut);
  CHECK_EQ(wgpuShimInstanceSignalUserEvent(instance, fo), WGPUStatus_Success);
  CHECK_EQ(el_wait1(instance, fo, 0, NULL), WGPUWaitStatus_Success);
  EL_CHECK_ONCE(&other_ue);
  if (a2) wgpuAdapterRelease(a2);

  /* NULL instance: Error / the null future; the callback runs once, inside
   * the call, with WGPUShimUserEventStatus_Error. */
  CHECK_EQ(wgpuShimInstanceSignalUserEvent(NULL, fo), WGPUStatus_Error);
  el_rec_init(&null_instance, "user event on a NULL instance");
  CHECK_EQ(el_user_event(NULL, WGPUCallbackMode_WaitAnyOnly, &null_instance).id, 0);
  EL_CHECK_ONCE(&null_instance);
  CHECK_EQ(null_instance.status, WGPUShimUserEventStatus_Error);

  /* ---- Mode 0 is rejected: Error inside the call, and the null future,
   * which cannot be signalled. */
  el_rec_init(&bad_mode, "user event with mode 0");
  WGPUFuture fz = el_user_event(instance, (WGPUCallbackMode)0, &bad_mode);
  CHECK(fz.id == 0);
  EL_CHECK_ONCE(&bad_mode);
  CHECK_EQ(bad_mode.status, WGPUShimUserEventStatus_Error);
  CHECK_EQ(wgpuShimInstanceSignalUserEvent(instance, fz), WGPUStatus_Error);
  wgpuInstanceProcessEvents(instance);
  EL_CHECK_ONCE(&bad_mode);

  /* ---- Never signalled: CallbackCancelled at instance release, once, in every mode. */
  el_rec_init(&cancel_wao, "never signalled (WaitAnyOnly)");
  el_rec_init(&cancel_ape, "never signalled (AllowProcessEvents)");
  el_rec_init(&cancel_spont, "never signalled (AllowSpontaneous)");
  WGPUFuture c1 = el_user_event(instance, WGPUCallbackMode_WaitAnyOnly, &cancel_wao);
  WGPUFuture c2 = el_user_event(instance, WGPUCallbackMode_AllowProcessEvents, &cancel_ape);
  WGPUFuture c3 = el_user_event(instance, WGPUCallbackMode_AllowSpontaneous, &cancel_spont);
  CHECK(c1.id && c2.id && c3.id);
  wgpuInstanceProcessEvents(instance);
  CHECK_EQ(el_wait1(instance, c1, 0, NULL), WGPUWaitStatus_TimedOut);
  EL_CHECK_NOT_CALLED(&cancel_wao);
  EL_CHECK_NOT_CALLED(&cancel_ape);
  EL_CHECK_NOT_CALLED(&cancel_spont);
  wgpuInstanceRelease(instance);
  EL_CHECK_ONCE(&cancel_wao);
  EL_CHECK_ONCE(&cancel_ape);
  EL_CHECK_ONCE(&cancel_spont);
  CHECK_EQ(cancel_wao.status, WGPUShimUserEventStatus_CallbackCancelled);
  CHECK_EQ(cancel_ape.status, WGPUShimUserEventStatus_CallbackCancelled);
  CHECK_EQ(cancel_spont.status, WGPUShimUserEventStatus_CallbackCancelled);
  CHECK(cancel_wao.on_main && cancel_ape.on_main && cancel_spont.on_main);
  /* Delivered ones are not called again by the release. */
  EL_CHECK_ONCE(&blocked);
  EL_CHECK_ONCE(&polled);
  EL_CHECK_ONCE(&spont);
  EL_CHECK_ONCE(&ape);
  EL_CHECK_ONCE(&other_ue);

  ctx_release(&ctx);
  return test_finish();
}
