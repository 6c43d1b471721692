/* Rule (webgpu.h §2, §5): wgpuDeviceGetLimits returns Success with limits that
 * are at least the WebGPU defaults and no better than the adapter's, and at
 * least what was required (a required limit equal to the adapter's is
 * granted); an unknown out-struct chain gives Error and leaves the output
 * untouched. GetFeatures lists the enabled features (a subset of the
 * adapter's, including a required one), each reported by HasFeature.
 * GetAdapterInfo describes the adapter the device came from. GetQueue returns
 * a usable queue; extra AddRef/Release pairs and a second GetQueue leave it
 * usable. */
#include "../mapping/mapping_util.h"

int main(void) {
  start_watchdog(60);
  WGPUInstance inst = mu_create_instance(0);
  REQUIRE(inst != NULL);
  WGPUAdapter a = mu_request_adapter(inst);
  REQUIRE(a != NULL);
  WGPULimits al = WGPU_LIMITS_INIT;
  REQUIRE(wgpuAdapterGetLimits(a, &al) == WGPUStatus_Success);
  WGPUAdapterInfo ainfo = WGPU_ADAPTER_INFO_INIT;
  REQUIRE(wgpuAdapterGetInfo(a, &ainfo) == WGPUStatus_Success);
  WGPUSupportedFeatures af = WGPU_SUPPORTED_FEATURES_INIT;
  wgpuAdapterGetFeatures(a, &af);

  /* Require: the adapter's maxBindGroups and maxStorageBufferBindingSize,
   * and one optional feature the adapter has (if any). */
  WGPULimits req = WGPU_LIMITS_INIT;
  req.maxBindGroups = al.maxBindGroups;
  req.maxStorageBufferBindingSize = al.maxStorageBufferBindingSize;
  WGPUFeatureName want = (WGPUFeatureName)0;
  for (size_t i = 0; i < af.featureCount; i++) {
    if (af.features[i] != WGPUFeatureName_CoreFeaturesAndLimits) {
      want = af.features[i];
      break;
    }
  }
  WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
  dd.requiredLimits = &req;
  if (want) {
    dd.requiredFeatureCount = 1;
    dd.requiredFeatures = &want;
  }
  DeviceRequest r;
  WGPUDevice dev = mu_request_device(inst, a, &dd, &r);
  REQUIRE(dev != NULL);

  /* Limits. */
  WGPULimits dl = WGPU_LIMITS_INIT;
  CHECK_EQ(wgpuDeviceGetLimits(dev, &dl), WGPUStatus_Success);
  CHECK_EQ(dl.maxBindGroups, al.maxBindGroups);
  CHECK_EQ(dl.maxStorageBufferBindingSize, al.maxStorageBufferBindingSize);
  CHECK(dl.maxBindGroups >= 4);
  CHECK(dl.maxStorageBuffersPerShaderStage >= 8 && dl.maxStorageBuffersPerShaderStage <= al.maxStorageBuffersPerShaderStage);
  CHECK(dl.maxComputeWorkgroupSizeX >= 256 && dl.maxComputeWorkgroupSizeX <= al.maxComputeWorkgroupSizeX);
  CHECK(dl.maxComputeInvocationsPerWorkgroup >= 256 &&
        dl.maxComputeInvocationsPerWorkgroup <= al.maxComputeInvocationsPerWorkgroup);
  CHECK(dl.maxBufferSize >= 268435456 && dl.maxBufferSize <= al.maxBufferSize);
  CHECK(dl.maxUniformBufferBindingSize >= 65536 && dl.maxUniformBufferBindingSize <= al.maxUniformBufferBindingSize);
  CHECK(dl.minUniformBufferOffsetAlignment >= al.minUniformBufferOffsetAlignment &&
        dl.minUniformBufferOffsetAlignment <= 256);
  CHECK(dl.minStorageBufferOffsetAlignment >= al.minStorageBufferOffsetAlignment &&
        dl.minStorageBufferOffsetAlignment <= 256);
  CHECK(dl.maxImmediateSize != WGPU_LIMIT_U32_UNDEFINED);
  {
    WGPUChainedStruct bogus = {NULL, (WGPUSType)0x0000FFF8};
    WGPULimits x;
    memset(&x, 0x5C, sizeof x);
    x.nextInChain = &bogus;
    WGPULimits copy = x;
    CHECK_EQ(wgpuDeviceGetLimits(dev, &x), WGPUStatus_Error);
    CHECK(memcmp(&x, &copy, sizeof x) == 0);
  }

  /* Features. */
  WGPUSupportedFeatures df = WGPU_SUPPORTED_FEATURES_INIT;
  wgpuDeviceGetFeatures(dev, &df);
  int subset = 1, reported = 1, has_want = want == 0;
  for (size_t i = 0; i < df.featureCount; i++) {
    if (!wgpuAdapterHasFeature(a, df.features[i])) subset = 0;
    if (!wgpuDeviceHasFeature(dev, df.features[i])) reported = 0;
    if (df.features[i] == want) has_want = 1;
  }
  CHECK(subset);
  CHECK(reported);
  CHECK(has_want);
  if (want) CHECK(wgpuDeviceHasFeature(dev, want));
  CHECK(!wgpuDeviceHasFeature(dev, (WGPUFeatureName)0x0000FFF9));
  wgpuSupportedFeaturesFreeMembers(df);

  /* Adapter info. */
  WGPUAdapterInfo dinfo = WGPU_ADAPTER_INFO_INIT;
  CHECK_EQ(wgpuDeviceGetAdapterInfo(dev, &dinfo), WGPUStatus_Success);
  CHECK_EQ(dinfo.backendType, ainfo.backendType);
  CHECK_EQ(dinfo.adapterType, ainfo.adapterType);
  CHECK_EQ(dinfo.vendorID, ainfo.vendorID);
  CHECK_EQ(dinfo.deviceID, ainfo.deviceID);
  CHECK(dinfo.device.length != WGPU_STRLEN && dinfo.device.length == ainfo.device.length);
  wgpuAdapterInfoFreeMembers(dinfo);

  /* Queue. */
  WGPUQueue q1 = wgpuDeviceGetQueue(dev);
  WGPUQueue q2 = wgpuDeviceGetQueue(dev);
  CHECK(q1 != NULL);
  CHECK(q2 != NULL);
  CHECK(q1 == q2); /* one queue object, one handle (docs/DECISIONS.md) */
  wgpuQueueAddRef(q1);
  wgpuQueueRelease(q1);
  wgpuQueueRelease(q2); /* q1's own ref is still held */
  Ctx c;
  memset(&c, 0, sizeof c);
  c.instance = inst;
  c.device = dev;
  c.queue = q1;
  uint32_t v[4] = {9, 8, 7, 6}, got[4] = {0, 0, 0, 0};
  WGPUBuffer b = make_buffer(dev, 16, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 0);
  wgpuQueueWriteBuffer(q1, b, 0, v, 16);
  CHECK(mu_read_buffer(&c, b, 0, got, 16));
  CHECK(memcmp(v, got, 16) == 0);
  wgpuQueueSetLabel(q1, sv("the queue"));
  wgpuQueueRelease(q1);
  /* Every application reference is gone: GetQueue hands out a working queue
   * again. */
  WGPUQueue q3 = wgpuDeviceGetQueue(dev);
  REQUIRE(q3 != NULL);
  c.queue = q3;
  uint32_t v2[4] = {1, 2, 3, 4};
  wgpuQueueWriteBuffer(q3, b, 0, v2, 16);
  CHECK(mu_read_buffer(&c, b, 0, got, 16));
  CHECK(memcmp(v2, got, 16) == 0);
  wgpuQueueRelease(q3);
  wgpuBufferRelease(b);

  wgpuSupportedFeaturesFreeMembers(af);
  wgpuAdapterInfoFreeMembers(ainfo);
  wgpuDeviceRelease(dev);
  wgpuAdapterRelease(a);
  wgpuInstanceRelease(inst);
  return test_finish();
}
