/* Rule (WebGPU createView; CTS createView): a view is a validation error
 * (the view still non-NULL) when: its aspect is DepthOnly / StencilOnly and
 * the format has no such aspect; its format is neither the texture's nor
 * listed in viewFormats; its dimension does not fit the texture's (1D views
 * of 1D textures, 2D / 2DArray / Cube / CubeArray of 2D, 3D of 3D); a Cube
 * or CubeArray view has non-square faces; its mip range or layer range
 * leaves the texture or is empty (an explicit count of 0); a 1D / 2D / 3D
 * view has more than one layer, a Cube view not 6, a CubeArray view not a
 * multiple of 6. Left undefined, the dimension follows the texture (2D
 * textures of several layers: 2DArray), arrayLayerCount is 1 for 1D / 2D /
 * 3D, 6 for Cube and the remaining layers otherwise, mipLevelCount the
 * remaining levels. A view of a destroyed texture is valid.
 * On OpenGL the views of a listed other view format are left out (counted
 * and printed): wgpu-core's GL backend has no VIEW_FORMATS downlevel flag. */
#include "cts_util.h"

#define LEVELS 6u
#define UND WGPU_ARRAY_LAYER_COUNT_UNDEFINED

static const WGPUTextureViewDimension VD1 = WGPUTextureViewDimension_1D, VD2 = WGPUTextureViewDimension_2D,
                                      VDA = WGPUTextureViewDimension_2DArray, VDC = WGPUTextureViewDimension_Cube,
                                      VDCA = WGPUTextureViewDimension_CubeArray, VD3 = WGPUTextureViewDimension_3D,
                                      VDU = WGPUTextureViewDimension_Undefined;

static int fits(WGPUTextureDimension td, WGPUTextureViewDimension vd) {
  if (td == WGPUTextureDimension_1D) return vd == VD1;
  if (td == WGPUTextureDimension_3D) return vd == VD3;
  return vd == VD2 || vd == VDA || vd == VDC || vd == VDCA;
}

/* Whether the view is valid by the spec's rules (square faces assumed). */
static int valid(WGPUTextureDimension td, uint32_t layers, uint32_t levels, WGPUTextureViewDescriptor v) {
  WGPUTextureViewDimension dim = v.dimension;
  if (dim == VDU)
    dim = td == WGPUTextureDimension_1D ? VD1 : td == WGPUTextureDimension_3D ? VD3 : layers == 1 ? VD2 : VDA;
  uint32_t tex_layers = td == WGPUTextureDimension_2D ? layers : 1;
  uint64_t lc = v.arrayLayerCount;
  if (lc == UND) {
    if (dim == VD1 || dim == VD2 || dim == VD3)
      lc = 1;
    else if (dim == VDC)
      lc = 6;
    else
      lc = (uint64_t)tex_layers - v.baseArrayLayer; /* may wrap: then invalid below */
    if (v.baseArrayLayer > tex_layers) return 0;
  }
  uint64_t mc = v.mipLevelCount;
  if (mc == WGPU_MIP_LEVEL_COUNT_UNDEFINED) {
    if (v.baseMipLevel > levels) return 0;
    mc = levels - v.baseMipLevel;
  }
  if (!fits(td, dim)) return 0;
  if (mc == 0 || v.baseMipLevel + mc > levels) return 0;
  if (lc == 0 || v.baseArrayLayer + lc > tex_layers) return 0;
  if ((dim == VD1 || dim == VD2 || dim == VD3) && lc != 1) return 0;
  if (dim == VDC && lc != 6) return 0;
  if (dim == VDCA && lc % 6 != 0) return 0;
  return 1;
}

static const char *vdname(WGPUTextureViewDimension d) {
  return d == VDU    ? "undefined"
         : d == VD1  ? "1d"
         : d == VD2  ? "2d"
         : d == VDA  ? "2d-array"
         : d == VDC  ? "cube"
         : d == VDCA ? "cube-array"
                     : "3d";
}

