/* Rule (WebGPU createRenderPipeline, GPUFragmentState): a pipeline with a
 * fragment stage needs at least one attachment (a colour target or a
 * depth-stencil state); each target format must be colour-renderable; at
 * most maxColorAttachments targets, whose bytes per sample (aligned) stay
 * within maxColorAttachmentBytesPerSample; a blend state needs a blendable
 * format (not integer, not 32-bit float without float32-blendable); the Min
 * and Max operations need both factors One; writeMask must be < 16; the
 * fragment output at a target's location must have the format's scalar type
 * and at least its component count, and a target without an output must
 * have writeMask 0; a colour blend factor reading source alpha needs a vec4
 * output. Each violation is a validation error at creation with a non-NULL
 * pipeline; the valid neighbours raise nothing.
 * wgpu-core 30 accepts a target with writeMask != 0 but no output, and a
 * colour factor reading source alpha with a non-vec4 output.
 * On OpenGL, cases about other rules whose target formats the adapter
 * cannot render to (float32 formats there) are left out, counted: the
 * probe is a texture with RenderAttachment usage, made on OpenGL only.
 */
#include "pipeline_util.h"

typedef struct {
  WGPUShaderModule module;
  WGPUColorTargetState targets[10];
  WGPUBlendState blend;
  WGPUFragmentState fragment;
  WGPUDepthStencilState ds;
  WGPURenderPipelineDescriptor desc;
} Pipe;

static const char *const VS = "@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0, 0.0, 0.0, 1.0); }\n";

/* A module with VS and a fragment entry point `fs` writing `out_type` (e.g.
 * "vec4f"; NULL: no output) at location 0. */
static WGPUShaderModule fs_module(Ctx *ctx, const char *out_type) {
  char code[1024];
  if (!out_type)
    snprintf(code, sizeof code, "%s@fragment fn fs() {}\n", VS);
  else
    snprintf(code, sizeof code, "%s@fragment fn fs() -> @location(0) %s { return %s(1); }\n", VS, out_type, out_type);
  return make_wgsl(ctx->device, code);
}

/* n targets of `format`, no blend, no depth-stencil; the first has
 * writeMask All, the others writeMask 0 (the shaders write only
 * @location(0), and a written target needs an output). */
static void pipe_init(Pipe *p, WGPUShaderModule m, WGPUTextureFormat format, size_t n) {
  memset(p, 0, sizeof *p);
  p->module = m;
  pl_render_init(&p->desc, &p->fragment, &p->targets[0], m);
  for (size_t i = 0; i < n; i++) {
    p->targets[i] = p->targets[0];
    p->targets[i].format = format;
    if (i > 0) p->targets[i].writeMask = WGPUColorWriteMask_None;
  }
  p->blend = WGPU_BLEND_STATE_INIT;
  p->fragment.targetCount = n;
  p->fragment.targets = n ? p->targets : NULL;
  p->ds = pl_depth_state(WGPUTextureFormat_Depth24Plus, WGPUOptionalBool_True, WGPUCompareFunction_Always);
}

/* Cases left out because a target format is not renderable on this
 * (OpenGL) adapter. */
static int left_out;

/* Whether every target format of *p can be a colour attachment on this
 * adapter (always on a non-GL one; pl_gl_lacks_usage), remembered per format. */
static int targets_renderable(Ctx *ctx, const Pipe *p) {
  static signed char known[256]; /* 0 unknown, 1 renderable, -1 not */
  for (size_t i = 0; i < p->fragment.targetCount; i++) {
    WGPUTextureFormat f = p->targets[i].format;
    if ((unsigned)f >= sizeof known) return 1;
    if (!known[f]) known[f] = pl_gl_lacks_usage(ctx, f, WGPUTextureUsage_RenderAttachment) ? -1 : 1;
    if (known[f] < 0) return 0;
  }
  return 1;
}

/* A case whose subject is not the renderability of its formats: left out
 * where one of them is not renderable on this adapter. */
