/* Rule (WebGPU createRenderPipeline, shader stages): the vertex and
 * fragment modules must be valid, of this device, and their entry points of
 * the right stage; a pipeline with only a vertex stage (no fragment state)
 * and a depth-stencil state is valid; the layout must be of this device; each stage's constants are
 * checked against that stage's module: a key must name an override of the
 * module (by name, or by @id when it has one; an override the entry point
 * does not use is fine), an override the entry point uses without an
 * initializer needs a value, and a value must be representable in the
 * override's type. A pipeline with no attachment at all (vertex stage only,
 * no depth-stencil) is an error.
 * Each violation is a validation error at creation with a non-NULL
 * pipeline; the valid neighbours raise nothing. (Non-finite values are in
 * pipeline_invalid_is_validation_error; compute-stage constants in
 * compute_pipeline_overrides.)
 * Left out: the CTS's misc,external_texture case (an auto-layout pipeline
 * whose fragment stage loads a texture_external is valid): this library
 * does not implement external textures (wgpu-core 30 refuses the module
 * without its native EXTERNAL_TEXTURE feature).
 */
#include "pipeline_util.h"

static const char *const WGSL =
    "override vo: f32 = 0.0;\n"
    "override vu: u32;\n"
    "@id(7) override vid: i32 = 0;\n"
    "@vertex fn vs() -> @builtin(position) vec4f { return vec4f(vo, f32(vu), f32(vid), 1.0); }\n"
    "override fo: f32 = 0.0;\n"
    "override fb: bool;\n"
    "@fragment fn fs() -> @location(0) vec4f { return vec4f(fo, select(0.0, 1.0, fb), 0.0, 1.0); }\n";

typedef struct {
  WGPUConstantEntry vc[4], fc[4];
  WGPUColorTargetState target;
  WGPUFragmentState fragment;
  WGPUDepthStencilState ds;
  WGPURenderPipelineDescriptor desc;
} Pipe;

static WGPUConstantEntry ce(const char *k, double v) { return pl_constant(sv(k), v); }

