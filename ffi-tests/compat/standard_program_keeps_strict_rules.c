/* Rule (DECISIONS "Selecting wgpu-native compatibility"): a program that
 * uses webgpu.h alone, loaded as libwgpu_shim, keeps the standard's rules:
 * mode 0 is refused (the callback runs once, inside the call, with Error),
 * GetMappedRange on a read
 * mapping and overlapping write ranges give NULL, an adapter makes one
 * device, integer inter-stage I/O needs @interpolate(flat), errors are not
 * in wgpu-native's form, and releasing the device calls its lost callback
 * with Destroyed. */
#include "../compat/compat_util.h"
#include "harness.h"

int main(void) {
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  CuState s;
  memset(&s, 0, sizeof s);

  /* Mode 0 is refused: Error inside the call, and the null future. */
  WGPUFuture fa = cu_request_adapter(ctx.instance, &s);
  CHECK(fa.id == 0);
  CHECK_EQ(s.adapter_calls, 1);
  CHECK(s.adapter == NULL);
  wgpuInstanceProcessEvents(ctx.instance);
  CHECK_EQ(s.adapter_calls, 1);

  /* ctx's adapter already made a device. */
  WGPURequestDeviceCallbackInfo cb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  cb.mode = WGPUCallbackMode_WaitAnyOnly;
  cb.callback = cu_on_device;
  cb.userdata1 = &s;
  wait_one(ctx.instance, wgpuAdapterRequestDevice(ctx.adapter, NULL, cb));
  CHECK_EQ(s.device_calls, 1);
  CHECK(s.device == NULL);

  WGPUBuffer buffer = cu_read_buffer(ctx.device, ctx.queue);
  /* Mode 0: Error inside the call (the null future), and the buffer stays
   * Unmapped. */
  CHECK(cu_map_read(buffer, &s).id == 0);
  CHECK_EQ(s.map_calls, 1);
  CHECK_EQ(s.map_status, WGPUMapAsyncStatus_Error);
  CHECK_EQ(wgpuBufferGetMapState(buffer), WGPUBufferMapState_Unmapped);
  WGPUBufferMapCallbackInfo mcb = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  mcb.mode = WGPUCallbackMode_WaitAnyOnly;
  mcb.callback = cu_on_map;
  mcb.userdata1 = &s;
  wait_one(ctx.instance, wgpuBufferMapAsync(buffer, WGPUMapMode_Read, 0, 16, mcb));
  CHECK_EQ(s.map_status, WGPUMapAsyncStatus_Success);
  CHECK(wgpuBufferGetMappedRange(buffer, 0, 16) == NULL);
  CHECK(wgpuBufferGetConstMappedRange(buffer, 0, 16) != NULL);
  wgpuBufferUnmap(buffer);

  WGPUBufferDescriptor wd = WGPU_BUFFER_DESCRIPTOR_INIT;
  wd.size = 64;
  wd.usage = WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc;
  wd.mappedAtCreation = 1;
  WGPUBuffer upload = wgpuDeviceCreateBuffer(ctx.device, &wd);
  CHECK(wgpuBufferGetMappedRange(upload, 0, 64) != NULL);
  CHECK(wgpuBufferGetMappedRange(upload, 8, 16) == NULL);
  wgpuBufferUnmap(upload);

  int before = ctx.uncaptured_errors;
  WGPURenderPipeline pipeline = cu_integer_io_pipeline(ctx.device);
  CHECK(ctx.uncaptured_errors > before);
  CHECK(strstr(ctx.last_error, "Caused by:") == NULL);
  if (pipeline) wgpuRenderPipelineRelease(pipeline);

  wgpuBufferRelease(upload);
  wgpuBufferRelease(buffer);
  wgpuQueueRelease(ctx.queue);
  ctx.queue = NULL;
  wgpuDeviceRelease(ctx.device);
  ctx.device = NULL;
  wgpuInstanceProcessEvents(ctx.instance);
  CHECK_EQ(ctx.lost_calls, 1);
  CHECK_EQ(ctx.lost_reason, WGPUDeviceLostReason_Destroyed);
  ctx_release(&ctx);
  return test_finish();
}
