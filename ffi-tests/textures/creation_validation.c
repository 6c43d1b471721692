/* Rule (webgpu.h §5, invalid descriptors): each of these is a validation
 * error that still returns a (invalid) non-NULL object, never a crash:
 * texture format Undefined / garbage, usage None / unknown bits, dimension
 * garbage, width 0, size beyond the limits, a chained
 * TextureBindingViewDimension (unsupported), a view format not in
 * viewFormats, a view of a garbage dimension, a view of more mip levels
 * than the texture has, a chained non-identity
 * TextureComponentSwizzleDescriptor (unsupported; the identity swizzle,
 * with Undefined components or R/G/B/A, is accepted); a sampler with
 * lodMinClamp > lodMaxClamp, a garbage address mode or maxAnisotropy 0; a
 * view of an invalid texture. A view with a listed view format (sRGB) is
 * valid, except on OpenGL, whose textures have no other view formats
 * (wgpu-core's downlevel VIEW_FORMATS): there listing one is the error. */
#include "tex_util.h"

static WGPUTextureDescriptor good(void) {
  WGPUTextureDescriptor d = WGPU_TEXTURE_DESCRIPTOR_INIT;
  d.size.width = 16;
  d.size.height = 16;
  d.format = WGPUTextureFormat_RGBA8Unorm;
  d.usage = WGPUTextureUsage_TextureBinding;
  return d;
}

static int tex_error(Ctx *ctx, WGPUTextureDescriptor d) {
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUTexture t = wgpuDeviceCreateTexture(ctx->device, &d);
  int ok = mu_pop_type(ctx) == WGPUErrorType_Validation && t != NULL;
  if (t) wgpuTextureRelease(t);
  return ok;
}

static int view_error(Ctx *ctx, WGPUTexture t, WGPUTextureViewDescriptor vd) {
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUTextureView v = wgpuTextureCreateView(t, &vd);
  int ok = mu_pop_type(ctx) == WGPUErrorType_Validation && v != NULL;
  if (v) wgpuTextureViewRelease(v);
  return ok;
}

static int sampler_error(Ctx *ctx, WGPUSamplerDescriptor sd) {
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUSampler s = wgpuDeviceCreateSampler(ctx->device, &sd);
  int ok = mu_pop_type(ctx) == WGPUErrorType_Validation && s != NULL;
  if (s) wgpuSamplerRelease(s);
  return ok;
}

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  WGPUTextureDescriptor d = good();
  d.format = WGPUTextureFormat_Undefined;
  CHECK(tex_error(&ctx, d));
  d = good();
  d.format = (WGPUTextureFormat)0x7777;
  CHECK(tex_error(&ctx, d));
  d = good();
  d.usage = WGPUTextureUsage_None;
  CHECK(tex_error(&ctx, d));
  d = good();
  d.usage = WGPUTextureUsage_TextureBinding | ((WGPUTextureUsage)1 << 40);
  CHECK(tex_error(&ctx, d));
  d = good();
  d.dimension = (WGPUTextureDimension)0x55;
  CHECK(tex_error(&ctx, d));
  d = good();
  d.size.width = 0;
  CHECK(tex_error(&ctx, d));
  d = good();
  d.size.width = 1u << 20;
  CHECK(tex_error(&ctx, d));
  d = good();
  WGPUTextureBindingViewDimension bvd = WGPU_TEXTURE_BINDING_VIEW_DIMENSION_INIT;
  bvd.textureBindingViewDimension = WGPUTextureViewDimension_2D;
  d.nextInChain = &bvd.chain;
  CHECK(tex_error(&ctx, d));

  /* Views. */
  d = good();
  WGPUTextureFormat srgb = WGPUTextureFormat_RGBA8UnormSrgb;
  d.viewFormatCount = 1;
  d.viewFormats = &srgb;
  WGPUTexture t = NULL;
  WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
  WGPUTextureView ok = NULL;
  if (harness_backend(&ctx) == WGPUBackendType_OpenGL) {
    CHECK(tex_error(&ctx, d));
    d = good();
    EXPECT_NO_VALIDATION(&ctx, t = wgpuDeviceCreateTexture(ctx.device, &d));
    REQUIRE(t != NULL);
    vd.format = WGPUTextureFormat_RGBA8UnormSrgb;
    CHECK(view_error(&ctx, t, vd));
  } else {
    EXPECT_NO_VALIDATION(&ctx, t = wgpuDeviceCreateTexture(ctx.device, &d));
    REQUIRE(t != NULL);
    vd.format = WGPUTextureFormat_RGBA8UnormSrgb;
    EXPECT_NO_VALIDATION(&ctx, ok = wgpuTextureCreateView(t, &vd));
    CHECK(ok != NULL);
  }
  vd.format = WGPUTextureFormat_R32Float;
  CHECK(view_error(&ctx, t, vd));
  vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
  vd.dimension = (WGPUTextureViewDimension)0x99;
  CHECK(view_error(&ctx, t, vd));
  vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
  vd.mipLevelCount = 2;
  CHECK(view_error(&ctx, t, vd));
  vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
  WGPUTextureComponentSwizzleDescriptor sw = WGPU_TEXTURE_COMPONENT_SWIZZLE_DESCRIPTOR_INIT;
  vd.nextInChain = &sw.chain;
  WGPUTextureView ident = NULL;
  EXPECT_NO_VALIDATION(&ctx, ident = wgpuTextureCreateView(t, &vd));
  CHECK(ident != NULL);
  if (ident) wgpuTextureViewRelease(ident);
  sw.swizzle.r = WGPUComponentSwizzle_R;
  sw.swizzle.a = WGPUComponentSwizzle_A;
  EXPECT_NO_VALIDATION(&ctx, ident = wgpuTextureCreateView(t, &vd));
  if (ident) wgpuTextureViewRelease(ident);
  sw.swizzle.g = WGPUComponentSwizzle_Zero;
  CHECK(view_error(&ctx, t, vd));

  /* A view of an invalid texture. */
  d = good();
  d.usage = WGPUTextureUsage_None;
  WGPUTexture bad = NULL;
  EXPECT_VALIDATION(&ctx, bad = wgpuDeviceCreateTexture(ctx.device, &d));
  REQUIRE(bad != NULL);
  vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
  CHECK(view_error(&ctx, bad, vd));

  /* Samplers. */
  WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
  sd.lodMinClamp = 10.f;
  sd.lodMaxClamp = 2.f;
  CHECK(sampler_error(&ctx, sd));
  sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
  sd.addressModeV = (WGPUAddressMode)0x42;
  CHECK(sampler_error(&ctx, sd));
  sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
  sd.maxAnisotropy = 0;
  CHECK(sampler_error(&ctx, sd));

  /* NULL device / texture are rejected (logged), not crashes. */
  CHECK(wgpuDeviceCreateTexture(NULL, &d) == NULL);
  CHECK(wgpuDeviceCreateTexture(ctx.device, NULL) == NULL);
  CHECK(wgpuTextureCreateView(NULL, NULL) == NULL);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  wgpuTextureRelease(bad);
  if (ok) wgpuTextureViewRelease(ok);
  wgpuTextureRelease(t);
  ctx_release(&ctx);
  return test_finish();
}
