/* Rule (WebGPU: a destroyed texture is checked when a submit uses it): a view
 * made of a texture after its Destroy is a valid view; a render pass on it
 * records and finishes without error; the submit that uses it is the
 * validation error. A view made before Destroy behaves the same. wgpu-core
 * 30 refuses to make a view of a destroyed texture, which used to move the
 * error to Finish. (A bind group of such a view is still refused at its
 * creation, by wgpu-core: not covered here.) */
#include "tex_util.h"

/* A render pass that clears `view`: finishing raises nothing; the submit's
 * error type is returned. */
static WGPUErrorType clear_and_submit(Ctx *ctx, WGPUTextureView view) {
  WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
  ca.view = view;
  ca.loadOp = WGPULoadOp_Clear;
  ca.storeOp = WGPUStoreOp_Store;
  WGPURenderPassDescriptor rd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
  rd.colorAttachmentCount = 1;
  rd.colorAttachments = &ca;
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPUCommandBuffer cmd = NULL;
  EXPECT_NO_VALIDATION(ctx, {
    WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &rd);
    wgpuRenderPassEncoderEnd(pass);
    wgpuRenderPassEncoderRelease(pass);
    cmd = wgpuCommandEncoderFinish(enc, NULL);
  });
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  wgpuQueueSubmit(ctx->queue, 1, &cmd);
  WGPUErrorType type = mu_pop_type(ctx);
  wgpuCommandBufferRelease(cmd);
  wgpuCommandEncoderRelease(enc);
  return type;
}

static WGPUTexture make(Ctx *ctx) {
  return tu_texture(ctx, 8, 8, WGPUTextureFormat_RGBA8Unorm,
                    WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding);
}

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  /* A live texture: nothing fails. */
  WGPUTexture live = make(&ctx);
  WGPUTextureView live_view = wgpuTextureCreateView(live, NULL);
  CHECK_EQ(clear_and_submit(&ctx, live_view), WGPUErrorType_NoError);

  /* A view made after Destroy. */
  WGPUTexture t = make(&ctx);
  wgpuTextureDestroy(t);
  WGPUTextureView after = NULL;
  EXPECT_NO_VALIDATION(&ctx, after = wgpuTextureCreateView(t, NULL));
  REQUIRE(after != NULL);
  CHECK_EQ(clear_and_submit(&ctx, after), WGPUErrorType_Validation);

  /* A view made before Destroy. */
  WGPUTexture t2 = make(&ctx);
  WGPUTextureView before = wgpuTextureCreateView(t2, NULL);
  wgpuTextureDestroy(t2);
  CHECK_EQ(clear_and_submit(&ctx, before), WGPUErrorType_Validation);

  /* The device still works. */
  CHECK_EQ(clear_and_submit(&ctx, live_view), WGPUErrorType_NoError);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  wgpuTextureViewRelease(before);
  wgpuTextureViewRelease(after);
  wgpuTextureViewRelease(live_view);
  wgpuTextureRelease(t2);
  wgpuTextureRelease(t);
  wgpuTextureRelease(live);
  ctx_release(&ctx);
  return test_finish();
}
