/* A surface on a Wayland toplevel (WGPUSurfaceSourceWaylandSurface, under the
 * headless weston of with_weston.sh), on the adapter the library gives for
 * it: creating it works (a surface that cannot be made fails the test: its
 * capabilities would be an Error); its capabilities have an 8-bit format,
 * RenderAttachment, Fifo and no Auto alpha mode; configured with CopySrc, it
 * gives one frame at a time of the configured size, format and usage; each
 * frame, cleared to its own colour, reads back as that colour in every texel,
 * and Present shows it: the compositor sends the frame callback of every
 * presented frame (FIFO waits for them, so a surface the compositor does not
 * map would hang here, which the watchdog turns into a failure), and the
 * compositor's screenshot shows the last one as a rectangle of the
 * configured size in its colour. Then the
 * same for every other present mode of the capabilities. On Vulkan the
 * loader's instance extensions include VK_KHR_wayland_surface. */
#include "wayland_util.h"

static const WGPUColor colors[] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 0, 1}, {0, 1, 1, 1}, {1, 0, 1, 1}};
#define NCOLORS ((int)(sizeof colors / sizeof colors[0]))

enum { WIDTH = 320, HEIGHT = 240 };

/* Presents `frames` frames of a configured surface, each cleared to the next
 * colour, read back when `read_back`, with a frame callback asked for each;
 * then waits for those callbacks. Adds to *presented and *texels_read. */
static void present_frames(Ctx *ctx, WlWin *w, WGPUSurface surface, const WGPUSurfaceConfiguration *config,
                           int frames, int read_back, int *presented, long *texels_read) {
  int callbacks_before = w->frames_done;
  int asked = 0;
  for (int i = 0; i < frames; i++) {
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(surface, &st);
    CHECK(wl_success(st.status));
    if (!st.texture) {
      CHECK(st.texture != NULL);
      return;
    }
    CHECK_EQ(wgpuTextureGetWidth(st.texture), config->width);
    CHECK_EQ(wgpuTextureGetHeight(st.texture), config->height);
    CHECK_EQ(wgpuTextureGetDepthOrArrayLayers(st.texture), 1);
    CHECK_EQ(wgpuTextureGetFormat(st.texture), config->format);
    CHECK_EQ(wgpuTextureGetUsage(st.texture), config->usage);
    CHECK_EQ(wgpuTextureGetDimension(st.texture), WGPUTextureDimension_2D);

    /* A second frame before presenting: Error, no texture. */
    WGPUSurfaceTexture again = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(surface, &again);
    CHECK_EQ(again.status, WGPUSurfaceGetCurrentTextureStatus_Error);
    CHECK(again.texture == NULL);

    WGPUColor color = colors[(*presented + i) % NCOLORS];
    clear_texture(ctx, st.texture, color);
    if (read_back) {
      uint8_t expected[4];
      wl_expected_bytes(config->format, color, expected);
      long wrong = wl_count_wrong_texels(ctx, st.texture, config->width, config->height, expected);
      CHECK_EQ(wrong, 0);
      if (wrong == 0) *texels_read += (long)config->width * config->height;
    }
    wlwin_request_frame(w);
    asked++;
    CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Success);
    wgpuTextureRelease(st.texture);
    CHECK(wlwin_pump(w) == 0);
  }
  *presented += frames;
  /* Every presented frame was shown: its frame callback came back. */
  int shown = wlwin_wait_frames(w, callbacks_before + asked, 5000 * harness_time_scale());
  if (!shown) printf("frame callbacks: %d of %d came back\n", w->frames_done - callbacks_before, asked);
  CHECK(shown);
}

