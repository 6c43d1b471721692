/* Rule (WebGPU texel copies; CTS image_copy/texture_related): for
 * WriteTexture (error at the call) and CopyBufferToTexture /
 * CopyTextureToBuffer (recorded without error, error at Finish): the texture
 * must be valid (an invalid one is an error; a destroyed one is an error at
 * WriteTexture and at Submit for the copies, even for an empty copy); it
 * needs CopyDst (WriteTexture, B2T) or CopySrc (T2B); it must not be
 * multisampled; the mip level must exist; a depth/stencil copy must cover
 * the whole subresource; the origin and size must be multiples of the
 * format's block size; origin + size must stay inside the mip level. All of
 * these hold for empty (0-sized) copies too.
 * On OpenGL the depth/stencil cases are left out (counted and printed):
 * wgpu-core refuses every buffer copy and WriteTexture of a depth/stencil
 * format without the DEPTH_TEXTURE_AND_BUFFER_COPIES downlevel flag, which
 * its GL backend lacks. */
#include "cts_util.h"

static const WGPUTextureDimension DIMS[4] = {WGPUTextureDimension_1D, WGPUTextureDimension_2D, WGPUTextureDimension_2D,
                                             WGPUTextureDimension_3D};
static const uint32_t DIM_SIZE[4][3] = {{4, 1, 1}, {4, 4, 1}, {4, 4, 3}, {4, 4, 3}};

