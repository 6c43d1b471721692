/* Helpers for the event-loop tests (ffi-tests/eventloop): the wgpu_shim.h
 * extensions (readiness fd, mixed-source timed waits, user events).
 *
 * Header-only, every helper `static inline` (callbacks plain `static`), so a
 * test that does not use one gets no unused-function warning.
 *
 *   - el_begin(seconds): records the main thread and starts a watchdog that
 *     ends the process (exit code 3) if the test hangs.
 *   - el_create_instance(flags) / el_ctx_init(ctx, flags): an instance with
 *     TimedWaitAny plus the extension features asked for (EL_READINESS,
 *     EL_MIXED), and an adapter/device requested with WaitAnyOnly callbacks.
 *     el_add_device: a second device (from a second adapter) on the instance.
 *   - ElHandle: the readiness handle, el_readiness(instance) (the fd of
 *     wgpuShimInstanceGetReadinessFd; on Windows the event of
 *     wgpuShimInstanceGetReadinessEvent), EL_NO_HANDLE without the feature.
 *     el_readable(h, seconds): poll(2) on the fd (Windows: a wait on the
 *     event); el_readable2 the same on two handles at once. ElSignal: a
 *     thread-to-thread signal to wait on beside it (eventfd; Windows: an
 *     event).
 *   - ElRec: what one callback saw (count, status, thread, order, data check),
 *     with the el_*_cb callbacks and el_<op>(...) issuers.
 *   - el_calibrate: spin-job parameters for a job of a given length.
 *   - el_data_maps: MAP_READ buffers filled with known data by a copy that
 *     runs behind a spin job (one submission), so their maps stay pending
 *     for the length of the job. */
#ifndef WGPU_SHIM_EVENTLOOP_UTIL_H
#define WGPU_SHIM_EVENTLOOP_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include <webgpu/wgpu_shim.h>

#ifdef _WIN32
#include <windows.h>
#else
#include <poll.h>
#endif
#ifdef __linux__
#include <sys/eventfd.h>
#endif

/* Longest a single bounded wait may take before it counts as a failure. */
#define EL_WAIT_S 10.0
#define EL_NS(seconds) ((uint64_t)((seconds) * 1e9))
/* Size of every mapped buffer (64 u32 words). */
#define EL_MAP_SIZE 256u
#define EL_MAP_WORDS (EL_MAP_SIZE / 4u)

/* Instance feature flags for el_create_instance / el_ctx_init. */
enum { EL_READINESS = 1, EL_MIXED = 2, EL_NO_TIMED = 4 };

static pthread_t el_main_thread;
static atomic_int el_seq;

/* ------------------------------------------------------------------------- */
/* Main thread, watchdog, readiness                                           */

static inline int el_is_main(void) { return pthread_equal(pthread_self(), el_main_thread) ? 1 : 0; }

/* Call first in main: records the main thread and starts the watchdog
 * (start_watchdog). */
static inline void el_begin(unsigned watchdog_seconds) {
  el_main_thread = pthread_self();
  start_watchdog(watchdog_seconds);
}

/* The readiness handle of an instance: what an event loop waits on. */
#ifdef _WIN32
typedef HANDLE ElHandle;
#define EL_NO_HANDLE NULL
#define EL_READINESS_GETTER "wgpuShimInstanceGetReadinessEvent"
#define EL_READINESS_FN wgpuShimInstanceGetReadinessEvent
#else
typedef int ElHandle;
#define EL_NO_HANDLE (-1)
#define EL_READINESS_GETTER "wgpuShimInstanceGetReadinessFd"
#define EL_READINESS_FN wgpuShimInstanceGetReadinessFd
#endif

/* The instance's readiness handle (EL_NO_HANDLE without the feature). */
static inline ElHandle el_readiness(WGPUInstance instance) { return EL_READINESS_FN(instance); }

