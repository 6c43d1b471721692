/* Rule (WebGPU createBindGroup, texture and sampler bindings): for a
 * texture view entry,
 * - the texture must have TextureBinding usage for a sampled texture entry
 *   and StorageBinding usage for a storage texture entry (other usages
 *   alongside are fine);
 * - the view's format must fit the entry's sampleType (R8Unorm for Float,
 *   R8Sint for Sint, R8Uint for Uint; the other two are errors);
 * - the view's dimension must equal the entry's viewDimension (for sampled
 *   and storage textures);
 * - a multisampled entry needs a texture of sampleCount > 1, a
 *   non-multisampled entry one of sampleCount 1;
 * - a storage texture view must have exactly one mip level, and its format
 *   must equal the entry's format;
 * and a sampler for a Comparison entry must have a compare function, while
 * one for a Filtering / NonFiltering entry must have none. Anything else is
 * a validation error that still returns a (invalid) bind group. Ports CTS
 * createBindGroup texture_binding_must_have_correct_usage,
 * texture_must_have_correct_component_type, texture_must_have_correct_dimension,
 * multisampled_validation, storage_texture,usage, storage_texture,mip_level_count,
 * storage_texture,format and sampler,compare_function_with_binding_type.
 *
 * On OpenGL (a downlevel adapter, whose format features come from the GL
 * backend's table) cases are left out (and counted) where their texture
 * cannot be made there: the RenderAttachment-only R32Float texture of
 * texture_binding_must_have_correct_usage (GL cannot render to R32Float)
 * and, in storage_texture,format, every case with an entry or view of a
 * format GL has no storage textures of (RG32Float). */
#include "bind_group_util.h"

static void view_case(Ctx *ctx, int want_error, const WGPUBindGroupLayoutEntry *le, WGPUTextureView v) {
  WGPUBindGroupLayout l = bg_layout(ctx, le, 1);
  WGPUBindGroupEntry ge = bg_view(0, v);
  bg_group_case(ctx, want_error, l, &ge, 1);
  wgpuBindGroupLayoutRelease(l);
}

