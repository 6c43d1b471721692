/* Helpers for the futures / callback-mode tests (the programs in ffi-tests/futures).
 *
 * Header-only: the helpers are `static inline` (the callbacks are plain static
 * functions referenced by them), so a test that does not use one gets no
 * unused-function warning.
 *
 * The main pieces:
 *   - FuRec: what a callback saw (count, status, thread, order, the WaitAny
 *     `completed` flag at callback time, what the main thread was doing).
 *     One set of callbacks (fu_*_cb) records into a FuRec given as userdata1.
 *   - fu_<op>(...): issue an async op with a mode and a FuRec, return its future.
 *   - bounded waits (fu_wait1, fu_poll1_until, fu_wait_all, fu_pump_until,
 *     fu_sleep_until): a broken library makes them time out, never hang.
 *   - fu_begin(seconds): records the main thread and starts a watchdog that
 *     ends the process with exit code 3 if the test hangs.
 *   - fu_ctx_init: a harness Ctx, with or without TimedWaitAny, with the
 *     device-lost callback recorded into a FuRec in the chosen mode.
 *   - fu_calibrate: finds spin-job parameters for a job of a given length.
 */
#ifndef WGPU_SHIM_FUTURES_UTIL_H
#define WGPU_SHIM_FUTURES_UTIL_H

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

/* Longest a single bounded wait in these tests may take before it is a failure. */
#define FU_WAIT_S 10.0
#define FU_NS(seconds) ((uint64_t)((seconds) * 1e9))
#define FU_MAP_SIZE 256u

/* What the main thread is doing, recorded by callbacks (only the main thread
 * sets it, through the fu_* wrappers). */
enum {
  FU_PHASE_NONE = 0,
  FU_PHASE_WAITANY = 1,
  FU_PHASE_PROCESS_EVENTS = 2,
  FU_PHASE_RELEASE = 3,
  FU_PHASE_SLEEP = 4, /* main thread makes no API call */
  FU_PHASE_CALL = 5   /* main thread is inside some other API call */
};

static pthread_t fu_main_thread;
static atomic_int fu_seq;
static atomic_int fu_phase;

/* ------------------------------------------------------------------------- */
/* Main thread, phase, watchdog                                               */

static inline int fu_is_main(void) { return pthread_equal(pthread_self(), fu_main_thread) ? 1 : 0; }

/* Sets the phase (main thread only) and returns the previous one. */
static inline int fu_phase_enter(int phase) {
  if (!fu_is_main()) return -1;
  return atomic_exchange(&fu_phase, phase);
}
static inline void fu_phase_leave(int old) {
  if (old >= 0) atomic_store(&fu_phase, old);
}

/* Call first in main: records the main thread and starts the watchdog
 * (start_watchdog). */
static inline void fu_begin(unsigned watchdog_seconds) {
  fu_main_thread = pthread_self();
  atomic_store(&fu_phase, FU_PHASE_NONE);
  start_watchdog(watchdog_seconds);
}

/* ------------------------------------------------------------------------- */
/* Callback records                                                          */

typedef struct FuRec FuRec;
struct FuRec {
  const char *name;
  atomic_int entries; /* incremented when the callback starts */
  atomic_int calls;   /* incremented when the callback has finished */
  int status;         /* status (or device-lost reason) of the last call */
  int seq;            /* global order of the (last) call, from 1 */
  int phase;          /* fu_phase at call time */
  int on_main;        /* ran on the main thread */
  int completed_seen; /* *watch at call time; -1 when no watch was set */
  WGPUBool *watch;    /* the WaitAny `completed` flag of this future, if any */
  pthread_t thread;
  double t_start, t_end;
  double sleep_s; /* the callback sleeps this long before returning */
  /* payload */
  void *obj;        /* adapter / device / pipeline handed to the callback (owned) */
  int error_type;   /* PopErrorScope */
  size_t msg_len;   /* message length */
  int info_null;    /* GetCompilationInfo: compilationInfo == NULL */
  int dev_ptr_null; /* device lost: `device` pointer itself NULL */
  int dev_null;     /* device lost: *device == NULL */
  WGPUDevice dev_seen;
  /* map extras */
  WGPUBuffer buffer;    /* set by fu_map_read */
  int probe_range;      /* call GetConstMappedRange in the callback (allowed in every mode) */
  const void *range;    /* its result */
  int probe_state;      /* call GetMapState in the callback (only for non-spontaneous modes) */
  int state_in_cb;      /* its result */
  void (*hook)(FuRec *); /* extra work done inside the callback, before sleep_s */
  void *user;
  int index;
};

