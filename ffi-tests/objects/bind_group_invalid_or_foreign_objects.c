/* Rule (WebGPU createBindGroup, object validity): creating a bind group is
 * a validation error (returning a (invalid) bind group) when its layout is
 * invalid, or any resource is invalid (an error buffer, an error texture's
 * view, an error sampler), or the layout or any resource (buffer, sampler,
 * sampled / storage texture view, in either of two entries) comes from
 * another device. (Destroyed, but valid, resources are the subject of
 * render/set_bind_group_state_and_index.c.) Ports CTS createBindGroup
 * buffer,resource_state and texture,resource_state (state invalid),
 * bind_group_layout,device_mismatch, binding_resources,device_mismatch and
 * sampler,device_mismatch. */
#include "bind_group_util.h"

typedef enum { K_BUFFER, K_SAMPLER, K_TEXTURE, K_STORAGE_WO, K_STORAGE_RO, K_STORAGE_RW, K_KINDS } Kind;
static const char *kind_names[] = {"storage buffer", "filtering sampler", "sampled texture",
                                   "write-only storage texture", "read-only storage texture",
                                   "read-write storage texture"};

static BgRes make(WGPUDevice dev, Kind k) {
  BgRes r = {0};
  WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
  WGPUTextureDescriptor td = WGPU_TEXTURE_DESCRIPTOR_INIT;
  td.size.width = td.size.height = 16;
  switch (k) {
    case K_BUFFER: r.buffer = make_buffer(dev, 64, WGPUBufferUsage_Storage, 0); return r;
    case K_SAMPLER:
      sd.minFilter = WGPUFilterMode_Linear;
      r.sampler = wgpuDeviceCreateSampler(dev, &sd);
      return r;
    case K_TEXTURE:
      td.format = WGPUTextureFormat_RGBA8Unorm;
      td.usage = WGPUTextureUsage_TextureBinding;
      break;
    default:
      td.format = WGPUTextureFormat_R32Float;
      td.usage = WGPUTextureUsage_StorageBinding;
      break;
  }
  r.texture = wgpuDeviceCreateTexture(dev, &td);
  r.view = wgpuTextureCreateView(r.texture, NULL);
  return r;
}

static WGPUBindGroupLayoutEntry layout_entry(Kind k, uint32_t binding, WGPUShaderStage vis) {
  switch (k) {
    case K_BUFFER: return bg_buffer_entry(binding, vis, WGPUBufferBindingType_Storage, 0);
    case K_SAMPLER: return bg_sampler_entry(binding, vis, WGPUSamplerBindingType_Filtering);
    case K_TEXTURE:
      return bg_texture_entry(binding, vis, WGPUTextureSampleType_Float, WGPUTextureViewDimension_2D, 0);
    case K_STORAGE_WO:
      return bg_storage_texture_entry(binding, vis, WGPUStorageTextureAccess_WriteOnly, WGPUTextureFormat_R32Float,
                                      WGPUTextureViewDimension_2D);
    case K_STORAGE_RO:
      return bg_storage_texture_entry(binding, vis, WGPUStorageTextureAccess_ReadOnly, WGPUTextureFormat_R32Float,
                                      WGPUTextureViewDimension_2D);
    default:
      return bg_storage_texture_entry(binding, vis, WGPUStorageTextureAccess_ReadWrite, WGPUTextureFormat_R32Float,
                                      WGPUTextureViewDimension_2D);
  }
}

