/* Rule (WebGPU GPURenderBundleEncoder): recording a valid bundle (pipeline,
 * bind group, vertex and index buffers, draws, debug markers) and finishing
 * it raises no error and gives a bundle. Invalid use while recording (a draw
 * without a pipeline, an unbalanced debug group, an Undefined index format)
 * raises nothing until Finish, which raises one validation error and returns
 * a non-NULL (invalid) bundle. Finishing twice, or recording after Finish, is
 * a validation error at once. An invalid encoder descriptor is an error at
 * creation, and its Finish raises again. */
#include "render_util.h"

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUShaderModule m = make_wgsl(ctx.device, RU_WGSL);
  REQUIRE(m != NULL);
  RuPipeline p;
  ru_pipeline_init(&p, m);
  WGPURenderPipeline pipe = wgpuDeviceCreateRenderPipeline(ctx.device, &p.desc);
  WGPUBindGroupLayout bgl = wgpuRenderPipelineGetBindGroupLayout(pipe, 0);
  WGPUBuffer ub = make_buffer(ctx.device, 16, WGPUBufferUsage_Uniform, 0);
  WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
  e.binding = 0;
  e.buffer = ub;
  WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  bd.layout = bgl;
  bd.entryCount = 1;
  bd.entries = &e;
  WGPUBindGroup bg = wgpuDeviceCreateBindGroup(ctx.device, &bd);
  WGPUBuffer vb = make_buffer(ctx.device, 64, WGPUBufferUsage_Vertex, 0);
  WGPUBuffer ib = make_buffer(ctx.device, 64, WGPUBufferUsage_Index, 0);
  WGPUTextureFormat f = WGPUTextureFormat_RGBA8Unorm;

  /* Valid recording. */
  WGPURenderBundleEncoder be = NULL;
  WGPURenderBundle bundle = NULL;
  EXPECT_NO_VALIDATION(&ctx, {
    be = ru_bundle_encoder(ctx.device, &f);
    wgpuRenderBundleEncoderSetLabel(be, sv("bundle encoder"));
    wgpuRenderBundleEncoderPushDebugGroup(be, sv("group"));
    wgpuRenderBundleEncoderSetPipeline(be, pipe);
    wgpuRenderBundleEncoderSetBindGroup(be, 0, bg, 0, NULL);
    wgpuRenderBundleEncoderSetVertexBuffer(be, 0, vb, 0, WGPU_WHOLE_SIZE);
    wgpuRenderBundleEncoderSetIndexBuffer(be, ib, WGPUIndexFormat_Uint16, 0, WGPU_WHOLE_SIZE);
    wgpuRenderBundleEncoderInsertDebugMarker(be, sv("marker"));
    wgpuRenderBundleEncoderDraw(be, 3, 1, 0, 0);
    wgpuRenderBundleEncoderDrawIndexed(be, 3, 1, 0, 0, 0);
    wgpuRenderBundleEncoderPopDebugGroup(be);
    bundle = wgpuRenderBundleEncoderFinish(be, NULL);
  });
  CHECK(bundle != NULL);

  /* Finishing again, and recording after Finish: errors at once. */
  WGPURenderBundle again = NULL;
  EXPECT_VALIDATION(&ctx, again = wgpuRenderBundleEncoderFinish(be, NULL));
  CHECK(again != NULL);
  EXPECT_VALIDATION(&ctx, wgpuRenderBundleEncoderDraw(be, 3, 1, 0, 0));

  /* A draw without a pipeline: nothing until Finish. */
  WGPURenderBundleEncoder be2 = ru_bundle_encoder(ctx.device, &f);
  EXPECT_NO_VALIDATION(&ctx, wgpuRenderBundleEncoderDraw(be2, 3, 1, 0, 0));
  WGPURenderBundle bad1 = NULL;
  EXPECT_VALIDATION(&ctx, bad1 = wgpuRenderBundleEncoderFinish(be2, NULL));
  CHECK(bad1 != NULL);

  /* An Undefined index format (our own check): also only at Finish, with
   * its own message. */
  WGPURenderBundleEncoder be3 = ru_bundle_encoder(ctx.device, &f);
  EXPECT_NO_VALIDATION(&ctx, wgpuRenderBundleEncoderSetIndexBuffer(be3, ib, WGPUIndexFormat_Undefined, 0, 64));
  PopResult r;
  WGPURenderBundle bad2 = NULL;
  RU_CAPTURE(&ctx, &r, bad2 = wgpuRenderBundleEncoderFinish(be3, NULL));
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  CHECK(strstr(r.msg, "Undefined") != NULL);
  CHECK(bad2 != NULL);

  /* An invalid descriptor: error at creation, and again at Finish; calls in
   * between raise nothing. */
  WGPUTextureFormat unknown = (WGPUTextureFormat)0x7777;
  WGPURenderBundleEncoder be4 = NULL;
  EXPECT_VALIDATION(&ctx, be4 = ru_bundle_encoder(ctx.device, &unknown));
  CHECK(be4 != NULL);
  EXPECT_NO_VALIDATION(&ctx, wgpuRenderBundleEncoderDraw(be4, 3, 1, 0, 0));
  WGPURenderBundle bad3 = NULL;
  EXPECT_VALIDATION(&ctx, bad3 = wgpuRenderBundleEncoderFinish(be4, NULL));
  CHECK(bad3 != NULL);

  /* No attachments at all is invalid (wgpu-core's own check). */
  WGPURenderBundleEncoderDescriptor none = WGPU_RENDER_BUNDLE_ENCODER_DESCRIPTOR_INIT;
  WGPURenderBundleEncoder be5 = NULL;
  EXPECT_VALIDATION(&ctx, be5 = wgpuDeviceCreateRenderBundleEncoder(ctx.device, &none));
  CHECK(be5 != NULL);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  if (be5) wgpuRenderBundleEncoderRelease(be5);
  if (bad3) wgpuRenderBundleRelease(bad3);
  if (be4) wgpuRenderBundleEncoderRelease(be4);
  if (bad2) wgpuRenderBundleRelease(bad2);
  wgpuRenderBundleEncoderRelease(be3);
  if (bad1) wgpuRenderBundleRelease(bad1);
  wgpuRenderBundleEncoderRelease(be2);
  if (again) wgpuRenderBundleRelease(again);
  if (bundle) wgpuRenderBundleRelease(bundle);
  wgpuRenderBundleEncoderRelease(be);
  wgpuBufferRelease(ib);
  wgpuBufferRelease(vb);
  wgpuBindGroupRelease(bg);
  wgpuBufferRelease(ub);
  wgpuBindGroupLayoutRelease(bgl);
  wgpuRenderPipelineRelease(pipe);
  wgpuShaderModuleRelease(m);
  ctx_release(&ctx);
  return test_finish();
}