/* Whether each of two handles is readable (signalled), waiting at most
 * timeout_s for either (a negative timeout waits without limit): sets
 * ready[0] and ready[1] and returns how many are, 0 on a timeout, -1 on an
 * error. poll(2) on fds; on Windows a wait on the events, which must be
 * manual-reset events (a wait does not consume them, as poll does not). A
 * second handle of EL_NO_HANDLE is left out. */
static inline int el_readable2(ElHandle a, ElHandle b, double timeout_s, int ready[2]) {
  ready[0] = ready[1] = 0;
#ifdef _WIN32
  HANDLE h[2] = {a, b};
  DWORD count = b != EL_NO_HANDLE ? 2 : 1;
  DWORD ms = timeout_s < 0 ? INFINITE : (DWORD)(timeout_s * 1000.0 + 0.5);
  DWORD w = WaitForMultipleObjects(count, h, FALSE, ms);
  if (w == WAIT_TIMEOUT) return 0;
  if (w >= WAIT_OBJECT_0 + count) {
    fprintf(stderr, "WaitForMultipleObjects: %#lx (error %lu) on the readiness event\n", (unsigned long)w,
            (unsigned long)GetLastError());
    return -1;
  }
  /* The first signalled one woke the wait; look at each (no wait). */
  for (DWORD i = 0; i < count; i++) ready[i] = WaitForSingleObject(h[i], 0) == WAIT_OBJECT_0;
  ready[w - WAIT_OBJECT_0] = 1;
  return ready[0] + ready[1];
#else
  struct pollfd p[2];
  nfds_t count = b != EL_NO_HANDLE ? 2 : 1;
  p[0].fd = a;
  p[1].fd = b;
  p[0].events = p[1].events = POLLIN;
  p[0].revents = p[1].revents = 0;
  int ms = timeout_s < 0 ? -1 : (int)(timeout_s * 1000.0 + 0.5);
  for (;;) {
    int n = poll(p, count, ms);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      perror("poll");
      return -1;
    }
    if (n == 0) return 0;
    for (nfds_t i = 0; i < count; i++) {
      if (p[i].revents & (POLLERR | POLLNVAL)) {
        fprintf(stderr, "poll: revents %#x on the readiness fd\n", (unsigned)p[i].revents);
        return -1;
      }
      ready[i] = (p[i].revents & POLLIN) ? 1 : 0;
    }
    return ready[0] + ready[1];
  }
#endif
}

/* Readability of one handle: 1 readable, 0 not (timed out), -1 error. A
 * negative timeout waits without limit. */
static inline int el_readable(ElHandle h, double timeout_s) {
  int ready[2];
  int n = el_readable2(h, EL_NO_HANDLE, timeout_s, ready);
  return n < 0 ? -1 : ready[0];
}

#if defined(_WIN32) || defined(__linux__)
/* A signal from one thread to another that waits for it with el_readable2
 * beside the readiness handle: raised by el_signal_raise, readable until
 * el_signal_take, closed by el_signal_close. An eventfd; on Windows a
 * manual-reset event. */
typedef ElHandle ElSignal;

static inline ElSignal el_signal_new(void) {
#ifdef _WIN32
  return CreateEventA(NULL, TRUE, FALSE, NULL);
#else
  return eventfd(0, EFD_CLOEXEC);
#endif
}

static inline void el_signal_raise(ElSignal s) {
#ifdef _WIN32
  if (!SetEvent(s)) fprintf(stderr, "SetEvent: error %lu\n", (unsigned long)GetLastError());
#else
  uint64_t one = 1;
  if (write(s, &one, sizeof one) != (ssize_t)sizeof one) perror("write signal");
#endif
}

static inline void el_signal_take(ElSignal s) {
#ifdef _WIN32
  if (!ResetEvent(s)) fprintf(stderr, "ResetEvent: error %lu\n", (unsigned long)GetLastError());
#else
  uint64_t v;
  if (read(s, &v, sizeof v) != (ssize_t)sizeof v) perror("read signal");
#endif
}

