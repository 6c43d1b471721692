#define _GNU_SOURCE
#include <stdarg.h>
#include "harness.h"

#include <webgpu/wgpu.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef _WIN32
#include <windows.h>
#endif

int harness_passed = 0;
int harness_failed = 0;

void harness_check(int ok, const char *expr, const char *file, int line) {
  if (ok) {
    harness_passed++;
  } else {
    harness_failed++;
    fprintf(stderr, "FAIL %s:%d: %s\n", file, line, expr);
    fflush(stderr);
  }
}

void harness_check_u64(uint64_t a, uint64_t b, const char *ea, const char *eb, const char *file, int line) {
  if (a == b) {
    harness_passed++;
  } else {
    harness_failed++;
    fprintf(stderr, "FAIL %s:%d: %s == %s (%llu != %llu)\n", file, line, ea, eb,
            (unsigned long long)a, (unsigned long long)b);
    fflush(stderr);
  }
}

int test_finish(void) {
  printf("%d passed, %d failed\n", harness_passed, harness_failed);
  fflush(stdout);
  return harness_failed == 0 && harness_passed > 0 ? 0 : 1;
}

WGPUStringView sv(const char *s) {
  WGPUStringView v = {s, WGPU_STRLEN};
  return v;
}

size_t sv_len(WGPUStringView v) {
  if (v.length == WGPU_STRLEN) return v.data ? strlen(v.data) : 0;
  return v.length;
}

int sv_eq(WGPUStringView v, const char *s) {
  size_t n = strlen(s);
  size_t len = sv_len(v);
  if (len != n) return 0;
  return n == 0 || memcmp(v.data, s, n) == 0;
}

int sv_contains(WGPUStringView v, const char *s) {
  size_t len = sv_len(v);
  size_t n = strlen(s);
  if (n == 0) return 1;
  for (size_t i = 0; i + n <= len; i++) {
    if (memcmp(v.data + i, s, n) == 0) return 1;
  }
  return 0;
}

/* Stores the requested adapter in *u1 (NULL on failure, printing why). */
static void on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message,
                       void *u1, void *u2) {
  (void)u2;
  if (status != WGPURequestAdapterStatus_Success) {
    fprintf(stderr, "adapter request failed: %.*s\n", (int)message.length, message.data ? message.data : "");
  }
  *(WGPUAdapter *)u1 = status == WGPURequestAdapterStatus_Success ? adapter : NULL;
}

/* Stores the requested device in *u1 (NULL on failure, printing why). */
static void on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void *u1,
                      void *u2) {
  (void)u2;
  if (status != WGPURequestDeviceStatus_Success) {
    fprintf(stderr, "device request failed: %.*s\n", (int)message.length, message.data ? message.data : "");
  }
  *(WGPUDevice *)u1 = status == WGPURequestDeviceStatus_Success ? device : NULL;
}

void ctx_on_uncaptured(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message, void *u1, void *u2) {
  (void)device;
  (void)u2;
  Ctx *ctx = (Ctx *)u1;
  ctx->uncaptured_errors++;
  ctx->last_error_type = type;
  size_t len = sv_len(message);
  size_t n = len < sizeof ctx->last_error - 1 ? len : sizeof ctx->last_error - 1;
  if (message.data && n) memcpy(ctx->last_error, message.data, n);
  ctx->last_error[n] = 0;
  /* Shown, so that a failed check has its cause beside it (and CTest can
   * tell a platform's known limits by their text: ffi-tests/CMakeLists.txt). */
  fprintf(stderr, "uncaptured error (type %d): %s\n", (int)type, ctx->last_error);
}

void ctx_on_lost(WGPUDevice const *device, WGPUDeviceLostReason reason, WGPUStringView message, void *u1,
                 void *u2) {
  (void)message;
  (void)u2;
  Ctx *ctx = (Ctx *)u1;
  ctx->lost_calls++;
  ctx->lost_reason = reason;
  ctx->lost_device_was_null = device == NULL || *device == NULL;
}

int ctx_init(Ctx *ctx) { return ctx_init_mode(ctx, WGPUCallbackMode_AllowSpontaneous); }

/* The display create_instance tells the instance about (type None: none). */
static WGPUNativeDisplayHandle instance_display;

void harness_set_instance_display(WGPUNativeDisplayHandle display) { instance_display = display; }

/* WGPU_BACKEND as a WGPUInstanceExtras.backends mask (which replaces what the
 * library reads from WGPU_BACKEND). */
