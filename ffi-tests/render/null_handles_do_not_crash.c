/* Rule (spec §4.1, §6): NULL where a render object or a non-nullable
 * descriptor is required does not crash: creations return NULL, other calls
 * do nothing, and no device error is raised (the call is rejected and
 * logged). A NULL descriptor array with a non-zero count is rejected the
 * same way. Afterwards the device still creates valid render objects. */
#include "render_util.h"

#include <signal.h>
#include <unistd.h>

static const char *volatile g_last = "(none)";

static void on_signal(int sig) {
  const char *msg = "FAIL crashed (signal) during: ";
  if (write(2, msg, strlen(msg)) < 0) {
  }
  if (write(2, (const char *)g_last, strlen((const char *)g_last)) < 0) {
  }
  if (write(2, "\n", 1) < 0) {
  }
  (void)sig;
  _exit(4);
}

#define CALL(...)          \
  do {                     \
    g_last = #__VA_ARGS__; \
    __VA_ARGS__;           \
  } while (0)

static int async_calls;
static void on_rpa(WGPUCreatePipelineAsyncStatus s, WGPURenderPipeline p, WGPUStringView m, void *u1, void *u2) {
  (void)s, (void)m, (void)u1, (void)u2;
  async_calls++;
  if (p) wgpuRenderPipelineRelease(p);
}

