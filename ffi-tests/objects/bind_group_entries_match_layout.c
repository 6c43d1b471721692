/* Rule (WebGPU createBindGroup, entries vs layout): a bind group must have
 * exactly as many entries as its layout, each entry's binding must be one of
 * the layout's, and each entry must hold the kind of resource its layout
 * entry asks for: a buffer with Uniform usage for a uniform buffer entry, a
 * Storage buffer for a storage / read-only storage one; a filtering or
 * non-filtering sampler for a filtering sampler entry, only a non-filtering
 * sampler for a non-filtering entry, only a comparison sampler for a
 * comparison entry; a single-sampled view for a sampled texture entry, a
 * multisampled one for a multisampled entry; a StorageBinding view (of the
 * layout's format) for a storage texture entry of any access. Anything else
 * (including an invalid buffer, sampler or texture view) is a validation
 * error that still returns a (invalid) bind group. Ports CTS createBindGroup
 * binding_count_mismatch, binding_must_be_present_in_layout and
 * binding_must_contain_resource_defined_in_layout. */
#include "bind_group_util.h"

enum {
  R_UNIFORM_BUF,
  R_STORAGE_BUF,
  R_FILT_SAMP,
  R_NONFILT_SAMP,
  R_COMPARE_SAMP,
  R_SAMPLED_TEX,
  R_SAMPLED_TEX_MS,
  R_STORAGE_TEX, /* R32Float, StorageBinding */
  R_ERROR_BUF,
  R_ERROR_SAMP,
  R_ERROR_TEX,
  R_COUNT
};
static const char *res_names[] = {"uniform buffer", "storage buffer", "filtering sampler", "non-filtering sampler",
                                  "comparison sampler", "sampled texture", "multisampled texture",
                                  "storage texture", "invalid buffer", "invalid sampler", "invalid texture view"};

static BgRes make_res(Ctx *ctx, int kind) {
  BgRes r = {0};
  bg_case("making the %s", res_names[kind]);
  WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
  switch (kind) {
    case R_UNIFORM_BUF: r.buffer = make_buffer(ctx->device, 64, WGPUBufferUsage_Uniform, 0); break;
    case R_STORAGE_BUF: r.buffer = make_buffer(ctx->device, 64, WGPUBufferUsage_Storage, 0); break;
    case R_ERROR_BUF:
      BG_EXPECT(ctx, 1, r.buffer = make_buffer(ctx->device, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_MapWrite, 0));
      break;
    case R_FILT_SAMP:
      sd.minFilter = WGPUFilterMode_Linear;
      r.sampler = wgpuDeviceCreateSampler(ctx->device, &sd);
      break;
    case R_NONFILT_SAMP: r.sampler = wgpuDeviceCreateSampler(ctx->device, &sd); break;
    case R_COMPARE_SAMP:
      sd.compare = WGPUCompareFunction_Less;
      r.sampler = wgpuDeviceCreateSampler(ctx->device, &sd);
      break;
    case R_ERROR_SAMP:
      sd.lodMinClamp = -1.f;
      BG_EXPECT(ctx, 1, r.sampler = wgpuDeviceCreateSampler(ctx->device, &sd));
      break;
    case R_SAMPLED_TEX:
      r.texture = tu_texture(ctx, 16, 16, WGPUTextureFormat_RGBA8Unorm, WGPUTextureUsage_TextureBinding);
      break;
    case R_SAMPLED_TEX_MS:
      r.texture = bg_texture(ctx, WGPUTextureDimension_2D, 16, 16, 1, 1, 4, WGPUTextureFormat_RGBA8Unorm,
                             WGPUTextureUsage_TextureBinding | WGPUTextureUsage_RenderAttachment);
      break;
    case R_STORAGE_TEX:
      r.texture = tu_texture(ctx, 16, 16, WGPUTextureFormat_R32Float, WGPUTextureUsage_StorageBinding);
      break;
    case R_ERROR_TEX:
      BG_EXPECT(ctx, 1, r.texture = tu_texture(ctx, 16, 16, WGPUTextureFormat_RGBA8Unorm, WGPUTextureUsage_None);
                r.view = wgpuTextureCreateView(r.texture, NULL));
      break;
  }
  if (r.texture && !r.view) r.view = wgpuTextureCreateView(r.texture, NULL);
  return r;
}

typedef struct {
  const char *name;
  WGPUBindGroupLayoutEntry entry;
  int accepts[R_COUNT];
} LayoutKind;

