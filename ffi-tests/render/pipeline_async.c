/* Rule (webgpu.h CreateRenderPipelineAsync, as CreateComputePipelineAsync):
 * a valid descriptor completes with Success, a non-NULL pipeline the
 * application owns, and an empty message; an invalid one (missing entry
 * point, bad target format) with ValidationError, a NULL pipeline and a
 * message. Neither raises a device error: errors go to the callback only. */
#include "render_util.h"

typedef struct {
  int calls;
  WGPUCreatePipelineAsyncStatus status;
  WGPURenderPipeline pipeline;
  int msg_nonempty;
  int msg_empty;
} AsyncResult;

static void on_pipeline(WGPUCreatePipelineAsyncStatus status, WGPURenderPipeline pipeline, WGPUStringView message,
                        void *u1, void *u2) {
  (void)u2;
  AsyncResult *r = (AsyncResult *)u1;
  r->calls++;
  r->status = status;
  r->pipeline = pipeline;
  r->msg_nonempty = mu_msg_nonempty(message);
  r->msg_empty = mu_msg_empty(message);
}

static AsyncResult create_async(Ctx *ctx, const WGPURenderPipelineDescriptor *d, WGPUCallbackMode mode) {
  AsyncResult r;
  memset(&r, 0, sizeof r);
  WGPUCreateRenderPipelineAsyncCallbackInfo ci = WGPU_CREATE_RENDER_PIPELINE_ASYNC_CALLBACK_INFO_INIT;
  ci.mode = mode;
  ci.callback = on_pipeline;
  ci.userdata1 = &r;
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUFuture f = wgpuDeviceCreateRenderPipelineAsync(ctx->device, d, ci);
  CHECK(f.id != 0);
  CHECK_EQ(mu_wait(ctx->instance, f), WGPUWaitStatus_Success);
  CHECK_EQ(r.calls, 1);
  CHECK_EQ(mu_pop_type(ctx), WGPUErrorType_NoError);
  return r;
}

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUShaderModule m = make_wgsl(ctx.device, RU_WGSL);
  REQUIRE(m != NULL);
  RuPipeline p;

  WGPUCallbackMode modes[2] = {WGPUCallbackMode_WaitAnyOnly, WGPUCallbackMode_AllowSpontaneous};
  for (int k = 0; k < 2; k++) {
    ru_pipeline_init(&p, m);
    AsyncResult r = create_async(&ctx, &p.desc, modes[k]);
    CHECK_EQ(r.status, WGPUCreatePipelineAsyncStatus_Success);
    CHECK(r.pipeline != NULL);
    CHECK(r.msg_empty);
    if (r.pipeline) {
      /* The pipeline is owned and valid: its layout can be queried. */
      WGPUBindGroupLayout bgl = NULL;
      EXPECT_NO_VALIDATION(&ctx, bgl = wgpuRenderPipelineGetBindGroupLayout(r.pipeline, 0));
      if (bgl) wgpuBindGroupLayoutRelease(bgl);
      wgpuRenderPipelineRelease(r.pipeline);
    }
  }

  ru_pipeline_init(&p, m);
  p.desc.vertex.entryPoint = sv("missing");
  AsyncResult r1 = create_async(&ctx, &p.desc, WGPUCallbackMode_WaitAnyOnly);
  CHECK_EQ(r1.status, WGPUCreatePipelineAsyncStatus_ValidationError);
  CHECK(r1.pipeline == NULL);
  CHECK(r1.msg_nonempty);

  /* An error this library finds itself (unknown format), spontaneous mode. */
  ru_pipeline_init(&p, m);
  p.target.format = (WGPUTextureFormat)0x7777;
  AsyncResult r2 = create_async(&ctx, &p.desc, WGPUCallbackMode_AllowSpontaneous);
  CHECK_EQ(r2.status, WGPUCreatePipelineAsyncStatus_ValidationError);
  CHECK(r2.pipeline == NULL);
  CHECK(r2.msg_nonempty);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuShaderModuleRelease(m);
  ctx_release(&ctx);
  return test_finish();
}
