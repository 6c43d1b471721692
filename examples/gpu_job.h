/* The GPU side of wgpu-shim's event-loop examples (event_loop.c,
 * libuv_loop.c, wait_multiple_objects.c): an instance with TimedWaitAny +
 * ShimReadinessHandle, its adapter and device (WaitAnyOnly callbacks,
 * wgpuInstanceWaitAny), and a compute job that runs an LCG for 60000 steps
 * on each of 64 seeds, sized by a short calibration run to last ~200 ms, and
 * the CPU's answer to check it against. Each example includes this file and
 * adds its own loop: what differs from one loop to the next is only that.
 *
 * Everything here is static: include it in one .c file. Before including
 * it, a POSIX program defines _POSIX_C_SOURCE 200809L (clock_gettime). */
#ifndef WGPU_SHIM_EXAMPLES_GPU_JOB_H
#define WGPU_SHIM_EXAMPLES_GPU_JOB_H

#include <webgpu/webgpu.h>
#include <webgpu/wgpu_shim.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(_WIN32)
#include <windows.h>
#else
#include <pthread.h>
#endif

#define EP_VALUES 64u               /* one workgroup of 64 invocations */
/* LCG steps per value. Below 65535: llvmpipe/lavapipe ends any shader loop
 * after 65535 iterations (its guard against endless loops), which would make
 * the GPU's answer differ from the CPU's. */
#define EP_ITERATIONS 60000u
#define EP_TARGET_S 0.2             /* length of the main job */
#define EP_CALIBRATION_DISPATCHES 20u
#define EP_MAX_DISPATCHES 20000u
#define EP_SAFETY_CAP_MS 30000
#define EP_MAX_CPU_RATIO 0.05

static const char *const EP_SHADER =
    "struct Params { iterations: u32 }\n"
    "@group(0) @binding(0) var<storage, read> seeds: array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> results: array<u32>;\n"
    "@group(0) @binding(2) var<uniform> params: Params;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "  var x = seeds[id.x];\n"
    "  for (var i = 0u; i < params.iterations; i = i + 1u) { x = x * 1664525u + 1013904223u; }\n"
    "  results[id.x] = x;\n"
    "}\n";

static int ep_failures = 0;

#define EP_FAIL(...)                        \
  do {                                      \
    fprintf(stderr, "event loop: FAILED: ");     \
    fprintf(stderr, __VA_ARGS__);           \
    fprintf(stderr, "\n");                  \
    ep_failures++;                          \
  } while (0)

static WGPUStringView ep_sv(const char *s) {
  WGPUStringView v = {s, WGPU_STRLEN};
  return v;
}

static int ep_sv_len(WGPUStringView v) {
  if (!v.data) return 0;
  return (int)(v.length == WGPU_STRLEN ? strlen(v.data) : v.length);
}

static double ep_clock(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The thread CPU clock's step: the smallest change it shows. Linux counts
 * nanoseconds. On Windows the clock comes from GetThreadTimes, which Wine
 * reads from the kernel's per-thread user and system times in whole 10 ms
 * ticks (real Windows: ~15.6 ms), so a wait that used 1 ms of CPU can read
 * as 0 or 10 ms. Measured once by spinning until the clock moves twice: a
 * few nanoseconds on Linux, about two steps of CPU on Windows, and at most
 * 0.5 s of wall time; if it never moves twice, clock_getres's answer. */
static double ep_cpu_clock_step(void) {
  static double step = -1.0;
  if (step >= 0.0) return step;
  double t0 = ep_clock(CLOCK_MONOTONIC), c0 = ep_clock(CLOCK_THREAD_CPUTIME_ID), c1 = c0;
  int moves = 0;
  while (moves < 2 && ep_clock(CLOCK_MONOTONIC) - t0 < 0.5) {
    double c = ep_clock(CLOCK_THREAD_CPUTIME_ID);
    if (c == c1) continue;
    if (++moves == 2) step = c - c1;
    c1 = c;
  }
  if (moves < 2) {
    struct timespec res;
    step = clock_getres(CLOCK_THREAD_CPUTIME_ID, &res) == 0 ? (double)res.tv_sec + (double)res.tv_nsec * 1e-9 : 0.0;
  }
  return step;
}

/* Whether a wait of `wall` seconds that the thread CPU clock charged `cpu`
 * seconds stayed within EP_MAX_CPU_RATIO. The clock's rounding is allowed
 * for: two steps, since Windows sums two rounded counts (user and system
 * time). A spinning wait (a ratio near 1) still fails by far. */
static int ep_cpu_within_limit(double cpu, double wall) {
  return cpu <= EP_MAX_CPU_RATIO * wall + 2.0 * ep_cpu_clock_step();
}

static uint32_t ep_seed(uint32_t i) { return 0x9E3779B9u * (i + 1u); }

static uint32_t ep_expected(uint32_t seed) {
  uint32_t x = seed;
  for (uint32_t i = 0; i < EP_ITERATIONS; i++) x = x * 1664525u + 1013904223u;
  return x;
}

/* ---- callbacks ---------------------------------------------------------- */

typedef struct {
  int calls;
  int status;
  void *object;
  int order;
} EpResult;

static int ep_order = 0;
static int ep_uncaptured = 0;

static void ep_on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message, void *u1,
                          void *u2) {
  (void)u2;
  EpResult *r = (EpResult *)u1;
  r->calls++;
  r->status = (int)status;
  r->object = adapter;
  if (status != WGPURequestAdapterStatus_Success) {
    fprintf(stderr, "event loop: adapter request: %.*s\n", ep_sv_len(message), message.data ? message.data : "");
  }
}

