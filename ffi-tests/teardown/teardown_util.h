/* Helpers for the teardown tests (ffi-tests/teardown): API calls made while
 * the process or a thread is ending, after the library's thread-local
 * storage on that thread may already be destroyed.
 *
 * Header-only and valid C and C++ (the static-destructor test is C++):
 * counters use the GCC/Clang __atomic builtins, not <stdatomic.h>.
 *
 * td_warm(ctx) makes the calling thread use every per-thread state of the
 * library (spontaneous delivery, error scopes, WaitAny, ProcessEvents), so
 * that state exists and is torn down with the thread. td_exit_work(ctx)
 * then runs, on a thread whose storage is gone, one of each kind of call
 * that owes a callback, and checks each callback ran with the right status;
 * finally it releases everything (the last device release delivers the
 * device-lost callback). Failures are counted by the harness (CHECK). */
#ifndef WGPU_SHIM_TEARDOWN_UTIL_H
#define WGPU_SHIM_TEARDOWN_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "harness.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* What a callback saw. */
typedef struct {
  int calls;
  int status;
  int type; /* the error type of PopErrorScope */
} TdRec;

static inline void td_note(TdRec *r, int status) {
  __atomic_store_n(&r->status, status, __ATOMIC_SEQ_CST);
  __atomic_fetch_add(&r->calls, 1, __ATOMIC_SEQ_CST);
}

static inline int td_calls(TdRec *r) { return __atomic_load_n(&r->calls, __ATOMIC_SEQ_CST); }

static inline void td_work_done_cb(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)message;
  (void)u2;
  td_note((TdRec *)u1, (int)status);
}

static inline void td_map_cb(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)message;
  (void)u2;
  td_note((TdRec *)u1, (int)status);
}

static inline void td_pop_cb(WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView message, void *u1,
                             void *u2) {
  (void)message;
  (void)u2;
  TdRec *r = (TdRec *)u1;
  __atomic_store_n(&r->type, (int)type, __ATOMIC_SEQ_CST);
  td_note(r, (int)status);
}

static inline void td_sleep_ms(unsigned ms) {
  struct timespec ts;
  ts.tv_sec = (time_t)(ms / 1000u);
  ts.tv_nsec = (long)(ms % 1000u) * 1000000L;
  while (nanosleep(&ts, &ts) != 0) {
  }
}

static inline void *td_watchdog_main(void *arg) {
  unsigned seconds = (unsigned)(uintptr_t)arg;
  td_sleep_ms(seconds * 1000u);
  fprintf(stderr, "FAIL watchdog: test still running after %u s (hang)\n", seconds);
  fflush(stderr);
  _exit(3);
  return NULL;
}

/* Ends the process with exit code 3 after `seconds` (a hang, at exit too). */
static inline void td_start_watchdog(unsigned seconds) {
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  if (pthread_create(&t, &attr, td_watchdog_main, (void *)(uintptr_t)seconds) != 0) {
    fprintf(stderr, "could not start the watchdog thread\n");
  }
  pthread_attr_destroy(&attr);
}

/* An AllowSpontaneous work-done future on the (idle) queue. */
static inline WGPUFuture td_work_done(Ctx *ctx, WGPUCallbackMode mode, TdRec *r) {
  WGPUQueueWorkDoneCallbackInfo info = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  info.mode = mode;
  info.callback = td_work_done_cb;
  info.userdata1 = r;
  return wgpuQueueOnSubmittedWorkDone(ctx->queue, info);
}

/* An error scope around an invalid buffer, popped in `mode`. */
static inline WGPUFuture td_scoped_error(Ctx *ctx, WGPUCallbackMode mode, TdRec *r) {
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUBuffer bad = make_buffer(ctx->device, 16, (WGPUBufferUsage)0, 0);
  if (bad) wgpuBufferRelease(bad);
  WGPUPopErrorScopeCallbackInfo info = WGPU_POP_ERROR_SCOPE_CALLBACK_INFO_INIT;
  info.mode = mode;
  info.callback = td_pop_cb;
  info.userdata1 = r;
  return wgpuDevicePopErrorScope(ctx->device, info);
}

/* A read map of a fresh buffer, waited on with WaitAny; returns the wait
 * status. */
