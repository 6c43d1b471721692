/* Rule (texel copies): data copied buffer -> texture (CopyBufferToTexture,
 * bytesPerRow 256, at a buffer offset), then texture -> texture
 * (CopyTextureToTexture, whole and into an origin of a larger texture), then
 * texture -> buffer comes back texel for texel, in one or several command
 * buffers. No validation error on the way. */
#include "tex_util.h"

#define W 16u
#define H 8u

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);

  const uint32_t bpr = 256, offset = 512;
  uint8_t *staging = (uint8_t *)calloc(offset + bpr * H, 1);
  REQUIRE(staging != NULL);
  tu_fill(staging + offset, W, H, bpr, 9);
  WGPUBuffer buf = make_buffer(ctx.device, offset + bpr * H, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 0);
  REQUIRE(buf != NULL);
  wgpuQueueWriteBuffer(ctx.queue, buf, 0, staging, offset + bpr * H);

  WGPUTextureUsage u = WGPUTextureUsage_CopyDst | WGPUTextureUsage_CopySrc;
  WGPUTexture a = tu_texture(&ctx, W, H, WGPUTextureFormat_RGBA8Uint, u);
  WGPUTexture b = tu_texture(&ctx, W, H, WGPUTextureFormat_RGBA8Uint, u);
  WGPUTexture big = tu_texture(&ctx, W + 8, H + 4, WGPUTextureFormat_RGBA8Uint, u);
  REQUIRE(a && b && big);

  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
  WGPUTexelCopyBufferInfo bsrc = tu_buf_info(buf, bpr, H);
  bsrc.layout.offset = offset;
  WGPUTexelCopyTextureInfo ta = tu_tex_info(a), tb = tu_tex_info(b), tbig = tu_tex_info(big);
  WGPUExtent3D size = {W, H, 1};
  wgpuCommandEncoderCopyBufferToTexture(enc, &bsrc, &ta, &size);
  wgpuCommandEncoderCopyTextureToTexture(enc, &ta, &tb, &size);
  tbig.origin.x = 8;
  tbig.origin.y = 4;
  wgpuCommandEncoderCopyTextureToTexture(enc, &tb, &tbig, &size);
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  wgpuQueueSubmit(ctx.queue, 1, &cmd);
  wgpuCommandBufferRelease(cmd);
  wgpuCommandEncoderRelease(enc);

  uint8_t got[W * H * 4];
  memset(got, 0, sizeof got);
  CHECK(tu_read_rgba8(&ctx, b, W, H, got));
  CHECK_EQ(tu_mismatches(got, W, H, 9), 0);

  /* The copy into `big` landed at (8, 4): read big back, compare the region. */
  uint8_t *all = (uint8_t *)malloc((W + 8) * (H + 4) * 4);
  REQUIRE(all != NULL);
  CHECK(tu_read_rgba8(&ctx, big, W + 8, H + 4, all));
  for (uint32_t y = 0; y < H; y++)
    memcpy(got + (size_t)y * W * 4, all + ((size_t)(y + 4) * (W + 8) + 8) * 4, W * 4);
  CHECK_EQ(tu_mismatches(got, W, H, 9), 0);
  /* Outside the region: zero (textures start zeroed). */
  int nonzero = 0;
  for (uint32_t x = 0; x < (W + 8) * 4; x++) nonzero += all[x] != 0;
  CHECK_EQ(nonzero, 0);

  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  free(all);
  free(staging);
  wgpuTextureRelease(big);
  wgpuTextureRelease(b);
  wgpuTextureRelease(a);
  wgpuBufferRelease(buf);
  ctx_release(&ctx);
  return test_finish();
}
