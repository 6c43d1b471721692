/* Shared helpers for the Wayland surface tests: a toplevel wl_surface (an
 * xdg_toplevel, so that the compositor maps it and sends frame callbacks,
 * which FIFO presentation waits for), a WGPUSurface on it, an adapter and
 * device that can present to it, and a read-back of a whole frame.
 *
 * The tests run under their own headless weston (with_weston.sh), which sets
 * WAYLAND_DISPLAY and XDG_RUNTIME_DIR. Without WAYLAND_DISPLAY they print why
 * and exit with SURFACE_SKIP; with it, a compositor that cannot be reached,
 * or one without wl_compositor or xdg_wm_base, fails the test.
 *
 * Nothing here names a backend: the adapter is the one the library gives for
 * the surface (compatibleSurface), so the same tests run on Vulkan and on GL
 * (WGPU_BACKEND). */
#ifndef WGPU_SHIM_WAYLAND_UTIL_H
#define WGPU_SHIM_WAYLAND_UTIL_H

/* memfd_create; before any system header (so this header comes first). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "harness.h"

#include <dlfcn.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "xdg-shell-client-protocol.h"

/* CTest's SKIP_RETURN_CODE for these tests. */
#define SURFACE_SKIP 77

/* weston's screenshooter (weston 10's weston-screenshooter.xml, which Debian
 * does not ship: its one request and event written out here). A client may
 * use it when weston runs with --debug, as with_weston.sh starts it. */
static const struct wl_interface *wlwin_shooter_types[] = {&wl_output_interface, &wl_buffer_interface};
static const struct wl_message wlwin_shooter_requests[] = {{"take_shot", "oo", wlwin_shooter_types}};
static const struct wl_message wlwin_shooter_events[] = {{"done", "", NULL}};
static const struct wl_interface wlwin_shooter_interface = {
    "weston_screenshooter", 1, 1, wlwin_shooter_requests, 1, wlwin_shooter_events};

typedef struct {
  struct wl_display *display;
  struct wl_registry *registry;
  struct wl_compositor *compositor;
  struct xdg_wm_base *wm_base;
  /* For screenshots (wlwin_screenshot): NULL where the compositor has none. */
  struct wl_shm *shm;
  struct wl_output *output;
  struct wl_proxy *shooter;
  int32_t output_width, output_height;
  int shots_done;
  struct wl_surface *surface;
  struct xdg_surface *xdg_surface;
  struct xdg_toplevel *toplevel;
  /* xdg_surface.configure events received (each acknowledged at once). */
  int configures;
  int closed;
  /* wl_surface.frame callbacks that came back (wlwin_request_frame). */
  int frames_done;
} WlWin;

static void wlwin_on_output_geometry(void *data, struct wl_output *output, int32_t x, int32_t y, int32_t pw,
                                     int32_t ph, int32_t subpixel, const char *make, const char *model,
                                     int32_t transform) {
  (void)data, (void)output, (void)x, (void)y, (void)pw, (void)ph, (void)subpixel, (void)make, (void)model;
  (void)transform;
}

static void wlwin_on_output_mode(void *data, struct wl_output *output, uint32_t flags, int32_t width,
                                 int32_t height, int32_t refresh) {
  WlWin *w = (WlWin *)data;
  (void)output, (void)refresh;
  if (flags & WL_OUTPUT_MODE_CURRENT) {
    w->output_width = width;
    w->output_height = height;
  }
}

static void wlwin_on_output_done(void *data, struct wl_output *output) { (void)data, (void)output; }

static void wlwin_on_output_scale(void *data, struct wl_output *output, int32_t factor) {
  (void)data, (void)output, (void)factor;
}

/* Designated: version 2 is bound, whose events these are. */
static const struct wl_output_listener wlwin_output_listener = {.geometry = wlwin_on_output_geometry,
                                                                .mode = wlwin_on_output_mode,
                                                                .done = wlwin_on_output_done,
                                                                .scale = wlwin_on_output_scale};

