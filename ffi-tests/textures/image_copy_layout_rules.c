/* Rule (WebGPU texel copies, linear layout; CTS image_copy/layout_related):
 * for WriteTexture (error at the call) and CopyBufferToTexture /
 * CopyTextureToBuffer (error at Finish): rowsPerImage, when given, must be at
 * least the copy height in blocks, and must be given when the copy has more
 * than one image; bytesPerRow must be at least one row of blocks and must be
 * given when the copy has more than one row; for the buffer copies only,
 * bytesPerRow is a multiple of 256 and the offset a multiple of the texel
 * block size (4 for depth/stencil), while WriteTexture has neither rule;
 * rowsPerImage has no alignment; the data must hold offset +
 * requiredBytesInCopy bytes (exactly that many is valid, one byte fewer is
 * not), and offset + requiredBytesInCopy overflowing 64 bits is an error;
 * the offset may not exceed the data size even for an empty copy.
 * On OpenGL the depth/stencil cases are left out (counted and printed):
 * wgpu-core refuses every buffer copy and WriteTexture of a depth/stencil
 * format without the DEPTH_TEXTURE_AND_BUFFER_COPIES downlevel flag, which
 * its GL backend lacks. */
#include "cts_util.h"

#define UNDEF WGPU_COPY_STRIDE_UNDEFINED

typedef struct {
  WGPUTextureFormat f;
  WGPUTextureAspect aspect; /* the aspect copied */
  uint32_t bytes;           /* bytes per texel of that aspect */
  int ds;                   /* depth/stencil: offset alignment 4, full copies */
  int write_ok;             /* WriteTexture / B2T may write it */
} Fmt;

static const Fmt FMTS[] = {
    {WGPUTextureFormat_RGBA8Unorm, WGPUTextureAspect_All, 4, 0, 1},
    {WGPUTextureFormat_R8Unorm, WGPUTextureAspect_All, 1, 0, 1},
    {WGPUTextureFormat_R16Float, WGPUTextureAspect_All, 2, 0, 1},
    {WGPUTextureFormat_RGBA32Float, WGPUTextureAspect_All, 16, 0, 1},
    {WGPUTextureFormat_RG11B10Ufloat, WGPUTextureAspect_All, 4, 0, 1},
    {WGPUTextureFormat_Depth16Unorm, WGPUTextureAspect_DepthOnly, 2, 1, 1},
    {WGPUTextureFormat_Depth32Float, WGPUTextureAspect_DepthOnly, 4, 1, 0},
    {WGPUTextureFormat_Stencil8, WGPUTextureAspect_StencilOnly, 1, 1, 1},
    {WGPUTextureFormat_Depth24PlusStencil8, WGPUTextureAspect_StencilOnly, 1, 1, 1},
};
#define NFMT (sizeof FMTS / sizeof FMTS[0])

static const WGPUTextureDimension DIM[3] = {WGPUTextureDimension_1D, WGPUTextureDimension_2D, WGPUTextureDimension_3D};

static int usable(const Fmt *f, int m, int d) {
  if (m != CU_COPY_T2B && !f->write_ok) return 0;
  if (f->ds && d != 1) return 0; /* depth/stencil: 2D only */
  return 1;
}

/* The bytes a copy needs (offset included), and whether its layout is
 * valid for the method (uncompressed formats: blocks are texels). */
