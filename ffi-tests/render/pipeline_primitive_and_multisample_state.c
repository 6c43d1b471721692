/* Rule (WebGPU createRenderPipeline, GPUPrimitiveState and
 * GPUMultisampleState): stripIndexFormat must be Undefined unless the
 * topology is LineStrip or TriangleStrip; unclippedDepth needs the
 * depth-clip-control feature; multisample.count must be 1 or 4;
 * alphaToCoverageEnabled needs count 4 and a fragment stage that does not
 * write sample_mask. Each violation is a validation error at creation with
 * a non-NULL pipeline; the valid neighbours raise nothing.
 * wgpu-core 30 accepts alphaToCoverage with count 1 and with a sample_mask
 * output.
 * On OpenGL the valid pipeline that writes sample_mask is left out
 * (counted): naga 30's GLSL backend emits a shader the driver rejects
 * (gfx-rs/wgpu#6085). The count 2 case stays there: wgpu-core's GL backend
 * accepts it (downlevel format features), which is ours to refuse.
 */
#include "pipeline_util.h"

static const char *const WGSL =
    "@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0, 0.0, 0.0, 1.0); }\n"
    "@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }\n"
    "struct Out { @builtin(sample_mask) mask: u32, @location(0) c: vec4f }\n"
    "@fragment fn fs_mask() -> Out { var o: Out; o.mask = 0xffffffffu; o.c = vec4f(1.0); return o; }\n";

typedef struct {
  WGPUColorTargetState target;
  WGPUFragmentState fragment;
  WGPURenderPipelineDescriptor desc;
} Pipe;

static void pipe_init(Pipe *p, WGPUShaderModule m) {
  memset(p, 0, sizeof *p);
  pl_render_init(&p->desc, &p->fragment, &p->target, m);
}

static void expect(Ctx *ctx, const Pipe *p, int want_error, const char *what) {
  pl_expect_render(ctx, &p->desc, want_error, what);
}

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUShaderModule m = make_wgsl(ctx.device, WGSL);
  REQUIRE(m != NULL);
  Pipe p;
  char what[256];

  /* strip_index_format. */
  const WGPUPrimitiveTopology topo[] = {WGPUPrimitiveTopology_Undefined,    WGPUPrimitiveTopology_PointList,
                                        WGPUPrimitiveTopology_LineList,     WGPUPrimitiveTopology_LineStrip,
                                        WGPUPrimitiveTopology_TriangleList, WGPUPrimitiveTopology_TriangleStrip};
  const WGPUIndexFormat idx[] = {WGPUIndexFormat_Undefined, WGPUIndexFormat_Uint16, WGPUIndexFormat_Uint32};
  for (size_t t = 0; t < sizeof topo / sizeof topo[0]; t++) {
    for (size_t i = 0; i < sizeof idx / sizeof idx[0]; i++) {
      pipe_init(&p, m);
      p.desc.primitive.topology = topo[t];
      p.desc.primitive.stripIndexFormat = idx[i];
      int strip = topo[t] == WGPUPrimitiveTopology_LineStrip || topo[t] == WGPUPrimitiveTopology_TriangleStrip;
      snprintf(what, sizeof what, "topology %d with stripIndexFormat %d", (int)topo[t], (int)idx[i]);
      expect(&ctx, &p, !strip && idx[i] != WGPUIndexFormat_Undefined, what);
    }
  }

  /* unclipped_depth. */
  int has_dcc = wgpuDeviceHasFeature(ctx.device, WGPUFeatureName_DepthClipControl);
  CHECK(!has_dcc); /* the harness device asks for no features */
  pipe_init(&p, m);
  p.desc.primitive.unclippedDepth = WGPU_TRUE;
  expect(&ctx, &p, !has_dcc, "unclippedDepth without depth-clip-control");
  pipe_init(&p, m);
  p.desc.primitive.unclippedDepth = WGPU_FALSE;
  expect(&ctx, &p, 0, "unclippedDepth false");

  /* multisample count. */
  const uint32_t counts[] = {0, 1, 2, 3, 4, 8, 16, 1024};
  for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
    pipe_init(&p, m);
    p.desc.multisample.count = counts[i];
    snprintf(what, sizeof what, "multisample.count %u", counts[i]);
    expect(&ctx, &p, counts[i] != 1 && counts[i] != 4, what);
  }

  /* alpha_to_coverage,count and alpha_to_coverage,sample_mask. */
  int no_sample_mask = pl_is_gl(&ctx), left_out = 0;
  for (int a2c = 0; a2c < 2; a2c++) {
    for (uint32_t count = 1; count <= 4; count += 3) {
      pipe_init(&p, m);
      p.desc.multisample.count = count;
      p.desc.multisample.alphaToCoverageEnabled = a2c ? WGPU_TRUE : WGPU_FALSE;
      snprintf(what, sizeof what, "alphaToCoverage %d with count %u", a2c, count);
      expect(&ctx, &p, a2c && count != 4, what);
    }
    if (!a2c && no_sample_mask) {
      left_out++;
      continue;
    }
    pipe_init(&p, m);
    p.desc.multisample.count = 4;
    p.desc.multisample.alphaToCoverageEnabled = a2c ? WGPU_TRUE : WGPU_FALSE;
    p.fragment.entryPoint = sv("fs_mask");
    snprintf(what, sizeof what, "alphaToCoverage %d, count 4, fragment writes sample_mask", a2c);
    expect(&ctx, &p, a2c, what);
  }

  pl_report_left_out(left_out, "OpenGL cannot compile a sample_mask output (naga 30's GLSL backend writes it "
                               "as a uint into int[] gl_SampleMask: gfx-rs/wgpu#6085, #4335)");
  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuShaderModuleRelease(m);
  ctx_release(&ctx);
  return test_finish();
}