static void wlwin_on_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                            uint32_t version) {
  WlWin *w = (WlWin *)data;
  if (strcmp(interface, wl_compositor_interface.name) == 0 && !w->compositor) {
    w->compositor = (struct wl_compositor *)wl_registry_bind(registry, name, &wl_compositor_interface,
                                                              version < 4 ? version : 4);
  } else if (strcmp(interface, xdg_wm_base_interface.name) == 0 && !w->wm_base) {
    w->wm_base = (struct xdg_wm_base *)wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
  } else if (strcmp(interface, wl_shm_interface.name) == 0 && !w->shm) {
    w->shm = (struct wl_shm *)wl_registry_bind(registry, name, &wl_shm_interface, 1);
  } else if (strcmp(interface, wl_output_interface.name) == 0 && !w->output && version >= 2) {
    w->output = (struct wl_output *)wl_registry_bind(registry, name, &wl_output_interface, 2);
    wl_output_add_listener(w->output, &wlwin_output_listener, w);
  } else if (strcmp(interface, wlwin_shooter_interface.name) == 0 && !w->shooter) {
    w->shooter = (struct wl_proxy *)wl_registry_bind(registry, name, &wlwin_shooter_interface, 1);
  }
}

static void wlwin_on_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
  (void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener wlwin_registry_listener = {wlwin_on_global, wlwin_on_global_remove};

static void wlwin_on_ping(void *data, struct xdg_wm_base *base, uint32_t serial) {
  (void)data;
  xdg_wm_base_pong(base, serial);
}

static const struct xdg_wm_base_listener wlwin_wm_base_listener = {.ping = wlwin_on_ping};

static void wlwin_on_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
  WlWin *w = (WlWin *)data;
  /* Acknowledged now, applied by the next commit (the driver's, on present). */
  xdg_surface_ack_configure(xdg_surface, serial);
  w->configures++;
}

static const struct xdg_surface_listener wlwin_xdg_surface_listener = {.configure = wlwin_on_configure};

static void wlwin_on_toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t width, int32_t height,
                                        struct wl_array *states) {
  /* The test picks its own size (the buffer's); the suggestion is ignored. */
  (void)data, (void)toplevel, (void)width, (void)height, (void)states;
}

static void wlwin_on_toplevel_close(void *data, struct xdg_toplevel *toplevel) {
  (void)toplevel;
  ((WlWin *)data)->closed = 1;
}

/* Designated: later versions of xdg-shell.xml add events (which version 1,
 * bound here, never sends). */
static const struct xdg_toplevel_listener wlwin_toplevel_listener = {.configure = wlwin_on_toplevel_configure,
                                                                     .close = wlwin_on_toplevel_close};

/* Connects to $WAYLAND_DISPLAY and makes a toplevel wl_surface, waiting for
 * its first configure (a surface may not get a buffer before it). Returns 0;
 * SURFACE_SKIP (with a message) when WAYLAND_DISPLAY is not set; -1 (with a
 * message) when the compositor cannot be used. */
static inline int wlwin_open(WlWin *w, const char *title) {
  memset(w, 0, sizeof *w);
  const char *name = getenv("WAYLAND_DISPLAY");
  if (!name || !*name) {
    printf("SKIP: WAYLAND_DISPLAY is not set (run the test through ffi-tests/surface/with_weston.sh, which starts "
           "a headless weston: Debian package weston)\n");
    fflush(stdout);
    return SURFACE_SKIP;
  }
  w->display = wl_display_connect(NULL);
  if (!w->display) {
    printf("FAIL: cannot connect to the Wayland compositor %s (XDG_RUNTIME_DIR=%s)\n", name,
           getenv("XDG_RUNTIME_DIR") ? getenv("XDG_RUNTIME_DIR") : "(not set)");
    return -1;
  }
  w->registry = wl_display_get_registry(w->display);
  wl_registry_add_listener(w->registry, &wlwin_registry_listener, w);
  wl_display_roundtrip(w->display);
  if (!w->compositor || !w->wm_base) {
    printf("FAIL: the compositor %s has no %s\n", name, !w->compositor ? "wl_compositor" : "xdg_wm_base");
    return -1;
  }
  xdg_wm_base_add_listener(w->wm_base, &wlwin_wm_base_listener, w);
  w->surface = wl_compositor_create_surface(w->compositor);
  w->xdg_surface = xdg_wm_base_get_xdg_surface(w->wm_base, w->surface);
  xdg_surface_add_listener(w->xdg_surface, &wlwin_xdg_surface_listener, w);
  w->toplevel = xdg_surface_get_toplevel(w->xdg_surface);
  xdg_toplevel_add_listener(w->toplevel, &wlwin_toplevel_listener, w);
  xdg_toplevel_set_title(w->toplevel, title);
  xdg_toplevel_set_app_id(w->toplevel, "wgpu-shim-ffi-test");
  /* The initial commit, without a buffer, asks for the first configure. */
  wl_surface_commit(w->surface);
  for (int i = 0; i < 50 && w->configures == 0; i++) {
    if (wl_display_roundtrip(w->display) < 0) break;
  }
  if (w->configures == 0) {
    printf("FAIL: the compositor %s sent no xdg_surface.configure\n", name);
    return -1;
  }
  return 0;
}

