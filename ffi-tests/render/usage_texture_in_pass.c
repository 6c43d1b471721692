/* Rule (WebGPU resource usage scopes, textures): a texture subresource
 * (mip level x array layer x aspect) used as a render attachment in a pass
 * may not be bound for sampling or storage in the same pass, and a
 * subresource bound as a writable storage texture may not also be sampled
 * in the same scope (a render pass; a compute dispatch). Different mip
 * levels or array layers of one texture never conflict; a depth-stencil
 * attachment that is read-only in both aspects may be sampled (either
 * aspect), an aspect that is written may not. Two colour attachments of one
 * pass must not be the same subresource. A conflict makes Finish raise a
 * validation error; compute usages in different dispatches, or bound but
 * not dispatched, never conflict. Ported from CTS
 * resource_usages/texture/{in_pass_encoder,in_render_common,
 * in_render_misc}.spec.
 *
 * Left out: the CTS's per-aspect cases (one aspect read-only and sampled
 * while the other aspect is written, which WebGPU allows): wgpu-core 30
 * tracks texture usage per mip level and layer, not per aspect, and so
 * rejects them (an upstream limit). On OpenGL, also the cases that sample
 * a read-only depth-stencil attachment: wgpu-core's GL backend has no
 * read-only depth-stencil attachments (DownlevelFlags::
 * READ_ONLY_DEPTH_STENCIL), so they count as written there; and storage
 * texture cases where the device allows no storage textures in the stage. */
#include "pass_util.h"

static WGPUBindGroupLayout layout1(Ctx *ctx, int storage, WGPUTextureSampleType st, WGPUShaderStage stage) {
  WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  e.binding = 0;
  e.visibility = stage;
  if (storage) {
    e.storageTexture.access = WGPUStorageTextureAccess_WriteOnly;
    e.storageTexture.format = WGPUTextureFormat_RGBA8Unorm;
    e.storageTexture.viewDimension = WGPUTextureViewDimension_2D;
  } else {
    e.texture.sampleType = st;
    e.texture.viewDimension = WGPUTextureViewDimension_2D;
  }
  WGPUBindGroupLayoutDescriptor d = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  d.entryCount = 1;
  d.entries = &e;
  return wgpuDeviceCreateBindGroupLayout(ctx->device, &d);
}

static WGPUBindGroup group1(Ctx *ctx, WGPUBindGroupLayout l, WGPUTextureView v) {
  WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
  e.binding = 0;
  e.textureView = v;
  WGPUBindGroupDescriptor d = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  d.layout = l;
  d.entryCount = 1;
  d.entries = &e;
  WGPUBindGroup g = NULL;
  EXPECT_NO_VALIDATION(ctx, g = wgpuDeviceCreateBindGroup(ctx->device, &d));
  return g;
}

static WGPUTextureView sub_view(WGPUTexture t, uint32_t mip, uint32_t layer, WGPUTextureAspect aspect) {
  WGPUTextureViewDescriptor d = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
  d.dimension = WGPUTextureViewDimension_2D;
  d.baseMipLevel = mip;
  d.mipLevelCount = 1;
  d.baseArrayLayer = layer;
  d.arrayLayerCount = 1;
  d.aspect = aspect;
  return pu_view(t, &d);
}

typedef struct {
  WGPUBindGroup *groups;
  size_t n;
} Groups;

static void set_groups(WGPURenderPassEncoder pass, void *user) {
  const Groups *g = (const Groups *)user;
  for (size_t i = 0; i < g->n; i++) wgpuRenderPassEncoderSetBindGroup(pass, (uint32_t)i, g->groups[i], 0, NULL);
}

/* A render pass with the given attachments and bind groups (set, no
 * draw), checked at Finish. */
static void pass_with_groups(Ctx *ctx, const WGPURenderPassColorAttachment *c, size_t nc,
                             const WGPURenderPassDepthStencilAttachment *ds, WGPUBindGroup *groups, size_t ng,
                             int valid, const char *what) {
  WGPURenderPassDescriptor d = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
  d.colorAttachmentCount = nc;
  d.colorAttachments = nc ? c : NULL;
  d.depthStencilAttachment = ds;
  Groups g = {groups, ng};
  pu_try_pass_with(ctx, &d, set_groups, &g, valid, what);
}

