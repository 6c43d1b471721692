/* Rule (WebGPU createRenderPipeline, GPUDepthStencilState): the format must
 * be a depth or stencil format; depthWriteEnabled must be given for a format
 * with depth; depthCompare must be given for a format with depth when depth
 * writes are on or a stencil depthFailOp is not Keep; a depth test (compare
 * other than Always) or depth write needs a depth aspect; a stencil test
 * (compare other than Always) or a stencil op other than Keep needs a
 * stencil aspect; a fragment stage writing frag_depth needs a depth format;
 * depthBias / depthBiasSlopeScale / depthBiasClamp other than 0 need a
 * triangle topology. Each violation is a validation error at creation with
 * a non-NULL pipeline; the valid neighbours raise nothing.
 * On OpenGL the depthBiasClamp cases are left out (counted): wgpu-core's GL
 * backend has no depth bias clamp (downlevel DEPTH_BIAS_CLAMP), so any
 * clamp other than 0 is refused there whatever the topology. */
#include "pipeline_util.h"

static const char *const WGSL =
    "@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0, 0.0, 0.0, 1.0); }\n"
    "@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }\n"
    "struct FragOut { @builtin(frag_depth) d: f32, @location(0) c: vec4f }\n"
    "@fragment fn fs_depth() -> FragOut { return FragOut(0.5, vec4f(1.0)); }\n";

typedef struct {
  WGPUColorTargetState target;
  WGPUFragmentState fragment;
  WGPUDepthStencilState ds;
  WGPURenderPipelineDescriptor desc;
} Pipe;

/* One RGBA8Unorm target, and a depth-stencil state of `format` with depth
 * writes off and depthCompare Always (everything else at its INIT value). */
static void pipe_init(Pipe *p, WGPUShaderModule m, WGPUTextureFormat format) {
  memset(p, 0, sizeof *p);
  pl_render_init(&p->desc, &p->fragment, &p->target, m);
  p->ds = pl_depth_state(format, WGPUOptionalBool_False, WGPUCompareFunction_Always);
  p->desc.depthStencil = &p->ds;
}

/* Creates the pipeline and checks that it raised a validation error (or
 * none when want_error is 0) and is not NULL. */
static void expect(Ctx *ctx, const Pipe *p, int want_error, const char *what) {
  pl_expect_render(ctx, &p->desc, want_error, what);
}

static const WGPUTextureFormat DEPTH_FORMATS[] = {WGPUTextureFormat_Depth16Unorm, WGPUTextureFormat_Depth24Plus,
                                                  WGPUTextureFormat_Depth24PlusStencil8,
                                                  WGPUTextureFormat_Depth32Float};
static const char *const DEPTH_NAMES[] = {"Depth16Unorm", "Depth24Plus", "Depth24PlusStencil8", "Depth32Float"};
#define N_DEPTH (sizeof DEPTH_FORMATS / sizeof DEPTH_FORMATS[0])
/* Depth formats without a stencil aspect. */
static const WGPUTextureFormat DEPTH_ONLY[] = {WGPUTextureFormat_Depth16Unorm, WGPUTextureFormat_Depth24Plus,
                                               WGPUTextureFormat_Depth32Float};
