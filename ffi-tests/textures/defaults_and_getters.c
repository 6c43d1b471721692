/* Rule (webgpu.h §4): a texture reports its descriptor through the getters
 * (dimension Undefined reads as 2D); a view with a NULL descriptor and one
 * with an all-default descriptor (format/dimension Undefined, counts
 * UNDEFINED, aspect Undefined) are valid; a NULL sampler descriptor and the
 * INIT one are valid; labels, AddRef/Release work; none of it raises an
 * error. Getters on an invalid texture still report the descriptor. */
#include "tex_util.h"

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);

  WGPUTextureDescriptor d = WGPU_TEXTURE_DESCRIPTOR_INIT;
  d.label = sv("tex");
  d.size.width = 32;
  d.size.height = 32;
  d.size.depthOrArrayLayers = 6;
  d.mipLevelCount = 3;
  d.format = WGPUTextureFormat_RGBA8Unorm;
  d.usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst;
  WGPUTexture t = wgpuDeviceCreateTexture(ctx.device, &d);
  REQUIRE(t != NULL);
  CHECK_EQ(wgpuTextureGetWidth(t), 32);
  CHECK_EQ(wgpuTextureGetHeight(t), 32);
  CHECK_EQ(wgpuTextureGetDepthOrArrayLayers(t), 6);
  CHECK_EQ(wgpuTextureGetMipLevelCount(t), 3);
  CHECK_EQ(wgpuTextureGetSampleCount(t), 1);
  CHECK_EQ(wgpuTextureGetDimension(t), WGPUTextureDimension_2D);
  CHECK_EQ(wgpuTextureGetFormat(t), WGPUTextureFormat_RGBA8Unorm);
  CHECK_EQ(wgpuTextureGetUsage(t), WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
  CHECK_EQ(wgpuTextureGetTextureBindingViewDimension(t), WGPUTextureViewDimension_2DArray);
  wgpuTextureSetLabel(t, sv("renamed"));
  wgpuTextureAddRef(t);
  wgpuTextureRelease(t);

  WGPUTextureView v1 = wgpuTextureCreateView(t, NULL);
  CHECK(v1 != NULL);
  WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
  vd.label = sv("view");
  WGPUTextureView v2 = wgpuTextureCreateView(t, &vd);
  CHECK(v2 != NULL);
  /* A cube view of 6 layers, one mip level from level 1. */
  vd.dimension = WGPUTextureViewDimension_Cube;
  vd.baseMipLevel = 1;
  vd.mipLevelCount = 1;
  WGPUTextureView v3 = wgpuTextureCreateView(t, &vd);
  CHECK(v3 != NULL);
  wgpuTextureViewSetLabel(v3, sv("cube"));
  wgpuTextureViewAddRef(v3);
  wgpuTextureViewRelease(v3);

  WGPUSampler s1 = wgpuDeviceCreateSampler(ctx.device, NULL);
  CHECK(s1 != NULL);
  WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
  sd.magFilter = WGPUFilterMode_Linear;
  sd.addressModeU = WGPUAddressMode_Repeat;
  sd.compare = WGPUCompareFunction_Less;
  WGPUSampler s2 = wgpuDeviceCreateSampler(ctx.device, &sd);
  CHECK(s2 != NULL);
  wgpuSamplerSetLabel(s2, sv("cmp"));
  wgpuSamplerAddRef(s2);
  wgpuSamplerRelease(s2);

  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);

  /* An invalid texture (no usage) still reports its descriptor. */
  d.usage = WGPUTextureUsage_None;
  d.dimension = WGPUTextureDimension_3D;
  d.mipLevelCount = 1;
  WGPUTexture bad = NULL;
  EXPECT_VALIDATION(&ctx, bad = wgpuDeviceCreateTexture(ctx.device, &d));
  REQUIRE(bad != NULL);
  CHECK_EQ(wgpuTextureGetWidth(bad), 32);
  CHECK_EQ(wgpuTextureGetDimension(bad), WGPUTextureDimension_3D);
  CHECK_EQ(wgpuTextureGetUsage(bad), WGPUTextureUsage_None);
  CHECK_EQ(wgpuTextureGetTextureBindingViewDimension(bad), WGPUTextureViewDimension_3D);
  /* Destroy twice is fine. */
  EXPECT_NO_VALIDATION(&ctx, wgpuTextureDestroy(t); wgpuTextureDestroy(t));
  CHECK_EQ(ctx.uncaptured_errors, 0);

  wgpuSamplerRelease(s2);
  wgpuSamplerRelease(s1);
  wgpuTextureViewRelease(v3);
  wgpuTextureViewRelease(v2);
  wgpuTextureViewRelease(v1);
  wgpuTextureRelease(bad);
  wgpuTextureRelease(t);
  ctx_release(&ctx);
  return test_finish();
}
