/* Rule (WebGPU createTexture; CTS createTexture): creation is a validation
 * error (the texture still non-NULL) when: TransientAttachment is used other
 * than together with RenderAttachment alone; StorageBinding is asked of a
 * format without storage support; RenderAttachment is asked of a 1D texture
 * or a colour format that is not renderable; a multisampled texture is 1D,
 * 3D, an array, not of 4 samples, or of a format that cannot be
 * multisampled; height, depthOrArrayLayers or mipLevelCount is 0;
 * mipLevelCount exceeds the mip chain of the size (1 for 1D; width/height
 * only for 2D arrays; all three for 3D); a size exceeds the device's limits
 * (1D: width, and height = depth = 1; 2D: width, height, layers; 3D: each
 * side); a depth/stencil format is 1D or 3D; a compressed format's size is
 * not a multiple of its block, or it is 1D, or 3D without the sliced-3D
 * feature; a viewFormats entry differs from the format by more than "-srgb".
 * Each boundary-valid descriptor raises nothing.
 * On OpenGL these cases are left out (counted and printed): viewFormats that
 * list another format (no VIEW_FORMATS downlevel flag), and, when a probe
 * shows that the adapter renders to no 32-bit float format, RenderAttachment
 * of RGBA32Float and 4 samples of R32Float (wgpu-hal's GL format table wants
 * GL_EXT_color_buffer_float). The sample-count cases stay on OpenGL: there
 * wgpu-core checks sample counts against the adapter's own format table (2
 * samples, and 4 of R32Uint / RGBA32Uint, are accepted), not the standard's
 * rule, which the library does not enforce yet. */
#include "cts_util.h"

/* Whether the adapter renders to 32-bit float colour formats (the
 * standard's core: RenderAttachment of rgba32float, 4 samples of r32float).
 * wgpu-hal 30's GL format table gives them COLOR_ATTACHMENT and multisampling
 * only when the context lists GL_EXT_color_buffer_float or
 * GL_ARB_color_buffer_float, which llvmpipe's GL 4.5 core context does not
 * (float colour buffers are core there). No standard call reads format
 * capabilities: on GL a probe texture tells; elsewhere they are core. */
#define WHY_FLOAT32 \
  "GL renders to no 32-bit float colour format here (wgpu-hal's GL format table needs GL_EXT_color_buffer_float)"
static int float32_renderable(Ctx *ctx) {
  if (!cu_is_gl(ctx)) return 1;
  WGPUTextureDescriptor d = cu_texture_desc(WGPUTextureDimension_2D, 4, 4, 1, WGPUTextureFormat_RGBA32Float,
                                            WGPUTextureUsage_RenderAttachment);
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUTexture t = wgpuDeviceCreateTexture(ctx->device, &d);
  int ok = !cu_pop(ctx);
  if (t) wgpuTextureRelease(t);
  return ok;
}

