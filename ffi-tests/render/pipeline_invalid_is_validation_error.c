/* Rule (spec §6, §4.1): an invalid render pipeline descriptor raises one
 * validation error on the device and returns a non-NULL (invalid) pipeline,
 * never NULL and never a crash: missing entry point, unknown target format,
 * a non-renderable target format, a vertex attribute beyond the array
 * stride, a depth-stencil state with a colour format, a non-finite
 * constant. Using the invalid pipeline in a bundle fails at Finish. */
#include "render_util.h"

#include <math.h>

#define EXPECT_INVALID(ctx, desc)                                      \
  do {                                                                 \
    WGPURenderPipeline bad_ = NULL;                                    \
    EXPECT_VALIDATION(ctx, bad_ = wgpuDeviceCreateRenderPipeline((ctx)->device, desc)); \
    CHECK(bad_ != NULL);                                               \
    if (bad_) wgpuRenderPipelineRelease(bad_);                         \
  } while (0)

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUShaderModule m = make_wgsl(ctx.device, RU_WGSL);
  REQUIRE(m != NULL);
  RuPipeline p;

  /* Control: the base descriptor is valid. */
  ru_pipeline_init(&p, m);
  WGPURenderPipeline ok = NULL;
  EXPECT_NO_VALIDATION(&ctx, ok = wgpuDeviceCreateRenderPipeline(ctx.device, &p.desc));
  if (ok) wgpuRenderPipelineRelease(ok);

  ru_pipeline_init(&p, m);
  p.desc.vertex.entryPoint = sv("no_such_entry");
  EXPECT_INVALID(&ctx, &p.desc);

  ru_pipeline_init(&p, m);
  p.fragment.entryPoint = sv("no_such_entry");
  EXPECT_INVALID(&ctx, &p.desc);

  ru_pipeline_init(&p, m);
  p.target.format = (WGPUTextureFormat)0x7777;
  EXPECT_INVALID(&ctx, &p.desc);

  ru_pipeline_init(&p, m);
  p.target.format = WGPUTextureFormat_Depth32Float; /* not a colour format */
  EXPECT_INVALID(&ctx, &p.desc);

  ru_pipeline_init(&p, m);
  p.attr.offset = 4; /* 4 + 8 bytes > stride 8 */
  EXPECT_INVALID(&ctx, &p.desc);

  ru_pipeline_init(&p, m);
  p.attr.format = (WGPUVertexFormat)0; /* no default */
  EXPECT_INVALID(&ctx, &p.desc);

  ru_pipeline_init(&p, m);
  WGPUDepthStencilState ds = WGPU_DEPTH_STENCIL_STATE_INIT;
  ds.format = WGPUTextureFormat_RGBA8Unorm;
  ds.depthWriteEnabled = WGPUOptionalBool_False;
  ds.depthCompare = WGPUCompareFunction_Always;
  p.desc.depthStencil = &ds;
  EXPECT_INVALID(&ctx, &p.desc);

  ru_pipeline_init(&p, m);
  WGPUConstantEntry c = WGPU_CONSTANT_ENTRY_INIT;
  c.key = sv("k");
  c.value = INFINITY;
  p.fragment.constantCount = 1;
  p.fragment.constants = &c;
  EXPECT_INVALID(&ctx, &p.desc);

  /* An invalid pipeline makes a bundle that uses it fail at Finish only. */
  ru_pipeline_init(&p, m);
  p.target.format = WGPUTextureFormat_Depth32Float;
  WGPURenderPipeline bad = NULL;
  EXPECT_VALIDATION(&ctx, bad = wgpuDeviceCreateRenderPipeline(ctx.device, &p.desc));
  WGPUTextureFormat f = WGPUTextureFormat_RGBA8Unorm;
  WGPURenderBundleEncoder be = ru_bundle_encoder(ctx.device, &f);
  EXPECT_NO_VALIDATION(&ctx, wgpuRenderBundleEncoderSetPipeline(be, bad));
  WGPURenderBundle bundle = NULL;
  EXPECT_VALIDATION(&ctx, bundle = wgpuRenderBundleEncoderFinish(be, NULL));
  CHECK(bundle != NULL);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  if (bundle) wgpuRenderBundleRelease(bundle);
  wgpuRenderBundleEncoderRelease(be);
  if (bad) wgpuRenderPipelineRelease(bad);
  wgpuShaderModuleRelease(m);
  ctx_release(&ctx);
  return test_finish();
}