int main(void) {
  Ctx ctx;
  if (!bg_start(&ctx, 60)) return test_finish();
  const WGPUShaderStage C = WGPUShaderStage_Compute;

  /* Invalid resources and an invalid layout. */
  {
    WGPUBindGroupLayoutEntry ue = bg_buffer_entry(0, C, WGPUBufferBindingType_Uniform, 0);
    WGPUBindGroupLayout ul = bg_layout(&ctx, &ue, 1);
    WGPUBuffer bad = NULL;
    BG_EXPECT(&ctx, 1, bad = make_buffer(ctx.device, 64, WGPUBufferUsage_Uniform | WGPUBufferUsage_MapRead, 0));
    WGPUBindGroupEntry ge = bg_buf(0, bad, 0, WGPU_WHOLE_SIZE);
    bg_case("uniform entry, invalid buffer");
    bg_group_case(&ctx, 1, ul, &ge, 1);
    wgpuBufferRelease(bad);

    WGPUBindGroupLayoutEntry dup[2] = {ue, ue};
    WGPUBindGroupLayout badl = NULL;
    BG_EXPECT(&ctx, 1, badl = bg_layout(&ctx, dup, 2));
    WGPUBuffer good = make_buffer(ctx.device, 64, WGPUBufferUsage_Uniform, 0);
    ge = bg_buf(0, good, 0, WGPU_WHOLE_SIZE);
    bg_case("invalid layout");
    bg_group_case(&ctx, 1, badl, &ge, 1);
    wgpuBindGroupLayoutRelease(badl);
    wgpuBufferRelease(good);
    wgpuBindGroupLayoutRelease(ul);

    WGPUBindGroupLayoutEntry se = bg_sampler_entry(0, C, WGPUSamplerBindingType_Filtering);
    WGPUBindGroupLayout sl = bg_layout(&ctx, &se, 1);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    sd.lodMinClamp = -1.f;
    WGPUSampler bs = NULL;
    BG_EXPECT(&ctx, 1, bs = wgpuDeviceCreateSampler(ctx.device, &sd));
    WGPUBindGroupEntry sge = bg_samp(0, bs);
    bg_case("sampler entry, invalid sampler");
    bg_group_case(&ctx, 1, sl, &sge, 1);
    wgpuSamplerRelease(bs);
    wgpuBindGroupLayoutRelease(sl);

    for (Kind k = K_TEXTURE; k < K_KINDS; k++) {
      WGPUBindGroupLayoutEntry te = layout_entry(k, 0, C);
      WGPUBindGroupLayout tl = bg_layout(&ctx, &te, 1);
      /* An invalid texture (sampleCount 3) and its (invalid) view. */
      WGPUTexture bt = NULL;
      WGPUTextureView bv = NULL;
      BG_EXPECT(&ctx, 1,
                bt = bg_texture(&ctx, WGPUTextureDimension_2D, 16, 16, 1, 1, 3,
                                k == K_TEXTURE ? WGPUTextureFormat_RGBA8Unorm : WGPUTextureFormat_R32Float,
                                k == K_TEXTURE ? WGPUTextureUsage_TextureBinding : WGPUTextureUsage_StorageBinding);
                bv = wgpuTextureCreateView(bt, NULL));
      WGPUBindGroupEntry tge = bg_view(0, bv);
      bg_case("%s entry, view of an invalid texture", kind_names[k]);
      bg_group_case(&ctx, 1, tl, &tge, 1);
      wgpuTextureViewRelease(bv);
      wgpuTextureRelease(bt);
      wgpuBindGroupLayoutRelease(tl);
    }
  }

  BgOther other;
  BG_REQUIRE(&ctx, bg_other_open(&ctx, &other));

  /* bind_group_layout,device_mismatch */
  for (int mism = 0; mism <= 1; mism++) {
    WGPUBindGroupLayoutEntry ue = bg_buffer_entry(0, C, WGPUBufferBindingType_Uniform, 0);
    WGPUBindGroupLayout l = bg_layout_on(mism ? other.device : ctx.device, &ue, 1);
    WGPUBuffer b = make_buffer(ctx.device, 64, WGPUBufferUsage_Uniform, 0);
    WGPUBindGroupEntry ge = bg_buf(0, b, 0, WGPU_WHOLE_SIZE);
    bg_case("layout from %s device", mism ? "another" : "the same");
    bg_group_case(&ctx, mism, l, &ge, 1);
    wgpuBufferRelease(b);
    wgpuBindGroupLayoutRelease(l);
  }

  /* binding_resources,device_mismatch (and sampler,device_mismatch) */
  for (Kind k = 0; k < K_KINDS; k++)
    for (int which = 0; which < 3; which++) /* 0: none foreign, 1: entry 0, 2: entry 1 */
      for (int all_stages = 0; all_stages <= 1; all_stages++) {
        WGPUShaderStage vis = C;
        if (all_stages) {
          vis |= WGPUShaderStage_Fragment;
          if (k != K_BUFFER && k != K_STORAGE_WO && k != K_STORAGE_RW) vis |= WGPUShaderStage_Vertex;
        }
        WGPUBindGroupLayoutEntry le[2] = {layout_entry(k, 0, vis), layout_entry(k, 1, vis)};
        WGPUBindGroupLayout l = bg_layout(&ctx, le, 2);
        BgRes r0 = make(which == 1 ? other.device : ctx.device, k);
        BgRes r1 = make(which == 2 ? other.device : ctx.device, k);
        WGPUBindGroupEntry ge[2] = {bg_res_entry(0, &r0), bg_res_entry(1, &r1)};
        bg_case("two %s entries, %s, visibility 0x%x", kind_names[k],
                which == 0 ? "both from this device" : which == 1 ? "the first from another device"
                                                                  : "the second from another device",
                (unsigned)vis);
        bg_group_case(&ctx, which != 0, l, ge, 2);
        bg_res_release(&r0);
        bg_res_release(&r1);
        wgpuBindGroupLayoutRelease(l);
      }

  bg_other_close(&other);
  return bg_finish(&ctx);
}
