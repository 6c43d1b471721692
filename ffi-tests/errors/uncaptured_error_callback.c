/* Rule (webgpu.h §6 "Uncaptured error callback", §12): an error no scope
 * captures goes to DeviceDescriptor.uncapturedErrorCallbackInfo's callback
 * with type Validation, a non-empty message, the device (non-owning pointer to
 * this device) and both userdata pointers; it fires once per error, every
 * time; a captured error does not reach it; and it never fires once the
 * device is lost (destroy the device, then cause errors: no call). */
#include "../mapping/mapping_util.h"

static int g_tag2;

int main(void) {
  start_watchdog(60);
  WGPUInstance inst = mu_create_instance(0);
  REQUIRE(inst != NULL);
  WGPUAdapter adapter = mu_request_adapter(inst);
  REQUIRE(adapter != NULL);

  ErrRecord err;
  mu_err_record_init(&err);
  LostRecord lost;
  mu_lost_record_init(&lost);
  WGPUDeviceDescriptor dd = mu_device_desc(WGPUCallbackMode_AllowSpontaneous, &lost, &err);
  dd.uncapturedErrorCallbackInfo.userdata2 = &g_tag2;
  DeviceRequest req;
  WGPUDevice device = mu_request_device(inst, adapter, &dd, &req);
  REQUIRE(device != NULL);
  CHECK(req.msg_empty); /* success: empty message */

  /* One error -> one call. */
  WGPUBuffer b1 = mu_bad_buffer(device);
  CHECK(mu_sleep_until(&err.calls, 1, 1000));
  sleep_ms(20);
  CHECK_EQ(atomic_load(&err.calls), 1);
  CHECK_EQ(atomic_load(&err.type), WGPUErrorType_Validation);
  CHECK(atomic_load(&err.msg_nonempty));
  CHECK(err.pointee == device);
  CHECK(err.userdata2 == &g_tag2);

  /* It fires again for each further error. */
  WGPUBuffer b2 = mu_bad_buffer(device);
  WGPUBuffer b3 = make_buffer(device, 16, WGPUBufferUsage_CopySrc | ((WGPUBufferUsage)1 << 33), 0);
  CHECK(mu_sleep_until(&err.calls, 3, 1000));
  sleep_ms(20);
  CHECK_EQ(atomic_load(&err.calls), 3);

  /* A captured error does not reach it. */
  wgpuDevicePushErrorScope(device, WGPUErrorFilter_Validation);
  WGPUBuffer b4 = mu_bad_buffer(device);
  CHECK_EQ(mu_pop_type_dev(inst, device), WGPUErrorType_Validation);
  sleep_ms(20);
  CHECK_EQ(atomic_load(&err.calls), 3);

  /* A valid call does not reach it. */
  WGPUBuffer ok = make_buffer(device, 16, WGPUBufferUsage_CopyDst, 0);
  sleep_ms(20);
  CHECK_EQ(atomic_load(&err.calls), 3);

  /* Device lost: no more calls, whatever happens. */
  wgpuDeviceDestroy(device);
  CHECK(mu_sleep_until(&lost.calls, 1, 5000));
  CHECK_EQ(atomic_load(&lost.reason), WGPUDeviceLostReason_Destroyed);
  int at_loss = atomic_load(&err.calls);
  CHECK_EQ(at_loss, 3);
  WGPUBuffer b5 = mu_bad_buffer(device);
  WGPUBuffer b6 = make_buffer(device, 6, WGPUBufferUsage_CopySrc, 1);
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(device, NULL);
  wgpuCommandEncoderCopyBufferToBuffer(enc, ok, 1, ok, 3, 5); /* invalid copy */
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  WGPUQueue q = wgpuDeviceGetQueue(device);
  wgpuQueueSubmit(q, 1, &cmd);
  wgpuQueueWriteBuffer(q, ok, 3, &g_tag2, 3); /* misaligned write */
  for (int i = 0; i < 10; i++) {
    wgpuInstanceProcessEvents(inst);
    sleep_ms(10);
  }
  CHECK_EQ(atomic_load(&err.calls), at_loss);

  wgpuQueueRelease(q);
  wgpuCommandBufferRelease(cmd);
  wgpuCommandEncoderRelease(enc);
  WGPUBuffer all[] = {b1, b2, b3, b4, b5, b6, ok};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (all[i]) wgpuBufferRelease(all[i]);
  wgpuDeviceRelease(device);
  sleep_ms(10);
  CHECK_EQ(atomic_load(&err.calls), at_loss);
  CHECK_EQ(atomic_load(&lost.calls), 1);
  wgpuAdapterRelease(adapter);
  wgpuInstanceRelease(inst);
  return test_finish();
}
