/* RequestAdapter honours compatibleSurface: a surface the adapter can present
 * to gives an adapter that reports capabilities for it; an error surface, or
 * a surface of another instance, makes the request fail with Error. */
#include "surface_util.h"

int main(void) {
  XWin w;
  int skip = xwin_open(&w, 64, 64);
  if (skip) return skip;
  WGPUInstance instance = create_instance(0); /* told about w's display (the GL backend needs it) */
  REQUIRE(instance != NULL);
  WGPUSurface surface = surface_from_xlib(instance, &w);
  REQUIRE(surface != NULL);

  WGPURequestAdapterOptions options = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
  options.compatibleSurface = surface;
  WGPUAdapter adapter = NULL;
  CHECK_EQ(su_request_adapter(instance, &options, &adapter), WGPURequestAdapterStatus_Success);
  REQUIRE(adapter != NULL);
  WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
  CHECK_EQ(wgpuSurfaceGetCapabilities(surface, adapter, &caps), WGPUStatus_Success);
  CHECK(caps.formatCount > 0);
  wgpuSurfaceCapabilitiesFreeMembers(caps);
  wgpuAdapterRelease(adapter);

  /* An error surface. */
  WGPUSurfaceDescriptor desc = WGPU_SURFACE_DESCRIPTOR_INIT;
  WGPUSurface error_surface = wgpuInstanceCreateSurface(instance, &desc);
  REQUIRE(error_surface != NULL);
  options.compatibleSurface = error_surface;
  CHECK_EQ(su_request_adapter(instance, &options, &adapter), WGPURequestAdapterStatus_Error);
  CHECK(adapter == NULL);
  wgpuSurfaceRelease(error_surface);

  /* A surface of another instance. */
  WGPUInstance other = wgpuCreateInstance(NULL);
  REQUIRE(other != NULL);
  options.compatibleSurface = surface;
  CHECK_EQ(su_request_adapter(other, &options, &adapter), WGPURequestAdapterStatus_Error);
  CHECK(adapter == NULL);
  wgpuInstanceRelease(other);

  /* Without a surface, as before. */
  CHECK_EQ(su_request_adapter(instance, NULL, &adapter), WGPURequestAdapterStatus_Success);
  if (adapter) wgpuAdapterRelease(adapter);

  wgpuSurfaceRelease(surface);
  wgpuInstanceRelease(instance);
  xwin_close(&w);
  return test_finish();
}