static void ep_on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void *u1,
                         void *u2) {
  (void)u2;
  EpResult *r = (EpResult *)u1;
  r->calls++;
  r->status = (int)status;
  r->object = device;
  if (status != WGPURequestDeviceStatus_Success) {
    fprintf(stderr, "event loop: device request: %.*s\n", ep_sv_len(message), message.data ? message.data : "");
  }
}

static void ep_on_uncaptured(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message, void *u1,
                             void *u2) {
  (void)device;
  (void)u1;
  (void)u2;
  ep_uncaptured++;
  fprintf(stderr, "event loop: device error (type %d): %.*s\n", (int)type, ep_sv_len(message),
          message.data ? message.data : "");
}

static void ep_on_mapped(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)message;
  (void)u2;
  EpResult *r = (EpResult *)u1;
  r->calls++;
  r->status = (int)status;
  r->order = ++ep_order;
}

static void ep_on_work_done(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)message;
  (void)u2;
  EpResult *r = (EpResult *)u1;
  r->calls++;
  r->status = (int)status;
  r->order = ++ep_order;
}

/* ---- setup -------------------------------------------------------------- */

typedef struct {
  WGPUInstance instance;
  WGPUAdapter adapter;
  WGPUDevice device;
  WGPUQueue queue;
  WGPUShaderModule shader;
  WGPUComputePipeline pipeline;
  WGPUBindGroupLayout layout;
  WGPUBuffer seeds, results, params, readback;
  WGPUBindGroup group;
} Ep;

static int ep_wait(WGPUInstance instance, WGPUFuture f, const char *what) {
  WGPUFutureWaitInfo info = {f, 0};
  WGPUWaitStatus st = wgpuInstanceWaitAny(instance, 1, &info, UINT64_MAX);
  if (st != WGPUWaitStatus_Success || !info.completed) {
    EP_FAIL("wgpuInstanceWaitAny(%s): status %d, completed %u", what, (int)st, (unsigned)info.completed);
    return -1;
  }
  return 0;
}

static WGPUBuffer ep_buffer(WGPUDevice device, const char *label, uint64_t size, WGPUBufferUsage usage) {
  WGPUBufferDescriptor desc = WGPU_BUFFER_DESCRIPTOR_INIT;
  desc.label = ep_sv(label);
  desc.size = size;
  desc.usage = usage;
  return wgpuDeviceCreateBuffer(device, &desc);
}

