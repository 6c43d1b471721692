/* A surface on an Xlib window: its capabilities are non-empty and freed;
 * configured, it gives one frame texture at a time (a real texture: view,
 * getters, render pass), which a clear render pass reaches and Present shows
 * in the window, for several frames; Present without a frame is an error. */
#include "surface_util.h"

int main(void) {
  XWin w;
  int skip = xwin_open(&w, 320, 240);
  if (skip) return skip;
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  /* Every surface function is reachable through GetProcAddress. */
  const char *procs[] = {"wgpuInstanceCreateSurface", "wgpuSurfaceConfigure", "wgpuSurfaceGetCapabilities",
                         "wgpuSurfaceGetCurrentTexture", "wgpuSurfacePresent", "wgpuSurfaceUnconfigure",
                         "wgpuSurfaceSetLabel", "wgpuSurfaceAddRef", "wgpuSurfaceRelease",
                         "wgpuSurfaceCapabilitiesFreeMembers"};
  for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++) CHECK(wgpuGetProcAddress(sv(procs[i])) != NULL);

  WGPUSurface surface = surface_from_xlib(ctx.instance, &w);
  REQUIRE(surface != NULL);
  wgpuSurfaceSetLabel(surface, sv("main window"));
  wgpuSurfaceAddRef(surface);
  wgpuSurfaceRelease(surface);

  WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
  REQUIRE(wgpuSurfaceGetCapabilities(surface, ctx.adapter, &caps) == WGPUStatus_Success);
  CHECK(caps.formatCount > 0 && caps.formats != NULL);
  CHECK(caps.usages & WGPUTextureUsage_RenderAttachment);
  CHECK(SU_CONTAINS(caps.presentModes, caps.presentModeCount, WGPUPresentMode_Fifo));
  CHECK(caps.alphaModeCount > 0);
  CHECK(!SU_CONTAINS(caps.alphaModes, caps.alphaModeCount, WGPUCompositeAlphaMode_Auto));
  WGPUTextureFormat format = caps.formatCount ? caps.formats[0] : WGPUTextureFormat_Undefined;
  int can_copy = (caps.usages & WGPUTextureUsage_CopySrc) != 0;
  wgpuSurfaceCapabilitiesFreeMembers(caps);
  /* Freeing what holds nothing is allowed. */
  WGPUSurfaceCapabilities empty = WGPU_SURFACE_CAPABILITIES_INIT;
  wgpuSurfaceCapabilitiesFreeMembers(empty);

  WGPUSurfaceConfiguration config = su_config(ctx.device, format, 320, 240);
  if (can_copy) config.usage |= WGPUTextureUsage_CopySrc;
  wgpuSurfaceConfigure(surface, &config);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  /* Present without a frame: Error. */
  CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Error);

  const WGPUColor colors[] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 0, 1}, {1, 0, 0, 1}};
  const unsigned long expected_rgb[] = {0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00, 0xFF0000};
  int is_bgra = format == WGPUTextureFormat_BGRA8Unorm || format == WGPUTextureFormat_BGRA8UnormSrgb;
  int is_8bit = is_bgra || format == WGPUTextureFormat_RGBA8Unorm || format == WGPUTextureFormat_RGBA8UnormSrgb;
  int frames = (int)(sizeof colors / sizeof colors[0]);
  for (int i = 0; i < frames; i++) {
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(surface, &st);
    CHECK(su_success(st.status));
    REQUIRE(st.texture != NULL);
    CHECK_EQ(wgpuTextureGetWidth(st.texture), 320);
    CHECK_EQ(wgpuTextureGetHeight(st.texture), 240);
    CHECK_EQ(wgpuTextureGetDepthOrArrayLayers(st.texture), 1);
    CHECK_EQ(wgpuTextureGetFormat(st.texture), format);
    CHECK_EQ(wgpuTextureGetUsage(st.texture), config.usage);
    CHECK_EQ(wgpuTextureGetMipLevelCount(st.texture), 1);
    CHECK_EQ(wgpuTextureGetSampleCount(st.texture), 1);
    CHECK_EQ(wgpuTextureGetDimension(st.texture), WGPUTextureDimension_2D);

    /* A second frame before presenting: Error, no texture. */
    WGPUSurfaceTexture again = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(surface, &again);
    CHECK_EQ(again.status, WGPUSurfaceGetCurrentTextureStatus_Error);
    CHECK(again.texture == NULL);

    clear_texture(&ctx, st.texture, colors[i]);
    if (can_copy && is_8bit) {
      uint8_t px[4] = {0};
      CHECK(read_texel_00(&ctx, st.texture, px));
      uint8_t r = is_bgra ? px[2] : px[0], g = px[1], b = is_bgra ? px[0] : px[2];
      unsigned long rgb = ((unsigned long)r << 16) | ((unsigned long)g << 8) | b;
      CHECK_EQ(rgb, expected_rgb[i]);
    }
    CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Success);
    /* The presented texture is destroyed: using it is a validation error. */
    if (i == 0) {
      int before = ctx.uncaptured_errors;
      clear_texture(&ctx, st.texture, colors[i]);
      CHECK(ctx.uncaptured_errors > before);
      ctx.uncaptured_errors = 0;
    }
    wgpuTextureRelease(st.texture);
  }
  CHECK_EQ(ctx.uncaptured_errors, 0);

  /* The last frame (red) reaches the window. Presentation may lag behind, so
   * poll the window for a while. */
  unsigned long pixel = 0;
  for (int tries = 0; tries < 100; tries++) {
    pixel = xwin_pixel(&w, 10, 10);
    if (pixel == 0xFF0000) break;
    sleep_ms(20);
  }
  CHECK_EQ(pixel, 0xFF0000);

  wgpuSurfaceUnconfigure(surface);
  wgpuSurfaceRelease(surface);
  ctx_release(&ctx);
  xwin_close(&w);
  return test_finish();
}
