/* Rule (texel copies, webgpu.h §5/§7): a CopyTextureToBuffer whose
 * bytesPerRow is not a multiple of 256, whose buffer offset is not a
 * multiple of the texel size, or that reads past the texture, makes Finish
 * raise a validation error (and the command buffer invalid); so does a copy
 * with a garbage aspect; WriteTexture to a texture without CopyDst or with
 * too little data is a validation error at once; submitting a command
 * buffer that uses a texture destroyed after encoding is a validation
 * error, while the same copy on a live texture is not. NULL pointers are
 * rejected, not crashes. */
#include "tex_util.h"

#define W 8u
#define H 4u

static int finish_error(Ctx *ctx, WGPUTexelCopyTextureInfo src, WGPUTexelCopyBufferInfo dst, WGPUExtent3D size) {
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  wgpuCommandEncoderCopyTextureToBuffer(enc, &src, &dst, &size);
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  int ok = mu_pop_type(ctx) == WGPUErrorType_Validation && cmd != NULL;
  if (cmd) wgpuCommandBufferRelease(cmd);
  wgpuCommandEncoderRelease(enc);
  return ok;
}

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  WGPUTexture t = tu_texture(&ctx, W, H, WGPUTextureFormat_RGBA8Unorm, WGPUTextureUsage_CopySrc);
  WGPUBuffer b = make_buffer(ctx.device, 4096, WGPUBufferUsage_CopyDst, 0);
  REQUIRE(t && b);
  WGPUTexelCopyTextureInfo src = tu_tex_info(t);
  WGPUExtent3D size = {W, H, 1};

  WGPUTexelCopyBufferInfo dst = tu_buf_info(b, 100, H);
  CHECK(finish_error(&ctx, src, dst, size));
  dst = tu_buf_info(b, 256, H);
  dst.layout.offset = 2;
  CHECK(finish_error(&ctx, src, dst, size));
  dst = tu_buf_info(b, 256, H);
  WGPUExtent3D too_big = {W + 1, H, 1};
  CHECK(finish_error(&ctx, src, dst, too_big));
  WGPUTexelCopyTextureInfo bad_aspect = src;
  bad_aspect.aspect = (WGPUTextureAspect)0x33;
  CHECK(finish_error(&ctx, bad_aspect, dst, size));

  /* WriteTexture errors are immediate. */
  uint8_t data[W * H * 4] = {0};
  WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
  layout.bytesPerRow = W * 4;
  EXPECT_VALIDATION(&ctx, wgpuQueueWriteTexture(ctx.queue, &src, data, sizeof data, &layout, &size));
  WGPUTexture w = tu_texture(&ctx, W, H, WGPUTextureFormat_RGBA8Unorm, WGPUTextureUsage_CopyDst);
  WGPUTexelCopyTextureInfo wdst = tu_tex_info(w);
  EXPECT_VALIDATION(&ctx, wgpuQueueWriteTexture(ctx.queue, &wdst, data, sizeof data - 4, &layout, &size));
  EXPECT_NO_VALIDATION(&ctx, wgpuQueueWriteTexture(ctx.queue, &wdst, data, sizeof data, &layout, &size));

  /* A valid copy submits cleanly; the same copy after destroying the
   * texture fails at submit. */
  for (int destroy = 0; destroy < 2; destroy++) {
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
    WGPUExtent3D s = size;
    wgpuCommandEncoderCopyTextureToBuffer(enc, &src, &dst, &s);
    WGPUCommandBuffer cmd = NULL;
    EXPECT_NO_VALIDATION(&ctx, cmd = wgpuCommandEncoderFinish(enc, NULL));
    if (destroy) wgpuTextureDestroy(t);
    wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
    wgpuQueueSubmit(ctx.queue, 1, &cmd);
    CHECK_EQ(mu_pop_type(&ctx), destroy ? WGPUErrorType_Validation : WGPUErrorType_NoError);
    wgpuCommandBufferRelease(cmd);
    wgpuCommandEncoderRelease(enc);
  }

  /* NULL pointers: rejected and logged, nothing recorded. */
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
  wgpuCommandEncoderCopyTextureToBuffer(enc, NULL, &dst, &size);
  wgpuCommandEncoderCopyBufferToTexture(enc, &dst, &wdst, NULL);
  wgpuCommandEncoderCopyTextureToTexture(enc, &wdst, NULL, &size);
  wgpuQueueWriteTexture(ctx.queue, NULL, data, sizeof data, &layout, &size);
  WGPUCommandBuffer cmd = NULL;
  EXPECT_NO_VALIDATION(&ctx, cmd = wgpuCommandEncoderFinish(enc, NULL));
  wgpuCommandBufferRelease(cmd);
  wgpuCommandEncoderRelease(enc);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  wgpuTextureRelease(w);
  wgpuTextureRelease(t);
  wgpuBufferRelease(b);
  ctx_release(&ctx);
  return test_finish();
}