static void ustr(char *b, uint32_t v) {
  if (v == UND)
    snprintf(b, 16, "undef");
  else
    snprintf(b, 16, "%u", v);
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  const WGPUTextureUsage TB = WGPUTextureUsage_TextureBinding;
  const WGPUTextureDimension TD[3] = {WGPUTextureDimension_1D, WGPUTextureDimension_2D, WGPUTextureDimension_3D};

  /* Aspect. */
  {
    static const struct {
      WGPUTextureFormat f;
      int depth, stencil;
    } f[] = {{WGPUTextureFormat_RGBA8Unorm, 0, 0},   {WGPUTextureFormat_Depth16Unorm, 1, 0},
             {WGPUTextureFormat_Depth32Float, 1, 0}, {WGPUTextureFormat_Depth24Plus, 1, 0},
             {WGPUTextureFormat_Stencil8, 0, 1},     {WGPUTextureFormat_Depth24PlusStencil8, 1, 1}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
      WGPUTexture t = cu_texture(&ctx, TD[1], 1, 1, 1, f[i].f, TB, 1, 1);
      const WGPUTextureAspect as[3] = {WGPUTextureAspect_All, WGPUTextureAspect_DepthOnly,
                                       WGPUTextureAspect_StencilOnly};
      for (int a = 0; a < 3; a++) {
        WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
        vd.aspect = as[a];
        int ok = a == 0 || (a == 1 && f[i].depth) || (a == 2 && f[i].stencil);
        cu_expect(cu_view(&ctx, t, vd), cu_ok_or_call(ok), "format 0x%x aspect %d", (unsigned)f[i].f, a);
      }
      wgpuTextureRelease(t);
    }
  }
  cu_section("aspect");

  /* Format: the texture's, or listed (compatible) in viewFormats. */
  {
    const int gl = cu_is_gl(&ctx);
    static const struct {
      WGPUTextureFormat t, v;
      int compatible;
    } f[] = {{WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8UnormSrgb, 1},
             {WGPUTextureFormat_BGRA8UnormSrgb, WGPUTextureFormat_BGRA8Unorm, 1},
             {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8Unorm, 1},
             {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_BGRA8Unorm, 0},
             {WGPUTextureFormat_R32Uint, WGPUTextureFormat_R32Float, 0},
             {WGPUTextureFormat_Depth24PlusStencil8, WGPUTextureFormat_Depth24Plus, 0}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
      for (int list = 0; list < 2; list++) {
        cu_leave_out(gl && list && f[i].compatible && f[i].v != f[i].t ? CU_WHY_VIEW_FORMATS : NULL);
        WGPUTextureDescriptor d = WGPU_TEXTURE_DESCRIPTOR_INIT;
        d.size.width = d.size.height = 1;
        d.format = f[i].t;
        d.usage = TB;
        if (list && f[i].compatible) {
          d.viewFormatCount = 1;
          d.viewFormats = &f[i].v;
        }
        WGPUTexture t = cu_dry() ? NULL : wgpuDeviceCreateTexture(ctx.device, &d);
        WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
        vd.format = f[i].v;
        int ok = f[i].v == f[i].t || (f[i].compatible && list);
        cu_expect(cu_view(&ctx, t, vd), cu_ok_or_call(ok), "texture 0x%x view 0x%x %s", (unsigned)f[i].t,
                  (unsigned)f[i].v, list ? "listed when compatible" : "not listed");
        if (t) wgpuTextureRelease(t);
      }
  }
  cu_section("format");

  /* Dimension. */
  {
    const WGPUTextureViewDimension vds[7] = {VDU, VD1, VD2, VDA, VDC, VDCA, VD3};
    for (int td = 0; td < 3; td++) {
      WGPUTexture t = td == 0 ? cu_texture(&ctx, TD[0], 4, 1, 1, WGPUTextureFormat_RGBA8Unorm, TB, 1, 1)
                              : cu_texture(&ctx, TD[td], 4, 4, 6, WGPUTextureFormat_RGBA8Unorm, TB, 1, 1);
      for (int v = 0; v < 7; v++) {
        WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
        vd.dimension = vds[v];
        cu_expect(cu_view(&ctx, t, vd), cu_ok_or_call(vds[v] == VDU || fits(TD[td], vds[v])), "texture %dD view %s",
                  td + 1, vdname(vds[v]));
      }
      wgpuTextureRelease(t);
    }
  }
  cu_section("dimension");

  /* Cube faces are square. */
  {
    static const uint32_t wh[5][2] = {{4, 4}, {5, 5}, {4, 5}, {4, 8}, {8, 4}};
    const WGPUTextureViewDimension vds[3] = {VD2, VDC, VDCA};
    for (int i = 0; i < 5; i++) {
      WGPUTexture t = cu_texture(&ctx, TD[1], wh[i][0], wh[i][1], 6, WGPUTextureFormat_RGBA8Unorm, TB, 1, 1);
      for (int v = 0; v < 3; v++) {
        WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
        vd.dimension = vds[v];
        cu_expect(cu_view(&ctx, t, vd), cu_ok_or_call(vds[v] == VD2 || wh[i][0] == wh[i][1]), "%ux%ux6 view %s",
                  wh[i][0], wh[i][1], vdname(vds[v]));
      }
      wgpuTextureRelease(t);
    }
  }
  cu_section("cube faces square");

  /* A destroyed texture still makes views. */
  {
    WGPUTexture t = cu_texture(&ctx, TD[1], 1, 1, 1, WGPUTextureFormat_RGBA8Unorm, TB, 1, 1);
    wgpuTextureDestroy(t);
    WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
    cu_expect(cu_view(&ctx, t, vd), CU_OK, "view of a destroyed texture");
    wgpuTextureRelease(t);
  }
  cu_section("texture state");

  /* Array layer and mip level ranges. */
  {
    const WGPUTextureViewDimension for_dim[3][5] = {{VDU, VD1}, {VDU, VD2, VDA, VDC, VDCA}, {VDU, VD3}};
    const int nvd[3] = {2, 5, 2};
    const uint32_t W = 1u << (LEVELS - 1);
    for (int td = 0; td < 3; td++)
      for (int vi = 0; vi < nvd[td]; vi++) {
        WGPUTextureViewDimension vdim = for_dim[td][vi];
        const uint32_t layer_opts[3] = {1, 6, 18};
        for (int li = 0; li < (td == 1 ? 3 : 1); li++)
          for (int lv = 0; lv < 3; lv++) {
            uint32_t levels = lv == 0 ? 1 : lv == 1 ? LEVELS - 2 : LEVELS;
            if (td == 0 && levels != 1) continue;
            uint32_t layers = td == 1 ? layer_opts[li] : 1;
            WGPUTexture t = td == 0 ? cu_texture(&ctx, TD[0], W, 1, 1, WGPUTextureFormat_RGBA8Unorm, TB, 1, 1)
                            : td == 1
                                ? cu_texture(&ctx, TD[1], W, W, layers, WGPUTextureFormat_RGBA8Unorm, TB, levels, 1)
                                : cu_texture(&ctx, TD[2], W, W, W, WGPUTextureFormat_RGBA8Unorm, TB, levels, 1);
            /* layers: base in {undef, boundary values}, count in {undef, last - base} */
            uint32_t total = td == 1 ? layers : 1;
            const uint32_t bnd[8] = {0, 1, 5, 6, 7, total - 1, total, total + 1};
            for (int bi = -1; bi < 8; bi++)
              for (int ci = -1; ci < 8; ci++) {
                uint32_t base = bi < 0 ? 0 : bnd[bi];
                if (ci >= 0 && bnd[ci] < base) continue;
                WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
                vd.dimension = vdim;
                vd.baseArrayLayer = base;
                vd.arrayLayerCount = ci < 0 ? UND : bnd[ci] - base;
                char cs[16];
                ustr(cs, vd.arrayLayerCount);
                cu_expect(cu_view(&ctx, t, vd), cu_ok_or_call(valid(TD[td], layers, levels, vd)),
                          "texture %dD %u layers %u levels, view %s baseArrayLayer %u arrayLayerCount %s", td + 1,
                          total, levels, vdname(vdim), base, cs);
              }
            /* mips */
            const uint32_t mb[8] = {0, 1, 5, 6, 7, levels - 1, levels, levels + 1};
            for (int bi = -1; bi < 8; bi++)
              for (int ci = -1; ci < 8; ci++) {
                uint32_t base = bi < 0 ? 0 : mb[bi];
                if (ci >= 0 && mb[ci] < base) continue;
                WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
                vd.dimension = vdim;
                vd.baseMipLevel = base;
                vd.mipLevelCount = ci < 0 ? WGPU_MIP_LEVEL_COUNT_UNDEFINED : mb[ci] - base;
                char cs[16];
                ustr(cs, vd.mipLevelCount);
                cu_expect(cu_view(&ctx, t, vd), cu_ok_or_call(valid(TD[td], layers, levels, vd)),
                          "texture %dD %u layers %u levels, view %s baseMipLevel %u mipLevelCount %s", td + 1, total,
                          levels, vdname(vdim), base, cs);
              }
            wgpuTextureRelease(t);
          }
      }
  }
  cu_section("layer and level ranges");

  return cu_finish(&ctx);
}
