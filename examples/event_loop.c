/* wgpu-shim example: GPU completions in a plain event loop, on Linux (epoll),
 * macOS and the BSDs (kqueue) and Windows (WaitForSingleObject).
 *
 * wgpu-shim's WGPUInstanceFeatureName_ShimReadinessHandle (wgpu_shim.h) gives
 * an instance an OS handle that is ready exactly while
 * wgpuInstanceProcessEvents has callbacks to run: on Unix a file descriptor
 * that is readable then (wgpuShimInstanceGetReadinessFd), on Windows a
 * manual-reset event that is set then (wgpuShimInstanceGetReadinessEvent). An
 * event loop adds it to what it waits on, sleeps in the kernel, and calls
 * ProcessEvents when it fires: no polling timer, no busy loop, no extra
 * thread.
 *
 *   1. instance with TimedWaitAny + ShimReadinessHandle (the extension is
 *      looked up with wgpuHasInstanceFeature / wgpuGetProcAddress, as a
 *      program that may run on another webgpu.h implementation would);
 *   2. adapter and device (WaitAnyOnly callbacks, wgpuInstanceWaitAny);
 *   3. a compute shader that runs an LCG for 60000 steps on each of 64 seeds;
 *      a short run calibrates how many dispatches make a job of ~200 ms;
 *   4. one submission: seeds written with wgpuQueueWriteBuffer, the compute
 *      pass, a copy of the results into a MAP_READ buffer;
 *   5. wgpuBufferMapAsync and wgpuQueueOnSubmittedWorkDone, both in
 *      AllowProcessEvents mode;
 *   6. the event loop's wait on the readiness handle (no timeout but a 30 s
 *      safety cap), wgpuInstanceProcessEvents() when it fires, until both
 *      callbacks ran; the waiting thread's CPU time and the wall time are
 *      measured;
 *   7. the mapped results are checked against the same LCG on the CPU.
 *
 * Prints the data summary and the wait's CPU/wall figures. Exit status 0 when
 * everything succeeded, the data matched, and the waiting thread used at most
 * 5% of the wall time of the wait in CPU; 1 otherwise. */
#define _POSIX_C_SOURCE 200809L
#if defined(__APPLE__)
#define _DARWIN_C_SOURCE /* kqueue(2) beside POSIX */
#endif

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
#elif defined(__linux__)
#include <sys/epoll.h>
#include <unistd.h>
#else
#include <sys/event.h>
#include <unistd.h>
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

/* ---- the event loop ------------------------------------------------------ */

/* ---- the event loop's wait, per system ----------------------------------- */

/* What the loop waits on: the instance's readiness handle, in the system's
 * own waiting call. */
typedef struct {
#if defined(_WIN32)
  HANDLE event; /* set while callbacks are ready; the library clears it */
#elif defined(__linux__)
  int fd;   /* readable while callbacks are ready */
  int epfd; /* an epoll set holding it, level-triggered */
#else
  int fd; /* readable while callbacks are ready */
  int kq; /* a kqueue watching it, level-triggered (no EV_CLEAR) */
#endif
} EpLoop;

/* Gets the readiness handle of `instance` (found with wgpuGetProcAddress)
 * and adds it to a new wait set. 0 on success. */
static int loop_open(EpLoop *l, WGPUInstance instance) {
#if defined(_WIN32)
  WGPUProcShimInstanceGetReadinessEvent get_event =
      (WGPUProcShimInstanceGetReadinessEvent)wgpuGetProcAddress(ep_sv("wgpuShimInstanceGetReadinessEvent"));
  if (!get_event) {
    EP_FAIL("wgpuGetProcAddress(wgpuShimInstanceGetReadinessEvent) returned NULL");
    return -1;
  }
  l->event = (HANDLE)get_event(instance);
  if (!l->event) {
    EP_FAIL("wgpuShimInstanceGetReadinessEvent returned NULL");
    return -1;
  }
  return 0;
#else
  WGPUProcShimInstanceGetReadinessFd get_fd =
      (WGPUProcShimInstanceGetReadinessFd)wgpuGetProcAddress(ep_sv("wgpuShimInstanceGetReadinessFd"));
  if (!get_fd) {
    EP_FAIL("wgpuGetProcAddress(wgpuShimInstanceGetReadinessFd) returned NULL");
    return -1;
  }
  l->fd = get_fd(instance);
  if (l->fd < 0) {
    EP_FAIL("wgpuShimInstanceGetReadinessFd returned %d", l->fd);
    return -1;
  }
#if defined(__linux__)
  l->epfd = epoll_create1(EPOLL_CLOEXEC);
  if (l->epfd < 0) {
    EP_FAIL("epoll_create1: %s", strerror(errno));
    return -1;
  }
  struct epoll_event ev;
  memset(&ev, 0, sizeof ev);
  ev.events = EPOLLIN; /* level-triggered: readable while callbacks are ready */
  ev.data.fd = l->fd;
  if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, l->fd, &ev) != 0) {
    EP_FAIL("epoll_ctl(ADD readiness fd): %s", strerror(errno));
    close(l->epfd);
    return -1;
  }
