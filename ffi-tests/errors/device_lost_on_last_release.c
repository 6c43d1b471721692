/* Rule (webgpu.h §2 "Device", §6, §12): releasing the last external reference
 * of a device that is not lost destroys it: the lost callback runs once with
 * reason Destroyed and a non-NULL `WGPUDevice const*` whose pointee is NULL.
 * The pointee is NULL also when the device was destroyed first but the
 * (WaitAnyOnly) lost callback had not run yet when the last ref went away.
 * An AddRef'd device is not destroyed by one Release. */
#include "../mapping/mapping_util.h"

int main(void) {
  start_watchdog(60);
  WGPUInstance inst = mu_create_instance(0);
  REQUIRE(inst != NULL);
  DeviceRequest req;

  /* --- AllowSpontaneous: last release. --- */
  {
    WGPUAdapter a = mu_request_adapter(inst);
    REQUIRE(a != NULL);
    LostRecord lost;
    mu_lost_record_init(&lost);
    WGPUDeviceDescriptor dd = mu_device_desc(WGPUCallbackMode_AllowSpontaneous, &lost, NULL);
    WGPUDevice dev = mu_request_device(inst, a, &dd, &req);
    REQUIRE(dev != NULL);
    WGPUFuture lf = wgpuDeviceGetLostFuture(dev);
    WGPUBuffer buf = make_buffer(dev, 16, WGPUBufferUsage_CopyDst, 0); /* a child keeps no external ref */

    wgpuDeviceAddRef(dev);
    wgpuDeviceRelease(dev); /* one ref left: nothing happens */
    sleep_ms(20);
    CHECK_EQ(atomic_load(&lost.calls), 0);

    wgpuDeviceRelease(dev); /* last */
    CHECK(mu_sleep_until(&lost.calls, 1, 5000));
    CHECK_EQ(mu_wait(inst, lf), WGPUWaitStatus_Success);
    CHECK_EQ(atomic_load(&lost.calls), 1);
    CHECK_EQ(atomic_load(&lost.reason), WGPUDeviceLostReason_Destroyed);
    CHECK(!atomic_load(&lost.ptr_null));
    CHECK(atomic_load(&lost.pointee_null));
    if (buf) wgpuBufferRelease(buf);
    wgpuAdapterRelease(a);
  }

  /* --- WaitAnyOnly: last release, then wait. --- */
  {
    WGPUAdapter a = mu_request_adapter(inst);
    REQUIRE(a != NULL);
    LostRecord lost;
    mu_lost_record_init(&lost);
    WGPUDeviceDescriptor dd = mu_device_desc(WGPUCallbackMode_WaitAnyOnly, &lost, NULL);
    WGPUDevice dev = mu_request_device(inst, a, &dd, &req);
    REQUIRE(dev != NULL);
    WGPUFuture lf = wgpuDeviceGetLostFuture(dev);
    wgpuDeviceRelease(dev);
    wgpuInstanceProcessEvents(inst);
    CHECK_EQ(atomic_load(&lost.calls), 0);
    CHECK_EQ(mu_wait(inst, lf), WGPUWaitStatus_Success);
    CHECK_EQ(atomic_load(&lost.calls), 1);
    CHECK_EQ(atomic_load(&lost.reason), WGPUDeviceLostReason_Destroyed);
    CHECK(!atomic_load(&lost.ptr_null));
    CHECK(atomic_load(&lost.pointee_null));
    wgpuAdapterRelease(a);
  }

  /* --- WaitAnyOnly: Destroy (future ready, not delivered), then last
   * release, then wait: the pointee is NULL now. --- */
  {
    WGPUAdapter a = mu_request_adapter(inst);
    REQUIRE(a != NULL);
    LostRecord lost;
    mu_lost_record_init(&lost);
    WGPUDeviceDescriptor dd = mu_device_desc(WGPUCallbackMode_WaitAnyOnly, &lost, NULL);
    WGPUDevice dev = mu_request_device(inst, a, &dd, &req);
    REQUIRE(dev != NULL);
    WGPUFuture lf = wgpuDeviceGetLostFuture(dev);
    wgpuDeviceDestroy(dev);
    wgpuDeviceRelease(dev);
    CHECK_EQ(mu_wait(inst, lf), WGPUWaitStatus_Success);
    CHECK_EQ(atomic_load(&lost.calls), 1);
    CHECK_EQ(atomic_load(&lost.reason), WGPUDeviceLostReason_Destroyed);
    CHECK(atomic_load(&lost.pointee_null));
    wgpuAdapterRelease(a);
  }

  /* --- Destroy, wait (delivered with the device), then release: the
   * callback does not run again. --- */
  {
    WGPUAdapter a = mu_request_adapter(inst);
    REQUIRE(a != NULL);
    LostRecord lost;
    mu_lost_record_init(&lost);
    WGPUDeviceDescriptor dd = mu_device_desc(WGPUCallbackMode_WaitAnyOnly, &lost, NULL);
    WGPUDevice dev = mu_request_device(inst, a, &dd, &req);
    REQUIRE(dev != NULL);
    WGPUFuture lf = wgpuDeviceGetLostFuture(dev);
    wgpuDeviceDestroy(dev);
    CHECK_EQ(mu_wait(inst, lf), WGPUWaitStatus_Success);
    CHECK(!atomic_load(&lost.pointee_null));
    CHECK(lost.pointee == dev);
    wgpuDeviceRelease(dev);
    CHECK_EQ(mu_wait(inst, lf), WGPUWaitStatus_Success);
    CHECK_EQ(atomic_load(&lost.calls), 1);
    wgpuAdapterRelease(a);
  }

  wgpuInstanceRelease(inst);
  return test_finish();
}
