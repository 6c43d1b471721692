/* Helpers for the draw_* tests: one recording target that is either a
 * render pass or a render bundle (executed in a render pass), pipelines
 * whose vertex shader reads nothing, and the outcome check: a render pass
 * raises nothing while recorded and its encoder's Finish raises a
 * validation error exactly when a draw was invalid; for a bundle the error
 * may come at the bundle's Finish or the encoder's (the CTS wraps both).
 * Valid command buffers are submitted and must raise nothing. */
#ifndef WGPU_SHIM_DRAW_UTIL_H
#define WGPU_SHIM_DRAW_UTIL_H

#include "pass_util.h"

static const char *const DU_WGSL =
    "@vertex fn vs() -> @builtin(position) vec4f { return vec4f(); }\n"
    "@fragment fn fs() {}\n";

typedef struct {
  Ctx *ctx;
  int bundle;
  WGPUCommandEncoder enc;
  WGPURenderPassEncoder pass;
  WGPURenderBundleEncoder be;
  PopResult rec; /* errors raised while recording into a pass */
  WGPUBuffer temps[8];
  int ntemps;
  int internal_before; /* pu_internal_errors when the recording began */
} DuEnc;

static WGPUTextureView du_view = NULL;
static WGPUShaderModule du_module = NULL;

static inline void du_init(Ctx *ctx) {
  du_view = pu_view(pu_texture(ctx, WGPUTextureFormat_RGBA8Unorm, WGPUTextureDimension_2D, 4, 4, 1, 1, 1, 0), NULL);
  du_module = make_wgsl(ctx->device, DU_WGSL);
}

/* pu_start, then du_init when the device was made. */
static inline int du_start(Ctx *ctx, unsigned watchdog_s) {
  int rc = pu_start(ctx, watchdog_s);
  if (rc == 0) du_init(ctx);
  return rc;
}

static inline void du_fini(void) {
  if (du_module) wgpuShaderModuleRelease(du_module);
  du_module = NULL;
  pu_release_all();
}

/* A pipeline of `layout` (NULL: auto) with `n` vertex buffer layouts (may
 * be 0), a topology and a strip index format; the colour target writes
 * nothing. */
static inline WGPURenderPipeline du_pipeline_layout(Ctx *ctx, WGPUPipelineLayout layout,
                                                    const WGPUVertexBufferLayout *layouts, size_t n,
                                                    WGPUPrimitiveTopology topo, WGPUIndexFormat strip) {
  WGPUColorTargetState target = WGPU_COLOR_TARGET_STATE_INIT;
  target.format = WGPUTextureFormat_RGBA8Unorm;
  target.writeMask = WGPUColorWriteMask_None;
  WGPUFragmentState frag = WGPU_FRAGMENT_STATE_INIT;
  frag.module = du_module;
  frag.entryPoint = sv("fs");
  frag.targetCount = 1;
  frag.targets = &target;
  WGPURenderPipelineDescriptor d = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
  d.layout = layout;
  d.vertex.module = du_module;
  d.vertex.entryPoint = sv("vs");
  d.vertex.bufferCount = n;
  d.vertex.buffers = layouts;
  d.primitive.topology = topo;
  d.primitive.stripIndexFormat = strip;
  d.fragment = &frag;
  WGPURenderPipeline p = NULL;
  EXPECT_NO_VALIDATION(ctx, p = wgpuDeviceCreateRenderPipeline(ctx->device, &d));
  return p;
}

/* du_pipeline_layout with the auto layout. */
static inline WGPURenderPipeline du_pipeline(Ctx *ctx, const WGPUVertexBufferLayout *layouts, size_t n,
                                             WGPUPrimitiveTopology topo, WGPUIndexFormat strip) {
  return du_pipeline_layout(ctx, NULL, layouts, n, topo, strip);
}

/* A buffer holding `n` u32 words. */
static inline WGPUBuffer du_buffer_u32(Ctx *ctx, const uint32_t *words, size_t n, WGPUBufferUsage usage) {
  WGPUBuffer b = make_buffer(ctx->device, n * 4, usage, 1);
  void *p = wgpuBufferGetMappedRange(b, 0, n * 4);
  if (p) memcpy(p, words, n * 4);
  wgpuBufferUnmap(b);
  return b;
}

