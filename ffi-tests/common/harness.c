#define _GNU_SOURCE
#include "harness.h"

#include <webgpu/wgpu.h>

#include <math.h>
#include <stdlib.h>
#include <time.h>

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

int sv_eq(WGPUStringView v, const char *s) {
  size_t n = strlen(s);
  size_t len = v.length == WGPU_STRLEN ? (v.data ? strlen(v.data) : 0) : v.length;
  if (len != n) return 0;
  return n == 0 || memcmp(v.data, s, n) == 0;
}

int sv_contains(WGPUStringView v, const char *s) {
  size_t len = v.length == WGPU_STRLEN ? (v.data ? strlen(v.data) : 0) : v.length;
  size_t n = strlen(s);
  if (n == 0) return 1;
  for (size_t i = 0; i + n <= len; i++) {
    if (memcmp(v.data + i, s, n) == 0) return 1;
  }
  return 0;
}

static void on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message,
                       void *u1, void *u2) {
  (void)u2;
  if (status != WGPURequestAdapterStatus_Success) {
    fprintf(stderr, "adapter request failed: %.*s\n", (int)message.length, message.data ? message.data : "");
  }
  *(WGPUAdapter *)u1 = adapter;
}

static void on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void *u1,
                      void *u2) {
  (void)u2;
  if (status != WGPURequestDeviceStatus_Success) {
    fprintf(stderr, "device request failed: %.*s\n", (int)message.length, message.data ? message.data : "");
  }
  *(WGPUDevice *)u1 = device;
}

static void on_uncaptured(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message, void *u1,
                          void *u2) {
  (void)device;
  (void)u2;
  Ctx *ctx = (Ctx *)u1;
  ctx->uncaptured_errors++;
  ctx->last_error_type = type;
  size_t n = message.length < sizeof ctx->last_error - 1 ? message.length : sizeof ctx->last_error - 1;
  if (message.data) memcpy(ctx->last_error, message.data, n);
  ctx->last_error[n] = 0;
}

static void on_lost(WGPUDevice const *device, WGPUDeviceLostReason reason, WGPUStringView message, void *u1,
                    void *u2) {
  (void)message;
  (void)u2;
  Ctx *ctx = (Ctx *)u1;
  ctx->lost_calls++;
  ctx->lost_reason = reason;
  ctx->lost_device_was_null = device == NULL || *device == NULL;
}

int ctx_init(Ctx *ctx) { return ctx_init_mode(ctx, WGPUCallbackMode_AllowSpontaneous); }

int ctx_init_mode(Ctx *ctx, WGPUCallbackMode lost_mode) {
  memset(ctx, 0, sizeof *ctx);
  WGPUInstanceFeatureName features[] = {WGPUInstanceFeatureName_TimedWaitAny};
  WGPUInstanceDescriptor idesc = WGPU_INSTANCE_DESCRIPTOR_INIT;
  idesc.requiredFeatureCount = 1;
  idesc.requiredFeatures = features;
  ctx->instance = wgpuCreateInstance(&idesc);
  if (!ctx->instance) return -1;

  WGPURequestAdapterCallbackInfo acb = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  acb.mode = WGPUCallbackMode_WaitAnyOnly;
  acb.callback = on_adapter;
  acb.userdata1 = &ctx->adapter;
  WGPUFuture af = wgpuInstanceRequestAdapter(ctx->instance, NULL, acb);
  if (wait_one(ctx->instance, af) != WGPUWaitStatus_Success || !ctx->adapter) return -2;

  WGPUDeviceDescriptor ddesc = WGPU_DEVICE_DESCRIPTOR_INIT;
  ddesc.label = sv("harness device");
  ddesc.uncapturedErrorCallbackInfo.callback = on_uncaptured;
  ddesc.uncapturedErrorCallbackInfo.userdata1 = ctx;
  ddesc.deviceLostCallbackInfo.mode = lost_mode;
  ddesc.deviceLostCallbackInfo.callback = on_lost;
  ddesc.deviceLostCallbackInfo.userdata1 = ctx;
  WGPURequestDeviceCallbackInfo dcb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  dcb.mode = WGPUCallbackMode_WaitAnyOnly;
  dcb.callback = on_device;
  dcb.userdata1 = &ctx->device;
  WGPUFuture df = wgpuAdapterRequestDevice(ctx->adapter, &ddesc, dcb);
  if (wait_one(ctx->instance, df) != WGPUWaitStatus_Success || !ctx->device) return -3;
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
  WGPUFutureWaitInfo info = {future, 0};
  return wgpuInstanceWaitAny(instance, 1, &info, UINT64_MAX);
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

WGPUBuffer submit_spin_job(Ctx *ctx, uint32_t iterations, uint32_t dispatches) {
  WGPUShaderModule module = make_wgsl(ctx->device, HARNESS_SPIN_WGSL);
  WGPUComputePipelineDescriptor pdesc = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  pdesc.compute.module = module;
  pdesc.compute.entryPoint = sv("main");
  WGPUComputePipeline pipeline = wgpuDeviceCreateComputePipeline(ctx->device, &pdesc);
  WGPUBuffer out = make_buffer(ctx->device, 64 * 4, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, 0);
  WGPUBuffer params = make_buffer(ctx->device, 16, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, 0);
  uint32_t p[4] = {iterations, 0, 0, 0};
  wgpuQueueWriteBuffer(ctx->queue, params, 0, p, sizeof p);
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
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, NULL);
  wgpuComputePassEncoderSetPipeline(pass, pipeline);
  wgpuComputePassEncoderSetBindGroup(pass, 0, group, 0, NULL);
  for (uint32_t i = 0; i < dispatches; i++) wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
  wgpuComputePassEncoderEnd(pass);
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  wgpuQueueSubmit(ctx->queue, 1, &cmd);
  wgpuCommandBufferRelease(cmd);
  wgpuComputePassEncoderRelease(pass);
  wgpuCommandEncoderRelease(enc);
  wgpuBindGroupRelease(group);
  wgpuBindGroupLayoutRelease(bgl);
  wgpuBufferRelease(params);
  wgpuComputePipelineRelease(pipeline);
  wgpuShaderModuleRelease(module);
  return out;
}

size_t harness_devices_allocated(WGPUInstance instance) {
  WGPUGlobalReport r;
  memset(&r, 0, sizeof r);
  wgpuGenerateReport(instance, &r);
  return r.hub.devices.numAllocated;
}
