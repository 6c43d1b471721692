/* WGPUBindGroupLayoutEntryExtras and WGPUBindGroupEntryExtras (wgpu.h):
 * binding arrays. Where the adapter has TextureBindingArray, a layout
 * entry with `count` 2 and a bind group entry with two texture views feed
 * a compute shader that reads both textures (checked through a storage
 * buffer), and a sampler array is made the same way. Everywhere (lavapipe
 * has no binding arrays): requesting the feature the adapter lacks fails
 * the request; an array layout on a device without the feature is a
 * validation error naming the feature; a bind group whose entry names both
 * its own resource and a list, a NULL handle in a list, a list where the
 * layout has no array, a count that contradicts bindingArraySize, and each
 * struct chained to the other's struct are validation errors, never a
 * crash. */
#include "extras_util.h"

static const char *const WGSL =
    "@group(0) @binding(0) var textures: binding_array<texture_2d<f32>, 2>;\n"
    "@group(0) @binding(1) var<storage, read_write> out: array<vec4f, 2>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  out[0] = textureLoad(textures[0], vec2i(0, 0), 0);\n"
    "  out[1] = textureLoad(textures[1], vec2i(0, 0), 0);\n"
    "}\n";

static WGPUBindGroupLayoutEntryExtras layout_extras(uint32_t count) {
  WGPUBindGroupLayoutEntryExtras e;
  memset(&e, 0, sizeof e);
  e.chain.sType = (WGPUSType)WGPUSType_BindGroupLayoutEntryExtras;
  e.count = count;
  return e;
}

static WGPUBindGroupEntryExtras entry_extras(void) {
  WGPUBindGroupEntryExtras e;
  memset(&e, 0, sizeof e);
  e.chain.sType = (WGPUSType)WGPUSType_BindGroupEntryExtras;
  return e;
}

/* A texture binding layout entry (2D float, compute) at `binding`. */
static WGPUBindGroupLayoutEntry texture_entry(uint32_t binding, WGPUChainedStruct *chain) {
  WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  e.binding = binding;
  e.visibility = WGPUShaderStage_Compute;
  e.texture.sampleType = WGPUTextureSampleType_Float;
  e.texture.viewDimension = WGPUTextureViewDimension_2D;
  e.nextInChain = chain;
  return e;
}

static WGPUBindGroupLayout layout_of(Ctx *ctx, const WGPUBindGroupLayoutEntry *entries, size_t count) {
  WGPUBindGroupLayoutDescriptor d = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  d.entryCount = count;
  d.entries = entries;
  return wgpuDeviceCreateBindGroupLayout(ctx->device, &d);
}

static WGPUBindGroup group_of(Ctx *ctx, WGPUBindGroupLayout layout, const WGPUBindGroupEntry *entries, size_t count) {
  WGPUBindGroupDescriptor d = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  d.layout = layout;
  d.entryCount = count;
  d.entries = entries;
  return wgpuDeviceCreateBindGroup(ctx->device, &d);
}

