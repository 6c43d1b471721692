/* Rule (DECISIONS "Selecting wgpu-native compatibility"; WGPU_NATIVE
 * "wgpu-native compatibility"): a program written for wgpu-native, which calls a wgpu.h
 * function first (wgpuSetLogLevel, as wgpu-native's examples do), runs as it
 * does on wgpu-native v29:
 * - callback infos left at their INIT value (mode 0) are accepted: adapter
 *   and device requests call back inside the call, a map and a work-done
 *   call back inside wgpuDevicePoll / wgpuInstanceProcessEvents;
 * - wgpuBufferGetMappedRange works on a read mapping (the right bytes), and
 *   overlapping ranges of a write mapping are handed out;
 * - an adapter makes a second device;
 * - errors read "Validation Error\n\nCaused by:\n  In wgpuX, label = 'L'\n";
 * - integer inter-stage I/O without @interpolate(flat) and a render bundle
 *   encoder with no attachment are accepted;
 * - required limits are taken as given (maxBufferSize 100 gives 100, where
 *   the standard gives the default);
 * - releasing a device does not call its lost callback. */
#include <webgpu/wgpu.h>

#include "compat_util.h"
#include "harness.h"

int main(void) {
  wgpuSetLogLevel(WGPULogLevel_Warn);
  WGPUInstance instance = wgpuCreateInstance(NULL);
  REQUIRE(instance != NULL);

  CuState s;
  memset(&s, 0, sizeof s);
  WGPUFuture fa = cu_request_adapter(instance, &s);
  CHECK(fa.id != 0);
  CHECK_EQ(s.adapter_calls, 1); /* inside the call */
  REQUIRE(s.adapter != NULL);

  WGPUFuture fd = cu_request_device(s.adapter, &s);
  CHECK(fd.id != 0);
  CHECK_EQ(s.device_calls, 1);
  REQUIRE(s.device != NULL);
  WGPUDevice device = s.device;
  WGPUQueue queue = wgpuDeviceGetQueue(device);

  /* A second device from the same adapter. */
  CuState s2;
  memset(&s2, 0, sizeof s2);
  cu_request_device(s.adapter, &s2);
  CHECK_EQ(s2.device_calls, 1);
  CHECK(s2.device != NULL);
  if (s2.device) wgpuDeviceRelease(s2.device);
  CHECK_EQ(s2.lost_calls, 0);

  /* Required limits as given. */
  {
    WGPULimits want = WGPU_LIMITS_INIT;
    want.maxBufferSize = 100;
    WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
    dd.requiredLimits = &want;
    CuState s3;
    memset(&s3, 0, sizeof s3);
    WGPURequestDeviceCallbackInfo cb3 = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
    cb3.callback = cu_on_device;
    cb3.userdata1 = &s3;
    wgpuAdapterRequestDevice(s.adapter, &dd, cb3);
    CHECK(s3.device != NULL);
    if (s3.device) {
      WGPULimits got = WGPU_LIMITS_INIT;
      CHECK_EQ(wgpuDeviceGetLimits(s3.device, &got), WGPUStatus_Success);
      CHECK_EQ(got.maxBufferSize, 100);
      wgpuDeviceRelease(s3.device);
    }
  }

  /* Map (mode 0): called back in wgpuDevicePoll, read through the mutable
   * getter. */
  WGPUBuffer buffer = cu_read_buffer(device, queue);
  WGPUFuture fm = cu_map_read(buffer, &s);
  CHECK(fm.id != 0);
  for (int i = 0; i < 1000 && s.map_calls == 0; i++) wgpuDevicePoll(device, 1, NULL);
  CHECK_EQ(s.map_calls, 1);
  CHECK_EQ(s.map_status, WGPUMapAsyncStatus_Success);
  const uint32_t *words = (const uint32_t *)wgpuBufferGetMappedRange(buffer, 0, 16);
  CHECK(words != NULL);
  if (words) CHECK(words[0] == 1 && words[1] == 2 && words[2] == 3 && words[3] == 4);
  wgpuBufferUnmap(buffer);

  /* Overlapping ranges of a write mapping. */
  WGPUBufferDescriptor wd = WGPU_BUFFER_DESCRIPTOR_INIT;
  wd.size = 64;
  wd.usage = WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc;
  wd.mappedAtCreation = 1;
  WGPUBuffer upload = wgpuDeviceCreateBuffer(device, &wd);
  void *a = wgpuBufferGetMappedRange(upload, 0, 64);
  void *b = wgpuBufferGetMappedRange(upload, 8, 16);
  void *c = wgpuBufferGetMappedRange(upload, 8, 16);
  CHECK(a != NULL && b != NULL && c != NULL);
  if (a && b) CHECK((char *)b == (char *)a + 8);
  wgpuBufferUnmap(upload);

  /* Work done (mode 0): called back in ProcessEvents. */
  wgpuQueueSubmit(queue, 0, NULL);
  cu_work_done(queue, &s);
  for (int i = 0; i < 1000 && s.done_calls == 0; i++) {
    wgpuDevicePoll(device, 1, NULL);
    wgpuInstanceProcessEvents(instance);
  }
  CHECK_EQ(s.done_calls, 1);

  /* wgpu-native's error text. */
  WGPUBufferDescriptor bad = WGPU_BUFFER_DESCRIPTOR_INIT;
  bad.label = (WGPUStringView){"bad", WGPU_STRLEN};
  bad.size = 4;
  bad.usage = 0;
  WGPUBuffer invalid = wgpuDeviceCreateBuffer(device, &bad);
  CHECK_EQ(s.error_calls, 1);
  const char *head = "Validation Error\n\nCaused by:\n  In wgpuDeviceCreateBuffer, label = 'bad'\n    ";
  CHECK(strncmp(s.error, head, strlen(head)) == 0);
  if (invalid) wgpuBufferRelease(invalid);

  /* What naga 29 accepted. */
  int before = s.error_calls;
  WGPURenderPipeline pipeline = cu_integer_io_pipeline(device);
  CHECK(pipeline != NULL);
  CHECK_EQ(s.error_calls, before);
  if (pipeline) wgpuRenderPipelineRelease(pipeline);
  WGPURenderBundleEncoderDescriptor bed = WGPU_RENDER_BUNDLE_ENCODER_DESCRIPTOR_INIT;
  WGPURenderBundleEncoder bundle_encoder = wgpuDeviceCreateRenderBundleEncoder(device, &bed);
  WGPURenderBundle bundle = wgpuRenderBundleEncoderFinish(bundle_encoder, NULL);
  CHECK(bundle != NULL);
  CHECK_EQ(s.error_calls, before);
  wgpuRenderBundleRelease(bundle);
  wgpuRenderBundleEncoderRelease(bundle_encoder);

  wgpuBufferRelease(upload);
  wgpuBufferRelease(buffer);
  wgpuQueueRelease(queue);
  wgpuDeviceRelease(device);
  CHECK_EQ(s.lost_calls, 0);
  wgpuAdapterRelease(s.adapter);
  wgpuInstanceRelease(instance);
  CHECK_EQ(s.lost_calls, 0);
  return test_finish();
}
