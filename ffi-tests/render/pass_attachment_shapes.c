/* Rule (WebGPU beginRenderPass, GPURenderPassDescriptor validation): a pass
 * needs a colour attachment or a depth-stencil attachment (null colour
 * slots do not count); all attachments must have the same size and the same
 * sample count; a colour attachment needs a colour-renderable format and the
 * depth-stencil one a depth/stencil format; every attachment view must be a
 * single subresource (one array layer, one mip level); a 3D colour view
 * needs a depthSlice below the depth of its mip level, a 2D one must not
 * have one, and two colour attachments of one pass must not be the same
 * depth slice of the same mip level of a 3D texture. Violations make Finish
 * raise a validation error (beginning and ending raise nothing); the valid
 * neighbours of each case finish cleanly. */
#include "pass_util.h"

#define RGBA WGPUTextureFormat_RGBA8Unorm
#define DS WGPUTextureFormat_Depth24PlusStencil8
#define D2 WGPUTextureDimension_2D
#define D3 WGPUTextureDimension_3D

static WGPURenderPassColorAttachment col(Ctx *ctx, WGPUTexture t, const WGPUTextureViewDescriptor *vd) {
  (void)ctx;
  return pu_color(pu_view(t, vd));
}

int main(void) {
  Ctx ctx;
  REQUIRE(pu_start(&ctx, 60) == 0);
  char what[256];

  /* One colour attachment; one depth-stencil attachment alone. */
  WGPURenderPassColorAttachment c1 = col(&ctx, pu_tex2d(&ctx, RGBA), NULL);
  pu_try(&ctx, &c1, 1, NULL, 1, "one colour attachment");
  WGPURenderPassDepthStencilAttachment ds1 = pu_ds(pu_view(pu_tex2d(&ctx, DS), NULL));
  pu_try(&ctx, NULL, 0, &ds1, 1, "one depth-stencil attachment");

  /* Empty / all-null colour attachments, with and without depth-stencil. */
  WGPURenderPassColorAttachment nulls[8];
  for (int i = 0; i < 8; i++) nulls[i] = (WGPURenderPassColorAttachment)WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
  const size_t null_counts[] = {0, 1, 2, 8};
  for (int i = 0; i < 4; i++)
    for (int has_ds = 0; has_ds < 2; has_ds++) {
      snprintf(what, sizeof what, "%llu null colour attachments, %s depth-stencil", (unsigned long long)null_counts[i],
               has_ds ? "with" : "without");
      pu_try(&ctx, nulls, null_counts[i], has_ds ? &ds1 : NULL, has_ds, what);
    }
  pu_try(&ctx, &c1, 1, &ds1, 1, "one colour and one depth-stencil attachment");

  /* Same size. */
  WGPUTexture a1 = pu_texture(&ctx, RGBA, D2, 1, 1, 1, 1, 1, 0), b1 = pu_texture(&ctx, RGBA, D2, 1, 1, 1, 1, 1, 0);
  WGPUTexture a2 = pu_texture(&ctx, RGBA, D2, 2, 2, 1, 1, 1, 0);
  WGPUTexture d1 = pu_texture(&ctx, DS, D2, 1, 1, 1, 1, 1, 0), d2 = pu_texture(&ctx, DS, D2, 2, 2, 1, 1, 1, 0);
  WGPURenderPassColorAttachment same[2] = {col(&ctx, a1, NULL), col(&ctx, b1, NULL)};
  WGPURenderPassDepthStencilAttachment dsa1 = pu_ds(pu_view(d1, NULL)), dsa2 = pu_ds(pu_view(d2, NULL));
  pu_try(&ctx, same, 2, &dsa1, 1, "1x1 + 1x1 colour, 1x1 depth");
  WGPURenderPassColorAttachment diff[2] = {col(&ctx, a1, NULL), col(&ctx, a2, NULL)};
  pu_try(&ctx, diff, 2, NULL, 0, "1x1 + 2x2 colour");
  pu_try(&ctx, same, 2, &dsa2, 0, "1x1 colour, 2x2 depth");

  /* Colour vs depth format mismatch. */
  WGPURenderPassColorAttachment depth_as_color = col(&ctx, pu_tex2d(&ctx, DS), NULL);
  pu_try(&ctx, &depth_as_color, 1, NULL, 0, "depth24plus-stencil8 as a colour attachment");
  WGPURenderPassDepthStencilAttachment color_as_depth = pu_ds(pu_view(pu_tex2d(&ctx, RGBA), NULL));
  pu_try(&ctx, NULL, 0, &color_as_depth, 0, "rgba8unorm as the depth-stencil attachment");

  /* Array layer count of the view (10-layer textures). */
  WGPUTexture cl = pu_texture(&ctx, RGBA, D2, 32, 32, 10, 1, 1, 0), dl = pu_texture(&ctx, DS, D2, 32, 32, 10, 1, 1, 0);
  const uint32_t layer_cases[3][3] = {{5, 0, 0}, {1, 0, 1}, {1, 9, 1}}; /* count, base, valid */
  for (int i = 0; i < 3; i++) {
    WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
    vd.dimension = WGPUTextureViewDimension_2DArray;
    vd.baseArrayLayer = layer_cases[i][1];
    vd.arrayLayerCount = layer_cases[i][0];
    vd.mipLevelCount = 1;
    WGPURenderPassColorAttachment c = col(&ctx, cl, &vd);
    snprintf(what, sizeof what, "colour view of layers [%u, +%u)", layer_cases[i][1], layer_cases[i][0]);
    pu_try(&ctx, &c, 1, NULL, (int)layer_cases[i][2], what);
    WGPURenderPassDepthStencilAttachment d = pu_ds(pu_view(dl, &vd));
    snprintf(what, sizeof what, "depth view of layers [%u, +%u)", layer_cases[i][1], layer_cases[i][0]);
    pu_try(&ctx, NULL, 0, &d, (int)layer_cases[i][2], what);
  }

  /* Mip level count of the view (4-level textures). */
  WGPUTexture cm = pu_texture(&ctx, RGBA, D2, 32, 32, 1, 4, 1, 0), dm = pu_texture(&ctx, DS, D2, 32, 32, 1, 4, 1, 0);
  const uint32_t mip_cases[3][3] = {{2, 0, 0}, {1, 0, 1}, {1, 3, 1}};
  for (int i = 0; i < 3; i++) {
    WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
    vd.dimension = WGPUTextureViewDimension_2D;
    vd.baseMipLevel = mip_cases[i][1];
    vd.mipLevelCount = mip_cases[i][0];
    vd.arrayLayerCount = 1;
    WGPURenderPassColorAttachment c = col(&ctx, cm, &vd);
    snprintf(what, sizeof what, "colour view of mips [%u, +%u)", mip_cases[i][1], mip_cases[i][0]);
    pu_try(&ctx, &c, 1, NULL, (int)mip_cases[i][2], what);
    WGPURenderPassDepthStencilAttachment d = pu_ds(pu_view(dm, &vd));
    snprintf(what, sizeof what, "depth view of mips [%u, +%u)", mip_cases[i][1], mip_cases[i][0]);
    pu_try(&ctx, NULL, 0, &d, (int)mip_cases[i][2], what);
  }

  /* Sample counts must match. */
  WGPUTexture ms = pu_texture(&ctx, RGBA, D2, 16, 16, 1, 1, 4, 0);
  WGPUTexture dms = pu_texture(&ctx, DS, D2, 16, 16, 1, 1, 4, 0);
  WGPURenderPassColorAttachment cms = col(&ctx, ms, NULL);
  pu_try(&ctx, &cms, 1, NULL, 1, "one 4-sample colour attachment");
  WGPURenderPassColorAttachment mixed[2] = {col(&ctx, pu_tex2d(&ctx, RGBA), NULL), col(&ctx, ms, NULL)};
  pu_try(&ctx, mixed, 2, NULL, 0, "1-sample + 4-sample colour");
  WGPURenderPassDepthStencilAttachment ds_single = pu_ds(pu_view(pu_tex2d(&ctx, DS), NULL));
  WGPURenderPassDepthStencilAttachment ds_multi = pu_ds(pu_view(dms, NULL));
  pu_try(&ctx, &cms, 1, &ds_single, 0, "4-sample colour, 1-sample depth");
  pu_try(&ctx, &c1, 1, &ds_multi, 0, "1-sample colour, 4-sample depth");
  pu_try(&ctx, &cms, 1, &ds_multi, 1, "4-sample colour, 4-sample depth");
  pu_try(&ctx, NULL, 0, &ds_multi, 1, "4-sample depth alone");

  /* depthSlice definedness: 2D must not have one, 3D must. */
  for (int is3d = 0; is3d < 2; is3d++) {
    WGPUTexture t = pu_texture(&ctx, RGBA, is3d ? D3 : D2, 16, 16, 1, 1, 1, 0);
    const uint32_t slices[2] = {WGPU_DEPTH_SLICE_UNDEFINED, 0};
    for (int s = 0; s < 2; s++) {
      WGPURenderPassColorAttachment c = col(&ctx, t, NULL);
      c.depthSlice = slices[s];
      int valid = is3d ? s == 1 : s == 0;
      snprintf(what, sizeof what, "%s colour attachment, depthSlice %s", is3d ? "3D" : "2D", s ? "0" : "undefined");
      pu_try(&ctx, &c, 1, NULL, valid, what);
    }
  }

  /* depthSlice bounds per mip level of a 16x1x10 3D texture. */
  for (uint32_t mip = 0; mip <= 4; mip++) {
    WGPUTexture t = pu_texture(&ctx, RGBA, D3, 16, 1, 10, mip + 1, 1, 0);
    uint32_t depth = 10u >> mip ? 10u >> mip : 1u;
    const uint32_t cand[4] = {0, 1, depth - 1, depth};
    for (int i = 0; i < 4; i++) {
      int dup = 0;
      for (int j = 0; j < i; j++) dup |= cand[j] == cand[i];
      if (dup) continue;
      WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
      vd.baseMipLevel = mip;
      vd.mipLevelCount = 1;
      WGPURenderPassColorAttachment c = col(&ctx, t, &vd);
      c.depthSlice = cand[i];
      snprintf(what, sizeof what, "3D mip %u (depth %u), depthSlice %u", mip, depth, cand[i]);
      pu_try(&ctx, &c, 1, NULL, cand[i] < depth, what);
    }
  }

  /* depthSlice overlaps in one mip level. */
  for (int same_slice = 0; same_slice < 2; same_slice++)
    for (int same_tex = 0; same_tex < 2; same_tex++)
      for (int same_pass = 0; same_pass < 2; same_pass++) {
        WGPUTexture t0 = pu_texture(&ctx, RGBA, D3, 16, 16, 4, 1, 1, 0);
        WGPURenderPassColorAttachment cs[4];
        for (uint32_t i = 0; i < 4; i++) {
          WGPUTexture t = same_tex ? t0 : pu_texture(&ctx, RGBA, D3, 16, 16, 4, 1, 1, 0);
          cs[i] = col(&ctx, t, NULL);
          cs[i].depthSlice = same_slice ? 0 : i;
        }
        snprintf(what, sizeof what, "4 3D attachments: %s slice, %s texture, %s pass", same_slice ? "same" : "different",
                 same_tex ? "same" : "different", same_pass ? "one" : "one per attachment");
        WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
        PopResult r;
        RU_CAPTURE(&ctx, &r, {
          for (int p = 0; p < (same_pass ? 1 : 4); p++) {
            WGPURenderPassDescriptor d = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
            d.colorAttachmentCount = same_pass ? 4 : 1;
            d.colorAttachments = same_pass ? cs : &cs[p];
            WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &d);
            wgpuRenderPassEncoderEnd(pass);
            wgpuRenderPassEncoderRelease(pass);
          }
        });
        CHECK_EQ(r.type, WGPUErrorType_NoError);
        pu_finish_expect(&ctx, enc, !(same_slice && same_tex && same_pass), what);
      }

  /* Same depth slice 0 of different mip levels is no overlap. */
  for (int same_mip = 0; same_mip < 2; same_mip++) {
    WGPUTexture t = pu_texture(&ctx, RGBA, D3, 1, 1, 16, 4, 1, 0);
    WGPURenderPassColorAttachment cs[4];
    for (uint32_t i = 0; i < 4; i++) {
      WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
      vd.baseMipLevel = same_mip ? 0 : i;
      vd.mipLevelCount = 1;
      cs[i] = col(&ctx, t, &vd);
      cs[i].depthSlice = 0;
    }
    pu_try(&ctx, cs, 4, NULL, !same_mip,
           same_mip ? "depthSlice 0 of mip 0 four times" : "depthSlice 0 of mips 0, 1, 2, 3");
  }

  pu_report(&ctx, pu_bad_cases);
  pu_release_all();
  ctx_release(&ctx);
  return test_finish();
}