#else
  l->kq = kqueue();
  if (l->kq < 0) {
    EP_FAIL("kqueue: %s", strerror(errno));
    return -1;
  }
  struct kevent ev;
  EV_SET(&ev, l->fd, EVFILT_READ, EV_ADD, 0, 0, NULL);
  if (kevent(l->kq, &ev, 1, NULL, 0, NULL) != 0) {
    EP_FAIL("kevent(EV_ADD readiness fd): %s", strerror(errno));
    close(l->kq);
    return -1;
  }
#endif
  return 0;
#endif
}

/* Sleeps until the handle is ready or `timeout_ms` passes: 1 when ready, 0
 * on timeout, -1 on error (EINTR is a timeout of length zero: 0). */
static int loop_wait(EpLoop *l, int timeout_ms) {
#if defined(_WIN32)
  DWORD r = WaitForSingleObject(l->event, (DWORD)timeout_ms);
  if (r == WAIT_OBJECT_0) return 1;
  if (r == WAIT_TIMEOUT) return 0;
  EP_FAIL("WaitForSingleObject: error %lu", (unsigned long)GetLastError());
  return -1;
#elif defined(__linux__)
  struct epoll_event out[4];
  int n = epoll_wait(l->epfd, out, 4, timeout_ms);
  if (n < 0 && errno == EINTR) return 0;
  if (n < 0) {
    EP_FAIL("epoll_wait: %s", strerror(errno));
    return -1;
  }
  for (int i = 0; i < n; i++)
    if (out[i].data.fd == l->fd) return 1;
  return 0;
#else
  struct kevent out;
  struct timespec ts = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L};
  int n = kevent(l->kq, NULL, 0, &out, 1, &ts);
  if (n < 0 && errno == EINTR) return 0;
  if (n < 0) {
    EP_FAIL("kevent: %s", strerror(errno));
    return -1;
  }
  return n > 0 && (int)out.ident == l->fd;
#endif
}

/* Closes the wait set (the handle itself is the instance's). */
static void loop_close(EpLoop *l) {
#if defined(_WIN32)
  (void)l;
#elif defined(__linux__)
  close(l->epfd);
#else
  close(l->kq);
#endif
}

