/* Rule (WebGPU copyTextureToTexture; CTS encoding/cmds/copyTextureToTexture):
 * the copy is recorded without error and Finish raises the validation error
 * when: either texture is invalid; a mip level is out of range; the source
 * lacks CopySrc or the destination CopyDst; the sample counts differ; a
 * multisampled copy is not of a whole subresource; the formats differ other
 * than by "-srgb"; a depth/stencil copy is not of a whole subresource; the
 * copy box leaves either subresource; source and destination are the same
 * subresource with overlapping layers; an aspect is not one the format has
 * (a combined depth-stencil format needs All). A destroyed texture is valid
 * to record and makes Submit fail. Each valid case raises nothing anywhere. */
#include "cts_util.h"

static WGPUTexelCopyTextureInfo at(WGPUTexture t, uint32_t mip, uint32_t x, uint32_t y, uint32_t z) {
  return cu_tex(t, mip, x, y, z, WGPUTextureAspect_All);
}

static CuOutcome ok_or_finish(int ok) { return ok ? CU_OK : CU_AT_FINISH; }

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  const WGPUTextureUsage SD = WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst;
  const WGPUTextureFormat RGBA = WGPUTextureFormat_RGBA8Unorm;
  const WGPUTextureDimension D1 = WGPUTextureDimension_1D, D2 = WGPUTextureDimension_2D, D3 = WGPUTextureDimension_3D;

  /* Invalid (Finish) and destroyed (Submit) textures, either side. */
  for (int s = 0; s < 3; s++)
    for (int d = 0; d < 3; d++) {
      WGPUTexture tex[2];
      int state[2] = {s, d}; /* 0 valid, 1 invalid, 2 destroyed */
      for (int i = 0; i < 2; i++) {
        wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
        tex[i] = cu_texture(&ctx, D2, 4, 4, 1, RGBA, state[i] == 1 ? WGPUTextureUsage_None : SD, 1, 1);
        mu_pop_type(&ctx);
        if (state[i] == 2) wgpuTextureDestroy(tex[i]);
      }
      CuOutcome want = (s == 1 || d == 1) ? CU_AT_FINISH : (s == 2 || d == 2) ? CU_AT_SUBMIT : CU_OK;
      cu_expect(cu_t2t(&ctx, at(tex[0], 0, 0, 0, 0), at(tex[1], 0, 0, 0, 0), cu_ext(1, 1, 1)), want,
                "state src %d dst %d (0 valid, 1 invalid, 2 destroyed)", s, d);
      cu_expect(cu_t2t(&ctx, at(tex[0], 0, 0, 0, 0), at(tex[1], 0, 0, 0, 0), cu_ext(0, 0, 0)), want,
                "state src %d dst %d (0 valid, 1 invalid, 2 destroyed), empty copy", s, d);
      wgpuTextureRelease(tex[0]);
      wgpuTextureRelease(tex[1]);
    }
  cu_section("texture state");

  /* Mip levels in range. */
  {
    static const uint32_t cases[][4] = {{1, 1, 0, 0}, {1, 1, 1, 0}, {1, 1, 0, 1}, {3, 3, 0, 0},
                                        {3, 3, 2, 0}, {3, 3, 3, 0}, {3, 3, 0, 2}, {3, 3, 0, 3}};
    WGPUTextureDimension dims[3] = {D1, D2, D3};
    for (int di = 0; di < 3; di++)
      for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (di == 0 && (cases[i][0] != 1 || cases[i][1] != 1)) continue;
        uint32_t h = di == 0 ? 1 : 4;
        WGPUTexture src = cu_texture(&ctx, dims[di], 32, h, 1, RGBA, WGPUTextureUsage_CopySrc, cases[i][0], 1);
        WGPUTexture dst = cu_texture(&ctx, dims[di], 32, h, 1, RGBA, WGPUTextureUsage_CopyDst, cases[i][1], 1);
        int ok = cases[i][2] < cases[i][0] && cases[i][3] < cases[i][1];
        cu_expect(cu_t2t(&ctx, at(src, cases[i][2], 0, 0, 0), at(dst, cases[i][3], 0, 0, 0), cu_ext(1, 1, 1)),
                  ok_or_finish(ok), "dim %d levels %u/%u copy levels %u/%u", di + 1, cases[i][0], cases[i][1],
                  cases[i][2], cases[i][3]);
        wgpuTextureRelease(src);
        wgpuTextureRelease(dst);
      }
  }
  cu_section("mip level");

  /* Usages: the source needs CopySrc, the destination CopyDst. */
  {
    const WGPUTextureUsage usages[] = {WGPUTextureUsage_CopySrc, WGPUTextureUsage_CopyDst,
                                       WGPUTextureUsage_TextureBinding, WGPUTextureUsage_StorageBinding,
                                       WGPUTextureUsage_RenderAttachment};
    for (size_t a = 0; a < 5; a++)
      for (size_t b = 0; b < 5; b++) {
        WGPUTexture src = cu_texture(&ctx, D2, 4, 4, 1, RGBA, usages[a], 1, 1);
        WGPUTexture dst = cu_texture(&ctx, D2, 4, 4, 1, RGBA, usages[b], 1, 1);
        int ok = a == 0 && b == 1;
        cu_expect(cu_t2t(&ctx, at(src, 0, 0, 0, 0), at(dst, 0, 0, 0, 0), cu_ext(1, 1, 1)), ok_or_finish(ok),
                  "src usage 0x%llx dst usage 0x%llx", (unsigned long long)usages[a], (unsigned long long)usages[b]);
        wgpuTextureRelease(src);
        wgpuTextureRelease(dst);
      }
  }
  cu_section("usage");

  /* Sample counts must match; a multisampled copy is of the whole texture. */
  {
    const WGPUTextureUsage RA = WGPUTextureUsage_RenderAttachment;
    for (uint32_t s = 1; s <= 4; s += 3)
      for (uint32_t d = 1; d <= 4; d += 3) {
        WGPUTexture src = cu_texture(&ctx, D2, 4, 4, 1, RGBA, WGPUTextureUsage_CopySrc | RA, 1, s);
        WGPUTexture dst = cu_texture(&ctx, D2, 4, 4, 1, RGBA, WGPUTextureUsage_CopyDst | RA, 1, d);
        cu_expect(cu_t2t(&ctx, at(src, 0, 0, 0, 0), at(dst, 0, 0, 0, 0), cu_ext(4, 4, 1)), ok_or_finish(s == d),
                  "sample counts %u -> %u", s, d);
        wgpuTextureRelease(src);
        wgpuTextureRelease(dst);
      }
    WGPUTexture src = cu_texture(&ctx, D2, 32, 16, 1, RGBA, WGPUTextureUsage_CopySrc | RA, 1, 4);
    WGPUTexture dst = cu_texture(&ctx, D2, 32, 16, 1, RGBA, WGPUTextureUsage_CopyDst | RA, 1, 4);
    for (uint32_t so = 0; so < 4; so++)
      for (uint32_t dor = 0; dor < 4; dor++)
        for (uint32_t w = 16; w <= 32; w += 16)
          for (uint32_t h = 8; h <= 16; h += 8) {
            int ok = so == 0 && dor == 0 && w == 32 && h == 16;
            cu_expect(cu_t2t(&ctx, at(src, 0, so & 1, so >> 1, 0), at(dst, 0, dor & 1, dor >> 1, 0), cu_ext(w, h, 1)),
                      ok_or_finish(ok), "multisampled copy src origin (%u,%u) dst origin (%u,%u) size %ux%u", so & 1,
                      so >> 1, dor & 1, dor >> 1, w, h);
          }
    wgpuTextureRelease(src);
    wgpuTextureRelease(dst);
  }
  cu_section("sample count");

  /* Format compatibility: equal up to the "-srgb" suffix. */
  {
    static const struct {
      WGPUTextureFormat a, b;
      int ok;
    } pairs[] = {
        {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8Unorm, 1},
        {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8UnormSrgb, 1},
        {WGPUTextureFormat_RGBA8UnormSrgb, WGPUTextureFormat_RGBA8Unorm, 1},
        {WGPUTextureFormat_BGRA8Unorm, WGPUTextureFormat_BGRA8UnormSrgb, 1},
        {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_BGRA8Unorm, 0},
        {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8Uint, 0},
        {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8Snorm, 0},
        {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_R32Float, 0},
        {WGPUTextureFormat_R32Float, WGPUTextureFormat_R32Uint, 0},
        {WGPUTextureFormat_R32Uint, WGPUTextureFormat_R32Sint, 0},
        {WGPUTextureFormat_RG16Float, WGPUTextureFormat_RG16Float, 1},
        {WGPUTextureFormat_RGBA8UnormSrgb, WGPUTextureFormat_BGRA8UnormSrgb, 0},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
      WGPUTexture src = cu_texture(&ctx, D2, 4, 4, 1, pairs[i].a, WGPUTextureUsage_CopySrc, 1, 1);
      WGPUTexture dst = cu_texture(&ctx, D2, 4, 4, 1, pairs[i].b, WGPUTextureUsage_CopyDst, 1, 1);
      cu_expect(cu_t2t(&ctx, at(src, 0, 0, 0, 0), at(dst, 0, 0, 0, 0), cu_ext(4, 4, 1)), ok_or_finish(pairs[i].ok),
                "formats 0x%x -> 0x%x", (unsigned)pairs[i].a, (unsigned)pairs[i].b);
      wgpuTextureRelease(src);
      wgpuTextureRelease(dst);
    }
  }
  cu_section("format compatibility");

  /* Depth/stencil copies cover whole subresources. */
  {
    const WGPUTextureFormat ds[] = {WGPUTextureFormat_Depth16Unorm, WGPUTextureFormat_Depth32Float,
                                    WGPUTextureFormat_Stencil8, WGPUTextureFormat_Depth24PlusStencil8,
                                    WGPUTextureFormat_Depth24Plus};
    static const int box[5][4] = {{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, -1, 0}, {0, 0, 0, -1}};
    static const uint32_t sizes[3][2] = {{64, 64}, {64, 32}, {32, 32}};
    for (size_t f = 0; f < sizeof ds / sizeof ds[0]; f++)
      for (int b = 0; b < 5; b++)
        for (int ss = 0; ss < 3; ss += 2)
          for (int dsz = 0; dsz < 3; dsz++) {
            uint32_t sl = 1, dl = (uint32_t)(dsz == 2 ? 0 : 1);
            WGPUTexture src =
                cu_texture(&ctx, D2, sizes[ss][0], sizes[ss][1], 1, ds[f], WGPUTextureUsage_CopySrc, 3, 1);
            WGPUTexture dst =
                cu_texture(&ctx, D2, sizes[dsz][0], sizes[dsz][1], 1, ds[f], WGPUTextureUsage_CopyDst, 3, 1);
            uint32_t sw = cu_mip_size(sizes[ss][0], sl), sh = cu_mip_size(sizes[ss][1], sl);
            uint32_t dw = cu_mip_size(sizes[dsz][0], dl), dh = cu_mip_size(sizes[dsz][1], dl);
            int w = (int)(sw < dw ? sw : dw) + box[b][2] - box[b][0];
            int h = (int)(sh < dh ? sh : dh) + box[b][3] - box[b][1];
            if (w < 0) w = 0;
            if (h < 0) h = 0;
            int ok = box[b][0] == 0 && box[b][1] == 0 && (uint32_t)w == sw && (uint32_t)h == sh && (uint32_t)w == dw &&
                     (uint32_t)h == dh;
            cu_expect(cu_t2t(&ctx, at(src, sl, 0, 0, 0), at(dst, dl, (uint32_t)box[b][0], (uint32_t)box[b][1], 0),
                             cu_ext((uint32_t)w, (uint32_t)h, 1)),
                      ok_or_finish(ok), "depth/stencil 0x%x box %d src %ux%u@%u dst %ux%u@%u (dst origin)",
                      (unsigned)ds[f], b, sizes[ss][0], sizes[ss][1], sl, sizes[dsz][0], sizes[dsz][1], dl);
            cu_expect(cu_t2t(&ctx, at(src, sl, (uint32_t)box[b][0], (uint32_t)box[b][1], 0), at(dst, dl, 0, 0, 0),
                             cu_ext((uint32_t)w, (uint32_t)h, 1)),
                      ok_or_finish(ok), "depth/stencil 0x%x box %d src %ux%u@%u dst %ux%u@%u (src origin)",
                      (unsigned)ds[f], b, sizes[ss][0], sizes[ss][1], sl, sizes[dsz][0], sizes[dsz][1], dl);
            wgpuTextureRelease(src);
            wgpuTextureRelease(dst);
          }
  }
  cu_section("depth/stencil whole subresource");

  /* The copy box stays inside both subresources. */
  {
    static const int boxes[13][6] = {
        {0, 0, 0, 0, 0, -2}, {1, 0, 0, 0, 0, -2}, {1, 0, 0, -1, 0, -2}, {0, 1, 0, 0, 0, -2}, {0, 1, 0, 0, -1, -2},
        {0, 0, 1, 0, 1, -2}, {0, 0, 2, 0, 1, 0},  {0, 0, 0, 1, 0, -2},  {0, 0, 0, 0, 1, -2}, {0, 0, 0, 0, 0, 1},
        {0, 0, 0, 0, 0, 0},  {0, 0, 1, 0, 0, -1}, {0, 0, 2, 0, 0, -1}};
    const uint32_t levels[3] = {0, 1, 3};
    WGPUTextureDimension dims[3] = {D1, D2, D3};
    for (int di = 0; di < 3; di++) {
      uint32_t W = 16, H = di == 0 ? 1 : 8, L = di == 0 ? 1 : 3, M = di == 0 ? 1 : 4;
      WGPUTexture src = cu_texture(&ctx, dims[di], W, H, L, RGBA, WGPUTextureUsage_CopySrc, M, 1);
      WGPUTexture dst = cu_texture(&ctx, dims[di], W, H, L, RGBA, WGPUTextureUsage_CopyDst, M, 1);
      for (int b = 0; b < 13; b++) {
        const int *o = boxes[b];
        if (di == 0 && (o[1] || o[2] || o[4] || o[5])) continue;
        for (int si = 0; si < 3; si++)
          for (int dj = 0; dj < 3; dj++) {
            uint32_t sl = levels[si], dl = levels[dj];
            if (di == 0 && (sl || dl)) continue;
            uint32_t sw = cu_mip_size(W, sl), sh = di == 0 ? 1 : cu_mip_size(H, sl), dw = cu_mip_size(W, dl),
                     dh = di == 0 ? 1 : cu_mip_size(H, dl);
            uint32_t sd = di == 2 ? cu_mip_size(L, sl) : L, dd = di == 2 ? cu_mip_size(L, dl) : L;
            int w = (int)(sw < dw ? sw : dw) + o[3] - o[0];
            int h = (int)(sh < dh ? sh : dh) + o[4] - o[1];
            int d = (int)L + o[5] - o[2];
            if (w < 0) w = 0;
            if (h < 0) h = 0;
            if (d < 0) d = 0;
            uint32_t cw = (uint32_t)w, ch = (uint32_t)h, cd = (uint32_t)d, ox = (uint32_t)o[0], oy = (uint32_t)o[1],
                     oz = (uint32_t)o[2];
            /* A: origin on the destination; B: on the source. */
            int okA = cw <= sw && ch <= sh && ox + cw <= dw && oy + ch <= dh && cd <= sd && oz + cd <= dd;
            int okB = ox + cw <= sw && oy + ch <= sh && cw <= dw && ch <= dh && cd <= dd && oz + cd <= sd;
            cu_expect(cu_t2t(&ctx, at(src, sl, 0, 0, 0), at(dst, dl, ox, oy, oz), cu_ext(cw, ch, cd)),
                      ok_or_finish(okA), "range dim %d box %d levels %u->%u copy %ux%ux%u at dst (%u,%u,%u)", di + 1, b,
                      sl, dl, cw, ch, cd, ox, oy, oz);
            cu_expect(cu_t2t(&ctx, at(src, sl, ox, oy, oz), at(dst, dl, 0, 0, 0), cu_ext(cw, ch, cd)),
                      ok_or_finish(okB), "range dim %d box %d levels %u->%u copy %ux%ux%u at src (%u,%u,%u)", di + 1, b,
                      sl, dl, cw, ch, cd, ox, oy, oz);
          }
      }
      wgpuTextureRelease(src);
      wgpuTextureRelease(dst);
    }
  }
  cu_section("copy ranges");

  /* Within one texture the layer ranges must not overlap. */
  {
    WGPUTexture t = cu_texture(&ctx, D2, 16, 16, 7, RGBA, SD, 1, 1);
    const uint32_t zs[3] = {0, 2, 4};
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++)
        for (uint32_t d = 1; d <= 3; d++) {
          uint32_t lo = zs[a] < zs[b] ? zs[a] : zs[b], hi = zs[a] < zs[b] ? zs[b] : zs[a];
          cu_expect(cu_t2t(&ctx, at(t, 0, 0, 0, zs[a]), at(t, 0, 0, 0, zs[b]), cu_ext(16, 16, d)),
                    ok_or_finish(lo + d <= hi), "same texture layers %u -> %u depth %u", zs[a], zs[b], d);
        }
    wgpuTextureRelease(t);
  }
  {
    /* Different mip levels of one texture are different subresources; the
     * same subresource is an error even for disjoint rectangles (3D
     * textures: copy_within_same_3d_texture_is_an_error.c). */
    WGPUTexture t = cu_texture(&ctx, D2, 16, 16, 2, RGBA, SD, 2, 1);
    cu_expect(cu_t2t(&ctx, at(t, 0, 0, 0, 0), at(t, 1, 0, 0, 0), cu_ext(8, 8, 1)), CU_OK,
              "same texture, level 0 -> level 1");
    cu_expect(cu_t2t(&ctx, at(t, 1, 0, 0, 1), at(t, 0, 8, 8, 1), cu_ext(8, 8, 1)), CU_OK,
              "same texture, level 1 -> level 0, layer 1");
    cu_expect(cu_t2t(&ctx, at(t, 0, 0, 0, 0), at(t, 0, 8, 0, 0), cu_ext(8, 8, 1)), CU_AT_FINISH,
              "same texture, same subresource, disjoint rectangles");
    cu_expect(cu_t2t(&ctx, at(t, 0, 0, 0, 0), at(t, 0, 0, 0, 1), cu_ext(16, 16, 1)), CU_OK,
              "same texture, layer 0 -> layer 1");
    wgpuTextureRelease(t);
    /* Copies between dimensions: 2D array layers <-> 3D slices. */
    WGPUTexture a = cu_texture(&ctx, D2, 8, 8, 4, RGBA, SD, 1, 1);
    WGPUTexture b = cu_texture(&ctx, D3, 8, 8, 4, RGBA, SD, 1, 1);
    cu_expect(cu_t2t(&ctx, at(a, 0, 0, 0, 0), at(b, 0, 0, 0, 0), cu_ext(8, 8, 4)), CU_OK, "2D array -> 3D");
    cu_expect(cu_t2t(&ctx, at(b, 0, 0, 0, 1), at(a, 0, 0, 0, 0), cu_ext(8, 8, 3)), CU_OK, "3D -> 2D array");
    wgpuTextureRelease(a);
    wgpuTextureRelease(b);
  }
  cu_section("same texture");

  /* Aspects. */
  {
    const WGPUTextureFormat fmts[] = {RGBA,
                                      WGPUTextureFormat_Depth16Unorm,
                                      WGPUTextureFormat_Depth32Float,
                                      WGPUTextureFormat_Depth24Plus,
                                      WGPUTextureFormat_Stencil8,
                                      WGPUTextureFormat_Depth24PlusStencil8};
    const WGPUTextureAspect aspects[3] = {WGPUTextureAspect_All, WGPUTextureAspect_DepthOnly,
                                          WGPUTextureAspect_StencilOnly};
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
      WGPUTexture src = cu_texture(&ctx, D2, 16, 8, 1, fmts[f], WGPUTextureUsage_CopySrc, 1, 1);
      WGPUTexture dst = cu_texture(&ctx, D2, 16, 8, 1, fmts[f], WGPUTextureUsage_CopyDst, 1, 1);
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
          int ok_a[2];
          int idx[2] = {a, b};
          for (int k = 0; k < 2; k++) {
            WGPUTextureAspect asp = aspects[idx[k]];
            WGPUTextureFormat fm = fmts[f];
            if (asp == WGPUTextureAspect_All)
              ok_a[k] = 1;
            else if (fm == WGPUTextureFormat_Depth16Unorm || fm == WGPUTextureFormat_Depth32Float ||
                     fm == WGPUTextureFormat_Depth24Plus)
              ok_a[k] = asp == WGPUTextureAspect_DepthOnly;
            else if (fm == WGPUTextureFormat_Stencil8)
              ok_a[k] = asp == WGPUTextureAspect_StencilOnly;
            else
              ok_a[k] = 0;
          }
          cu_expect(
              cu_t2t(&ctx, cu_tex(src, 0, 0, 0, 0, aspects[a]), cu_tex(dst, 0, 0, 0, 0, aspects[b]), cu_ext(16, 8, 1)),
              ok_or_finish(ok_a[0] && ok_a[1]), "format 0x%x aspects %d -> %d", (unsigned)fmts[f], a, b);
        }
      wgpuTextureRelease(src);
      wgpuTextureRelease(dst);
    }
  }
  cu_section("aspects");

  return cu_finish(&ctx);
}
