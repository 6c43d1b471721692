/* Helpers for the render pass validation tests (pass_*, usage_*, draw_*):
 * attachment textures and views, attachments with clear/store ops, and a
 * check that a pass raises nothing while recorded and that the encoder's
 * Finish raises a validation error exactly when the pass is invalid. */
#ifndef WGPU_SHIM_PASS_UTIL_H
#define WGPU_SHIM_PASS_UTIL_H

#include "../textures/tex_util.h"
#include "render_util.h"

/* Library log messages that report an internal error (a panic inside
 * wgpu-core that the library caught: the call did nothing, which is never
 * a valid outcome for these tests). pu_watch_internal_errors() installs the
 * counter; the tests CHECK it is 0 at the end. */
static atomic_int pu_internal_errors;

static inline void pu_on_log(WGPULogLevel level, WGPUStringView message, void *userdata) {
  (void)level;
  (void)userdata;
  if (sv_contains(message, "internal error")) atomic_fetch_add(&pu_internal_errors, 1);
}

static inline void pu_watch_internal_errors(void) {
  atomic_init(&pu_internal_errors, 0);
  wgpuSetLogCallback(pu_on_log, NULL);
}

/* A test's start: the hang watchdog (`watchdog_s` seconds), ctx_init and
 * the internal-error counter. Returns ctx_init's result. */
static inline int pu_start(Ctx *ctx, unsigned watchdog_s) {
  start_watchdog(watchdog_s);
  int rc = ctx_init(ctx);
  pu_watch_internal_errors();
  return rc;
}

/* Objects the helpers made, released by pu_release_all. */
#define PU_MAX_OBJECTS 1024
static WGPUTexture pu_textures[PU_MAX_OBJECTS];
static WGPUTextureView pu_views[PU_MAX_OBJECTS];
static size_t pu_ntextures = 0, pu_nviews = 0;

static inline void pu_release_all(void) {
  for (size_t i = 0; i < pu_nviews; i++)
    if (pu_views[i]) wgpuTextureViewRelease(pu_views[i]);
  for (size_t i = 0; i < pu_ntextures; i++)
    if (pu_textures[i]) wgpuTextureRelease(pu_textures[i]);
  pu_nviews = pu_ntextures = 0;
}

/* Keeps an object for pu_release_all (a full list is a failed check: the
 * test must call pu_release_all more often). */
static inline void pu_keep_texture(WGPUTexture t) {
  CHECK(pu_ntextures < PU_MAX_OBJECTS);
  if (pu_ntextures < PU_MAX_OBJECTS) pu_textures[pu_ntextures++] = t;
}
static inline void pu_keep_view(WGPUTextureView v) {
  CHECK(pu_nviews < PU_MAX_OBJECTS);
  if (pu_nviews < PU_MAX_OBJECTS) pu_views[pu_nviews++] = v;
}

/* A texture of any shape; usage RenderAttachment when 0 is passed. The
 * helpers keep it for pu_release_all. */
static inline WGPUTexture pu_texture(Ctx *ctx, WGPUTextureFormat format, WGPUTextureDimension dim, uint32_t w,
                                     uint32_t h, uint32_t layers, uint32_t mips, uint32_t samples,
                                     WGPUTextureUsage usage) {
  WGPUTextureDescriptor d =
      tu_desc(dim, w, h, layers, mips, samples, format, usage ? usage : WGPUTextureUsage_RenderAttachment);
  WGPUTexture t = wgpuDeviceCreateTexture(ctx->device, &d);
  pu_keep_texture(t);
  return t;
}

/* A 16x16 single-sampled 2D render attachment of `format`. */
static inline WGPUTexture pu_tex2d(Ctx *ctx, WGPUTextureFormat format) {
  return pu_texture(ctx, format, WGPUTextureDimension_2D, 16, 16, 1, 1, 1, 0);
}

/* A view of t (default descriptor when d is NULL), kept for
 * pu_release_all. */
static inline WGPUTextureView pu_view(WGPUTexture t, const WGPUTextureViewDescriptor *d) {
  WGPUTextureView v = wgpuTextureCreateView(t, d);
  pu_keep_view(v);
  return v;
}

/* A colour attachment that clears to red and stores. */
static inline WGPURenderPassColorAttachment pu_color(WGPUTextureView v) {
  WGPURenderPassColorAttachment a = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
  a.view = v;
  a.loadOp = WGPULoadOp_Clear;
  a.storeOp = WGPUStoreOp_Store;
  a.clearValue.r = 1.0;
  a.clearValue.a = 1.0;
  return a;
}

/* A depth-stencil attachment that clears and stores both aspects (for a
 * format with both aspects). */
