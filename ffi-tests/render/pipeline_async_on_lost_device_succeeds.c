/* Rule (DECISIONS "CreateComputePipelineAsync on a lost device",
 * "CreateRenderPipelineAsync"): on a destroyed (lost) device both async
 * creations call back once, inside the call when AllowSpontaneous, with
 * Success and a non-NULL pipeline (an invalid object, as JS resolves with
 * one); no error reaches an error scope or the uncaptured-error callback.
 * The same device before its destruction also gives the same queue pointer
 * on every wgpuDeviceGetQueue (DECISIONS "wgpuDeviceGetQueue called again"). */
#include "render_util.h"

static int compute_calls, render_calls;
static WGPUCreatePipelineAsyncStatus compute_status, render_status;
static WGPUComputePipeline compute_pipeline;
static WGPURenderPipeline render_pipeline;

static void on_compute(WGPUCreatePipelineAsyncStatus s, WGPUComputePipeline p, WGPUStringView m, void *u1,
                       void *u2) {
  (void)m, (void)u1, (void)u2;
  compute_calls++;
  compute_status = s;
  compute_pipeline = p;
}

static void on_render(WGPUCreatePipelineAsyncStatus s, WGPURenderPipeline p, WGPUStringView m, void *u1,
                      void *u2) {
  (void)m, (void)u1, (void)u2;
  render_calls++;
  render_status = s;
  render_pipeline = p;
}

int main(void) {
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUQueue again = wgpuDeviceGetQueue(ctx.device);
  CHECK(again == ctx.queue);
  wgpuQueueRelease(again);

  WGPUShaderModule cm = make_wgsl(ctx.device, HARNESS_SPIN_WGSL);
  WGPUShaderModule rm = make_wgsl(ctx.device, RU_WGSL);
  RuPipeline rp;
  ru_pipeline_init(&rp, rm);
  WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  cd.compute.module = cm;
  cd.compute.entryPoint = sv("main");

  wgpuDeviceDestroy(ctx.device);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);

  WGPUCreateComputePipelineAsyncCallbackInfo cci = WGPU_CREATE_COMPUTE_PIPELINE_ASYNC_CALLBACK_INFO_INIT;
  cci.mode = WGPUCallbackMode_AllowSpontaneous;
  cci.callback = on_compute;
  CHECK(wgpuDeviceCreateComputePipelineAsync(ctx.device, &cd, cci).id != 0);
  CHECK_EQ(compute_calls, 1);
  CHECK_EQ(compute_status, WGPUCreatePipelineAsyncStatus_Success);
  CHECK(compute_pipeline != NULL);

  WGPUCreateRenderPipelineAsyncCallbackInfo rci = WGPU_CREATE_RENDER_PIPELINE_ASYNC_CALLBACK_INFO_INIT;
  rci.mode = WGPUCallbackMode_AllowSpontaneous;
  rci.callback = on_render;
  CHECK(wgpuDeviceCreateRenderPipelineAsync(ctx.device, &rp.desc, rci).id != 0);
  CHECK_EQ(render_calls, 1);
  CHECK_EQ(render_status, WGPUCreatePipelineAsyncStatus_Success);
  CHECK(render_pipeline != NULL);

  /* A lost device resolves the scope with no error; nothing was uncaptured. */
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  if (compute_pipeline) wgpuComputePipelineRelease(compute_pipeline);
  if (render_pipeline) wgpuRenderPipelineRelease(render_pipeline);
  CHECK_EQ(compute_calls, 1);
  CHECK_EQ(render_calls, 1);
  wgpuShaderModuleRelease(cm);
  wgpuShaderModuleRelease(rm);
  ctx_release(&ctx);
  return test_finish();
}
