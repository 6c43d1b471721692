/* Windows only: a surface on a Win32 window (WGPUSurfaceSourceWindowsHWND)
 * has capabilities, is configured, and gives one frame texture at a time,
 * which a clear render pass reaches (read back through a copy when the
 * surface allows CopySrc) and Present shows, for several frames; Present
 * without a frame is an error; Unconfigure and release leave no error. Run
 * on each backend the Windows step runs (Vulkan, and D3D12 under Wine). */
#include <windows.h>

#include "harness.h"

/* A plain top-level window of `width` x `height` client pixels. */
static HWND open_window(HINSTANCE hinstance, int width, int height) {
  WNDCLASSA wc;
  memset(&wc, 0, sizeof wc);
  wc.lpfnWndProc = DefWindowProcA;
  wc.hInstance = hinstance;
  wc.lpszClassName = "wgpu_shim_test";
  if (!RegisterClassA(&wc)) return NULL;
  RECT r = {0, 0, width, height};
  AdjustWindowRect(&r, WS_OVERLAPPEDWINDOW, FALSE);
  HWND hwnd = CreateWindowExA(0, wc.lpszClassName, "wgpu-shim test", WS_OVERLAPPEDWINDOW, CW_USEDEFAULT,
                              CW_USEDEFAULT, r.right - r.left, r.bottom - r.top, NULL, NULL, hinstance, NULL);
  if (hwnd) ShowWindow(hwnd, SW_SHOW);
  return hwnd;
}

int main(void) {
  HINSTANCE hinstance = GetModuleHandleA(NULL);
  HWND hwnd = open_window(hinstance, 320, 240);
  REQUIRE(hwnd != NULL);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  WGPUSurfaceSourceWindowsHWND source = WGPU_SURFACE_SOURCE_WINDOWS_HWND_INIT;
  source.hinstance = hinstance;
  source.hwnd = hwnd;
  WGPUSurfaceDescriptor sdesc = WGPU_SURFACE_DESCRIPTOR_INIT;
  sdesc.nextInChain = &source.chain;
  sdesc.label = sv("main window");
  WGPUSurface surface = wgpuInstanceCreateSurface(ctx.instance, &sdesc);
  REQUIRE(surface != NULL);

  /* A NULL window handle gives an error surface, never a crash. */
  WGPUSurfaceSourceWindowsHWND bad = WGPU_SURFACE_SOURCE_WINDOWS_HWND_INIT;
  WGPUSurfaceDescriptor bad_desc = WGPU_SURFACE_DESCRIPTOR_INIT;
  bad_desc.nextInChain = &bad.chain;
  WGPUSurface bad_surface = wgpuInstanceCreateSurface(ctx.instance, &bad_desc);
  if (bad_surface) {
    WGPUSurfaceCapabilities none = WGPU_SURFACE_CAPABILITIES_INIT;
    CHECK(wgpuSurfaceGetCapabilities(bad_surface, ctx.adapter, &none) != WGPUStatus_Success);
    wgpuSurfaceRelease(bad_surface);
  }

  WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
  REQUIRE(wgpuSurfaceGetCapabilities(surface, ctx.adapter, &caps) == WGPUStatus_Success);
  CHECK(caps.formatCount > 0 && caps.formats != NULL);
  CHECK(caps.usages & WGPUTextureUsage_RenderAttachment);
  CHECK(caps.presentModeCount > 0);
  CHECK(caps.alphaModeCount > 0);
  WGPUTextureFormat format = caps.formatCount ? caps.formats[0] : WGPUTextureFormat_Undefined;
  int can_copy = (caps.usages & WGPUTextureUsage_CopySrc) != 0;
  wgpuSurfaceCapabilitiesFreeMembers(caps);

  WGPUSurfaceConfiguration config = WGPU_SURFACE_CONFIGURATION_INIT;
  config.device = ctx.device;
  config.format = format;
  config.width = 320;
  config.height = 240;
  if (can_copy) config.usage |= WGPUTextureUsage_CopySrc;
  wgpuSurfaceConfigure(surface, &config);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Error);

  const WGPUColor colors[] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}};
  const unsigned long expected_rgb[] = {0xFF0000, 0x00FF00, 0x0000FF};
  int is_bgra = format == WGPUTextureFormat_BGRA8Unorm || format == WGPUTextureFormat_BGRA8UnormSrgb;
  int is_8bit = is_bgra || format == WGPUTextureFormat_RGBA8Unorm || format == WGPUTextureFormat_RGBA8UnormSrgb;
  for (int i = 0; i < 3; i++) {
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(surface, &st);
    CHECK(st.status == WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal ||
          st.status == WGPUSurfaceGetCurrentTextureStatus_SuccessSuboptimal);
    REQUIRE(st.texture != NULL);
    CHECK_EQ(wgpuTextureGetWidth(st.texture), 320);
    CHECK_EQ(wgpuTextureGetHeight(st.texture), 240);
    CHECK_EQ(wgpuTextureGetFormat(st.texture), format);
    clear_texture(&ctx, st.texture, colors[i]);
    if (can_copy && is_8bit) {
      uint8_t px[4] = {0};
      CHECK(read_texel_00(&ctx, st.texture, px));
      uint8_t r = is_bgra ? px[2] : px[0], g = px[1], b = is_bgra ? px[0] : px[2];
      unsigned long rgb = ((unsigned long)r << 16) | ((unsigned long)g << 8) | b;
      CHECK_EQ(rgb, expected_rgb[i]);
    }
    CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Success);
    wgpuTextureRelease(st.texture);
  }
  CHECK_EQ(ctx.uncaptured_errors, 0);

  wgpuSurfaceUnconfigure(surface);
  wgpuSurfaceRelease(surface);
  ctx_release(&ctx);
  DestroyWindow(hwnd);
  return test_finish();
}