static CuOutcome empty_copy(Ctx *ctx, CuMethod m, WGPUTexture t, uint32_t mip) {
  return cu_image_copy(ctx, m, cu_tex(t, mip, 0, 0, 0, WGPUTextureAspect_All),
                       cu_layout(0, 0, WGPU_COPY_STRIDE_UNDEFINED), cu_ext(0, 0, 0), 1);
}

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  const WGPUTextureUsage SD = WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst;
  const WGPUTextureFormat RGBA = WGPUTextureFormat_RGBA8Unorm;

  /* Texture state: valid / invalid / destroyed, for an empty copy. */
  for (int m = 0; m < 3; m++)
    for (int s = 0; s < 3; s++)
      for (int d = 0; d < 4; d++) {
        wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
        WGPUTexture t = cu_texture(&ctx, DIMS[d], DIM_SIZE[d][0], DIM_SIZE[d][1], DIM_SIZE[d][2], RGBA,
                                   s == 1 ? WGPUTextureUsage_None : SD, 1, 1);
        mu_pop_type(&ctx);
        if (s == 2) wgpuTextureDestroy(t);
        CuOutcome want = s == 0 ? CU_OK : (m == CU_WRITE_TEXTURE || s == 1) ? cu_fail_at((CuMethod)m) : CU_AT_SUBMIT;
        cu_expect(empty_copy(&ctx, (CuMethod)m, t, 0), want, "%s texture %s dim case %d (empty copy)",
                  cu_method_names[m],
                  s == 0   ? "valid"
                  : s == 1 ? "invalid"
                           : "destroyed",
                  d);
        wgpuTextureRelease(t);
      }
  cu_section("texture state");

  /* Usage. */
  {
    const WGPUTextureUsage usages[] = {WGPUTextureUsage_CopySrc, WGPUTextureUsage_CopyDst,
                                       WGPUTextureUsage_TextureBinding, WGPUTextureUsage_StorageBinding,
                                       WGPUTextureUsage_RenderAttachment};
    for (int m = 0; m < 3; m++)
      for (int d = 0; d < 4; d++)
        for (int a = 0; a < 5; a++)
          for (int b = a; b < 5; b++) {
            WGPUTextureUsage u = usages[a] | usages[b];
            if ((u & WGPUTextureUsage_RenderAttachment) && (d == 0 || d == 3)) continue;
            WGPUTexture t = cu_texture(&ctx, DIMS[d], DIM_SIZE[d][0], DIM_SIZE[d][1], DIM_SIZE[d][2], RGBA, u, 1, 1);
            int ok = m == CU_COPY_T2B ? (u & WGPUTextureUsage_CopySrc) != 0 : (u & WGPUTextureUsage_CopyDst) != 0;
            cu_expect(empty_copy(&ctx, (CuMethod)m, t, 0), cu_ok_or((CuMethod)m, ok), "%s usage 0x%llx dim case %d",
                      cu_method_names[m], (unsigned long long)u, d);
            wgpuTextureRelease(t);
          }
  }
  cu_section("usage");

  /* Multisampled textures cannot be copied. */
  for (int m = 0; m < 3; m++)
    for (uint32_t s = 1; s <= 4; s += 3) {
      WGPUTexture t = cu_texture(&ctx, WGPUTextureDimension_2D, 4, 4, 1, RGBA,
                                 SD | WGPUTextureUsage_TextureBinding | WGPUTextureUsage_RenderAttachment, 1, s);
      cu_expect(empty_copy(&ctx, (CuMethod)m, t, 0), cu_ok_or((CuMethod)m, s == 1), "%s sampleCount %u",
                cu_method_names[m], s);
      wgpuTextureRelease(t);
    }
  cu_section("sample count");

  /* Mip level in range. */
  for (int m = 0; m < 3; m++)
    for (int d = 0; d < 4; d++)
      for (uint32_t mc = 1; mc <= 5; mc += 2) {
        if (d == 0 && mc != 1) continue;
        uint32_t w = 32, h = d == 0 ? 1 : 32, z = DIM_SIZE[d][2];
        WGPUTexture t = cu_texture(&ctx, DIMS[d], w, h, z, RGBA, SD, mc, 1);
        const uint32_t levels[4] = {0, 1, 3, 4};
        for (int l = 0; l < 4; l++)
          cu_expect(empty_copy(&ctx, (CuMethod)m, t, levels[l]), cu_ok_or((CuMethod)m, levels[l] < mc),
                    "%s dim case %d mipLevelCount %u mipLevel %u", cu_method_names[m], d, mc, levels[l]);
        wgpuTextureRelease(t);
      }
  cu_section("mip level");

  /* Depth/stencil copies are of whole subresources (copyable aspects only:
   * Depth16Unorm both ways, Depth32Float only out, Stencil8 both ways). */
  {
    static const struct {
      WGPUTextureFormat f;
      WGPUTextureAspect a;
      int write_ok; /* whether WriteTexture / B2T may write this aspect */
      uint32_t bpp;
    } fmts[] = {
        {WGPUTextureFormat_RGBA8Unorm, WGPUTextureAspect_All, 1, 4},
        {WGPUTextureFormat_Depth16Unorm, WGPUTextureAspect_All, 1, 2},
        {WGPUTextureFormat_Depth32Float, WGPUTextureAspect_All, 0, 4},
        {WGPUTextureFormat_Stencil8, WGPUTextureAspect_All, 1, 1},
        {WGPUTextureFormat_Depth24PlusStencil8, WGPUTextureAspect_StencilOnly, 1, 1},
    };
    for (int m = 0; m < 3; m++)
      for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        if (m != CU_COPY_T2B && !fmts[f].write_ok) continue;
        cu_leave_out_depth_copies(&ctx, fmts[f].f);
        int depth = fmts[f].f != RGBA;
        for (int d = 1; d < 3; d++) /* 2D with 1 or 3 layers (no 1D/3D depth) */
          for (uint32_t level = 0; level <= 2; level += 2)
            for (int wm = 0; wm < 2; wm++)
              for (int hm = 0; hm < 2; hm++) {
                uint32_t layers = d == 1 ? 1 : 3;
                WGPUTexture t = cu_texture(&ctx, WGPUTextureDimension_2D, 32, 32, layers, fmts[f].f, SD, 5, 1);
                uint32_t lw = cu_mip_size(32, level), lh = cu_mip_size(32, level);
                WGPUExtent3D size = cu_ext(lw - (uint32_t)wm, lh - (uint32_t)hm, layers);
                int ok = !(depth && (wm || hm));
                cu_expect(cu_image_copy(&ctx, (CuMethod)m, cu_tex(t, level, 0, 0, 0, fmts[f].a), cu_layout(0, 512, 32),
                                        size, 512u * 32u * 32u),
                          cu_ok_or((CuMethod)m, ok), "%s format 0x%x layers %u level %u size %ux%ux%u",
                          cu_method_names[m], (unsigned)fmts[f].f, layers, level, size.width, size.height,
                          size.depthOrArrayLayers);
                wgpuTextureRelease(t);
              }
      }
  }
  cu_section("depth/stencil whole subresource");

  /* Block alignment of origin and size: BC1 (4x4 blocks, 8 bytes), on a
   * second device with texture-compression-bc when the adapter has it. */
  if (wgpuAdapterHasFeature(ctx.adapter, WGPUFeatureName_TextureCompressionBC)) {
    Ctx bc;
    WGPUFeatureName feat = WGPUFeatureName_TextureCompressionBC;
    REQUIRE(cu_ctx_with_features(&ctx, &bc, &feat, 1) == 0);
    const WGPUTextureFormat BC = WGPUTextureFormat_BC1RGBAUnorm;
    const uint32_t vals[6] = {0, 1, 3, 4, 5, 8};
    for (int m = 0; m < 3; m++)
      for (int coord = 0; coord < 3; coord++)
        for (int v = 0; v < 6; v++) {
          uint32_t o[3] = {0, 0, 0};
          o[coord] = vals[v];
          WGPUTexture t = cu_texture(&bc, WGPUTextureDimension_2D, 16, 16, 12, BC, SD, 1, 1);
          int ok = coord == 2 || vals[v] % 4 == 0;
          cu_expect(cu_image_copy(&bc, (CuMethod)m, cu_tex(t, 0, o[0], o[1], o[2], WGPUTextureAspect_All),
                                  cu_layout(0, 0, 0), cu_ext(0, 0, 1), 1),
                    cu_ok_or((CuMethod)m, ok), "%s BC1 origin coordinate %d = %u", cu_method_names[m], coord, vals[v]);
          uint32_t s[3] = {0, 0, 0};
          s[coord] = vals[v];
          uint32_t wb = (s[0] + 3) / 4, hb = (s[1] + 3) / 4;
          uint32_t bpr = ((wb ? wb : 1) * 8 + 255) / 256 * 256;
          int sok = coord == 2 || vals[v] % 4 == 0;
          uint64_t need = (uint64_t)bpr * (hb ? hb : 1) * (s[2] ? s[2] : 1);
          cu_expect(cu_image_copy(&bc, (CuMethod)m, cu_tex(t, 0, 0, 0, 0, WGPUTextureAspect_All), cu_layout(0, bpr, hb),
                                  cu_ext(s[0], s[1], s[2]), need),
                    cu_ok_or((CuMethod)m, sok), "%s BC1 size coordinate %d = %u", cu_method_names[m], coord, vals[v]);
          wgpuTextureRelease(t);
        }
    CHECK_EQ(bc.uncaptured_errors, 0);
    cu_ctx_release(&bc);
  } else {
    fprintf(stderr, "note: no texture-compression-bc; block alignment cases not run\n");
  }
  cu_section("block alignment");

  /* origin + size inside the mip level. */
  for (int m = 0; m < 3; m++)
    for (int di = 0; di < 3; di++) {
      WGPUTextureDimension dim = di == 0   ? WGPUTextureDimension_1D
                                 : di == 1 ? WGPUTextureDimension_2D
                                           : WGPUTextureDimension_3D;
      for (uint32_t ov = 7; ov <= 8; ov++)
        for (uint32_t cs = 7; cs <= 8; cs++)
          for (uint32_t ts = 14; ts <= 15; ts++)
            for (uint32_t level = 0; level <= 2; level += 2)
              for (int coord = 0; coord < 3; coord++) {
                if (di == 0 && (coord != 0 || level != 0)) continue;
                uint32_t tsz[3] = {16u << level, 16u << level, 16};
                if (di == 0) tsz[1] = tsz[2] = 1;
                uint32_t o[3] = {0, 0, 0}, c[3] = {0, 0, 0};
                o[coord] = ov;
                c[coord] = cs;
                tsz[coord] = (coord == 2 && di != 2) ? ts : ts << level;
                WGPUTexture t = cu_texture(&ctx, dim, tsz[0], tsz[1], tsz[2], RGBA, SD, di == 0 ? 1 : 3, 1);
                uint32_t bpr = (c[0] * 4 + 255) / 256 * 256;
                cu_expect(cu_image_copy(&ctx, (CuMethod)m, cu_tex(t, level, o[0], o[1], o[2], WGPUTextureAspect_All),
                                        cu_layout(0, bpr, c[1]), cu_ext(c[0], c[1], c[2]), 1),
                          cu_ok_or((CuMethod)m, ov + cs <= ts), "%s dim %d level %u coord %d origin %u size %u of %u",
                          cu_method_names[m], di + 1, level, coord, ov, cs, ts);
                wgpuTextureRelease(t);
              }
    }
  cu_section("copy rectangle");

  return cu_finish(&ctx);
}
