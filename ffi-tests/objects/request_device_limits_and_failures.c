/* Rule (WebGPU spec requestDevice, as the CTS checks it): a required limit
 * that is worse than its default gives the default (maxBindGroups = 3 gives
 * a device reporting 4; minUniformBufferOffsetAlignment = 512 gives 256);
 * a better one than the adapter's fails the request with Error. A request
 * that fails (unknown feature, invalid alignment, limit above the adapter's)
 * does not use up the adapter: the next valid request on it succeeds, and
 * only a successful one expires it (without MultipleDevicesPerAdapter). */
#include "../mapping/mapping_util.h"

int main(void) {
  start_watchdog(60);
  WGPUInstance inst = mu_create_instance(0);
  REQUIRE(inst != NULL);
  WGPUAdapter a = mu_request_adapter(inst);
  REQUIRE(a != NULL);
  WGPULimits al = WGPU_LIMITS_INIT;
  REQUIRE(wgpuAdapterGetLimits(a, &al) == WGPUStatus_Success);
  DeviceRequest req;

  /* An unknown feature. */
  WGPUFeatureName bogus = (WGPUFeatureName)0x7fff0000;
  WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
  dd.requiredFeatureCount = 1;
  dd.requiredFeatures = &bogus;
  WGPUDevice d = mu_request_device(inst, a, &dd, &req);
  CHECK(d == NULL);
  CHECK_EQ(req.status, WGPURequestDeviceStatus_Error);

  /* An alignment that is not a power of two. */
  WGPULimits rl = WGPU_LIMITS_INIT;
  rl.minUniformBufferOffsetAlignment = 3;
  dd = (WGPUDeviceDescriptor)WGPU_DEVICE_DESCRIPTOR_INIT;
  dd.requiredLimits = &rl;
  d = mu_request_device(inst, a, &dd, &req);
  CHECK(d == NULL);
  CHECK_EQ(req.status, WGPURequestDeviceStatus_Error);

  /* A limit above the adapter's. */
  rl = (WGPULimits)WGPU_LIMITS_INIT;
  rl.maxBindGroups = al.maxBindGroups + 1;
  d = mu_request_device(inst, a, &dd, &req);
  CHECK(d == NULL);
  CHECK_EQ(req.status, WGPURequestDeviceStatus_Error);

  /* Worse than the defaults: the defaults. The adapter is still fresh. */
  rl = (WGPULimits)WGPU_LIMITS_INIT;
  rl.maxBindGroups = 3;
  rl.maxUniformBufferBindingSize = 1024;
  rl.minUniformBufferOffsetAlignment = 512;
  rl.minStorageBufferOffsetAlignment = 1024;
  d = mu_request_device(inst, a, &dd, &req);
  CHECK_EQ(req.status, WGPURequestDeviceStatus_Success);
  CHECK(d != NULL);
  if (d) {
    WGPULimits l = WGPU_LIMITS_INIT;
    CHECK_EQ(wgpuDeviceGetLimits(d, &l), WGPUStatus_Success);
    CHECK_EQ(l.maxBindGroups, 4);
    CHECK_EQ(l.maxUniformBufferBindingSize, 65536);
    CHECK_EQ(l.minUniformBufferOffsetAlignment, 256);
    CHECK_EQ(l.minStorageBufferOffsetAlignment, 256);
    wgpuDeviceRelease(d);
  }

  /* That success used the adapter up. */
  d = mu_request_device(inst, a, NULL, &req);
  CHECK(d == NULL);
  CHECK_EQ(req.status, WGPURequestDeviceStatus_Error);

  /* A better value than the default (within the adapter's) is honoured. */
  WGPUAdapter a2 = mu_request_adapter(inst);
  REQUIRE(a2 != NULL);
  rl = (WGPULimits)WGPU_LIMITS_INIT;
  rl.maxBindGroups = al.maxBindGroups;
  d = mu_request_device(inst, a2, &dd, &req);
  CHECK(d != NULL);
  if (d) {
    WGPULimits l = WGPU_LIMITS_INIT;
    CHECK_EQ(wgpuDeviceGetLimits(d, &l), WGPUStatus_Success);
    CHECK_EQ(l.maxBindGroups, al.maxBindGroups);
    wgpuDeviceRelease(d);
  }
  wgpuAdapterRelease(a2);
  wgpuAdapterRelease(a);
  wgpuInstanceRelease(inst);
  return test_finish();
}