static inline void el_signal_close(ElSignal s) {
#ifdef _WIN32
  CloseHandle(s);
#else
  close(s);
#endif
}
#endif

/* ------------------------------------------------------------------------- */
/* Callback records                                                          */

typedef struct ElRec {
  const char *name;
  atomic_int calls;
  int status;
  int on_main;
  int seq; /* global order of the (last) call, from 1 */
  double t;
  pthread_t thread;
  /* map data check: when buffer is set, the callback reads the mapped range
   * (allowed in every mode) and compares word k with expect_base + k. */
  WGPUBuffer buffer;
  uint32_t expect_base;
  int data_checked;
  int data_ok;
  void (*hook)(struct ElRec *); /* extra work inside the callback */
  void *user;
  int index;
} ElRec;

static inline void el_rec_init(ElRec *r, const char *name) {
  memset(r, 0, sizeof *r);
  atomic_init(&r->calls, 0);
  r->name = name;
}

static inline int el_calls(ElRec *r) { return atomic_load(&r->calls); }

static inline void el_note(ElRec *r, int status) {
  r->t = now_s();
  r->thread = pthread_self();
  r->on_main = el_is_main();
  r->seq = atomic_fetch_add(&el_seq, 1) + 1;
  r->status = status;
  if (r->hook) r->hook(r);
  atomic_fetch_add(&r->calls, 1);
}

static inline int el_check_words(const uint32_t *w, uint32_t base) {
  if (!w) return 0;
  for (uint32_t k = 0; k < EL_MAP_WORDS; k++) {
    if (w[k] != base + k) return 0;
  }
  return 1;
}

static void el_map_cb(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)message;
  (void)u2;
  ElRec *r = (ElRec *)u1;
  if (!r) return;
  if (r->buffer && status == WGPUMapAsyncStatus_Success) {
    r->data_checked = 1;
    r->data_ok = el_check_words((const uint32_t *)wgpuBufferGetConstMappedRange(r->buffer, 0, EL_MAP_SIZE),
                                r->expect_base);
  }
  el_note(r, (int)status);
}

static void el_workdone_cb(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)message;
  (void)u2;
  ElRec *r = (ElRec *)u1;
  if (r) el_note(r, (int)status);
}

static void el_pop_cb(WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView message, void *u1,
                      void *u2) {
  (void)type;
  (void)message;
  (void)u2;
  ElRec *r = (ElRec *)u1;
  if (r) el_note(r, (int)status);
}

static void el_user_cb(WGPUShimUserEventStatus status, void *u1, void *u2) {
  (void)u2;
  ElRec *r = (ElRec *)u1;
  if (r) el_note(r, (int)status);
}

/* ctx_on_uncaptured, also printing the error. */
static void el_uncaptured_cb(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message, void *u1,
                             void *u2) {
  ctx_on_uncaptured(device, type, message, u1, u2);
  fprintf(stderr, "uncaptured device error: %s\n", ((Ctx *)u1)->last_error);
}

/* ------------------------------------------------------------------------- */
/* Issuing operations (a NULL rec gives a NULL callback)                      */

static inline WGPUFuture el_map_read(WGPUBuffer buffer, WGPUCallbackMode mode, ElRec *r) {
  WGPUBufferMapCallbackInfo ci = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  ci.mode = mode;
  ci.callback = r ? el_map_cb : NULL;
  ci.userdata1 = r;
  return wgpuBufferMapAsync(buffer, WGPUMapMode_Read, 0, EL_MAP_SIZE, ci);
}

/* A map whose callback also checks the data (word k == expect_base + k). */
static inline WGPUFuture el_map_checked(WGPUBuffer buffer, uint32_t expect_base, WGPUCallbackMode mode, ElRec *r) {
  r->buffer = buffer;
  r->expect_base = expect_base;
  return el_map_read(buffer, mode, r);
}

