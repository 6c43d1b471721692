/* Rule (WebGPU createRenderBundleEncoder): a render bundle encoder needs at
 * least one attachment (a colour format or a depth-stencil format), each
 * colour format must be colour-renderable (not R8Snorm, RG8Snorm, RGBA8Snorm,
 * nor a depth format), and the depth-stencil format must be a depth or
 * stencil one. Otherwise creation is a validation error and Finish raises
 * again (the encoder is invalid); wgpu-core 30 accepts all of these. Valid
 * descriptors (a colour format, a hole before one, a depth format alone)
 * raise nothing. wgpu-native compatibility keeps attachment-less encoders
 * (DECISIONS), tested by compat.* tests, not here. */
#include "render_util.h"

static WGPURenderBundleEncoder make(Ctx *ctx, const WGPUTextureFormat *colors, size_t n, WGPUTextureFormat ds) {
  WGPURenderBundleEncoderDescriptor d = WGPU_RENDER_BUNDLE_ENCODER_DESCRIPTOR_INIT;
  d.colorFormatCount = n;
  d.colorFormats = colors;
  d.depthStencilFormat = ds;
  (void)ctx;
  return wgpuDeviceCreateRenderBundleEncoder(ctx->device, &d);
}

/* Creation raises a validation error naming `what`, the encoder is not NULL,
 * and its Finish raises one again and gives a (invalid) bundle. */
static void expect_invalid(Ctx *ctx, const WGPUTextureFormat *colors, size_t n, WGPUTextureFormat ds, const char *what) {
  PopResult r;
  WGPURenderBundleEncoder be = NULL;
  RU_CAPTURE(ctx, &r, be = make(ctx, colors, n, ds));
  char buf[1024];
  snprintf(buf, sizeof buf, "creating a bundle encoder with %s is a validation error (got type %d: %s)", what,
           (int)r.type, r.msg);
  harness_check(r.type == WGPUErrorType_Validation, buf, __FILE__, __LINE__);
  CHECK(be != NULL);
  if (!be) return;
  WGPURenderBundle b = NULL;
  EXPECT_VALIDATION(ctx, b = wgpuRenderBundleEncoderFinish(be, NULL));
  CHECK(b != NULL);
  if (b) wgpuRenderBundleRelease(b);
  wgpuRenderBundleEncoderRelease(be);
}

static void expect_valid(Ctx *ctx, const WGPUTextureFormat *colors, size_t n, WGPUTextureFormat ds) {
  WGPURenderBundleEncoder be = NULL;
  WGPURenderBundle b = NULL;
  EXPECT_NO_VALIDATION(ctx, {
    be = make(ctx, colors, n, ds);
    b = wgpuRenderBundleEncoderFinish(be, NULL);
  });
  CHECK(b != NULL);
  if (b) wgpuRenderBundleRelease(b);
  if (be) wgpuRenderBundleEncoderRelease(be);
}

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  WGPUTextureFormat hole = WGPUTextureFormat_Undefined;
  expect_invalid(&ctx, NULL, 0, WGPUTextureFormat_Undefined, "no attachment at all");
  expect_invalid(&ctx, &hole, 1, WGPUTextureFormat_Undefined, "only an Undefined colour format");
  const WGPUTextureFormat not_renderable[] = {WGPUTextureFormat_R8Snorm, WGPUTextureFormat_RG8Snorm,
                                              WGPUTextureFormat_RGBA8Snorm, WGPUTextureFormat_Depth24Plus,
                                              WGPUTextureFormat_Depth32Float};
  const char *names[] = {"R8Snorm", "RG8Snorm", "RGBA8Snorm", "Depth24Plus as a colour", "Depth32Float as a colour"};
  for (size_t i = 0; i < sizeof not_renderable / sizeof not_renderable[0]; i++)
    expect_invalid(&ctx, &not_renderable[i], 1, WGPUTextureFormat_Undefined, names[i]);
  WGPUTextureFormat rgba = WGPUTextureFormat_RGBA8Unorm;
  expect_invalid(&ctx, &rgba, 1, WGPUTextureFormat_RGBA8Unorm, "RGBA8Unorm as depthStencilFormat");

  expect_valid(&ctx, &rgba, 1, WGPUTextureFormat_Undefined);
  const WGPUTextureFormat with_hole[] = {WGPUTextureFormat_Undefined, WGPUTextureFormat_BGRA8Unorm};
  expect_valid(&ctx, with_hole, 2, WGPUTextureFormat_Undefined);
  expect_valid(&ctx, NULL, 0, WGPUTextureFormat_Depth24Plus);
  expect_valid(&ctx, &rgba, 1, WGPUTextureFormat_Depth24PlusStencil8);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
