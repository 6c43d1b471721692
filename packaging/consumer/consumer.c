/* A C program that uses an installed wgpu-shim, built with pkg-config
 * (packaging/consumer/run.sh): requests an adapter and a device, doubles 256
 * numbers in a compute shader, reads them back through a mapped buffer and
 * checks them. Prints the version its header names and `OK`; exits 1 on any
 * failure. */
#include <webgpu/webgpu.h>
#include <webgpu/wgpu_shim.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define COUNT 256

static const char shader[] =
    "@group(0) @binding(0) var<storage, read_write> v: array<u32>;\n"
    "@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) i: vec3<u32>) {\n"
    "  v[i.x] = v[i.x] * 2u;\n"
    "}\n";

static void on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message, void *out,
                       void *unused) {
  (void)unused;
  if (status == WGPURequestAdapterStatus_Success) *(WGPUAdapter *)out = adapter;
  else fprintf(stderr, "adapter: %.*s\n", (int)message.length, message.data);
}

static void on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void *out,
                      void *unused) {
  (void)unused;
  if (status == WGPURequestDeviceStatus_Success) *(WGPUDevice *)out = device;
  else fprintf(stderr, "device: %.*s\n", (int)message.length, message.data);
}

static void on_mapped(WGPUMapAsyncStatus status, WGPUStringView message, void *out, void *unused) {
  (void)message, (void)unused;
  *(WGPUMapAsyncStatus *)out = status;
}

static int wait(WGPUInstance instance, WGPUFuture future) {
  WGPUFutureWaitInfo info = {future, 0};
  return wgpuInstanceWaitAny(instance, 1, &info, UINT64_MAX) == WGPUWaitStatus_Success && info.completed;
}

int main(void) {
  printf("wgpu-shim header %s (%d.%d.%d)\n", WGPU_SHIM_VERSION_STRING, WGPU_SHIM_VERSION_MAJOR,
         WGPU_SHIM_VERSION_MINOR, WGPU_SHIM_VERSION_PATCH);
  WGPUInstanceFeatureName features[] = {WGPUInstanceFeatureName_TimedWaitAny};
  WGPUInstanceDescriptor instance_desc = WGPU_INSTANCE_DESCRIPTOR_INIT;
  instance_desc.requiredFeatureCount = 1;
  instance_desc.requiredFeatures = features;
  WGPUInstance instance = wgpuCreateInstance(&instance_desc);
  if (!instance) return 1;

  WGPUAdapter adapter = NULL;
  WGPURequestAdapterCallbackInfo adapter_cb = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  adapter_cb.mode = WGPUCallbackMode_WaitAnyOnly;
  adapter_cb.callback = on_adapter;
  adapter_cb.userdata1 = &adapter;
  if (!wait(instance, wgpuInstanceRequestAdapter(instance, NULL, adapter_cb)) || !adapter) return 1;
  WGPUDevice device = NULL;
  WGPURequestDeviceCallbackInfo device_cb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  device_cb.mode = WGPUCallbackMode_WaitAnyOnly;
  device_cb.callback = on_device;
  device_cb.userdata1 = &device;
  if (!wait(instance, wgpuAdapterRequestDevice(adapter, NULL, device_cb)) || !device) return 1;
  WGPUQueue queue = wgpuDeviceGetQueue(device);

  WGPUShaderSourceWGSL wgsl = WGPU_SHADER_SOURCE_WGSL_INIT;
  wgsl.code.data = shader;
  wgsl.code.length = sizeof shader - 1;
  WGPUShaderModuleDescriptor module_desc = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
  module_desc.nextInChain = &wgsl.chain;
  WGPUShaderModule module = wgpuDeviceCreateShaderModule(device, &module_desc);
  WGPUComputePipelineDescriptor pipeline_desc = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  pipeline_desc.compute.module = module;
  WGPUComputePipeline pipeline = wgpuDeviceCreateComputePipeline(device, &pipeline_desc);

  uint32_t input[COUNT];
  for (uint32_t i = 0; i < COUNT; i++) input[i] = i * 3 + 1;
  WGPUBufferDescriptor buffer_desc = WGPU_BUFFER_DESCRIPTOR_INIT;
  buffer_desc.size = sizeof input;
  buffer_desc.usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst;
  WGPUBuffer storage = wgpuDeviceCreateBuffer(device, &buffer_desc);
  buffer_desc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  WGPUBuffer readback = wgpuDeviceCreateBuffer(device, &buffer_desc);
  wgpuQueueWriteBuffer(queue, storage, 0, input, sizeof input);

  WGPUBindGroupEntry entry = WGPU_BIND_GROUP_ENTRY_INIT;
  entry.binding = 0;
  entry.buffer = storage;
  entry.size = sizeof input;
  WGPUBindGroupDescriptor group_desc = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  group_desc.layout = wgpuComputePipelineGetBindGroupLayout(pipeline, 0);
  group_desc.entryCount = 1;
  group_desc.entries = &entry;
  WGPUBindGroup group = wgpuDeviceCreateBindGroup(device, &group_desc);

  WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device, NULL);
  WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(encoder, NULL);
  wgpuComputePassEncoderSetPipeline(pass, pipeline);
  wgpuComputePassEncoderSetBindGroup(pass, 0, group, 0, NULL);
  wgpuComputePassEncoderDispatchWorkgroups(pass, COUNT / 64, 1, 1);
  wgpuComputePassEncoderEnd(pass);
  wgpuCommandEncoderCopyBufferToBuffer(encoder, storage, 0, readback, 0, sizeof input);
  WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, NULL);
  wgpuQueueSubmit(queue, 1, &commands);

  WGPUMapAsyncStatus map_status = WGPUMapAsyncStatus_Error;
  WGPUBufferMapCallbackInfo map_cb = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  map_cb.mode = WGPUCallbackMode_WaitAnyOnly;
  map_cb.callback = on_mapped;
  map_cb.userdata1 = &map_status;
  int ok = wait(instance, wgpuBufferMapAsync(readback, WGPUMapMode_Read, 0, sizeof input, map_cb)) &&
           map_status == WGPUMapAsyncStatus_Success;
  if (ok) {
    const uint32_t *out = (const uint32_t *)wgpuBufferGetConstMappedRange(readback, 0, sizeof input);
    for (uint32_t i = 0; out && i < COUNT; i++) {
      if (out[i] != input[i] * 2) {
        fprintf(stderr, "value %u: %u, expected %u\n", i, out[i], input[i] * 2);
        ok = 0;
        break;
      }
    }
    ok = ok && out != NULL;
    wgpuBufferUnmap(readback);
  }

  wgpuCommandBufferRelease(commands);
  wgpuComputePassEncoderRelease(pass);
  wgpuCommandEncoderRelease(encoder);
  wgpuBindGroupRelease(group);
  wgpuBindGroupLayoutRelease(group_desc.layout);
  wgpuBufferRelease(readback);
  wgpuBufferRelease(storage);
  wgpuComputePipelineRelease(pipeline);
  wgpuShaderModuleRelease(module);
  wgpuQueueRelease(queue);
  wgpuDeviceRelease(device);
  wgpuAdapterRelease(adapter);
  wgpuInstanceRelease(instance);
  printf("%s: %d values doubled on the GPU\n", ok ? "OK" : "FAILED", COUNT);
  return ok ? 0 : 1;
}
