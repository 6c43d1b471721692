/* Rule (WebGPU beginRenderPass, resolveTarget): a colour attachment with a
 * resolveTarget must be multisampled; the resolve target must be
 * single-sampled, one array layer and one mip level, RenderAttachment
 * usage, valid (not an error view), the same format as the attachment and
 * the same size as the attachment's subresource, and the format must be
 * resolvable (float/unorm formats; integer formats are not). Violations make
 * Finish raise a validation error; a 4-sample attachment resolving into a
 * matching single-sample view (also a mip of a larger texture of the right
 * size) finishes cleanly. On OpenGL, r32float (which wgpu-core's GL
 * backend cannot render to) is left out. The integer-format cases fail
 * there today: wgpu-hal's GL backend reports MULTISAMPLE_RESOLVE for
 * integer formats, so wgpu-core accepts resolving them (a real validation
 * gap, kept). */
#include "pass_util.h"

#define RGBA WGPUTextureFormat_RGBA8Unorm
#define D2 WGPUTextureDimension_2D

static WGPUTexture ms_tex(Ctx *ctx, WGPUTextureFormat f) { return pu_texture(ctx, f, D2, 16, 16, 1, 1, 4, 0); }

static void try_resolve(Ctx *ctx, WGPUTexture src, WGPUTextureView resolve, int valid, const char *what) {
  WGPURenderPassColorAttachment c = pu_color(pu_view(src, NULL));
  c.resolveTarget = resolve;
  pu_try(ctx, &c, 1, NULL, valid, what);
}

