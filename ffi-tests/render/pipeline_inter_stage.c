/* Rule (WebGPU createRenderPipeline, inter-stage interface): every fragment
 * input location must be a vertex output location (extra vertex outputs are
 * fine), of the same type, with the same interpolation type and sampling
 * (perspective and center being the defaults); a location must be below
 * maxInterStageShaderVariables; the vertex outputs may use at most
 * maxInterStageShaderVariables slots (one fewer with the PointList topology),
 * and the fragment inputs, counting front_facing, sample_index and
 * sample_mask builtins, at most maxInterStageShaderVariables. Each
 * violation is a validation error (raised by the module or the pipeline
 * creation) and the pipeline is not NULL; the valid neighbours raise
 * nothing.
 * wgpu-core 30 accepts an output with more components than the input
 * (vec3f -> vec2f) and rejects valid pairs whose sampling is left at the
 * default on one side only (perspective vs perspective, center).
 * On OpenGL the valid pipeline whose fragment stage reads sample_mask is
 * left out (counted): naga 30's GLSL backend emits a shader the driver
 * rejects (gfx-rs/wgpu#6085); the over-the-limit one, refused before any
 * compilation, stays.
 */
#include "pipeline_util.h"

/* The vertex module: struct members `outs` (each a full member
 * declaration) plus the position. */
static void vs_code(char *buf, size_t n, const char *const *outs, size_t count) {
  size_t at = snprintf(buf, n, "struct A {\n");
  for (size_t i = 0; i < count; i++) at += snprintf(buf + at, n - at, "  %s,\n", outs[i]);
  snprintf(buf + at, n - at,
           "  @builtin(position) pos: vec4f,\n}\n"
           "@vertex fn main() -> A { var o: A; o.pos = vec4f(0.0, 0.0, 0.0, 1.0); return o; }\n");
}

static void fs_code(char *buf, size_t n, const char *const *ins, size_t count) {
  size_t at = snprintf(buf, n, "struct B {\n");
  for (size_t i = 0; i < count; i++) at += snprintf(buf + at, n - at, "  %s,\n", ins[i]);
  if (count == 0) at += snprintf(buf + at, n - at, "  @builtin(position) pos: vec4f,\n");
  snprintf(buf + at, n - at, "}\n@fragment fn main(b: B) -> @location(0) vec4f { return vec4f(1.0); }\n");
}

/* Creates both modules and the pipeline inside one Validation scope. */
static void expect(Ctx *ctx, const char *vs, const char *fs, WGPUPrimitiveTopology topo, int want_error,
                   const char *what) {
  PopResult r;
  WGPURenderPipeline pipe = NULL;
  RU_CAPTURE(ctx, &r, {
    WGPUShaderModule vm = make_wgsl(ctx->device, vs);
    WGPUShaderModule fm = make_wgsl(ctx->device, fs);
    WGPUColorTargetState target;
    WGPUFragmentState frag;
    WGPURenderPipelineDescriptor d;
    pl_render_init(&d, &frag, &target, vm);
    frag.module = fm;
    frag.entryPoint = sv("main");
    d.vertex.entryPoint = sv("main");
    d.primitive.topology = topo;
    pipe = wgpuDeviceCreateRenderPipeline(ctx->device, &d);
    if (vm) wgpuShaderModuleRelease(vm);
    if (fm) wgpuShaderModuleRelease(fm);
  });
  pl_check_outcome(&r, want_error, what);
  CHECK(pipe != NULL);
  if (pipe) wgpuRenderPipelineRelease(pipe);
}