/* Handles the compositor's events that have come for this client (pings,
 * configures, frame callbacks) without blocking. Returns -1 when the
 * connection has failed. */
static inline int wlwin_pump(WlWin *w) {
  while (wl_display_prepare_read(w->display) != 0) {
    if (wl_display_dispatch_pending(w->display) < 0) return -1;
  }
  wl_display_flush(w->display);
  struct pollfd pfd = {wl_display_get_fd(w->display), POLLIN, 0};
  if (poll(&pfd, 1, 0) > 0) {
    if (wl_display_read_events(w->display) < 0) return -1;
  } else {
    wl_display_cancel_read(w->display);
  }
  return wl_display_dispatch_pending(w->display) < 0 ? -1 : 0;
}

static void wlwin_on_frame_done(void *data, struct wl_callback *callback, uint32_t time) {
  (void)time;
  ((WlWin *)data)->frames_done++;
  wl_callback_destroy(callback);
}

static const struct wl_callback_listener wlwin_frame_listener = {wlwin_on_frame_done};

/* Asks for a frame callback with the surface's next commit (the driver's,
 * when the next frame is presented): it comes back once the compositor has
 * shown that frame. */
static inline void wlwin_request_frame(WlWin *w) {
  struct wl_callback *cb = wl_surface_frame(w->surface);
  wl_callback_add_listener(cb, &wlwin_frame_listener, w);
}

/* Waits (at most timeout_ms) until frames_done reaches `count`; whether it
 * did. */
static inline int wlwin_wait_frames(WlWin *w, int count, unsigned timeout_ms) {
  double until = now_s() + timeout_ms / 1000.0;
  while (w->frames_done < count && now_s() < until) {
    if (wlwin_pump(w) < 0) return 0;
    if (w->frames_done < count) sleep_ms(5);
  }
  return w->frames_done >= count;
}

static inline void wlwin_close(WlWin *w) {
  if (!w->display) return;
  if (w->toplevel) xdg_toplevel_destroy(w->toplevel);
  if (w->xdg_surface) xdg_surface_destroy(w->xdg_surface);
  if (w->surface) wl_surface_destroy(w->surface);
  if (w->wm_base) xdg_wm_base_destroy(w->wm_base);
  if (w->shooter) wl_proxy_destroy(w->shooter);
  if (w->output) wl_output_destroy(w->output);
  if (w->shm) wl_shm_destroy(w->shm);
  if (w->compositor) wl_compositor_destroy(w->compositor);
  if (w->registry) wl_registry_destroy(w->registry);
  wl_display_roundtrip(w->display);
  wl_display_disconnect(w->display);
  w->display = NULL;
}

static void wlwin_on_shot_done(void *data, struct wl_proxy *shooter) {
  (void)shooter;
  ((WlWin *)data)->shots_done++;
}

static const struct {
  void (*done)(void *data, struct wl_proxy *shooter);
} wlwin_shooter_listener = {wlwin_on_shot_done};

/* What the compositor shows: a screenshot of its output (weston's
 * screenshooter, into a wl_shm buffer), in which it counts the pixels of
 * colour 0xRRGGBB and their bounding box. Returns that count, or -1 (with a
 * message) when no screenshot could be had. */
