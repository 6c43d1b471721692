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
    sleep_ms(1);
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
    sleep_ms(1);
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

/* The calls made after the library's exit barrier ran (a C++ global, or an
 * atexit handler, registered before the first instance was created: it
 * runs after the driver's own static destructors). The library no longer
 * reaches the driver: every instance is closed, so each asynchronous call
 * completes in the call with CallbackCancelled and no wait hangs; releases
 * leak (the process is ending); a new instance is refused (NULL). The
 * barrier runs no callback itself (the application's runtime may be gone
 * by then): what it cancelled, the device-lost callback included, runs at
 * the end of the next API call. Nothing crashes, on drivers that tear
 * themselves down at exit too. */
static inline void td_exit_work_detached(Ctx *ctx) {
  CHECK_EQ(ctx->lost_calls, 0);

  TdRec done = {0, 0, 0};
  td_work_done(ctx, WGPUCallbackMode_AllowSpontaneous, &done);
  CHECK_EQ(ctx->lost_calls, 1);
  CHECK_EQ(ctx->lost_reason, WGPUDeviceLostReason_CallbackCancelled);
  CHECK_EQ(td_calls(&done), 1);
  CHECK_EQ(done.status, WGPUQueueWorkDoneStatus_CallbackCancelled);

  TdRec pop = {0, 0, 0};
  td_scoped_error(ctx, WGPUCallbackMode_AllowSpontaneous, &pop);
  CHECK_EQ(td_calls(&pop), 1);
  CHECK_EQ(pop.status, WGPUPopErrorScopeStatus_CallbackCancelled);
  CHECK_EQ(ctx->uncaptured_errors, 0);

  /* The map's callback runs in its call; the wait returns at once. */
  TdRec map = {0, 0, 0};
  (void)td_map_and_wait(ctx, &map);
  CHECK_EQ(td_calls(&map), 1);
  CHECK_EQ(map.status, WGPUMapAsyncStatus_CallbackCancelled);

  TdRec pe = {0, 0, 0};
  td_work_done(ctx, WGPUCallbackMode_AllowProcessEvents, &pe);
  wgpuInstanceProcessEvents(ctx->instance);
  CHECK_EQ(td_calls(&pe), 1);

  wgpuQueueRelease(ctx->queue);
  ctx->queue = NULL;
  wgpuDeviceRelease(ctx->device);
  ctx->device = NULL;
  CHECK_EQ(ctx->lost_calls, 1);
  ctx_release(ctx);

  /* No new instance once the driver may be gone. */
  WGPUInstance again = wgpuCreateInstance(NULL);
  CHECK(again == NULL);
  if (again) wgpuInstanceRelease(again);
}

/* ------------------------------------------------------------------------ */
/* A world of objects of every kind, for releasing in any order. */

typedef enum {
  TD_INSTANCE,
  TD_ADAPTER,
  TD_DEVICE,
  TD_QUEUE,
  TD_BUFFER,
  TD_TEXTURE,
  TD_VIEW,
  TD_SAMPLER,
  TD_BGL,
  TD_BIND_GROUP,
  TD_PIPELINE_LAYOUT,
  TD_MODULE,
  TD_PIPELINE,
  TD_ENCODER,
  TD_COMMAND_BUFFER,
  TD_QUERY_SET
} TdKind;

typedef struct {
  TdKind kind;
  void *handle;
} TdObj;

#define TD_MAX_OBJS 32

typedef struct {
  Ctx ctx;
  TdObj objs[TD_MAX_OBJS];
  int count;
  /* A map pending on `mapped`, a work-done queued behind GPU work (both
   * AllowProcessEvents, never pumped), and an error scope popped
   * WaitAnyOnly and never waited on. */
  TdRec map, done, pop;
  WGPUBuffer mapped;
} TdWorld;

static inline void td_add(TdWorld *w, TdKind kind, void *handle) {
  if (handle && w->count < TD_MAX_OBJS) {
    w->objs[w->count].kind = kind;
    w->objs[w->count].handle = handle;
    w->count++;
  }
}

static inline void td_release_obj(TdObj *o) {
  switch (o->kind) {
    case TD_INSTANCE: wgpuInstanceRelease((WGPUInstance)o->handle); break;
    case TD_ADAPTER: wgpuAdapterRelease((WGPUAdapter)o->handle); break;
    case TD_DEVICE: wgpuDeviceRelease((WGPUDevice)o->handle); break;
    case TD_QUEUE: wgpuQueueRelease((WGPUQueue)o->handle); break;
    case TD_BUFFER: wgpuBufferRelease((WGPUBuffer)o->handle); break;
    case TD_TEXTURE: wgpuTextureRelease((WGPUTexture)o->handle); break;
    case TD_VIEW: wgpuTextureViewRelease((WGPUTextureView)o->handle); break;
    case TD_SAMPLER: wgpuSamplerRelease((WGPUSampler)o->handle); break;
    case TD_BGL: wgpuBindGroupLayoutRelease((WGPUBindGroupLayout)o->handle); break;
    case TD_BIND_GROUP: wgpuBindGroupRelease((WGPUBindGroup)o->handle); break;
    case TD_PIPELINE_LAYOUT: wgpuPipelineLayoutRelease((WGPUPipelineLayout)o->handle); break;
    case TD_MODULE: wgpuShaderModuleRelease((WGPUShaderModule)o->handle); break;
    case TD_PIPELINE: wgpuComputePipelineRelease((WGPUComputePipeline)o->handle); break;
    case TD_ENCODER: wgpuCommandEncoderRelease((WGPUCommandEncoder)o->handle); break;
    case TD_COMMAND_BUFFER: wgpuCommandBufferRelease((WGPUCommandBuffer)o->handle); break;
    case TD_QUERY_SET: wgpuQuerySetRelease((WGPUQuerySet)o->handle); break;
  }
  o->handle = NULL;
}