static void pair(Ctx *ctx, const char *out, const char *in, int want_error, const char *what) {
  char vs[1024], fs[1024];
  vs_code(vs, sizeof vs, &out, 1);
  fs_code(fs, sizeof fs, &in, 1);
  expect(ctx, vs, fs, WGPUPrimitiveTopology_TriangleList, want_error, what);
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPULimits lim = WGPU_LIMITS_INIT;
  REQUIRE(wgpuDeviceGetLimits(ctx.device, &lim) == WGPUStatus_Success);
  REQUIRE(lim.maxInterStageShaderVariables <= 40);
  static char vs[8192], fs[8192];
  char what[256];

  /* location,mismatch / superset / subset. */
  pair(&ctx, "@location(0) a: f32", "@location(0) a: f32", 0, "location 0 -> 0");
  pair(&ctx, "@location(0) a: f32", "@location(1) a: f32", 1, "location 0 -> 1");
  pair(&ctx, "@location(1) a: f32", "@location(0) a: f32", 1, "location 1 -> 0");
  {
    const char *o[] = {"@location(0) a: f32", "@location(1) b: f32"};
    const char *i[] = {"@location(1) a: f32", "@location(0) b: f32"};
    vs_code(vs, sizeof vs, o, 2);
    fs_code(fs, sizeof fs, i, 2);
    expect(&ctx, vs, fs, WGPUPrimitiveTopology_TriangleList, 0, "locations 0, 1 -> 1, 0 (reordered)");
    fs_code(fs, sizeof fs, i, 1);
    expect(&ctx, vs, fs, WGPUPrimitiveTopology_TriangleList, 0, "outputs 0, 1 -> input 1 (superset)");
    vs_code(vs, sizeof vs, o, 1);
    fs_code(fs, sizeof fs, i, 2);
    expect(&ctx, vs, fs, WGPUPrimitiveTopology_TriangleList, 1, "output 0 -> inputs 0, 1 (subset)");
  }

  /* type. */
  const char *types[][2] = {{"f32", "f32"},     {"i32", "f32"},     {"u32", "f32"},   {"u32", "i32"},
                            {"i32", "u32"},     {"vec2f", "vec2f"}, {"vec3f", "vec2f"}, {"vec2f", "vec3f"},
                            {"vec2f", "f32"},   {"f32", "vec2f"},   {"vec4u", "vec4u"}, {"vec4u", "vec4i"}};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    char o[128], in[128];
    snprintf(o, sizeof o, "@location(0) @interpolate(flat, either) a: %s", types[i][0]);
    snprintf(in, sizeof in, "@location(0) @interpolate(flat, either) a: %s", types[i][1]);
    snprintf(what, sizeof what, "type %s -> %s", types[i][0], types[i][1]);
    pair(&ctx, o, in, strcmp(types[i][0], types[i][1]) != 0, what);
  }

  /* interpolation_type and interpolation_sampling (on f32). */
  struct { const char *o, *i; int ok; } interp[] = {
      {"", "", 1},
      {"", "@interpolate(perspective)", 1},
      {"", "@interpolate(perspective, center)", 1},
      {"@interpolate(perspective)", "", 1},
      {"", "@interpolate(linear)", 0},
      {"@interpolate(perspective)", "@interpolate(perspective)", 1},
      {"@interpolate(linear)", "@interpolate(perspective)", 0},
      {"@interpolate(flat, either)", "@interpolate(perspective)", 0},
      {"@interpolate(linear)", "@interpolate(flat, either)", 0},
      {"@interpolate(linear, center)", "@interpolate(linear, center)", 1},
      {"@interpolate(linear, center)", "@interpolate(linear)", 1},
      {"@interpolate(flat, either)", "@interpolate(flat, either)", 1},
      {"@interpolate(flat)", "@interpolate(flat, first)", 1},
      {"@interpolate(flat, first)", "@interpolate(flat, either)", 0},
      {"@interpolate(perspective)", "@interpolate(perspective, sample)", 0},
      {"@interpolate(perspective, center)", "@interpolate(perspective, sample)", 0},
      {"@interpolate(perspective, center)", "@interpolate(perspective, centroid)", 0},
      {"@interpolate(perspective, centroid)", "@interpolate(perspective)", 0},
  };
  for (size_t i = 0; i < sizeof interp / sizeof interp[0]; i++) {
    char o[128], in[128];
    snprintf(o, sizeof o, "@location(0) %s a: f32", interp[i].o);
    snprintf(in, sizeof in, "@location(0) %s a: f32", interp[i].i);
    snprintf(what, sizeof what, "interpolation '%s' -> '%s'", interp[i].o, interp[i].i);
    pair(&ctx, o, in, !interp[i].ok, what);
  }

  /* max_shader_variable_location. */
  for (int delta = -2; delta <= 0; delta++) {
    char d[64];
    snprintf(d, sizeof d, "@location(%d) a: f32", (int)lim.maxInterStageShaderVariables + delta);
    snprintf(what, sizeof what, "inter-stage location maxInterStageShaderVariables%+d", delta);
    pair(&ctx, d, d, delta == 0, what);
  }

  /* max_variables_count,output: vec4 outputs at the limit, with PointList
   * (which takes one slot for the point size). */
  static char decl_o[40][64], decl_i[40][64];
  const char *outs[40], *ins[40];
  for (int i = 0; i < 40; i++) {
    snprintf(decl_o[i], sizeof decl_o[i], "@location(%d) v%d: vec4f", i, i);
    snprintf(decl_i[i], sizeof decl_i[i], "@location(%d) f%d: vec4f", i, i);
  }
  struct { int delta; WGPUPrimitiveTopology t; int ok; } mo[] = {
      {0, WGPUPrimitiveTopology_TriangleList, 1},
      {1, WGPUPrimitiveTopology_TriangleList, 0},
      {0, WGPUPrimitiveTopology_PointList, 0},
      {-1, WGPUPrimitiveTopology_PointList, 1},
  };
  for (size_t c = 0; c < sizeof mo / sizeof mo[0]; c++) {
    size_t n = lim.maxInterStageShaderVariables + mo[c].delta;
    for (size_t i = 0; i < n; i++) {
      outs[i] = decl_o[i];
      ins[i] = decl_i[i];
    }
    vs_code(vs, sizeof vs, outs, n);
    fs_code(fs, sizeof fs, ins, n);
    snprintf(what, sizeof what, "%llu vec4 inter-stage variables, topology %d", (unsigned long long)n, (int)mo[c].t);
    expect(&ctx, vs, fs, mo[c].t, !mo[c].ok, what);
  }

  /* max_variables_count,input: builtins count against the limit. */
  int no_sample_mask = pl_is_gl(&ctx), left_out = 0;
  const char *const builtin_sets[][3] = {
      {NULL, NULL, NULL},
      {"@builtin(front_facing) ff: bool", NULL, NULL},
      {"@builtin(front_facing) ff: bool", "@builtin(sample_index) si: u32", "@builtin(sample_mask) sm: u32"},
  };
  for (size_t b = 0; b < 3; b++) {
    size_t nb = 0;
    while (nb < 3 && builtin_sets[b][nb]) nb++;
    for (int over = 0; over < 2; over++) {
      if (b == 2 && !over && no_sample_mask) {
        left_out++;
        continue;
      }
      size_t n = lim.maxInterStageShaderVariables - nb + over;
      size_t k = 0;
      for (size_t i = 0; i < nb; i++) ins[k++] = builtin_sets[b][i];
      for (size_t i = 0; i < n; i++) {
        outs[i] = decl_o[i];
        ins[k++] = decl_i[i];
      }
      ins[k++] = "@builtin(position) pos: vec4f";
      vs_code(vs, sizeof vs, outs, n);
      fs_code(fs, sizeof fs, ins, k);
      snprintf(what, sizeof what, "%llu fragment builtins + %llu vec4 inputs", (unsigned long long)nb, (unsigned long long)n);
      expect(&ctx, vs, fs, WGPUPrimitiveTopology_TriangleList, over, what);
    }
  }

  pl_report_left_out(left_out, "OpenGL cannot compile a sample_mask input (naga 30's GLSL backend reads "
                               "int[] gl_SampleMaskIn as a uint: gfx-rs/wgpu#6085, #4335)");
  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
