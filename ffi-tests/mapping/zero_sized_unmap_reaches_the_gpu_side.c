/* Rule (webgpu.h §9.3, §9.5): Unmap ends every mapping, whatever its size: a
 * zero-sized buffer created with mappedAtCreation, or mapped with MapAsync,
 * and then unmapped, can be used in a submit with no validation error (a
 * submit that uses a buffer still mapped is one). The same holds for a
 * buffer of non-zero size mapped at creation. */
#include "mapping_util.h"

/* Copies 0 bytes from `src` (which the submit then uses) and submits. */
static void submit_using(Ctx *ctx, WGPUBuffer src, WGPUBuffer dst) {
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  wgpuCommandEncoderCopyBufferToBuffer(enc, src, 0, dst, 0, 0);
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  wgpuQueueSubmit(ctx->queue, 1, &cmd);
  wgpuCommandBufferRelease(cmd);
  wgpuCommandEncoderRelease(enc);
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUBuffer dst = make_buffer(ctx.device, 16, WGPUBufferUsage_CopyDst, 0);
  REQUIRE(dst != NULL);

  /* Zero-sized, mapped at creation. */
  WGPUBuffer zero = make_buffer(ctx.device, 0, WGPUBufferUsage_CopySrc, 1);
  REQUIRE(zero != NULL);
  CHECK_EQ(wgpuBufferGetMapState(zero), WGPUBufferMapState_Mapped);
  wgpuBufferUnmap(zero);
  CHECK_EQ(wgpuBufferGetMapState(zero), WGPUBufferMapState_Unmapped);
  EXPECT_NO_VALIDATION(&ctx, submit_using(&ctx, zero, dst));
  wgpuBufferRelease(zero);

  /* Zero-sized, mapped with MapAsync. */
  WGPUBuffer zw = make_buffer(ctx.device, 0, WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc, 0);
  REQUIRE(zw != NULL);
  CHECK_EQ(mu_map_wait(ctx.instance, zw, WGPUMapMode_Write, 0, WGPU_WHOLE_MAP_SIZE), WGPUMapAsyncStatus_Success);
  wgpuBufferUnmap(zw);
  EXPECT_NO_VALIDATION(&ctx, submit_using(&ctx, zw, dst));
  wgpuBufferRelease(zw);

  /* Non-zero, mapped at creation. */
  WGPUBuffer some = make_buffer(ctx.device, 16, WGPUBufferUsage_CopySrc, 1);
  REQUIRE(some != NULL);
  wgpuBufferUnmap(some);
  EXPECT_NO_VALIDATION(&ctx, submit_using(&ctx, some, dst));
  /* Still mapped: the submit is a validation error. */
  WGPUBuffer held = make_buffer(ctx.device, 0, WGPUBufferUsage_CopySrc, 1);
  EXPECT_VALIDATION(&ctx, submit_using(&ctx, held, dst));
  wgpuBufferRelease(held);
  wgpuBufferRelease(some);

  wgpuBufferRelease(dst);
  ctx_release(&ctx);
  return test_finish();
}
