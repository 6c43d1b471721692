/* Helpers for the render/set_bind_group_*.c tests (and the NULL-slot
 * pipeline cases of objects/pipeline_layout_rules.c): one programmable
 * encoder (a compute pass, a render pass or a render bundle encoder) to call
 * SetBindGroup on, then finished and submitted step by step. */
#ifndef WGPU_SHIM_SET_BIND_GROUP_UTIL_H
#define WGPU_SHIM_SET_BIND_GROUP_UTIL_H

#include "../objects/bind_group_util.h"

typedef enum { SBG_COMPUTE_PASS, SBG_RENDER_PASS, SBG_RENDER_BUNDLE, SBG_KINDS } SbgKind;
static const char *const SBG_KIND_NAMES[] = {"compute pass", "render pass", "render bundle"};

typedef struct {
  SbgKind kind;
  WGPUCommandEncoder enc;
  WGPUComputePassEncoder cpass;
  WGPURenderPassEncoder rpass;
  WGPURenderBundleEncoder bundle;
  WGPUTexture target;
  WGPUTextureView view;
} SbgEncoder;

/* The format of the render pass's (and bundle's) one color target. */
static const WGPUTextureFormat SBG_TARGET_FORMAT = WGPUTextureFormat_RGBA8Unorm;

/* The stage a bind group layout for this kind of encoder is visible to. */
static inline WGPUShaderStage sbg_stage(SbgKind k) {
  return k == SBG_COMPUTE_PASS ? WGPUShaderStage_Compute : WGPUShaderStage_Fragment;
}

static inline void sbg_begin(Ctx *ctx, SbgEncoder *e, SbgKind kind) {
  memset(e, 0, sizeof *e);
  e->kind = kind;
  e->enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  if (kind == SBG_COMPUTE_PASS) {
    e->cpass = wgpuCommandEncoderBeginComputePass(e->enc, NULL);
    return;
  }
  e->target = tu_texture(ctx, 16, 16, SBG_TARGET_FORMAT, WGPUTextureUsage_RenderAttachment);
  e->view = wgpuTextureCreateView(e->target, NULL);
  WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
  ca.view = e->view;
  ca.loadOp = WGPULoadOp_Clear;
  ca.storeOp = WGPUStoreOp_Store;
  WGPURenderPassDescriptor rpd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
  rpd.colorAttachmentCount = 1;
  rpd.colorAttachments = &ca;
  e->rpass = wgpuCommandEncoderBeginRenderPass(e->enc, &rpd);
  if (kind == SBG_RENDER_BUNDLE) e->bundle = ru_bundle_encoder(ctx->device, &SBG_TARGET_FORMAT);
}

static inline void sbg_set(SbgEncoder *e, uint32_t index, WGPUBindGroup g, size_t n, const uint32_t *offsets) {
  switch (e->kind) {
    case SBG_COMPUTE_PASS: wgpuComputePassEncoderSetBindGroup(e->cpass, index, g, n, offsets); break;
    case SBG_RENDER_PASS: wgpuRenderPassEncoderSetBindGroup(e->rpass, index, g, n, offsets); break;
    default: wgpuRenderBundleEncoderSetBindGroup(e->bundle, index, g, n, offsets); break;
  }
}

/* Ends the pass (finishing and executing the bundle first) and finishes the
 * command encoder; returns the command buffer. */
static inline WGPUCommandBuffer sbg_finish(SbgEncoder *e) {
  if (e->kind == SBG_COMPUTE_PASS) {
    wgpuComputePassEncoderEnd(e->cpass);
  } else {
    if (e->bundle) {
      WGPURenderBundle b = wgpuRenderBundleEncoderFinish(e->bundle, NULL);
      wgpuRenderPassEncoderExecuteBundles(e->rpass, 1, &b);
      if (b) wgpuRenderBundleRelease(b);
    }
    wgpuRenderPassEncoderEnd(e->rpass);
  }
  return wgpuCommandEncoderFinish(e->enc, NULL);
}

static inline void sbg_release(SbgEncoder *e) {
  if (e->cpass) wgpuComputePassEncoderRelease(e->cpass);
  if (e->rpass) wgpuRenderPassEncoderRelease(e->rpass);
  if (e->bundle) wgpuRenderBundleEncoderRelease(e->bundle);
  if (e->enc) wgpuCommandEncoderRelease(e->enc);
  if (e->view) wgpuTextureViewRelease(e->view);
  if (e->target) wgpuTextureRelease(e->target);
  memset(e, 0, sizeof *e);
}

/* Finishes e expecting a validation error there (finish_ok = 0) or not; when
 * it finished cleanly, submits expecting an error (submit_ok = 0) or not.
 * Releases e. Failures name the current case and the caller's line. */
#define sbg_validate(ctx, e, finish_ok, submit_ok) sbg_validate_(ctx, e, finish_ok, submit_ok, __FILE__, __LINE__)
static inline void sbg_validate_(Ctx *ctx, SbgEncoder *e, int finish_ok, int submit_ok, const char *file, int line) {
  char name[256];
  snprintf(name, sizeof name, "%s", bg_case_);
  WGPUCommandBuffer cb = NULL;
  bg_case("%s [at Finish]", name);
  BG_EXPECT_AT(ctx, !finish_ok, file, line, cb = sbg_finish(e));
  if (finish_ok && cb) {
    bg_case("%s [at Submit]", name);
    BG_EXPECT_AT(ctx, !submit_ok, file, line, wgpuQueueSubmit(ctx->queue, 1, &cb));
  }
  if (cb) wgpuCommandBufferRelease(cb);
  sbg_release(e);
  bg_case("%s", name);
}

#endif