/* Vertex constants vu = 1, fragment constants fb = 1: valid. */
static void pipe_init(Pipe *p, WGPUShaderModule m) {
  memset(p, 0, sizeof *p);
  p->vc[0] = ce("vu", 1);
  p->fc[0] = ce("fb", 1);
  pl_render_init(&p->desc, &p->fragment, &p->target, m);
  p->fragment.constantCount = 1;
  p->fragment.constants = p->fc;
  p->ds = pl_depth_state(WGPUTextureFormat_Depth32Float, WGPUOptionalBool_True, WGPUCompareFunction_Less);
  p->desc.vertex.constantCount = 1;
  p->desc.vertex.constants = p->vc;
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

  pipe_init(&p, m);
  expect(&ctx, &p, 0, "control");

  /* shader_module,invalid,vertex / fragment. */
  WGPUShaderModule bad = NULL;
  EXPECT_VALIDATION(&ctx, bad = make_wgsl(ctx.device, "not wgsl at all"));
  REQUIRE(bad != NULL);
  pipe_init(&p, m);
  p.desc.vertex.module = bad;
  p.desc.vertex.constantCount = 0;
  expect(&ctx, &p, 1, "an invalid vertex module");
  pipe_init(&p, m);
  p.fragment.module = bad;
  p.fragment.constantCount = 0;
  expect(&ctx, &p, 1, "an invalid fragment module");

  /* Entry points of the wrong stage. */
  pipe_init(&p, m);
  p.desc.vertex.entryPoint = sv("fs");
  p.desc.vertex.constantCount = 0;
  expect(&ctx, &p, 1, "the fragment entry point as the vertex stage");
  pipe_init(&p, m);
  p.fragment.entryPoint = sv("vs");
  p.fragment.constantCount = 0;
  expect(&ctx, &p, 1, "the vertex entry point as the fragment stage");

  /* misc,vertex_state_only. */
  pipe_init(&p, m);
  p.desc.fragment = NULL;
  expect(&ctx, &p, 1, "vertex stage only, no depth-stencil (no attachment)");
  pipe_init(&p, m);
  p.desc.fragment = NULL;
  p.desc.depthStencil = &p.ds;
  expect(&ctx, &p, 0, "vertex stage only, with a depth-stencil state");

  /* shader_module,device_mismatch and misc,pipeline_layout,device_mismatch
   * (a second device of the same instance). */
  {
    WGPUAdapter a2 = request_adapter(ctx.instance, UINT64_MAX);
    REQUIRE(a2 != NULL);
    WGPUDevice d2 = request_device(ctx.instance, a2, NULL, UINT64_MAX);
    REQUIRE(d2 != NULL);
    WGPUShaderModule m2 = make_wgsl(d2, WGSL);
    REQUIRE(m2 != NULL);
    pipe_init(&p, m);
    p.desc.vertex.module = m2;
    expect(&ctx, &p, 1, "a vertex module of another device");
    pipe_init(&p, m);
    p.fragment.module = m2;
    expect(&ctx, &p, 1, "a fragment module of another device");
    WGPUPipelineLayoutDescriptor pd = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    WGPUPipelineLayout pl2 = wgpuDeviceCreatePipelineLayout(d2, &pd);
    WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(ctx.device, &pd);
    pipe_init(&p, m);
    p.desc.layout = pl2;
    expect(&ctx, &p, 1, "a pipeline layout of another device");
    p.desc.layout = pl;
    expect(&ctx, &p, 0, "an empty pipeline layout of this device");
    wgpuPipelineLayoutRelease(pl);
    wgpuPipelineLayoutRelease(pl2);
    wgpuShaderModuleRelease(m2);
    wgpuDeviceRelease(d2);
    wgpuAdapterRelease(a2);
  }

  /* overrides,identifier per stage. */
  struct { int frag; const char *key; int bad; } ids[] = {
      {0, "vo", 0}, {0, "7", 0}, {0, "vid", 1}, {0, "fo", 0}, {0, "nope", 1},
      {1, "fo", 0}, {1, "vo", 0}, {1, "7", 0},  {1, "", 1}, {1, "8", 1},
  };
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    pipe_init(&p, m);
    char what[128];
    if (ids[i].frag) {
      p.fc[1] = ce(ids[i].key, 0);
      p.fragment.constantCount = 2;
    } else {
      p.vc[1] = ce(ids[i].key, 0);
      p.desc.vertex.constantCount = 2;
    }
    snprintf(what, sizeof what, "%s constant key \"%s\"", ids[i].frag ? "fragment" : "vertex", ids[i].key);
    expect(&ctx, &p, ids[i].bad, what);
  }

  /* overrides,uninitialized per stage. */
  pipe_init(&p, m);
  p.desc.vertex.constantCount = 0;
  expect(&ctx, &p, 1, "vertex override vu without a value");
  pipe_init(&p, m);
  p.fragment.constantCount = 0;
  expect(&ctx, &p, 1, "fragment override fb without a value");

  /* overrides,value,validation_error per stage. */
  struct { int frag; const char *key; double v; int bad; } vals[] = {
      {0, "vu", -1.0, 1},         {0, "vu", 4294967296.0, 1}, {0, "vu", 4294967295.0, 0},
      {0, "7", 2147483648.0, 1},  {0, "7", -2147483648.0, 0}, {0, "vo", 3.4028235677973366e+38, 1},
      {1, "fo", -3.4028235677973366e+38, 1}, {1, "fo", 3.4028234663852886e+38, 0},
      {1, "fb", 1e300, 0},
  };
  for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
    pipe_init(&p, m);
    char what[128];
    WGPUConstantEntry *c = vals[i].frag ? p.fc : p.vc;
    size_t *n = vals[i].frag ? &p.fragment.constantCount : &p.desc.vertex.constantCount;
    if (strcmp(vals[i].key, "vu") == 0 || strcmp(vals[i].key, "fb") == 0) c[0].value = vals[i].v;
    else c[(*n)++] = ce(vals[i].key, vals[i].v);
    snprintf(what, sizeof what, "%s constant %s = %.17g", vals[i].frag ? "fragment" : "vertex", vals[i].key,
             vals[i].v);
    expect(&ctx, &p, vals[i].bad, what);
  }

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuShaderModuleRelease(bad);
  wgpuShaderModuleRelease(m);
  ctx_release(&ctx);
  return test_finish();
}