static WGPUInstanceBackend backends_from_env(void) {
  const char *b = getenv("WGPU_BACKEND");
  if (!b) return WGPUInstanceBackend_All;
  if (strcmp(b, "gl") == 0 || strcmp(b, "opengl") == 0) return WGPUInstanceBackend_GL;
  if (strcmp(b, "vulkan") == 0) return WGPUInstanceBackend_Vulkan;
  if (strcmp(b, "dx12") == 0) return WGPUInstanceBackend_DX12;
  if (strcmp(b, "metal") == 0) return WGPUInstanceBackend_Metal;
  return WGPUInstanceBackend_All;
}

WGPUInstance create_instance(int timed_wait_any) {
  WGPUInstanceFeatureName features[] = {WGPUInstanceFeatureName_TimedWaitAny};
  WGPUInstanceDescriptor desc = WGPU_INSTANCE_DESCRIPTOR_INIT;
  if (timed_wait_any) {
    desc.requiredFeatureCount = 1;
    desc.requiredFeatures = features;
  }
  /* On GL, the display a surface test opened: the GL backend (EGL) presents
   * only to windows of the display it was made with. The struct is wgpu.h's,
   * which would turn wgpu-native compatibility on (docs/COMPATIBILITY.md):
   * these tests check the standard's rules, so they keep it off. */
  WGPUInstanceExtras extras;
  memset(&extras, 0, sizeof extras);
  if (instance_display.type != WGPUNativeDisplayHandleType_None && backends_from_env() == WGPUInstanceBackend_GL) {
    setenv("WGPU_SHIM_COMPAT", "standard", 0);
    extras.chain.sType = (WGPUSType)WGPUSType_InstanceExtras;
    extras.backends = backends_from_env();
    extras.displayHandle = instance_display;
    desc.nextInChain = &extras.chain;
  }
  return wgpuCreateInstance(&desc);
}

/* WaitAny on one future with a timeout; returns the status. */
static WGPUWaitStatus wait_one_within(WGPUInstance instance, WGPUFuture future, uint64_t timeout_ns) {
  WGPUFutureWaitInfo info = {future, 0};
  return wgpuInstanceWaitAny(instance, 1, &info, timeout_ns);
}

WGPUFuture request_adapter_future(WGPUInstance instance, WGPUAdapter *out) {
  WGPURequestAdapterCallbackInfo cb = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  cb.mode = WGPUCallbackMode_WaitAnyOnly;
  cb.callback = on_adapter;
  cb.userdata1 = out;
  return wgpuInstanceRequestAdapter(instance, NULL, cb);
}

WGPUFuture request_device_future(WGPUAdapter adapter, const WGPUDeviceDescriptor *desc, WGPUDevice *out) {
  WGPURequestDeviceCallbackInfo cb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  cb.mode = WGPUCallbackMode_WaitAnyOnly;
  cb.callback = on_device;
  cb.userdata1 = out;
  return wgpuAdapterRequestDevice(adapter, desc, cb);
}

WGPUAdapter request_adapter(WGPUInstance instance, uint64_t timeout_ns) {
  WGPUAdapter adapter = NULL;
  WGPUFuture f = request_adapter_future(instance, &adapter);
  return wait_one_within(instance, f, timeout_ns) == WGPUWaitStatus_Success ? adapter : NULL;
}

WGPUDevice request_device(WGPUInstance instance, WGPUAdapter adapter, const WGPUDeviceDescriptor *desc,
                          uint64_t timeout_ns) {
  WGPUDevice device = NULL;
  WGPUFuture f = request_device_future(adapter, desc, &device);
  return wait_one_within(instance, f, timeout_ns) == WGPUWaitStatus_Success ? device : NULL;
}

int ctx_init_mode(Ctx *ctx, WGPUCallbackMode lost_mode) {
  WGPUDeviceDescriptor ddesc = WGPU_DEVICE_DESCRIPTOR_INIT;
  ddesc.label = sv("harness device");
  ddesc.uncapturedErrorCallbackInfo.callback = ctx_on_uncaptured;
  ddesc.uncapturedErrorCallbackInfo.userdata1 = ctx;
  ddesc.deviceLostCallbackInfo.mode = lost_mode;
  ddesc.deviceLostCallbackInfo.callback = ctx_on_lost;
  ddesc.deviceLostCallbackInfo.userdata1 = ctx;
  return ctx_init_desc(ctx, &ddesc);
}