static inline WGPUFuture el_workdone(WGPUQueue queue, WGPUCallbackMode mode, ElRec *r) {
  WGPUQueueWorkDoneCallbackInfo ci = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  ci.mode = mode;
  ci.callback = r ? el_workdone_cb : NULL;
  ci.userdata1 = r;
  return wgpuQueueOnSubmittedWorkDone(queue, ci);
}

/* PushErrorScope + PopErrorScope: a CPU-timeline future, complete at once. */
static inline WGPUFuture el_push_pop(WGPUDevice device, WGPUCallbackMode mode, ElRec *r) {
  wgpuDevicePushErrorScope(device, WGPUErrorFilter_Validation);
  WGPUPopErrorScopeCallbackInfo ci = WGPU_POP_ERROR_SCOPE_CALLBACK_INFO_INIT;
  ci.mode = mode;
  ci.callback = r ? el_pop_cb : NULL;
  ci.userdata1 = r;
  return wgpuDevicePopErrorScope(device, ci);
}

static inline WGPUFuture el_user_event(WGPUInstance instance, WGPUCallbackMode mode, ElRec *r) {
  WGPUShimUserEventCallbackInfo ci;
  memset(&ci, 0, sizeof ci);
  ci.mode = mode;
  ci.callback = r ? el_user_cb : NULL;
  ci.userdata1 = r;
  return wgpuShimInstanceCreateUserEvent(instance, ci);
}

/* ------------------------------------------------------------------------- */
/* Waiting                                                                    */

/* One WaitAny on one future; timeout_s < 0 waits without limit, 0 polls. */
static inline WGPUWaitStatus el_wait1(WGPUInstance instance, WGPUFuture f, double timeout_s, WGPUBool *completed) {
  WGPUFutureWaitInfo info = WGPU_FUTURE_WAIT_INFO_INIT;
  info.future = f;
  WGPUWaitStatus st = wgpuInstanceWaitAny(instance, 1, &info, timeout_s < 0 ? UINT64_MAX : EL_NS(timeout_s));
  if (completed) *completed = info.completed;
  return st;
}

/* Whether every rec was called at least once. */
static inline int el_all_called(ElRec *const *recs, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (el_calls(recs[i]) < 1) return 0;
  }
  return 1;
}

/* CHECK that r was called exactly `expected` times, naming r. */
#define EL_CHECK_CALLS(r, expected) el_check_calls((r), (expected), __FILE__, __LINE__)
#define EL_CHECK_ONCE(r) el_check_calls((r), 1, __FILE__, __LINE__)
#define EL_CHECK_NOT_CALLED(r) el_check_calls((r), 0, __FILE__, __LINE__)
static inline void el_check_calls(ElRec *r, int expected, const char *file, int line) {
  check_callback_calls(r->name, el_calls(r), expected, file, line);
}

/* CHECK the readiness handle's readability (zero-timeout poll), with a
 * message. */
#define EL_CHECK_READABLE(fd, expected, what) el_check_readable((fd), (expected), (what), __FILE__, __LINE__)
static inline void el_check_readable(ElHandle fd, int expected, const char *what, const char *file, int line) {
  char buf[256];
  int r = el_readable(fd, 0);
  snprintf(buf, sizeof buf, "readiness fd %s (expected %s): %s", r == 1 ? "readable" : r == 0 ? "unreadable" : "error",
           expected ? "readable" : "unreadable", what);
  harness_check(r == (expected ? 1 : 0), buf, file, line);
}

/* ------------------------------------------------------------------------- */
/* Instance, adapter, device                                                  */

/* An instance with TimedWaitAny (unless EL_NO_TIMED) and the extension
 * features in `flags`. NULL on failure. */
