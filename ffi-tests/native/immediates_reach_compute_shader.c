/* Push constants (wgpu-native's "immediates", WGPUNativeFeature_Immediates)
 * reach a compute shader: the device is requested with the native feature
 * and a chained WGPUNativeLimits, the pipeline layout has an immediate
 * range, SetImmediates fills it, and the shader's output is read back.
 * Also: wgpuDeviceCreateShaderModuleSpirV rejects a bad module without
 * crashing, and a wrong sType in requiredLimits fails the request. */
#include "native_util.h"

static const char *const SHADER =
    "var<immediate> k: vec4<u32>;\n"
    "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "  out[id.x] = id.x * k.x + k.y;\n"
    "}\n";

static void on_map(WGPUMapAsyncStatus status, WGPUStringView message, void *userdata1, void *userdata2) {
  (void)message, (void)userdata2;
  *(WGPUMapAsyncStatus *)userdata1 = status;
}

int main(void) {
  WGPUInstanceFeatureName ifeatures[] = {WGPUInstanceFeatureName_TimedWaitAny};
  WGPUInstanceDescriptor idesc = WGPU_INSTANCE_DESCRIPTOR_INIT;
  idesc.requiredFeatureCount = 1;
  idesc.requiredFeatures = ifeatures;
  WGPUInstance instance = wgpuCreateInstance(&idesc);
  REQUIRE(instance != NULL);
  WGPUAdapter adapter = request_adapter(instance, UINT64_MAX);
  REQUIRE(adapter != NULL);
  REQUIRE(wgpuAdapterHasFeature(adapter, (WGPUFeatureName)WGPUNativeFeature_Immediates));

  /* The adapter reports the native limits through the chained struct. */
  WGPUNativeLimits native = WGPU_NATIVE_LIMITS_INIT;
  WGPULimits limits = WGPU_LIMITS_INIT;
  limits.nextInChain = &native.chain;
  CHECK(wgpuAdapterGetLimits(adapter, &limits) == WGPUStatus_Success);
  CHECK(native.maxNonSamplerBindings != WGPU_LIMIT_U32_UNDEFINED);
  CHECK(limits.maxImmediateSize >= 16);

  /* A wrong sType chained to requiredLimits fails the request. */
  WGPUChainedStruct wrong = {NULL, (WGPUSType)WGPUSType_DeviceExtras};
  WGPULimits bad_limits = WGPU_LIMITS_INIT;
  bad_limits.nextInChain = &wrong;
  WGPUDeviceDescriptor bad_desc = WGPU_DEVICE_DESCRIPTOR_INIT;
  bad_desc.requiredLimits = &bad_limits;
  CHECK(request_device(instance, adapter, &bad_desc, UINT64_MAX) == NULL);

  /* The real request (a new adapter: the failed request consumed none, but
   * keep it simple and ask again). */
  wgpuAdapterRelease(adapter);
  adapter = request_adapter(instance, UINT64_MAX);
  REQUIRE(adapter != NULL);
  WGPUFeatureName features[] = {(WGPUFeatureName)WGPUNativeFeature_Immediates};
  WGPUNativeLimits req_native = WGPU_NATIVE_LIMITS_INIT;
  WGPULimits req = WGPU_LIMITS_INIT;
  req.nextInChain = &req_native.chain;
  req.maxImmediateSize = 16;
  WGPUDeviceDescriptor ddesc = WGPU_DEVICE_DESCRIPTOR_INIT;
  ddesc.requiredFeatureCount = 1;
  ddesc.requiredFeatures = features;
  ddesc.requiredLimits = &req;
  WGPUDevice device = request_device(instance, adapter, &ddesc, UINT64_MAX);
  REQUIRE(device != NULL);
  CHECK(wgpuDeviceHasFeature(device, (WGPUFeatureName)WGPUNativeFeature_Immediates));
  WGPUQueue queue = wgpuDeviceGetQueue(device);

  enum { N = 256 };
  WGPUShaderModule module = make_wgsl(device, SHADER);
  WGPUBindGroupLayoutEntry entry = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  entry.binding = 0;
  entry.visibility = WGPUShaderStage_Compute;
  entry.buffer.type = WGPUBufferBindingType_Storage;
  WGPUBindGroupLayoutDescriptor bgl_desc = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  bgl_desc.entryCount = 1;
  bgl_desc.entries = &entry;
  WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(device, &bgl_desc);
  WGPUPipelineLayoutDescriptor pl_desc = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
  pl_desc.bindGroupLayoutCount = 1;
  pl_desc.bindGroupLayouts = &bgl;
  pl_desc.immediateSize = 16;
  WGPUPipelineLayout layout = wgpuDeviceCreatePipelineLayout(device, &pl_desc);
  WGPUComputePipelineDescriptor cp_desc = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  cp_desc.layout = layout;
  cp_desc.compute.module = module;
  cp_desc.compute.entryPoint = sv("main");
  WGPUComputePipeline pipeline = wgpuDeviceCreateComputePipeline(device, &cp_desc);

  WGPUBuffer storage = make_buffer(device, N * 4, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, 0);
  WGPUBuffer readback = make_buffer(device, N * 4, WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead, 0);
  WGPUBindGroupEntry bg_entry = WGPU_BIND_GROUP_ENTRY_INIT;
  bg_entry.binding = 0;
  bg_entry.buffer = storage;
  bg_entry.size = N * 4;
  WGPUBindGroupDescriptor bg_desc = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  bg_desc.layout = bgl;
  bg_desc.entryCount = 1;
  bg_desc.entries = &bg_entry;
  WGPUBindGroup group = wgpuDeviceCreateBindGroup(device, &bg_desc);

  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(device, NULL);
  WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, NULL);
  wgpuComputePassEncoderSetPipeline(pass, pipeline);
  wgpuComputePassEncoderSetBindGroup(pass, 0, group, 0, NULL);
  const uint32_t k[4] = {5, 11, 0, 0};
  wgpuComputePassEncoderSetImmediates(pass, 0, k, sizeof k);
  wgpuComputePassEncoderDispatchWorkgroups(pass, N / 64, 1, 1);
  wgpuComputePassEncoderEnd(pass);
  wgpuCommandEncoderCopyBufferToBuffer(enc, storage, 0, readback, 0, N * 4);
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  WGPUSubmissionIndex index = wgpuQueueSubmitForIndex(queue, 1, &cmd);
  CHECK(index > 0);
  CHECK(wgpuDevicePoll(device, 1, &index));

  WGPUMapAsyncStatus status = WGPUMapAsyncStatus_Error;
  WGPUBufferMapCallbackInfo mcb = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  mcb.mode = WGPUCallbackMode_WaitAnyOnly;
  mcb.callback = on_map;
  mcb.userdata1 = &status;
  CHECK(wait_one(instance, wgpuBufferMapAsync(readback, WGPUMapMode_Read, 0, N * 4, mcb)) == WGPUWaitStatus_Success);
  REQUIRE(status == WGPUMapAsyncStatus_Success);
  const uint32_t *out = wgpuBufferGetConstMappedRange(readback, 0, N * 4);
  REQUIRE(out != NULL);
  int same = 1;
  for (uint32_t i = 0; i < N; i++) same &= out[i] == i * 5u + 11u;
  CHECK(same);
  printf("out[0..3] = %u %u %u\n", out[0], out[1], out[2]);
  wgpuBufferUnmap(readback);

  /* SPIR-V that is not SPIR-V: an invalid module and a validation error
   * (logged: no uncaptured-error callback here), never a crash. */
  const uint32_t junk[5] = {0x07230203u, 0x00010000u, 0, 1, 0xdeadbeefu};
  WGPUShaderModuleDescriptorSpirV spv = {sv("junk"), 5, junk};
  WGPUShaderModule bad = wgpuDeviceCreateShaderModuleSpirV(device, &spv);
  CHECK(bad != NULL);
  CHECK(wgpuDeviceCreateShaderModuleSpirV(device, NULL) == NULL);
  /* A trusted module with no run-time checks compiles like a normal one. */
  WGPUShaderSourceWGSL wgsl = WGPU_SHADER_SOURCE_WGSL_INIT;
  wgsl.code = sv(SHADER);
  WGPUShaderModuleDescriptor smd = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
  smd.nextInChain = &wgsl.chain;
  WGPUShaderModule trusted = wgpuDeviceCreateShaderModuleTrusted(device, &smd, WGPUShaderRuntimeChecks_None);
  CHECK(trusted != NULL);

  wgpuShaderModuleRelease(trusted);
  wgpuShaderModuleRelease(bad);
  wgpuCommandBufferRelease(cmd);
  wgpuComputePassEncoderRelease(pass);
  wgpuCommandEncoderRelease(enc);
  wgpuBindGroupRelease(group);
  wgpuBufferRelease(storage);
  wgpuBufferRelease(readback);
  wgpuComputePipelineRelease(pipeline);
  wgpuPipelineLayoutRelease(layout);
  wgpuBindGroupLayoutRelease(bgl);
  wgpuShaderModuleRelease(module);
  wgpuQueueRelease(queue);
  wgpuDeviceRelease(device);
  wgpuAdapterRelease(adapter);
  wgpuInstanceRelease(instance);
  return test_finish();
}
