/* Rule (WebGPU createView; CTS createView texture_view_usage,
 * texture_view_usage_with_view_format, and the spec's aspect/format rule):
 * a view's explicit usage must be a subset of the texture's usage (0 means
 * the texture's usage; an unknown bit is an error); an explicit usage with
 * StorageBinding needs a view format that supports storage (an sRGB view
 * of a storage texture is fine without it); with aspect All the view format
 * is the texture's or a listed view format, while with DepthOnly /
 * StencilOnly it must be that aspect's format (Depth24PlusStencil8:
 * Depth24Plus / Stencil8), so naming the combined format, or an aspect
 * format with aspect All, is an error. Each error keeps the view non-NULL.
 * On OpenGL the storage/sRGB view-format cases are left out (counted and
 * printed): wgpu-core's GL backend has no VIEW_FORMATS downlevel flag. */
#include "cts_util.h"

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  const WGPUTextureUsage CS = WGPUTextureUsage_CopySrc, CD = WGPUTextureUsage_CopyDst,
                         TB = WGPUTextureUsage_TextureBinding, SB = WGPUTextureUsage_StorageBinding,
                         RA = WGPUTextureUsage_RenderAttachment;
  const WGPUTextureUsage all[5] = {CS, CD, TB, SB, RA};

  /* View usage is a subset of the texture usage. */
  {
    const WGPUTextureUsage tex_usages[] = {TB, CD | TB, SB | RA, CS | CD | TB | SB | RA, RA};
    for (size_t i = 0; i < sizeof tex_usages / sizeof tex_usages[0]; i++) {
      WGPUTexture t =
          cu_texture(&ctx, WGPUTextureDimension_2D, 4, 4, 1, WGPUTextureFormat_RGBA8Unorm, tex_usages[i], 1, 1);
      for (int a = -1; a < 5; a++)
        for (int b = a; b < 5; b++) {
          WGPUTextureUsage vu = (a < 0 ? 0 : all[a]) | (b < 0 ? 0 : all[b]);
          WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
          vd.usage = vu;
          cu_expect(cu_view(&ctx, t, vd), cu_ok_or_call((vu & ~tex_usages[i]) == 0),
                    "texture usage 0x%llx view usage 0x%llx", (unsigned long long)tex_usages[i],
                    (unsigned long long)vu);
        }
      WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
      vd.usage = tex_usages[i] | ((WGPUTextureUsage)1 << 40);
      cu_expect(cu_view(&ctx, t, vd), CU_AT_CALL, "texture usage 0x%llx view usage with an unknown bit",
                (unsigned long long)tex_usages[i]);
      wgpuTextureRelease(t);
    }
  }
  cu_section("view usage subset");

  /* Storage usage needs a storage-capable view format. */
  if (cu_is_gl(&ctx)) cu_leave_out(CU_WHY_VIEW_FORMATS);
  {
    WGPUTextureDescriptor d = WGPU_TEXTURE_DESCRIPTOR_INIT;
    d.size.width = d.size.height = 4;
    d.format = WGPUTextureFormat_RGBA8Unorm;
    d.usage = TB | SB | RA;
    WGPUTextureFormat srgb = WGPUTextureFormat_RGBA8UnormSrgb;
    d.viewFormatCount = 1;
    d.viewFormats = &srgb;
    WGPUTexture t = NULL;
    CuOutcome o;
    CU_CALL(&ctx, o, t = wgpuDeviceCreateTexture(ctx.device, &d));
    cu_expect(o, CU_OK, "storage texture listing an sRGB view format");
    const struct {
      WGPUTextureFormat f;
      WGPUTextureUsage u;
      int ok;
    } c[] = {{WGPUTextureFormat_RGBA8UnormSrgb, TB, 1}, {WGPUTextureFormat_RGBA8UnormSrgb, RA, 1},
             {WGPUTextureFormat_RGBA8UnormSrgb, SB, 0}, {WGPUTextureFormat_RGBA8UnormSrgb, TB | SB, 0},
             {WGPUTextureFormat_RGBA8Unorm, SB, 1},     {WGPUTextureFormat_RGBA8Unorm, TB | SB | RA, 1}};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
      WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
      vd.format = c[i].f;
      vd.usage = c[i].u;
      cu_expect(cu_view(&ctx, t, vd), cu_ok_or_call(c[i].ok), "view format 0x%x usage 0x%llx", (unsigned)c[i].f,
                (unsigned long long)c[i].u);
    }
    if (t) wgpuTextureRelease(t);
  }
  cu_section("view usage and format");

  /* Aspect-specific view formats of depth/stencil textures. */
  {
    const WGPUTextureFormat D24S8 = WGPUTextureFormat_Depth24PlusStencil8, D24 = WGPUTextureFormat_Depth24Plus,
                            S8 = WGPUTextureFormat_Stencil8, D16 = WGPUTextureFormat_Depth16Unorm;
    const WGPUTextureAspect ALL = WGPUTextureAspect_All, DO = WGPUTextureAspect_DepthOnly,
                            SO = WGPUTextureAspect_StencilOnly;
    static const struct {
      WGPUTextureFormat tex, view;
      WGPUTextureAspect aspect;
      int ok;
    } c[] = {{D24S8, WGPUTextureFormat_Undefined, DO, 1},
             {D24S8, WGPUTextureFormat_Undefined, SO, 1},
             {D24S8, D24, DO, 1},
             {D24S8, S8, SO, 1},
             {D24S8, D24S8, ALL, 1},
             {D24S8, D24S8, DO, 0},
             {D24S8, D24S8, SO, 0},
             {D24S8, D24, ALL, 0},
             {D24S8, S8, ALL, 0},
             {D24S8, S8, DO, 0},
             {D24S8, D24, SO, 0},
             {D16, D16, DO, 1},
             {D16, D16, ALL, 1},
             {S8, S8, SO, 1}};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
      WGPUTexture t = cu_texture(&ctx, WGPUTextureDimension_2D, 4, 4, 1, c[i].tex, TB, 1, 1);
      WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
      vd.format = c[i].view;
      vd.aspect = c[i].aspect;
      cu_expect(cu_view(&ctx, t, vd), cu_ok_or_call(c[i].ok), "texture 0x%x view format 0x%x aspect %d",
                (unsigned)c[i].tex, (unsigned)c[i].view, (int)c[i].aspect);
      wgpuTextureRelease(t);
    }
  }
  cu_section("aspect formats");

  return cu_finish(&ctx);
}
