/* Rule (WebGPU buffer <-> texture copies; CTS image_copy/buffer_related,
 * buffer_texture_copies, texture_related device_mismatch, copyTextureToTexture
 * device_mismatch): for CopyBufferToTexture / CopyTextureToBuffer (recorded
 * without error, error at Finish): the buffer must be valid (an invalid one
 * fails Finish; a destroyed one fails Submit, even for an empty copy); it
 * needs CopySrc (B2T) or CopyDst (T2B); buffer and texture must belong to
 * the encoder's device (as must both textures of a texture-to-texture copy;
 * WriteTexture's texture must belong to the queue's device, error at the
 * call); bytesPerRow, when given, is a multiple of 256 even for a single or
 * empty row (WriteTexture: any value); the copied aspect of a depth/stencil
 * format must be a copyable one: Stencil8 and Depth16Unorm both ways (All or
 * their aspect), Depth32Float only out of the texture, Depth24Plus never,
 * Depth24PlusStencil8 only StencilOnly (All is an error); a depth/stencil
 * copy needs offset % 4 == 0 (WriteTexture: any) and the data must hold the
 * whole copy.
 * On OpenGL the depth/stencil cases are left out (counted and printed):
 * wgpu-core refuses every buffer copy and WriteTexture of a depth/stencil
 * format without the DEPTH_TEXTURE_AND_BUFFER_COPIES downlevel flag, which
 * its GL backend lacks. */
#include "cts_util.h"

#define UNDEF WGPU_COPY_STRIDE_UNDEFINED

/* A buffer copy: B2T when b2t, else T2B. */
static CuOutcome bt(Ctx *ctx, int b2t, WGPUBuffer b, WGPUTexelCopyBufferLayout l, WGPUTexelCopyTextureInfo t,
                    WGPUExtent3D size) {
  return cu_buffer_copy(ctx, b2t ? CU_COPY_B2T : CU_COPY_T2B, b, l, t, size);
}

