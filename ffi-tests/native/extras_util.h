/* Helpers for the tests of wgpu.h's chained structs ("extras"): a device
 * with chosen native features, a render pipeline of two modules, a draw
 * into a small target that is read back, and a one-buffer compute run. */
#ifndef WGPU_SHIM_EXTRAS_UTIL_H
#define WGPU_SHIM_EXTRAS_UTIL_H

#include "../textures/tex_util.h"

#include "native_util.h"

/* The side of the square render target of eu_draw. */
#define EU_SIZE 64u

/* Fills *ctx with an instance, an adapter and a device with the `count`
 * device features of `features` (uncaptured errors are counted in ctx).
 * With features, the device also asks for binding arrays of 16 elements per
 * stage (WGPUNativeLimits: the default is none, as in wgpu-core). Returns 0
 * on success; -3 when the device request failed. */
static inline uint32_t eu_adapter_binding_arrays(void);
static inline int eu_ctx(Ctx *ctx, const WGPUFeatureName *features, size_t count) {
  WGPUDeviceDescriptor ddesc = WGPU_DEVICE_DESCRIPTOR_INIT;
  ddesc.requiredFeatureCount = count;
  ddesc.requiredFeatures = features;
  WGPUNativeLimits native = WGPU_NATIVE_LIMITS_INIT;
  /* 16, or fewer where the adapter has fewer (OpenGL has none). */
  uint32_t arrays = eu_adapter_binding_arrays();
  native.maxBindingArrayElementsPerShaderStage = arrays < 16 ? arrays : 16;
  native.maxBindingArraySamplerElementsPerShaderStage = arrays < 16 ? arrays : 16;
  WGPULimits limits = WGPU_LIMITS_INIT;
  limits.nextInChain = &native.chain;
  if (count > 0) ddesc.requiredLimits = &limits;
  ddesc.uncapturedErrorCallbackInfo.callback = ctx_on_uncaptured;
  ddesc.uncapturedErrorCallbackInfo.userdata1 = ctx;
  return ctx_init_desc(ctx, &ddesc);
}

/* Whether the adapter of a fresh instance has `feature` (so a test can
 * choose what to request). */
static inline int eu_adapter_has(WGPUFeatureName feature) {
  WGPUInstance instance = create_instance(1);
  if (!instance) return 0;
  WGPUAdapter adapter = request_adapter(instance, UINT64_MAX);
  int has = adapter && wgpuAdapterHasFeature(adapter, feature);
  if (adapter) wgpuAdapterRelease(adapter);
  wgpuInstanceRelease(instance);
  return has;
}

/* The adapter's WGPUNativeLimits.maxBindingArrayElementsPerShaderStage
 * (0 when its limits cannot be read). */
static inline uint32_t eu_adapter_binding_arrays(void) {
  WGPUInstance instance = create_instance(1);
  if (!instance) return 0;
  WGPUAdapter adapter = request_adapter(instance, UINT64_MAX);
  WGPUNativeLimits native = WGPU_NATIVE_LIMITS_INIT;
  WGPULimits limits = WGPU_LIMITS_INIT;
  limits.nextInChain = &native.chain;
  uint32_t n = 0;
  if (adapter && wgpuAdapterGetLimits(adapter, &limits) == WGPUStatus_Success) n = native.maxBindingArrayElementsPerShaderStage;
  if (adapter) wgpuAdapterRelease(adapter);
  wgpuInstanceRelease(instance);
  return n;
}

/* A render pipeline (auto layout, no vertex buffers, one RGBA8Unorm
 * target, triangle list) of the two modules' entry points; the primitive
 * state's chain is `primitive_chain`. */
static inline WGPURenderPipeline eu_pipeline(Ctx *ctx, WGPUShaderModule vs, const char *vs_entry,
                                             WGPUShaderModule fs, const char *fs_entry,
                                             WGPUChainedStruct *primitive_chain) {
  WGPUColorTargetState target = WGPU_COLOR_TARGET_STATE_INIT;
  target.format = WGPUTextureFormat_RGBA8Unorm;
  WGPUFragmentState fragment = WGPU_FRAGMENT_STATE_INIT;
  fragment.module = fs;
  fragment.entryPoint = sv(fs_entry);
  fragment.targetCount = 1;
  fragment.targets = &target;
  WGPURenderPipelineDescriptor desc = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
  desc.vertex.module = vs;
  desc.vertex.entryPoint = sv(vs_entry);
  desc.primitive.topology = WGPUPrimitiveTopology_TriangleList;
  desc.primitive.nextInChain = primitive_chain;
  desc.fragment = &fragment;
  return wgpuDeviceCreateRenderPipeline(ctx->device, &desc);
}

