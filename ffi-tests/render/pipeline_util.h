/* Shared helpers for the pipeline-creation tests (pipeline_*_state.c,
 * pipeline_inter_stage.c, pipeline_stage_modules_and_overrides.c,
 * compute_pipeline_*.c): the outcome check of one creation, and the cases
 * left out where the OpenGL backend lacks their subject. Builds on
 * render_util.h (RU_CAPTURE) and mapping_util.h (PopResult). */
#ifndef WGPU_SHIM_PIPELINE_UTIL_H
#define WGPU_SHIM_PIPELINE_UTIL_H

#include "render_util.h"

/* Fills *desc for the `vs` and `fs` entry points of m, with *fragment
 * and one RGBA8Unorm colour target *target (writeMask All, no blend), auto
 * layout, no vertex buffers and no depth-stencil state: the three are the
 * caller's storage, which must outlive the descriptor's use. */
static inline void pl_render_init(WGPURenderPipelineDescriptor *desc, WGPUFragmentState *fragment,
                                  WGPUColorTargetState *target, WGPUShaderModule m) {
  *target = WGPU_COLOR_TARGET_STATE_INIT;
  target->format = WGPUTextureFormat_RGBA8Unorm;
  *fragment = WGPU_FRAGMENT_STATE_INIT;
  fragment->module = m;
  fragment->entryPoint = sv("fs");
  fragment->targetCount = 1;
  fragment->targets = target;
  *desc = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
  desc->vertex.module = m;
  desc->vertex.entryPoint = sv("vs");
  desc->fragment = fragment;
}

/* A depth-stencil state of `format` with the given depth write and compare. */
static inline WGPUDepthStencilState pl_depth_state(WGPUTextureFormat format, WGPUOptionalBool write,
                                                   WGPUCompareFunction compare) {
  WGPUDepthStencilState ds = WGPU_DEPTH_STENCIL_STATE_INIT;
  ds.format = format;
  ds.depthWriteEnabled = write;
  ds.depthCompare = compare;
  return ds;
}

/* CHECKs that r is a validation error (want_error) or no error at all,
 * naming the case and what was raised in the failure message. */
static inline void pl_check_outcome(const PopResult *r, int want_error, const char *what) {
  char buf[2048];
  snprintf(buf, sizeof buf, "%s: expected %s (got type %d: %s)", what,
           want_error ? "a validation error" : "no error", (int)r->type, r->msg);
  harness_check(want_error ? r->type == WGPUErrorType_Validation : r->type == WGPUErrorType_NoError, buf, __FILE__,
                __LINE__);
}

/* Creates a render pipeline of *d in a Validation scope, checks the
 * outcome (pl_check_outcome) and that the pipeline is not NULL, and
 * releases it. */
static inline void pl_expect_render(Ctx *ctx, const WGPURenderPipelineDescriptor *d, int want_error,
                                    const char *what) {
  PopResult r;
  WGPURenderPipeline pipe = NULL;
  RU_CAPTURE(ctx, &r, pipe = wgpuDeviceCreateRenderPipeline(ctx->device, d));
  pl_check_outcome(&r, want_error, what);
  CHECK(pipe != NULL);
  if (pipe) wgpuRenderPipelineRelease(pipe);
}

/* The same for a compute pipeline. */
static inline void pl_expect_compute(Ctx *ctx, const WGPUComputePipelineDescriptor *d, int want_error,
                                     const char *what) {
  PopResult r;
  WGPUComputePipeline pipe = NULL;
  RU_CAPTURE(ctx, &r, pipe = wgpuDeviceCreateComputePipeline(ctx->device, d));
  pl_check_outcome(&r, want_error, what);
  CHECK(pipe != NULL);
  if (pipe) wgpuComputePipelineRelease(pipe);
}

/* A pipeline constant entry. */
static inline WGPUConstantEntry pl_constant(WGPUStringView key, double v) {
  WGPUConstantEntry e = WGPU_CONSTANT_ENTRY_INIT;
  e.key = key;
  e.value = v;
  return e;
}

/* Whether ctx's adapter is wgpu-core's OpenGL backend (a downlevel adapter). */
static inline int pl_is_gl(Ctx *ctx) { return harness_backend(ctx) == WGPUBackendType_OpenGL; }

/* On OpenGL only: whether this adapter refuses a 1x1 texture of `format`
 * with `usage` (the GL backend lacks e.g. float32 colour attachments or
 * some storage formats). Always 0 elsewhere, so that on a WebGPU-compliant
 * adapter every case stays and checks what the standard guarantees. */
static inline int pl_gl_lacks_usage(Ctx *ctx, WGPUTextureFormat format, WGPUTextureUsage usage) {
  if (!pl_is_gl(ctx)) return 0;
  WGPUTextureDescriptor d = WGPU_TEXTURE_DESCRIPTOR_INIT;
  d.size.width = 1;
  d.size.height = 1;
  d.format = format;
  d.usage = usage;
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUTexture t = wgpuDeviceCreateTexture(ctx->device, &d);
  int refused = mu_pop_type(ctx) != WGPUErrorType_NoError;
  if (t) wgpuTextureRelease(t);
  return refused;
}

/* Prints how many cases were left out and why (nothing when none). */
static inline void pl_report_left_out(int n, const char *why) {
  if (n > 0) printf("%d case%s left out: %s\n", n, n == 1 ? "" : "s", why);
}

#endif
