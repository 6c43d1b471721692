/* Rule (webgpu.h CreateRenderPipeline, spec §6): a valid render pipeline
 * (vertex buffer layout, vertex + fragment WGSL stages, an RGBA8Unorm target
 * with blending and writeMask All) is created with no device error, both
 * with an automatic and with an explicit pipeline layout; the result is a
 * non-NULL pipeline that can be labelled, referenced and released. */
#include "render_util.h"

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUShaderModule m = make_wgsl(ctx.device, RU_WGSL);
  REQUIRE(m != NULL);

  RuPipeline p;
  ru_pipeline_init(&p, m);
  WGPURenderPipeline pipe = NULL;
  EXPECT_NO_VALIDATION(&ctx, pipe = wgpuDeviceCreateRenderPipeline(ctx.device, &p.desc));
  CHECK(pipe != NULL);

  /* An explicit layout, a null fragment entry point (the module's only
   * fragment entry point) and a writeMask of Red|Alpha. */
  WGPUBindGroupLayoutEntry entry = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  entry.binding = 0;
  entry.visibility = WGPUShaderStage_Fragment;
  entry.buffer.type = WGPUBufferBindingType_Uniform;
  WGPUBindGroupLayoutDescriptor bgld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  bgld.entryCount = 1;
  bgld.entries = &entry;
  WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(ctx.device, &bgld);
  WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
  pld.bindGroupLayoutCount = 1;
  pld.bindGroupLayouts = &bgl;
  WGPUPipelineLayout layout = wgpuDeviceCreatePipelineLayout(ctx.device, &pld);
  p.desc.layout = layout;
  p.fragment.entryPoint = (WGPUStringView)WGPU_STRING_VIEW_INIT;
  p.target.writeMask = WGPUColorWriteMask_Red | WGPUColorWriteMask_Alpha;
  p.desc.label = sv("explicit");
  WGPURenderPipeline pipe2 = NULL;
  EXPECT_NO_VALIDATION(&ctx, pipe2 = wgpuDeviceCreateRenderPipeline(ctx.device, &p.desc));
  CHECK(pipe2 != NULL);

  /* Vertex-only pipeline (fragment NULL) with a depth-stencil state. */
  WGPUDepthStencilState ds = WGPU_DEPTH_STENCIL_STATE_INIT;
  ds.format = WGPUTextureFormat_Depth32Float;
  ds.depthWriteEnabled = WGPUOptionalBool_True;
  ds.depthCompare = WGPUCompareFunction_Less;
  p.desc.fragment = NULL;
  p.desc.depthStencil = &ds;
  p.desc.layout = NULL;
  WGPURenderPipeline pipe3 = NULL;
  EXPECT_NO_VALIDATION(&ctx, pipe3 = wgpuDeviceCreateRenderPipeline(ctx.device, &p.desc));
  CHECK(pipe3 != NULL);

  EXPECT_NO_VALIDATION(&ctx, {
    wgpuRenderPipelineSetLabel(pipe, sv("renamed"));
    wgpuRenderPipelineAddRef(pipe);
    wgpuRenderPipelineRelease(pipe);
  });
  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuRenderPipelineRelease(pipe3);
  wgpuRenderPipelineRelease(pipe2);
  wgpuRenderPipelineRelease(pipe);
  wgpuPipelineLayoutRelease(layout);
  wgpuBindGroupLayoutRelease(bgl);
  wgpuShaderModuleRelease(m);
  ctx_release(&ctx);
  return test_finish();
}