static const char *const BT_NAME[2] = {"CopyT2B", "CopyB2T"};

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  const WGPUBufferUsage BSD = WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst;
  const WGPUTextureUsage TSD = WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst;
  const WGPUTextureFormat RGBA = WGPUTextureFormat_RGBA8Unorm;
  WGPUTexture tex = cu_texture(&ctx, WGPUTextureDimension_2D, 2, 2, 1, RGBA, TSD, 1, 1);
  WGPUTexelCopyTextureInfo ti = cu_tex(tex, 0, 0, 0, 0, WGPUTextureAspect_All);

  /* Buffer state, for an empty copy. */
  for (int b2t = 0; b2t < 2; b2t++)
    for (int s = 0; s < 3; s++) {
      wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
      WGPUBuffer b = make_buffer(ctx.device, s == 1 ? (1ull << 62) : 16, BSD, 0);
      mu_pop_type(&ctx);
      if (s == 2) wgpuBufferDestroy(b);
      CuOutcome want = s == 0 ? CU_OK : s == 1 ? CU_AT_FINISH : CU_AT_SUBMIT;
      cu_expect(bt(&ctx, b2t, b, cu_layout(0, UNDEF, UNDEF), ti, cu_ext(0, 0, 0)), want, "%s buffer %s (empty copy)",
                BT_NAME[b2t],
                s == 0   ? "valid"
                : s == 1 ? "invalid"
                         : "destroyed");
      /* and a non-empty one */
      cu_expect(bt(&ctx, b2t, b, cu_layout(0, UNDEF, UNDEF), ti, cu_ext(1, 1, 1)), want, "%s buffer %s (1x1 copy)",
                BT_NAME[b2t],
                s == 0   ? "valid"
                : s == 1 ? "invalid"
                         : "destroyed");
      if (b) wgpuBufferRelease(b);
    }
  cu_section("buffer state");

  /* Buffer usage. */
  {
    const WGPUBufferUsage us[3] = {WGPUBufferUsage_CopySrc | WGPUBufferUsage_Uniform,
                                   WGPUBufferUsage_CopyDst | WGPUBufferUsage_Uniform, BSD};
    for (int b2t = 0; b2t < 2; b2t++)
      for (int u = 0; u < 3; u++)
        for (int empty = 0; empty < 2; empty++) {
          WGPUBuffer b = make_buffer(ctx.device, 16, us[u], 0);
          int ok = b2t ? (us[u] & WGPUBufferUsage_CopySrc) != 0 : (us[u] & WGPUBufferUsage_CopyDst) != 0;
          cu_expect(bt(&ctx, b2t, b, cu_layout(0, UNDEF, UNDEF), ti, empty ? cu_ext(0, 0, 0) : cu_ext(1, 1, 1)),
                    ok ? CU_OK : CU_AT_FINISH, "%s buffer usage 0x%llx %s", BT_NAME[b2t], (unsigned long long)us[u],
                    empty ? "empty copy" : "1x1 copy");
          wgpuBufferRelease(b);
        }
  }
  cu_section("buffer usage");

  /* Objects of another device. */
  {
    Ctx other;
    REQUIRE(cu_ctx_with_features(&ctx, &other, NULL, 0) == 0);
    WGPUBuffer ob = make_buffer(other.device, 16, BSD, 0);
    WGPUTexture ot = cu_texture(&other, WGPUTextureDimension_2D, 2, 2, 1, RGBA, TSD, 1, 1);
    WGPUBuffer b = make_buffer(ctx.device, 16, BSD, 0);
    WGPUTexelCopyTextureInfo oti = cu_tex(ot, 0, 0, 0, 0, WGPUTextureAspect_All);
    for (int b2t = 0; b2t < 2; b2t++) {
      cu_expect(bt(&ctx, b2t, ob, cu_layout(0, UNDEF, UNDEF), ti, cu_ext(1, 1, 1)), CU_AT_FINISH,
                "%s with a buffer of another device", BT_NAME[b2t]);
      cu_expect(bt(&ctx, b2t, b, cu_layout(0, UNDEF, UNDEF), oti, cu_ext(1, 1, 1)), CU_AT_FINISH,
                "%s with a texture of another device", BT_NAME[b2t]);
      cu_expect(bt(&ctx, b2t, b, cu_layout(0, UNDEF, UNDEF), ti, cu_ext(1, 1, 1)), CU_OK, "%s all of one device",
                BT_NAME[b2t]);
    }
    for (int side = 0; side < 3; side++) {
      WGPUTexture t2 = cu_texture(&ctx, WGPUTextureDimension_2D, 2, 2, 1, RGBA, TSD, 1, 1);
      WGPUTexelCopyTextureInfo t2i = cu_tex(t2, 0, 0, 0, 0, WGPUTextureAspect_All);
      cu_expect(cu_t2t(&ctx, side == 0 ? oti : ti, side == 1 ? oti : t2i, cu_ext(1, 1, 1)),
                side == 2 ? CU_OK : CU_AT_FINISH, "CopyTextureToTexture with %s of another device",
                side == 0   ? "the source"
                : side == 1 ? "the destination"
                            : "neither");
      wgpuTextureRelease(t2);
    }
    uint8_t data[16] = {0};
    WGPUTexelCopyBufferLayout l = cu_layout(0, UNDEF, UNDEF);
    WGPUExtent3D one = cu_ext(1, 1, 1);
    CuOutcome o;
    CU_CALL(&ctx, o, wgpuQueueWriteTexture(ctx.queue, &oti, data, sizeof data, &l, &one));
    cu_expect(o, CU_AT_CALL, "WriteTexture with a texture of another device");
    CHECK_EQ(other.uncaptured_errors, 0);
    wgpuBufferRelease(b);
    wgpuBufferRelease(ob);
    wgpuTextureRelease(ot);
    cu_ctx_release(&other);
  }
  cu_section("device mismatch");

  /* bytesPerRow alignment (RGBA8 and R8, one texel wide). */
  {
    const int64_t bprs[6] = {-1, 1, 255, 256, 257, 512};
    const WGPUTextureFormat fmts[2] = {RGBA, WGPUTextureFormat_R8Unorm};
    const uint32_t bpb[2] = {4, 1};
    WGPUBuffer b = make_buffer(ctx.device, 512 * 8 * 16, BSD, 0);
    for (int m = 0; m < 3; m++)
      for (int f = 0; f < 2; f++)
        for (int d = 0; d < 3; d++)
          for (int bi = 0; bi < 6; bi++)
            for (uint32_t h = 0; h <= 3; h++) {
              if (d == 0 && h > 1) continue;
              if (bprs[bi] == -1 && h > 1) continue;
              if (bprs[bi] != -1 && bprs[bi] < bpb[f]) continue;
              WGPUTextureDimension dim = d == 0   ? WGPUTextureDimension_1D
                                         : d == 1 ? WGPUTextureDimension_2D
                                                  : WGPUTextureDimension_3D;
              uint32_t th = d == 0 ? 1 : (h ? h : 1);
              WGPUTexture t = cu_texture(&ctx, dim, 1, th, 1, fmts[f], TSD, 1, 1);
              uint32_t bpr = bprs[bi] < 0 ? UNDEF : (uint32_t)bprs[bi];
              WGPUExtent3D e = h == 0 ? cu_ext(0, 0, 1) : cu_ext(1, d == 0 ? 1 : h, 1);
              int ok = m == CU_WRITE_TEXTURE || bpr == UNDEF || bpr % 256 == 0;
              CuOutcome got;
              if (m == CU_WRITE_TEXTURE)
                got = cu_image_copy(&ctx, CU_WRITE_TEXTURE, cu_tex(t, 0, 0, 0, 0, WGPUTextureAspect_All),
                                    cu_layout(0, bpr, UNDEF), e, 512 * 8 * 16);
              else
                got = bt(&ctx, m == CU_COPY_B2T, b, cu_layout(0, bpr, UNDEF),
                         cu_tex(t, 0, 0, 0, 0, WGPUTextureAspect_All), e);
              cu_expect(got, ok ? CU_OK : cu_fail_at((CuMethod)m), "%s format 0x%x dim %d bytesPerRow %lld rows %u",
                        cu_method_names[m], (unsigned)fmts[f], d + 1, (long long)bprs[bi], h);
              wgpuTextureRelease(t);
            }
    wgpuBufferRelease(b);
  }
  cu_section("bytesPerRow alignment");

  /* Depth/stencil: copyable aspects per method. */
  if (cu_is_gl(&ctx)) cu_leave_out(CU_WHY_DEPTH_COPIES);
  {
    static const struct {
      WGPUTextureFormat f;
      int in[3], out[3]; /* by aspect All, DepthOnly, StencilOnly */
      uint32_t size[3];
    } ds[] = {
        {WGPUTextureFormat_Stencil8, {1, 0, 1}, {1, 0, 1}, {1, 0, 1}},
        {WGPUTextureFormat_Depth16Unorm, {1, 1, 0}, {1, 1, 0}, {2, 2, 0}},
        {WGPUTextureFormat_Depth32Float, {0, 0, 0}, {1, 1, 0}, {4, 4, 0}},
        {WGPUTextureFormat_Depth24Plus, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}},
        {WGPUTextureFormat_Depth24PlusStencil8, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}},
    };
    const WGPUTextureAspect as[3] = {WGPUTextureAspect_All, WGPUTextureAspect_DepthOnly, WGPUTextureAspect_StencilOnly};
    WGPUBuffer b = make_buffer(ctx.device, 32, BSD, 0);
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) {
      WGPUTexture t = cu_texture(&ctx, WGPUTextureDimension_2D, 1, 1, 1, ds[i].f, TSD, 1, 1);
      for (int a = 0; a < 3; a++) {
        WGPUTexelCopyTextureInfo x = cu_tex(t, 0, 0, 0, 0, as[a]);
        cu_expect(bt(&ctx, 1, b, cu_layout(0, UNDEF, UNDEF), x, cu_ext(1, 1, 1)), ds[i].in[a] ? CU_OK : CU_AT_FINISH,
                  "CopyB2T format 0x%x aspect %d", (unsigned)ds[i].f, a);
        cu_expect(bt(&ctx, 0, b, cu_layout(0, UNDEF, UNDEF), x, cu_ext(1, 1, 1)), ds[i].out[a] ? CU_OK : CU_AT_FINISH,
                  "CopyT2B format 0x%x aspect %d", (unsigned)ds[i].f, a);
        cu_expect(cu_image_copy(&ctx, CU_WRITE_TEXTURE, x, cu_layout(0, UNDEF, UNDEF), cu_ext(1, 1, 1), 32),
                  ds[i].in[a] ? CU_OK : CU_AT_CALL, "WriteTexture format 0x%x aspect %d", (unsigned)ds[i].f, a);
      }
      wgpuTextureRelease(t);
    }
    wgpuBufferRelease(b);

    /* Minimum data size and offset alignment of copyable single aspects. */
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++)
      for (int a = 1; a < 3; a++)
        for (int m = 0; m < 3; m++) {
          int ok_dir = m == CU_COPY_T2B ? ds[i].out[a] : ds[i].in[a];
          if (!ok_dir) continue;
          uint32_t texel = ds[i].size[a];
          static const uint32_t sizes[3][3] = {{8, 1, 1}, {4, 4, 1}, {4, 4, 3}};
          for (int s = 0; s < 3; s++) {
            WGPUTexture t =
                cu_texture(&ctx, WGPUTextureDimension_2D, sizes[s][0], sizes[s][1], sizes[s][2], ds[i].f, TSD, 1, 1);
            uint32_t align = m == CU_WRITE_TEXTURE ? 1 : 256;
            uint32_t row = texel * sizes[s][0];
            uint32_t bpr = (row + align - 1) / align * align;
            uint64_t min = (uint64_t)bpr * (sizes[s][1] * sizes[s][2] - 1) + (row + 3) / 4 * 4;
            WGPUTexelCopyTextureInfo x = cu_tex(t, 0, 0, 0, 0, as[a]);
            WGPUExtent3D e = cu_ext(sizes[s][0], sizes[s][1], sizes[s][2]);
            cu_expect(cu_image_copy(&ctx, (CuMethod)m, x, cu_layout(0, bpr, sizes[s][1]), e, min), CU_OK,
                      "%s format 0x%x aspect %d size case %d with %llu bytes", cu_method_names[m], (unsigned)ds[i].f, a,
                      s, (unsigned long long)min);
            cu_expect(cu_image_copy(&ctx, (CuMethod)m, x, cu_layout(0, bpr, sizes[s][1]), e, min - 4),
                      cu_fail_at((CuMethod)m), "%s format 0x%x aspect %d size case %d with %llu bytes",
                      cu_method_names[m], (unsigned)ds[i].f, a, s, (unsigned long long)(min - 4));
            wgpuTextureRelease(t);
          }
          const uint64_t offs[5] = {1, 2, 4, 6, 8};
          WGPUTexture t = cu_texture(&ctx, WGPUTextureDimension_2D, 4, 4, 1, ds[i].f, TSD, 1, 1);
          uint32_t align = m == CU_WRITE_TEXTURE ? 1 : 256;
          uint32_t bpr = (texel * 4 + align - 1) / align * align;
          uint64_t min = (uint64_t)bpr * 3 + (texel * 4 + 3) / 4 * 4;
          for (int o = 0; o < 5; o++) {
            int ok = m == CU_WRITE_TEXTURE || offs[o] % 4 == 0;
            cu_expect(cu_image_copy(&ctx, (CuMethod)m, cu_tex(t, 0, 0, 0, 0, as[a]), cu_layout(offs[o], bpr, 4),
                                    cu_ext(4, 4, 1), (min + offs[o] + 3) / 4 * 4),
                      ok ? CU_OK : cu_fail_at((CuMethod)m), "%s format 0x%x aspect %d offset %llu", cu_method_names[m],
                      (unsigned)ds[i].f, a, (unsigned long long)offs[o]);
          }
          wgpuTextureRelease(t);
        }
  }
  cu_section("depth/stencil aspects");

  wgpuTextureRelease(tex);
  return cu_finish(&ctx);
}