/* A 1x1 RGBA8Unorm texture of one colour. */
static WGPUTexture texel(Ctx *ctx, const uint8_t rgba[4]) {
  WGPUTexture t = tu_texture(ctx, 1, 1, WGPUTextureFormat_RGBA8Unorm,
                             WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
  WGPUTexelCopyTextureInfo dst = tu_tex_info(t);
  WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
  layout.bytesPerRow = 4;
  WGPUExtent3D size = {1, 1, 1};
  wgpuQueueWriteTexture(ctx->queue, &dst, rgba, 4, &layout, &size);
  return t;
}

/* Returns the validation error message raised by creating a bind group
 * layout of `entries` (empty when none). */
static void layout_error(Ctx *ctx, const WGPUBindGroupLayoutEntry *entries, size_t count, PopResult *r) {
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUBindGroupLayout l = layout_of(ctx, entries, count);
  CHECK(mu_pop_full(ctx->instance, ctx->device, r));
  CHECK(l != NULL);
  if (l) wgpuBindGroupLayoutRelease(l);
}

static void group_error(Ctx *ctx, WGPUBindGroupLayout layout, const WGPUBindGroupEntry *entries, size_t count,
                        PopResult *r) {
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUBindGroup g = group_of(ctx, layout, entries, count);
  CHECK(mu_pop_full(ctx->instance, ctx->device, r));
  CHECK(g != NULL);
  if (g) wgpuBindGroupRelease(g);
}

/* The arrays at work, on a device with TextureBindingArray. */
static void arrays_work(void) {
  WGPUFeatureName features[] = {(WGPUFeatureName)WGPUNativeFeature_TextureBindingArray};
  Ctx ctx;
  if (eu_ctx(&ctx, features, 1) != 0) {
    CHECK(!"a device with TextureBindingArray");
    ctx_release(&ctx);
    return;
  }
  CHECK(wgpuDeviceHasFeature(ctx.device, (WGPUFeatureName)WGPUNativeFeature_TextureBindingArray));
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  const uint8_t red[4] = {255, 0, 0, 255}, blue[4] = {0, 0, 255, 128};
  WGPUTexture t[2] = {texel(&ctx, red), texel(&ctx, blue)};
  WGPUTextureView v[2] = {wgpuTextureCreateView(t[0], NULL), wgpuTextureCreateView(t[1], NULL)};

  WGPUBindGroupLayoutEntryExtras two = layout_extras(2);
  WGPUBindGroupLayoutEntry le[2] = {texture_entry(0, &two.chain), WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT};
  le[1].binding = 1;
  le[1].visibility = WGPUShaderStage_Compute;
  le[1].buffer.type = WGPUBufferBindingType_Storage;
  WGPUBindGroupLayout bgl = layout_of(&ctx, le, 2);
  WGPUBuffer out = make_buffer(ctx.device, 32, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, 0);
  WGPUBindGroupEntryExtras views = entry_extras();
  views.textureViews = v;
  views.textureViewCount = 2;
  WGPUBindGroupEntry be[2] = {WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT};
  be[0].binding = 0;
  be[0].nextInChain = &views.chain;
  be[1].binding = 1;
  be[1].buffer = out;
  be[1].size = 32;
  WGPUBindGroup group = group_of(&ctx, bgl, be, 2);

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
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
  WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, NULL);
  wgpuComputePassEncoderSetPipeline(pass, p);
  wgpuComputePassEncoderSetBindGroup(pass, 0, group, 0, NULL);
  wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
  wgpuComputePassEncoderEnd(pass);
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  wgpuQueueSubmit(ctx.queue, 1, &cmd);
  float got[8] = {0};
  CHECK(mu_read_buffer(&ctx, out, 0, got, sizeof got));
  printf("textures[0] = %.2f %.2f %.2f %.2f, textures[1] = %.2f %.2f %.2f %.2f\n", got[0], got[1], got[2], got[3],
         got[4], got[5], got[6], got[7]);
  CHECK(got[0] > 0.99f && got[1] < 0.01f && got[2] < 0.01f && got[3] > 0.99f);
  CHECK(got[4] < 0.01f && got[5] < 0.01f && got[6] > 0.99f && got[7] > 0.49f && got[7] < 0.51f);

  /* A sampler array. */
  WGPUBindGroupLayoutEntry se = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  se.binding = 0;
  se.visibility = WGPUShaderStage_Compute;
  se.sampler.type = WGPUSamplerBindingType_Filtering;
  se.nextInChain = &two.chain;
  WGPUBindGroupLayout sbgl = layout_of(&ctx, &se, 1);
  WGPUSampler s[2] = {wgpuDeviceCreateSampler(ctx.device, NULL), wgpuDeviceCreateSampler(ctx.device, NULL)};
  WGPUBindGroupEntryExtras samplers = entry_extras();
  samplers.samplers = s;
  samplers.samplerCount = 2;
  WGPUBindGroupEntry sbe = WGPU_BIND_GROUP_ENTRY_INIT;
  sbe.binding = 0;
  sbe.nextInChain = &samplers.chain;
  WGPUBindGroup sgroup = group_of(&ctx, sbgl, &sbe, 1);
  PopResult first;
  mu_pop_full(ctx.instance, ctx.device, &first);
  if (first.type != WGPUErrorType_NoError) printf("first error: %s\n", first.msg);
  CHECK_EQ(first.type, WGPUErrorType_NoError);

  wgpuBindGroupRelease(sgroup);
  wgpuSamplerRelease(s[1]);
  wgpuSamplerRelease(s[0]);
  wgpuBindGroupLayoutRelease(sbgl);
  wgpuCommandBufferRelease(cmd);
  wgpuComputePassEncoderRelease(pass);
  wgpuCommandEncoderRelease(enc);
  wgpuComputePipelineRelease(p);
  wgpuShaderModuleRelease(m);
  wgpuPipelineLayoutRelease(pl);
  wgpuBindGroupRelease(group);
  wgpuBufferRelease(out);
  wgpuBindGroupLayoutRelease(bgl);
  for (int i = 0; i < 2; i++) {
    wgpuTextureViewRelease(v[i]);
    wgpuTextureRelease(t[i]);
  }
  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
}

