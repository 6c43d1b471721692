/* Rule (webgpu.h §2 "Callback arguments", §3, §8.1): CreateComputePipelineAsync
 * with a valid descriptor completes with Success, an (owned) non-NULL pipeline
 * that works, and an empty message; with an invalid descriptor (missing entry
 * point, invalid module, entry point of a layout mismatch) it completes with
 * ValidationError, a NULL pipeline and a non-empty message -- and raises NO
 * device error (the failure is reported through the callback only). A null
 * entry point means the module's only compute entry point. */
#include "../mapping/mapping_util.h"

typedef struct {
  int calls;
  WGPUCreatePipelineAsyncStatus status;
  WGPUComputePipeline pipeline;
  int msg_nonempty;
  int msg_empty;
} AsyncResult;

static void on_pipeline(WGPUCreatePipelineAsyncStatus status, WGPUComputePipeline pipeline, WGPUStringView message,
                        void *u1, void *u2) {
  (void)u2;
  AsyncResult *r = (AsyncResult *)u1;
  r->calls++;
  r->status = status;
  r->pipeline = pipeline;
  r->msg_nonempty = mu_msg_nonempty(message);
  r->msg_empty = mu_msg_empty(message);
}

static AsyncResult create_async(Ctx *ctx, const WGPUComputePipelineDescriptor *d, WGPUCallbackMode mode) {
  AsyncResult r;
  memset(&r, 0, sizeof r);
  WGPUCreateComputePipelineAsyncCallbackInfo ci = WGPU_CREATE_COMPUTE_PIPELINE_ASYNC_CALLBACK_INFO_INIT;
  ci.mode = mode;
  ci.callback = on_pipeline;
  ci.userdata1 = &r;
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUFuture f = wgpuDeviceCreateComputePipelineAsync(ctx->device, d, ci);
  CHECK_EQ(mu_wait(ctx->instance, f), WGPUWaitStatus_Success);
  CHECK_EQ(r.calls, 1);
  /* No device error either way. */
  CHECK_EQ(mu_pop_type(ctx), WGPUErrorType_NoError);
  return r;
}

/* Runs the pipeline (doubling shader, auto layout) over 64 words. */
static int pipeline_works(Ctx *ctx, WGPUComputePipeline p) {
  uint32_t in[64], out[64];
  for (uint32_t i = 0; i < 64; i++) in[i] = i + 1;
  WGPUBuffer b = make_buffer(ctx->device, sizeof in,
                             WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 0);
  wgpuQueueWriteBuffer(ctx->queue, b, 0, in, sizeof in);
  WGPUBindGroupLayout bgl = wgpuComputePipelineGetBindGroupLayout(p, 0);
  WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
  e.binding = 0;
  e.buffer = b;
  e.size = WGPU_WHOLE_SIZE;
  WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  bd.layout = bgl;
  bd.entryCount = 1;
  bd.entries = &e;
  WGPUBindGroup bg = wgpuDeviceCreateBindGroup(ctx->device, &bd);
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, NULL);
  wgpuComputePassEncoderSetPipeline(pass, p);
  wgpuComputePassEncoderSetBindGroup(pass, 0, bg, 0, NULL);
  wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
  wgpuComputePassEncoderEnd(pass);
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  wgpuQueueSubmit(ctx->queue, 1, &cmd);
  int ok = mu_read_buffer(ctx, b, 0, out, sizeof out);
  for (uint32_t i = 0; ok && i < 64; i++) ok = out[i] == 2 * (i + 1);
  wgpuCommandBufferRelease(cmd);
  wgpuComputePassEncoderRelease(pass);
  wgpuCommandEncoderRelease(enc);
  wgpuBindGroupRelease(bg);
  wgpuBindGroupLayoutRelease(bgl);
  wgpuBufferRelease(b);
  return ok;
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUShaderModule m = make_wgsl(ctx.device, MU_DOUBLE_WGSL);
  REQUIRE(m != NULL);

  /* Valid, named entry point, WaitAnyOnly and AllowSpontaneous. */
  WGPUComputePipelineDescriptor d = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  d.compute.module = m;
  d.compute.entryPoint = sv("main");
  WGPUCallbackMode modes[2] = {WGPUCallbackMode_WaitAnyOnly, WGPUCallbackMode_AllowSpontaneous};
  for (int k = 0; k < 2; k++) {
    AsyncResult r = create_async(&ctx, &d, modes[k]);
    CHECK_EQ(r.status, WGPUCreatePipelineAsyncStatus_Success);
    CHECK(r.pipeline != NULL);
    CHECK(r.msg_empty);
    if (r.pipeline) {
      CHECK(pipeline_works(&ctx, r.pipeline));
      wgpuComputePipelineRelease(r.pipeline);
    }
  }

  /* Null entry point: the only compute entry point. */
  d.compute.entryPoint = (WGPUStringView)WGPU_STRING_VIEW_INIT;
  AsyncResult rn = create_async(&ctx, &d, WGPUCallbackMode_WaitAnyOnly);
  CHECK_EQ(rn.status, WGPUCreatePipelineAsyncStatus_Success);
  CHECK(rn.pipeline != NULL);
  if (rn.pipeline) wgpuComputePipelineRelease(rn.pipeline);

  /* Missing entry point. */
  d.compute.entryPoint = sv("does_not_exist");
  AsyncResult r1 = create_async(&ctx, &d, WGPUCallbackMode_WaitAnyOnly);
  CHECK_EQ(r1.status, WGPUCreatePipelineAsyncStatus_ValidationError);
  CHECK(r1.pipeline == NULL);
  CHECK(r1.msg_nonempty);

  /* Explicit-length entry point that is a prefix of a real one: "mai". */
  d.compute.entryPoint = mu_svn("main", 3);
  AsyncResult r2 = create_async(&ctx, &d, WGPUCallbackMode_AllowSpontaneous);
  CHECK_EQ(r2.status, WGPUCreatePipelineAsyncStatus_ValidationError);
  CHECK(r2.pipeline == NULL);
  CHECK(r2.msg_nonempty);

  /* Invalid module. */
  WGPUShaderModule bad = NULL;
  EXPECT_VALIDATION(&ctx, bad = make_wgsl(ctx.device, "fn main( {"));
  d.compute.module = bad;
  d.compute.entryPoint = sv("main");
  AsyncResult r3 = create_async(&ctx, &d, WGPUCallbackMode_WaitAnyOnly);
  CHECK_EQ(r3.status, WGPUCreatePipelineAsyncStatus_ValidationError);
  CHECK(r3.pipeline == NULL);
  CHECK(r3.msg_nonempty);

  /* Explicit layout that does not match the shader (no bind groups). */
  WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
  WGPUPipelineLayout empty = wgpuDeviceCreatePipelineLayout(ctx.device, &pld);
  d.compute.module = m;
  d.layout = empty;
  AsyncResult r4 = create_async(&ctx, &d, WGPUCallbackMode_WaitAnyOnly);
  CHECK_EQ(r4.status, WGPUCreatePipelineAsyncStatus_ValidationError);
  CHECK(r4.pipeline == NULL);
  CHECK(r4.msg_nonempty);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuPipelineLayoutRelease(empty);
  if (bad) wgpuShaderModuleRelease(bad);
  wgpuShaderModuleRelease(m);
  ctx_release(&ctx);
  return test_finish();
}
