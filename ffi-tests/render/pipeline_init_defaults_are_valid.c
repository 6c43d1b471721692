/* Rule (spec §4.3, §4.2): INIT defaults make a valid pipeline. Primitive,
 * multisample, blend components and stencil faces left at their INIT values
 * (Undefined enums: TriangleList, CCW, cull None, count 1, mask 0xFFFFFFFF,
 * Add / One / Zero, compare Always, Keep) are valid; a vertex buffer layout
 * with stepMode Undefined and no attributes is an unused slot; a colour
 * target with format Undefined is a hole. Unknown enum values are validation
 * errors instead. */
#include "render_util.h"

/* Writes only location 1: target 0 is a hole. */
static const char *const WGSL_LOC1 =
    "@vertex fn vs(@location(0) p: vec2f) -> @builtin(position) vec4f { return vec4f(p, 0.0, 1.0); }\n"
    "@fragment fn fs() -> @location(1) vec4f { return vec4f(1.0); }\n";

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUShaderModule m = make_wgsl(ctx.device, RU_WGSL_NO_INPUTS);
  REQUIRE(m != NULL);

  /* Everything at INIT but the modules, entry points and the target format. */
  WGPUColorTargetState target = WGPU_COLOR_TARGET_STATE_INIT;
  target.format = WGPUTextureFormat_RGBA8Unorm;
  WGPUBlendState blend = WGPU_BLEND_STATE_INIT; /* every field Undefined */
  target.blend = &blend;
  WGPUFragmentState frag = WGPU_FRAGMENT_STATE_INIT;
  frag.module = m;
  frag.targetCount = 1;
  frag.targets = &target;
  WGPURenderPipelineDescriptor d = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
  d.vertex.module = m;
  d.fragment = &frag;
  WGPURenderPipeline p1 = NULL;
  EXPECT_NO_VALIDATION(&ctx, p1 = wgpuDeviceCreateRenderPipeline(ctx.device, &d));
  CHECK(p1 != NULL);

  /* Stencil faces at INIT in a depth-stencil state. */
  WGPUDepthStencilState ds = WGPU_DEPTH_STENCIL_STATE_INIT;
  ds.format = WGPUTextureFormat_Depth24PlusStencil8;
  ds.depthWriteEnabled = WGPUOptionalBool_False;
  ds.depthCompare = WGPUCompareFunction_Always;
  d.depthStencil = &ds;
  WGPURenderPipeline p2 = NULL;
  EXPECT_NO_VALIDATION(&ctx, p2 = wgpuDeviceCreateRenderPipeline(ctx.device, &d));
  CHECK(p2 != NULL);
  d.depthStencil = NULL;

  /* An unused vertex buffer slot before the used one, and a target hole. */
  WGPUShaderModule m1 = make_wgsl(ctx.device, WGSL_LOC1);
  REQUIRE(m1 != NULL);
  WGPUVertexAttribute attr = WGPU_VERTEX_ATTRIBUTE_INIT;
  attr.format = WGPUVertexFormat_Float32x2;
  WGPUVertexBufferLayout bufs[2] = {WGPU_VERTEX_BUFFER_LAYOUT_INIT, WGPU_VERTEX_BUFFER_LAYOUT_INIT};
  bufs[1].arrayStride = 8;
  bufs[1].attributeCount = 1; /* stepMode Undefined with attributes: Vertex */
  bufs[1].attributes = &attr;
  WGPUColorTargetState targets[2] = {WGPU_COLOR_TARGET_STATE_INIT, WGPU_COLOR_TARGET_STATE_INIT};
  targets[1].format = WGPUTextureFormat_BGRA8Unorm;
  frag.module = m1;
  frag.targetCount = 2;
  frag.targets = targets;
  d.vertex.module = m1;
  d.vertex.bufferCount = 2;
  d.vertex.buffers = bufs;
  WGPURenderPipeline p3 = NULL;
  EXPECT_NO_VALIDATION(&ctx, p3 = wgpuDeviceCreateRenderPipeline(ctx.device, &d));
  CHECK(p3 != NULL);

  /* Unknown enum values are not defaults. */
  d.primitive.topology = (WGPUPrimitiveTopology)0x77;
  WGPURenderPipeline p4 = NULL;
  EXPECT_VALIDATION(&ctx, p4 = wgpuDeviceCreateRenderPipeline(ctx.device, &d));
  CHECK(p4 != NULL);
  d.primitive.topology = WGPUPrimitiveTopology_Undefined;
  d.primitive.cullMode = (WGPUCullMode)0x77;
  WGPURenderPipeline p5 = NULL;
  EXPECT_VALIDATION(&ctx, p5 = wgpuDeviceCreateRenderPipeline(ctx.device, &d));
  CHECK(p5 != NULL);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuRenderPipelineRelease(p5);
  wgpuRenderPipelineRelease(p4);
  wgpuRenderPipelineRelease(p3);
  wgpuRenderPipelineRelease(p2);
  wgpuRenderPipelineRelease(p1);
  wgpuShaderModuleRelease(m1);
  wgpuShaderModuleRelease(m);
  ctx_release(&ctx);
  return test_finish();
}
