/* Rule (webgpu.h RenderPipelineGetBindGroupLayout): for an auto-layout
 * pipeline, the layout of a group the shaders use is a new, valid object
 * (a bind group made from it is valid, with no error); an index without a
 * layout raises a validation error and still returns a non-NULL (invalid)
 * layout. */
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
  REQUIRE(pipe != NULL);

  WGPUBindGroupLayout bgl = NULL;
  EXPECT_NO_VALIDATION(&ctx, bgl = wgpuRenderPipelineGetBindGroupLayout(pipe, 0));
  CHECK(bgl != NULL);

  WGPUBuffer ub = make_buffer(ctx.device, 16, WGPUBufferUsage_Uniform, 0);
  WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
  e.binding = 0;
  e.buffer = ub;
  WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  bd.layout = bgl;
  bd.entryCount = 1;
  bd.entries = &e;
  WGPUBindGroup bg = NULL;
  EXPECT_NO_VALIDATION(&ctx, bg = wgpuDeviceCreateBindGroup(ctx.device, &bd));
  CHECK(bg != NULL);

  /* A storage buffer does not fit the uniform binding of this layout. */
  WGPUBuffer sb = make_buffer(ctx.device, 16, WGPUBufferUsage_Storage, 0);
  e.buffer = sb;
  WGPUBindGroup bad_bg = NULL;
  EXPECT_VALIDATION(&ctx, bad_bg = wgpuDeviceCreateBindGroup(ctx.device, &bd));

  WGPUBindGroupLayout missing = NULL;
  EXPECT_VALIDATION(&ctx, missing = wgpuRenderPipelineGetBindGroupLayout(pipe, 1000));
  CHECK(missing != NULL);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  if (missing) wgpuBindGroupLayoutRelease(missing);
  if (bad_bg) wgpuBindGroupRelease(bad_bg);
  if (bg) wgpuBindGroupRelease(bg);
  wgpuBufferRelease(sb);
  wgpuBufferRelease(ub);
  if (bgl) wgpuBindGroupLayoutRelease(bgl);
  wgpuRenderPipelineRelease(pipe);
  wgpuShaderModuleRelease(m);
  ctx_release(&ctx);
  return test_finish();
}