/* Draws 3 vertices with `pipeline` into an EU_SIZE x EU_SIZE RGBA8Unorm
 * target cleared to transparent black, and reads it back into px
 * (EU_SIZE * EU_SIZE * 4 bytes). Returns 1 on success. */
static inline int eu_draw(Ctx *ctx, WGPURenderPipeline pipeline, uint8_t *px) {
  WGPUTexture target = tu_texture(ctx, EU_SIZE, EU_SIZE, WGPUTextureFormat_RGBA8Unorm,
                                  WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
  if (!target) return 0;
  WGPUTextureView view = wgpuTextureCreateView(target, NULL);
  WGPURenderPassColorAttachment color = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
  color.view = view;
  color.loadOp = WGPULoadOp_Clear;
  color.storeOp = WGPUStoreOp_Store;
  color.clearValue = (WGPUColor){0, 0, 0, 0};
  WGPURenderPassDescriptor rp = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
  rp.colorAttachmentCount = 1;
  rp.colorAttachments = &color;
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &rp);
  wgpuRenderPassEncoderSetPipeline(pass, pipeline);
  wgpuRenderPassEncoderDraw(pass, 3, 1, 0, 0);
  wgpuRenderPassEncoderEnd(pass);
  wgpuRenderPassEncoderRelease(pass);
  submit_encoder(ctx, enc);
  int ok = tu_read_rgba8(ctx, target, EU_SIZE, EU_SIZE, px);
  wgpuTextureViewRelease(view);
  wgpuTextureRelease(target);
  return ok;
}

/* The number of pixels of px (from eu_draw) whose channel `c` is above half. */
static inline int eu_count(const uint8_t *px, int c) {
  int n = 0;
  for (size_t i = 0; i < EU_SIZE * EU_SIZE; i++) n += px[i * 4 + (size_t)c] > 127;
  return n;
}

/* Whether pixel (x, y) of px has channel `c` above half. */
static inline int eu_lit(const uint8_t *px, uint32_t x, uint32_t y, int c) {
  return px[((size_t)y * EU_SIZE + x) * 4 + (size_t)c] > 127;
}

/* Runs `module`'s entry point "main" (auto layout) over `groups`
 * workgroups with a storage buffer of `size` bytes at group 0 binding 0
 * and reads the buffer back into out. Returns 1 on success. */
static inline int eu_compute(Ctx *ctx, WGPUShaderModule module, uint32_t groups, void *out, size_t size) {
  WGPUComputePipelineDescriptor pd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  pd.compute.module = module;
  pd.compute.entryPoint = sv("main");
  WGPUComputePipeline pipeline = wgpuDeviceCreateComputePipeline(ctx->device, &pd);
  WGPUBindGroupLayout bgl = wgpuComputePipelineGetBindGroupLayout(pipeline, 0);
  WGPUBuffer storage = make_buffer(ctx->device, size, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, 0);
  WGPUBindGroupEntry entry = WGPU_BIND_GROUP_ENTRY_INIT;
  entry.binding = 0;
  entry.buffer = storage;
  entry.size = size;
  WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  bd.layout = bgl;
  bd.entryCount = 1;
  bd.entries = &entry;
  WGPUBindGroup group = wgpuDeviceCreateBindGroup(ctx->device, &bd);
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, NULL);
  wgpuComputePassEncoderSetPipeline(pass, pipeline);
  wgpuComputePassEncoderSetBindGroup(pass, 0, group, 0, NULL);
  wgpuComputePassEncoderDispatchWorkgroups(pass, groups, 1, 1);
  wgpuComputePassEncoderEnd(pass);
  wgpuComputePassEncoderRelease(pass);
  submit_encoder(ctx, enc);
  int ok = mu_read_buffer(ctx, storage, 0, out, size);
  wgpuBindGroupRelease(group);
  wgpuBufferRelease(storage);
  wgpuBindGroupLayoutRelease(bgl);
  wgpuComputePipelineRelease(pipeline);
  return ok;
}

#endif
