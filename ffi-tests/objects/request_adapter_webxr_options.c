/* Rule (webgpu.h: WGPURequestAdapterWebXROptions extends
 * WGPURequestAdapterOptions; DECISIONS "WGPURequestAdapterWebXROptions"): the
 * chained struct is accepted, with xrCompatible false or true, and the
 * request gives an adapter as without it; an sType the header does not
 * allow there still fails the request with Error. */
#include "../mapping/mapping_util.h"

static WGPURequestAdapterStatus status_seen;
static WGPUAdapter adapter_seen;

static void on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message, void *u1,
                       void *u2) {
  (void)message;
  (void)u1;
  (void)u2;
  status_seen = status;
  adapter_seen = adapter;
}

static WGPURequestAdapterStatus request(WGPUInstance inst, const WGPURequestAdapterOptions *o) {
  status_seen = 0;
  adapter_seen = NULL;
  WGPURequestAdapterCallbackInfo cb = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  cb.mode = WGPUCallbackMode_WaitAnyOnly;
  cb.callback = on_adapter;
  WGPUFuture f = wgpuInstanceRequestAdapter(inst, o, cb);
  CHECK_EQ(mu_wait(inst, f), WGPUWaitStatus_Success);
  if (adapter_seen) wgpuAdapterRelease(adapter_seen);
  return status_seen;
}

int main(void) {
  start_watchdog(60);
  WGPUInstance inst = mu_create_instance(0);
  REQUIRE(inst != NULL);
  WGPURequestAdapterWebXROptions xr = WGPU_REQUEST_ADAPTER_WEBXR_OPTIONS_INIT;
  WGPURequestAdapterOptions o = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
  o.nextInChain = &xr.chain;
  xr.xrCompatible = 0;
  CHECK_EQ(request(inst, &o), WGPURequestAdapterStatus_Success);
  xr.xrCompatible = 1;
  CHECK_EQ(request(inst, &o), WGPURequestAdapterStatus_Success);
  /* A struct that extends something else. */
  WGPUShaderSourceWGSL wrong = WGPU_SHADER_SOURCE_WGSL_INIT;
  o.nextInChain = &wrong.chain;
  CHECK_EQ(request(inst, &o), WGPURequestAdapterStatus_Error);
  wgpuInstanceRelease(inst);
  return test_finish();
}
