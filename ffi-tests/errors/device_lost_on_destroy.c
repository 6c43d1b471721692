/* Rule (webgpu.h §6 "Device lost", §8.2): wgpuDeviceDestroy loses the device:
 * the lost callback runs exactly once with reason Destroyed, a non-NULL
 * `WGPUDevice const*` whose pointee is this device (non-NULL, the app still
 * holds it) and the userdata; even when Destroy is called twice. The lost
 * future (wgpuDeviceGetLostFuture, the same future each time) completes. With
 * a WaitAnyOnly lost callback, nothing fires until the future is waited on
 * (ProcessEvents does not deliver it). */
#include "../mapping/mapping_util.h"

static int g_tag;

int main(void) {
  start_watchdog(60);
  WGPUInstance inst = mu_create_instance(0);
  REQUIRE(inst != NULL);

  /* --- AllowSpontaneous lost callback. --- */
  WGPUAdapter a1 = mu_request_adapter(inst);
  REQUIRE(a1 != NULL);
  LostRecord lost;
  mu_lost_record_init(&lost);
  WGPUDeviceDescriptor dd = mu_device_desc(WGPUCallbackMode_AllowSpontaneous, &lost, NULL);
  dd.deviceLostCallbackInfo.userdata2 = &g_tag;
  DeviceRequest req;
  WGPUDevice dev = mu_request_device(inst, a1, &dd, &req);
  REQUIRE(dev != NULL);
  WGPUFuture lf1 = wgpuDeviceGetLostFuture(dev);
  WGPUFuture lf2 = wgpuDeviceGetLostFuture(dev);
  CHECK(lf1.id != 0);
  CHECK_EQ(lf1.id, lf2.id);
  /* Not lost yet: a poll of the lost future times out. */
  {
    WGPUFutureWaitInfo wi = {lf1, 0};
    CHECK_EQ(wgpuInstanceWaitAny(inst, 1, &wi, 0), WGPUWaitStatus_TimedOut);
    CHECK(!wi.completed);
  }
  CHECK_EQ(atomic_load(&lost.calls), 0);

  wgpuDeviceDestroy(dev);
  CHECK(mu_sleep_until(&lost.calls, 1, 5000)); /* spontaneous: no wait needed */
  int completed = 0;
  CHECK_EQ(mu_wait_completed(inst, lf1, &completed), WGPUWaitStatus_Success);
  CHECK(completed);
  wgpuDeviceDestroy(dev); /* second destroy */
  for (int i = 0; i < 5; i++) {
    wgpuInstanceProcessEvents(inst);
    sleep_ms(10);
  }
  CHECK_EQ(mu_wait(inst, wgpuDeviceGetLostFuture(dev)), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&lost.calls), 1);
  CHECK_EQ(atomic_load(&lost.reason), WGPUDeviceLostReason_Destroyed);
  CHECK(!atomic_load(&lost.ptr_null));
  CHECK(!atomic_load(&lost.pointee_null));
  CHECK(lost.pointee == dev);
  CHECK(lost.userdata1 == &lost);
  CHECK(lost.userdata2 == &g_tag);
  CHECK_EQ(wgpuDeviceGetLostFuture(dev).id, lf1.id);
  wgpuDeviceRelease(dev);
  sleep_ms(10);
  CHECK_EQ(atomic_load(&lost.calls), 1); /* the release does not call it again */
  wgpuAdapterRelease(a1);

  /* --- WaitAnyOnly lost callback. --- */
  WGPUAdapter a2 = mu_request_adapter(inst);
  REQUIRE(a2 != NULL);
  LostRecord lost2;
  mu_lost_record_init(&lost2);
  WGPUDeviceDescriptor dd2 = mu_device_desc(WGPUCallbackMode_WaitAnyOnly, &lost2, NULL);
  WGPUDevice dev2 = mu_request_device(inst, a2, &dd2, &req);
  REQUIRE(dev2 != NULL);
  WGPUFuture lf = wgpuDeviceGetLostFuture(dev2);
  wgpuDeviceDestroy(dev2);
  wgpuDeviceDestroy(dev2);
  for (int i = 0; i < 5; i++) {
    wgpuInstanceProcessEvents(inst);
    sleep_ms(10);
  }
  CHECK_EQ(atomic_load(&lost2.calls), 0); /* only WaitAny delivers it */
  CHECK_EQ(mu_wait(inst, lf), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&lost2.calls), 1);
  CHECK_EQ(atomic_load(&lost2.reason), WGPUDeviceLostReason_Destroyed);
  CHECK(lost2.pointee == dev2);
  CHECK_EQ(mu_wait(inst, lf), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&lost2.calls), 1);
  wgpuDeviceRelease(dev2);
  wgpuAdapterRelease(a2);

  wgpuInstanceRelease(inst);
  /* The instance release does not call them again (they are done). */
  CHECK_EQ(atomic_load(&lost.calls), 1);
  CHECK_EQ(atomic_load(&lost2.calls), 1);
  return test_finish();
}
