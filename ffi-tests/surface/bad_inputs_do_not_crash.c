/* Bad input to the surface functions is logged or reported, never a crash:
 * CreateSurface gives NULL only for a NULL instance or descriptor, and an
 * error surface for a descriptor without exactly one usable source; an error
 * surface fails every later call; Configure reports a validation error for a
 * configuration the surface cannot take and leaves the surface unconfigured. */
#include "surface_util.h"

/* Whether `surface` behaves as an error surface. */
static void check_error_surface(Ctx *ctx, WGPUSurface surface) {
  CHECK(surface != NULL);
  if (!surface) return;
  WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
  CHECK_EQ(wgpuSurfaceGetCapabilities(surface, ctx->adapter, &caps), WGPUStatus_Error);
  CHECK(caps.formats == NULL);
  WGPUSurfaceConfiguration config = su_config(ctx->device, WGPUTextureFormat_BGRA8Unorm, 64, 64);
  int before = ctx->uncaptured_errors;
  wgpuSurfaceConfigure(surface, &config);
  CHECK_EQ(ctx->uncaptured_errors, before + 1);
  WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
  wgpuSurfaceGetCurrentTexture(surface, &st);
  CHECK_EQ(st.status, WGPUSurfaceGetCurrentTextureStatus_Error);
  CHECK(st.texture == NULL);
  CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Error);
  wgpuSurfaceUnconfigure(surface);
  wgpuSurfaceRelease(surface);
}

/* Configures `config` and checks that exactly one validation error came and
 * that the surface is unconfigured afterwards. */
static void check_config_rejected(Ctx *ctx, WGPUSurface surface, const WGPUSurfaceConfiguration *config,
                                  const char *what) {
  int before = ctx->uncaptured_errors;
  wgpuSurfaceConfigure(surface, config);
  if (ctx->uncaptured_errors != before + 1) fprintf(stderr, "not rejected: %s\n", what);
  CHECK_EQ(ctx->uncaptured_errors, before + 1);
  CHECK_EQ(ctx->last_error_type, WGPUErrorType_Validation);
  WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
  wgpuSurfaceGetCurrentTexture(surface, &st);
  CHECK_EQ(st.status, WGPUSurfaceGetCurrentTextureStatus_Error);
  CHECK(st.texture == NULL);
}