static int ep_run(Ep *e) {
  /* 1. The extension, found at run time. */
  if (!wgpuHasInstanceFeature(WGPUInstanceFeatureName_ShimReadinessHandle)) {
    EP_FAIL("the library does not support WGPUInstanceFeatureName_ShimReadinessHandle");
    return -1;
  }
  if (ep_open(e) != 0) return -1;
  EpLoop loop;
  if (loop_open(&loop, e->instance) != 0) return -1;

  uint32_t dispatches = ep_calibrate(e);
  if (dispatches == 0) {
    loop_close(&loop);
    return -1;
  }

  /* 4 + 5: the job, then the two AllowProcessEvents operations. */
  EpResult map = {0, 0, NULL, 0}, done = {0, 0, NULL, 0};
  ep_submit_job(e, dispatches);
  WGPUBufferMapCallbackInfo mci = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  mci.mode = WGPUCallbackMode_AllowProcessEvents;
  mci.callback = ep_on_mapped;
  mci.userdata1 = &map;
  WGPUFuture map_future = wgpuBufferMapAsync(e->readback, WGPUMapMode_Read, 0, EP_VALUES * 4, mci);
  WGPUQueueWorkDoneCallbackInfo wci = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  wci.mode = WGPUCallbackMode_AllowProcessEvents;
  wci.callback = ep_on_work_done;
  wci.userdata1 = &done;
  WGPUFuture done_future = wgpuQueueOnSubmittedWorkDone(e->queue, wci);
  if (!map_future.id || !done_future.id) EP_FAIL("MapAsync or OnSubmittedWorkDone returned the null future");

  /* 6. Sleep in the event loop's wait until the library says there is work. */
  double wall0 = ep_clock(CLOCK_MONOTONIC);
  double cpu0 = ep_clock(CLOCK_THREAD_CPUTIME_ID);
  double proc0 = ep_clock(CLOCK_PROCESS_CPUTIME_ID);
  int wakeups = 0, empty_wakeups = 0;
  while (map.calls == 0 || done.calls == 0) {
    int left_ms = EP_SAFETY_CAP_MS - (int)((ep_clock(CLOCK_MONOTONIC) - wall0) * 1e3);
    if (left_ms <= 0) {
      EP_FAIL("no completion within the %d ms safety cap (map %d, work-done %d calls)", EP_SAFETY_CAP_MS,
              map.calls, done.calls);
      break;
    }
    int ready = loop_wait(&loop, left_ms);
    if (ready < 0) break;
    if (ready == 0) continue;
    wakeups++;
    int before = map.calls + done.calls;
    wgpuInstanceProcessEvents(e->instance); /* runs the ready callbacks */
    if (map.calls + done.calls == before) empty_wakeups++;
  }
  double wall = ep_clock(CLOCK_MONOTONIC) - wall0;
  double cpu = ep_clock(CLOCK_THREAD_CPUTIME_ID) - cpu0;
  double proc = ep_clock(CLOCK_PROCESS_CPUTIME_ID) - proc0;

  /* Nothing is left: the handle must be quiet now. */
  int left = loop_wait(&loop, 0);
  loop_close(&loop);
  if (left != 0) EP_FAIL("the readiness handle is still ready after both callbacks ran");

  if (map.calls != 1 || map.status != WGPUMapAsyncStatus_Success) {
    EP_FAIL("map callback: %d call(s), status %d", map.calls, map.status);
  }
  if (done.calls != 1 || done.status != WGPUQueueWorkDoneStatus_Success) {
    EP_FAIL("work-done callback: %d call(s), status %d", done.calls, done.status);
  }
  if (map.calls == 1 && done.calls == 1 && map.order > done.order) {
    EP_FAIL("the work-done callback ran before the earlier map's");
  }

  /* 7. The data. */
  if (map.calls == 1 && map.status == WGPUMapAsyncStatus_Success) {
    const uint32_t *data = (const uint32_t *)wgpuBufferGetConstMappedRange(e->readback, 0, EP_VALUES * 4);
    if (!data) {
      EP_FAIL("wgpuBufferGetConstMappedRange returned NULL");
    } else {
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
    }
    wgpuBufferUnmap(e->readback);
  }

  double ratio = wall > 0 ? cpu / wall : 1.0;
  printf("wait: %.1f ms wall, %.3f ms CPU on the waiting thread (%.2f%% of wall), %d wakeup(s), %d empty; "
         "process CPU meanwhile %.1f ms (lavapipe's threads run the shader)\n",
         wall * 1e3, cpu * 1e3, ratio * 100.0, wakeups, empty_wakeups, proc * 1e3);
  if (ratio > EP_MAX_CPU_RATIO) {
    EP_FAIL("the waiting thread used %.2f%% of the wall time in CPU (limit %.0f%%)", ratio * 100.0,
            EP_MAX_CPU_RATIO * 100.0);
  }
  if (wall < EP_TARGET_S * 0.25) {
    fprintf(stderr, "event loop: note: the job was much shorter than planned (%.1f ms)\n", wall * 1e3);
  }
  if (ep_uncaptured) EP_FAIL("%d device error(s)", ep_uncaptured);
  return 0;
}

int main(void) {
  Ep e;
  memset(&e, 0, sizeof e);
  ep_run(&e);
  ep_release(&e);
  if (ep_failures) {
    printf("FAILED (%d)\n", ep_failures);
    return 1;
  }
  printf("OK\n");
  return 0;
}
