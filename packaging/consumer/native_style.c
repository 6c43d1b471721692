/* A program written the way programs for wgpu-native v29 are: wgpu.h's
 * wgpuSetLogLevel first, every callback info left at mode 0 (wgpu-native
 * calls back inside the call, or inside wgpuDevicePoll), and
 * wgpuDevicePoll(wait) to finish a map. It asks for a Vulkan adapter,
 * doubles 64 numbers in a compute shader, reads them back and prints what it
 * saw. packaging/consumer/run-windows.sh links it against an import library
 * of wgpu_native.dll and runs it with wgpu-shim's DLL under that name and
 * with wgpu-native's own DLL: the two outputs must be the same. */
#include <webgpu/webgpu.h>
#include <webgpu/wgpu.h>

#include <stdint.h>
#include <stdio.h>

#define COUNT 64

static const char shader[] =
    "@group(0) @binding(0) var<storage, read_write> v: array<u32>;\n"
    "@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) i: vec3<u32>) {\n"
    "  v[i.x] = v[i.x] * 2u;\n"
    "}\n";

static int calls;

static void on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message, void *out,
                       void *unused) {
  (void)message, (void)unused;
  calls++;
  if (status == WGPURequestAdapterStatus_Success) *(WGPUAdapter *)out = adapter;
}

static void on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void *out,
                      void *unused) {
  (void)message, (void)unused;
  calls++;
  if (status == WGPURequestDeviceStatus_Success) *(WGPUDevice *)out = device;
}

static void on_mapped(WGPUMapAsyncStatus status, WGPUStringView message, void *out, void *unused) {
  (void)message, (void)unused;
  calls++;
  *(WGPUMapAsyncStatus *)out = status;
}

int main(void) {
  wgpuSetLogLevel(WGPULogLevel_Error);
  WGPUInstance instance = wgpuCreateInstance(NULL);
  if (!instance) return 1;

  WGPURequestAdapterOptions options = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
  options.backendType = WGPUBackendType_Vulkan;
  WGPUAdapter adapter = NULL;
  WGPURequestAdapterCallbackInfo adapter_cb = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  adapter_cb.callback = on_adapter;
  adapter_cb.userdata1 = &adapter;
  wgpuInstanceRequestAdapter(instance, &options, adapter_cb);
  printf("adapter: %s, callbacks so far %d\n", adapter ? "yes" : "no", calls);
  if (!adapter) return 1;
  WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
  wgpuAdapterGetInfo(adapter, &info);
  printf("backend: %s\n", info.backendType == WGPUBackendType_Vulkan ? "Vulkan" : "other");
  wgpuAdapterInfoFreeMembers(info);

  WGPUDevice device = NULL;
  WGPURequestDeviceCallbackInfo device_cb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  device_cb.callback = on_device;
  device_cb.userdata1 = &device;
  wgpuAdapterRequestDevice(adapter, NULL, device_cb);
  printf("device: %s, callbacks so far %d\n", device ? "yes" : "no", calls);
  if (!device) return 1;
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
  for (uint32_t i = 0; i < COUNT; i++) input[i] = i * 7 + 3;
  WGPUBufferDescriptor buffer_desc = WGPU_BUFFER_DESCRIPTOR_INIT;
  buffer_desc.size = sizeof input;
  buffer_desc.usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst;
  WGPUBuffer storage = wgpuDeviceCreateBuffer(device, &buffer_desc);
  buffer_desc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  WGPUBuffer readback = wgpuDeviceCreateBuffer(device, &buffer_desc);
  wgpuQueueWriteBuffer(queue, storage, 0, input, sizeof input);

  WGPUBindGroupEntry entry = WGPU_BIND_GROUP_ENTRY_INIT;
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
  wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
  wgpuComputePassEncoderEnd(pass);
  wgpuCommandEncoderCopyBufferToBuffer(encoder, storage, 0, readback, 0, sizeof input);
  WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, NULL);
  WGPUSubmissionIndex index = wgpuQueueSubmitForIndex(queue, 1, &commands);

  WGPUMapAsyncStatus map_status = WGPUMapAsyncStatus_Error;
  WGPUBufferMapCallbackInfo map_cb = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  map_cb.callback = on_mapped;
  map_cb.userdata1 = &map_status;
  int before = calls;
  wgpuBufferMapAsync(readback, WGPUMapMode_Read, 0, sizeof input, map_cb);
  printf("map callback before the poll: %s\n", calls > before ? "yes" : "no");
  wgpuDevicePoll(device, 1, &index);
  wgpuDevicePoll(device, 1, NULL);
  printf("map: %s\n", map_status == WGPUMapAsyncStatus_Success ? "Success" : "not mapped");
  if (map_status == WGPUMapAsyncStatus_Success) {
    const uint32_t *out = (const uint32_t *)wgpuBufferGetConstMappedRange(readback, 0, sizeof input);
    uint64_t sum = 0;
    for (uint32_t i = 0; out && i < COUNT; i++) sum += out[i];
    printf("values: %u %u %u ... %u, sum %llu\n", out ? out[0] : 0, out ? out[1] : 0, out ? out[2] : 0,
           out ? out[COUNT - 1] : 0, (unsigned long long)sum);
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
  printf("done\n");
  return map_status == WGPUMapAsyncStatus_Success ? 0 : 1;
}
