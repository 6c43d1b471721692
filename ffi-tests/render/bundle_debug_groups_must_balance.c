/* Rule (WebGPU GPUDebugCommandsMixin, render bundle encoders): debug groups
 * must balance. A pop with no group open, or a group still open at Finish,
 * makes Finish a validation error and the bundle invalid (wgpu-core 30 does
 * not check a bundle's balance); nothing is raised while recording. Balanced
 * and nested groups raise nothing. */
#include "render_util.h"

/* Records `ops` ('(' push, ')' pop) into a fresh encoder and finishes it;
 * returns the error type Finish raised. Recording must raise nothing. */
static WGPUErrorType record(Ctx *ctx, const char *ops) {
  WGPUTextureFormat f = WGPUTextureFormat_RGBA8Unorm;
  WGPURenderBundleEncoder be = ru_bundle_encoder(ctx->device, &f);
  EXPECT_NO_VALIDATION(ctx, {
    for (const char *c = ops; *c; c++) {
      if (*c == '(') wgpuRenderBundleEncoderPushDebugGroup(be, sv("group"));
      else wgpuRenderBundleEncoderPopDebugGroup(be);
    }
  });
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPURenderBundle b = wgpuRenderBundleEncoderFinish(be, NULL);
  WGPUErrorType type = mu_pop_type(ctx);
  CHECK(b != NULL);
  if (b) wgpuRenderBundleRelease(b);
  wgpuRenderBundleEncoderRelease(be);
  return type;
}

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  CHECK_EQ(record(&ctx, ""), WGPUErrorType_NoError);
  CHECK_EQ(record(&ctx, "()"), WGPUErrorType_NoError);
  CHECK_EQ(record(&ctx, "(())()"), WGPUErrorType_NoError);
  CHECK_EQ(record(&ctx, "("), WGPUErrorType_Validation);
  CHECK_EQ(record(&ctx, "(()"), WGPUErrorType_Validation);
  CHECK_EQ(record(&ctx, ")"), WGPUErrorType_Validation);
  CHECK_EQ(record(&ctx, "())("), WGPUErrorType_Validation);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