static inline long wlwin_count_shown(WlWin *w, uint32_t rgb, int32_t box[4]) {
  if (!w->shooter || !w->shm || !w->output) {
    printf("no screenshot: the compositor has no %s (weston runs with --debug in with_weston.sh)\n",
           !w->shooter ? "weston_screenshooter" : !w->shm ? "wl_shm" : "wl_output");
    return -1;
  }
  if (w->output_width <= 0) wl_display_roundtrip(w->display);
  int32_t width = w->output_width, height = w->output_height, stride = width * 4;
  if (width <= 0 || height <= 0) {
    printf("no screenshot: the output's mode is unknown\n");
    return -1;
  }
  size_t size = (size_t)stride * (size_t)height;
  int fd = memfd_create("wgpu-shim-screenshot", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, (off_t)size) != 0) {
    printf("no screenshot: no shared memory\n");
    if (fd >= 0) close(fd);
    return -1;
  }
  uint8_t *pixels = (uint8_t *)mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (pixels == MAP_FAILED) {
    close(fd);
    printf("no screenshot: mmap failed\n");
    return -1;
  }
  memset(pixels, 0x5A, size);
  struct wl_shm_pool *pool = wl_shm_create_pool(w->shm, fd, (int32_t)size);
  struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_ARGB8888);
  wl_shm_pool_destroy(pool);
  close(fd);
  int before = w->shots_done;
  if (before == 0 && wl_proxy_get_listener(w->shooter) == NULL) {
    wl_proxy_add_listener(w->shooter, (void (**)(void)) & wlwin_shooter_listener, w);
  }
  wl_proxy_marshal_flags(w->shooter, 0, NULL, wl_proxy_get_version(w->shooter), 0, w->output, buffer);
  double until = now_s() + 5.0 * harness_time_scale();
  while (w->shots_done == before && now_s() < until) {
    if (wl_display_roundtrip(w->display) < 0) break;
  }
  long count = -1;
  if (w->shots_done > before) {
    /* ARGB8888 in memory order: B, G, R, A. */
    count = 0;
    box[0] = width, box[1] = height, box[2] = -1, box[3] = -1;
    for (int32_t y = 0; y < height; y++) {
      for (int32_t x = 0; x < width; x++) {
        const uint8_t *p = pixels + (size_t)y * (size_t)stride + (size_t)x * 4;
        uint32_t c = ((uint32_t)p[2] << 16) | ((uint32_t)p[1] << 8) | p[0];
        if (c != rgb) continue;
        count++;
        if (x < box[0]) box[0] = x;
        if (y < box[1]) box[1] = y;
        if (x > box[2]) box[2] = x;
        if (y > box[3]) box[3] = y;
      }
    }
  } else {
    printf("no screenshot: weston_screenshooter.done did not come\n");
  }
  wl_buffer_destroy(buffer);
  munmap(pixels, size);
  return count;
}

/* A WGPUSurface for (display, surface) through WGPUSurfaceSourceWaylandSurface. */
static inline WGPUSurface surface_from_wayland(WGPUInstance instance, void *display, void *surface) {
  WGPUSurfaceSourceWaylandSurface src = WGPU_SURFACE_SOURCE_WAYLAND_SURFACE_INIT;
  src.display = display;
  src.surface = surface;
  WGPUSurfaceDescriptor desc = WGPU_SURFACE_DESCRIPTOR_INIT;
  desc.nextInChain = &src.chain;
  desc.label = sv("wayland surface");
  return wgpuInstanceCreateSurface(instance, &desc);
}

static void wl_on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message, void *u1,
                          void *u2) {
  (void)u2;
  if (status != WGPURequestAdapterStatus_Success) {
    printf("adapter request failed (%d): %.*s\n", (int)status, (int)sv_len(message),
           message.data ? message.data : "");
  }
  *(WGPUAdapter *)u1 = adapter;
}

static void wl_on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void *u1,
                         void *u2) {
  (void)u2;
  if (status != WGPURequestDeviceStatus_Success) {
    printf("device request failed (%d): %.*s\n", (int)status, (int)sv_len(message), message.data ? message.data : "");
  }
  *(WGPUDevice *)u1 = device;
}

/* Fills ctx (an instance with TimedWaitAny, whose surface `*surface` is made
 * by make_surface, then an adapter requested with that surface as
 * compatibleSurface, a device with the harness's error and lost callbacks,
 * its queue). Prints the adapter. Returns 0, or a negative step number. */