int main(void) {
  start_watchdog(30);
  signal(SIGSEGV, on_signal);
#ifdef SIGBUS /* not on Windows */
  signal(SIGBUS, on_signal);
#endif
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUShaderModule m = make_wgsl(ctx.device, RU_WGSL);
  RuPipeline p;
  ru_pipeline_init(&p, m);
  WGPUColor color = {0, 0, 0, 1};
  uint32_t data[4] = {0};

  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  CALL(CHECK(wgpuDeviceCreateRenderPipeline(NULL, &p.desc) == NULL));
  CALL(CHECK(wgpuDeviceCreateRenderPipeline(ctx.device, NULL) == NULL));
  WGPUCreateRenderPipelineAsyncCallbackInfo ci = WGPU_CREATE_RENDER_PIPELINE_ASYNC_CALLBACK_INFO_INIT;
  ci.mode = WGPUCallbackMode_AllowSpontaneous;
  ci.callback = on_rpa;
  /* Rejected: the callback still runs once, inside the call (spontaneous),
   * with ValidationError (DECISIONS "A rejected asynchronous call"). */
  CALL(CHECK_EQ(wgpuDeviceCreateRenderPipelineAsync(NULL, &p.desc, ci).id, 0));
  CHECK_EQ(async_calls, 1);
  CALL(CHECK(wgpuDeviceCreateRenderPipelineAsync(ctx.device, NULL, ci).id != 0));
  CHECK_EQ(async_calls, 2);
  /* NULL vertex module, NULL buffers with a count. */
  p.desc.vertex.module = NULL;
  CALL(CHECK(wgpuDeviceCreateRenderPipeline(ctx.device, &p.desc) == NULL));
  ru_pipeline_init(&p, m);
  p.desc.vertex.buffers = NULL;
  CALL(CHECK(wgpuDeviceCreateRenderPipeline(ctx.device, &p.desc) == NULL));
  ru_pipeline_init(&p, m);
  CALL(CHECK(wgpuRenderPipelineGetBindGroupLayout(NULL, 0) == NULL));
  CALL(wgpuRenderPipelineSetLabel(NULL, sv("x")));
  CALL(wgpuRenderPipelineAddRef(NULL));
  CALL(wgpuRenderPipelineRelease(NULL));

  CALL(CHECK(wgpuDeviceCreateRenderBundleEncoder(NULL, NULL) == NULL));
  CALL(CHECK(wgpuDeviceCreateRenderBundleEncoder(ctx.device, NULL) == NULL));
  CALL(CHECK(wgpuRenderBundleEncoderFinish(NULL, NULL) == NULL));
  CALL(wgpuRenderBundleEncoderSetPipeline(NULL, NULL));
  CALL(wgpuRenderBundleEncoderSetBindGroup(NULL, 0, NULL, 0, NULL));
  CALL(wgpuRenderBundleEncoderSetVertexBuffer(NULL, 0, NULL, 0, 0));
  CALL(wgpuRenderBundleEncoderSetIndexBuffer(NULL, NULL, WGPUIndexFormat_Uint16, 0, 0));
  CALL(wgpuRenderBundleEncoderSetImmediates(NULL, 0, data, sizeof data));
  CALL(wgpuRenderBundleEncoderDraw(NULL, 3, 1, 0, 0));
  CALL(wgpuRenderBundleEncoderDrawIndexed(NULL, 3, 1, 0, 0, 0));
  CALL(wgpuRenderBundleEncoderDrawIndirect(NULL, NULL, 0));
  CALL(wgpuRenderBundleEncoderDrawIndexedIndirect(NULL, NULL, 0));
  CALL(wgpuRenderBundleEncoderPushDebugGroup(NULL, sv("g")));
  CALL(wgpuRenderBundleEncoderPopDebugGroup(NULL));
  CALL(wgpuRenderBundleEncoderInsertDebugMarker(NULL, sv("m")));
  CALL(wgpuRenderBundleEncoderSetLabel(NULL, sv("x")));
  CALL(wgpuRenderBundleEncoderAddRef(NULL));
  CALL(wgpuRenderBundleEncoderRelease(NULL));
  CALL(wgpuRenderBundleSetLabel(NULL, sv("x")));
  CALL(wgpuRenderBundleAddRef(NULL));
  CALL(wgpuRenderBundleRelease(NULL));

  WGPURenderPassDescriptor rpd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
  CALL(CHECK(wgpuCommandEncoderBeginRenderPass(NULL, &rpd) == NULL));
  CALL(CHECK(wgpuCommandEncoderBeginRenderPass(enc, NULL) == NULL));
  rpd.colorAttachmentCount = 1;
  CALL(CHECK(wgpuCommandEncoderBeginRenderPass(enc, &rpd) == NULL));
  CALL(wgpuRenderPassEncoderSetPipeline(NULL, NULL));
  CALL(wgpuRenderPassEncoderSetBindGroup(NULL, 0, NULL, 0, NULL));
  CALL(wgpuRenderPassEncoderSetVertexBuffer(NULL, 0, NULL, 0, 0));
  CALL(wgpuRenderPassEncoderSetIndexBuffer(NULL, NULL, WGPUIndexFormat_Uint16, 0, 0));
  CALL(wgpuRenderPassEncoderDraw(NULL, 3, 1, 0, 0));
  CALL(wgpuRenderPassEncoderDrawIndexed(NULL, 3, 1, 0, 0, 0));
  CALL(wgpuRenderPassEncoderDrawIndirect(NULL, NULL, 0));
  CALL(wgpuRenderPassEncoderDrawIndexedIndirect(NULL, NULL, 0));
  CALL(wgpuRenderPassEncoderSetViewport(NULL, 0, 0, 1, 1, 0, 1));
  CALL(wgpuRenderPassEncoderSetScissorRect(NULL, 0, 0, 1, 1));
  CALL(wgpuRenderPassEncoderSetBlendConstant(NULL, &color));
  CALL(wgpuRenderPassEncoderSetStencilReference(NULL, 1));
  CALL(wgpuRenderPassEncoderSetImmediates(NULL, 0, data, sizeof data));
  CALL(wgpuRenderPassEncoderBeginOcclusionQuery(NULL, 0));
  CALL(wgpuRenderPassEncoderEndOcclusionQuery(NULL));
  CALL(wgpuRenderPassEncoderExecuteBundles(NULL, 0, NULL));
  CALL(wgpuRenderPassEncoderPushDebugGroup(NULL, sv("g")));
  CALL(wgpuRenderPassEncoderPopDebugGroup(NULL));
  CALL(wgpuRenderPassEncoderInsertDebugMarker(NULL, sv("m")));
  CALL(wgpuRenderPassEncoderEnd(NULL));
  CALL(wgpuRenderPassEncoderSetLabel(NULL, sv("x")));
  CALL(wgpuRenderPassEncoderAddRef(NULL));
  CALL(wgpuRenderPassEncoderRelease(NULL));

  /* A live pass with NULL arguments where they are required. */
  rpd.colorAttachmentCount = 0;
  WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &rpd);
  CHECK(pass != NULL);
  CALL(wgpuRenderPassEncoderSetPipeline(pass, NULL));
  CALL(wgpuRenderPassEncoderSetIndexBuffer(pass, NULL, WGPUIndexFormat_Uint16, 0, 0));
  CALL(wgpuRenderPassEncoderDrawIndirect(pass, NULL, 0));
  CALL(wgpuRenderPassEncoderSetBlendConstant(pass, NULL));
  CALL(wgpuRenderPassEncoderExecuteBundles(pass, 2, NULL));
  WGPURenderBundle nulls[1] = {NULL};
  CALL(wgpuRenderPassEncoderExecuteBundles(pass, 1, nulls));
  CALL(wgpuRenderPassEncoderSetBindGroup(pass, 0, NULL, 2, NULL));
  /* A wrong handle type is rejected too. */
  CALL(wgpuRenderPassEncoderSetPipeline(pass, (WGPURenderPipeline)(void *)m));
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
  CHECK_EQ(async_calls, 2);

  /* The device still works. */
  WGPURenderPipeline pipe = NULL;
  EXPECT_NO_VALIDATION(&ctx, pipe = wgpuDeviceCreateRenderPipeline(ctx.device, &p.desc));
  CHECK(pipe != NULL);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  if (pipe) wgpuRenderPipelineRelease(pipe);
  wgpuRenderPassEncoderRelease(pass);
  wgpuCommandEncoderRelease(enc);
  wgpuShaderModuleRelease(m);
  ctx_release(&ctx);
  return test_finish();
}
