/* Rule (webgpu.h §2 "Adapter lifetime", §8.4): an adapter "expires" after it
 * has created one device: a second RequestDevice on it completes with status
 * Error, a NULL device and a non-empty message -- unless the instance was
 * created with the MultipleDevicesPerAdapter feature, in which case any number
 * of devices can be created from one adapter and each works on its own. */
#include "../mapping/mapping_util.h"

static int device_works(WGPUInstance inst, WGPUDevice dev) {
  Ctx c;
  memset(&c, 0, sizeof c);
  c.instance = inst;
  c.device = dev;
  c.queue = wgpuDeviceGetQueue(dev);
  uint32_t v[4] = {1, 2, 3, 4}, got[4] = {0, 0, 0, 0};
  WGPUBuffer b = make_buffer(dev, 16, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 0);
  wgpuQueueWriteBuffer(c.queue, b, 0, v, 16);
  int ok = mu_read_buffer(&c, b, 0, got, 16) && memcmp(v, got, 16) == 0;
  wgpuBufferRelease(b);
  wgpuQueueRelease(c.queue);
  return ok;
}

int main(void) {
  start_watchdog(60);
  DeviceRequest req;

  /* --- Without MultipleDevicesPerAdapter. --- */
  WGPUInstance inst = mu_create_instance(0);
  REQUIRE(inst != NULL);
  WGPUAdapter a = mu_request_adapter(inst);
  REQUIRE(a != NULL);
  WGPUDevice d1 = mu_request_device(inst, a, NULL, &req);
  CHECK(d1 != NULL);
  CHECK_EQ(req.status, WGPURequestDeviceStatus_Success);
  WGPUDevice d2 = mu_request_device(inst, a, NULL, &req);
  CHECK(d2 == NULL);
  CHECK_EQ(req.calls, 1);
  CHECK_EQ(req.status, WGPURequestDeviceStatus_Error);
  CHECK(req.device == NULL);
  CHECK(req.msg_nonempty);
  /* Still expired after the first device is gone. */
  if (d1) {
    CHECK(device_works(inst, d1));
    wgpuDeviceRelease(d1);
  }
  WGPUDevice d3 = mu_request_device(inst, a, NULL, &req);
  CHECK(d3 == NULL);
  CHECK_EQ(req.status, WGPURequestDeviceStatus_Error);
  if (d3) wgpuDeviceRelease(d3);
  /* The adapter object itself stays usable for queries. */
  WGPULimits l = WGPU_LIMITS_INIT;
  CHECK_EQ(wgpuAdapterGetLimits(a, &l), WGPUStatus_Success);
  wgpuAdapterRelease(a);
  /* A new adapter from the same instance is fresh. */
  WGPUAdapter a2 = mu_request_adapter(inst);
  REQUIRE(a2 != NULL);
  WGPUDevice d4 = mu_request_device(inst, a2, NULL, &req);
  CHECK(d4 != NULL);
  if (d4) wgpuDeviceRelease(d4);
  wgpuAdapterRelease(a2);
  wgpuInstanceRelease(inst);

  /* --- With MultipleDevicesPerAdapter. --- */
  WGPUInstance minst = mu_create_instance(1);
  REQUIRE(minst != NULL);
  WGPUAdapter ma = mu_request_adapter(minst);
  REQUIRE(ma != NULL);
  WGPUDevice m[3] = {NULL, NULL, NULL};
  for (int i = 0; i < 3; i++) {
    m[i] = mu_request_device(minst, ma, NULL, &req);
    CHECK(m[i] != NULL);
    CHECK_EQ(req.status, WGPURequestDeviceStatus_Success);
    CHECK(req.msg_empty);
  }
  CHECK(m[0] != m[1] && m[1] != m[2]);
  for (int i = 0; i < 3; i++)
    if (m[i]) CHECK(device_works(minst, m[i]));
  /* Destroying one leaves the others working. */
  if (m[0]) wgpuDeviceDestroy(m[0]);
  if (m[1]) CHECK(device_works(minst, m[1]));
  for (int i = 0; i < 3; i++)
    if (m[i]) wgpuDeviceRelease(m[i]);
  wgpuAdapterRelease(ma);
  wgpuInstanceRelease(minst);
  return test_finish();
}