static void expect(Ctx *ctx, const Pipe *p, int want_error, const char *what) {
  if (!targets_renderable(ctx, p)) {
    left_out++;
    return;
  }
  pl_expect_render(ctx, &p->desc, want_error, what);
}

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUShaderModule f4 = fs_module(&ctx, "vec4f");
  WGPUShaderModule f3 = fs_module(&ctx, "vec3f");
  WGPUShaderModule f1 = fs_module(&ctx, "f32");
  WGPUShaderModule u4 = fs_module(&ctx, "vec4u");
  WGPUShaderModule i4 = fs_module(&ctx, "vec4i");
  WGPUShaderModule none = fs_module(&ctx, NULL);
  REQUIRE(f4 && f3 && f1 && u4 && i4 && none);
  Pipe p;
  char what[256];

  /* color_target_exists: a fragment stage with no attachment at all. */
  pipe_init(&p, none, WGPUTextureFormat_RGBA8Unorm, 0);
  expect(&ctx, &p, 1, "fragment stage with no colour target and no depth-stencil");
  pipe_init(&p, none, WGPUTextureFormat_RGBA8Unorm, 0);
  p.desc.depthStencil = &p.ds;
  expect(&ctx, &p, 0, "fragment stage with only a depth-stencil state");
  pipe_init(&p, f4, WGPUTextureFormat_RGBA8Unorm, 1);
  expect(&ctx, &p, 0, "one RGBA8Unorm target");

  /* targets_format_renderable: colour formats that are not renderable. */
  const WGPUTextureFormat not_renderable[] = {WGPUTextureFormat_R8Snorm, WGPUTextureFormat_RG8Snorm,
                                              WGPUTextureFormat_RGBA8Snorm, WGPUTextureFormat_RGB9E5Ufloat,
                                              WGPUTextureFormat_BC1RGBAUnorm};
  for (size_t i = 0; i < sizeof not_renderable / sizeof not_renderable[0]; i++) {
    pipe_init(&p, f4, not_renderable[i], 1);
    snprintf(what, sizeof what, "non-renderable target format %d", (int)not_renderable[i]);
    pl_expect_render(&ctx, &p.desc, 1, what);
  }
  /* targets_format_is_color_format: depth formats as colour targets. */
  const WGPUTextureFormat depth[] = {WGPUTextureFormat_Depth16Unorm, WGPUTextureFormat_Depth24Plus,
                                     WGPUTextureFormat_Stencil8, WGPUTextureFormat_Depth24PlusStencil8};
  for (size_t i = 0; i < sizeof depth / sizeof depth[0]; i++) {
    pipe_init(&p, f4, depth[i], 1);
    snprintf(what, sizeof what, "depth/stencil format %d as a colour target", (int)depth[i]);
    pl_expect_render(&ctx, &p.desc, 1, what);
  }

  /* limits,maxColorAttachments (8 by default): targets with writeMask 0. */
  WGPULimits lim = WGPU_LIMITS_INIT;
  REQUIRE(wgpuDeviceGetLimits(ctx.device, &lim) == WGPUStatus_Success);
  REQUIRE(lim.maxColorAttachments <= 9);
  pipe_init(&p, f4, WGPUTextureFormat_R8Unorm, lim.maxColorAttachments);
  p.desc.depthStencil = &p.ds;
  for (size_t i = 0; i < lim.maxColorAttachments; i++) p.targets[i].writeMask = WGPUColorWriteMask_None;
  expect(&ctx, &p, 0, "maxColorAttachments targets");
  pipe_init(&p, f4, WGPUTextureFormat_R8Unorm, lim.maxColorAttachments + 1);
  p.desc.depthStencil = &p.ds;
  for (size_t i = 0; i <= lim.maxColorAttachments; i++) p.targets[i].writeMask = WGPUColorWriteMask_None;
  expect(&ctx, &p, 1, "maxColorAttachments + 1 targets");

  /* limits,maxColorAttachmentBytesPerSample (32 by default). */
  REQUIRE(lim.maxColorAttachmentBytesPerSample == 32);
  pipe_init(&p, f4, WGPUTextureFormat_RGBA32Float, 2);
  expect(&ctx, &p, 0, "2 x RGBA32Float (32 bytes)");
  pipe_init(&p, f4, WGPUTextureFormat_RGBA32Float, 3);
  expect(&ctx, &p, 1, "3 x RGBA32Float (48 bytes)");
  pipe_init(&p, f4, WGPUTextureFormat_RGBA8Unorm, 4);
  expect(&ctx, &p, 0, "4 x RGBA8Unorm (32 bytes, 8 each)");
  pipe_init(&p, f4, WGPUTextureFormat_RGBA8Unorm, 5);
  expect(&ctx, &p, 1, "5 x RGBA8Unorm (40 bytes, 8 each)");
  pipe_init(&p, f4, WGPUTextureFormat_RGBA16Float, 5);
  expect(&ctx, &p, 1, "5 x RGBA16Float (40 bytes)");
  /* unaligned: r8unorm, r32float, rgba8unorm, rgba32float, r8unorm = 1 + 3
   * pad + 4 + 8 + 16 + 1 = 33 bytes. */
  {
    const WGPUTextureFormat mix[] = {WGPUTextureFormat_R8Unorm, WGPUTextureFormat_R32Float,
                                     WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA32Float,
                                     WGPUTextureFormat_R8Unorm};
    pipe_init(&p, f4, WGPUTextureFormat_R8Unorm, 5);
    for (size_t i = 0; i < 5; i++) {
      p.targets[i].format = mix[i];
      p.targets[i].writeMask = WGPUColorWriteMask_None;
    }
    expect(&ctx, &p, 1, "r8unorm,r32float,rgba8unorm,rgba32float,r8unorm (33 bytes aligned)");
    const WGPUTextureFormat mix2[] = {WGPUTextureFormat_R32Float, WGPUTextureFormat_RGBA8Unorm,
                                      WGPUTextureFormat_RGBA32Float, WGPUTextureFormat_R8Unorm,
                                      WGPUTextureFormat_R8Unorm};
    for (size_t i = 0; i < 5; i++) p.targets[i].format = mix2[i];
    expect(&ctx, &p, 0, "r32float,rgba8unorm,rgba32float,r8unorm,r8unorm (30 bytes)");
  }

  /* targets_format_filterable: blending needs a blendable format. */
  struct { WGPUTextureFormat f; WGPUShaderModule m; int blendable; } bl[] = {
      {WGPUTextureFormat_R8Unorm, f4, 1},     {WGPUTextureFormat_RGBA16Float, f4, 1},
      {WGPUTextureFormat_RGB10A2Unorm, f4, 1}, {WGPUTextureFormat_R8Uint, u4, 0},
      {WGPUTextureFormat_RGBA16Sint, i4, 0},   {WGPUTextureFormat_RGBA32Uint, u4, 0},
      {WGPUTextureFormat_R32Float, f4, 0},     {WGPUTextureFormat_RG32Float, f4, 0},
      {WGPUTextureFormat_RGBA32Float, f4, 0},
  };
  int f32_blendable = wgpuDeviceHasFeature(ctx.device, WGPUFeatureName_Float32Blendable);
  for (size_t i = 0; i < sizeof bl / sizeof bl[0]; i++) {
    for (int has_blend = 0; has_blend < 2; has_blend++) {
      pipe_init(&p, bl[i].m, bl[i].f, 1);
      if (has_blend) p.targets[0].blend = &p.blend;
      int blendable = bl[i].blendable || (f32_blendable && bl[i].m == f4);
      snprintf(what, sizeof what, "format %d %s blend", (int)bl[i].f, has_blend ? "with" : "without");
      expect(&ctx, &p, has_blend && !blendable, what);
    }
  }

  /* targets_blend: Min and Max need both factors One. */
  const WGPUBlendFactor factors[] = {WGPUBlendFactor_Zero,     WGPUBlendFactor_One,      WGPUBlendFactor_Src,
                                     WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_Dst,      WGPUBlendFactor_Constant,
                                     WGPUBlendFactor_OneMinusDstAlpha, WGPUBlendFactor_SrcAlphaSaturated};
  const WGPUBlendOperation bops[] = {WGPUBlendOperation_Add, WGPUBlendOperation_Subtract,
                                     WGPUBlendOperation_ReverseSubtract, WGPUBlendOperation_Min,
                                     WGPUBlendOperation_Max};
  size_t nf = sizeof factors / sizeof factors[0];
  for (int alpha = 0; alpha < 2; alpha++)
    for (size_t o = 0; o < sizeof bops / sizeof bops[0]; o++)
      for (size_t s = 0; s < nf; s++)
        for (size_t d = 0; d < nf; d++) {
          pipe_init(&p, f4, WGPUTextureFormat_RGBA8Unorm, 1);
          p.blend.color.srcFactor = WGPUBlendFactor_SrcAlpha;
          p.blend.color.dstFactor = WGPUBlendFactor_DstAlpha;
          p.blend.color.operation = WGPUBlendOperation_Add;
          p.blend.alpha = p.blend.color;
          WGPUBlendComponent *c = alpha ? &p.blend.alpha : &p.blend.color;
          c->srcFactor = factors[s];
          c->dstFactor = factors[d];
          c->operation = bops[o];
          p.targets[0].blend = &p.blend;
          int minmax = bops[o] == WGPUBlendOperation_Min || bops[o] == WGPUBlendOperation_Max;
          int ok = !minmax || (factors[s] == WGPUBlendFactor_One && factors[d] == WGPUBlendFactor_One);
          snprintf(what, sizeof what, "%s blend op %d src %d dst %d", alpha ? "alpha" : "colour", (int)bops[o],
                   (int)factors[s], (int)factors[d]);
          expect(&ctx, &p, !ok, what);
        }

  /* targets_write_mask: must be < 16. */
  const uint64_t masks[] = {0, 0xf, 0x10, 0x80000001u};
  for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
    pipe_init(&p, f4, WGPUTextureFormat_RGBA8Unorm, 1);
    p.targets[0].writeMask = (WGPUColorWriteMask)masks[i];
    snprintf(what, sizeof what, "writeMask 0x%llx", (unsigned long long)masks[i]);
    expect(&ctx, &p, masks[i] >= 16, what);
  }

  /* pipeline_output_targets: the output type must match the format's
   * sample type, with at least its component count; no output needs
   * writeMask 0. */
  struct { WGPUTextureFormat f; WGPUShaderModule m; int ok; const char *n; } out[] = {
      {WGPUTextureFormat_RGBA8Unorm, f4, 1, "RGBA8Unorm <- vec4f"},
      {WGPUTextureFormat_RGBA8Unorm, u4, 0, "RGBA8Unorm <- vec4u"},
      {WGPUTextureFormat_RGBA8Unorm, i4, 0, "RGBA8Unorm <- vec4i"},
      {WGPUTextureFormat_RGBA8Unorm, f3, 0, "RGBA8Unorm <- vec3f"},
      {WGPUTextureFormat_RGBA8Unorm, f1, 0, "RGBA8Unorm <- f32"},
      {WGPUTextureFormat_R8Unorm, f1, 1, "R8Unorm <- f32"},
      {WGPUTextureFormat_R8Unorm, f3, 1, "R8Unorm <- vec3f"},
      {WGPUTextureFormat_R8Uint, u4, 1, "R8Uint <- vec4u"},
      {WGPUTextureFormat_R8Uint, f4, 0, "R8Uint <- vec4f"},
      {WGPUTextureFormat_R8Uint, i4, 0, "R8Uint <- vec4i"},
      {WGPUTextureFormat_RGBA16Sint, i4, 1, "RGBA16Sint <- vec4i"},
      {WGPUTextureFormat_RGBA16Sint, u4, 0, "RGBA16Sint <- vec4u"},
      {WGPUTextureFormat_R32Float, u4, 0, "R32Float <- vec4u"},
  };
  for (size_t i = 0; i < sizeof out / sizeof out[0]; i++) {
    pipe_init(&p, out[i].m, out[i].f, 1);
    p.desc.depthStencil = &p.ds;
    snprintf(what, sizeof what, "output %s", out[i].n);
    expect(&ctx, &p, !out[i].ok, what);
  }
  /* RG11B10Ufloat is renderable only with rg11b10ufloat-renderable. */
  pipe_init(&p, f3, WGPUTextureFormat_RG11B10Ufloat, 1);
  pl_expect_render(&ctx, &p.desc, !wgpuDeviceHasFeature(ctx.device, WGPUFeatureName_RG11B10UfloatRenderable),
         "RG11B10Ufloat <- vec3f (renderable only with the feature)");
  const WGPUColorWriteMask wm[] = {WGPUColorWriteMask_None, WGPUColorWriteMask_Red, WGPUColorWriteMask_Green,
                                   WGPUColorWriteMask_Blue, WGPUColorWriteMask_Alpha, WGPUColorWriteMask_All};
  for (size_t i = 0; i < sizeof wm / sizeof wm[0]; i++) {
    pipe_init(&p, none, WGPUTextureFormat_RGBA8Unorm, 1);
    p.desc.depthStencil = &p.ds;
    p.targets[0].writeMask = wm[i];
    snprintf(what, sizeof what, "no fragment output for a target with writeMask %d", (int)wm[i]);
    expect(&ctx, &p, wm[i] != WGPUColorWriteMask_None, what);
  }

  /* pipeline_output_targets,blend: a colour factor reading source alpha
   * needs a vec4 output. */
  const WGPUBlendFactor alpha_readers[] = {WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha,
                                           WGPUBlendFactor_SrcAlphaSaturated};
  for (size_t i = 0; i < 3; i++) {
    for (int dst = 0; dst < 2; dst++) {
      for (int vec4 = 0; vec4 < 2; vec4++) {
        pipe_init(&p, vec4 ? f4 : f3, WGPUTextureFormat_RGBA8Unorm, 1);
        p.blend.color.srcFactor = dst ? WGPUBlendFactor_One : alpha_readers[i];
        p.blend.color.dstFactor = dst ? alpha_readers[i] : WGPUBlendFactor_Zero;
        p.targets[0].format = WGPUTextureFormat_R8Unorm;
        p.targets[0].blend = &p.blend;
        snprintf(what, sizeof what, "R8Unorm, colour %s factor %d, %s output", dst ? "dst" : "src",
                 (int)alpha_readers[i], vec4 ? "vec4f" : "vec3f");
        expect(&ctx, &p, !vec4, what);
      }
    }
  }
  /* Alpha-channel factors reading source alpha do not need a vec4. */
  pipe_init(&p, f3, WGPUTextureFormat_R8Unorm, 1);
  p.blend.alpha.srcFactor = WGPUBlendFactor_SrcAlpha;
  p.targets[0].blend = &p.blend;
  expect(&ctx, &p, 0, "R8Unorm, alpha src factor SrcAlpha, vec3f output");

  pl_report_left_out(left_out, "OpenGL cannot render to these target formats (wgpu-core's downlevel format "
                               "features: no float32 colour attachments without EXT_color_buffer_float)");
  CHECK_EQ(ctx.uncaptured_errors, 0);
  WGPUShaderModule mods[] = {f4, f3, f1, u4, i4, none};
  for (size_t i = 0; i < 6; i++) wgpuShaderModuleRelease(mods[i]);
  ctx_release(&ctx);
  return test_finish();
}
