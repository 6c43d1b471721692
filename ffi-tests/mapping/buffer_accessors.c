/* Rule (webgpu.h §9, JS GPUBuffer attributes): wgpuBufferGetSize and
 * wgpuBufferGetUsage return the descriptor's size and usage, and
 * wgpuBufferGetMapState the map state, for a valid buffer, for an error
 * (invalid) buffer, and for a destroyed buffer. Destroy may be called twice
 * (also on an error buffer) without any error. */
#include "mapping_util.h"

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  /* Valid. */
  WGPUBufferUsage u1 = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  WGPUBuffer ok = NULL;
  EXPECT_NO_VALIDATION(&ctx, ok = make_buffer(ctx.device, 100, u1, 0));
  REQUIRE(ok != NULL);
  CHECK_EQ(wgpuBufferGetSize(ok), 100);
  CHECK_EQ(wgpuBufferGetUsage(ok), u1);
  CHECK_EQ(wgpuBufferGetMapState(ok), WGPUBufferMapState_Unmapped);

  WGPUBufferUsage u2 = WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst |
                       WGPUBufferUsage_Uniform | WGPUBufferUsage_Vertex | WGPUBufferUsage_Index |
                       WGPUBufferUsage_Indirect;
  WGPUBuffer many = make_buffer(ctx.device, 4096, u2, 0);
  CHECK_EQ(wgpuBufferGetSize(many), 4096);
  CHECK_EQ(wgpuBufferGetUsage(many), u2);

  /* Error buffer (MapRead | MapWrite is invalid): still reports the
   * descriptor's size and usage, Unmapped. */
  WGPUBufferUsage ubad = WGPUBufferUsage_MapRead | WGPUBufferUsage_MapWrite;
  WGPUBuffer bad = NULL;
  EXPECT_VALIDATION(&ctx, bad = make_buffer(ctx.device, 48, ubad, 0));
  REQUIRE(bad != NULL);
  CHECK_EQ(wgpuBufferGetSize(bad), 48);
  CHECK_EQ(wgpuBufferGetUsage(bad), ubad);
  CHECK_EQ(wgpuBufferGetMapState(bad), WGPUBufferMapState_Unmapped);

  /* Error buffer created mapped: Mapped until Unmap. */
  WGPUBuffer badm = NULL;
  EXPECT_VALIDATION(&ctx, badm = make_buffer(ctx.device, 32, ubad, 1));
  REQUIRE(badm != NULL);
  CHECK_EQ(wgpuBufferGetSize(badm), 32);
  CHECK_EQ(wgpuBufferGetMapState(badm), WGPUBufferMapState_Mapped);
  wgpuBufferUnmap(badm);
  CHECK_EQ(wgpuBufferGetMapState(badm), WGPUBufferMapState_Unmapped);

  /* Destroyed: same size and usage, Unmapped; Destroy twice is fine. */
  EXPECT_NO_VALIDATION(&ctx, wgpuBufferDestroy(ok); wgpuBufferDestroy(ok));
  CHECK_EQ(wgpuBufferGetSize(ok), 100);
  CHECK_EQ(wgpuBufferGetUsage(ok), u1);
  CHECK_EQ(wgpuBufferGetMapState(ok), WGPUBufferMapState_Unmapped);
  EXPECT_NO_VALIDATION(&ctx, wgpuBufferDestroy(bad); wgpuBufferDestroy(bad));
  CHECK_EQ(wgpuBufferGetSize(bad), 48);
  CHECK_EQ(wgpuBufferGetUsage(bad), ubad);
  CHECK_EQ(wgpuBufferGetMapState(bad), WGPUBufferMapState_Unmapped);

  /* Mapped, then destroyed. */
  WGPUBuffer m = make_buffer(ctx.device, 64, WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc, 1);
  REQUIRE(m != NULL);
  CHECK_EQ(wgpuBufferGetMapState(m), WGPUBufferMapState_Mapped);
  EXPECT_NO_VALIDATION(&ctx, wgpuBufferDestroy(m); wgpuBufferDestroy(m));
  CHECK_EQ(wgpuBufferGetMapState(m), WGPUBufferMapState_Unmapped);
  CHECK_EQ(wgpuBufferGetSize(m), 64);
  CHECK_EQ(wgpuBufferGetUsage(m), WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc);

  /* The getters stay right after the device is destroyed, too. */
  wgpuDeviceDestroy(ctx.device);
  CHECK_EQ(wgpuBufferGetSize(many), 4096);
  CHECK_EQ(wgpuBufferGetUsage(many), u2);
  CHECK_EQ(wgpuBufferGetMapState(many), WGPUBufferMapState_Unmapped);
  wgpuBufferDestroy(many);

  wgpuBufferRelease(ok);
  wgpuBufferRelease(many);
  wgpuBufferRelease(bad);
  wgpuBufferRelease(badm);
  wgpuBufferRelease(m);
  ctx_release(&ctx);
  return test_finish();
}