static inline void fu_rec_init(FuRec *r, const char *name) {
  memset(r, 0, sizeof *r);
  atomic_init(&r->entries, 0);
  atomic_init(&r->calls, 0);
  r->name = name;
  r->completed_seen = -1;
}

static inline int fu_calls(FuRec *r) { return atomic_load(&r->calls); }
static inline int fu_entries(FuRec *r) { return atomic_load(&r->entries); }

static inline void fu_note(FuRec *r, int status) {
  r->t_start = now_s();
  r->thread = pthread_self();
  r->on_main = fu_is_main();
  r->seq = atomic_fetch_add(&fu_seq, 1) + 1;
  r->phase = atomic_load(&fu_phase);
  r->completed_seen = r->watch ? (int)*r->watch : -1;
  r->status = status;
  atomic_fetch_add(&r->entries, 1);
  if (r->hook) r->hook(r);
  if (r->sleep_s > 0) sleep_s(r->sleep_s);
  r->t_end = now_s();
  atomic_fetch_add(&r->calls, 1);
}

static void fu_map_cb(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)u2;
  FuRec *r = (FuRec *)u1;
  if (!r) return;
  r->msg_len = sv_len(message);
  if (r->buffer && r->probe_range) r->range = wgpuBufferGetConstMappedRange(r->buffer, 0, FU_MAP_SIZE);
  if (r->buffer && r->probe_state) r->state_in_cb = (int)wgpuBufferGetMapState(r->buffer);
  fu_note(r, (int)status);
}

static void fu_workdone_cb(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)u2;
  FuRec *r = (FuRec *)u1;
  if (!r) return;
  r->msg_len = sv_len(message);
  fu_note(r, (int)status);
}

static void fu_pop_cb(WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView message, void *u1,
                      void *u2) {
  (void)u2;
  FuRec *r = (FuRec *)u1;
  if (!r) return;
  r->error_type = (int)type;
  r->msg_len = sv_len(message);
  fu_note(r, (int)status);
}

static void fu_compinfo_cb(WGPUCompilationInfoRequestStatus status, struct WGPUCompilationInfo const *info,
                           void *u1, void *u2) {
  (void)u2;
  FuRec *r = (FuRec *)u1;
  if (!r) return;
  r->info_null = info == NULL;
  fu_note(r, (int)status);
}

static void fu_pipeline_cb(WGPUCreatePipelineAsyncStatus status, WGPUComputePipeline pipeline,
                           WGPUStringView message, void *u1, void *u2) {
  (void)u2;
  FuRec *r = (FuRec *)u1;
  if (!r) return;
  r->obj = (void *)pipeline;
  r->msg_len = sv_len(message);
  fu_note(r, (int)status);
}

static void fu_adapter_cb(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message, void *u1,
                          void *u2) {
  (void)u2;
  FuRec *r = (FuRec *)u1;
  if (!r) return;
  r->obj = (void *)adapter;
  r->msg_len = sv_len(message);
  fu_note(r, (int)status);
}

static void fu_device_cb(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void *u1,
                         void *u2) {
  (void)u2;
  FuRec *r = (FuRec *)u1;
  if (!r) return;
  r->obj = (void *)device;
  r->msg_len = sv_len(message);
  fu_note(r, (int)status);
}

static void fu_lost_cb(WGPUDevice const *device, WGPUDeviceLostReason reason, WGPUStringView message, void *u1,
                       void *u2) {
  (void)u2;
  FuRec *r = (FuRec *)u1;
  if (!r) return;
  r->dev_ptr_null = device == NULL;
  r->dev_null = device != NULL && *device == NULL;
  r->dev_seen = device ? *device : NULL;
  r->msg_len = sv_len(message);
  fu_note(r, (int)reason);
}

/* ------------------------------------------------------------------------- */
/* Issuing async ops. A NULL rec gives a NULL callback.                       */