int main(void) {
  XWin w;
  int skip = xwin_open(&w, 128, 128);
  if (skip) return skip;
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  WGPUSurfaceSourceXlibWindow xlib = WGPU_SURFACE_SOURCE_XLIB_WINDOW_INIT;
  xlib.display = w.display;
  xlib.window = (uint64_t)w.window;
  WGPUSurfaceDescriptor desc = WGPU_SURFACE_DESCRIPTOR_INIT;

  /* NULL instance or descriptor: NULL. */
  desc.nextInChain = &xlib.chain;
  CHECK(wgpuInstanceCreateSurface(NULL, &desc) == NULL);
  CHECK(wgpuInstanceCreateSurface(ctx.instance, NULL) == NULL);

  /* No source. */
  desc.nextInChain = NULL;
  check_error_surface(&ctx, wgpuInstanceCreateSurface(ctx.instance, &desc));
  /* Two sources. */
  int screen = 0;
  xcb_connection_t *connection = xcb_connect(NULL, &screen);
  WGPUSurfaceSourceXCBWindow xcb = WGPU_SURFACE_SOURCE_XCB_WINDOW_INIT;
  xcb.connection = connection;
  xcb.window = (uint32_t)w.window;
  xlib.chain.next = &xcb.chain;
  desc.nextInChain = &xlib.chain;
  check_error_surface(&ctx, wgpuInstanceCreateSurface(ctx.instance, &desc));
  xlib.chain.next = NULL;
  /* The same source twice. */
  WGPUSurfaceSourceXlibWindow twice = xlib;
  xlib.chain.next = &twice.chain;
  check_error_surface(&ctx, wgpuInstanceCreateSurface(ctx.instance, &desc));
  xlib.chain.next = NULL;
  /* An unknown sType in the chain. */
  WGPUChainedStruct unknown = {NULL, (WGPUSType)0x7ABC0001};
  xlib.chain.next = &unknown;
  check_error_surface(&ctx, wgpuInstanceCreateSurface(ctx.instance, &desc));
  xlib.chain.next = NULL;
  /* A source that names no window. */
  WGPUSurfaceSourceXlibWindow no_display = xlib;
  no_display.display = NULL;
  desc.nextInChain = &no_display.chain;
  check_error_surface(&ctx, wgpuInstanceCreateSurface(ctx.instance, &desc));
  WGPUSurfaceSourceXlibWindow no_window = xlib;
  no_window.window = 0;
  desc.nextInChain = &no_window.chain;
  check_error_surface(&ctx, wgpuInstanceCreateSurface(ctx.instance, &desc));
  /* Sources this build cannot present to. */
  WGPUSurfaceSourceMetalLayer metal = WGPU_SURFACE_SOURCE_METAL_LAYER_INIT;
  metal.layer = &metal;
  desc.nextInChain = &metal.chain;
  check_error_surface(&ctx, wgpuInstanceCreateSurface(ctx.instance, &desc));
  WGPUSurfaceSourceWindowsHWND hwnd = WGPU_SURFACE_SOURCE_WINDOWS_HWND_INIT;
  hwnd.hwnd = &hwnd;
  desc.nextInChain = &hwnd.chain;
  check_error_surface(&ctx, wgpuInstanceCreateSurface(ctx.instance, &desc));
  WGPUSurfaceSourceAndroidNativeWindow android = WGPU_SURFACE_SOURCE_ANDROID_NATIVE_WINDOW_INIT;
  android.window = &android;
  desc.nextInChain = &android.chain;
  check_error_surface(&ctx, wgpuInstanceCreateSurface(ctx.instance, &desc));

  /* Each error surface above got one validation error from Configure. */
  ctx.uncaptured_errors = 0;

  /* NULL handles and pointers. */
  desc.nextInChain = &xlib.chain;
  WGPUSurface surface = wgpuInstanceCreateSurface(ctx.instance, &desc);
  REQUIRE(surface != NULL);
  WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
  CHECK_EQ(wgpuSurfaceGetCapabilities(NULL, ctx.adapter, &caps), WGPUStatus_Error);
  CHECK_EQ(wgpuSurfaceGetCapabilities(surface, NULL, &caps), WGPUStatus_Error);
  CHECK_EQ(wgpuSurfaceGetCapabilities(surface, ctx.adapter, NULL), WGPUStatus_Error);
  /* An unknown chain on the output: Error, the output untouched. */
  WGPUChainedStruct out_chain = {NULL, (WGPUSType)0x7ABC0002};
  caps.nextInChain = &out_chain;
  CHECK_EQ(wgpuSurfaceGetCapabilities(surface, ctx.adapter, &caps), WGPUStatus_Error);
  CHECK(caps.formats == NULL && caps.formatCount == 0 && caps.usages == 0);
  caps.nextInChain = NULL;
  wgpuSurfaceConfigure(NULL, NULL);
  wgpuSurfaceConfigure(surface, NULL);
  wgpuSurfaceGetCurrentTexture(NULL, NULL);
  wgpuSurfaceGetCurrentTexture(surface, NULL);
  CHECK_EQ(wgpuSurfacePresent(NULL), WGPUStatus_Error);
  wgpuSurfaceUnconfigure(NULL);
  wgpuSurfaceSetLabel(NULL, sv("x"));
  wgpuSurfaceAddRef(NULL);
  wgpuSurfaceRelease(NULL);
  /* A handle of another type. */
  wgpuSurfaceUnconfigure((WGPUSurface)ctx.device);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  /* An unknown chain on the frame output: Error. */
  WGPUTextureFormat format = su_preferred_format(surface, ctx.adapter);
  REQUIRE(format != WGPUTextureFormat_Undefined);
  WGPUSurfaceConfiguration good = su_config(ctx.device, format, 128, 128);
  wgpuSurfaceConfigure(surface, &good);
  WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
  st.nextInChain = &out_chain;
  wgpuSurfaceGetCurrentTexture(surface, &st);
  CHECK_EQ(st.status, WGPUSurfaceGetCurrentTextureStatus_Error);
  CHECK(st.texture == NULL);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  /* Configurations the surface cannot take: one validation error each, and
   * the surface is left unconfigured. */
  WGPUSurfaceConfiguration bad = good;
  bad.format = WGPUTextureFormat_R8Unorm;
  check_config_rejected(&ctx, surface, &bad, "format not supported");
  bad = good;
  bad.format = WGPUTextureFormat_Undefined;
  check_config_rejected(&ctx, surface, &bad, "format Undefined");
  bad = good;
  bad.format = (WGPUTextureFormat)0x7FFF0000;
  check_config_rejected(&ctx, surface, &bad, "format unknown");
  bad = good;
  bad.width = 0;
  check_config_rejected(&ctx, surface, &bad, "zero width");
  bad = good;
  bad.height = 0;
  check_config_rejected(&ctx, surface, &bad, "zero height");
  bad = good;
  bad.width = 1u << 20;
  check_config_rejected(&ctx, surface, &bad, "too wide");
  bad = good;
  bad.usage = WGPUTextureUsage_None;
  check_config_rejected(&ctx, surface, &bad, "no usage");
  bad = good;
  bad.usage = WGPUTextureUsage_RenderAttachment | ((WGPUTextureUsage)1 << 40);
  check_config_rejected(&ctx, surface, &bad, "unknown usage bit");
  bad = good;
  bad.presentMode = (WGPUPresentMode)0x1234;
  check_config_rejected(&ctx, surface, &bad, "unknown present mode");
  bad = good;
  bad.alphaMode = (WGPUCompositeAlphaMode)0x1234;
  check_config_rejected(&ctx, surface, &bad, "unknown alpha mode");
  bad = good;
  WGPUTextureFormat view_format = WGPUTextureFormat_RG8Unorm;
  bad.viewFormatCount = 1;
  bad.viewFormats = &view_format;
  check_config_rejected(&ctx, surface, &bad, "view format of another kind");
  bad = good;
  bad.nextInChain = &out_chain;
  check_config_rejected(&ctx, surface, &bad, "unknown chain");

  /* A present mode or alpha mode the surface does not list, if any. */
  wgpuSurfaceGetCapabilities(surface, ctx.adapter, &caps);
  const WGPUPresentMode modes[] = {WGPUPresentMode_Fifo, WGPUPresentMode_FifoRelaxed, WGPUPresentMode_Immediate,
                                   WGPUPresentMode_Mailbox};
  for (size_t i = 0; i < 4; i++) {
    if (SU_CONTAINS(caps.presentModes, caps.presentModeCount, modes[i])) continue;
    bad = good;
    bad.presentMode = modes[i];
    check_config_rejected(&ctx, surface, &bad, "present mode not listed");
  }
  const WGPUCompositeAlphaMode alphas[] = {WGPUCompositeAlphaMode_Opaque, WGPUCompositeAlphaMode_Premultiplied,
                                          WGPUCompositeAlphaMode_Unpremultiplied, WGPUCompositeAlphaMode_Inherit};
  for (size_t i = 0; i < 4; i++) {
    if (SU_CONTAINS(caps.alphaModes, caps.alphaModeCount, alphas[i])) continue;
    bad = good;
    bad.alphaMode = alphas[i];
    check_config_rejected(&ctx, surface, &bad, "alpha mode not listed");
  }
  wgpuSurfaceCapabilitiesFreeMembers(caps);

  /* The sRGB twin as a view format, present modes and alpha modes that are
   * listed, and the Auto alpha mode are accepted. */
  WGPUSurfaceConfiguration fine = good;
  WGPUTextureFormat twin = format == WGPUTextureFormat_BGRA8Unorm ? WGPUTextureFormat_BGRA8UnormSrgb
                           : format == WGPUTextureFormat_BGRA8UnormSrgb ? WGPUTextureFormat_BGRA8Unorm
                                                                        : format;
  fine.viewFormatCount = 1;
  fine.viewFormats = &twin;
  fine.alphaMode = WGPUCompositeAlphaMode_Auto;
  fine.presentMode = WGPUPresentMode_Undefined;
  int before = ctx.uncaptured_errors;
  wgpuSurfaceConfigure(surface, &fine);
  CHECK_EQ(ctx.uncaptured_errors, before);
  st = (WGPUSurfaceTexture)WGPU_SURFACE_TEXTURE_INIT;
  wgpuSurfaceGetCurrentTexture(surface, &st);
  CHECK(su_success(st.status));
  if (st.texture) {
    /* A view in the sRGB twin format works. */
    WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
    vd.format = twin;
    WGPUTextureView view = wgpuTextureCreateView(st.texture, &vd);
    CHECK(view != NULL);
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(st.texture);
  }
  CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Success);
  CHECK_EQ(ctx.uncaptured_errors, before);
  st = (WGPUSurfaceTexture)WGPU_SURFACE_TEXTURE_INIT;

  /* A NULL device: logged, the surface is unconfigured, nothing reported. */
  WGPUSurfaceConfiguration no_device = good;
  no_device.device = NULL;
  before = ctx.uncaptured_errors;
  wgpuSurfaceConfigure(surface, &no_device);
  CHECK_EQ(ctx.uncaptured_errors, before);
  wgpuSurfaceGetCurrentTexture(surface, &st);
  CHECK_EQ(st.status, WGPUSurfaceGetCurrentTextureStatus_Error);

  /* An adapter or device of another instance. */
  Ctx other;
  REQUIRE(ctx_init(&other) == 0);
  CHECK_EQ(wgpuSurfaceGetCapabilities(surface, other.adapter, &caps), WGPUStatus_Error);
  WGPUSurfaceConfiguration foreign = good;
  foreign.device = other.device;
  wgpuSurfaceConfigure(surface, &foreign);
  CHECK_EQ(other.uncaptured_errors, 1);
  ctx_release(&other);

  wgpuSurfaceRelease(surface);
  xcb_disconnect(connection);
  ctx_release(&ctx);
  xwin_close(&w);
  return test_finish();
}
