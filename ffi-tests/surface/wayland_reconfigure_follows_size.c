/* A Wayland surface (under the headless weston of with_weston.sh) follows its
 * configuration's size: on Wayland the buffer gives the window its size, so
 * each Configure with a new size gives frames of that size, which read back
 * (CopySrc, where the capabilities allow it) as their clear colour in every
 * texel and are shown (their frame callbacks come back, and weston's
 * screenshot has a rectangle of the new size in that colour); a frame that is out
 * when reconfiguring is destroyed (no present for it, using it is an error)
 * and the next one has the new size; after Unconfigure there is no frame,
 * and configuring again gives frames again. */
#include "wayland_util.h"

/* Takes a frame, checks its size, clears it to `color`, reads it back when
 * `read_back`, presents it and waits for its frame callback. Adds the texels
 * read to *texels; returns 1 when the frame was presented. */
static int one_frame(Ctx *ctx, WlWin *w, WGPUSurface surface, const WGPUSurfaceConfiguration *config,
                     WGPUColor color, int read_back, long *texels) {
  WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
  wgpuSurfaceGetCurrentTexture(surface, &st);
  CHECK(wl_success(st.status));
  CHECK(st.texture != NULL);
  if (!st.texture) return 0;
  CHECK_EQ(wgpuTextureGetWidth(st.texture), config->width);
  CHECK_EQ(wgpuTextureGetHeight(st.texture), config->height);
  clear_texture(ctx, st.texture, color);
  if (read_back) {
    uint8_t expected[4];
    wl_expected_bytes(config->format, color, expected);
    long wrong = wl_count_wrong_texels(ctx, st.texture, config->width, config->height, expected);
    CHECK_EQ(wrong, 0);
    if (wrong == 0) *texels += (long)config->width * config->height;
  }
  int asked = w->frames_done + 1;
  wlwin_request_frame(w);
  WGPUStatus presented = wgpuSurfacePresent(surface);
  CHECK_EQ(presented, WGPUStatus_Success);
  wgpuTextureRelease(st.texture);
  int shown = wlwin_wait_frames(w, asked, 5000 * harness_time_scale());
  if (!shown) printf("the frame callback of a %ux%u frame did not come back\n", config->width, config->height);
  CHECK(shown);
  /* The compositor shows a rectangle of the new size in the frame's colour. */
  uint32_t rgb = (color.r > 0.5 ? 0xFF0000u : 0) | (color.g > 0.5 ? 0xFF00u : 0) | (color.b > 0.5 ? 0xFFu : 0);
  int32_t box[4] = {0, 0, -1, -1};
  long pixels = wlwin_count_shown(w, rgb, box);
  if (pixels != (long)config->width * config->height) {
    printf("screenshot: %ld pixels of %06x in (%d, %d)-(%d, %d), for a %ux%u frame\n", pixels, (unsigned)rgb, box[0],
           box[1], box[2], box[3], config->width, config->height);
  }
  CHECK_EQ(pixels, (long)config->width * config->height);
  CHECK_EQ(box[2] - box[0] + 1, config->width);
  CHECK_EQ(box[3] - box[1] + 1, config->height);
  return presented == WGPUStatus_Success;
}

