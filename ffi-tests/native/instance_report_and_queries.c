/* Instance-level wgpu.h functions: wgpuGetVersion, instance extras,
 * wgpuInstanceEnumerateAdapters, wgpuGenerateReport, the timestamp period,
 * wgpuGetProcAddress for wgpu.h names, the Metal getters (NULL: no Metal
 * here), pass timestamps and pipeline statistics where the adapter has
 * them, and bad input (NULL pointers, wrong sTypes) that is logged, never a
 * crash. */
#include "native_util.h"

int main(void) {
  CHECK_EQ(wgpuGetVersion(), 0x1D000101u);

  /* Instance extras: Vulkan with validation works; a wrong sType is
   * refused; Metal alone leaves no adapters. */
  WGPUInstanceExtras extras;
  memset(&extras, 0, sizeof extras);
  extras.chain.sType = (WGPUSType)WGPUSType_InstanceExtras;
  extras.backends = WGPUInstanceBackend_Vulkan;
  extras.flags = WGPUInstanceFlag_Validation;
  WGPUInstanceFeatureName timed[] = {WGPUInstanceFeatureName_TimedWaitAny};
  WGPUInstanceDescriptor idesc = WGPU_INSTANCE_DESCRIPTOR_INIT;
  idesc.requiredFeatureCount = 1;
  idesc.requiredFeatures = timed;
  idesc.nextInChain = &extras.chain;
  WGPUInstance instance = wgpuCreateInstance(&idesc);
  REQUIRE(instance != NULL);
  WGPUChainedStruct wrong = {NULL, (WGPUSType)WGPUSType_NativeLimits};
  idesc.nextInChain = &wrong;
  CHECK(wgpuCreateInstance(&idesc) == NULL);
  extras.backends = WGPUInstanceBackend_Metal;
  idesc.nextInChain = &extras.chain;
  WGPUInstance metal_only = wgpuCreateInstance(&idesc);
  REQUIRE(metal_only != NULL);
  CHECK_EQ(wgpuInstanceEnumerateAdapters(metal_only, NULL, NULL), 0);
  wgpuInstanceRelease(metal_only);

  /* Enumeration: the count, then that many live adapters. */
  size_t count = wgpuInstanceEnumerateAdapters(instance, NULL, NULL);
  CHECK(count >= 1);
  WGPUAdapter adapters[16] = {0};
  REQUIRE(count <= 16);
  CHECK_EQ(wgpuInstanceEnumerateAdapters(instance, NULL, adapters), count);
  for (size_t i = 0; i < count; i++) {
    WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
    CHECK(adapters[i] != NULL);
    CHECK(wgpuAdapterGetInfo(adapters[i], &info) == WGPUStatus_Success);
    CHECK(info.backendType == WGPUBackendType_Vulkan);
    wgpuAdapterInfoFreeMembers(info);
  }
  WGPUInstanceEnumerateAdapterOptions only_dx12 = {NULL, WGPUInstanceBackend_DX12};
  CHECK_EQ(wgpuInstanceEnumerateAdapters(instance, &only_dx12, NULL), 0);
  WGPUInstanceEnumerateAdapterOptions only_vk = {NULL, WGPUInstanceBackend_Vulkan};
  CHECK_EQ(wgpuInstanceEnumerateAdapters(instance, &only_vk, NULL), count);
  WGPUInstanceEnumerateAdapterOptions chained = {&wrong, WGPUInstanceBackend_All};
  CHECK_EQ(wgpuInstanceEnumerateAdapters(instance, &chained, NULL), 0);
  CHECK_EQ(wgpuInstanceEnumerateAdapters(NULL, NULL, NULL), 0);

  /* A device from the first enumerated adapter. */
  WGPUFeatureName want[4];
  size_t nwant = 0;
  int timestamps = wgpuAdapterHasFeature(adapters[0], WGPUFeatureName_TimestampQuery) &&
                   wgpuAdapterHasFeature(adapters[0], (WGPUFeatureName)WGPUNativeFeature_TimestampQueryInsidePasses);
  int stats = wgpuAdapterHasFeature(adapters[0], (WGPUFeatureName)WGPUNativeFeature_PipelineStatisticsQuery);
  if (timestamps) {
    want[nwant++] = WGPUFeatureName_TimestampQuery;
    want[nwant++] = (WGPUFeatureName)WGPUNativeFeature_TimestampQueryInsidePasses;
  }
  if (stats) want[nwant++] = (WGPUFeatureName)WGPUNativeFeature_PipelineStatisticsQuery;
  printf("pass timestamps: %d, pipeline statistics: %d\n", timestamps, stats);
  WGPUDeviceDescriptor ddesc = WGPU_DEVICE_DESCRIPTOR_INIT;
  ddesc.requiredFeatureCount = nwant;
  ddesc.requiredFeatures = want;
  WGPUDeviceExtras dextras;
  memset(&dextras, 0, sizeof dextras);
  dextras.chain.sType = (WGPUSType)WGPUSType_DeviceExtras;
  dextras.tracePath = sv("");
  ddesc.nextInChain = &dextras.chain;
  WGPUDevice device = request_device(instance, adapters[0], &ddesc, UINT64_MAX);
  REQUIRE(device != NULL);
  WGPUQueue queue = wgpuDeviceGetQueue(device);

  /* The report counts the buffer. */
  WGPUGlobalReport before, after;
  wgpuGenerateReport(instance, &before);
  CHECK(before.hub.devices.numKeptFromUser >= 1);
  CHECK(before.hub.buffers.elementSize > 0);
  WGPUBuffer buffer = make_buffer(device, 512, WGPUBufferUsage_CopyDst | WGPUBufferUsage_QueryResolve, 0);
  wgpuGenerateReport(instance, &after);
  CHECK_EQ(after.hub.buffers.numKeptFromUser, before.hub.buffers.numKeptFromUser + 1);
  CHECK_EQ(after.hub.buffers.numAllocated, before.hub.buffers.numAllocated + 1);
  wgpuGenerateReport(instance, NULL);
  wgpuGenerateReport(NULL, &after);

  CHECK(wgpuQueueGetTimestampPeriod(queue) > 0.0f);
  CHECK(wgpuQueueGetTimestampPeriod(NULL) == 0.0f);

  /* Every wgpu.h function is in the proc table. */
  CHECK(wgpuGetProcAddress(sv("wgpuDevicePoll")) == (WGPUProc)wgpuDevicePoll);
  CHECK(wgpuGetProcAddress(sv("wgpuGenerateReport")) == (WGPUProc)wgpuGenerateReport);
  CHECK(wgpuGetProcAddress(sv("wgpuQueueSubmitForIndex")) == (WGPUProc)wgpuQueueSubmitForIndex);

  /* No Metal here: NULL (logged). */
  CHECK(wgpuDeviceGetNativeMetalDevice(device) == NULL);
  CHECK(wgpuQueueGetNativeMetalCommandQueue(queue) == NULL);
  /* No graphics debugger attached: no capture. */
  CHECK(wgpuDeviceStartGraphicsDebuggerCapture(device) == 0);
  wgpuDeviceStopGraphicsDebuggerCapture(device);

  /* Pipeline statistics need the extras; a query set of that type without
   * them is invalid (a validation error, logged). */
  WGPUQuerySetDescriptor qdesc = WGPU_QUERY_SET_DESCRIPTOR_INIT;
  qdesc.type = (WGPUQueryType)WGPUNativeQueryType_PipelineStatistics;
  qdesc.count = 1;
  WGPUQuerySet no_extras = wgpuDeviceCreateQuerySet(device, &qdesc);
  CHECK(no_extras != NULL);
  wgpuQuerySetRelease(no_extras);

  if (timestamps || stats) {
    WGPUQuerySet ts = NULL, ps = NULL;
    if (timestamps) {
      WGPUQuerySetDescriptor tdesc = WGPU_QUERY_SET_DESCRIPTOR_INIT;
      tdesc.type = WGPUQueryType_Timestamp;
      tdesc.count = 2;
      ts = wgpuDeviceCreateQuerySet(device, &tdesc);
    }
    if (stats) {
      WGPUPipelineStatisticName names[] = {WGPUPipelineStatisticName_ComputeShaderInvocations};
      WGPUQuerySetDescriptorExtras qx;
      memset(&qx, 0, sizeof qx);
      qx.chain.sType = (WGPUSType)WGPUSType_QuerySetDescriptorExtras;
      qx.pipelineStatistics = names;
      qx.pipelineStatisticCount = 1;
      qdesc.nextInChain = &qx.chain;
      ps = wgpuDeviceCreateQuerySet(device, &qdesc);
    }
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(device, NULL);
    WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, NULL);
    if (ts) wgpuComputePassEncoderWriteTimestamp(pass, ts, 0);
    if (ps) wgpuComputePassEncoderBeginPipelineStatisticsQuery(pass, ps, 0);
    if (ps) wgpuComputePassEncoderEndPipelineStatisticsQuery(pass);
    if (ts) wgpuComputePassEncoderWriteTimestamp(pass, ts, 1);
    wgpuComputePassEncoderEnd(pass);
    if (ts) wgpuCommandEncoderResolveQuerySet(enc, ts, 0, 2, buffer, 0);
    if (ps) wgpuCommandEncoderResolveQuerySet(enc, ps, 0, 1, buffer, 256);
    WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
    /* A valid recording (features enabled, extras accepted) submits. */
    WGPUSubmissionIndex index = wgpuQueueSubmitForIndex(queue, 1, &cmd);
    CHECK(index > 0);
    CHECK(wgpuDevicePoll(device, 1, &index));
    wgpuCommandBufferRelease(cmd);
    wgpuComputePassEncoderRelease(pass);
    wgpuCommandEncoderRelease(enc);
    if (ts) wgpuQuerySetRelease(ts);
    if (ps) wgpuQuerySetRelease(ps);
  }

  /* Recording calls with NULL handles: logged, no crash. */
  wgpuRenderPassEncoderMultiDrawIndirect(NULL, buffer, 0, 1);
  wgpuComputePassEncoderWriteTimestamp(NULL, NULL, 0);
  wgpuCommandEncoderClearTexture(NULL, NULL, NULL);
  wgpuSetLogCallback(NULL, NULL);

  wgpuBufferRelease(buffer);
  wgpuQueueRelease(queue);
  wgpuDeviceRelease(device);
  for (size_t i = 0; i < count; i++) wgpuAdapterRelease(adapters[i]);
  wgpuInstanceRelease(instance);
  return test_finish();
}
