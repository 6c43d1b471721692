/* Rule (bind groups with textures and samplers): a compute shader reads a
 * sampled texture through a sampler (textureSampleLevel at texel centres,
 * nearest filtering) and writes a storage texture (textureStore), with an
 * explicit bind group layout of a texture, a sampler and a write-only
 * storage texture entry, and a bind group of a texture view, a sampler and a
 * texture view. Every output texel is the input texel with red and blue
 * swapped. Then a bind group whose sampler entry holds a texture view (kind
 * mismatch with the layout) is a validation error. */
#include "tex_util.h"

#define W 24u
#define H 10u

static const char *const WGSL =
    "@group(0) @binding(0) var src: texture_2d<f32>;\n"
    "@group(0) @binding(1) var samp: sampler;\n"
    "@group(0) @binding(2) var dst: texture_storage_2d<rgba8unorm, write>;\n"
    "@compute @workgroup_size(8, 8)\n"
    "fn main(@builtin(global_invocation_id) id: vec3u) {\n"
    "  let dims = textureDimensions(src);\n"
    "  if (id.x >= dims.x || id.y >= dims.y) { return; }\n"
    "  let uv = (vec2f(id.xy) + 0.5) / vec2f(dims);\n"
    "  let c = textureSampleLevel(src, samp, uv, 0.0);\n"
    "  textureStore(dst, vec2i(id.xy), c.bgra);\n"
    "}\n";

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);

  WGPUTexture in = tu_texture(&ctx, W, H, WGPUTextureFormat_RGBA8Unorm,
                              WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
  WGPUTexture out = tu_texture(&ctx, W, H, WGPUTextureFormat_RGBA8Unorm,
                               WGPUTextureUsage_StorageBinding | WGPUTextureUsage_CopySrc);
  REQUIRE(in && out);
  uint8_t src[W * H * 4];
  tu_fill(src, W, H, W * 4, 4);
  WGPUTexelCopyTextureInfo dst = tu_tex_info(in);
  WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
  layout.bytesPerRow = W * 4;
  WGPUExtent3D size = {W, H, 1};
  wgpuQueueWriteTexture(ctx.queue, &dst, src, sizeof src, &layout, &size);

  WGPUBindGroupLayoutEntry le[3] = {WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT, WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT,
                                    WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT};
  for (int i = 0; i < 3; i++) {
    le[i].binding = (uint32_t)i;
    le[i].visibility = WGPUShaderStage_Compute;
  }
  le[0].texture.sampleType = WGPUTextureSampleType_Float;
  le[0].texture.viewDimension = WGPUTextureViewDimension_2D;
  le[1].sampler.type = WGPUSamplerBindingType_Filtering;
  le[2].storageTexture.access = WGPUStorageTextureAccess_WriteOnly;
  le[2].storageTexture.format = WGPUTextureFormat_RGBA8Unorm;
  le[2].storageTexture.viewDimension = WGPUTextureViewDimension_2D;
  WGPUBindGroupLayoutDescriptor ld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  ld.entryCount = 3;
  ld.entries = le;
  WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(ctx.device, &ld);
  WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
  pld.bindGroupLayoutCount = 1;
  pld.bindGroupLayouts = &bgl;
  WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(ctx.device, &pld);
  WGPUShaderModule m = make_wgsl(ctx.device, WGSL);
  WGPUComputePipelineDescriptor pd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  pd.layout = pl;
  pd.compute.module = m;
  pd.compute.entryPoint = sv("main");
  WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(ctx.device, &pd);
  REQUIRE(p != NULL);

  WGPUTextureView vin = wgpuTextureCreateView(in, NULL);
  WGPUTextureView vout = wgpuTextureCreateView(out, NULL);
  WGPUSampler s = wgpuDeviceCreateSampler(ctx.device, NULL);
  WGPUBindGroupEntry e[3] = {WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT};
  e[0].binding = 0;
  e[0].textureView = vin;
  e[1].binding = 1;
  e[1].sampler = s;
  e[2].binding = 2;
  e[2].textureView = vout;
  WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  bd.layout = bgl;
  bd.entryCount = 3;
  bd.entries = e;
  WGPUBindGroup bg = wgpuDeviceCreateBindGroup(ctx.device, &bd);
  REQUIRE(bg != NULL);

  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
  WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, NULL);
  wgpuComputePassEncoderSetPipeline(pass, p);
  wgpuComputePassEncoderSetBindGroup(pass, 0, bg, 0, NULL);
  wgpuComputePassEncoderDispatchWorkgroups(pass, (W + 7) / 8, (H + 7) / 8, 1);
  wgpuComputePassEncoderEnd(pass);
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  wgpuQueueSubmit(ctx.queue, 1, &cmd);
  wgpuCommandBufferRelease(cmd);
  wgpuComputePassEncoderRelease(pass);
  wgpuCommandEncoderRelease(enc);

  uint8_t got[W * H * 4];
  memset(got, 0, sizeof got);
  CHECK(tu_read_rgba8(&ctx, out, W, H, got));
  for (size_t i = 0; i < W * H; i++) {
    uint8_t t = got[i * 4];
    got[i * 4] = got[i * 4 + 2];
    got[i * 4 + 2] = t;
  }
  CHECK_EQ(tu_mismatches(got, W, H, 4), 0);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);

  /* A texture view where the layout wants a sampler. */
  e[1].sampler = NULL;
  e[1].textureView = vin;
  WGPUBindGroup bad = NULL;
  EXPECT_VALIDATION(&ctx, bad = wgpuDeviceCreateBindGroup(ctx.device, &bd));
  CHECK(bad != NULL);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  if (bad) wgpuBindGroupRelease(bad);
  wgpuBindGroupRelease(bg);
  wgpuSamplerRelease(s);
  wgpuTextureViewRelease(vout);
  wgpuTextureViewRelease(vin);
  wgpuComputePipelineRelease(p);
  wgpuShaderModuleRelease(m);
  wgpuPipelineLayoutRelease(pl);
  wgpuBindGroupLayoutRelease(bgl);
  wgpuTextureRelease(out);
  wgpuTextureRelease(in);
  ctx_release(&ctx);
  return test_finish();
}
