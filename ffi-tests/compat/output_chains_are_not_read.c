/* Rule (DECISIONS "Selecting wgpu-native compatibility", UnreadOutputChain):
 * under wgpu-native compatibility the nextInChain of an output struct that
 * wgpu-native never reads (WGPUAdapterInfo, WGPUInstanceLimits,
 * WGPUSurfaceCapabilities, WGPUSurfaceTexture) is not read either: a program
 * written for wgpu-native that declares `WGPUAdapterInfo info;` without
 * INIT does not crash on the garbage pointer. Without compatibility the
 * chain is read (a NULL chain works; a foreign sType is refused). */
#include <webgpu/wgpu.h>

#include "harness.h"

int main(void) {
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  /* Standard rules: the chain is read. */
  WGPUChainedStruct foreign = {NULL, WGPUSType_ShaderSourceWGSL};
  WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
  info.nextInChain = &foreign;
  CHECK_EQ(wgpuAdapterGetInfo(ctx.adapter, &info), WGPUStatus_Error);

  /* A wgpu.h call turns compatibility on; then a garbage chain is left
   * alone, as wgpu-native does. */
  wgpuSetLogLevel(WGPULogLevel_Warn);
  WGPUAdapterInfo garbage;
  memset(&garbage, 0xA5, sizeof garbage);
  CHECK_EQ(wgpuAdapterGetInfo(ctx.adapter, &garbage), WGPUStatus_Success);
  CHECK(garbage.device.length > 0);
  wgpuAdapterInfoFreeMembers(garbage);

  WGPUInstanceLimits limits;
  memset(&limits, 0xA5, sizeof limits);
  CHECK_EQ(wgpuGetInstanceLimits(&limits), WGPUStatus_Success);
  CHECK(limits.timedWaitAnyMaxCount > 0);

  ctx_release(&ctx);
  return test_finish();
}
