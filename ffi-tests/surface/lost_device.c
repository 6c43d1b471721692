/* A configured surface whose device is lost hands out invalid textures with
 * SuccessOptimal, and Present succeeds; a frame acquired before the loss can
 * still be presented, unconfigured and released without a crash; configuring
 * with a lost device reports nothing (errors of a lost device are dropped),
 * is logged, and leaves the surface unconfigured. */
#include "surface_util.h"

int main(void) {
  XWin w;
  int skip = xwin_open(&w, 160, 120);
  if (skip) return skip;
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUSurface surface = surface_from_xlib(ctx.instance, &w);
  REQUIRE(surface != NULL);
  WGPUTextureFormat format = su_preferred_format(surface, ctx.adapter);
  REQUIRE(format != WGPUTextureFormat_Undefined);
  WGPUSurfaceConfiguration config = su_config(ctx.device, format, 160, 120);
  wgpuSurfaceConfigure(surface, &config);

  /* A frame is out when the device is destroyed. */
  WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
  wgpuSurfaceGetCurrentTexture(surface, &st);
  CHECK(su_success(st.status));
  REQUIRE(st.texture != NULL);
  clear_texture(&ctx, st.texture, (WGPUColor){1, 0, 0, 1});
  wgpuDeviceDestroy(ctx.device);
  CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Success);
  /* The texture still answers its getters. */
  CHECK_EQ(wgpuTextureGetWidth(st.texture), 160);

  /* After the loss: invalid textures, SuccessOptimal, Present Success. */
  for (int i = 0; i < 3; i++) {
    WGPUSurfaceTexture lost = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(surface, &lost);
    CHECK_EQ(lost.status, WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal);
    CHECK(lost.texture != NULL);
    if (lost.texture) {
      CHECK_EQ(wgpuTextureGetWidth(lost.texture), 160);
      CHECK_EQ(wgpuTextureGetHeight(lost.texture), 120);
      clear_texture(&ctx, lost.texture, (WGPUColor){0, 1, 0, 1});
      wgpuTextureRelease(lost.texture);
    }
    CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Success);
  }
  /* The frame from before the loss goes after its surface was replaced. */
  wgpuTextureRelease(st.texture);

  /* Configuring with the lost device: no error reported, unconfigured. */
  wgpuSurfaceConfigure(surface, &config);
  WGPUSurfaceTexture after = WGPU_SURFACE_TEXTURE_INIT;
  wgpuSurfaceGetCurrentTexture(surface, &after);
  CHECK_EQ(after.status, WGPUSurfaceGetCurrentTextureStatus_Error);
  CHECK(after.texture == NULL);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  /* The surface works with a new device. */
  WGPUAdapter adapter2 = NULL;
  WGPUDevice device2 = su_second_device(ctx.instance, &adapter2);
  REQUIRE(device2 != NULL);
  config.device = device2;
  wgpuSurfaceConfigure(surface, &config);
  WGPUSurfaceTexture fresh = WGPU_SURFACE_TEXTURE_INIT;
  wgpuSurfaceGetCurrentTexture(surface, &fresh);
  CHECK(su_success(fresh.status));
  CHECK(fresh.texture != NULL);
  /* Released with the frame still out. */
  wgpuSurfaceRelease(surface);
  if (fresh.texture) {
    CHECK_EQ(wgpuTextureGetWidth(fresh.texture), 160);
    wgpuTextureRelease(fresh.texture);
  }
  wgpuDeviceRelease(device2);
  wgpuAdapterRelease(adapter2);

  /* A frame out when the device is destroyed, then unconfigure and release
   * before the texture. */
  Ctx c2;
  REQUIRE(ctx_init(&c2) == 0);
  surface = surface_from_xlib(c2.instance, &w);
  config.device = c2.device;
  wgpuSurfaceConfigure(surface, &config);
  st = (WGPUSurfaceTexture)WGPU_SURFACE_TEXTURE_INIT;
  wgpuSurfaceGetCurrentTexture(surface, &st);
  CHECK(st.texture != NULL);
  wgpuDeviceDestroy(c2.device);
  wgpuSurfaceUnconfigure(surface);
  wgpuSurfaceRelease(surface);
  if (st.texture) wgpuTextureRelease(st.texture);
  CHECK_EQ(c2.uncaptured_errors, 0);
  ctx_release(&c2);

  ctx_release(&ctx);
  xwin_close(&w);
  return test_finish();
}