static inline WGPUFuture fu_map_mode(WGPUBuffer buffer, WGPUMapMode map_mode, WGPUCallbackMode mode, FuRec *r) {
  WGPUBufferMapCallbackInfo ci = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  ci.mode = mode;
  ci.callback = r ? fu_map_cb : NULL;
  ci.userdata1 = r;
  if (r) r->buffer = buffer;
  int old = fu_phase_enter(FU_PHASE_CALL);
  WGPUFuture f = wgpuBufferMapAsync(buffer, map_mode, 0, WGPU_WHOLE_MAP_SIZE, ci);
  fu_phase_leave(old);
  return f;
}

static inline WGPUFuture fu_map_read(WGPUBuffer buffer, WGPUCallbackMode mode, FuRec *r) {
  return fu_map_mode(buffer, WGPUMapMode_Read, mode, r);
}

static inline WGPUFuture fu_workdone(WGPUQueue queue, WGPUCallbackMode mode, FuRec *r) {
  WGPUQueueWorkDoneCallbackInfo ci = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  ci.mode = mode;
  ci.callback = r ? fu_workdone_cb : NULL;
  ci.userdata1 = r;
  int old = fu_phase_enter(FU_PHASE_CALL);
  WGPUFuture f = wgpuQueueOnSubmittedWorkDone(queue, ci);
  fu_phase_leave(old);
  return f;
}

/* Pops the innermost error scope of this thread (push one first if wanted). */
static inline WGPUFuture fu_pop(WGPUDevice device, WGPUCallbackMode mode, FuRec *r) {
  WGPUPopErrorScopeCallbackInfo ci = WGPU_POP_ERROR_SCOPE_CALLBACK_INFO_INIT;
  ci.mode = mode;
  ci.callback = r ? fu_pop_cb : NULL;
  ci.userdata1 = r;
  int old = fu_phase_enter(FU_PHASE_CALL);
  WGPUFuture f = wgpuDevicePopErrorScope(device, ci);
  fu_phase_leave(old);
  return f;
}

/* PushErrorScope(Validation) then PopErrorScope: a CPU-timeline future. */
static inline WGPUFuture fu_push_pop(WGPUDevice device, WGPUCallbackMode mode, FuRec *r) {
  wgpuDevicePushErrorScope(device, WGPUErrorFilter_Validation);
  return fu_pop(device, mode, r);
}

static inline WGPUFuture fu_compinfo(WGPUShaderModule module, WGPUCallbackMode mode, FuRec *r) {
  WGPUCompilationInfoCallbackInfo ci = WGPU_COMPILATION_INFO_CALLBACK_INFO_INIT;
  ci.mode = mode;
  ci.callback = r ? fu_compinfo_cb : NULL;
  ci.userdata1 = r;
  int old = fu_phase_enter(FU_PHASE_CALL);
  WGPUFuture f = wgpuShaderModuleGetCompilationInfo(module, ci);
  fu_phase_leave(old);
  return f;
}

/* CreateComputePipelineAsync with entry point "main" and an automatic layout. */
static inline WGPUFuture fu_pipeline_async(WGPUDevice device, WGPUShaderModule module, WGPUCallbackMode mode,
                                           FuRec *r) {
  WGPUComputePipelineDescriptor desc = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  desc.compute.module = module;
  desc.compute.entryPoint = sv("main");
  WGPUCreateComputePipelineAsyncCallbackInfo ci = WGPU_CREATE_COMPUTE_PIPELINE_ASYNC_CALLBACK_INFO_INIT;
  ci.mode = mode;
  ci.callback = r ? fu_pipeline_cb : NULL;
  ci.userdata1 = r;
  int old = fu_phase_enter(FU_PHASE_CALL);
  WGPUFuture f = wgpuDeviceCreateComputePipelineAsync(device, &desc, ci);
  fu_phase_leave(old);
  return f;
}

static inline WGPUFuture fu_request_adapter(WGPUInstance instance, WGPUCallbackMode mode, FuRec *r) {
  WGPURequestAdapterCallbackInfo ci = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  ci.mode = mode;
  ci.callback = r ? fu_adapter_cb : NULL;
  ci.userdata1 = r;
  int old = fu_phase_enter(FU_PHASE_CALL);
  WGPUFuture f = wgpuInstanceRequestAdapter(instance, NULL, ci);
  fu_phase_leave(old);
  return f;
}