/* Begins recording: a render pass (chain: the pass descriptor's
 * nextInChain) that clears `view` (an RGBA8Unorm attachment) to red and,
 * for a bundle, a bundle encoder. */
static inline void du_begin_view(DuEnc *e, Ctx *ctx, int bundle, const void *pass_chain, WGPUTextureView view) {
  memset(e, 0, sizeof *e);
  e->ctx = ctx;
  e->bundle = bundle;
  e->internal_before = atomic_load(&pu_internal_errors);
  e->enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPURenderPassColorAttachment c = pu_color(view);
  WGPURenderPassDescriptor d = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
  d.nextInChain = (WGPUChainedStruct *)pass_chain;
  d.colorAttachmentCount = 1;
  d.colorAttachments = &c;
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  e->pass = wgpuCommandEncoderBeginRenderPass(e->enc, &d);
  if (bundle) {
    WGPUTextureFormat f = WGPUTextureFormat_RGBA8Unorm;
    e->be = ru_bundle_encoder(ctx->device, &f);
  }
}

/* du_begin_view on the helpers' 4x4 attachment. */
static inline void du_begin(DuEnc *e, Ctx *ctx, int bundle, const void *pass_chain) {
  du_begin_view(e, ctx, bundle, pass_chain, du_view);
}

static inline void du_pipeline_set(DuEnc *e, WGPURenderPipeline p) {
  if (e->bundle) wgpuRenderBundleEncoderSetPipeline(e->be, p);
  else wgpuRenderPassEncoderSetPipeline(e->pass, p);
}
static inline void du_vb(DuEnc *e, uint32_t slot, WGPUBuffer b, uint64_t off, uint64_t size) {
  if (e->bundle) wgpuRenderBundleEncoderSetVertexBuffer(e->be, slot, b, off, size);
  else wgpuRenderPassEncoderSetVertexBuffer(e->pass, slot, b, off, size);
}
static inline void du_ib(DuEnc *e, WGPUBuffer b, WGPUIndexFormat f, uint64_t off, uint64_t size) {
  if (e->bundle) wgpuRenderBundleEncoderSetIndexBuffer(e->be, b, f, off, size);
  else wgpuRenderPassEncoderSetIndexBuffer(e->pass, b, f, off, size);
}
static inline void du_draw(DuEnc *e, uint32_t vc, uint32_t ic, uint32_t fv, uint32_t fi) {
  if (e->bundle) wgpuRenderBundleEncoderDraw(e->be, vc, ic, fv, fi);
  else wgpuRenderPassEncoderDraw(e->pass, vc, ic, fv, fi);
}
static inline void du_draw_indexed(DuEnc *e, uint32_t xc, uint32_t ic, uint32_t fx, int32_t bv, uint32_t fi) {
  if (e->bundle) wgpuRenderBundleEncoderDrawIndexed(e->be, xc, ic, fx, bv, fi);
  else wgpuRenderPassEncoderDrawIndexed(e->pass, xc, ic, fx, bv, fi);
}
static inline void du_draw_indirect(DuEnc *e, WGPUBuffer b, uint64_t off) {
  if (e->bundle) wgpuRenderBundleEncoderDrawIndirect(e->be, b, off);
  else wgpuRenderPassEncoderDrawIndirect(e->pass, b, off);
}
static inline void du_draw_indexed_indirect(DuEnc *e, WGPUBuffer b, uint64_t off) {
  if (e->bundle) wgpuRenderBundleEncoderDrawIndexedIndirect(e->be, b, off);
  else wgpuRenderPassEncoderDrawIndexedIndirect(e->pass, b, off);
}

/* Kinds of draw call, as the CTS names them. */
typedef enum { DU_DRAW, DU_DRAW_INDEXED, DU_DRAW_INDIRECT, DU_DRAW_INDEXED_INDIRECT } DuDraw;
static const char *const DU_DRAW_NAMES[4] = {"draw", "drawIndexed", "drawIndirect", "drawIndexedIndirect"};

/* A draw of kind k with these arguments (indirect ones read from a new
 * Indirect buffer that holds them). */