static int ep_open(Ep *e) {
  WGPUInstanceFeatureName features[] = {WGPUInstanceFeatureName_TimedWaitAny,
                                        WGPUInstanceFeatureName_ShimReadinessHandle};
  WGPUInstanceDescriptor idesc = WGPU_INSTANCE_DESCRIPTOR_INIT;
  idesc.requiredFeatureCount = 2;
  idesc.requiredFeatures = features;
  e->instance = wgpuCreateInstance(&idesc);
  if (!e->instance) {
    EP_FAIL("wgpuCreateInstance with ShimReadinessHandle returned NULL");
    return -1;
  }

  EpResult ar = {0, 0, NULL, 0};
  WGPURequestAdapterCallbackInfo acb = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  acb.mode = WGPUCallbackMode_WaitAnyOnly;
  acb.callback = ep_on_adapter;
  acb.userdata1 = &ar;
  if (ep_wait(e->instance, wgpuInstanceRequestAdapter(e->instance, NULL, acb), "RequestAdapter") != 0) return -1;
  e->adapter = (WGPUAdapter)ar.object;
  if (ar.calls != 1 || ar.status != WGPURequestAdapterStatus_Success || !e->adapter) {
    EP_FAIL("adapter callback: %d call(s), status %d", ar.calls, ar.status);
    return -1;
  }

  EpResult dr = {0, 0, NULL, 0};
  WGPUDeviceDescriptor ddesc = WGPU_DEVICE_DESCRIPTOR_INIT;
  ddesc.label = ep_sv("event loop example device");
  ddesc.uncapturedErrorCallbackInfo.callback = ep_on_uncaptured;
  WGPURequestDeviceCallbackInfo dcb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  dcb.mode = WGPUCallbackMode_WaitAnyOnly;
  dcb.callback = ep_on_device;
  dcb.userdata1 = &dr;
  if (ep_wait(e->instance, wgpuAdapterRequestDevice(e->adapter, &ddesc, dcb), "RequestDevice") != 0) return -1;
  e->device = (WGPUDevice)dr.object;
  if (dr.calls != 1 || dr.status != WGPURequestDeviceStatus_Success || !e->device) {
    EP_FAIL("device callback: %d call(s), status %d", dr.calls, dr.status);
    return -1;
  }
  e->queue = wgpuDeviceGetQueue(e->device);

  WGPUShaderSourceWGSL wgsl = WGPU_SHADER_SOURCE_WGSL_INIT;
  wgsl.code = ep_sv(EP_SHADER);
  WGPUShaderModuleDescriptor sdesc = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
  sdesc.nextInChain = &wgsl.chain;
  sdesc.label = ep_sv("lcg");
  e->shader = wgpuDeviceCreateShaderModule(e->device, &sdesc);
  WGPUComputePipelineDescriptor pdesc = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  pdesc.label = ep_sv("lcg pipeline");
  pdesc.compute.module = e->shader;
  pdesc.compute.entryPoint = ep_sv("main");
  e->pipeline = wgpuDeviceCreateComputePipeline(e->device, &pdesc);
  e->layout = wgpuComputePipelineGetBindGroupLayout(e->pipeline, 0);

  e->seeds = ep_buffer(e->device, "seeds", EP_VALUES * 4, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst);
  e->results = ep_buffer(e->device, "results", EP_VALUES * 4, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc);
  e->params = ep_buffer(e->device, "params", 16, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst);
  e->readback = ep_buffer(e->device, "readback", EP_VALUES * 4, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst);
  uint32_t p[4] = {EP_ITERATIONS, 0, 0, 0};
  wgpuQueueWriteBuffer(e->queue, e->params, 0, p, sizeof p);

  WGPUBindGroupEntry entries[3] = {WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT,
                                   WGPU_BIND_GROUP_ENTRY_INIT};
  entries[0].binding = 0;
  entries[0].buffer = e->seeds;
  entries[1].binding = 1;
  entries[1].buffer = e->results;
  entries[2].binding = 2;
  entries[2].buffer = e->params;
  WGPUBindGroupDescriptor bdesc = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  bdesc.layout = e->layout;
  bdesc.entryCount = 3;
  bdesc.entries = entries;
  e->group = wgpuDeviceCreateBindGroup(e->device, &bdesc);
  if (!e->queue || !e->shader || !e->pipeline || !e->layout || !e->seeds || !e->results || !e->params ||
      !e->readback || !e->group) {
    EP_FAIL("creating the queue, pipeline, buffers or bind group returned NULL");
    return -1;
  }
  return 0;
}

/* Submits seeds + `dispatches` compute dispatches + the copy into the
 * read-back buffer, as one submission. */
static void ep_submit_job(Ep *e, uint32_t dispatches) {
  uint32_t seeds[EP_VALUES];
  for (uint32_t i = 0; i < EP_VALUES; i++) seeds[i] = ep_seed(i);
  wgpuQueueWriteBuffer(e->queue, e->seeds, 0, seeds, sizeof seeds);
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(e->device, NULL);
  WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, NULL);
  wgpuComputePassEncoderSetPipeline(pass, e->pipeline);
  wgpuComputePassEncoderSetBindGroup(pass, 0, e->group, 0, NULL);
  for (uint32_t i = 0; i < dispatches; i++) wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
  wgpuComputePassEncoderEnd(pass);
  wgpuCommandEncoderCopyBufferToBuffer(enc, e->results, 0, e->readback, 0, EP_VALUES * 4);
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  wgpuQueueSubmit(e->queue, 1, &cmd);
  wgpuCommandBufferRelease(cmd);
  wgpuComputePassEncoderRelease(pass);
  wgpuCommandEncoderRelease(enc);
}

/* Runs a job of `dispatches` and waits for it; its length in seconds, or -1. */
static double ep_time_job(Ep *e, uint32_t dispatches) {
  EpResult wr = {0, 0, NULL, 0};
  ep_submit_job(e, dispatches);
  double t0 = ep_clock(CLOCK_MONOTONIC);
  WGPUQueueWorkDoneCallbackInfo ci = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  ci.mode = WGPUCallbackMode_WaitAnyOnly;
  ci.callback = ep_on_work_done;
  ci.userdata1 = &wr;
  if (ep_wait(e->instance, wgpuQueueOnSubmittedWorkDone(e->queue, ci), "calibration work-done") != 0) return -1;
  return ep_clock(CLOCK_MONOTONIC) - t0;
}