int main(void) {
  Ctx ctx;
  REQUIRE(pu_start(&ctx, 60) == 0);
  char what[256];

  /* Single-sampled attachment with a resolve target. */
  try_resolve(&ctx, pu_tex2d(&ctx, RGBA), pu_view(pu_tex2d(&ctx, RGBA), NULL), 0,
              "resolveTarget on a single-sampled attachment");
  /* Multisampled resolve target. */
  try_resolve(&ctx, ms_tex(&ctx, RGBA), pu_view(ms_tex(&ctx, RGBA), NULL), 0, "4-sample resolve target");
  /* Two array layers. */
  {
    WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
    vd.dimension = WGPUTextureViewDimension_2DArray;
    try_resolve(&ctx, ms_tex(&ctx, RGBA), pu_view(pu_texture(&ctx, RGBA, D2, 16, 16, 2, 1, 1, 0), &vd), 0,
                "resolve target view of 2 array layers");
  }
  /* Two mip levels. */
  try_resolve(&ctx, ms_tex(&ctx, RGBA), pu_view(pu_texture(&ctx, RGBA, D2, 16, 16, 1, 2, 1, 0), NULL), 0,
              "resolve target view of 2 mip levels");
  /* Usage. */
  const WGPUTextureUsage usages[] = {WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst,
                                     WGPUTextureUsage_StorageBinding | WGPUTextureUsage_TextureBinding,
                                     WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding};
  const char *usage_names[] = {"CopySrc|CopyDst", "StorageBinding|TextureBinding",
                               "RenderAttachment|TextureBinding"};
  for (int i = 0; i < 3; i++) {
    snprintf(what, sizeof what, "resolve target with usage %s", usage_names[i]);
    try_resolve(&ctx, ms_tex(&ctx, RGBA), pu_view(pu_texture(&ctx, RGBA, D2, 16, 16, 1, 1, 1, usages[i]), NULL),
                (usages[i] & WGPUTextureUsage_RenderAttachment) != 0, what);
  }
  /* Error view. */
  try_resolve(&ctx, ms_tex(&ctx, RGBA), pu_error_view(&ctx), 0, "resolve target is an error view");
  /* Valid single-sample target. */
  try_resolve(&ctx, ms_tex(&ctx, RGBA), pu_view(pu_tex2d(&ctx, RGBA), NULL), 1, "matching single-sample target");
  /* Different format. */
  try_resolve(&ctx, ms_tex(&ctx, RGBA), pu_view(pu_tex2d(&ctx, WGPUTextureFormat_BGRA8Unorm), NULL), 0,
              "bgra8unorm target for rgba8unorm attachment");
  /* Size: mip 0 of a 32x32 texture (wrong), mip 1 of it (16x16, right). */
  {
    WGPUTexture dst = pu_texture(&ctx, RGBA, D2, 32, 32, 1, 2, 1, 0);
    WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
    vd.baseMipLevel = 0;
    vd.mipLevelCount = 1;
    try_resolve(&ctx, ms_tex(&ctx, RGBA), pu_view(dst, &vd), 0, "32x32 target for 16x16 attachment");
    vd.baseMipLevel = 1;
    try_resolve(&ctx, ms_tex(&ctx, RGBA), pu_view(dst, &vd), 1, "mip 1 (16x16) of a 32x32 target");
  }
  /* Format resolvability (formats multisampleable in core WebGPU). */
  typedef struct {
    WGPUTextureFormat f;
    const char *name;
    int resolvable;
  } RF;
  const RF rfs[] = {
      {WGPUTextureFormat_R8Unorm, "r8unorm", 1},         {WGPUTextureFormat_RG8Unorm, "rg8unorm", 1},
      {WGPUTextureFormat_RGBA8Unorm, "rgba8unorm", 1},   {WGPUTextureFormat_RGBA8UnormSrgb, "rgba8unorm-srgb", 1},
      {WGPUTextureFormat_BGRA8Unorm, "bgra8unorm", 1},   {WGPUTextureFormat_BGRA8UnormSrgb, "bgra8unorm-srgb", 1},
      {WGPUTextureFormat_R16Float, "r16float", 1},       {WGPUTextureFormat_RG16Float, "rg16float", 1},
      {WGPUTextureFormat_RGBA16Float, "rgba16float", 1}, {WGPUTextureFormat_RGB10A2Unorm, "rgb10a2unorm", 1},
      {WGPUTextureFormat_R8Uint, "r8uint", 0},           {WGPUTextureFormat_R8Sint, "r8sint", 0},
      {WGPUTextureFormat_RG8Uint, "rg8uint", 0},         {WGPUTextureFormat_RGBA8Uint, "rgba8uint", 0},
      {WGPUTextureFormat_RGBA8Sint, "rgba8sint", 0},     {WGPUTextureFormat_R16Uint, "r16uint", 0},
      {WGPUTextureFormat_R16Sint, "r16sint", 0},         {WGPUTextureFormat_RG16Uint, "rg16uint", 0},
      {WGPUTextureFormat_RGBA16Uint, "rgba16uint", 0},   {WGPUTextureFormat_RGB10A2Uint, "rgb10a2uint", 0},
      {WGPUTextureFormat_R32Float, "r32float", 0},
  };
  for (size_t i = 0; i < sizeof rfs / sizeof rfs[0]; i++) {
    snprintf(what, sizeof what, "resolve of 4-sample %s (%s)", rfs[i].name,
             rfs[i].resolvable ? "resolvable" : "not resolvable");
    /* r32float is multisampled in core WebGPU; OpenGL cannot render to it
     * (wgpu-core downlevel): that case is left out there. */
    if (!pu_format_case(&ctx, rfs[i].f, rfs[i].name, 4, what) ||
        !pu_format_case(&ctx, rfs[i].f, rfs[i].name, 1, what))
      continue;
    WGPUTexture src = ms_tex(&ctx, rfs[i].f);
    WGPUTexture dst = pu_tex2d(&ctx, rfs[i].f);
    try_resolve(&ctx, src, pu_view(dst, NULL), rfs[i].resolvable, what);
  }

  pu_report(&ctx, pu_bad_cases);
  pu_release_all();
  ctx_release(&ctx);
  return test_finish();
}
