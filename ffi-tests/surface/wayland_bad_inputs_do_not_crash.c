/* Bad Wayland sources give a clear error, never a crash: a
 * WGPUSurfaceSourceWaylandSurface with a NULL display, a NULL surface or
 * both gives an error surface (not NULL), whose creation is logged as an
 * error naming the NULL field, and which fails every later call; so does a
 * Wayland source chained with a second source. A good surface made after
 * them works (capabilities, one frame presented). */
#include "wayland_util.h"

#include <webgpu/wgpu.h>

typedef struct {
  int errors;
  char last[1024];
} LogState;

static void on_log(WGPULogLevel level, WGPUStringView message, void *userdata) {
  LogState *s = (LogState *)userdata;
  if (level != WGPULogLevel_Error) return;
  s->errors++;
  size_t n = sv_len(message);
  if (n >= sizeof s->last) n = sizeof s->last - 1;
  memcpy(s->last, message.data ? message.data : "", n);
  s->last[n] = 0;
  printf("log: %s\n", s->last);
}

/* Whether `surface` behaves as an error surface. */
static void check_error_surface(Ctx *ctx, WGPUSurface surface, WGPUTextureFormat format) {
  CHECK(surface != NULL);
  if (!surface) return;
  WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
  CHECK_EQ(wgpuSurfaceGetCapabilities(surface, ctx->adapter, &caps), WGPUStatus_Error);
  CHECK(caps.formats == NULL);
  WGPUSurfaceConfiguration config = WGPU_SURFACE_CONFIGURATION_INIT;
  config.device = ctx->device;
  config.format = format;
  config.width = 64;
  config.height = 64;
  int before = ctx->uncaptured_errors;
  wgpuSurfaceConfigure(surface, &config);
  CHECK_EQ(ctx->uncaptured_errors, before + 1);
  CHECK(strstr(ctx->last_error, "error surface") != NULL);
  WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
  wgpuSurfaceGetCurrentTexture(surface, &st);
  CHECK_EQ(st.status, WGPUSurfaceGetCurrentTextureStatus_Error);
  CHECK(st.texture == NULL);
  CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Error);
  wgpuSurfaceUnconfigure(surface);
  wgpuSurfaceRelease(surface);
}

/* Creates a surface from `src` (chained first) and checks that its creation
 * logged one error containing `needle` and that it is an error surface. */
static void check_rejected(Ctx *ctx, LogState *log, WGPUChainedStruct *src, const char *needle,
                           WGPUTextureFormat format) {
  WGPUSurfaceDescriptor desc = WGPU_SURFACE_DESCRIPTOR_INIT;
  desc.nextInChain = src;
  desc.label = sv("bad wayland surface");
  int before = log->errors;
  log->last[0] = 0;
  WGPUSurface surface = wgpuInstanceCreateSurface(ctx->instance, &desc);
  CHECK_EQ(log->errors, before + 1);
  int named = strstr(log->last, needle) != NULL;
  if (!named) printf("the error does not say \"%s\"\n", needle);
  CHECK(named);
  check_error_surface(ctx, surface, format);
}

int main(void) {
  start_watchdog(90);
  WlWin w;
  int opened = wlwin_open(&w, "surface.wayland_bad_inputs_do_not_crash");
  if (opened == SURFACE_SKIP) return SURFACE_SKIP;
  REQUIRE(opened == 0);
  LogState log;
  memset(&log, 0, sizeof log);
  wgpuSetLogLevel(WGPULogLevel_Warn);
  wgpuSetLogCallback(on_log, &log);

  Ctx ctx;
  WGPUSurface good = NULL;
  int init = wl_ctx_init(&ctx, &good, &w);
  if (init) printf("setting up failed at step %d (1 instance, 2 surface, 3 adapter, 4 device)\n", -init);
  REQUIRE(init == 0);
  CHECK_EQ(log.errors, 0);
  WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
  REQUIRE(wgpuSurfaceGetCapabilities(good, ctx.adapter, &caps) == WGPUStatus_Success);
  WGPUTextureFormat format = wl_8bit_format(&caps);
  wgpuSurfaceCapabilitiesFreeMembers(caps);
  REQUIRE(format != WGPUTextureFormat_Undefined);
  wgpuSurfaceRelease(good);

  /* NULL display, NULL surface, both. */
  WGPUSurfaceSourceWaylandSurface src = WGPU_SURFACE_SOURCE_WAYLAND_SURFACE_INIT;
  src.display = NULL;
  src.surface = w.surface;
  check_rejected(&ctx, &log, &src.chain, "WGPUSurfaceSourceWaylandSurface.display is NULL", format);
  src.display = w.display;
  src.surface = NULL;
  check_rejected(&ctx, &log, &src.chain, "WGPUSurfaceSourceWaylandSurface.surface is NULL", format);
  src.display = NULL;
  check_rejected(&ctx, &log, &src.chain, "WGPUSurfaceSourceWaylandSurface.", format);

  /* A good Wayland source with a second source chained: exactly one may be. */
  src.display = w.display;
  src.surface = w.surface;
  WGPUSurfaceSourceWaylandSurface twice = src;
  src.chain.next = &twice.chain;
  check_rejected(&ctx, &log, &src.chain, "twice", format);
  WGPUSurfaceSourceXlibWindow xlib = WGPU_SURFACE_SOURCE_XLIB_WINDOW_INIT;
  xlib.display = w.display; /* never used: the chain is refused first */
  xlib.window = 1;
  src.chain.next = &xlib.chain;
  check_rejected(&ctx, &log, &src.chain, "surface sources", format);
  src.chain.next = NULL;
  CHECK_EQ(ctx.lost_calls, 0);

  /* A good surface on the same wl_surface after all that: it works. */
  log.errors = 0;
  ctx.uncaptured_errors = 0;
  good = surface_from_wayland(ctx.instance, w.display, w.surface);
  REQUIRE(good != NULL);
  CHECK_EQ(log.errors, 0);
  caps = (WGPUSurfaceCapabilities)WGPU_SURFACE_CAPABILITIES_INIT;
  CHECK_EQ(wgpuSurfaceGetCapabilities(good, ctx.adapter, &caps), WGPUStatus_Success);
  wgpuSurfaceCapabilitiesFreeMembers(caps);
  WGPUSurfaceConfiguration config = WGPU_SURFACE_CONFIGURATION_INIT;
  config.device = ctx.device;
  config.format = format;
  config.width = 64;
  config.height = 64;
  wgpuSurfaceConfigure(good, &config);
  WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
  wgpuSurfaceGetCurrentTexture(good, &st);
  CHECK(wl_success(st.status));
  REQUIRE(st.texture != NULL);
  clear_texture(&ctx, st.texture, (WGPUColor){0, 1, 0, 1});
  wlwin_request_frame(&w);
  CHECK_EQ(wgpuSurfacePresent(good), WGPUStatus_Success);
  wgpuTextureRelease(st.texture);
  CHECK(wlwin_wait_frames(&w, 1, 5000 * harness_time_scale()));
  CHECK_EQ(ctx.uncaptured_errors, 0);
  CHECK_EQ(log.errors, 0);

  wgpuSurfaceUnconfigure(good);
  wgpuSurfaceRelease(good);
  ctx_release(&ctx);
  wgpuSetLogCallback(NULL, NULL);
  wlwin_close(&w);
  return test_finish();
}