/* RequestDevice whose device-lost callback (mode lost_mode) records into lost
 * (no lost callback when lost is NULL). uncaptured errors go to ctx when given. */
static inline WGPUFuture fu_request_device(WGPUAdapter adapter, WGPUCallbackMode mode, FuRec *r,
                                           WGPUCallbackMode lost_mode, FuRec *lost, Ctx *ctx) {
  WGPUDeviceDescriptor desc = WGPU_DEVICE_DESCRIPTOR_INIT;
  desc.label = sv("futures test device");
  if (ctx) {
    desc.uncapturedErrorCallbackInfo.callback = ctx_on_uncaptured;
    desc.uncapturedErrorCallbackInfo.userdata1 = ctx;
  }
  if (lost) {
    desc.deviceLostCallbackInfo.mode = lost_mode;
    desc.deviceLostCallbackInfo.callback = fu_lost_cb;
    desc.deviceLostCallbackInfo.userdata1 = lost;
  } else if (ctx) {
    desc.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowSpontaneous;
    desc.deviceLostCallbackInfo.callback = ctx_on_lost;
    desc.deviceLostCallbackInfo.userdata1 = ctx;
  }
  WGPURequestDeviceCallbackInfo ci = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  ci.mode = mode;
  ci.callback = r ? fu_device_cb : NULL;
  ci.userdata1 = r;
  int old = fu_phase_enter(FU_PHASE_CALL);
  WGPUFuture f = wgpuAdapterRequestDevice(adapter, &desc, ci);
  fu_phase_leave(old);
  return f;
}

/* ------------------------------------------------------------------------- */
/* Waiting (always bounded)                                                   */

/* WaitAny with the phase recorded as WAITANY. */
static inline WGPUWaitStatus fu_wait_any(WGPUInstance instance, size_t count, WGPUFutureWaitInfo *infos,
                                         uint64_t timeout_ns) {
  int old = fu_phase_enter(FU_PHASE_WAITANY);
  WGPUWaitStatus st = wgpuInstanceWaitAny(instance, count, infos, timeout_ns);
  fu_phase_leave(old);
  return st;
}

static inline void fu_process_events(WGPUInstance instance) {
  int old = fu_phase_enter(FU_PHASE_PROCESS_EVENTS);
  wgpuInstanceProcessEvents(instance);
  fu_phase_leave(old);
}

/* Releases an instance with the phase recorded as RELEASE. */
static inline void fu_release_instance(WGPUInstance instance) {
  int old = fu_phase_enter(FU_PHASE_RELEASE);
  wgpuInstanceRelease(instance);
  fu_phase_leave(old);
}

/* One WaitAny on one future. timeout_s: 0 polls; < 0 means UINT64_MAX (only
 * with a watchdog running). The rec's watch points at the `completed` flag
 * during the call; *completed receives it. */
static inline WGPUWaitStatus fu_wait1(WGPUInstance instance, WGPUFuture f, double timeout_s, FuRec *r,
                                      WGPUBool *completed) {
  WGPUFutureWaitInfo info = WGPU_FUTURE_WAIT_INFO_INIT;
  info.future = f;
  info.completed = WGPU_FALSE;
  if (r) r->watch = &info.completed;
  uint64_t ns = timeout_s < 0 ? UINT64_MAX : FU_NS(timeout_s);
  WGPUWaitStatus st = fu_wait_any(instance, 1, &info, ns);
  if (r) r->watch = NULL;
  if (completed) *completed = info.completed;
  return st;
}

/* Polls (timeout 0) one future until it is not TimedOut or max_s passed. */
static inline WGPUWaitStatus fu_poll1_until(WGPUInstance instance, WGPUFuture f, double max_s, FuRec *r,
                                            WGPUBool *completed) {
  double deadline = now_s() + max_s;
  WGPUWaitStatus st;
  for (;;) {
    st = fu_wait1(instance, f, 0, r, completed);
    if (st != WGPUWaitStatus_TimedOut || now_s() > deadline) return st;
    sleep_s(0.001);
  }
}