static inline WGPUInstance el_create_instance(int flags) {
  WGPUInstanceFeatureName features[3];
  size_t n = 0;
  if (!(flags & EL_NO_TIMED)) features[n++] = WGPUInstanceFeatureName_TimedWaitAny;
  if (flags & EL_READINESS) features[n++] = WGPUInstanceFeatureName_ShimReadinessHandle;
  if (flags & EL_MIXED) features[n++] = WGPUInstanceFeatureName_ShimMixedSourceWaitAny;
  WGPUInstanceDescriptor desc = WGPU_INSTANCE_DESCRIPTOR_INIT;
  desc.requiredFeatureCount = n;
  desc.requiredFeatures = n ? features : NULL;
  return wgpuCreateInstance(&desc);
}

/* Waits for a WaitAnyOnly setup future: timed when the instance allows it,
 * else by polling. */
static inline WGPUWaitStatus el_wait_setup(WGPUInstance instance, WGPUFuture f, int timed) {
  if (timed) return el_wait1(instance, f, EL_WAIT_S, NULL);
  double deadline = now_s() + EL_WAIT_S;
  for (;;) {
    WGPUWaitStatus st = el_wait1(instance, f, 0, NULL);
    if (st != WGPUWaitStatus_TimedOut || now_s() > deadline) return st;
    sleep_s(0.001);
  }
}

/* An adapter of `instance`, waited for by el_wait_setup (NULL on failure). */
static inline WGPUAdapter el_get_adapter(WGPUInstance instance, int timed) {
  WGPUAdapter adapter = NULL;
  WGPUFuture f = request_adapter_future(instance, &adapter);
  if (el_wait_setup(instance, f, timed) != WGPUWaitStatus_Success) return NULL;
  return adapter;
}

/* A device whose uncaptured errors are counted in ctx (when given); its
 * device-lost callback is left out (nothing to observe here). */
static inline WGPUDevice el_get_device(WGPUInstance instance, WGPUAdapter adapter, int timed, Ctx *ctx) {
  WGPUDevice device = NULL;
  WGPUDeviceDescriptor desc = WGPU_DEVICE_DESCRIPTOR_INIT;
  desc.label = sv("eventloop test device");
  if (ctx) {
    desc.uncapturedErrorCallbackInfo.callback = el_uncaptured_cb;
    desc.uncapturedErrorCallbackInfo.userdata1 = ctx;
  }
  WGPUFuture f = request_device_future(adapter, &desc, &device);
  if (el_wait_setup(instance, f, timed) != WGPUWaitStatus_Success) return NULL;
  return device;
}

/* Fills a harness Ctx on an instance created with `flags`. 0 on success. */
static inline int el_ctx_init(Ctx *ctx, int flags) {
  memset(ctx, 0, sizeof *ctx);
  int timed = !(flags & EL_NO_TIMED);
  ctx->instance = el_create_instance(flags);
  if (!ctx->instance) return -1;
  ctx->adapter = el_get_adapter(ctx->instance, timed);
  if (!ctx->adapter) return -2;
  ctx->device = el_get_device(ctx->instance, ctx->adapter, timed, ctx);
  if (!ctx->device) return -3;
  ctx->queue = wgpuDeviceGetQueue(ctx->device);
  return ctx->queue ? 0 : -4;
}

/* A second device (from a second adapter) on ctx's instance, into ctx2,
 * whose instance field is ctx's (release it with el_ctx2_release). */
static inline int el_add_device(Ctx *ctx, Ctx *ctx2) {
  memset(ctx2, 0, sizeof *ctx2);
  ctx2->instance = ctx->instance;
  ctx2->adapter = el_get_adapter(ctx->instance, 1);
  if (!ctx2->adapter) return -2;
  ctx2->device = el_get_device(ctx->instance, ctx2->adapter, 1, ctx2);
  if (!ctx2->device) return -3;
  ctx2->queue = wgpuDeviceGetQueue(ctx2->device);
  return ctx2->queue ? 0 : -4;
}

