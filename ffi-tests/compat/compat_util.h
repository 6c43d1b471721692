/* Helpers for the wgpu-native compatibility tests: a program written the way
 * wgpu-native's examples are (every callback info from its INIT macro, so
 * mode 0; waits in wgpuDevicePoll). Uses only webgpu.h declarations, so the
 * same code serves a program that calls no wgpu.h function. */
#ifndef WGPU_SHIM_COMPAT_UTIL_H
#define WGPU_SHIM_COMPAT_UTIL_H

#include <webgpu/webgpu.h>

#include <stdint.h>
#include <string.h>

typedef struct {
  int adapter_calls, device_calls, lost_calls, error_calls, map_calls, done_calls, scope_calls;
  WGPUAdapter adapter;
  WGPUDevice device;
  WGPUMapAsyncStatus map_status;
  WGPUDeviceLostReason lost_reason;
  char error[2048];
} CuState;

static void cu_on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message,
                          void *userdata1, void *userdata2) {
  (void)message, (void)userdata2;
  CuState *s = (CuState *)userdata1;
  s->adapter_calls++;
  if (status == WGPURequestAdapterStatus_Success) s->adapter = adapter;
}

static void cu_on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void *userdata1,
                         void *userdata2) {
  (void)message, (void)userdata2;
  CuState *s = (CuState *)userdata1;
  s->device_calls++;
  if (status == WGPURequestDeviceStatus_Success) s->device = device;
}

static void cu_on_lost(WGPUDevice const *device, WGPUDeviceLostReason reason, WGPUStringView message,
                       void *userdata1, void *userdata2) {
  (void)device, (void)message, (void)userdata2;
  CuState *s = (CuState *)userdata1;
  s->lost_calls++;
  s->lost_reason = reason;
}

static void cu_on_error(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message, void *userdata1,
                        void *userdata2) {
  (void)device, (void)type, (void)userdata2;
  CuState *s = (CuState *)userdata1;
  s->error_calls++;
  size_t n = message.length < sizeof s->error - 1 ? message.length : sizeof s->error - 1;
  if (message.data) memcpy(s->error, message.data, n);
  s->error[n] = 0;
}

static void cu_on_map(WGPUMapAsyncStatus status, WGPUStringView message, void *userdata1, void *userdata2) {
  (void)message, (void)userdata2;
  CuState *s = (CuState *)userdata1;
  s->map_calls++;
  s->map_status = status;
}

static void cu_on_done(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *userdata1, void *userdata2) {
  (void)status, (void)message, (void)userdata2;
  ((CuState *)userdata1)->done_calls++;
}

/* wgpuInstanceRequestAdapter with WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT
 * (mode 0); returns the future. */
static inline WGPUFuture cu_request_adapter(WGPUInstance instance, CuState *s) {
  WGPURequestAdapterCallbackInfo cb = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  cb.callback = cu_on_adapter;
  cb.userdata1 = s;
  return wgpuInstanceRequestAdapter(instance, NULL, cb);
}

/* wgpuAdapterRequestDevice with every callback info at its INIT value
 * (mode 0) and the lost and error callbacks set. */
static inline WGPUFuture cu_request_device(WGPUAdapter adapter, CuState *s) {
  WGPUDeviceDescriptor desc = WGPU_DEVICE_DESCRIPTOR_INIT;
  desc.deviceLostCallbackInfo.callback = cu_on_lost;
  desc.deviceLostCallbackInfo.userdata1 = s;
  desc.uncapturedErrorCallbackInfo.callback = cu_on_error;
  desc.uncapturedErrorCallbackInfo.userdata1 = s;
  WGPURequestDeviceCallbackInfo cb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  cb.callback = cu_on_device;
  cb.userdata1 = s;
  return wgpuAdapterRequestDevice(adapter, &desc, cb);
}

/* A MapRead|CopyDst buffer of 16 bytes holding 1, 2, 3, 4 (written through
 * the queue). */
static inline WGPUBuffer cu_read_buffer(WGPUDevice device, WGPUQueue queue) {
  WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
  bd.size = 16;
  bd.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  WGPUBuffer buffer = wgpuDeviceCreateBuffer(device, &bd);
  const uint32_t words[4] = {1, 2, 3, 4};
  wgpuQueueWriteBuffer(queue, buffer, 0, words, sizeof words);
  return buffer;
}

/* MapAsync(Read) with WGPU_BUFFER_MAP_CALLBACK_INFO_INIT (mode 0). */
static inline WGPUFuture cu_map_read(WGPUBuffer buffer, CuState *s) {
  WGPUBufferMapCallbackInfo cb = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  cb.callback = cu_on_map;
  cb.userdata1 = s;
  return wgpuBufferMapAsync(buffer, WGPUMapMode_Read, 0, 16, cb);
}

/* OnSubmittedWorkDone with WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT. */
static inline WGPUFuture cu_work_done(WGPUQueue queue, CuState *s) {
  WGPUQueueWorkDoneCallbackInfo cb = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  cb.callback = cu_on_done;
  cb.userdata1 = s;
  return wgpuQueueOnSubmittedWorkDone(queue, cb);
}

/* Integer inter-stage I/O without @interpolate(flat), as wgpu-native v29
 * (naga 29) accepts it. */
static const char *const CU_INTEGER_IO_WGSL =
    "struct V { @builtin(position) pos: vec4f, @location(0) id: u32, @location(1) c: vec4f };\n"
    "@vertex fn vs(@builtin(vertex_index) i: u32) -> V {\n"
    "  var v: V; v.pos = vec4f(0.0, 0.0, 0.0, 1.0); v.id = i; v.c = vec4f(1.0); return v;\n"
    "}\n"
    "@fragment fn fs(@location(0) id: u32, @location(1) c: vec4f) -> @location(0) vec4f {\n"
    "  return c * f32(id);\n"
    "}\n";

/* A render pipeline for CU_INTEGER_IO_WGSL with one RGBA8Unorm target. */
static inline WGPURenderPipeline cu_integer_io_pipeline(WGPUDevice device) {
  WGPUShaderSourceWGSL wgsl = WGPU_SHADER_SOURCE_WGSL_INIT;
  wgsl.code = (WGPUStringView){CU_INTEGER_IO_WGSL, WGPU_STRLEN};
  WGPUShaderModuleDescriptor md = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
  md.nextInChain = &wgsl.chain;
  WGPUShaderModule module = wgpuDeviceCreateShaderModule(device, &md);
  WGPUColorTargetState target = WGPU_COLOR_TARGET_STATE_INIT;
  target.format = WGPUTextureFormat_RGBA8Unorm;
  WGPUFragmentState fragment = WGPU_FRAGMENT_STATE_INIT;
  fragment.module = module;
  fragment.entryPoint = (WGPUStringView){"fs", WGPU_STRLEN};
  fragment.targetCount = 1;
  fragment.targets = &target;
  WGPURenderPipelineDescriptor pd = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
  pd.vertex.module = module;
  pd.vertex.entryPoint = (WGPUStringView){"vs", WGPU_STRLEN};
  pd.fragment = &fragment;
  WGPURenderPipeline pipeline = wgpuDeviceCreateRenderPipeline(device, &pd);
  wgpuShaderModuleRelease(module);
  return pipeline;
}

#endif
