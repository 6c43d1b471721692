/* WGPUPrimitiveStateExtras (wgpu.h), chained to WGPUPrimitiveState as
 * wgpu-py chains it into every render pipeline: polygon mode Fill fills a
 * triangle; Line (device feature PolygonModeLine) draws its edges only, so
 * its interior stays clear; Point (PolygonModePoint) lights a few pixels.
 * Line without the feature, an unknown polygon mode, conservative
 * rasterization without its feature, and the struct chained where it does
 * not belong (the pipeline descriptor, the multisample state) are
 * validation errors, never a crash. */
#include "extras_util.h"

static const char *const WGSL =
    "@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {\n"
    "  var p = array(vec2f(-0.8, -0.8), vec2f(0.8, -0.8), vec2f(0.0, 0.8));\n"
    "  return vec4f(p[i], 0.0, 1.0);\n"
    "}\n"
    "@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0, 0.0, 0.0, 1.0); }\n";

/* Draws the triangle with `extras` chained to the primitive state (NULL:
 * nothing chained) and returns the number of red pixels (-1 on failure);
 * *center says whether the centre pixel is red. */
static int draw(Ctx *ctx, WGPUShaderModule m, WGPUPrimitiveStateExtras *extras, int *center) {
  uint8_t px[EU_SIZE * EU_SIZE * 4];
  WGPURenderPipeline p = eu_pipeline(ctx, m, "vs", m, "fs", extras ? &extras->chain : NULL);
  if (!p) return -1;
  int ok = eu_draw(ctx, p, px);
  wgpuRenderPipelineRelease(p);
  if (!ok) return -1;
  *center = eu_lit(px, EU_SIZE / 2, EU_SIZE / 2, 0);
  return eu_count(px, 0);
}

static WGPUPrimitiveStateExtras extras_of(WGPUPolygonMode mode, WGPUBool conservative) {
  WGPUPrimitiveStateExtras e;
  memset(&e, 0, sizeof e);
  e.chain.sType = (WGPUSType)WGPUSType_PrimitiveStateExtras;
  e.polygonMode = mode;
  e.conservative = conservative;
  return e;
}

