// A C++ program that uses an installed wgpu-shim, built with CMake's
// find_package(wgpu-shim) (packaging/consumer/CMakeLists.txt): requests an
// adapter and a device, fills a buffer with a compute shader, reads it back
// through a mapped buffer and checks it. Prints the adapter and `OK`; exits 1
// on any failure.
#include <webgpu/webgpu.h>
#include <webgpu/wgpu.h>
#include <webgpu/wgpu_shim.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr uint32_t kCount = 128;

const char kShader[] = R"(
@group(0) @binding(0) var<storage, read_write> v: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) i: vec3<u32>) { v[i.x] = i.x * i.x + 7u; }
)";

std::string text(WGPUStringView view) {
  return view.data ? std::string(view.data, view.length == WGPU_STRLEN ? std::string(view.data).size() : view.length)
                   : std::string();
}

bool wait(WGPUInstance instance, WGPUFuture future) {
  WGPUFutureWaitInfo info = {future, 0};
  return wgpuInstanceWaitAny(instance, 1, &info, UINT64_MAX) == WGPUWaitStatus_Success && info.completed;
}

}  // namespace

int main() {
  const WGPUInstanceFeatureName features[] = {WGPUInstanceFeatureName_TimedWaitAny};
  WGPUInstanceDescriptor instance_desc = WGPU_INSTANCE_DESCRIPTOR_INIT;
  instance_desc.requiredFeatureCount = 1;
  instance_desc.requiredFeatures = features;
  WGPUInstance instance = wgpuCreateInstance(&instance_desc);
  if (!instance) return 1;

  WGPUAdapter adapter = nullptr;
  WGPURequestAdapterCallbackInfo adapter_cb = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  adapter_cb.mode = WGPUCallbackMode_AllowProcessEvents;
  adapter_cb.callback = [](WGPURequestAdapterStatus status, WGPUAdapter a, WGPUStringView message, void *out, void *) {
    if (status == WGPURequestAdapterStatus_Success) *static_cast<WGPUAdapter *>(out) = a;
    else std::fprintf(stderr, "adapter: %s\n", text(message).c_str());
  };
  adapter_cb.userdata1 = &adapter;
  if (!wait(instance, wgpuInstanceRequestAdapter(instance, nullptr, adapter_cb)) || !adapter) return 1;
  WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
  if (wgpuAdapterGetInfo(adapter, &info) == WGPUStatus_Success) {
    std::printf("adapter: %s (wgpu-shim %s)\n", text(info.device).c_str(), WGPU_SHIM_VERSION_STRING);
    wgpuAdapterInfoFreeMembers(info);
  }

  WGPUDevice device = nullptr;
  WGPURequestDeviceCallbackInfo device_cb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  device_cb.mode = WGPUCallbackMode_AllowProcessEvents;
  device_cb.callback = [](WGPURequestDeviceStatus status, WGPUDevice d, WGPUStringView message, void *out, void *) {
    if (status == WGPURequestDeviceStatus_Success) *static_cast<WGPUDevice *>(out) = d;
    else std::fprintf(stderr, "device: %s\n", text(message).c_str());
  };
  device_cb.userdata1 = &device;
  if (!wait(instance, wgpuAdapterRequestDevice(adapter, nullptr, device_cb)) || !device) return 1;
  WGPUQueue queue = wgpuDeviceGetQueue(device);

  WGPUShaderSourceWGSL wgsl = WGPU_SHADER_SOURCE_WGSL_INIT;
  wgsl.code = {kShader, sizeof kShader - 1};
  WGPUShaderModuleDescriptor module_desc = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
  module_desc.nextInChain = &wgsl.chain;
  WGPUShaderModule module = wgpuDeviceCreateShaderModule(device, &module_desc);
  WGPUComputePipelineDescriptor pipeline_desc = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  pipeline_desc.compute.module = module;
  WGPUComputePipeline pipeline = wgpuDeviceCreateComputePipeline(device, &pipeline_desc);

  const uint64_t size = kCount * sizeof(uint32_t);
  WGPUBufferDescriptor buffer_desc = WGPU_BUFFER_DESCRIPTOR_INIT;
  buffer_desc.size = size;
  buffer_desc.usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc;
  WGPUBuffer storage = wgpuDeviceCreateBuffer(device, &buffer_desc);
  buffer_desc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  WGPUBuffer readback = wgpuDeviceCreateBuffer(device, &buffer_desc);

  WGPUBindGroupEntry entry = WGPU_BIND_GROUP_ENTRY_INIT;
  entry.binding = 0;
  entry.buffer = storage;
  entry.size = size;
  WGPUBindGroupDescriptor group_desc = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  group_desc.layout = wgpuComputePipelineGetBindGroupLayout(pipeline, 0);
  group_desc.entryCount = 1;
  group_desc.entries = &entry;
  WGPUBindGroup group = wgpuDeviceCreateBindGroup(device, &group_desc);

  WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device, nullptr);
  WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(encoder, nullptr);
  wgpuComputePassEncoderSetPipeline(pass, pipeline);
  wgpuComputePassEncoderSetBindGroup(pass, 0, group, 0, nullptr);
  wgpuComputePassEncoderDispatchWorkgroups(pass, kCount / 64, 1, 1);
  wgpuComputePassEncoderEnd(pass);
  wgpuCommandEncoderCopyBufferToBuffer(encoder, storage, 0, readback, 0, size);
  WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, nullptr);
  wgpuQueueSubmit(queue, 1, &commands);

  WGPUMapAsyncStatus map_status = WGPUMapAsyncStatus_Error;
  WGPUBufferMapCallbackInfo map_cb = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  map_cb.mode = WGPUCallbackMode_AllowProcessEvents;
  map_cb.callback = [](WGPUMapAsyncStatus status, WGPUStringView, void *out, void *) {
    *static_cast<WGPUMapAsyncStatus *>(out) = status;
  };
  map_cb.userdata1 = &map_status;
  bool ok = wait(instance, wgpuBufferMapAsync(readback, WGPUMapMode_Read, 0, size, map_cb)) &&
            map_status == WGPUMapAsyncStatus_Success;
  std::vector<uint32_t> got;
  if (ok) {
    const auto *words = static_cast<const uint32_t *>(wgpuBufferGetConstMappedRange(readback, 0, size));
    if (words) got.assign(words, words + kCount);
    wgpuBufferUnmap(readback);
  }
  ok = ok && got.size() == kCount;
  for (uint32_t i = 0; ok && i < kCount; i++) {
    if (got[i] != i * i + 7) {
      std::fprintf(stderr, "value %u: %u, expected %u\n", i, got[i], i * i + 7);
      ok = false;
    }
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
  std::printf("%s: %u values from the GPU\n", ok ? "OK" : "FAILED", kCount);
  return ok ? 0 : 1;
}