static uint32_t max_mips(WGPUTextureDimension dim, uint32_t w, uint32_t h, uint32_t d) {
  if (dim == WGPUTextureDimension_1D) return 1;
  uint32_t m = w > h ? w : h;
  if (dim == WGPUTextureDimension_3D && d > m) m = d;
  uint32_t n = 0;
  while (m) n++, m >>= 1;
  return n;
}

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  const int float32_render = float32_renderable(&ctx);
  const WGPUTextureDimension D1 = WGPUTextureDimension_1D, D2 = WGPUTextureDimension_2D, D3 = WGPUTextureDimension_3D,
                             DU = WGPUTextureDimension_Undefined;
  const WGPUTextureFormat RGBA = WGPUTextureFormat_RGBA8Unorm;
  const WGPUTextureUsage TB = WGPUTextureUsage_TextureBinding, RA = WGPUTextureUsage_RenderAttachment,
                         SB = WGPUTextureUsage_StorageBinding, TR = WGPUTextureUsage_TransientAttachment;

  /* Transient attachments. */
  {
    const WGPUTextureUsage us[] = {TR, TR | RA, TR | TB, TR | WGPUTextureUsage_CopySrc, TR | RA | TB, RA};
    const int ok[] = {0, 1, 0, 0, 0, 1};
    for (size_t i = 0; i < 6; i++)
      cu_expect(cu_create_texture(&ctx, cu_texture_desc(D2, 1, 1, 1, RGBA, us[i])), cu_ok_or_call(ok[i]),
                "usage 0x%llx", (unsigned long long)us[i]);
    cu_expect(cu_create_texture(&ctx, cu_texture_desc(D3, 1, 1, 1, RGBA, TR | RA)), CU_AT_CALL,
              "transient attachment 3D");
  }
  cu_section("transient usage");

  /* Storage and render-attachment capability of formats and dimensions. */
  {
    static const struct {
      WGPUTextureFormat f;
      int storage, render;
    } f[] = {
        {WGPUTextureFormat_RGBA8Unorm, 1, 1},   {WGPUTextureFormat_RGBA8UnormSrgb, 0, 1},
        {WGPUTextureFormat_RGBA8Snorm, 1, 0},   {WGPUTextureFormat_RGBA32Float, 1, 1},
        {WGPUTextureFormat_R32Uint, 1, 1},      {WGPUTextureFormat_RGB9E5Ufloat, 0, 0},
        {WGPUTextureFormat_RG8Unorm, 0, 1},     {WGPUTextureFormat_R8Snorm, 0, 0},
        {WGPUTextureFormat_Depth32Float, 0, 1}, {WGPUTextureFormat_Depth24PlusStencil8, 0, 1},
        {WGPUTextureFormat_RGB10A2Unorm, 0, 1}, {WGPUTextureFormat_RG11B10Ufloat, 0, 0},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
      cu_expect(cu_create_texture(&ctx, cu_texture_desc(D2, 4, 4, 1, f[i].f, SB)), cu_ok_or_call(f[i].storage),
                "StorageBinding format 0x%x", (unsigned)f[i].f);
      cu_leave_out(!float32_render && f[i].f == WGPUTextureFormat_RGBA32Float ? WHY_FLOAT32 : NULL);
      cu_expect(cu_create_texture(&ctx, cu_texture_desc(D2, 4, 4, 1, f[i].f, RA)), cu_ok_or_call(f[i].render),
                "RenderAttachment format 0x%x", (unsigned)f[i].f);
      cu_leave_out(NULL);
    }
    cu_expect(cu_create_texture(&ctx, cu_texture_desc(D1, 4, 1, 1, RGBA, RA)), CU_AT_CALL, "RenderAttachment 1D");
    cu_expect(cu_create_texture(&ctx, cu_texture_desc(D3, 4, 4, 4, RGBA, RA)), CU_OK, "RenderAttachment 3D");
    cu_expect(cu_create_texture(&ctx, cu_texture_desc(D2, 4, 4, 4, RGBA, RA)), CU_OK, "RenderAttachment 2D array");
  }
  /* Formats behind features, on a device without them. */
  cu_expect(cu_create_texture(&ctx, cu_texture_desc(D2, 4, 4, 1, WGPUTextureFormat_BGRA8Unorm, SB)), CU_AT_CALL,
            "BGRA8Unorm StorageBinding without bgra8unorm-storage");
  cu_expect(cu_create_texture(&ctx, cu_texture_desc(D2, 4, 4, 1, WGPUTextureFormat_Depth32FloatStencil8, TB)),
            CU_AT_CALL, "Depth32FloatStencil8 without depth32float-stencil8");
  cu_expect(cu_create_texture(&ctx, cu_texture_desc(D2, 4, 4, 1, WGPUTextureFormat_R16Unorm, TB)), CU_AT_CALL,
            "R16Unorm without texture-formats-tier1 / unorm16 feature");
  cu_expect(cu_create_texture(&ctx, cu_texture_desc(D2, 4, 4, 1, WGPUTextureFormat_R8Unorm, SB)), CU_AT_CALL,
            "R8Unorm StorageBinding without texture-formats-tier1");
  cu_section("format capabilities");

  /* Multisampling. */
  {
    static const struct {
      WGPUTextureDimension dim;
      uint32_t w, h, d;
      int ok;
    } shapes[] = {{D2, 4, 4, 1, 1}, {D1, 4, 1, 1, 0}, {D2, 4, 4, 4, 0}, {D2, 4, 4, 6, 0}, {D3, 4, 4, 4, 0}};
    for (size_t i = 0; i < 5; i++) {
      WGPUTextureDescriptor x = cu_texture_desc(shapes[i].dim, shapes[i].w, shapes[i].h, shapes[i].d, RGBA, TB | RA);
      x.sampleCount = 4;
      cu_expect(cu_create_texture(&ctx, x), cu_ok_or_call(shapes[i].ok), "4 samples, dimension %d size %ux%ux%u",
                (int)shapes[i].dim, shapes[i].w, shapes[i].h, shapes[i].d);
    }
    const uint32_t counts[] = {0, 1, 2, 4, 8, 16, 32, 256};
    static const struct {
      WGPUTextureFormat f;
      int ms;
    } fm[] = {{WGPUTextureFormat_RGBA8Unorm, 1},  {WGPUTextureFormat_BGRA8Unorm, 1},   {WGPUTextureFormat_R32Float, 1},
              {WGPUTextureFormat_RGBA32Float, 0}, {WGPUTextureFormat_RGBA32Uint, 0},   {WGPUTextureFormat_R32Uint, 0},
              {WGPUTextureFormat_RG32Float, 0},   {WGPUTextureFormat_Depth32Float, 1}, {WGPUTextureFormat_Stencil8, 1},
              {WGPUTextureFormat_RGBA8Snorm, 0}};
    for (size_t i = 0; i < sizeof fm / sizeof fm[0]; i++)
      for (size_t c = 0; c < 8; c++) {
        for (int dd = 0; dd < 2; dd++) {
          WGPUTextureDescriptor x = cu_texture_desc(dd ? D2 : DU, 32, 32, 1, fm[i].f, TB);
          x.sampleCount = counts[c];
          if (counts[c] > 1) x.usage |= RA;
          int ok = counts[c] == 1 || (counts[c] == 4 && fm[i].ms);
          cu_leave_out(!float32_render && ok && counts[c] == 4 && fm[i].f == WGPUTextureFormat_R32Float ? WHY_FLOAT32
                                                                                                        : NULL);
          cu_expect(cu_create_texture(&ctx, x), cu_ok_or_call(ok), "format 0x%x sampleCount %u dimension %s",
                    (unsigned)fm[i].f, counts[c], dd ? "2D" : "undefined");
        }
      }
    cu_leave_out(NULL);
  }
  /* A multisampled texture has one mip level, RenderAttachment and no
   * StorageBinding. */
  {
    WGPUTextureDescriptor x = cu_texture_desc(D2, 16, 16, 1, RGBA, TB | RA);
    x.sampleCount = 4;
    x.mipLevelCount = 2;
    cu_expect(cu_create_texture(&ctx, x), CU_AT_CALL, "4 samples with 2 mip levels");
    x = cu_texture_desc(D2, 16, 16, 1, RGBA, TB);
    x.sampleCount = 4;
    cu_expect(cu_create_texture(&ctx, x), CU_AT_CALL, "4 samples without RenderAttachment");
    x = cu_texture_desc(D2, 16, 16, 1, RGBA, TB | RA | SB);
    x.sampleCount = 4;
    cu_expect(cu_create_texture(&ctx, x), CU_AT_CALL, "4 samples with StorageBinding");
    x = cu_texture_desc(D2, 16, 16, 1, RGBA, RA | WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst);
    x.sampleCount = 4;
    cu_expect(cu_create_texture(&ctx, x), CU_OK, "4 samples with RenderAttachment and copies");
  }
  cu_section("sample count");

  /* Zero-sized or zero-mip descriptors (width 0 is in creation_validation). */
  for (int dd = 0; dd < 4; dd++) {
    WGPUTextureDimension dim = dd == 0 ? DU : dd == 1 ? D1 : dd == 2 ? D2 : D3;
    uint32_t h = dim == D1 ? 1 : 1;
    for (int z = 0; z < 4; z++) {
      WGPUTextureDescriptor x = cu_texture_desc(dim, 1, h, 1, RGBA, TB);
      if (z == 1) x.size.height = 0;
      if (z == 2) x.size.depthOrArrayLayers = 0;
      if (z == 3) x.mipLevelCount = 0;
      cu_expect(cu_create_texture(&ctx, x), cu_ok_or_call(z == 0),
                "dimension %d zero argument %d (0 none, 1 height, 2 depth, 3 mips)", (int)dim, z);
    }
  }
  cu_section("zero size");

  /* mipLevelCount bounds. */
  {
    static const struct {
      WGPUTextureDimension dim;
      uint32_t w, h, d;
    } s[] = {{DU, 32, 32, 1},  {DU, 31, 32, 1}, {DU, 28, 32, 1},  {DU, 32, 31, 1},  {DU, 32, 28, 1},  {DU, 31, 31, 1},
             {D1, 32, 1, 1},   {D1, 31, 1, 1},  {D3, 32, 32, 32}, {D3, 32, 31, 31}, {D3, 31, 32, 31}, {D3, 31, 31, 32},
             {D3, 31, 31, 31}, {DU, 32, 8, 1},  {DU, 32, 32, 64}, {D3, 32, 32, 64}, {D3, 1, 1, 64},   {DU, 1, 1, 64}};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
      uint32_t n = max_mips(s[i].dim == DU ? D2 : s[i].dim, s[i].w, s[i].h, s[i].d);
      for (uint32_t k = 0; k < 2; k++) {
        WGPUTextureDescriptor x = cu_texture_desc(s[i].dim, s[i].w, s[i].h, s[i].d, RGBA, TB);
        x.mipLevelCount = n + k;
        cu_expect(cu_create_texture(&ctx, x), cu_ok_or_call(k == 0),
                  "dimension %d size %ux%ux%u mipLevelCount %u (max %u)", (int)s[i].dim, s[i].w, s[i].h, s[i].d, n + k,
                  n);
      }
    }
    WGPUTextureDescriptor x = cu_texture_desc(D2, 32, 32, 1, RGBA, TB);
    x.mipLevelCount = 100;
    cu_expect(cu_create_texture(&ctx, x), CU_AT_CALL, "mipLevelCount 100");
  }
  cu_section("mipLevelCount");

  /* Size limits. */
  {
    WGPULimits lim = WGPU_LIMITS_INIT;
    REQUIRE(wgpuDeviceGetLimits(ctx.device, &lim) == WGPUStatus_Success);
    for (int off = -1; off <= 1; off++) {
      uint32_t l1 = lim.maxTextureDimension1D + off, l2 = lim.maxTextureDimension2D + off,
               la = lim.maxTextureArrayLayers + off, l3 = lim.maxTextureDimension3D + off;
      for (uint32_t h = 1; h <= 2; h++)
        for (uint32_t d = 1; d <= 2; d++)
          cu_expect(cu_create_texture(&ctx, cu_texture_desc(D1, l1, h, d, RGBA, TB)),
                    cu_ok_or_call(off <= 0 && h == 1 && d == 1), "1D width limit%+d height %u depth %u", off, h, d);
      cu_expect(cu_create_texture(&ctx, cu_texture_desc(D2, l2, 1, 1, RGBA, TB)), cu_ok_or_call(off <= 0),
                "2D width limit%+d", off);
      cu_expect(cu_create_texture(&ctx, cu_texture_desc(DU, 1, l2, 1, RGBA, TB)), cu_ok_or_call(off <= 0),
                "2D height limit%+d", off);
      cu_expect(cu_create_texture(&ctx, cu_texture_desc(D2, 1, 1, la, RGBA, TB)), cu_ok_or_call(off <= 0),
                "2D layers limit%+d", off);
      cu_expect(cu_create_texture(&ctx, cu_texture_desc(D3, l3, 1, 1, RGBA, TB)), cu_ok_or_call(off <= 0),
                "3D width limit%+d", off);
      cu_expect(cu_create_texture(&ctx, cu_texture_desc(D3, 1, l3, 1, RGBA, TB)), cu_ok_or_call(off <= 0),
                "3D height limit%+d", off);
      cu_expect(cu_create_texture(&ctx, cu_texture_desc(D3, 1, 1, l3, RGBA, TB)), cu_ok_or_call(off <= 0),
                "3D depth limit%+d", off);
    }
  }
  cu_section("size limits");

  /* Format / dimension compatibility (depth/stencil: 2D only). */
  {
    const WGPUTextureFormat ds[] = {WGPUTextureFormat_Depth16Unorm, WGPUTextureFormat_Depth24Plus,
                                    WGPUTextureFormat_Depth32Float, WGPUTextureFormat_Stencil8,
                                    WGPUTextureFormat_Depth24PlusStencil8};
    for (size_t i = 0; i < 5; i++) {
      cu_expect(cu_create_texture(&ctx, cu_texture_desc(D1, 1, 1, 1, ds[i], TB)), CU_AT_CALL, "format 0x%x 1D",
                (unsigned)ds[i]);
      cu_expect(cu_create_texture(&ctx, cu_texture_desc(D2, 1, 1, 1, ds[i], TB)), CU_OK, "format 0x%x 2D",
                (unsigned)ds[i]);
      cu_expect(cu_create_texture(&ctx, cu_texture_desc(D3, 1, 1, 1, ds[i], TB)), CU_AT_CALL, "format 0x%x 3D",
                (unsigned)ds[i]);
    }
  }
  cu_section("depth/stencil dimension");

  /* viewFormats must differ from the format only by "-srgb". */
  {
    const int gl = cu_is_gl(&ctx);
    static const struct {
      WGPUTextureFormat f, v;
      int ok;
    } vf[] = {{WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8UnormSrgb, 1},
              {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8Unorm, 1},
              {WGPUTextureFormat_BGRA8UnormSrgb, WGPUTextureFormat_BGRA8Unorm, 1},
              {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_BGRA8Unorm, 0},
              {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_R32Float, 0},
              {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8Uint, 0},
              {WGPUTextureFormat_R32Float, WGPUTextureFormat_R32Uint, 0},
              {WGPUTextureFormat_Depth24Plus, WGPUTextureFormat_Depth24PlusStencil8, 0}};
    for (size_t i = 0; i < sizeof vf / sizeof vf[0]; i++) {
      cu_leave_out(gl && vf[i].ok && vf[i].v != vf[i].f ? CU_WHY_VIEW_FORMATS : NULL);
      WGPUTextureDescriptor x = cu_texture_desc(D2, 4, 4, 1, vf[i].f, TB);
      x.viewFormatCount = 1;
      x.viewFormats = &vf[i].v;
      cu_expect(cu_create_texture(&ctx, x), cu_ok_or_call(vf[i].ok), "format 0x%x viewFormats [0x%x]",
                (unsigned)vf[i].f, (unsigned)vf[i].v);
    }
    cu_leave_out(NULL);
  }
  {
    WGPUTextureDescriptor x = cu_texture_desc(D2, 4, 4, 1, RGBA, TB);
    WGPUTextureFormat und = WGPUTextureFormat_Undefined;
    x.viewFormatCount = 1;
    x.viewFormats = &und;
    cu_expect(cu_create_texture(&ctx, x), CU_AT_CALL, "viewFormats [Undefined]");
  }
  cu_section("viewFormats");

  /* Compressed formats, with texture-compression-bc when the adapter has it. */
  if (wgpuAdapterHasFeature(ctx.adapter, WGPUFeatureName_TextureCompressionBC)) {
    Ctx bc;
    WGPUFeatureName feat = WGPUFeatureName_TextureCompressionBC;
    REQUIRE(cu_ctx_with_features(&ctx, &bc, &feat, 1) == 0);
    const WGPUTextureFormat BC1 = WGPUTextureFormat_BC1RGBAUnorm;
    static const uint32_t sz[][2] = {{4, 4}, {8, 4}, {3, 4}, {4, 3}, {5, 4}, {4, 6}, {1, 1}, {12, 16}};
    for (size_t i = 0; i < sizeof sz / sizeof sz[0]; i++)
      cu_expect(cu_create_texture(&bc, cu_texture_desc(D2, sz[i][0], sz[i][1], 1, BC1, TB)),
                cu_ok_or_call(sz[i][0] % 4 == 0 && sz[i][1] % 4 == 0), "BC1 size %ux%u", sz[i][0], sz[i][1]);
    cu_expect(cu_create_texture(&bc, cu_texture_desc(D1, 4, 1, 1, BC1, TB)), CU_AT_CALL, "BC1 1D");
    cu_expect(cu_create_texture(&bc, cu_texture_desc(D3, 4, 4, 4, BC1, TB)), CU_AT_CALL,
              "BC1 3D without texture-compression-bc-sliced-3d");
    cu_expect(cu_create_texture(&bc, cu_texture_desc(D2, 4, 4, 1, BC1, RA)), CU_AT_CALL, "BC1 RenderAttachment");
    cu_expect(cu_create_texture(&bc, cu_texture_desc(D2, 4, 4, 1, BC1, SB)), CU_AT_CALL, "BC1 StorageBinding");
    WGPUTextureDescriptor x = cu_texture_desc(D2, 32, 32, 1, BC1, TB);
    x.mipLevelCount = 6;
    cu_expect(cu_create_texture(&bc, x), CU_OK, "BC1 32x32 with 6 mip levels");
    CHECK_EQ(bc.uncaptured_errors, 0);
    cu_ctx_release(&bc);
  }
  /* Without the feature the format itself is an error. */
  cu_expect(cu_create_texture(&ctx, cu_texture_desc(D2, 4, 4, 1, WGPUTextureFormat_BC1RGBAUnorm, TB)), CU_AT_CALL,
            "BC1 without texture-compression-bc");
  cu_section("compressed");

  return cu_finish(&ctx);
}