int ctx_init_desc(Ctx *ctx, const WGPUDeviceDescriptor *ddesc) {
  memset(ctx, 0, sizeof *ctx);
  ctx->instance = create_instance(1);
  if (!ctx->instance) return -1;
  ctx->adapter = request_adapter(ctx->instance, UINT64_MAX);
  if (!ctx->adapter) return -2;
  ctx->device = request_device(ctx->instance, ctx->adapter, ddesc, UINT64_MAX);
  if (!ctx->device) return -3;
  ctx->queue = wgpuDeviceGetQueue(ctx->device);
  return ctx->queue ? 0 : -4;
}

void ctx_release(Ctx *ctx) {
  if (ctx->queue) wgpuQueueRelease(ctx->queue);
  if (ctx->device) wgpuDeviceRelease(ctx->device);
  if (ctx->adapter) wgpuAdapterRelease(ctx->adapter);
  if (ctx->instance) wgpuInstanceRelease(ctx->instance);
  ctx->queue = NULL;
  ctx->device = NULL;
  ctx->adapter = NULL;
  ctx->instance = NULL;
}

WGPUWaitStatus wait_one(WGPUInstance instance, WGPUFuture future) {
  return wait_one_within(instance, future, UINT64_MAX);
}

WGPUBuffer make_buffer(WGPUDevice device, uint64_t size, WGPUBufferUsage usage, int mapped_at_creation) {
  WGPUBufferDescriptor desc = WGPU_BUFFER_DESCRIPTOR_INIT;
  desc.size = size;
  desc.usage = usage;
  desc.mappedAtCreation = mapped_at_creation ? 1 : 0;
  return wgpuDeviceCreateBuffer(device, &desc);
}

WGPUShaderModule make_wgsl(WGPUDevice device, const char *code) {
  WGPUShaderSourceWGSL src = WGPU_SHADER_SOURCE_WGSL_INIT;
  src.code = sv(code);
  WGPUShaderModuleDescriptor desc = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
  desc.nextInChain = &src.chain;
  return wgpuDeviceCreateShaderModule(device, &desc);
}

unsigned harness_time_scale(void) {
  const char *v = getenv("WGPU_SHIM_TEST_TIME_SCALE");
  long n = v ? strtol(v, NULL, 10) : 1;
  return n > 0 && n < 1000 ? (unsigned)n : 1;
}

