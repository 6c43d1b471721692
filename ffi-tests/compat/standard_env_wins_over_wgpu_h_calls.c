/* Rule (DECISIONS "Selecting wgpu-native compatibility"):
 * WGPU_SHIM_COMPAT=standard keeps the standard's rules even after a wgpu.h
 * call, and WGPU_SHIM_COMPAT=wgpu-native (the other test run of this
 * program, argv[1] = "native") turns wgpu-native's on before any. */
#include <stdlib.h>

#include <webgpu/wgpu.h>

#include "compat_util.h"
#include "harness.h"

int main(int argc, char **argv) {
  int native = argc > 1 && strcmp(argv[1], "native") == 0;
  setenv("WGPU_SHIM_COMPAT", native ? "wgpu-native" : "standard", 1);
  if (!native) wgpuSetLogLevel(WGPULogLevel_Warn);
  WGPUInstance instance = wgpuCreateInstance(NULL);
  REQUIRE(instance != NULL);
  CuState s;
  memset(&s, 0, sizeof s);
  WGPUFuture f = cu_request_adapter(instance, &s);
  /* Called once inside the call either way: with an adapter under
   * wgpu-native's rules (a real future), with Error under the standard's
   * (mode 0 is refused: the null future, DECISIONS). */
  CHECK(native ? f.id != 0 : f.id == 0);
  CHECK_EQ(s.adapter_calls, 1);
  CHECK(native ? s.adapter != NULL : s.adapter == NULL);
  wgpuInstanceProcessEvents(instance);
  CHECK_EQ(s.adapter_calls, 1);
  if (s.adapter) wgpuAdapterRelease(s.adapter);
  wgpuInstanceRelease(instance);
  return test_finish();
}