int main(void) {
  start_watchdog(90);
  WlWin w;
  int opened = wlwin_open(&w, "surface.wayland_reconfigure_follows_size");
  if (opened == SURFACE_SKIP) return SURFACE_SKIP;
  REQUIRE(opened == 0);
  Ctx ctx;
  WGPUSurface surface = NULL;
  int init = wl_ctx_init(&ctx, &surface, &w);
  if (init) printf("setting up failed at step %d (1 instance, 2 surface, 3 adapter, 4 device)\n", -init);
  REQUIRE(init == 0);

  WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
  REQUIRE(wgpuSurfaceGetCapabilities(surface, ctx.adapter, &caps) == WGPUStatus_Success);
  WGPUTextureFormat format = wl_8bit_format(&caps);
  int can_copy = (caps.usages & WGPUTextureUsage_CopySrc) != 0;
  wgpuSurfaceCapabilitiesFreeMembers(caps);
  REQUIRE(format != WGPUTextureFormat_Undefined);
  if (wl_backend(ctx.adapter) == WGPUBackendType_Vulkan) CHECK(can_copy);
  if (!can_copy) printf("NOTE: the surface textures do not allow CopySrc here: frames are not read back\n");

  WGPUSurfaceConfiguration config = WGPU_SURFACE_CONFIGURATION_INIT;
  config.device = ctx.device;
  config.format = format;
  /* The largest size first: the shell places the window for the size it
   * first shows, and a window keeps its top-left corner as it changes size,
   * so every later size stays inside the output (and the screenshots). */
  config.width = 640;
  config.height = 480;
  config.presentMode = WGPUPresentMode_Fifo;
  if (can_copy) config.usage |= WGPUTextureUsage_CopySrc;
  wgpuSurfaceConfigure(surface, &config);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  int frames = 0;
  long texels = 0;
  frames += one_frame(&ctx, &w, surface, &config, (WGPUColor){0, 0, 1, 1}, can_copy, &texels);

  /* The window takes each new size, smaller and larger. */
  const uint32_t sizes[][2] = {{200, 150}, {64, 32}, {1, 1}, {333, 77}, {480, 360}};
  /* Pure colours that nothing else on weston's screen has (no white or black). */
  const WGPUColor colors[] = {{0, 1, 0, 1}, {1, 0, 0, 1}, {1, 1, 0, 1}, {1, 0, 1, 1}, {0, 1, 1, 1}};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    config.width = sizes[i][0];
    config.height = sizes[i][1];
    wgpuSurfaceConfigure(surface, &config);
    CHECK_EQ(ctx.uncaptured_errors, 0);
    for (int f = 0; f < 2; f++) frames += one_frame(&ctx, &w, surface, &config, colors[i], can_copy, &texels);
  }
  CHECK_EQ(ctx.uncaptured_errors, 0);

  /* Reconfiguring while a frame is out: that frame is destroyed (no present
   * for it, using it is an error) and the next frame has the new size. */
  WGPUSurfaceTexture out = WGPU_SURFACE_TEXTURE_INIT;
  wgpuSurfaceGetCurrentTexture(surface, &out);
  REQUIRE(out.texture != NULL);
  config.width = 100;
  config.height = 100;
  wgpuSurfaceConfigure(surface, &config);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Error);
  clear_texture(&ctx, out.texture, (WGPUColor){1, 0, 0, 1});
  CHECK(ctx.uncaptured_errors > 0);
  ctx.uncaptured_errors = 0;
  wgpuTextureRelease(out.texture);
  frames += one_frame(&ctx, &w, surface, &config, (WGPUColor){1, 1, 0, 1}, can_copy, &texels);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  /* Unconfigured: no frame. Configured again: frames again. */
  wgpuSurfaceUnconfigure(surface);
  WGPUSurfaceTexture none = WGPU_SURFACE_TEXTURE_INIT;
  wgpuSurfaceGetCurrentTexture(surface, &none);
  CHECK(!wl_success(none.status));
  CHECK(none.texture == NULL);
  config.width = 256;
  config.height = 128;
  wgpuSurfaceConfigure(surface, &config);
  frames += one_frame(&ctx, &w, surface, &config, (WGPUColor){1, 0, 1, 1}, can_copy, &texels);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  printf("%d frames presented and shown at %zu sizes, %ld texels read back\n", frames,
         sizeof sizes / sizeof sizes[0] + 3, texels);
  CHECK_EQ(frames, 13);

  wgpuSurfaceUnconfigure(surface);
  wgpuSurfaceRelease(surface);
  ctx_release(&ctx);
  wlwin_close(&w);
  return test_finish();
}