int main(void) {
  Ctx ctx;
  REQUIRE(pu_start(&ctx, 60) == 0);
  char what[256];
  WGPULimits lim = WGPU_LIMITS_INIT;
  REQUIRE(wgpuDeviceGetLimits(ctx.device, &lim) == WGPUStatus_Success);
  const char *no_storage = "GL allows no storage textures here (maxStorageTexturesPerShaderStage 0)";
  const WGPUTextureUsage cu = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding |
                              WGPUTextureUsage_StorageBinding;
  WGPUBindGroupLayout lsamp = layout1(&ctx, 0, WGPUTextureSampleType_Float, WGPUShaderStage_Fragment);
  WGPUBindGroupLayout lstor = layout1(&ctx, 1, 0, WGPUShaderStage_Fragment);
  WGPUBindGroupLayout ldepth = layout1(&ctx, 0, WGPUTextureSampleType_Depth, WGPUShaderStage_Fragment);
  WGPUBindGroupLayout luint = layout1(&ctx, 0, WGPUTextureSampleType_Uint, WGPUShaderStage_Fragment);

  /* Colour attachment vs sampled / storage, same or different subresource
   * of a 16x16, 2-mip, 2-layer texture. */
  WGPUTexture t = pu_texture(&ctx, WGPUTextureFormat_RGBA8Unorm, WGPUTextureDimension_2D, 16, 16, 2, 2, 1, cu);
  for (int storage = 0; storage < 2; storage++)
    for (uint32_t mip = 0; mip < 2; mip++)
      for (uint32_t layer = 0; layer < 2; layer++) {
        WGPURenderPassColorAttachment c = pu_color(sub_view(t, 0, 0, WGPUTextureAspect_All));
        WGPUBindGroup g = group1(&ctx, storage ? lstor : lsamp, sub_view(t, mip, layer, WGPUTextureAspect_All));
        int same = mip == 0 && layer == 0;
        snprintf(what, sizeof what, "colour attachment mip 0 layer 0, %s binding of mip %u layer %u",
                 storage ? "storage" : "sampled", mip, layer);
        if (storage && !pu_case_supported(&ctx, lim.maxStorageTexturesPerShaderStage > 0, no_storage, what))
          continue;
        pass_with_groups(&ctx, &c, 1, NULL, &g, 1, !same, what);
        wgpuBindGroupRelease(g);
      }
  /* Sampled + writable storage of one subresource, no attachment use of
   * it (attachment elsewhere). */
  WGPUTexture other = pu_tex2d(&ctx, WGPUTextureFormat_RGBA8Unorm);
  for (uint32_t mip = 0; mip < 2; mip++) {
    snprintf(what, sizeof what, "sampled mip 0 and storage mip %u of layer 1 in one render pass", mip);
    if (!pu_case_supported(&ctx, lim.maxStorageTexturesPerShaderStage > 0, no_storage, what)) continue;
    WGPURenderPassColorAttachment c = pu_color(pu_view(other, NULL));
    WGPUBindGroup g[2] = {group1(&ctx, lsamp, sub_view(t, 0, 1, WGPUTextureAspect_All)),
                          group1(&ctx, lstor, sub_view(t, mip, 1, WGPUTextureAspect_All))};
    pass_with_groups(&ctx, &c, 1, NULL, g, 2, mip != 0, what);
    wgpuBindGroupRelease(g[0]);
    wgpuBindGroupRelease(g[1]);
  }
  /* Two colour attachments of one subresource / of two layers. */
  for (uint32_t layer = 0; layer < 2; layer++) {
    WGPURenderPassColorAttachment c[2] = {pu_color(sub_view(t, 0, 0, WGPUTextureAspect_All)),
                                          pu_color(sub_view(t, 0, layer, WGPUTextureAspect_All))};
    snprintf(what, sizeof what, "two colour attachments: layer 0 and layer %u of mip 0", layer);
    pass_with_groups(&ctx, c, 2, NULL, NULL, 0, layer != 0, what);
  }

  /* Depth-stencil attachment vs sampled depth / stencil aspect: valid
   * only when both aspects are read-only (the per-aspect cases, sampled
   * aspect read-only and the other written, are left out: see above). */
  WGPUTexture d = pu_texture(&ctx, WGPUTextureFormat_Depth24PlusStencil8, WGPUTextureDimension_2D, 16, 16, 1, 1, 1,
                             WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding);
  for (int dro = 0; dro < 2; dro++)
    for (int sro = 0; sro < 2; sro++)
      for (int sampled = 0; sampled < 2; sampled++) { /* 0: depth aspect, 1: stencil aspect */
        int sampled_ro = sampled ? sro : dro;
        if (sampled_ro && dro != sro) continue; /* per-aspect case: left out */
        snprintf(what, sizeof what,
                 "depth24plus-stencil8 attached (depthReadOnly %d, stencilReadOnly %d), %s aspect sampled", dro, sro,
                 sampled ? "stencil" : "depth");
        if (sampled_ro && !pu_case_supported(&ctx, !pu_is_gl(&ctx),
                                             "GL has no read-only depth-stencil attachments (wgpu-core "
                                             "DownlevelFlags::READ_ONLY_DEPTH_STENCIL)",
                                             what))
          continue;
        WGPURenderPassDepthStencilAttachment a = WGPU_RENDER_PASS_DEPTH_STENCIL_ATTACHMENT_INIT;
        a.view = pu_view(d, NULL);
        a.depthReadOnly = dro;
        a.stencilReadOnly = sro;
        if (!dro) {
          a.depthLoadOp = WGPULoadOp_Load;
          a.depthStoreOp = WGPUStoreOp_Store;
        }
        if (!sro) {
          a.stencilLoadOp = WGPULoadOp_Load;
          a.stencilStoreOp = WGPUStoreOp_Store;
        }
        WGPUBindGroup g = group1(&ctx, sampled ? luint : ldepth,
                                 sub_view(d, 0, 0, sampled ? WGPUTextureAspect_StencilOnly : WGPUTextureAspect_DepthOnly));
        pass_with_groups(&ctx, NULL, 0, &a, &g, 1, sampled_ro, what);
        wgpuBindGroupRelease(g);
      }

  /* Compute: sampled + storage of one subresource, in one dispatch or
   * two, or bound without a dispatch. */
  if (pu_case_supported(&ctx, lim.maxStorageTexturesPerShaderStage > 0, no_storage, "compute cases (3)")) {
    WGPUShaderModule cm = make_wgsl(ctx.device, "@compute @workgroup_size(1) fn main() {}\n");
    WGPUBindGroupLayout cs = layout1(&ctx, 0, WGPUTextureSampleType_Float, WGPUShaderStage_Compute);
    WGPUBindGroupLayout cw = layout1(&ctx, 1, 0, WGPUShaderStage_Compute);
    WGPUBindGroupLayout both[2] = {cs, cw};
    WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pld.bindGroupLayoutCount = 2;
    pld.bindGroupLayouts = both;
    WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(ctx.device, &pld);
    WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cd.layout = pl;
    cd.compute.module = cm;
    cd.compute.entryPoint = sv("main");
    WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(ctx.device, &cd);
    WGPUTexture ct = pu_texture(&ctx, WGPUTextureFormat_RGBA8Unorm, WGPUTextureDimension_2D, 16, 16, 1, 1, 1,
                                WGPUTextureUsage_TextureBinding | WGPUTextureUsage_StorageBinding);
    WGPUTextureView v = pu_view(ct, NULL);
    WGPUBindGroup gs = group1(&ctx, cs, v), gw = group1(&ctx, cw, v);
    WGPUTexture ct2 = pu_texture(&ctx, WGPUTextureFormat_RGBA8Unorm, WGPUTextureDimension_2D, 16, 16, 1, 1, 1,
                                 WGPUTextureUsage_TextureBinding | WGPUTextureUsage_StorageBinding);
    WGPUBindGroup gs2 = group1(&ctx, cs, pu_view(ct2, NULL));
    for (int mode = 0; mode < 3; mode++) {
      WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
      WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, NULL);
      wgpuComputePassEncoderSetPipeline(pass, p);
      if (mode == 0) { /* one dispatch */
        wgpuComputePassEncoderSetBindGroup(pass, 0, gs, 0, NULL);
        wgpuComputePassEncoderSetBindGroup(pass, 1, gw, 0, NULL);
        wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
      } else if (mode == 1) { /* sampled in dispatch 1, replaced in dispatch 2 */
        wgpuComputePassEncoderSetBindGroup(pass, 0, gs, 0, NULL);
        wgpuComputePassEncoderSetBindGroup(pass, 1, gw, 0, NULL);
        wgpuComputePassEncoderSetBindGroup(pass, 0, gs2, 0, NULL);
        wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
      } else { /* both bound, never dispatched */
        wgpuComputePassEncoderSetBindGroup(pass, 0, gs, 0, NULL);
        wgpuComputePassEncoderSetBindGroup(pass, 1, gw, 0, NULL);
      }
      wgpuComputePassEncoderEnd(pass);
      wgpuComputePassEncoderRelease(pass);
      const char *names[3] = {"compute: sampled + storage of one texture in one dispatch",
                              "compute: sampled binding replaced before the dispatch",
                              "compute: sampled + storage bound, no dispatch"};
      pu_finish_expect(&ctx, enc, mode != 0, names[mode]);
    }
    wgpuBindGroupRelease(gs);
    wgpuBindGroupRelease(gw);
    wgpuBindGroupRelease(gs2);
    wgpuComputePipelineRelease(p);
    wgpuPipelineLayoutRelease(pl);
    wgpuBindGroupLayoutRelease(cs);
    wgpuBindGroupLayoutRelease(cw);
    wgpuShaderModuleRelease(cm);
  }

  pu_report(&ctx, pu_bad_cases);
  wgpuBindGroupLayoutRelease(lsamp);
  wgpuBindGroupLayoutRelease(lstor);
  wgpuBindGroupLayoutRelease(ldepth);
  wgpuBindGroupLayoutRelease(luint);
  pu_release_all();
  ctx_release(&ctx);
  return test_finish();
}