static inline WGPURenderPassDepthStencilAttachment pu_ds(WGPUTextureView v) {
  WGPURenderPassDepthStencilAttachment a = WGPU_RENDER_PASS_DEPTH_STENCIL_ATTACHMENT_INIT;
  a.view = v;
  a.depthLoadOp = WGPULoadOp_Clear;
  a.depthStoreOp = WGPUStoreOp_Store;
  a.depthClearValue = 1.0f;
  a.stencilLoadOp = WGPULoadOp_Clear;
  a.stencilStoreOp = WGPUStoreOp_Store;
  return a;
}

/* Cases checked, and failing cases, for the summary line. */
static int pu_cases = 0;
static int pu_bad_cases = 0;

/* Finishes enc inside a Validation scope and checks the outcome: a
 * validation error when !valid, none when valid; a non-NULL command buffer
 * either way. `what` names the case in a failure message. Releases enc. */
static inline void pu_finish_expect(Ctx *ctx, WGPUCommandEncoder enc, int valid, const char *what) {
  PopResult r;
  WGPUCommandBuffer cb = NULL;
  pu_cases++;
  RU_CAPTURE(ctx, &r, cb = wgpuCommandEncoderFinish(enc, NULL));
  int ok = valid ? r.type == WGPUErrorType_NoError : r.type == WGPUErrorType_Validation;
  char buf[1400];
  snprintf(buf, sizeof buf, "%s: expected %s at Finish, got type %d (%s)", what,
           valid ? "no error" : "a validation error", (int)r.type, r.type ? r.msg : "no error");
  harness_check(ok, buf, __FILE__, __LINE__);
  if (!ok) pu_bad_cases++;
  CHECK(cb != NULL);
  if (cb) wgpuCommandBufferRelease(cb);
  wgpuCommandEncoderRelease(enc);
}

/* Records commands into an open render pass (for pu_try_pass_with). */
typedef void (*PuRecord)(WGPURenderPassEncoder pass, void *user);

/* Begins a render pass for *d, runs record (when not NULL), ends it (all
 * must raise nothing: pass errors surface at Finish) and checks Finish
 * (pu_finish_expect). */
static inline void pu_try_pass_with(Ctx *ctx, const WGPURenderPassDescriptor *d, PuRecord record, void *user,
                                    int valid, const char *what) {
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  PopResult r;
  WGPURenderPassEncoder pass = NULL;
  RU_CAPTURE(ctx, &r, {
    pass = wgpuCommandEncoderBeginRenderPass(enc, d);
    if (record) record(pass, user);
    wgpuRenderPassEncoderEnd(pass);
  });
  char buf[1400];
  snprintf(buf, sizeof buf, "%s: recording raises nothing (got type %d: %s)", what, (int)r.type, r.msg);
  harness_check(r.type == WGPUErrorType_NoError, buf, __FILE__, __LINE__);
  if (pass) wgpuRenderPassEncoderRelease(pass);
  pu_finish_expect(ctx, enc, valid, what);
}

static inline void pu_try_pass(Ctx *ctx, const WGPURenderPassDescriptor *d, int valid, const char *what) {
  pu_try_pass_with(ctx, d, NULL, NULL, valid, what);
}

/* pu_try_pass for colour attachments (n of them) and an optional
 * depth-stencil attachment. */
static inline void pu_try(Ctx *ctx, const WGPURenderPassColorAttachment *colors, size_t n,
                          const WGPURenderPassDepthStencilAttachment *ds, int valid, const char *what) {
  WGPURenderPassDescriptor d = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
  d.colorAttachmentCount = n;
  d.colorAttachments = n ? colors : NULL;
  d.depthStencilAttachment = ds;
  pu_try_pass(ctx, &d, valid, what);
}

/* A view of an invalid texture (usage None): both raise a validation
 * error, the view is not NULL. */
static inline WGPUTextureView pu_error_view(Ctx *ctx) {
  WGPUTextureView v = NULL;
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUTextureDescriptor d = WGPU_TEXTURE_DESCRIPTOR_INIT;
  d.size.width = 1;
  d.size.height = 1;
  d.format = WGPUTextureFormat_RGBA8Unorm;
  d.usage = WGPUTextureUsage_None;
  WGPUTexture t = wgpuDeviceCreateTexture(ctx->device, &d);
  v = wgpuTextureCreateView(t, NULL);
  CHECK_EQ(mu_pop_type(ctx), WGPUErrorType_Validation);
  if (t) wgpuTextureRelease(t);
  pu_keep_view(v);
  return v;
}

