/* A surface on an XCB window presents like an Xlib one; after Unconfigure,
 * GetCurrentTexture gives Error and no texture, and Present gives Error. */
#include "surface_util.h"

int main(void) {
  int screen_index = 0;
  xcb_connection_t *connection = xcb_connect(NULL, &screen_index);
  if (!connection || xcb_connection_has_error(connection)) {
    printf("SKIP: cannot connect to the X server through XCB (DISPLAY=%s)\n",
           getenv("DISPLAY") ? getenv("DISPLAY") : "(unset)");
    return SURFACE_SKIP;
  }
  xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(connection));
  for (int i = 0; i < screen_index; i++) xcb_screen_next(&it);
  xcb_screen_t *screen = it.data;
  xcb_window_t window = xcb_generate_id(connection);
  xcb_create_window(connection, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, 256, 128, 0,
                    XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, 0, NULL);
  xcb_map_window(connection, window);
  xcb_flush(connection);

  WGPUNativeDisplayHandle handle;
  memset(&handle, 0, sizeof handle);
  handle.type = WGPUNativeDisplayHandleType_Xcb;
  handle.data.xcb.connection = connection;
  handle.data.xcb.screen = screen_index;
  harness_set_instance_display(handle);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUSurfaceSourceXCBWindow src = WGPU_SURFACE_SOURCE_XCB_WINDOW_INIT;
  src.connection = connection;
  src.window = window;
  WGPUSurfaceDescriptor desc = WGPU_SURFACE_DESCRIPTOR_INIT;
  desc.nextInChain = &src.chain;
  WGPUSurface surface = wgpuInstanceCreateSurface(ctx.instance, &desc);
  REQUIRE(surface != NULL);

  WGPUTextureFormat format = su_preferred_format(surface, ctx.adapter);
  REQUIRE(format != WGPUTextureFormat_Undefined);
  WGPUSurfaceConfiguration config = su_config(ctx.device, format, 256, 128);
  wgpuSurfaceConfigure(surface, &config);
  for (int i = 0; i < 3; i++) {
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(surface, &st);
    CHECK(su_success(st.status));
    REQUIRE(st.texture != NULL);
    CHECK_EQ(wgpuTextureGetWidth(st.texture), 256);
    CHECK_EQ(wgpuTextureGetHeight(st.texture), 128);
    WGPUColor color = {0.25 * i, 0.5, 1.0, 1.0};
    clear_texture(&ctx, st.texture, color);
    CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Success);
    wgpuTextureRelease(st.texture);
  }
  CHECK_EQ(ctx.uncaptured_errors, 0);

  wgpuSurfaceUnconfigure(surface);
  WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
  st.texture = (WGPUTexture)(uintptr_t)0x1; /* must be overwritten with NULL */
  wgpuSurfaceGetCurrentTexture(surface, &st);
  CHECK_EQ(st.status, WGPUSurfaceGetCurrentTextureStatus_Error);
  CHECK(st.texture == NULL);
  CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Error);
  /* Unconfiguring twice is harmless; configuring again works. */
  wgpuSurfaceUnconfigure(surface);
  wgpuSurfaceConfigure(surface, &config);
  wgpuSurfaceGetCurrentTexture(surface, &st);
  CHECK(su_success(st.status));
  CHECK(st.texture != NULL);
  if (st.texture) {
    CHECK_EQ(wgpuSurfacePresent(surface), WGPUStatus_Success);
    wgpuTextureRelease(st.texture);
  }
  CHECK_EQ(ctx.uncaptured_errors, 0);

  wgpuSurfaceRelease(surface);
  ctx_release(&ctx);
  xcb_destroy_window(connection, window);
  xcb_disconnect(connection);
  return test_finish();
}
