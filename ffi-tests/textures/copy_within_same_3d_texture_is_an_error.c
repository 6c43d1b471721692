/* Rule (WebGPU copyTextureToTexture, "set of subresources for texture copy";
 * CTS copyTextureToTexture copy_within_same_texture, extended to 1D/3D):
 * when source and destination are the same texture their subresources
 * must be disjoint. A 2D texture's subresources are (mip level, array
 * layer), but a 1D or 3D texture's mip level is a single subresource: a copy
 * between depth slices (or x ranges) of the same mip level of one 3D (1D)
 * texture is a validation error at Finish, even when the boxes do not
 * overlap; between different mip levels it is valid. (wgpu-core 30 alone
 * treats a 3D texture's z range like array layers and accepts disjoint
 * slices; the library adds the check.) */
#include "cts_util.h"

static CuOutcome t2t(Ctx *ctx, WGPUTexture t, uint32_t smip, uint32_t sx, uint32_t sz, uint32_t dmip, uint32_t dx,
                     uint32_t dz, WGPUExtent3D size) {
  return cu_t2t(ctx, cu_tex(t, smip, sx, 0, sz, WGPUTextureAspect_All),
                cu_tex(t, dmip, dx, 0, dz, WGPUTextureAspect_All), size);
}

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  const WGPUTextureUsage SD = WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst;

  WGPUTexture v = cu_texture(&ctx, WGPUTextureDimension_3D, 8, 8, 8, WGPUTextureFormat_RGBA8Unorm, SD, 2, 1);
  REQUIRE(v != NULL);
  cu_expect(t2t(&ctx, v, 0, 0, 0, 0, 0, 4, cu_ext(8, 8, 4)), CU_AT_FINISH, "3D: slices 0-3 -> 4-7, same level");
  cu_expect(t2t(&ctx, v, 0, 0, 6, 0, 0, 0, cu_ext(8, 8, 1)), CU_AT_FINISH, "3D: slice 6 -> 0, same level");
  cu_expect(t2t(&ctx, v, 0, 0, 0, 0, 4, 0, cu_ext(4, 8, 8)), CU_AT_FINISH, "3D: x 0-3 -> 4-7, same level");
  cu_expect(t2t(&ctx, v, 0, 0, 0, 0, 0, 2, cu_ext(8, 8, 4)), CU_AT_FINISH, "3D: overlapping slices, same level");
  cu_expect(t2t(&ctx, v, 0, 0, 0, 1, 0, 0, cu_ext(4, 4, 4)), CU_OK, "3D: level 0 -> level 1");
  cu_expect(t2t(&ctx, v, 1, 0, 0, 0, 0, 4, cu_ext(4, 4, 4)), CU_OK, "3D: level 1 -> level 0 slices 4-7");
  wgpuTextureRelease(v);

  WGPUTexture l = cu_texture(&ctx, WGPUTextureDimension_1D, 16, 1, 1, WGPUTextureFormat_RGBA8Unorm, SD, 1, 1);
  REQUIRE(l != NULL);
  cu_expect(t2t(&ctx, l, 0, 0, 0, 0, 8, 0, cu_ext(8, 1, 1)), CU_AT_FINISH, "1D: x 0-7 -> 8-15");
  wgpuTextureRelease(l);

  return cu_finish(&ctx);
}