int main(void) {
  start_watchdog(60);
  int has_line = eu_adapter_has((WGPUFeatureName)WGPUNativeFeature_PolygonModeLine);
  int has_point = eu_adapter_has((WGPUFeatureName)WGPUNativeFeature_PolygonModePoint);
  int has_conservative = eu_adapter_has((WGPUFeatureName)WGPUNativeFeature_ConservativeRasterization);
  printf("adapter: PolygonModeLine %d, PolygonModePoint %d, ConservativeRasterization %d\n", has_line, has_point,
         has_conservative);

  WGPUFeatureName features[2];
  size_t count = 0;
  if (has_line) features[count++] = (WGPUFeatureName)WGPUNativeFeature_PolygonModeLine;
  if (has_point) features[count++] = (WGPUFeatureName)WGPUNativeFeature_PolygonModePoint;
  Ctx ctx;
  REQUIRE(eu_ctx(&ctx, features, count) == 0);
  WGPUShaderModule m = make_wgsl(ctx.device, WGSL);
  REQUIRE(m != NULL);

  /* Fill, as chained by wgpu-py: the same as chaining nothing. */
  int center = 0, plain = 0;
  WGPUPrimitiveStateExtras fill = extras_of(WGPUPolygonMode_Fill, 0);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  int filled = draw(&ctx, m, &fill, &center);
  CHECK(center);
  int filled_plain = draw(&ctx, m, NULL, &plain);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
  printf("fill: %d red pixels (nothing chained: %d)\n", filled, filled_plain);
  CHECK(filled > (int)(EU_SIZE * EU_SIZE / 4));
  CHECK_EQ(filled, filled_plain);
  CHECK(plain);

  if (has_line) {
    WGPUPrimitiveStateExtras line = extras_of(WGPUPolygonMode_Line, 0);
    wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
    int lined = draw(&ctx, m, &line, &center);
    CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
    printf("line: %d red pixels, centre lit %d\n", lined, center);
    CHECK(lined > 0);
    CHECK(lined < filled / 3);
    CHECK(!center);
  }
  if (has_point) {
    WGPUPrimitiveStateExtras point = extras_of(WGPUPolygonMode_Point, 0);
    wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
    int points = draw(&ctx, m, &point, &center);
    CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
    printf("point: %d red pixels\n", points);
    CHECK(points > 0 && points <= 12);
    CHECK(!center);
  }

  /* An unknown polygon mode. */
  WGPUPrimitiveStateExtras bad = extras_of((WGPUPolygonMode)7, 0);
  WGPURenderPipeline p = NULL;
  EXPECT_VALIDATION(&ctx, p = eu_pipeline(&ctx, m, "vs", m, "fs", &bad.chain));
  CHECK(p != NULL);
  if (p) wgpuRenderPipelineRelease(p);

  /* Conservative rasterization needs its feature (not requested here). */
  WGPUPrimitiveStateExtras conservative = extras_of(WGPUPolygonMode_Fill, 1);
  p = NULL;
  EXPECT_VALIDATION(&ctx, p = eu_pipeline(&ctx, m, "vs", m, "fs", &conservative.chain));
  if (p) wgpuRenderPipelineRelease(p);

  /* Chained where wgpu.h does not put it: the descriptor and the
   * multisample state. */
  WGPUColorTargetState target = WGPU_COLOR_TARGET_STATE_INIT;
  target.format = WGPUTextureFormat_RGBA8Unorm;
  WGPUFragmentState fragment = WGPU_FRAGMENT_STATE_INIT;
  fragment.module = m;
  fragment.entryPoint = sv("fs");
  fragment.targetCount = 1;
  fragment.targets = &target;
  WGPURenderPipelineDescriptor desc = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
  desc.vertex.module = m;
  desc.vertex.entryPoint = sv("vs");
  desc.fragment = &fragment;
  desc.nextInChain = &fill.chain;
  PopResult r;
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  p = wgpuDeviceCreateRenderPipeline(ctx.device, &desc);
  CHECK(mu_pop_full(ctx.instance, ctx.device, &r));
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  CHECK(strstr(r.msg, "does not extend") != NULL);
  if (p) wgpuRenderPipelineRelease(p);
  desc.nextInChain = NULL;
  desc.multisample.nextInChain = &fill.chain;
  p = NULL;
  EXPECT_VALIDATION(&ctx, p = wgpuDeviceCreateRenderPipeline(ctx.device, &desc));
  if (p) wgpuRenderPipelineRelease(p);
  /* The same struct twice in one chain. */
  desc.multisample.nextInChain = NULL;
  WGPUPrimitiveStateExtras again = extras_of(WGPUPolygonMode_Fill, 0);
  fill.chain.next = &again.chain;
  desc.primitive.nextInChain = &fill.chain;
  p = NULL;
  EXPECT_VALIDATION(&ctx, p = wgpuDeviceCreateRenderPipeline(ctx.device, &desc));
  if (p) wgpuRenderPipelineRelease(p);
  fill.chain.next = NULL;

  wgpuShaderModuleRelease(m);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);

  /* Line mode on a device without PolygonModeLine: a validation error. */
  REQUIRE(eu_ctx(&ctx, NULL, 0) == 0);
  m = make_wgsl(ctx.device, WGSL);
  WGPUPrimitiveStateExtras line = extras_of(WGPUPolygonMode_Line, 0);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  p = eu_pipeline(&ctx, m, "vs", m, "fs", &line.chain);
  CHECK(mu_pop_full(ctx.instance, ctx.device, &r));
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  printf("line without the feature: %s\n", r.msg);
  CHECK(strstr(r.msg, "POLYGON_MODE_LINE") != NULL);
  if (p) wgpuRenderPipelineRelease(p);
  wgpuShaderModuleRelease(m);
  ctx_release(&ctx);
  return test_finish();
}
