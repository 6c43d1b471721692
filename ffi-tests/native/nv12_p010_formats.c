/* wgpu.h's extra texture formats WGPUNativeTextureFormat_NV12 and _P010
 * (two-plane video formats). Where the adapter has TextureFormatNv12 /
 * TextureFormatP010, a device with the feature makes a texture of the
 * format and reports it back. Everywhere (lavapipe has neither): asking for
 * a feature the adapter lacks fails the device request, and a texture of
 * the format on a device without the feature is a validation error naming
 * the feature, as is a format value next to them that wgpu.h does not
 * define; never a crash. */
#include "extras_util.h"

static const struct {
  WGPUNativeFeature feature;
  WGPUNativeTextureFormat format;
  const char *flag;
} FORMATS[] = {
    {WGPUNativeFeature_TextureFormatNv12, WGPUNativeTextureFormat_NV12, "TEXTURE_FORMAT_NV12"},
    {WGPUNativeFeature_TextureFormatP010, WGPUNativeTextureFormat_P010, "TEXTURE_FORMAT_P010"},
};

static WGPUTexture video_texture(Ctx *ctx, WGPUTextureFormat format) {
  return tu_texture(ctx, 4, 4, format, WGPUTextureUsage_TextureBinding);
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  for (size_t i = 0; i < 2; i++) {
    WGPUFeatureName feature = (WGPUFeatureName)FORMATS[i].feature;
    WGPUTextureFormat format = (WGPUTextureFormat)FORMATS[i].format;
    int has = eu_adapter_has(feature);
    printf("adapter: %s %d\n", FORMATS[i].flag, has);
    if (!has) {
      CHECK_EQ(eu_ctx(&ctx, &feature, 1), -3);
      ctx_release(&ctx);
      continue;
    }
    WGPUFeatureName features[2] = {feature, (WGPUFeatureName)WGPUNativeFeature_TextureFormat16bitNorm};
    size_t count = FORMATS[i].format == WGPUNativeTextureFormat_P010 ? 2 : 1;
    REQUIRE(eu_ctx(&ctx, features, count) == 0);
    WGPUTexture t = NULL;
    EXPECT_NO_VALIDATION(&ctx, t = video_texture(&ctx, format));
    REQUIRE(t != NULL);
    CHECK_EQ(wgpuTextureGetFormat(t), format);
    wgpuTextureRelease(t);
    ctx_release(&ctx);
  }

  REQUIRE(eu_ctx(&ctx, NULL, 0) == 0);
  PopResult r;
  for (size_t i = 0; i < 2; i++) {
    wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
    WGPUTexture t = video_texture(&ctx, (WGPUTextureFormat)FORMATS[i].format);
    CHECK(mu_pop_full(ctx.instance, ctx.device, &r));
    CHECK_EQ(r.type, WGPUErrorType_Validation);
    printf("without the feature: %s\n", r.msg);
    CHECK(strstr(r.msg, FORMATS[i].flag) != NULL);
    CHECK(t != NULL);
    if (t) wgpuTextureRelease(t);
  }
  WGPUTexture t = NULL;
  EXPECT_VALIDATION(&ctx, t = video_texture(&ctx, (WGPUTextureFormat)(WGPUNativeTextureFormat_P010 + 1)));
  if (t) wgpuTextureRelease(t);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