static inline void el_ctx2_release(Ctx *ctx2) {
  if (ctx2->queue) wgpuQueueRelease(ctx2->queue);
  if (ctx2->device) wgpuDeviceRelease(ctx2->device);
  if (ctx2->adapter) wgpuAdapterRelease(ctx2->adapter);
  memset(ctx2, 0, sizeof *ctx2);
}

/* ------------------------------------------------------------------------- */
/* GPU work                                                                   */

/* Records `dispatches` dispatches of the harness spin shader into enc
 * (none when 0). */
static inline void el_encode_spin(Ctx *ctx, WGPUCommandEncoder enc, uint32_t iterations, uint32_t dispatches) {
  if (dispatches == 0) return;
  wgpuBufferRelease(encode_spin_job(ctx, enc, iterations, dispatches));
}

/* Submits a spin job (one submission; nothing to read back). */
static inline void el_submit_spin(Ctx *ctx, uint32_t iterations, uint32_t dispatches) {
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  el_encode_spin(ctx, enc, iterations, dispatches);
  submit_encoder(ctx, enc);
}

/* n new MAP_READ buffers (into bufs), buffer i holding words base + i*64 + k,
 * written by copies that follow a spin job in ONE submission (on lavapipe a
 * second wgpuQueueSubmit waits for the running one, so the copies must ride
 * along to keep the buffers busy for the length of the job). */
static inline void el_data_maps(Ctx *ctx, uint32_t iterations, uint32_t dispatches, uint32_t base, WGPUBuffer *bufs,
                                size_t n) {
  WGPUBuffer src = make_buffer(ctx->device, (uint64_t)EL_MAP_SIZE * n, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 0);
  uint32_t *words = (uint32_t *)malloc((size_t)EL_MAP_SIZE * n);
  for (size_t i = 0; i < n * EL_MAP_WORDS; i++) words[i] = base + (uint32_t)i;
  wgpuQueueWriteBuffer(ctx->queue, src, 0, words, (size_t)EL_MAP_SIZE * n);
  free(words);
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  el_encode_spin(ctx, enc, iterations, dispatches);
  for (size_t i = 0; i < n; i++) {
    bufs[i] = make_buffer(ctx->device, EL_MAP_SIZE, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
    wgpuCommandEncoderCopyBufferToBuffer(enc, src, (uint64_t)EL_MAP_SIZE * i, bufs[i], 0, EL_MAP_SIZE);
  }
  submit_encoder(ctx, enc);
  wgpuBufferRelease(src);
}

/* Length of one spin job in seconds (submit to work-done), -1 on failure
 * (a SpinJobTimer; the wait is timed). */
static inline double el_time_job(Ctx *ctx, int timed, uint32_t iterations, uint32_t dispatches) {
  static ElRec r;
  (void)timed;
  el_rec_init(&r, "calibration work-done");
  double s0 = now_s();
  el_submit_spin(ctx, iterations, dispatches);
  double t0 = now_s();
  WGPUFuture f = el_workdone(ctx->queue, WGPUCallbackMode_WaitAnyOnly, &r);
  WGPUWaitStatus st = el_wait1(ctx->instance, f, 30.0, NULL);
  double t = now_s() - t0;
  if (st != WGPUWaitStatus_Success || el_calls(&r) != 1) {
    fprintf(stderr, "calibration: wait status %d, callback calls %d\n", (int)st, el_calls(&r));
    return -1;
  }
  harness_skip_if_job_ran_in_submit(ctx, t0 - s0, t);
  return t;
}

/* Spin-job parameters whose job takes at least target_s (calibrate_spin_job:
 * 10 tries, each aiming at 1.25 x target_s; an overshooting first job is
 * scaled down once). */
static inline SpinJob el_calibrate(Ctx *ctx, double target_s) {
  const SpinCalibration how = {10, 1.25, 1.2, 1};
  return calibrate_spin_job(ctx, 1, target_s, &how, el_time_job);
}

#endif