static inline int wl_ctx_init(Ctx *ctx, WGPUSurface *surface, WlWin *w) {
  memset(ctx, 0, sizeof *ctx);
  *surface = NULL;
  /* EGL (the GL backend) presents only to surfaces of its own display. */
  WGPUNativeDisplayHandle handle;
  memset(&handle, 0, sizeof handle);
  handle.type = WGPUNativeDisplayHandleType_Wayland;
  handle.data.wayland.display = w->display;
  harness_set_instance_display(handle);
  ctx->instance = create_instance(1);
  if (!ctx->instance) return -1;
  *surface = surface_from_wayland(ctx->instance, w->display, w->surface);
  if (!*surface) return -2;
  WGPURequestAdapterOptions options = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
  options.compatibleSurface = *surface;
  WGPURequestAdapterCallbackInfo acb = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  acb.mode = WGPUCallbackMode_WaitAnyOnly;
  acb.callback = wl_on_adapter;
  acb.userdata1 = &ctx->adapter;
  WGPUFutureWaitInfo wait = {wgpuInstanceRequestAdapter(ctx->instance, &options, acb), 0};
  if (wgpuInstanceWaitAny(ctx->instance, 1, &wait, UINT64_MAX) != WGPUWaitStatus_Success || !ctx->adapter) return -3;
  WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
  if (wgpuAdapterGetInfo(ctx->adapter, &info) == WGPUStatus_Success) {
    printf("adapter: %.*s (backend type %d)\n", (int)sv_len(info.device), info.device.data ? info.device.data : "",
           (int)info.backendType);
    wgpuAdapterInfoFreeMembers(info);
  }
  WGPUDeviceDescriptor ddesc = WGPU_DEVICE_DESCRIPTOR_INIT;
  ddesc.label = sv("wayland test device");
  ddesc.uncapturedErrorCallbackInfo.callback = ctx_on_uncaptured;
  ddesc.uncapturedErrorCallbackInfo.userdata1 = ctx;
  ddesc.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowSpontaneous;
  ddesc.deviceLostCallbackInfo.callback = ctx_on_lost;
  ddesc.deviceLostCallbackInfo.userdata1 = ctx;
  WGPURequestDeviceCallbackInfo dcb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  dcb.mode = WGPUCallbackMode_WaitAnyOnly;
  dcb.callback = wl_on_device;
  dcb.userdata1 = &ctx->device;
  wait.future = wgpuAdapterRequestDevice(ctx->adapter, &ddesc, dcb);
  wait.completed = 0;
  if (wgpuInstanceWaitAny(ctx->instance, 1, &wait, UINT64_MAX) != WGPUWaitStatus_Success || !ctx->device) return -4;
  ctx->queue = wgpuDeviceGetQueue(ctx->device);
  return ctx->queue ? 0 : -5;
}

/* The adapter's backend type. */
static inline WGPUBackendType wl_backend(WGPUAdapter adapter) {
  WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
  WGPUBackendType type = WGPUBackendType_Undefined;
  if (wgpuAdapterGetInfo(adapter, &info) == WGPUStatus_Success) {
    type = info.backendType;
    wgpuAdapterInfoFreeMembers(info);
  }
  return type;
}

/* Whether the Vulkan loader (libvulkan.so.1) lists the instance extension
 * `name`: 1 yes, 0 no, -1 the loader cannot be loaded. The Vulkan types are
 * declared here, as no Vulkan headers are needed for the rest. */
static inline int wl_vulkan_has_instance_extension(const char *name) {
  typedef struct {
    char extensionName[256];
    uint32_t specVersion;
  } ExtensionProperties;
  typedef int32_t (*Enumerate)(const char *, uint32_t *, ExtensionProperties *);
  void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return -1;
  Enumerate enumerate = (Enumerate)dlsym(lib, "vkEnumerateInstanceExtensionProperties");
  int found = -1;
  uint32_t count = 0;
  if (enumerate && enumerate(NULL, &count, NULL) == 0) {
    ExtensionProperties *props = (ExtensionProperties *)calloc(count ? count : 1, sizeof *props);
    if (props && enumerate(NULL, &count, props) >= 0) {
      found = 0;
      for (uint32_t i = 0; i < count; i++) {
        if (strcmp(props[i].extensionName, name) == 0) found = 1;
      }
    }
    free(props);
  }
  dlclose(lib);
  return found;
}

/* Whether `format` has 4 bytes a texel of 8-bit channels, and whether they
 * are in BGRA order. */
static inline int wl_is_8bit(WGPUTextureFormat format) {
  return format == WGPUTextureFormat_BGRA8Unorm || format == WGPUTextureFormat_BGRA8UnormSrgb ||
         format == WGPUTextureFormat_RGBA8Unorm || format == WGPUTextureFormat_RGBA8UnormSrgb;
}
static inline int wl_is_bgra(WGPUTextureFormat format) {
  return format == WGPUTextureFormat_BGRA8Unorm || format == WGPUTextureFormat_BGRA8UnormSrgb;
}

