/* Configure replaces the configuration: frames follow the new size, the
 * frame that was out when reconfiguring is destroyed (the surface took its
 * image back), and a configuration on another device works too. */
#include "surface_util.h"

static WGPUTexture frame(WGPUSurface surface, WGPUSurfaceGetCurrentTextureStatus *status) {
  WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
  wgpuSurfaceGetCurrentTexture(surface, &st);
  *status = st.status;
  return st.texture;
}

int main(void) {
  XWin w;
  int skip = xwin_open(&w, 320, 240);
  if (skip) return skip;
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUSurface surface = surface_from_xlib(ctx.instance, &w);
  REQUIRE(surface != NULL);
  WGPUTextureFormat format = su_preferred_format(surface, ctx.adapter);
  REQUIRE(format != WGPUTextureFormat_Undefined);

  WGPUSurfaceConfiguration config = su_config(ctx.device, format, 320, 240);
  wgpuSurfaceConfigure(surface, &config);
  WGPUSurfaceGetCurrentTextureStatus status;
  WGPUTexture t = frame(surface, &status);
  REQUIRE(t != NULL);
  CHECK_EQ(wgpuTextureGetWidth(t), 320);
  clear_texture(&ctx, t, (WGPUColor){0, 0, 1, 1});
  CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Success);
  wgpuTextureRelease(t);

  /* The window grows; the surface is configured for the new size. */
  const uint32_t sizes[][2] = {{200, 150}, {640, 480}, {64, 32}};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    xwin_resize(&w, sizes[i][0], sizes[i][1]);
    config.width = sizes[i][0];
    config.height = sizes[i][1];
    wgpuSurfaceConfigure(surface, &config);
    for (int f = 0; f < 2; f++) {
      t = frame(surface, &status);
      CHECK(su_success(status));
      REQUIRE(t != NULL);
      CHECK_EQ(wgpuTextureGetWidth(t), sizes[i][0]);
      CHECK_EQ(wgpuTextureGetHeight(t), sizes[i][1]);
      clear_texture(&ctx, t, (WGPUColor){0, 1, 0, 1});
      CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Success);
      wgpuTextureRelease(t);
    }
  }
  CHECK_EQ(ctx.uncaptured_errors, 0);

  /* Reconfiguring while a frame is out: that frame is destroyed (no present
   * for it, using it is an error) and the next frame has the new size. */
  t = frame(surface, &status);
  REQUIRE(t != NULL);
  config.width = 100;
  config.height = 100;
  xwin_resize(&w, 100, 100);
  wgpuSurfaceConfigure(surface, &config);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Error);
  clear_texture(&ctx, t, (WGPUColor){1, 0, 0, 1});
  CHECK(ctx.uncaptured_errors > 0);
  ctx.uncaptured_errors = 0;
  wgpuTextureRelease(t);
  t = frame(surface, &status);
  REQUIRE(t != NULL);
  CHECK_EQ(wgpuTextureGetWidth(t), 100);
  clear_texture(&ctx, t, (WGPUColor){1, 1, 1, 1});
  CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Success);
  wgpuTextureRelease(t);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  /* Configuring for another device of the same instance: frames come from
   * that device; the first device is no longer referenced. */
  WGPUAdapter adapter2 = NULL;
  WGPUDevice device2 = su_second_device(ctx.instance, &adapter2);
  REQUIRE(device2 != NULL);
  WGPUQueue queue2 = wgpuDeviceGetQueue(device2);
  config.device = device2;
  wgpuSurfaceConfigure(surface, &config);
  t = frame(surface, &status);
  CHECK(su_success(status));
  if (t) {
    Ctx view = ctx;
    view.device = device2;
    view.queue = queue2;
    clear_texture(&view, t, (WGPUColor){0, 0, 0, 1});
    CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Success);
    wgpuTextureRelease(t);
  }
  CHECK_EQ(ctx.uncaptured_errors, 0);
  /* And back to the first one. */
  config.device = ctx.device;
  wgpuSurfaceConfigure(surface, &config);
  t = frame(surface, &status);
  CHECK(su_success(status));
  if (t) {
    clear_texture(&ctx, t, (WGPUColor){1, 0, 1, 1});
    CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Success);
    wgpuTextureRelease(t);
  }
  CHECK_EQ(ctx.uncaptured_errors, 0);

  /* Releasing the devices while the surface is configured, then the surface. */
  wgpuQueueRelease(queue2);
  wgpuDeviceRelease(device2);
  wgpuAdapterRelease(adapter2);
  wgpuSurfaceRelease(surface);

  ctx_release(&ctx);
  xwin_close(&w);
  return test_finish();
}