double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double thread_cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void sleep_s(double seconds) {
  if (seconds <= 0) return;
  struct timespec ts;
  ts.tv_sec = (time_t)seconds;
  ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

void sleep_ms(unsigned ms) {
  struct timespec ts;
  ts.tv_sec = (time_t)(ms / 1000u);
  ts.tv_nsec = (long)(ms % 1000u) * 1000000L;
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

#ifdef _WIN32
int setenv(const char *name, const char *value, int overwrite) {
  if (!overwrite && getenv(name)) return 0;
  if (!SetEnvironmentVariableA(name, value) || _putenv_s(name, value) != 0) {
    errno = EINVAL;
    return -1;
  }
  return 0;
}
#endif

static void *watchdog_main(void *arg) {
  unsigned seconds = (unsigned)(uintptr_t)arg * harness_time_scale();
  sleep_s((double)seconds);
  fprintf(stderr, "FAIL watchdog: test still running after %u s: the library hangs or deadlocks\n", seconds);
  fflush(stderr);
  fflush(stdout);
  _exit(3);
  return NULL;
}

void start_watchdog(unsigned seconds) {
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  if (pthread_create(&t, &attr, watchdog_main, (void *)(uintptr_t)seconds) != 0) {
    fprintf(stderr, "could not start the watchdog thread\n");
  }
  pthread_attr_destroy(&attr);
}

void check_callback_calls(const char *name, int calls, int expected, const char *file, int line) {
  char buf[256];
  snprintf(buf, sizeof buf, "callback '%s' called %d times, expected %d", name ? name : "?", calls, expected);
  harness_check(calls == expected, buf, file, line);
}

void submit_encoder(Ctx *ctx, WGPUCommandEncoder enc) {
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  wgpuQueueSubmit(ctx->queue, 1, &cmd);
  wgpuCommandBufferRelease(cmd);
  wgpuCommandEncoderRelease(enc);
}

void submit_empty(Ctx *ctx) { submit_encoder(ctx, wgpuDeviceCreateCommandEncoder(ctx->device, NULL)); }

void clear_texture(Ctx *ctx, WGPUTexture texture, WGPUColor color) {
  WGPUTextureView view = wgpuTextureCreateView(texture, NULL);
  WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPURenderPassColorAttachment attachment = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
  attachment.view = view;
  attachment.loadOp = WGPULoadOp_Clear;
  attachment.storeOp = WGPUStoreOp_Store;
  attachment.clearValue = color;
  WGPURenderPassDescriptor pass_desc = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
  pass_desc.colorAttachmentCount = 1;
  pass_desc.colorAttachments = &attachment;
  WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(encoder, &pass_desc);
  wgpuRenderPassEncoderEnd(pass);
  wgpuRenderPassEncoderRelease(pass);
  submit_encoder(ctx, encoder);
  wgpuTextureViewRelease(view);
}

int read_texel_00(Ctx *ctx, WGPUTexture texture, uint8_t out[4]) {
  WGPUBuffer buffer = make_buffer(ctx->device, 256, WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead, 0);
  WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPUTexelCopyTextureInfo src = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
  src.texture = texture;
  WGPUTexelCopyBufferInfo dst = WGPU_TEXEL_COPY_BUFFER_INFO_INIT;
  dst.buffer = buffer;
  dst.layout.bytesPerRow = 256;
  dst.layout.rowsPerImage = 1;
  WGPUExtent3D size = {1, 1, 1};
  wgpuCommandEncoderCopyTextureToBuffer(encoder, &src, &dst, &size);
  submit_encoder(ctx, encoder);
  int ok = 0;
  WGPUBufferMapCallbackInfo cb = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  cb.mode = WGPUCallbackMode_WaitAnyOnly;
  WGPUFuture f = wgpuBufferMapAsync(buffer, WGPUMapMode_Read, 0, 256, cb);
  if (wait_one(ctx->instance, f) == WGPUWaitStatus_Success &&
      wgpuBufferGetMapState(buffer) == WGPUBufferMapState_Mapped) {
    memcpy(out, wgpuBufferGetConstMappedRange(buffer, 0, 4), 4);
    wgpuBufferUnmap(buffer);
    ok = 1;
  }
  wgpuBufferRelease(buffer);
  return ok;
}

const char *const HARNESS_SPIN_WGSL =
    "struct P { iterations: u32 }\n"
    "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
    "@group(0) @binding(1) var<uniform> p: P;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "  var x: u32 = id.x;\n"
    "  for (var i: u32 = 0u; i < p.iterations; i = i + 1u) { x = x * 1664525u + 1013904223u; }\n"
    "  out[id.x] = x;\n"
    "}\n";

WGPUBuffer encode_compute_job(Ctx *ctx, WGPUCommandEncoder enc, const char *wgsl, WGPUBuffer params,
                              uint32_t workgroups, uint32_t dispatches) {
  WGPUShaderModule module = make_wgsl(ctx->device, wgsl);
  WGPUComputePipelineDescriptor pdesc = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  pdesc.compute.module = module;
  pdesc.compute.entryPoint = sv("main");
  int errors_before = ctx->uncaptured_errors;
  WGPUComputePipeline pipeline = wgpuDeviceCreateComputePipeline(ctx->device, &pdesc);
  /* An adapter without compute shaders (wgpu-hal's GL on a context below 4.3,
   * such as the 3.3 NVIDIA's EGL gives it) cannot run the tests' GPU jobs. */
  if (ctx->uncaptured_errors > errors_before && ctx->last_error_type == WGPUErrorType_Internal &&
      strstr(ctx->last_error, "COMPUTE_SHADER"))
    harness_skip("this adapter cannot run compute shaders, which the test's GPU job is (%s)", ctx->last_error);
  WGPUBuffer out = make_buffer(ctx->device, 256, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, 0);
  WGPUBindGroupLayout bgl = wgpuComputePipelineGetBindGroupLayout(pipeline, 0);
  WGPUBindGroupEntry entries[2] = {WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT};
  entries[0].binding = 0;
  entries[0].buffer = out;
  entries[1].binding = 1;
  entries[1].buffer = params;
  WGPUBindGroupDescriptor bdesc = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  bdesc.layout = bgl;
  bdesc.entryCount = 2;
  bdesc.entries = entries;
  WGPUBindGroup group = wgpuDeviceCreateBindGroup(ctx->device, &bdesc);
  WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, NULL);
  wgpuComputePassEncoderSetPipeline(pass, pipeline);
  wgpuComputePassEncoderSetBindGroup(pass, 0, group, 0, NULL);
  for (uint32_t i = 0; i < dispatches; i++) wgpuComputePassEncoderDispatchWorkgroups(pass, workgroups, 1, 1);
  wgpuComputePassEncoderEnd(pass);
  wgpuComputePassEncoderRelease(pass);
  wgpuBindGroupRelease(group);
  wgpuBindGroupLayoutRelease(bgl);
  wgpuComputePipelineRelease(pipeline);
  wgpuShaderModuleRelease(module);
  return out;
}

WGPUBuffer encode_spin_job(Ctx *ctx, WGPUCommandEncoder enc, uint32_t iterations, uint32_t dispatches) {
  WGPUBuffer params = make_buffer(ctx->device, 16, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, 0);
  uint32_t p[4] = {iterations, 0, 0, 0};
  wgpuQueueWriteBuffer(ctx->queue, params, 0, p, sizeof p);
  WGPUBuffer out = encode_compute_job(ctx, enc, HARNESS_SPIN_WGSL, params, 1, dispatches);
  wgpuBufferRelease(params);
  return out;
}

/* How long the last submit_spin_job's wgpuQueueSubmit took. */
static double last_spin_submit_s;

WGPUBuffer submit_spin_job(Ctx *ctx, uint32_t iterations, uint32_t dispatches) {
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPUBuffer out = encode_spin_job(ctx, enc, iterations, dispatches);
  double t0 = now_s();
  submit_encoder(ctx, enc);
  last_spin_submit_s = now_s() - t0;
  return out;
}

void harness_skip(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("SKIP: ");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
  fflush(stdout);
  exit(77);
}

WGPUBackendType harness_backend(Ctx *ctx) {
  WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
  if (wgpuAdapterGetInfo(ctx->adapter, &info) != WGPUStatus_Success) return WGPUBackendType_Undefined;
  WGPUBackendType backend = info.backendType;
  wgpuAdapterInfoFreeMembers(info);
  return backend;
}

/* A driver that runs the whole job inside wgpuQueueSubmit (llvmpipe's OpenGL
 * runs compute dispatches there) leaves nothing in flight to wait for: the
 * tests that need GPU work in flight report SKIP there. */
void harness_skip_if_job_ran_in_submit(Ctx *ctx, double submit_s, double wait_s) {
  if (submit_s < 0.02 || submit_s < 20 * wait_s) return;
  /* Only GL runs the work itself inside the submit; lavapipe's Vulkan
   * submit can also take long, but only while it waits for the job before. */
  if (harness_backend(ctx) != WGPUBackendType_OpenGL) return;
  harness_skip("the driver runs the GPU job inside wgpuQueueSubmit (%.3f s there, %.4f s of wait after it; "
               "backend type %d): no work stays in flight for this test to wait on",
               submit_s, wait_s, (int)harness_backend(ctx));
}

SpinJob calibrate_spin_job(Ctx *ctx, int timed, double target_s, const SpinCalibration *how,
                           SpinJobTimer time_job) {
  const double max_dispatches = 8192;
  SpinJob job = {1u << 16, 16, 0.0, 0};
  int scaled_down = 0;
  for (int attempt = 0; attempt < how->attempts; attempt++) {
    double t = time_job(ctx, timed, job.iterations, job.dispatches);
    job.seconds = t;
    if (t < 0) return job;
    harness_skip_if_job_ran_in_submit(ctx, last_spin_submit_s, t);
    if (t >= target_s) {
      if (how->scale_down && t > target_s * 2.5 && !scaled_down) {
        /* Overshot (a noisy first run): once, scale down and measure again. */
        scaled_down = 1;
        double d = (double)job.dispatches * target_s * 1.4 / t + 0.999;
        job.dispatches = d < 1 ? 1 : (uint32_t)d;
        continue;
      }
      /* Once more: both runs must reach the target. */
      double t2 = time_job(ctx, timed, job.iterations, job.dispatches);
      if (t2 < 0) return job;
      if (t2 >= target_s) {
        job.ok = 1;
        job.seconds = t < t2 ? t : t2;
        fprintf(stderr, "calibration: %u iterations x %u dispatches = %.3f s / %.3f s (target %.3f s)\n",
                job.iterations, job.dispatches, t, t2, target_s);
        return job;
      }
      t = t2;
      job.seconds = t;
    }
    if ((double)job.dispatches >= max_dispatches) break;
    double factor = target_s * how->margin / (t > 0.002 ? t : 0.002);
    if (factor < how->min_factor) factor = how->min_factor;
    if (factor > 32) factor = 32;
    double d = (double)job.dispatches * factor + 0.999;
    job.dispatches = d > max_dispatches ? (uint32_t)max_dispatches : (uint32_t)d;
  }
  fprintf(stderr, "calibration: no job of %.3f s found (last %.3f s with %u dispatches)\n", target_s, job.seconds,
          job.dispatches);
  return job;
}

size_t harness_devices_allocated(WGPUInstance instance) {
  WGPUGlobalReport r;
  memset(&r, 0, sizeof r);
  wgpuGenerateReport(instance, &r);
  return r.hub.devices.numAllocated;
}
