/* WGPUSamplerDescriptorExtras (wgpu.h) chained to a sampler descriptor: with
 * address mode WGPUNativeAddressMode_ClampToBorder (device feature
 * AddressModeClampToBorder), a sample outside the texture reads the border
 * colour (opaque white, opaque black, transparent black; Zero with
 * AddressModeClampToZero), checked by a compute shader that writes what it
 * sampled to a storage buffer; inside, the texture's own red. An unknown
 * border colour, an unknown address mode, the struct chained where it does
 * not belong, and ClampToBorder or Zero on a device without their features
 * are validation errors, never a crash. */
#include "extras_util.h"

static const char *const WGSL =
    "@group(0) @binding(0) var t: texture_2d<f32>;\n"
    "@group(0) @binding(1) var s: sampler;\n"
    "@group(0) @binding(2) var<storage, read_write> out: array<vec4f, 2>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  out[0] = textureSampleLevel(t, s, vec2f(-1.0, -1.0), 0.0);\n"
    "  out[1] = textureSampleLevel(t, s, vec2f(0.5, 0.5), 0.0);\n"
    "}\n";

static WGPUSamplerDescriptorExtras extras_of(WGPUSamplerBorderColor color) {
  WGPUSamplerDescriptorExtras e;
  memset(&e, 0, sizeof e);
  e.chain.sType = (WGPUSType)WGPUSType_SamplerDescriptorExtras;
  e.samplerBorderColor = color;
  return e;
}

static WGPUSamplerDescriptor border_desc(WGPUSamplerDescriptorExtras *extras) {
  WGPUSamplerDescriptor d = WGPU_SAMPLER_DESCRIPTOR_INIT;
  d.addressModeU = d.addressModeV = d.addressModeW = (WGPUAddressMode)WGPUNativeAddressMode_ClampToBorder;
  d.nextInChain = extras ? &extras->chain : NULL;
  return d;
}

typedef struct {
  WGPUComputePipeline pipeline;
  WGPUBindGroupLayout layout;
  WGPUTextureView view;
  WGPUTexture texture;
  WGPUBuffer out;
} Rig;

static void rig_init(Ctx *ctx, Rig *rig) {
  WGPUShaderModule m = make_wgsl(ctx->device, WGSL);
  WGPUComputePipelineDescriptor pd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  pd.compute.module = m;
  pd.compute.entryPoint = sv("main");
  rig->pipeline = wgpuDeviceCreateComputePipeline(ctx->device, &pd);
  wgpuShaderModuleRelease(m);
  rig->layout = wgpuComputePipelineGetBindGroupLayout(rig->pipeline, 0);
  rig->texture = tu_texture(ctx, 2, 2, WGPUTextureFormat_RGBA8Unorm,
                            WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
  const uint8_t red[16] = {255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255};
  WGPUTexelCopyTextureInfo dst = tu_tex_info(rig->texture);
  WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
  layout.bytesPerRow = 8;
  WGPUExtent3D size = {2, 2, 1};
  wgpuQueueWriteTexture(ctx->queue, &dst, red, sizeof red, &layout, &size);
  rig->view = wgpuTextureCreateView(rig->texture, NULL);
  rig->out = make_buffer(ctx->device, 32, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, 0);
}

static void rig_release(Rig *rig) {
  wgpuBufferRelease(rig->out);
  wgpuTextureViewRelease(rig->view);
  wgpuTextureRelease(rig->texture);
  wgpuBindGroupLayoutRelease(rig->layout);
  wgpuComputePipelineRelease(rig->pipeline);
}

/* Samples outside (got[0..3]) and inside (got[4..7]) the texture with a
 * sampler of `desc`. Returns 1 on success. */
static int sample(Ctx *ctx, Rig *rig, const WGPUSamplerDescriptor *desc, float got[8]) {
  WGPUSampler s = wgpuDeviceCreateSampler(ctx->device, desc);
  WGPUBindGroupEntry e[3] = {WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT};
  e[0].binding = 0;
  e[0].textureView = rig->view;
  e[1].binding = 1;
  e[1].sampler = s;
  e[2].binding = 2;
  e[2].buffer = rig->out;
  e[2].size = 32;
  WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  bd.layout = rig->layout;
  bd.entryCount = 3;
  bd.entries = e;
  WGPUBindGroup g = wgpuDeviceCreateBindGroup(ctx->device, &bd);
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, NULL);
  wgpuComputePassEncoderSetPipeline(pass, rig->pipeline);
  wgpuComputePassEncoderSetBindGroup(pass, 0, g, 0, NULL);
  wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
  wgpuComputePassEncoderEnd(pass);
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  wgpuQueueSubmit(ctx->queue, 1, &cmd);
  int ok = mu_read_buffer(ctx, rig->out, 0, got, 8 * sizeof(float));
  wgpuCommandBufferRelease(cmd);
  wgpuComputePassEncoderRelease(pass);
  wgpuCommandEncoderRelease(enc);
  wgpuBindGroupRelease(g);
  wgpuSamplerRelease(s);
  return ok;
}

static int near(const float *got, float r, float g, float b, float a) {
  const float want[4] = {r, g, b, a};
  for (int i = 0; i < 4; i++)
    if (got[i] < want[i] - 0.01f || got[i] > want[i] + 0.01f) return 0;
  return 1;
}

/* Creates a sampler of `desc` and checks that it raises a validation error
 * whose message contains `needle` (NULL: any). */
