/* Rule (webgpu.h §7, texel copies): texel data written with QueueWriteTexture
 * (tightly packed rows, and padded rows at a data offset) comes back intact
 * through CopyTextureToBuffer with a 256-aligned bytesPerRow and a mapped
 * read, texel by texel; a partial write at an origin changes only its region.
 * No validation error on the way. */
#include "tex_util.h"

#define W 37u
#define H 19u

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);

  WGPUTexture t = tu_texture(&ctx, W, H, WGPUTextureFormat_RGBA8Unorm,
                             WGPUTextureUsage_CopyDst | WGPUTextureUsage_CopySrc);
  REQUIRE(t != NULL);
  uint8_t *src = (uint8_t *)malloc(W * H * 4);
  uint8_t *got = (uint8_t *)malloc(W * H * 4);
  REQUIRE(src && got);

  /* Tightly packed rows. */
  tu_fill(src, W, H, W * 4, 1);
  WGPUTexelCopyTextureInfo dst = tu_tex_info(t);
  WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
  layout.bytesPerRow = W * 4;
  layout.rowsPerImage = H;
  WGPUExtent3D size = {W, H, 1};
  wgpuQueueWriteTexture(ctx.queue, &dst, src, W * H * 4, &layout, &size);
  memset(got, 0, W * H * 4);
  CHECK(tu_read_rgba8(&ctx, t, W, H, got));
  CHECK_EQ(tu_mismatches(got, W, H, 1), 0);

  /* Padded rows (stride 200) after a 12-byte offset. */
  size_t stride = 200, offset = 12;
  uint8_t *padded = (uint8_t *)calloc(offset + stride * H, 1);
  REQUIRE(padded != NULL);
  tu_fill(padded + offset, W, H, (uint32_t)stride, 2);
  layout.offset = offset;
  layout.bytesPerRow = (uint32_t)stride;
  layout.rowsPerImage = WGPU_COPY_STRIDE_UNDEFINED;
  wgpuQueueWriteTexture(ctx.queue, &dst, padded, offset + stride * H, &layout, &size);
  memset(got, 0, W * H * 4);
  CHECK(tu_read_rgba8(&ctx, t, W, H, got));
  CHECK_EQ(tu_mismatches(got, W, H, 2), 0);

  /* A 4x3 patch at (5, 6) of all 0xAB bytes. */
  uint8_t patch[4 * 3 * 4];
  memset(patch, 0xAB, sizeof patch);
  dst.origin.x = 5;
  dst.origin.y = 6;
  layout.offset = 0;
  layout.bytesPerRow = 16;
  WGPUExtent3D psize = {4, 3, 1};
  wgpuQueueWriteTexture(ctx.queue, &dst, patch, sizeof patch, &layout, &psize);
  CHECK(tu_read_rgba8(&ctx, t, W, H, got));
  int bad = 0;
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) {
      uint8_t want[4];
      int in = x >= 5 && x < 9 && y >= 6 && y < 9;
      if (in)
        memset(want, 0xAB, 4);
      else
        tu_texel(x, y, 2, want);
      if (memcmp(got + ((size_t)y * W + x) * 4, want, 4) != 0) bad++;
    }
  CHECK_EQ(bad, 0);

  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  free(padded);
  free(got);
  free(src);
  wgpuTextureRelease(t);
  ctx_release(&ctx);
  return test_finish();
}