int main(void) {
  Ctx ctx;
  if (!bg_start(&ctx, 90)) return test_finish();
  BgLeftOut left = {0};
  const WGPUShaderStage C = WGPUShaderStage_Compute;
  const WGPUTextureViewDimension D2 = WGPUTextureViewDimension_2D;

  /* texture_binding_must_have_correct_usage (R32Float textures) */
  {
    const WGPUTextureUsage usages[] = {WGPUTextureUsage_CopySrc, WGPUTextureUsage_CopyDst,
                                       WGPUTextureUsage_TextureBinding, WGPUTextureUsage_StorageBinding,
                                       WGPUTextureUsage_RenderAttachment};
    const char *unames[] = {"CopySrc", "CopyDst", "TextureBinding", "StorageBinding", "RenderAttachment"};
    struct {
      const char *name;
      WGPUBindGroupLayoutEntry e;
      WGPUTextureUsage needs;
    } entries[] = {
        {"sampled", bg_texture_entry(0, C, WGPUTextureSampleType_UnfilterableFloat, D2, 0),
         WGPUTextureUsage_TextureBinding},
        {"write-only storage",
         bg_storage_texture_entry(0, C, WGPUStorageTextureAccess_WriteOnly, WGPUTextureFormat_R32Float, D2),
         WGPUTextureUsage_StorageBinding},
        {"read-only storage",
         bg_storage_texture_entry(0, C, WGPUStorageTextureAccess_ReadOnly, WGPUTextureFormat_R32Float, D2),
         WGPUTextureUsage_StorageBinding},
        {"read-write storage",
         bg_storage_texture_entry(0, C, WGPUStorageTextureAccess_ReadWrite, WGPUTextureFormat_R32Float, D2),
         WGPUTextureUsage_StorageBinding},
    };
    int lacks[5];
    for (size_t u = 0; u < 5; u++) lacks[u] = bg_gl_lacks(&ctx, WGPUTextureFormat_R32Float, usages[u]);
    for (size_t e = 0; e < 4; e++)
      for (size_t u = 0; u < 5; u++) {
        bg_case("%s entry, texture usage %s", entries[e].name, unames[u]);
        if (lacks[u]) {
          bg_leave_out(&left, "GL cannot make an R32Float texture of the usage");
          continue;
        }
        WGPUTexture t = tu_texture(&ctx, 16, 16, WGPUTextureFormat_R32Float, usages[u]);
        WGPUTextureView v = wgpuTextureCreateView(t, NULL);
        view_case(&ctx, (usages[u] & entries[e].needs) == 0, &entries[e].e, v);
        wgpuTextureViewRelease(v);
        wgpuTextureRelease(t);
      }
    /* storage_texture,usage: pairs of usages on RGBA8Unorm. */
    WGPUBindGroupLayoutEntry se =
        bg_storage_texture_entry(0, C, WGPUStorageTextureAccess_WriteOnly, WGPUTextureFormat_RGBA8Unorm, D2);
    for (size_t a = 0; a < 5; a++)
      for (size_t b = a + 1; b < 5; b++) {
        WGPUTextureUsage u = usages[a] | usages[b];
        WGPUTexture t = tu_texture(&ctx, 16, 16, WGPUTextureFormat_RGBA8Unorm, u);
        WGPUTextureView v = wgpuTextureCreateView(t, NULL);
        bg_case("write-only storage entry, texture usage %s|%s", unames[a], unames[b]);
        view_case(&ctx, (u & WGPUTextureUsage_StorageBinding) == 0, &se, v);
        wgpuTextureViewRelease(v);
        wgpuTextureRelease(t);
      }
  }

  /* texture_must_have_correct_component_type */
  {
    const WGPUTextureSampleType st[] = {WGPUTextureSampleType_Float, WGPUTextureSampleType_Sint,
                                        WGPUTextureSampleType_Uint};
    const WGPUTextureFormat fm[] = {WGPUTextureFormat_R8Unorm, WGPUTextureFormat_R8Sint, WGPUTextureFormat_R8Uint};
    const char *sn[] = {"Float", "Sint", "Uint"}, *fn[] = {"R8Unorm", "R8Sint", "R8Uint"};
    for (size_t s = 0; s < 3; s++)
      for (size_t f = 0; f < 3; f++) {
        WGPUBindGroupLayoutEntry le = bg_texture_entry(0, WGPUShaderStage_Fragment, st[s], D2, 0);
        WGPUTexture t = tu_texture(&ctx, 16, 16, fm[f], WGPUTextureUsage_TextureBinding);
        WGPUTextureView v = wgpuTextureCreateView(t, NULL);
        bg_case("sampleType %s entry, %s view", sn[s], fn[f]);
        view_case(&ctx, s != f, &le, v);
        wgpuTextureViewRelease(v);
        wgpuTextureRelease(t);
      }
  }

  /* texture_must_have_correct_dimension */
  {
    const WGPUTextureViewDimension dims[] = {WGPUTextureViewDimension_1D, WGPUTextureViewDimension_2D,
                                             WGPUTextureViewDimension_2DArray, WGPUTextureViewDimension_Cube,
                                             WGPUTextureViewDimension_CubeArray, WGPUTextureViewDimension_3D};
    for (int storage = 0; storage <= 1; storage++)
      for (size_t ld = 0; ld < 6; ld++) {
        if (storage && (dims[ld] == WGPUTextureViewDimension_Cube || dims[ld] == WGPUTextureViewDimension_CubeArray))
          continue;
        WGPUBindGroupLayoutEntry le =
            storage ? bg_storage_texture_entry(0, C, WGPUStorageTextureAccess_WriteOnly, WGPUTextureFormat_RGBA8Unorm,
                                               dims[ld])
                    : bg_texture_entry(0, C, WGPUTextureSampleType_Float, dims[ld], 0);
        for (size_t vd = 0; vd < 6; vd++) {
          WGPUTextureViewDimension d = dims[vd];
          WGPUTextureDimension td = d == WGPUTextureViewDimension_1D   ? WGPUTextureDimension_1D
                                    : d == WGPUTextureViewDimension_3D ? WGPUTextureDimension_3D
                                                                       : WGPUTextureDimension_2D;
          /* Layers as the GL backend expects for a texture viewed so (it
           * binds a 2D texture by its layer count: 1 2D, 6 Cube, a multiple
           * of 6 CubeArray, else 2DArray). */
          uint32_t h = d == WGPUTextureViewDimension_1D ? 1 : 16;
          uint32_t layers = d == WGPUTextureViewDimension_2DArray     ? 2
                            : d == WGPUTextureViewDimension_Cube      ? 6
                            : d == WGPUTextureViewDimension_CubeArray ? 12
                            : d == WGPUTextureViewDimension_3D        ? 4
                                                                      : 1;
          WGPUTexture t = bg_texture(&ctx, td, 16, h, layers, 1, 1, WGPUTextureFormat_RGBA8Unorm,
                                     storage ? WGPUTextureUsage_StorageBinding : WGPUTextureUsage_TextureBinding);
          WGPUTextureViewDescriptor vdesc = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
          vdesc.dimension = d;
          WGPUTextureView v = NULL;
          bg_case("view of dimension %s for %s", bg_dim_name(d), storage ? "storage" : "sampled");
          BG_EXPECT(&ctx, 0, v = wgpuTextureCreateView(t, &vdesc));
          bg_case("%s entry of viewDimension %s, view of dimension %s", storage ? "storage" : "sampled",
                  bg_dim_name(dims[ld]), bg_dim_name(d));
          view_case(&ctx, dims[ld] != d, &le, v);
          if (v) wgpuTextureViewRelease(v);
          wgpuTextureRelease(t);
        }
      }
  }

  /* multisampled_validation */
  for (int ms = 0; ms <= 1; ms++)
    for (uint32_t sc = 1; sc <= 4; sc += 3) {
      WGPUBindGroupLayoutEntry le = bg_texture_entry(
          0, C, ms ? WGPUTextureSampleType_UnfilterableFloat : WGPUTextureSampleType_Float, D2, ms);
      WGPUTexture t = bg_texture(&ctx, WGPUTextureDimension_2D, 16, 16, 1, 1, sc, WGPUTextureFormat_RGBA8Unorm,
                                 WGPUTextureUsage_TextureBinding | WGPUTextureUsage_RenderAttachment);
      WGPUTextureView v = wgpuTextureCreateView(t, NULL);
      bg_case("%s entry, texture of sampleCount %u", ms ? "multisampled" : "single-sampled", sc);
      view_case(&ctx, (ms != 0) != (sc > 1), &le, v);
      wgpuTextureViewRelease(v);
      wgpuTextureRelease(t);
    }

  /* storage_texture,mip_level_count */
  {
    WGPUBindGroupLayoutEntry le =
        bg_storage_texture_entry(0, C, WGPUStorageTextureAccess_WriteOnly, WGPUTextureFormat_RGBA8Unorm, D2);
    WGPUTexture t = bg_texture(&ctx, WGPUTextureDimension_2D, 16, 16, 1, 4, 1, WGPUTextureFormat_RGBA8Unorm,
                               WGPUTextureUsage_StorageBinding);
    for (uint32_t base = 0; base <= 2; base++)
      for (uint32_t count = 1; count <= 2; count++) {
        WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
        vd.baseMipLevel = base;
        vd.mipLevelCount = count;
        WGPUTextureView v = wgpuTextureCreateView(t, &vd);
        bg_case("storage entry, view of mips %u..%u", base, base + count - 1);
        view_case(&ctx, count != 1, &le, v);
        wgpuTextureViewRelease(v);
      }
    WGPUTextureView whole = wgpuTextureCreateView(t, NULL);
    bg_case("storage entry, default view of a 4-mip texture");
    view_case(&ctx, 1, &le, whole);
    wgpuTextureViewRelease(whole);
    wgpuTextureRelease(t);
  }

  /* storage_texture,format */
  {
    const WGPUTextureFormat f[] = {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8Snorm,
                                   WGPUTextureFormat_R32Float,   WGPUTextureFormat_R32Uint,
                                   WGPUTextureFormat_RG32Float,  WGPUTextureFormat_RGBA16Float,
                                   WGPUTextureFormat_RGBA32Sint};
    const char *n[] = {"RGBA8Unorm", "RGBA8Snorm", "R32Float", "R32Uint", "RG32Float", "RGBA16Float", "RGBA32Sint"};
    const size_t nf = sizeof f / sizeof f[0];
    BgRes res[sizeof f / sizeof f[0]] = {{0}};
    int lacks[sizeof f / sizeof f[0]];
    for (size_t r = 0; r < nf; r++) {
      lacks[r] = bg_gl_lacks(&ctx, f[r], WGPUTextureUsage_StorageBinding);
      if (lacks[r]) continue;
      res[r].texture = tu_texture(&ctx, 16, 16, f[r], WGPUTextureUsage_StorageBinding);
      res[r].view = wgpuTextureCreateView(res[r].texture, NULL);
    }
    for (size_t s = 0; s < nf; s++) {
      WGPUBindGroupLayoutEntry le = bg_storage_texture_entry(0, C, WGPUStorageTextureAccess_WriteOnly, f[s], D2);
      for (size_t r = 0; r < nf; r++) {
        bg_case("storage entry of %s, view of %s", n[s], n[r]);
        if (lacks[s] || lacks[r])
          bg_leave_out(&left, "GL has no storage textures of the entry's or the view's format");
        else
          view_case(&ctx, s != r, &le, res[r].view);
      }
    }
    for (size_t r = 0; r < nf; r++) bg_res_release(&res[r]);
  }

  /* sampler,compare_function_with_binding_type */
  {
    const WGPUSamplerBindingType bt[] = {WGPUSamplerBindingType_Filtering, WGPUSamplerBindingType_NonFiltering,
                                         WGPUSamplerBindingType_Comparison};
    const char *bn[] = {"Filtering", "NonFiltering", "Comparison"};
    for (size_t b = 0; b < 3; b++)
      for (int cmp = WGPUCompareFunction_Undefined; cmp <= WGPUCompareFunction_Always; cmp++) {
        WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
        sd.compare = (WGPUCompareFunction)cmp;
        WGPUSampler s = wgpuDeviceCreateSampler(ctx.device, &sd);
        WGPUBindGroupLayoutEntry le = bg_sampler_entry(0, C, bt[b]);
        WGPUBindGroupLayout l = bg_layout(&ctx, &le, 1);
        WGPUBindGroupEntry ge = bg_samp(0, s);
        int has_cmp = cmp != WGPUCompareFunction_Undefined;
        int ok = bt[b] == WGPUSamplerBindingType_Comparison ? has_cmp : !has_cmp;
        bg_case("%s sampler entry, sampler compare %d", bn[b], cmp);
        bg_group_case(&ctx, !ok, l, &ge, 1);
        wgpuBindGroupLayoutRelease(l);
        wgpuSamplerRelease(s);
      }
  }

  bg_left_out_print(&left);
  return bg_finish(&ctx);
}
