/* Shared helpers for the surface tests: an X11 window (Xlib or XCB), a surface
 * on it, configuration and one cleared frame.
 *
 * The tests run under their own Xvfb (with_xvfb.sh). Without an X server they
 * print why and exit with SURFACE_SKIP, which CTest reports as skipped. */
#ifndef WGPU_SHIM_SURFACE_UTIL_H
#define WGPU_SHIM_SURFACE_UTIL_H

#include "harness.h"

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdlib.h>
#include <time.h>
#include <xcb/xcb.h>

/* CTest's SKIP_RETURN_CODE for these tests. */
#define SURFACE_SKIP 77

typedef struct {
  Display *display;
  Window window;
} XWin;

/* Opens the display and maps a width x height window. Returns 0, or
 * SURFACE_SKIP (with a message) when there is no X server. */
static inline int xwin_open(XWin *w, unsigned width, unsigned height) {
  memset(w, 0, sizeof *w);
  const char *name = getenv("DISPLAY");
  w->display = XOpenDisplay(NULL);
  if (!w->display) {
    printf("SKIP: cannot open X display %s (run the test through ffi-tests/surface/with_xvfb.sh, or install xvfb)\n",
           name ? name : "(DISPLAY is not set)");
    fflush(stdout);
    return SURFACE_SKIP;
  }
  int screen = DefaultScreen(w->display);
  WGPUNativeDisplayHandle handle;
  memset(&handle, 0, sizeof handle);
  handle.type = WGPUNativeDisplayHandleType_Xlib;
  handle.data.xlib.display = w->display;
  handle.data.xlib.screen = screen;
  harness_set_instance_display(handle);
  w->window = XCreateSimpleWindow(w->display, RootWindow(w->display, screen), 0, 0, width, height, 0,
                                  BlackPixel(w->display, screen), BlackPixel(w->display, screen));
  XMapWindow(w->display, w->window);
  XSync(w->display, False);
  return 0;
}

static inline void xwin_resize(XWin *w, unsigned width, unsigned height) {
  XResizeWindow(w->display, w->window, width, height);
  XSync(w->display, False);
}

static inline void xwin_close(XWin *w) {
  if (!w->display) return;
  WGPUNativeDisplayHandle none;
  memset(&none, 0, sizeof none);
  harness_set_instance_display(none);
  XDestroyWindow(w->display, w->window);
  XCloseDisplay(w->display);
  w->display = NULL;
}

/* The pixel at (x, y) of the window as 0xRRGGBB. */
static inline unsigned long xwin_pixel(XWin *w, int x, int y) {
  XImage *image = XGetImage(w->display, w->window, x, y, 1, 1, AllPlanes, ZPixmap);
  if (!image) return 0xFFFFFFFFul;
  unsigned long p = XGetPixel(image, 0, 0) & 0xFFFFFFul;
  XDestroyImage(image);
  return p;
}

/* Creates a surface on the window through WGPUSurfaceSourceXlibWindow. */
static inline WGPUSurface surface_from_xlib(WGPUInstance instance, XWin *w) {
  WGPUSurfaceSourceXlibWindow src = WGPU_SURFACE_SOURCE_XLIB_WINDOW_INIT;
  src.display = w->display;
  src.window = (uint64_t)w->window;
  WGPUSurfaceDescriptor desc = WGPU_SURFACE_DESCRIPTOR_INIT;
  desc.nextInChain = &src.chain;
  desc.label = sv("xlib surface");
  return wgpuInstanceCreateSurface(instance, &desc);
}

/* Whether `list` (count n) holds `value`. */
#define SU_CONTAINS(list, n, value) su_contains_u32((const uint32_t *)(list), (n), (uint32_t)(value))
static inline int su_contains_u32(const uint32_t *list, size_t n, uint32_t value) {
  for (size_t i = 0; i < n; i++) {
    if (list[i] == value) return 1;
  }
  return 0;
}

/* The surface's preferred format for `adapter` (Undefined when it has none). */
static inline WGPUTextureFormat su_preferred_format(WGPUSurface surface, WGPUAdapter adapter) {
  WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
  WGPUTextureFormat format = WGPUTextureFormat_Undefined;
  if (wgpuSurfaceGetCapabilities(surface, adapter, &caps) == WGPUStatus_Success && caps.formatCount > 0) {
    format = caps.formats[0];
  }
  wgpuSurfaceCapabilitiesFreeMembers(caps);
  return format;
}

/* A configuration of `device` for the surface with the INIT defaults. */
static inline WGPUSurfaceConfiguration su_config(WGPUDevice device, WGPUTextureFormat format, uint32_t width,
                                                 uint32_t height) {
  WGPUSurfaceConfiguration config = WGPU_SURFACE_CONFIGURATION_INIT;
  config.device = device;
  config.format = format;
  config.width = width;
  config.height = height;
  return config;
}

/* Whether a status comes with a texture. */
static inline int su_success(WGPUSurfaceGetCurrentTextureStatus status) {
  return status == WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal ||
         status == WGPUSurfaceGetCurrentTextureStatus_SuccessSuboptimal;
}

typedef struct {
  WGPURequestAdapterStatus status;
  WGPUAdapter adapter;
} SuAdapterResult;

static void su_on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message,
                          void *u1, void *u2) {
  (void)message, (void)u2;
  SuAdapterResult *r = (SuAdapterResult *)u1;
  r->status = status;
  r->adapter = adapter;
}

static void su_on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void *u1,
                         void *u2) {
  (void)status, (void)message, (void)u2;
  *(WGPUDevice *)u1 = device;
}

/* Requests an adapter of `instance` (with `options`, may be NULL); returns
 * the callback's status and stores the adapter (NULL on failure). The request
 * completes within the call, so its AllowSpontaneous callback has run when
 * the call returns. */
static inline WGPURequestAdapterStatus su_request_adapter(WGPUInstance instance,
                                                          const WGPURequestAdapterOptions *options,
                                                          WGPUAdapter *adapter) {
  SuAdapterResult r = {(WGPURequestAdapterStatus)0, NULL};
  WGPURequestAdapterCallbackInfo cb = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  cb.mode = WGPUCallbackMode_AllowSpontaneous;
  cb.callback = su_on_adapter;
  cb.userdata1 = &r;
  wgpuInstanceRequestAdapter(instance, options, cb);
  *adapter = r.adapter;
  return r.status;
}

/* A second adapter and device of `instance` (no callbacks). */
static inline WGPUDevice su_second_device(WGPUInstance instance, WGPUAdapter *adapter) {
  WGPUDevice device = NULL;
  if (su_request_adapter(instance, NULL, adapter) != WGPURequestAdapterStatus_Success) return NULL;
  WGPURequestDeviceCallbackInfo cb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  cb.mode = WGPUCallbackMode_AllowSpontaneous;
  cb.callback = su_on_device;
  cb.userdata1 = &device;
  wgpuAdapterRequestDevice(*adapter, NULL, cb);
  return device;
}

#endif