/* Builds a world: the harness context, then one object of each kind, GPU
 * work in flight and callbacks outstanding. objs[0] is the instance. */
static inline int td_world(TdWorld *w) {
  memset(w, 0, sizeof *w);
  if (ctx_init(&w->ctx) != 0) return -1;
  Ctx *c = &w->ctx;
  td_add(w, TD_INSTANCE, c->instance);
  td_add(w, TD_ADAPTER, c->adapter);
  td_add(w, TD_DEVICE, c->device);
  td_add(w, TD_QUEUE, c->queue);

  /* GPU work in flight, its output buffer kept. */
  td_add(w, TD_BUFFER, submit_spin_job(c, 20000, 8));
  WGPUBuffer storage = make_buffer(c->device, 256, WGPUBufferUsage_Storage, 0);
  td_add(w, TD_BUFFER, storage);
  WGPUBuffer at_creation = make_buffer(c->device, 64, WGPUBufferUsage_CopySrc, 1);
  td_add(w, TD_BUFFER, at_creation); /* still mapped */

  WGPUTextureDescriptor td = WGPU_TEXTURE_DESCRIPTOR_INIT;
  td.size.width = 16;
  td.size.height = 16;
  td.format = WGPUTextureFormat_RGBA8Unorm;
  td.usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst;
  WGPUTexture tex = wgpuDeviceCreateTexture(c->device, &td);
  td_add(w, TD_TEXTURE, tex);
  td_add(w, TD_VIEW, tex ? wgpuTextureCreateView(tex, NULL) : NULL);
  td_add(w, TD_SAMPLER, wgpuDeviceCreateSampler(c->device, NULL));

  WGPUBindGroupLayoutEntry le = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  le.binding = 0;
  le.visibility = WGPUShaderStage_Compute;
  le.buffer.type = WGPUBufferBindingType_Storage;
  WGPUBindGroupLayoutDescriptor ld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  ld.entryCount = 1;
  ld.entries = &le;
  WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(c->device, &ld);
  td_add(w, TD_BGL, bgl);
  WGPUBindGroupEntry be = WGPU_BIND_GROUP_ENTRY_INIT;
  be.binding = 0;
  be.buffer = storage;
  be.size = WGPU_WHOLE_SIZE;
  WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  bd.layout = bgl;
  bd.entryCount = 1;
  bd.entries = &be;
  td_add(w, TD_BIND_GROUP, wgpuDeviceCreateBindGroup(c->device, &bd));
  WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
  pld.bindGroupLayoutCount = 1;
  pld.bindGroupLayouts = &bgl;
  WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(c->device, &pld);
  td_add(w, TD_PIPELINE_LAYOUT, pl);
  WGPUShaderModule m = make_wgsl(c->device,
                                 "@group(0) @binding(0) var<storage, read_write> b: array<u32>;\n"
                                 "@compute @workgroup_size(1) fn main() { b[0] = 1u; }\n");
  td_add(w, TD_MODULE, m);
  WGPUComputePipelineDescriptor pd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  pd.layout = pl;
  pd.compute.module = m;
  pd.compute.entryPoint = sv("main");
  td_add(w, TD_PIPELINE, wgpuDeviceCreateComputePipeline(c->device, &pd));
  td_add(w, TD_ENCODER, wgpuDeviceCreateCommandEncoder(c->device, NULL));
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(c->device, NULL);
  td_add(w, TD_COMMAND_BUFFER, enc ? wgpuCommandEncoderFinish(enc, NULL) : NULL);
  if (enc) wgpuCommandEncoderRelease(enc);
  WGPUQuerySetDescriptor qd = WGPU_QUERY_SET_DESCRIPTOR_INIT;
  qd.type = WGPUQueryType_Occlusion;
  qd.count = 4;
  td_add(w, TD_QUERY_SET, wgpuDeviceCreateQuerySet(c->device, &qd));

  /* Callbacks outstanding. */
  w->mapped = make_buffer(c->device, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  td_add(w, TD_BUFFER, w->mapped);
  WGPUBufferMapCallbackInfo mi = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  mi.mode = WGPUCallbackMode_AllowProcessEvents;
  mi.callback = td_map_cb;
  mi.userdata1 = &w->map;
  wgpuBufferMapAsync(w->mapped, WGPUMapMode_Read, 0, 64, mi);
  td_work_done(c, WGPUCallbackMode_AllowProcessEvents, &w->done);
  td_scoped_error(c, WGPUCallbackMode_WaitAnyOnly, &w->pop);
  /* The objects now belong to the list. */
  c->instance = NULL;
  c->adapter = NULL;
  c->device = NULL;
  c->queue = NULL;
  return w->count == TD_MAX_OBJS ? -2 : 0;
}

/* A context naming the world's instance, adapter, device and queue (not
 * owning them), for the helpers above. */
static inline Ctx td_world_ctx(TdWorld *w) {
  Ctx c = w->ctx;
  c.instance = (WGPUInstance)w->objs[0].handle;
  c.adapter = (WGPUAdapter)w->objs[1].handle;
  c.device = (WGPUDevice)w->objs[2].handle;
  c.queue = (WGPUQueue)w->objs[3].handle;
  return c;
}

/* After everything is released: each outstanding callback ran once. */
static inline void td_world_check(TdWorld *w) {
  CHECK_EQ(td_calls(&w->map), 1);
  CHECK_EQ(td_calls(&w->done), 1);
  CHECK_EQ(td_calls(&w->pop), 1);
  CHECK_EQ(w->ctx.lost_calls, 1);
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