int main(void) {
  start_watchdog(90);
  WlWin w;
  int opened = wlwin_open(&w, "surface.wayland_frames_clear_and_present");
  if (opened == SURFACE_SKIP) return SURFACE_SKIP;
  REQUIRE(opened == 0);
  Ctx ctx;
  WGPUSurface surface = NULL;
  int init = wl_ctx_init(&ctx, &surface, &w);
  if (init) printf("setting up failed at step %d (1 instance, 2 surface, 3 adapter, 4 device)\n", -init);
  REQUIRE(init == 0);
  WGPUBackendType backend = wl_backend(ctx.adapter);

  /* On Vulkan, the driver's WSI has Wayland (lavapipe: Mesa's wsi_wl). */
  if (backend == WGPUBackendType_Vulkan) {
    int has = wl_vulkan_has_instance_extension("VK_KHR_wayland_surface");
    printf("VK_KHR_wayland_surface: %s\n", has == 1   ? "an instance extension of the Vulkan driver"
                                            : has == 0 ? "NOT an instance extension of the Vulkan driver"
                                                       : "the Vulkan loader (libvulkan.so.1) cannot be loaded");
    CHECK_EQ(has, 1);
  }

  /* A surface the library could not make is an error surface, whose
   * capabilities are an Error: that fails here. */
  WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
  REQUIRE(wgpuSurfaceGetCapabilities(surface, ctx.adapter, &caps) == WGPUStatus_Success);
  CHECK(caps.formatCount > 0 && caps.formats != NULL);
  CHECK(caps.usages & WGPUTextureUsage_RenderAttachment);
  CHECK(WL_CONTAINS(caps.presentModes, caps.presentModeCount, WGPUPresentMode_Fifo));
  CHECK(caps.alphaModeCount > 0);
  CHECK(!WL_CONTAINS(caps.alphaModes, caps.alphaModeCount, WGPUCompositeAlphaMode_Auto));
  WGPUTextureFormat format = wl_8bit_format(&caps);
  CHECK(format != WGPUTextureFormat_Undefined);
  int can_copy = (caps.usages & WGPUTextureUsage_CopySrc) != 0;
  printf("capabilities: %zu formats (8-bit: %#x), usages %#llx, %zu present modes, %zu alpha modes\n",
         caps.formatCount, (unsigned)format, (unsigned long long)caps.usages, caps.presentModeCount,
         caps.alphaModeCount);
  /* lavapipe's surface images allow transfers from them: on Vulkan the
   * frames are read back, always. */
  if (backend == WGPUBackendType_Vulkan) CHECK(can_copy);
  if (!can_copy) {
    printf("NOTE: this adapter's surface textures do not allow CopySrc (backend type %d): frames are presented "
           "and their frame callbacks checked, but not read back\n",
           (int)backend);
  }
  WGPUPresentMode modes[8];
  size_t mode_count = caps.presentModeCount < 8 ? caps.presentModeCount : 8;
  for (size_t i = 0; i < mode_count; i++) modes[i] = caps.presentModes[i];
  wgpuSurfaceCapabilitiesFreeMembers(caps);
  if (format == WGPUTextureFormat_Undefined) return test_finish();

  WGPUSurfaceConfiguration config = WGPU_SURFACE_CONFIGURATION_INIT;
  config.device = ctx.device;
  config.format = format;
  config.width = WIDTH;
  config.height = HEIGHT;
  config.presentMode = WGPUPresentMode_Fifo;
  if (can_copy) config.usage |= WGPUTextureUsage_CopySrc;
  wgpuSurfaceConfigure(surface, &config);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  /* Present without a frame: Error. */
  CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Error);

  /* The presented texture is destroyed: using it is a validation error. */
  WGPUSurfaceTexture first = WGPU_SURFACE_TEXTURE_INIT;
  wgpuSurfaceGetCurrentTexture(surface, &first);
  REQUIRE(first.texture != NULL);
  clear_texture(&ctx, first.texture, colors[0]);
  CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Success);
  int before = ctx.uncaptured_errors;
  clear_texture(&ctx, first.texture, colors[0]);
  CHECK(ctx.uncaptured_errors > before);
  ctx.uncaptured_errors = 0;
  wgpuTextureRelease(first.texture);

  int presented = 0;
  long texels = 0;
  present_frames(&ctx, &w, surface, &config, 6, can_copy, &presented, &texels);
  printf("Fifo: %d frames presented and shown, %ld texels read back\n", presented, texels);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  /* The compositor shows the last frame: its screenshot has exactly a
   * WIDTH x HEIGHT rectangle of that frame's colour (wherever the shell
   * placed the window). This holds on every backend, CopySrc or not. */
  WGPUColor last = colors[(presented - 1) % NCOLORS];
  uint32_t rgb = (last.r > 0.5 ? 0xFF0000u : 0) | (last.g > 0.5 ? 0xFF00u : 0) | (last.b > 0.5 ? 0xFFu : 0);
  int32_t box[4] = {0, 0, -1, -1};
  long shown = wlwin_count_shown(&w, rgb, box);
  printf("screenshot: %ld pixels of %06x, in (%d, %d)-(%d, %d)\n", shown, (unsigned)rgb, box[0], box[1], box[2],
         box[3]);
  CHECK_EQ(shown, (long)WIDTH * HEIGHT);
  CHECK_EQ(box[2] - box[0] + 1, WIDTH);
  CHECK_EQ(box[3] - box[1] + 1, HEIGHT);

  /* Every other present mode the surface offers. */
  for (size_t i = 0; i < mode_count; i++) {
    if (modes[i] == WGPUPresentMode_Fifo) continue;
    config.presentMode = modes[i];
    wgpuSurfaceConfigure(surface, &config);
    CHECK_EQ(ctx.uncaptured_errors, 0);
    int p = presented;
    long t = texels;
    present_frames(&ctx, &w, surface, &config, 3, can_copy, &presented, &texels);
    const char *names[] = {"Undefined", "Fifo", "FifoRelaxed", "Immediate", "Mailbox"};
    printf("%s: %d frames presented and shown, %ld texels read back\n",
           (unsigned)modes[i] < 5 ? names[modes[i]] : "unknown present mode", presented - p, texels - t);
    CHECK_EQ(ctx.uncaptured_errors, 0);
  }
  printf("in all: %d frames presented (and the first), %ld texels read back\n", presented, texels);

  CHECK_EQ(w.closed, 0);
  wgpuSurfaceUnconfigure(surface);
  wgpuSurfaceRelease(surface);
  ctx_release(&ctx);
  wlwin_close(&w);
  return test_finish();
}
