/* Rule (WebGPU createQuerySet): a query set of 0 queries is valid (wgpu-core
 * 30 refuses it): it is made without error, reports count 0 and its type,
 * and can be destroyed. A render pass may name it as occlusionQuerySet and is
 * valid while it begins no query; beginning query 0 makes the pass invalid,
 * as does resolving any query of it. Resolving 0 queries from index 0 is
 * valid. Each error is raised at Finish, like the other encoding errors. */
#include "tex_util.h"

/* A render pass on a fresh 4x4 target naming `set` as its occlusion query
 * set; with `begin`, it begins and ends query 0. Returns the error type of
 * Finish. */
static WGPUErrorType occlusion_pass(Ctx *ctx, WGPUQuerySet set, int begin) {
  WGPUTexture t = tu_texture(ctx, 4, 4, WGPUTextureFormat_RGBA8Unorm, WGPUTextureUsage_RenderAttachment);
  WGPUTextureView v = wgpuTextureCreateView(t, NULL);
  WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
  ca.view = v;
  ca.loadOp = WGPULoadOp_Clear;
  ca.storeOp = WGPUStoreOp_Store;
  WGPURenderPassDescriptor rd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
  rd.colorAttachmentCount = 1;
  rd.colorAttachments = &ca;
  rd.occlusionQuerySet = set;
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &rd);
  if (begin) {
    wgpuRenderPassEncoderBeginOcclusionQuery(pass, 0);
    wgpuRenderPassEncoderEndOcclusionQuery(pass);
  }
  wgpuRenderPassEncoderEnd(pass);
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  WGPUErrorType type = mu_pop_type(ctx);
  if (cmd) wgpuCommandBufferRelease(cmd);
  wgpuRenderPassEncoderRelease(pass);
  wgpuCommandEncoderRelease(enc);
  wgpuTextureViewRelease(v);
  wgpuTextureRelease(t);
  return type;
}

/* Resolves `count` queries from `first` of `set`; the error type of Finish. */
static WGPUErrorType resolve(Ctx *ctx, WGPUQuerySet set, WGPUBuffer dst, uint32_t first, uint32_t count) {
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  wgpuCommandEncoderResolveQuerySet(enc, set, first, count, dst, 0);
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  WGPUErrorType type = mu_pop_type(ctx);
  if (cmd) wgpuCommandBufferRelease(cmd);
  wgpuCommandEncoderRelease(enc);
  return type;
}

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUQuerySetDescriptor d = WGPU_QUERY_SET_DESCRIPTOR_INIT;
  d.type = WGPUQueryType_Occlusion;
  d.count = 0;
  WGPUQuerySet none = NULL;
  EXPECT_NO_VALIDATION(&ctx, none = wgpuDeviceCreateQuerySet(ctx.device, &d));
  REQUIRE(none != NULL);
  CHECK_EQ(wgpuQuerySetGetCount(none), 0);
  CHECK_EQ(wgpuQuerySetGetType(none), WGPUQueryType_Occlusion);

  CHECK_EQ(occlusion_pass(&ctx, none, 0), WGPUErrorType_NoError);
  CHECK_EQ(occlusion_pass(&ctx, none, 1), WGPUErrorType_Validation);

  WGPUBuffer dst = make_buffer(ctx.device, 256, WGPUBufferUsage_QueryResolve, 0);
  CHECK_EQ(resolve(&ctx, none, dst, 0, 0), WGPUErrorType_NoError);
  CHECK_EQ(resolve(&ctx, none, dst, 0, 1), WGPUErrorType_Validation);
  CHECK_EQ(resolve(&ctx, none, dst, 1, 0), WGPUErrorType_Validation);

  /* A set of one query, for comparison: query 0 is in range. */
  d.count = 1;
  WGPUQuerySet one = NULL;
  EXPECT_NO_VALIDATION(&ctx, one = wgpuDeviceCreateQuerySet(ctx.device, &d));
  CHECK_EQ(occlusion_pass(&ctx, one, 1), WGPUErrorType_NoError);
  CHECK_EQ(resolve(&ctx, one, dst, 0, 1), WGPUErrorType_NoError);

  EXPECT_NO_VALIDATION(&ctx, wgpuQuerySetDestroy(none));
  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuQuerySetRelease(one);
  wgpuQuerySetRelease(none);
  wgpuBufferRelease(dst);
  ctx_release(&ctx);
  return test_finish();
}