/* Waits for one future: timed (timed != 0) or by polling. */
static inline WGPUWaitStatus fu_wait_future(WGPUInstance instance, WGPUFuture f, int timed, double max_s,
                                            FuRec *r) {
  return timed ? fu_wait1(instance, f, max_s, r, NULL) : fu_poll1_until(instance, f, max_s, r, NULL);
}

/* Waits until every future has been reported completed, each WaitAny listing
 * only the futures not yet reported (so a wait never stalls on futures that
 * were already delivered). timed != 0: timed waits of at most 1 s, which the
 * spec allows only when all the futures have ONE source (one queue, or the
 * CPU timeline: §8.5); timed == 0: polls (timeout 0, 1 ms apart), which may
 * mix sources. recs[i] (may be NULL, or recs itself NULL) gets its watch
 * pointed at its slot during each call. Returns 1 when all completed, 0 on
 * Error or time out. */
static inline int fu_wait_all(WGPUInstance instance, const WGPUFuture *fs, FuRec *const *recs, size_t n, int timed,
                              double max_s) {
  if (n == 0) return 1;
  int *done = (int *)calloc(n, sizeof *done);
  size_t *idx = (size_t *)calloc(n, sizeof *idx);
  WGPUFutureWaitInfo *w = (WGPUFutureWaitInfo *)calloc(n, sizeof *w);
  double deadline = now_s() + max_s;
  int ok = 0;
  for (;;) {
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
      if (done[i]) continue;
      w[m].future = fs[i];
      w[m].completed = WGPU_FALSE;
      idx[m] = i;
      m++;
    }
    for (size_t j = 0; j < m; j++) {
      if (recs && recs[idx[j]]) recs[idx[j]]->watch = &w[j].completed;
    }
    if (m == 0) {
      ok = 1;
      break;
    }
    double left = deadline - now_s();
    if (left <= 0) {
      fprintf(stderr, "fu_wait_all: %zu of %zu futures still not completed after %.1f s\n", m, n, max_s);
      break;
    }
    WGPUWaitStatus st = fu_wait_any(instance, m, w, timed ? FU_NS(left < 1.0 ? left : 1.0) : 0);
    for (size_t j = 0; j < m; j++) {
      if (recs && recs[idx[j]]) recs[idx[j]]->watch = NULL;
      if (w[j].completed) done[idx[j]] = 1;
    }
    if (st == WGPUWaitStatus_Error) {
      fprintf(stderr, "fu_wait_all: WaitAny returned Error\n");
      break;
    }
    if (!timed) sleep_s(0.001);
  }
  free(done);
  free(idx);
  free(w);
  return ok;
}

static inline int fu_all_called(FuRec *const *recs, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (recs[i] && fu_calls(recs[i]) < 1) return 0;
  }
  return 1;
}

/* Calls ProcessEvents (with 2 ms sleeps) until every rec was called or max_s passed. */
static inline int fu_pump_until(WGPUInstance instance, FuRec *const *recs, size_t n, double max_s) {
  double deadline = now_s() + max_s;
  for (;;) {
    fu_process_events(instance);
    if (fu_all_called(recs, n)) return 1;
    if (now_s() > deadline) return 0;
    sleep_s(0.002);
  }
}
static inline int fu_pump_until1(WGPUInstance instance, FuRec *r, double max_s) {
  return fu_pump_until(instance, &r, 1, max_s);
}

/* Sleeps (no API call at all) until every rec was called or max_s passed. */
static inline int fu_sleep_until(FuRec *const *recs, size_t n, double max_s) {
  int old = fu_phase_enter(FU_PHASE_SLEEP);
  double deadline = now_s() + max_s;
  int ok;
  for (;;) {
    if (fu_all_called(recs, n)) {
      ok = 1;
      break;
    }
    if (now_s() > deadline) {
      ok = 0;
      break;
    }
    sleep_s(0.002);
  }
  fu_phase_leave(old);
  return ok;
}
static inline int fu_sleep_until1(FuRec *r, double max_s) { return fu_sleep_until(&r, 1, max_s); }

/* Sleeps with the phase recorded as SLEEP (no API call). */
static inline void fu_idle(double seconds) {
  int old = fu_phase_enter(FU_PHASE_SLEEP);
  sleep_s(seconds);
  fu_phase_leave(old);
}