#define N_DEPTH_ONLY (sizeof DEPTH_ONLY / sizeof DEPTH_ONLY[0])

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUShaderModule m = make_wgsl(ctx.device, WGSL);
  REQUIRE(m != NULL);
  Pipe p;
  char what[256];

  /* format: colour formats are not depth-stencil formats (RGBA8Unorm is in
   * pipeline_invalid_is_validation_error). */
  const WGPUTextureFormat colours[] = {WGPUTextureFormat_R8Unorm, WGPUTextureFormat_BGRA8Unorm,
                                       WGPUTextureFormat_RGBA16Float, WGPUTextureFormat_R32Float};
  for (size_t i = 0; i < sizeof colours / sizeof colours[0]; i++) {
    pipe_init(&p, m, colours[i]);
    snprintf(what, sizeof what, "colour format %d as depthStencil.format", (int)colours[i]);
    expect(&ctx, &p, 1, what);
  }
  for (size_t i = 0; i < N_DEPTH; i++) {
    pipe_init(&p, m, DEPTH_FORMATS[i]);
    snprintf(what, sizeof what, "%s, depth write off, compare Always", DEPTH_NAMES[i]);
    expect(&ctx, &p, 0, what);
  }
  pipe_init(&p, m, WGPUTextureFormat_Stencil8);
  expect(&ctx, &p, 0, "Stencil8, depth write off, compare Always");

  /* depthWriteEnabled_optional: required for formats with depth. */
  for (size_t i = 0; i < N_DEPTH; i++) {
    pipe_init(&p, m, DEPTH_FORMATS[i]);
    p.ds.depthWriteEnabled = WGPUOptionalBool_Undefined;
    snprintf(what, sizeof what, "%s with depthWriteEnabled Undefined", DEPTH_NAMES[i]);
    expect(&ctx, &p, 1, what);
  }
  pipe_init(&p, m, WGPUTextureFormat_Stencil8);
  p.ds.depthWriteEnabled = WGPUOptionalBool_Undefined;
  expect(&ctx, &p, 0, "Stencil8 with depthWriteEnabled Undefined");

  /* depthCompare_optional. */
  for (size_t i = 0; i < N_DEPTH; i++) {
    pipe_init(&p, m, DEPTH_FORMATS[i]);
    p.ds.depthCompare = WGPUCompareFunction_Undefined;
    p.ds.depthWriteEnabled = WGPUOptionalBool_True;
    snprintf(what, sizeof what, "%s, depth write on, depthCompare Undefined", DEPTH_NAMES[i]);
    expect(&ctx, &p, 1, what);
    pipe_init(&p, m, DEPTH_FORMATS[i]);
    p.ds.depthCompare = WGPUCompareFunction_Undefined;
    snprintf(what, sizeof what, "%s, depth write off, depthCompare Undefined", DEPTH_NAMES[i]);
    expect(&ctx, &p, 0, what);
  }
  pipe_init(&p, m, WGPUTextureFormat_Depth24PlusStencil8);
  p.ds.depthCompare = WGPUCompareFunction_Undefined;
  p.ds.stencilFront.depthFailOp = WGPUStencilOperation_Zero;
  expect(&ctx, &p, 1, "Depth24PlusStencil8, front depthFailOp Zero, depthCompare Undefined");
  pipe_init(&p, m, WGPUTextureFormat_Depth24PlusStencil8);
  p.ds.depthCompare = WGPUCompareFunction_Undefined;
  p.ds.stencilBack.depthFailOp = WGPUStencilOperation_Zero;
  expect(&ctx, &p, 1, "Depth24PlusStencil8, back depthFailOp Zero, depthCompare Undefined");
  pipe_init(&p, m, WGPUTextureFormat_Stencil8);
  p.ds.depthCompare = WGPUCompareFunction_Undefined;
  p.ds.depthWriteEnabled = WGPUOptionalBool_Undefined;
  p.ds.stencilFront.depthFailOp = WGPUStencilOperation_Zero;
  expect(&ctx, &p, 0, "Stencil8, depthFailOp Zero, depthCompare and depthWriteEnabled Undefined");

  /* depth_test / depth_write: Stencil8 has no depth aspect. */
  const WGPUCompareFunction tests[] = {WGPUCompareFunction_Never,   WGPUCompareFunction_Less,
                                       WGPUCompareFunction_Equal,   WGPUCompareFunction_LessEqual,
                                       WGPUCompareFunction_Greater, WGPUCompareFunction_NotEqual,
                                       WGPUCompareFunction_GreaterEqual};
  for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
    pipe_init(&p, m, WGPUTextureFormat_Stencil8);
    p.ds.depthCompare = tests[i];
    snprintf(what, sizeof what, "Stencil8 with depthCompare %d", (int)tests[i]);
    expect(&ctx, &p, 1, what);
    pipe_init(&p, m, WGPUTextureFormat_Depth24Plus);
    p.ds.depthCompare = tests[i];
    snprintf(what, sizeof what, "Depth24Plus with depthCompare %d", (int)tests[i]);
    expect(&ctx, &p, 0, what);
  }
  pipe_init(&p, m, WGPUTextureFormat_Stencil8);
  p.ds.depthWriteEnabled = WGPUOptionalBool_True;
  expect(&ctx, &p, 1, "Stencil8 with depth writes on");
  for (size_t i = 0; i < N_DEPTH; i++) {
    pipe_init(&p, m, DEPTH_FORMATS[i]);
    p.ds.depthWriteEnabled = WGPUOptionalBool_True;
    snprintf(what, sizeof what, "%s with depth writes on", DEPTH_NAMES[i]);
    expect(&ctx, &p, 0, what);
  }

  /* depth_write,frag_depth: writing frag_depth needs a depth aspect. */
  pipe_init(&p, m, WGPUTextureFormat_Depth24Plus);
  p.fragment.entryPoint = sv("fs_depth");
  p.desc.depthStencil = NULL;
  expect(&ctx, &p, 1, "frag_depth written without a depth-stencil state");
  pipe_init(&p, m, WGPUTextureFormat_Stencil8);
  p.fragment.entryPoint = sv("fs_depth");
  expect(&ctx, &p, 1, "frag_depth written with Stencil8");
  for (size_t i = 0; i < N_DEPTH; i++) {
    pipe_init(&p, m, DEPTH_FORMATS[i]);
    p.ds.depthWriteEnabled = WGPUOptionalBool_True;
    p.fragment.entryPoint = sv("fs_depth");
    snprintf(what, sizeof what, "frag_depth written with %s", DEPTH_NAMES[i]);
    expect(&ctx, &p, 0, what);
  }

  /* depth_bias: only with triangle topologies. */
  int no_bias_clamp = pl_is_gl(&ctx);
  int left_out = 0;
  const WGPUPrimitiveTopology topo[] = {WGPUPrimitiveTopology_PointList, WGPUPrimitiveTopology_LineList,
                                        WGPUPrimitiveTopology_LineStrip, WGPUPrimitiveTopology_TriangleList,
                                        WGPUPrimitiveTopology_TriangleStrip};
  for (size_t t = 0; t < sizeof topo / sizeof topo[0]; t++) {
    int triangles = topo[t] == WGPUPrimitiveTopology_TriangleList || topo[t] == WGPUPrimitiveTopology_TriangleStrip;
    for (int which = 0; which < 7; which++) {
      pipe_init(&p, m, WGPUTextureFormat_Depth24Plus);
      p.ds.depthWriteEnabled = WGPUOptionalBool_True;
      p.ds.depthCompare = WGPUCompareFunction_LessEqual;
      p.desc.primitive.topology = topo[t];
      const char *field = "no bias";
      switch (which) {
        case 1: p.ds.depthBias = 1; field = "depthBias 1"; break;
        case 2: p.ds.depthBias = -1; field = "depthBias -1"; break;
        case 3: p.ds.depthBiasSlopeScale = 1.0f; field = "depthBiasSlopeScale 1"; break;
        case 4: p.ds.depthBiasSlopeScale = -1.0f; field = "depthBiasSlopeScale -1"; break;
        case 5: p.ds.depthBiasClamp = 1.0f; field = "depthBiasClamp 1"; break;
        case 6: p.ds.depthBiasClamp = -1.0f; field = "depthBiasClamp -1"; break;
        default: break;
      }
      if (no_bias_clamp && p.ds.depthBiasClamp != 0.0f) {
        left_out++;
        continue;
      }
      snprintf(what, sizeof what, "topology %d with %s", (int)topo[t], field);
      expect(&ctx, &p, which != 0 && !triangles, what);
    }
  }

  pl_report_left_out(left_out, "OpenGL has no depthBiasClamp (wgpu-core downlevel DEPTH_BIAS_CLAMP)");

  /* stencil_test: a stencil compare other than Always needs a stencil aspect. */
  for (size_t f = 0; f < N_DEPTH_ONLY; f++) {
    for (int back = 0; back < 2; back++) {
      for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        pipe_init(&p, m, DEPTH_ONLY[f]);
        if (back) p.ds.stencilBack.compare = tests[i];
        else p.ds.stencilFront.compare = tests[i];
        snprintf(what, sizeof what, "depth-only format %d with stencil%s.compare %d", (int)DEPTH_ONLY[f],
                 back ? "Back" : "Front", (int)tests[i]);
        expect(&ctx, &p, 1, what);
      }
      pipe_init(&p, m, DEPTH_ONLY[f]);
      if (back) p.ds.stencilBack.compare = WGPUCompareFunction_Always;
      else p.ds.stencilFront.compare = WGPUCompareFunction_Always;
      snprintf(what, sizeof what, "depth-only format %d with stencil compare Always", (int)DEPTH_ONLY[f]);
      expect(&ctx, &p, 0, what);
    }
  }
  pipe_init(&p, m, WGPUTextureFormat_Stencil8);
  p.ds.stencilFront.compare = WGPUCompareFunction_Less;
  p.ds.stencilBack.compare = WGPUCompareFunction_Greater;
  expect(&ctx, &p, 0, "Stencil8 with stencil tests");

  /* stencil_write: an op other than Keep needs a stencil aspect. */
  const WGPUStencilOperation ops[] = {WGPUStencilOperation_Zero,           WGPUStencilOperation_Replace,
                                      WGPUStencilOperation_Invert,         WGPUStencilOperation_IncrementClamp,
                                      WGPUStencilOperation_DecrementClamp, WGPUStencilOperation_IncrementWrap,
                                      WGPUStencilOperation_DecrementWrap};
  for (size_t f = 0; f < N_DEPTH_ONLY; f++) {
    for (int slot = 0; slot < 6; slot++) {
      for (size_t i = 0; i <= sizeof ops / sizeof ops[0]; i++) {
        WGPUStencilOperation op = i == sizeof ops / sizeof ops[0] ? WGPUStencilOperation_Keep : ops[i];
        pipe_init(&p, m, DEPTH_ONLY[f]);
        WGPUStencilFaceState *face = slot < 3 ? &p.ds.stencilFront : &p.ds.stencilBack;
        if (slot % 3 == 0) face->failOp = op;
        else if (slot % 3 == 1) face->depthFailOp = op;
        else face->passOp = op;
        snprintf(what, sizeof what, "depth-only format %d with stencil op slot %d = %d", (int)DEPTH_ONLY[f], slot,
                 (int)op);
        expect(&ctx, &p, op != WGPUStencilOperation_Keep, what);
      }
    }
  }
  pipe_init(&p, m, WGPUTextureFormat_Depth24PlusStencil8);
  p.ds.stencilFront.passOp = WGPUStencilOperation_Replace;
  p.ds.stencilBack.failOp = WGPUStencilOperation_Invert;
  expect(&ctx, &p, 0, "Depth24PlusStencil8 with stencil writes");

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuShaderModuleRelease(m);
  ctx_release(&ctx);
  return test_finish();
}