int main(void) {
  Ctx ctx;
  if (!bg_start(&ctx, 60)) return test_finish();
  const WGPUShaderStage C = WGPUShaderStage_Compute;
  const WGPUTextureViewDimension D2 = WGPUTextureViewDimension_2D;

  /* binding_count_mismatch */
  WGPUBuffer sb = make_buffer(ctx.device, 64, WGPUBufferUsage_Storage, 0);
  for (uint32_t ln = 1; ln <= 3; ln++)
    for (uint32_t gn = 1; gn <= 3; gn++) {
      WGPUBindGroupLayoutEntry le[3];
      WGPUBindGroupEntry ge[3];
      for (uint32_t i = 0; i < ln; i++) le[i] = bg_buffer_entry(i, C, WGPUBufferBindingType_Storage, 0);
      for (uint32_t i = 0; i < gn; i++) ge[i] = bg_buf(i, sb, 0, WGPU_WHOLE_SIZE);
      WGPUBindGroupLayout l = bg_layout(&ctx, le, ln);
      bg_case("layout of %u entries, group of %u", ln, gn);
      bg_group_case(&ctx, ln != gn, l, ge, gn);
      wgpuBindGroupLayoutRelease(l);
    }

  /* binding_must_be_present_in_layout */
  for (uint32_t lb = 0; lb <= 2; lb++)
    for (uint32_t b = 0; b <= 2; b++) {
      WGPUBindGroupLayoutEntry le = bg_buffer_entry(lb, C, WGPUBufferBindingType_Storage, 0);
      WGPUBindGroupEntry ge = bg_buf(b, sb, 0, WGPU_WHOLE_SIZE);
      WGPUBindGroupLayout l = bg_layout(&ctx, &le, 1);
      bg_case("layout binding %u, group binding %u", lb, b);
      bg_group_case(&ctx, lb != b, l, &ge, 1);
      wgpuBindGroupLayoutRelease(l);
    }
  wgpuBufferRelease(sb);

  /* binding_must_contain_resource_defined_in_layout */
  LayoutKind kinds[] = {
      {"uniform buffer entry", bg_buffer_entry(0, C, WGPUBufferBindingType_Uniform, 0), {[R_UNIFORM_BUF] = 1}},
      {"storage buffer entry", bg_buffer_entry(0, C, WGPUBufferBindingType_Storage, 0), {[R_STORAGE_BUF] = 1}},
      {"read-only storage buffer entry",
       bg_buffer_entry(0, C, WGPUBufferBindingType_ReadOnlyStorage, 0),
       {[R_STORAGE_BUF] = 1}},
      {"filtering sampler entry",
       bg_sampler_entry(0, C, WGPUSamplerBindingType_Filtering),
       {[R_FILT_SAMP] = 1, [R_NONFILT_SAMP] = 1}},
      {"non-filtering sampler entry",
       bg_sampler_entry(0, C, WGPUSamplerBindingType_NonFiltering),
       {[R_NONFILT_SAMP] = 1}},
      {"comparison sampler entry", bg_sampler_entry(0, C, WGPUSamplerBindingType_Comparison), {[R_COMPARE_SAMP] = 1}},
      {"sampled texture entry",
       bg_texture_entry(0, C, WGPUTextureSampleType_Float, D2, 0),
       {[R_SAMPLED_TEX] = 1}},
      {"multisampled texture entry",
       bg_texture_entry(0, C, WGPUTextureSampleType_UnfilterableFloat, D2, 1),
       {[R_SAMPLED_TEX_MS] = 1}},
      {"write-only storage texture entry",
       bg_storage_texture_entry(0, C, WGPUStorageTextureAccess_WriteOnly, WGPUTextureFormat_R32Float, D2),
       {[R_STORAGE_TEX] = 1}},
      {"read-only storage texture entry",
       bg_storage_texture_entry(0, C, WGPUStorageTextureAccess_ReadOnly, WGPUTextureFormat_R32Float, D2),
       {[R_STORAGE_TEX] = 1}},
      {"read-write storage texture entry",
       bg_storage_texture_entry(0, C, WGPUStorageTextureAccess_ReadWrite, WGPUTextureFormat_R32Float, D2),
       {[R_STORAGE_TEX] = 1}},
  };
  BgRes res[R_COUNT];
  for (int r = 0; r < R_COUNT; r++) res[r] = make_res(&ctx, r);
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    WGPUBindGroupLayout l = bg_layout(&ctx, &kinds[k].entry, 1);
    for (int r = 0; r < R_COUNT; r++) {
      WGPUBindGroupEntry ge = bg_res_entry(0, &res[r]);
      bg_case("%s with a %s", kinds[k].name, res_names[r]);
      bg_group_case(&ctx, !kinds[k].accepts[r], l, &ge, 1);
    }
    wgpuBindGroupLayoutRelease(l);
  }
  /* An entry holding two resources at once, or none. */
  {
    WGPUBindGroupLayoutEntry le = bg_buffer_entry(0, C, WGPUBufferBindingType_Uniform, 0);
    WGPUBindGroupLayout l = bg_layout(&ctx, &le, 1);
    WGPUBindGroupEntry ge = bg_res_entry(0, &res[R_UNIFORM_BUF]);
    ge.sampler = res[R_FILT_SAMP].sampler;
    bg_case("uniform buffer entry with a buffer and a sampler");
    bg_group_case(&ctx, 1, l, &ge, 1);
    WGPUBindGroupEntry none = WGPU_BIND_GROUP_ENTRY_INIT;
    bg_case("uniform buffer entry with no resource");
    bg_group_case(&ctx, 1, l, &none, 1);
    wgpuBindGroupLayoutRelease(l);
  }
  for (int r = 0; r < R_COUNT; r++) bg_res_release(&res[r]);

  return bg_finish(&ctx);
}
