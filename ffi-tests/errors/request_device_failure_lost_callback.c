/* Rule (webgpu.h §2, §6 "Device lost"): RequestDevice with a required limit
 * the adapter cannot give fails: status Error, NULL device, a non-empty
 * message; and the device-lost callback (AllowSpontaneous) runs exactly once
 * with reason FailedCreation and a non-NULL `WGPUDevice const*` whose pointee
 * is NULL -- without any WaitAny (the app has no device to get the future
 * from). The same for an unknown required feature. */
#include "../mapping/mapping_util.h"

static void one(WGPUInstance inst, WGPUAdapter adapter, const WGPUDeviceDescriptor *base, LostRecord *lost,
                const char *what) {
  DeviceRequest req;
  WGPUDevice dev = mu_request_device(inst, adapter, base, &req);
  CHECK(dev == NULL);
  CHECK_EQ(req.calls, 1);
  CHECK_EQ(req.status, WGPURequestDeviceStatus_Error);
  CHECK(req.device == NULL);
  CHECK(req.msg_nonempty);
  int got = mu_poll_until(inst, &lost->calls, 1, 5000);
  if (!got) fprintf(stderr, "  %s: lost callback did not run\n", what);
  CHECK(got);
  for (int i = 0; i < 5; i++) {
    wgpuInstanceProcessEvents(inst);
    sleep_ms(10);
  }
  CHECK_EQ(atomic_load(&lost->calls), 1);
  CHECK_EQ(atomic_load(&lost->reason), WGPUDeviceLostReason_FailedCreation);
  CHECK(!atomic_load(&lost->ptr_null));
  CHECK(atomic_load(&lost->pointee_null));
  if (dev) wgpuDeviceRelease(dev);
}

int main(void) {
  start_watchdog(60);
  WGPUInstance inst = mu_create_instance(0);
  REQUIRE(inst != NULL);

  /* Impossible limit: more bind groups than the adapter supports. */
  WGPUAdapter a1 = mu_request_adapter(inst);
  REQUIRE(a1 != NULL);
  WGPULimits al = WGPU_LIMITS_INIT;
  REQUIRE(wgpuAdapterGetLimits(a1, &al) == WGPUStatus_Success);
  WGPULimits req_limits = WGPU_LIMITS_INIT;
  req_limits.maxBindGroups = al.maxBindGroups + 1;
  LostRecord lost1;
  mu_lost_record_init(&lost1);
  WGPUDeviceDescriptor dd = mu_device_desc(WGPUCallbackMode_AllowSpontaneous, &lost1, NULL);
  dd.requiredLimits = &req_limits;
  one(inst, a1, &dd, &lost1, "maxBindGroups + 1");
  wgpuAdapterRelease(a1);

  /* Impossible workgroup size limit. */
  WGPUAdapter a2 = mu_request_adapter(inst);
  REQUIRE(a2 != NULL);
  WGPULimits req2 = WGPU_LIMITS_INIT;
  req2.maxComputeWorkgroupSizeX = al.maxComputeWorkgroupSizeX + 1;
  LostRecord lost2;
  mu_lost_record_init(&lost2);
  WGPUDeviceDescriptor dd2 = mu_device_desc(WGPUCallbackMode_AllowSpontaneous, &lost2, NULL);
  dd2.requiredLimits = &req2;
  one(inst, a2, &dd2, &lost2, "maxComputeWorkgroupSizeX + 1");
  wgpuAdapterRelease(a2);

  /* Unknown required feature. */
  WGPUAdapter a3 = mu_request_adapter(inst);
  REQUIRE(a3 != NULL);
  WGPUFeatureName bogus = (WGPUFeatureName)0x0000ABCD;
  LostRecord lost3;
  mu_lost_record_init(&lost3);
  WGPUDeviceDescriptor dd3 = mu_device_desc(WGPUCallbackMode_AllowSpontaneous, &lost3, NULL);
  dd3.requiredFeatureCount = 1;
  dd3.requiredFeatures = &bogus;
  one(inst, a3, &dd3, &lost3, "unknown feature");
  wgpuAdapterRelease(a3);

  wgpuInstanceRelease(inst);
  /* Instance release does not call the finished callbacks again. */
  CHECK_EQ(atomic_load(&lost1.calls), 1);
  CHECK_EQ(atomic_load(&lost2.calls), 1);
  CHECK_EQ(atomic_load(&lost3.calls), 1);
  return test_finish();
}