/* Dispatches for a job of about EP_TARGET_S, from a timed short run (after a
 * first one that lets the driver compile the shader). */
static uint32_t ep_calibrate(Ep *e) {
  if (ep_time_job(e, 1) < 0) return 0;
  double t = ep_time_job(e, EP_CALIBRATION_DISPATCHES);
  if (t < 0) return 0;
  double d = (double)EP_CALIBRATION_DISPATCHES * EP_TARGET_S / (t > 1e-4 ? t : 1e-4);
  uint32_t n = d < 1 ? 1u : d > EP_MAX_DISPATCHES ? EP_MAX_DISPATCHES : (uint32_t)d;
  printf("calibration: %u dispatches took %.1f ms; using %u dispatches for ~%.0f ms\n", EP_CALIBRATION_DISPATCHES,
         t * 1e3, n, EP_TARGET_S * 1e3);
  ep_order = 0;
  return n;
}

static void ep_release(Ep *e) {
  if (e->group) wgpuBindGroupRelease(e->group);
  if (e->readback) wgpuBufferRelease(e->readback);
  if (e->params) wgpuBufferRelease(e->params);
  if (e->results) wgpuBufferRelease(e->results);
  if (e->seeds) wgpuBufferRelease(e->seeds);
  if (e->layout) wgpuBindGroupLayoutRelease(e->layout);
  if (e->pipeline) wgpuComputePipelineRelease(e->pipeline);
  if (e->shader) wgpuShaderModuleRelease(e->shader);
  if (e->queue) wgpuQueueRelease(e->queue);
  if (e->device) wgpuDeviceRelease(e->device);
  if (e->adapter) wgpuAdapterRelease(e->adapter);
  if (e->instance) wgpuInstanceRelease(e->instance);
}

/* The calling thread's identity (to check that callbacks run on the loop's
 * thread). */
static inline unsigned long ep_thread_id(void) {
#if defined(_WIN32)
  return (unsigned long)GetCurrentThreadId();
#else
  return (unsigned long)pthread_self();
#endif
}

/* Submits a job of `dispatches`, then MapAsync of the read-back buffer and
 * OnSubmittedWorkDone, both AllowProcessEvents, calling back `on_mapped` and
 * `on_done` with userdata1 `map` and `done`. 0 on success. */
static int ep_start_job(Ep *e, uint32_t dispatches, WGPUBufferMapCallback on_mapped, void *map,
                        WGPUQueueWorkDoneCallback on_done, void *done) {
  ep_submit_job(e, dispatches);
  WGPUBufferMapCallbackInfo mci = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  mci.mode = WGPUCallbackMode_AllowProcessEvents;
  mci.callback = on_mapped;
  mci.userdata1 = map;
  WGPUFuture map_future = wgpuBufferMapAsync(e->readback, WGPUMapMode_Read, 0, EP_VALUES * 4, mci);
  WGPUQueueWorkDoneCallbackInfo wci = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  wci.mode = WGPUCallbackMode_AllowProcessEvents;
  wci.callback = on_done;
  wci.userdata1 = done;
  WGPUFuture done_future = wgpuQueueOnSubmittedWorkDone(e->queue, wci);
  if (!map_future.id || !done_future.id) {
    EP_FAIL("MapAsync or OnSubmittedWorkDone returned the null future");
    return -1;
  }
  return 0;
}

/* Checks the mapped read-back buffer against the CPU's LCG, prints the data
 * line, and unmaps it. */
static void ep_check_data(Ep *e) {
  const uint32_t *data = (const uint32_t *)wgpuBufferGetConstMappedRange(e->readback, 0, EP_VALUES * 4);
  if (!data) {
    EP_FAIL("wgpuBufferGetConstMappedRange returned NULL");
    return;
  }
  uint32_t bad = 0;
  for (uint32_t i = 0; i < EP_VALUES; i++) {
    uint32_t want = ep_expected(ep_seed(i));
    if (data[i] != want) {
      if (bad < 4) fprintf(stderr, "event loop: value %u: got %08x, expected %08x\n", i, data[i], want);
      bad++;
    }
  }
  if (bad) EP_FAIL("%u of %u values differ from the CPU's", bad, EP_VALUES);
  printf("data: %u values %s, first: %08x %08x %08x %08x\n", EP_VALUES, bad ? "WRONG" : "OK", data[0], data[1],
         data[2], data[3]);
  wgpuBufferUnmap(e->readback);
}

#endif /* WGPU_SHIM_EXAMPLES_GPU_JOB_H */