static uint64_t data_size(CuMethod m, const Fmt *f, WGPUTexelCopyBufferLayout l, WGPUExtent3D s, int *valid) {
  int ok = 1;
  uint32_t last_row = s.width * f->bytes;
  if (m != CU_WRITE_TEXTURE) {
    if (l.offset % (f->ds ? 4 : f->bytes)) ok = 0;
    if (l.bytesPerRow != UNDEF && l.bytesPerRow % 256) ok = 0;
  }
  uint32_t bpr = l.bytesPerRow, rpi = l.rowsPerImage;
  if (bpr != UNDEF && bpr < last_row) bpr = UNDEF, ok = 0;
  if (bpr == UNDEF && (s.height > 1 || s.depthOrArrayLayers > 1)) ok = 0;
  if (rpi != UNDEF && rpi < s.height) rpi = UNDEF, ok = 0;
  if (rpi == UNDEF && s.depthOrArrayLayers > 1) ok = 0;
  if (bpr == UNDEF) bpr = (last_row + 255) / 256 * 256;
  if (rpi == UNDEF) rpi = s.height;
  uint64_t need = 0;
  if (s.depthOrArrayLayers > 0) {
    need = (uint64_t)bpr * rpi * (s.depthOrArrayLayers - 1);
    if (s.height > 0) need += (uint64_t)bpr * (s.height - 1) + last_row;
  }
  *valid = ok;
  return l.offset + need;
}

/* A CopySrc|CopyDst texture that holds the copy at the origin. */
static WGPUTexture fit(Ctx *ctx, const Fmt *f, int d, WGPUExtent3D s) {
  uint32_t w = s.width ? s.width : 1, h = s.height ? s.height : 1, z = s.depthOrArrayLayers ? s.depthOrArrayLayers : 1;
  if (d == 0) h = z = 1;
  return cu_texture(ctx, DIM[d], w, h, z, f->f, WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst, 1, 1);
}