/* CHECK that r was called exactly once, naming r in the failure message. */
#define FU_CHECK_ONCE(r) fu_check_calls((r), 1, __FILE__, __LINE__)
#define FU_CHECK_NOT_CALLED(r) fu_check_calls((r), 0, __FILE__, __LINE__)
static inline void fu_check_calls(FuRec *r, int expected, const char *file, int line) {
  check_callback_calls(r->name, fu_calls(r), expected, file, line);
}
/* CHECK r's status, naming r in the failure message. */
#define FU_CHECK_STATUS(r, expected) fu_check_status((r), (int)(expected), __FILE__, __LINE__)
static inline void fu_check_status(FuRec *r, int expected, const char *file, int line) {
  char buf[256];
  snprintf(buf, sizeof buf, "callback '%s' status %d, expected %d", r->name ? r->name : "?", r->status, expected);
  harness_check(r->status == expected, buf, file, line);
}

/* ------------------------------------------------------------------------- */
/* Instance / adapter / device without the harness                            */

/* Requests an adapter (WaitAnyOnly, waited timed or by polling). */
static inline WGPUAdapter fu_get_adapter(WGPUInstance instance, int timed) {
  static FuRec r; /* static: a late callback of a broken library cannot hit a dead stack */
  fu_rec_init(&r, "fu_get_adapter");
  WGPUFuture f = fu_request_adapter(instance, WGPUCallbackMode_WaitAnyOnly, &r);
  WGPUWaitStatus st = fu_wait_future(instance, f, timed, FU_WAIT_S, NULL);
  if (st != WGPUWaitStatus_Success || fu_calls(&r) != 1 || r.status != WGPURequestAdapterStatus_Success) {
    fprintf(stderr, "fu_get_adapter: wait status %d, calls %d, status %d\n", (int)st, fu_calls(&r), r.status);
    return NULL;
  }
  return (WGPUAdapter)r.obj;
}

/* Requests a device (WaitAnyOnly, waited timed or by polling). */
static inline WGPUDevice fu_get_device(WGPUInstance instance, WGPUAdapter adapter, int timed,
                                       WGPUCallbackMode lost_mode, FuRec *lost, Ctx *ctx) {
  static FuRec r;
  fu_rec_init(&r, "fu_get_device");
  WGPUFuture f = fu_request_device(adapter, WGPUCallbackMode_WaitAnyOnly, &r, lost_mode, lost, ctx);
  WGPUWaitStatus st = fu_wait_future(instance, f, timed, FU_WAIT_S, NULL);
  if (st != WGPUWaitStatus_Success || fu_calls(&r) != 1 || r.status != WGPURequestDeviceStatus_Success) {
    fprintf(stderr, "fu_get_device: wait status %d, calls %d, status %d\n", (int)st, fu_calls(&r), r.status);
    return NULL;
  }
  return (WGPUDevice)r.obj;
}

/* Fills a harness Ctx: instance (TimedWaitAny iff timed), adapter, device
 * (lost callback recorded in `lost` with lost_mode; in ctx, spontaneous, when
 * lost is NULL), queue. Returns 0 on success. */
static inline int fu_ctx_init(Ctx *ctx, int timed, WGPUCallbackMode lost_mode, FuRec *lost) {
  memset(ctx, 0, sizeof *ctx);
  ctx->instance = create_instance(timed);
  if (!ctx->instance) return -1;
  ctx->adapter = fu_get_adapter(ctx->instance, timed);
  if (!ctx->adapter) return -2;
  ctx->device = fu_get_device(ctx->instance, ctx->adapter, timed, lost_mode, lost, ctx);
  if (!ctx->device) return -3;
  ctx->queue = wgpuDeviceGetQueue(ctx->device);
  return ctx->queue ? 0 : -4;
}

/* ------------------------------------------------------------------------- */
/* GPU work                                                                   */