static inline WGPUWaitStatus td_map_and_wait(Ctx *ctx, TdRec *r) {
  WGPUBuffer b = make_buffer(ctx->device, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  WGPUBufferMapCallbackInfo info = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  info.mode = WGPUCallbackMode_WaitAnyOnly;
  info.callback = td_map_cb;
  info.userdata1 = r;
  WGPUFuture f = wgpuBufferMapAsync(b, WGPUMapMode_Read, 0, 64, info);
  WGPUFutureWaitInfo w = {f, 0};
  WGPUWaitStatus s = wgpuInstanceWaitAny(ctx->instance, 1, &w, 10000000000ull);
  wgpuBufferUnmap(b);
  wgpuBufferRelease(b);
  return s;
}

/* Uses every per-thread state of the library on the calling thread. */
static inline void td_warm(Ctx *ctx) {
  TdRec a = {0, 0, 0}, b = {0, 0, 0}, c = {0, 0, 0}, d = {0, 0, 0};
  td_work_done(ctx, WGPUCallbackMode_AllowSpontaneous, &a);
  td_scoped_error(ctx, WGPUCallbackMode_AllowSpontaneous, &b);
  CHECK_EQ(td_map_and_wait(ctx, &c), WGPUWaitStatus_Success);
  td_work_done(ctx, WGPUCallbackMode_AllowProcessEvents, &d);
  for (int i = 0; i < 1000 && td_calls(&d) == 0; i++) {
    wgpuInstanceProcessEvents(ctx->instance);
    td_sleep_ms(1);
  }
  CHECK_EQ(td_calls(&a), 1);
  CHECK_EQ(td_calls(&b), 1);
  CHECK_EQ(td_calls(&c), 1);
  CHECK_EQ(td_calls(&d), 1);
}

/* The calls made at exit, each checked, then every release. */
static inline void td_exit_work(Ctx *ctx) {
  /* A work-done on the idle queue completes in its call: the spontaneous
   * callback is owed to the end of that call. */
  TdRec done = {0, 0, 0};
  td_work_done(ctx, WGPUCallbackMode_AllowSpontaneous, &done);
  CHECK_EQ(td_calls(&done), 1);
  CHECK_EQ(done.status, WGPUQueueWorkDoneStatus_Success);

  /* Error scopes still capture on this thread. */
  TdRec pop = {0, 0, 0};
  td_scoped_error(ctx, WGPUCallbackMode_AllowSpontaneous, &pop);
  CHECK_EQ(td_calls(&pop), 1);
  CHECK_EQ(pop.status, WGPUPopErrorScopeStatus_Success);
  CHECK_EQ(pop.type, WGPUErrorType_Validation);
  CHECK_EQ(ctx->uncaptured_errors, 0);

  /* WaitAny delivers. */
  TdRec map = {0, 0, 0};
  CHECK_EQ(td_map_and_wait(ctx, &map), WGPUWaitStatus_Success);
  CHECK_EQ(td_calls(&map), 1);
  CHECK_EQ(map.status, WGPUMapAsyncStatus_Success);

  /* ProcessEvents delivers. */
  TdRec pe = {0, 0, 0};
  td_work_done(ctx, WGPUCallbackMode_AllowProcessEvents, &pe);
  for (int i = 0; i < 1000 && td_calls(&pe) == 0; i++) {
    wgpuInstanceProcessEvents(ctx->instance);
    td_sleep_ms(1);
  }
  CHECK_EQ(td_calls(&pe), 1);

  /* The last device release destroys the device and delivers its
   * (spontaneous) lost callback, with a NULL device. */
  wgpuQueueRelease(ctx->queue);
  ctx->queue = NULL;
  wgpuDeviceRelease(ctx->device);
  ctx->device = NULL;
  CHECK_EQ(ctx->lost_calls, 1);
  CHECK_EQ(ctx->lost_reason, WGPUDeviceLostReason_Destroyed);
  CHECK(ctx->lost_device_was_null);
  ctx_release(ctx);

  /* New objects can still be made: an instance, adapter and device (with
   * its progress thread), a buffer mapped and unmapped. */
  Ctx again;
  CHECK_EQ(ctx_init(&again), 0);
  if (again.device) {
    TdRec map2 = {0, 0, 0};
    CHECK_EQ(td_map_and_wait(&again, &map2), WGPUWaitStatus_Success);
    CHECK_EQ(map2.status, WGPUMapAsyncStatus_Success);
  }
  ctx_release(&again);
  CHECK_EQ(again.lost_calls, 1);
}

/* Prints the summary; a failure ends the process with exit code 1 at once
 * (from an exit handler, main's return value is already decided). */
static inline void td_finish_at_exit(void) {
  if (test_finish() != 0) {
    fflush(stderr);
    _exit(1);
  }
}

#endif