int main(void) {
  start_watchdog(60);
  int has_arrays = eu_adapter_has((WGPUFeatureName)WGPUNativeFeature_TextureBindingArray);
  printf("adapter: TextureBindingArray %d\n", has_arrays);
  Ctx ctx;
  if (has_arrays) {
    arrays_work();
  } else {
    /* Asking for what the adapter lacks fails the request cleanly. */
    WGPUFeatureName features[] = {(WGPUFeatureName)WGPUNativeFeature_TextureBindingArray};
    CHECK_EQ(eu_ctx(&ctx, features, 1), -3);
    ctx_release(&ctx);
  }

  REQUIRE(eu_ctx(&ctx, NULL, 0) == 0);
  PopResult r;

  /* An array layout without the feature. */
  WGPUBindGroupLayoutEntryExtras two = layout_extras(2);
  WGPUBindGroupLayoutEntry array_entry = texture_entry(0, &two.chain);
  layout_error(&ctx, &array_entry, 1, &r);
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  printf("array layout without the feature: %s\n", r.msg);
  CHECK(strstr(r.msg, "TEXTURE_BINDING_ARRAY") != NULL);

  /* count and bindingArraySize disagree. */
  array_entry.bindingArraySize = 3;
  layout_error(&ctx, &array_entry, 1, &r);
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  CHECK(strstr(r.msg, "bindingArraySize") != NULL);

  /* A count of 0 is no array: the layout is valid. */
  WGPUBindGroupLayoutEntryExtras zero = layout_extras(0);
  WGPUBindGroupLayoutEntry single = texture_entry(0, &zero.chain);
  layout_error(&ctx, &single, 1, &r);
  CHECK_EQ(r.type, WGPUErrorType_NoError);

  /* WGPUBindGroupEntryExtras does not extend a layout entry. */
  WGPUBindGroupEntryExtras stray = entry_extras();
  WGPUBindGroupLayoutEntry wrong = texture_entry(0, &stray.chain);
  layout_error(&ctx, &wrong, 1, &r);
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  CHECK(strstr(r.msg, "does not extend") != NULL);

  /* Bind groups against a valid single-texture layout. */
  WGPUBindGroupLayoutEntry plain = texture_entry(0, NULL);
  WGPUBindGroupLayout bgl = layout_of(&ctx, &plain, 1);
  const uint8_t red[4] = {255, 0, 0, 255};
  WGPUTexture t = texel(&ctx, red);
  WGPUTextureView v[2] = {wgpuTextureCreateView(t, NULL), wgpuTextureCreateView(t, NULL)};
  WGPUBindGroupEntryExtras views = entry_extras();
  views.textureViews = v;
  views.textureViewCount = 2;
  WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
  e.binding = 0;
  e.nextInChain = &views.chain;

  /* A list where the layout has a single texture: wgpu-core's error (the
   * list was read, not refused as an unknown struct). */
  group_error(&ctx, bgl, &e, 1, &r);
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  printf("list for a single binding: %s\n", r.msg);
  CHECK(strstr(r.msg, "sType") == NULL);

  /* The entry's own view and a list. */
  e.textureView = v[0];
  group_error(&ctx, bgl, &e, 1, &r);
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  CHECK(strstr(r.msg, "more than one resource") != NULL);
  e.textureView = NULL;

  /* A NULL handle in the list. */
  WGPUTextureView with_null[2] = {v[0], NULL};
  views.textureViews = with_null;
  group_error(&ctx, bgl, &e, 1, &r);
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  CHECK(strstr(r.msg, "textureViews[1] is NULL") != NULL);

  /* Empty lists name no resource. */
  views.textureViews = NULL;
  views.textureViewCount = 0;
  group_error(&ctx, bgl, &e, 1, &r);
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  CHECK(strstr(r.msg, "names no resource") != NULL);

  /* The entry's own view with an extras struct of empty lists chained:
   * one resource, a valid bind group. */
  e.textureView = v[0];
  group_error(&ctx, bgl, &e, 1, &r);
  CHECK_EQ(r.type, WGPUErrorType_NoError);
  e.textureView = NULL;

  /* WGPUBindGroupLayoutEntryExtras does not extend a bind group entry. */
  WGPUBindGroupLayoutEntryExtras misplaced = layout_extras(2);
  WGPUBindGroupEntry e2 = WGPU_BIND_GROUP_ENTRY_INIT;
  e2.binding = 0;
  e2.textureView = v[0];
  e2.nextInChain = &misplaced.chain;
  group_error(&ctx, bgl, &e2, 1, &r);
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  CHECK(strstr(r.msg, "does not extend") != NULL);

  /* A buffer list against a buffer layout entry without an array. */
  WGPUBindGroupLayoutEntry be = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  be.binding = 0;
  be.visibility = WGPUShaderStage_Compute;
  be.buffer.type = WGPUBufferBindingType_Storage;
  WGPUBindGroupLayout bbgl = layout_of(&ctx, &be, 1);
  WGPUBuffer buf[2] = {make_buffer(ctx.device, 16, WGPUBufferUsage_Storage, 0),
                       make_buffer(ctx.device, 16, WGPUBufferUsage_Storage, 0)};
  WGPUBindGroupEntryExtras buffers = entry_extras();
  buffers.buffers = buf;
  buffers.bufferCount = 2;
  WGPUBindGroupEntry e3 = WGPU_BIND_GROUP_ENTRY_INIT;
  e3.binding = 0;
  e3.nextInChain = &buffers.chain;
  group_error(&ctx, bbgl, &e3, 1, &r);
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  CHECK(strstr(r.msg, "sType") == NULL);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuBufferRelease(buf[0]);
  wgpuBufferRelease(buf[1]);
  wgpuBindGroupLayoutRelease(bbgl);
  wgpuTextureViewRelease(v[0]);
  wgpuTextureViewRelease(v[1]);
  wgpuTextureRelease(t);
  wgpuBindGroupLayoutRelease(bgl);
  ctx_release(&ctx);
  return test_finish();
}