static void expect_sampler_error(Ctx *ctx, const WGPUSamplerDescriptor *desc, const char *needle) {
  PopResult r;
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUSampler s = wgpuDeviceCreateSampler(ctx->device, desc);
  CHECK(mu_pop_full(ctx->instance, ctx->device, &r));
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  if (needle && !strstr(r.msg, needle)) {
    fprintf(stderr, "  message %s lacks %s\n", r.msg, needle);
    CHECK(!"the message names the cause");
  }
  CHECK(s != NULL);
  if (s) wgpuSamplerRelease(s);
}

int main(void) {
  start_watchdog(60);
  int has_border = eu_adapter_has((WGPUFeatureName)WGPUNativeFeature_AddressModeClampToBorder);
  int has_zero = eu_adapter_has((WGPUFeatureName)WGPUNativeFeature_AddressModeClampToZero);
  printf("adapter: AddressModeClampToBorder %d, AddressModeClampToZero %d\n", has_border, has_zero);
  Ctx ctx;
  if (has_border) {
    WGPUFeatureName features[2] = {(WGPUFeatureName)WGPUNativeFeature_AddressModeClampToBorder,
                                   (WGPUFeatureName)WGPUNativeFeature_AddressModeClampToZero};
    REQUIRE(eu_ctx(&ctx, features, has_zero ? 2 : 1) == 0);
    Rig rig;
    rig_init(&ctx, &rig);
    wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
    float got[8];
    const struct {
      WGPUSamplerBorderColor color;
      float rgba[4];
    } cases[] = {
        {WGPUSamplerBorderColor_OpaqueWhite, {1, 1, 1, 1}},
        {WGPUSamplerBorderColor_OpaqueBlack, {0, 0, 0, 1}},
        {WGPUSamplerBorderColor_TransparentBlack, {0, 0, 0, 0}},
        {WGPUSamplerBorderColor_Zero, {0, 0, 0, 0}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      if (cases[i].color == WGPUSamplerBorderColor_Zero && !has_zero) continue;
      WGPUSamplerDescriptorExtras extras = extras_of(cases[i].color);
      WGPUSamplerDescriptor d = border_desc(&extras);
      memset(got, 0, sizeof got);
      CHECK(sample(&ctx, &rig, &d, got));
      printf("border %u: outside %.2f %.2f %.2f %.2f, inside %.2f %.2f %.2f %.2f\n", (unsigned)cases[i].color,
             got[0], got[1], got[2], got[3], got[4], got[5], got[6], got[7]);
      CHECK(near(got, cases[i].rgba[0], cases[i].rgba[1], cases[i].rgba[2], cases[i].rgba[3]));
      CHECK(near(got + 4, 1, 0, 0, 1));
    }
    /* ClampToBorder with no extras: transparent black. */
    WGPUSamplerDescriptor d = border_desc(NULL);
    memset(got, 0, sizeof got);
    CHECK(sample(&ctx, &rig, &d, got));
    CHECK(near(got, 0, 0, 0, 0));
    /* The extras with clamp-to-edge: the colour is not used. */
    WGPUSamplerDescriptorExtras white = extras_of(WGPUSamplerBorderColor_OpaqueWhite);
    WGPUSamplerDescriptor edge = WGPU_SAMPLER_DESCRIPTOR_INIT;
    edge.nextInChain = &white.chain;
    memset(got, 0, sizeof got);
    CHECK(sample(&ctx, &rig, &edge, got));
    CHECK(near(got, 1, 0, 0, 1));
    CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
    rig_release(&rig);

    /* An unknown border colour and address mode. */
    WGPUSamplerDescriptorExtras bad = extras_of((WGPUSamplerBorderColor)9);
    d = border_desc(&bad);
    expect_sampler_error(&ctx, &d, "samplerBorderColor");
    d = border_desc(NULL);
    d.addressModeV = (WGPUAddressMode)5;
    expect_sampler_error(&ctx, &d, "addressModeV");
    CHECK_EQ(ctx.uncaptured_errors, 0);
    ctx_release(&ctx);
  }

  /* Without the features. */
  REQUIRE(eu_ctx(&ctx, NULL, 0) == 0);
  WGPUSamplerDescriptorExtras white = extras_of(WGPUSamplerBorderColor_OpaqueWhite);
  WGPUSamplerDescriptor d = border_desc(&white);
  expect_sampler_error(&ctx, &d, "ADDRESS_MODE_CLAMP_TO_BORDER");
  WGPUSamplerDescriptorExtras zero = extras_of(WGPUSamplerBorderColor_Zero);
  WGPUSamplerDescriptor zd = WGPU_SAMPLER_DESCRIPTOR_INIT;
  zd.nextInChain = &zero.chain;
  expect_sampler_error(&ctx, &zd, "ADDRESS_MODE_CLAMP_TO_ZERO");

  /* The extras chained where wgpu.h does not put them: a texture view
   * descriptor. */
  WGPUTexture t = tu_texture(&ctx, 2, 2, WGPUTextureFormat_RGBA8Unorm, WGPUTextureUsage_TextureBinding);
  WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
  vd.nextInChain = &white.chain;
  WGPUTextureView v = NULL;
  EXPECT_VALIDATION(&ctx, v = wgpuTextureCreateView(t, &vd));
  if (v) wgpuTextureViewRelease(v);
  wgpuTextureRelease(t);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