static inline void du_any_draw(DuEnc *e, DuDraw k, uint32_t count, uint32_t instances, uint32_t first,
                               int32_t base_vertex, uint32_t first_instance) {
  if (k == DU_DRAW) du_draw(e, count, instances, first, first_instance);
  else if (k == DU_DRAW_INDEXED) du_draw_indexed(e, count, instances, first, base_vertex, first_instance);
  else {
    uint32_t w[5];
    size_t n;
    if (k == DU_DRAW_INDIRECT) {
      w[0] = count, w[1] = instances, w[2] = first, w[3] = first_instance, n = 4;
    } else {
      w[0] = count, w[1] = instances, w[2] = first, w[3] = (uint32_t)base_vertex, w[4] = first_instance, n = 5;
    }
    WGPUBuffer b = du_buffer_u32(e->ctx, w, n, WGPUBufferUsage_Indirect);
    if (e->ntemps < 8) e->temps[e->ntemps++] = b;
    if (k == DU_DRAW_INDIRECT) du_draw_indirect(e, b, 0);
    else du_draw_indexed_indirect(e, b, 0);
  }
}

/* Cases that differ from the expectation (for the summary line). */
static int du_bad_cases = 0;
/* When set, a valid command buffer's submit must raise a validation error
 * (it uses a destroyed buffer) instead of nothing. */
static int du_expect_submit_error = 0;

/* Ends the recording and checks the outcome (see the header comment). */
static inline void du_end_expect(DuEnc *e, int valid, const char *what) {
  Ctx *ctx = e->ctx;
  pu_cases++;
  PopResult rec = {0}, fin = {0};
  rec.type = WGPUErrorType_NoError; /* a bundle has no separate recording check */
  WGPUCommandBuffer cb = NULL;
  if (e->bundle) {
    WGPURenderBundle b = wgpuRenderBundleEncoderFinish(e->be, NULL);
    wgpuRenderPassEncoderExecuteBundles(e->pass, 1, &b);
    wgpuRenderPassEncoderEnd(e->pass);
    cb = wgpuCommandEncoderFinish(e->enc, NULL);
    CHECK(mu_pop_full(ctx->instance, ctx->device, &fin));
    if (b) wgpuRenderBundleRelease(b);
    wgpuRenderBundleEncoderRelease(e->be);
  } else {
    wgpuRenderPassEncoderEnd(e->pass);
    CHECK(mu_pop_full(ctx->instance, ctx->device, &rec));
    RU_CAPTURE(ctx, &fin, cb = wgpuCommandEncoderFinish(e->enc, NULL));
  }
  int ok = rec.type == WGPUErrorType_NoError &&
           (valid ? fin.type == WGPUErrorType_NoError : fin.type == WGPUErrorType_Validation);
  char buf[1600];
  snprintf(buf, sizeof buf, "%s [%s]: expected %s; recording gave type %d (%s), finish type %d (%s)", what,
           e->bundle ? "bundle" : "pass", valid ? "no error" : "a validation error at Finish", (int)rec.type,
           rec.msg, (int)fin.type, fin.msg);
  harness_check(ok, buf, __FILE__, __LINE__);
  if (!ok) du_bad_cases++;
  if (ok && valid && cb) {
    PopResult sub;
    RU_CAPTURE(ctx, &sub, wgpuQueueSubmit(ctx->queue, 1, &cb));
    snprintf(buf, sizeof buf, "%s [%s]: submit raises %s (got type %d: %s)", what, e->bundle ? "bundle" : "pass",
             du_expect_submit_error ? "a validation error" : "nothing", (int)sub.type, sub.msg);
    WGPUErrorType want = du_expect_submit_error ? WGPUErrorType_Validation : WGPUErrorType_NoError;
    harness_check(sub.type == want, buf, __FILE__, __LINE__);
    if (sub.type != want) du_bad_cases++;
  }
  int internal = atomic_load(&pu_internal_errors) - e->internal_before;
  snprintf(buf, sizeof buf, "%s [%s]: no internal error (caught panic) in the library (got %d)", what,
           e->bundle ? "bundle" : "pass", internal);
  harness_check(internal == 0, buf, __FILE__, __LINE__);
  if (internal && ok) du_bad_cases++;
  if (cb) wgpuCommandBufferRelease(cb);
  wgpuRenderPassEncoderRelease(e->pass);
  wgpuCommandEncoderRelease(e->enc);
  for (int i = 0; i < e->ntemps; i++) wgpuBufferRelease(e->temps[i]);
}

#endif
