/* Rule (WebGPU beginRenderPass, encoder validation): a render pass with no
 * colour attachment and no depth-stencil attachment is invalid, and like
 * every pass error it raises nothing when begun, recorded or ended: the
 * encoder's Finish raises one validation error and returns a non-NULL
 * (invalid) command buffer. Holes (view NULL) do not count as attachments.
 * Errors this library finds itself (a non-finite viewport) are reported by
 * Finish with their own message. Calls on an ended pass raise at once. */
#include "render_util.h"

#include <math.h>

static WGPUCommandBuffer finish(Ctx *ctx, WGPUCommandEncoder enc, PopResult *r) {
  WGPUCommandBuffer cb = NULL;
  RU_CAPTURE(ctx, r, cb = wgpuCommandEncoderFinish(enc, NULL));
  return cb;
}

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUShaderModule m = make_wgsl(ctx.device, RU_WGSL);
  RuPipeline p;
  ru_pipeline_init(&p, m);
  WGPURenderPipeline pipe = wgpuDeviceCreateRenderPipeline(ctx.device, &p.desc);
  PopResult r;

  /* No attachments. */
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
  WGPURenderPassDescriptor d = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
  WGPURenderPassEncoder pass = NULL;
  EXPECT_NO_VALIDATION(&ctx, {
    pass = wgpuCommandEncoderBeginRenderPass(enc, &d);
    wgpuRenderPassEncoderSetLabel(pass, sv("pass"));
    wgpuRenderPassEncoderSetPipeline(pass, pipe);
    wgpuRenderPassEncoderDraw(pass, 3, 1, 0, 0);
    wgpuRenderPassEncoderEnd(pass);
  });
  CHECK(pass != NULL);
  WGPUCommandBuffer cb = finish(&ctx, enc, &r);
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  CHECK(cb != NULL);
  /* Ending again: at once. */
  EXPECT_VALIDATION(&ctx, wgpuRenderPassEncoderEnd(pass));
  EXPECT_VALIDATION(&ctx, wgpuRenderPassEncoderDraw(pass, 3, 1, 0, 0));
  EXPECT_VALIDATION(&ctx, wgpuRenderPassEncoderSetViewport(pass, 0, 0, NAN, 1, 0, 1));
  if (cb) wgpuCommandBufferRelease(cb);
  wgpuRenderPassEncoderRelease(pass);
  wgpuCommandEncoderRelease(enc);

  /* Only holes: still no attachments. */
  WGPURenderPassColorAttachment holes[2] = {WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT,
                                            WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT};
  d.colorAttachmentCount = 2;
  d.colorAttachments = holes;
  enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
  EXPECT_NO_VALIDATION(&ctx, {
    pass = wgpuCommandEncoderBeginRenderPass(enc, &d);
    wgpuRenderPassEncoderEnd(pass);
  });
  cb = finish(&ctx, enc, &r);
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  CHECK(cb != NULL);
  if (cb) wgpuCommandBufferRelease(cb);
  wgpuRenderPassEncoderRelease(pass);
  wgpuCommandEncoderRelease(enc);

  /* A non-finite viewport: our message wins at Finish. */
  enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
  EXPECT_NO_VALIDATION(&ctx, {
    pass = wgpuCommandEncoderBeginRenderPass(enc, &d);
    wgpuRenderPassEncoderSetViewport(pass, 0, 0, NAN, 1, 0, 1);
    wgpuRenderPassEncoderEnd(pass);
  });
  cb = finish(&ctx, enc, &r);
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  CHECK(strstr(r.msg, "non-finite") != NULL);
  if (cb) wgpuCommandBufferRelease(cb);
  wgpuRenderPassEncoderRelease(pass);
  wgpuCommandEncoderRelease(enc);

  /* Control: an encoder without the pass finishes cleanly. */
  enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
  cb = finish(&ctx, enc, &r);
  CHECK_EQ(r.type, WGPUErrorType_NoError);
  if (cb) wgpuCommandBufferRelease(cb);
  wgpuCommandEncoderRelease(enc);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuRenderPipelineRelease(pipe);
  wgpuShaderModuleRelease(m);
  ctx_release(&ctx);
  return test_finish();
}