/* Submits a copy of FU_MAP_SIZE bytes from src into a new MAP_READ buffer, returned. */
static inline WGPUBuffer fu_copy_to_map_buffer(Ctx *ctx, WGPUBuffer src) {
  WGPUBuffer dst = make_buffer(ctx->device, FU_MAP_SIZE, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  wgpuCommandEncoderCopyBufferToBuffer(enc, src, 0, dst, 0, FU_MAP_SIZE);
  submit_encoder(ctx, enc);
  return dst;
}

/* Like the harness's submit_spin_job, but the spin dispatches and a copy of
 * their output into each of dsts[0..n) (FU_MAP_SIZE bytes, COPY_DST buffers)
 * go into ONE wgpuQueueSubmit. Reason: on lavapipe a wgpuQueueSubmit made while
 * an earlier submission still runs blocks until that submission has finished
 * (wgpu-hal chains submissions with a semaphore, and lavapipe waits on it inside
 * vkQueueSubmit), so a copy submitted on its own would make the caller wait
 * for the whole job, and the destination would no longer be busy. */
static inline void fu_submit_spin_with_copies(Ctx *ctx, uint32_t iterations, uint32_t dispatches,
                                              const WGPUBuffer *dsts, size_t n) {
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPUBuffer out = encode_spin_job(ctx, enc, iterations, dispatches);
  for (size_t i = 0; i < n; i++) wgpuCommandEncoderCopyBufferToBuffer(enc, out, 0, dsts[i], 0, FU_MAP_SIZE);
  submit_encoder(ctx, enc);
  wgpuBufferRelease(out);
}

/* n new MAP_READ buffers (into bufs), all written by one spin job submitted
 * now: they stay busy until the job has finished. */
static inline void fu_busy_map_buffers(Ctx *ctx, uint32_t iterations, uint32_t dispatches, WGPUBuffer *bufs,
                                       size_t n) {
  for (size_t i = 0; i < n; i++) {
    bufs[i] = make_buffer(ctx->device, FU_MAP_SIZE, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  }
  fu_submit_spin_with_copies(ctx, iterations, dispatches, bufs, n);
}

/* A new MAP_READ buffer written by a spin job submitted now (one submission):
 * it stays busy until the job has finished. */
static inline WGPUBuffer fu_busy_map_buffer(Ctx *ctx, uint32_t iterations, uint32_t dispatches) {
  WGPUBuffer b = NULL;
  fu_busy_map_buffers(ctx, iterations, dispatches, &b, 1);
  return b;
}

/* An idle MAP_READ buffer (never used on the queue). */
static inline WGPUBuffer fu_idle_map_buffer(Ctx *ctx) {
  return make_buffer(ctx->device, FU_MAP_SIZE, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
}

/* Length of one spin job in seconds (submit to work-done), or -1 when the
 * wait failed (a SpinJobTimer). */
static inline double fu_time_job(Ctx *ctx, int timed, uint32_t iterations, uint32_t dispatches) {
  static FuRec r;
  fu_rec_init(&r, "calibration work-done");
  WGPUBuffer out = submit_spin_job(ctx, iterations, dispatches);
  double t0 = now_s();
  WGPUFuture f = fu_workdone(ctx->queue, WGPUCallbackMode_WaitAnyOnly, &r);
  WGPUWaitStatus st = fu_wait_future(ctx->instance, f, timed, 30.0, NULL);
  double t = now_s() - t0;
  wgpuBufferRelease(out);
  if (st != WGPUWaitStatus_Success || fu_calls(&r) != 1) {
    fprintf(stderr, "calibration: wait status %d, callback calls %d\n", (int)st, fu_calls(&r));
    return -1;
  }
  return t;
}

/* Finds spin-job parameters whose job takes at least target_s on this device
 * (calibrate_spin_job: 8 tries, each aiming at 1.3 x target_s). */
static inline SpinJob fu_calibrate(Ctx *ctx, int timed, double target_s) {
  const SpinCalibration how = {8, 1.3, 1.5, 0};
  return calibrate_spin_job(ctx, timed, target_s, &how, fu_time_job);
}

static inline const char *fu_mode_name(WGPUCallbackMode mode) {
  switch (mode) {
    case WGPUCallbackMode_WaitAnyOnly:
      return "WaitAnyOnly";
    case WGPUCallbackMode_AllowProcessEvents:
      return "AllowProcessEvents";
    case WGPUCallbackMode_AllowSpontaneous:
      return "AllowSpontaneous";
    default:
      return "invalid";
  }
}

#endif