/* The first 8-bit format of the surface's capabilities (Undefined if none). */
static inline WGPUTextureFormat wl_8bit_format(const WGPUSurfaceCapabilities *caps) {
  for (size_t i = 0; i < caps->formatCount; i++) {
    if (wl_is_8bit(caps->formats[i])) return caps->formats[i];
  }
  return WGPUTextureFormat_Undefined;
}

/* The 4 bytes, in `format`'s order, of a clear to `c` (channels 0 or 1, which
 * sRGB encoding leaves as they are). */
static inline void wl_expected_bytes(WGPUTextureFormat format, WGPUColor c, uint8_t out[4]) {
  uint8_t r = c.r > 0.5 ? 255 : 0, g = c.g > 0.5 ? 255 : 0, b = c.b > 0.5 ? 255 : 0, a = c.a > 0.5 ? 255 : 0;
  out[0] = wl_is_bgra(format) ? b : r;
  out[1] = g;
  out[2] = wl_is_bgra(format) ? r : b;
  out[3] = a;
}

/* Copies all of `texture` (width x height, 4 bytes a texel, CopySrc) into a
 * buffer, maps it and counts the texels that differ from `expected`; the
 * first one that differs is printed. Returns that count, or -1 when the copy
 * could not be mapped. */
static inline long wl_count_wrong_texels(Ctx *ctx, WGPUTexture texture, uint32_t width, uint32_t height,
                                         const uint8_t expected[4]) {
  uint32_t row = (width * 4 + 255) / 256 * 256;
  uint64_t size = (uint64_t)row * height;
  WGPUBuffer buffer = make_buffer(ctx->device, size, WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead, 0);
  WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPUTexelCopyTextureInfo src = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
  src.texture = texture;
  WGPUTexelCopyBufferInfo dst = WGPU_TEXEL_COPY_BUFFER_INFO_INIT;
  dst.buffer = buffer;
  dst.layout.bytesPerRow = row;
  dst.layout.rowsPerImage = height;
  WGPUExtent3D extent = {width, height, 1};
  wgpuCommandEncoderCopyTextureToBuffer(encoder, &src, &dst, &extent);
  submit_encoder(ctx, encoder);
  long wrong = -1;
  WGPUBufferMapCallbackInfo cb = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  cb.mode = WGPUCallbackMode_WaitAnyOnly;
  WGPUFutureWaitInfo wait = {wgpuBufferMapAsync(buffer, WGPUMapMode_Read, 0, size, cb), 0};
  if (wgpuInstanceWaitAny(ctx->instance, 1, &wait, UINT64_MAX) == WGPUWaitStatus_Success &&
      wgpuBufferGetMapState(buffer) == WGPUBufferMapState_Mapped) {
    const uint8_t *data = (const uint8_t *)wgpuBufferGetConstMappedRange(buffer, 0, size);
    if (data) {
      wrong = 0;
      for (uint32_t y = 0; y < height; y++) {
        for (uint32_t x = 0; x < width; x++) {
          const uint8_t *p = data + (uint64_t)y * row + (uint64_t)x * 4;
          if (memcmp(p, expected, 4) != 0) {
            if (wrong == 0) {
              printf("texel (%u, %u) is %02x %02x %02x %02x, expected %02x %02x %02x %02x\n", x, y, p[0], p[1],
                     p[2], p[3], expected[0], expected[1], expected[2], expected[3]);
            }
            wrong++;
          }
        }
      }
    }
    wgpuBufferUnmap(buffer);
  }
  wgpuBufferRelease(buffer);
  return wrong;
}

/* Whether `list` (count n) holds `value`. */
#define WL_CONTAINS(list, n, value) wl_contains_u32((const uint32_t *)(list), (n), (uint32_t)(value))
static inline int wl_contains_u32(const uint32_t *list, size_t n, uint32_t value) {
  for (size_t i = 0; i < n; i++) {
    if (list[i] == value) return 1;
  }
  return 0;
}

/* Whether a status comes with a texture. */
static inline int wl_success(WGPUSurfaceGetCurrentTextureStatus status) {
  return status == WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal ||
         status == WGPUSurfaceGetCurrentTextureStatus_SuccessSuboptimal;
}

#endif