/* ------------------------------------------------------------------------ */
/* Cases whose subject this adapter lacks (OpenGL only)
 *
 * wgpu-core's OpenGL adapter is a downlevel one: some formats cannot be
 * rendered to, some sample counts or usages do not exist. A case about such
 * a subject is left out there, counted per reason and printed by
 * pu_report. On any other backend a missing subject is a failed check: the
 * case is never silently dropped there. */

#define PU_MAX_REASONS 16
static char pu_reasons[PU_MAX_REASONS][200];
static int pu_reason_cases[PU_MAX_REASONS];
static int pu_nreasons = 0;
static int pu_left_out = 0;

static inline int pu_is_gl(Ctx *ctx) {
  static int known = 0, gl = 0;
  if (!known) gl = harness_backend(ctx) == WGPUBackendType_OpenGL, known = 1;
  return gl;
}

/* Whether the case may run: 1 when `have` is set. Otherwise, on OpenGL the
 * case is counted as left out for `reason` ("GL has no ..."); elsewhere it
 * is a failed check. Returns 0 either way. */
static inline int pu_case_supported(Ctx *ctx, int have, const char *reason, const char *what) {
  if (have) return 1;
  if (!pu_is_gl(ctx)) {
    char buf[600];
    snprintf(buf, sizeof buf, "%s: this adapter lacks the case's subject (%s), which only OpenGL may", what, reason);
    harness_check(0, buf, __FILE__, __LINE__);
    pu_cases++;
    pu_bad_cases++;
    return 0;
  }
  pu_left_out++;
  int i = 0;
  while (i < pu_nreasons && strcmp(pu_reasons[i], reason) != 0) i++;
  if (i == pu_nreasons && pu_nreasons < PU_MAX_REASONS) snprintf(pu_reasons[pu_nreasons++], sizeof pu_reasons[0], "%s", reason);
  if (i < PU_MAX_REASONS) pu_reason_cases[i]++;
  return 0;
}

/* Whether a 1x1 2D texture of `format` with `samples` samples and
 * RenderAttachment usage can be made here (a probe; remembered). */
static inline int pu_format_renderable(Ctx *ctx, WGPUTextureFormat format, uint32_t samples) {
  static struct {
    WGPUTextureFormat f;
    uint32_t samples;
    int ok;
  } cache[64];
  static int n = 0;
  for (int i = 0; i < n; i++)
    if (cache[i].f == format && cache[i].samples == samples) return cache[i].ok;
  WGPUTextureDescriptor d = WGPU_TEXTURE_DESCRIPTOR_INIT;
  d.size.width = 1;
  d.size.height = 1;
  d.format = format;
  d.sampleCount = samples;
  d.usage = WGPUTextureUsage_RenderAttachment;
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUTexture t = wgpuDeviceCreateTexture(ctx->device, &d);
  int ok = mu_pop_type(ctx) == WGPUErrorType_NoError;
  if (t) wgpuTextureRelease(t);
  if (n < 64) cache[n].f = format, cache[n].samples = samples, cache[n].ok = ok, n++;
  return ok;
}

/* pu_case_supported for "format renders here with `samples` samples"; the
 * reason names the format (`name`). */
static inline int pu_format_case(Ctx *ctx, WGPUTextureFormat format, const char *name, uint32_t samples,
                                 const char *what) {
  char reason[200];
  if (samples > 1)
    snprintf(reason, sizeof reason, "GL cannot render to %u-sample %s (wgpu-core downlevel format capabilities)",
             samples, name);
  else
    snprintf(reason, sizeof reason, "GL cannot render to %s (wgpu-core downlevel format capabilities)", name);
  return pu_case_supported(ctx, pu_format_renderable(ctx, format, samples), reason, what);
}

/* The summary: "N of M case(s) differ from the CTS expectation" (bad of
 * them), one line per reason cases were left out for, and the checks that
 * no error went uncaptured and no internal error was logged. A test that
 * left every case out reports SKIP. */
static inline void pu_report(Ctx *ctx, int bad) {
  printf("%d of %d case(s) differ from the CTS expectation\n", bad, pu_cases);
  for (int i = 0; i < pu_nreasons; i++) printf("%d case(s) left out: %s\n", pu_reason_cases[i], pu_reasons[i]);
  CHECK_EQ(ctx->uncaptured_errors, 0);
  CHECK_EQ(atomic_load(&pu_internal_errors), 0);
  if (pu_cases == 0 && pu_left_out > 0 && harness_failed == 0) {
    pu_release_all();
    ctx_release(ctx);
    harness_skip("every case was left out on this adapter (%d)", pu_left_out);
  }
}

#endif