static CuOutcome run(Ctx *ctx, CuMethod m, WGPUTexture t, const Fmt *f, WGPUTexelCopyBufferLayout l, WGPUExtent3D s,
                     uint64_t bytes) {
  return cu_image_copy(ctx, m, cu_tex(t, 0, 0, 0, 0, f->aspect), l, s, bytes);
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  const Fmt *rgba = &FMTS[0];

  /* rowsPerImage bound (width 0, bytesPerRow 1024). */
  {
    const uint32_t rpis[5] = {UNDEF, 0, 1, 2, 1024};
    static const uint32_t dims[4][4] = {{0, 4, 1, 1}, {1, 4, 4, 1}, {1, 4, 4, 3}, {2, 4, 4, 3}};
    for (int m = 0; m < 3; m++)
      for (int c = 0; c < 4; c++) {
        int d = (int)dims[c][0];
        WGPUTexture t = cu_texture(&ctx, DIM[d], dims[c][1], dims[c][2], dims[c][3], rgba->f,
                                   WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst, 1, 1);
        for (int r = 0; r < 5; r++)
          for (uint32_t h = 0; h <= 2; h++)
            for (uint32_t z = 1; z <= 3; z += 2) {
              if (d == 0 && h != 1) continue;
              if (z > dims[c][3]) continue;
              WGPUTexelCopyBufferLayout l = cu_layout(0, 1024, rpis[r]);
              int valid;
              uint64_t n = data_size((CuMethod)m, rgba, l, cu_ext(0, h, z), &valid);
              cu_expect(run(&ctx, (CuMethod)m, t, rgba, l, cu_ext(0, h, z), n), cu_ok_or((CuMethod)m, valid),
                        "%s dim case %d rowsPerImage %d height %u depth %u", cu_method_names[m], c, (int)rpis[r], h, z);
            }
        wgpuTextureRelease(t);
      }
  }
  cu_section("bound on rowsPerImage");

  /* offset + requiredBytesInCopy overflowing u64. */
  for (int m = 0; m < 3; m++)
    for (uint32_t z = 1; z <= 16; z += 15) {
      WGPUTexture t = cu_texture(&ctx, WGPUTextureDimension_2D, 1, 1, z, rgba->f,
                                 WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst, 1, 1);
      cu_expect(run(&ctx, (CuMethod)m, t, rgba, cu_layout(0, 1u << 31, 1u << 31), cu_ext(1, 1, z), 10000),
                cu_ok_or((CuMethod)m, z == 1), "%s bytesPerRow = rowsPerImage = 2^31, depth %u", cu_method_names[m], z);
      wgpuTextureRelease(t);
    }
  cu_section("copy end overflows u64");

  /* requiredBytesInCopy: the minimum size is valid, one byte less is not. */
  {
    static const uint32_t pads[4][2] = {{0, 0}, {0, 6}, {6, 0}, {15, 17}};
    static const uint32_t sizes[10][4] = {{3, 4, 5, 0},  {5, 4, 3, 11}, {256, 3, 2, 0}, {0, 4, 5, 0}, {3, 0, 5, 0},
                                          {3, 4, 0, 13}, {1, 4, 5, 0},  {3, 1, 5, 15},  {5, 4, 1, 0}, {7, 1, 1, 0}};
    for (int m = 0; m < 3; m++)
      for (size_t fi = 0; fi < NFMT; fi++)
        for (int d = 0; d < 3; d++) {
          const Fmt *f = &FMTS[fi];
          if (!usable(f, m, d)) continue;
          cu_leave_out_depth_copies(&ctx, f->f);
          for (int p = 0; p < 4; p++)
            for (int s = 0; s < 10; s++) {
              const uint32_t *sz = sizes[s];
              if (f->ds && (!sz[0] || !sz[1] || !sz[2])) continue;
              if (d == 0 && (sz[1] > 1 || sz[2] > 1)) continue;
              uint32_t align = m == CU_WRITE_TEXTURE ? 1 : 256;
              WGPUExtent3D e = cu_ext(sz[0], sz[1], sz[2]);
              uint32_t bpr = (sz[0] * f->bytes + align - 1) / align * align + pads[p][0] * align;
              uint64_t off = (uint64_t)sz[3] * (f->ds ? 4 : f->bytes);
              WGPUTexelCopyBufferLayout l = cu_layout(off, bpr, sz[1] + pads[p][1]);
              int valid;
              uint64_t n = data_size((CuMethod)m, f, l, e, &valid);
              if (!valid) continue; /* cannot happen: all layouts here are valid */
              WGPUTexture t = fit(&ctx, f, d, e);
              if (f->ds) { /* depth/stencil: the whole subresource */
                wgpuTextureRelease(t);
                t = cu_texture(&ctx, DIM[d], sz[0], sz[1], sz[2], f->f,
                               WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst, 1, 1);
              }
              cu_expect(run(&ctx, (CuMethod)m, t, f, l, e, n), CU_OK,
                        "%s format 0x%x dim %d copy %ux%ux%u offset %llu bpr %u rpi %u with %llu bytes",
                        cu_method_names[m], (unsigned)f->f, d + 1, sz[0], sz[1], sz[2], (unsigned long long)off, bpr,
                        sz[1] + pads[p][1], (unsigned long long)n);
              if (n > 0)
                cu_expect(run(&ctx, (CuMethod)m, t, f, l, e, n - 1), cu_fail_at((CuMethod)m),
                          "%s format 0x%x dim %d copy %ux%ux%u offset %llu bpr %u rpi %u with %llu bytes",
                          cu_method_names[m], (unsigned)f->f, d + 1, sz[0], sz[1], sz[2], (unsigned long long)off, bpr,
                          sz[1] + pads[p][1], (unsigned long long)(n - 1));
              wgpuTextureRelease(t);
            }
        }
  }
  cu_section("required bytes in copy");

  /* rowsPerImage needs no alignment; the offset does (copies only). */
  for (int m = 0; m < 3; m++)
    for (size_t fi = 0; fi < NFMT; fi++)
      for (int d = 0; d < 3; d++) {
        const Fmt *f = &FMTS[fi];
        if (!usable(f, m, d)) continue;
        cu_leave_out_depth_copies(&ctx, f->f);
        WGPUTexture t = fit(&ctx, f, d, cu_ext(1, 1, 1));
        for (uint32_t rpi = 1; rpi <= 2; rpi++)
          cu_expect(run(&ctx, (CuMethod)m, t, f, cu_layout(0, 256, rpi), cu_ext(1, 1, 1), f->bytes), CU_OK,
                    "%s format 0x%x dim %d rowsPerImage %u", cu_method_names[m], (unsigned)f->f, d + 1, rpi);
        uint32_t a = f->ds ? 4 : f->bytes;
        const uint64_t offs[6] = {0, 1, a - 1, a, a + 1, 2 * a};
        for (int o = 0; o < 6; o++) {
          int ok = m == CU_WRITE_TEXTURE || offs[o] % a == 0;
          cu_expect(run(&ctx, (CuMethod)m, t, f, cu_layout(offs[o], 256, UNDEF), cu_ext(1, 1, 1), offs[o] + f->bytes),
                    cu_ok_or((CuMethod)m, ok), "%s format 0x%x dim %d offset %llu", cu_method_names[m], (unsigned)f->f,
                    d + 1, (unsigned long long)offs[o]);
        }
        wgpuTextureRelease(t);
      }
  cu_section("rowsPerImage / offset alignment");

  /* bytesPerRow bound and alignment. */
  for (int m = 0; m < 3; m++)
    for (size_t fi = 0; fi < NFMT; fi++)
      for (int d = 0; d < 3; d++) {
        const Fmt *f = &FMTS[fi];
        if (!usable(f, m, d)) continue;
        cu_leave_out_depth_copies(&ctx, f->f);
        for (uint32_t h = 1; h <= 2; h++)
          for (uint32_t z = 1; z <= 2; z++) {
            if (d == 0 && (h > 1 || z > 1)) continue;
            for (int c = 0; c < 6; c++) {
              uint32_t bpr = 256, tw = 256 / f->bytes, cw = tw;
              int ok = 1, undef = 0;
              if (c == 1) cw = tw - 1, ok = !f->ds;
              if (c == 2) bpr = 128, tw = cw = 128 / f->bytes, ok = m == CU_WRITE_TEXTURE;
              if (c == 3) bpr = 384, tw = cw = 384 / f->bytes, ok = m == CU_WRITE_TEXTURE;
              if (c == 4) tw = cw = 512 / f->bytes, ok = 0;
              if (c == 5) undef = 1, ok = !(h > 1 || z > 1);
              WGPUTexture t = fit(&ctx, f, d, cu_ext(tw, h, z));
              WGPUTexelCopyBufferLayout l = cu_layout(0, undef ? UNDEF : bpr, h);
              int valid;
              uint64_t n = data_size((CuMethod)m, f, l, cu_ext(cw, h, z), &valid);
              cu_expect(run(&ctx, (CuMethod)m, t, f, l, cu_ext(cw, h, z), n), cu_ok_or((CuMethod)m, ok),
                        "%s format 0x%x dim %d bytesPerRow case %d (bpr %d, width %u, height %u, depth %u)",
                        cu_method_names[m], (unsigned)f->f, d + 1, c, undef ? -1 : (int)bpr, cw, h, z);
              wgpuTextureRelease(t);
            }
          }
      }
  cu_section("bound on bytesPerRow");

  /* The offset may not pass the end of the data, even for an empty copy. */
  {
    WGPUTexture t = cu_texture(&ctx, WGPUTextureDimension_2D, 4, 4, 1, rgba->f,
                               WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst, 1, 1);
    for (int m = 0; m < 3; m++)
      for (uint32_t o = 0; o <= 2; o++)
        for (uint32_t s = 0; s <= 2; s++)
          cu_expect(run(&ctx, (CuMethod)m, t, rgba, cu_layout(o * 4, 0, UNDEF), cu_ext(0, 0, 0), s * 4),
                    cu_ok_or((CuMethod)m, o <= s), "%s empty copy at offset %u of %u bytes", cu_method_names[m], o * 4,
                    s * 4);
    wgpuTextureRelease(t);
  }
  cu_section("bound on offset");

  return cu_finish(&ctx);
}
