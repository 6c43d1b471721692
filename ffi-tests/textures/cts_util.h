/* Helpers for the texture validation tests ported from the WebGPU CTS:
 * where (if anywhere) a texel copy, a texture-to-texture copy or a creation
 * call raises its validation error, and a per-case check that names the case
 * and the message when the outcome is not the expected one. */
#ifndef WGPU_SHIM_CTS_UTIL_H
#define WGPU_SHIM_CTS_UTIL_H

#include "tex_util.h"

#include <stdarg.h>

/* Where a validation error was raised (CU_OK: nowhere). */
typedef enum {
  CU_OK = 0,
  CU_AT_CALL,   /* at the recording call or at a queue write / creation call */
  CU_AT_FINISH, /* at wgpuCommandEncoderFinish */
  CU_AT_SUBMIT, /* at wgpuQueueSubmit */
} CuOutcome;

static inline const char *cu_name(CuOutcome o) {
  switch (o) {
    case CU_OK:
      return "no error";
    case CU_AT_CALL:
      return "error at the call";
    case CU_AT_FINISH:
      return "error at Finish";
    case CU_AT_SUBMIT:
      return "error at Submit";
  }
  return "?";
}

/* The message of the last error a cu_* helper popped (empty if none). */
static char cu_last_msg[512];

/* Pops a Validation scope: 1 when it captured an error (message kept). */
static inline int cu_pop(Ctx *ctx) {
  PopResult r;
  if (!mu_pop_full(ctx->instance, ctx->device, &r)) {
    snprintf(cu_last_msg, sizeof cu_last_msg, "(pop failed)");
    return 1;
  }
  if (r.type == WGPUErrorType_NoError) return 0;
  snprintf(cu_last_msg, sizeof cu_last_msg, "%s", r.msg);
  return 1;
}

/* Leaving cases out. A case whose subject this adapter does not have (GL's
 * downlevel limits) is left out: while cu_leave_out(why) is in force (until
 * cu_leave_out(NULL) or the next cu_section), the cu_* runners run nothing
 * and cu_expect counts the case under `why` instead of checking it;
 * cu_finish prints "N cases left out: <why>" for each reason. */
static const char *cu_out_why;
static struct {
  const char *why;
  int n;
} cu_out[4];
static int cu_section_out;

static inline void cu_leave_out(const char *why) { cu_out_why = why; }
static inline int cu_dry(void) { return cu_out_why != NULL; }

/* Counts the current case as left out, under the reason in force. */
static inline void cu_count_left_out(void) {
  size_t i = 0;
  while (i < 3 && cu_out[i].why && cu_out[i].why != cu_out_why) i++;
  cu_out[i].why = cu_out_why;
  cu_out[i].n++;
  cu_section_out++;
}

/* One recorded command. */
typedef void (*CuRecord)(WGPUCommandEncoder enc, void *arg);

/* Records the command, finishes and submits; says where the first
 * validation error came (later steps are skipped once one did). Runs nothing
 * while cases are left out. */
static inline CuOutcome cu_encode(Ctx *ctx, CuRecord rec, void *arg) {
  cu_last_msg[0] = 0;
  if (cu_dry()) return CU_OK;
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  rec(enc, arg);
  if (cu_pop(ctx)) {
    wgpuCommandEncoderRelease(enc);
    return CU_AT_CALL;
  }
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  wgpuCommandEncoderRelease(enc);
  if (cu_pop(ctx)) {
    if (cmd) wgpuCommandBufferRelease(cmd);
    return CU_AT_FINISH;
  }
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  wgpuQueueSubmit(ctx->queue, 1, &cmd);
  int err = cu_pop(ctx);
  if (cmd) wgpuCommandBufferRelease(cmd);
  return err ? CU_AT_SUBMIT : CU_OK;
}

/* Checks one case: `got` must be `want`; on a mismatch the message names the
 * case (printf-style label), both outcomes and the error message seen. */
static int cu_cases, cu_bad;
static inline void cu_expect(CuOutcome got, CuOutcome want, const char *fmt, ...) {
  if (cu_dry()) {
    cu_count_left_out();
    return;
  }
  char label[300], buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(label, sizeof label, fmt, ap);
  va_end(ap);
  cu_cases++;
  if (got == want) {
    harness_check(1, label, __FILE__, __LINE__);
    return;
  }
  cu_bad++;
  snprintf(buf, sizeof buf, "[%s] want %s, got %s%s%s", label, cu_name(want), cu_name(got), got != CU_OK ? ": " : "",
           got != CU_OK ? cu_last_msg : "");
  harness_check(0, buf, __FILE__, __LINE__);
}

/* Prints how many cases of a section failed (and were left out); ends any
 * cu_leave_out. */
static inline void cu_section(const char *name) {
  if (cu_section_out)
    fprintf(stderr, "section %s: %d cases, %d failed, %d left out\n", name, cu_cases, cu_bad, cu_section_out);
  else
    fprintf(stderr, "section %s: %d cases, %d failed\n", name, cu_cases, cu_bad);
  cu_cases = cu_bad = cu_section_out = 0;
  cu_leave_out(NULL);
}

/* The end of every test: no uncaptured errors, the left-out cases printed
 * with their reasons, ctx released; main's exit code. */
static inline int cu_finish(Ctx *ctx) {
  CHECK_EQ(ctx->uncaptured_errors, 0);
  for (size_t i = 0; i < 4 && cu_out[i].why; i++)
    fprintf(stderr, "%d cases left out: %s\n", cu_out[i].n, cu_out[i].why);
  ctx_release(ctx);
  return test_finish();
}

/* The outcome of a call that is valid when `ok` (else an error at the call). */
static inline CuOutcome cu_ok_or_call(int ok) { return ok ? CU_OK : CU_AT_CALL; }

/* Runs `stmt` in a Validation scope: CU_AT_CALL when it raised an error
 * (CU_OK, running nothing, while cases are left out). */
#define CU_CALL(ctx, out, ...)                                           \
  do {                                                                   \
    cu_last_msg[0] = 0;                                                  \
    (out) = CU_OK;                                                       \
    if (cu_dry()) break;                                                 \
    wgpuDevicePushErrorScope((ctx)->device, WGPUErrorFilter_Validation); \
    __VA_ARGS__;                                                         \
    (out) = cu_pop(ctx) ? CU_AT_CALL : CU_OK;                            \
  } while (0)

/* A texture descriptor of any shape (one mip level, one sample). */
static inline WGPUTextureDescriptor cu_texture_desc(WGPUTextureDimension dim, uint32_t w, uint32_t h, uint32_t d,
                                                    WGPUTextureFormat format, WGPUTextureUsage usage) {
  return tu_desc(dim, w, h, d, 1, 1, format, usage);
}

/* A texture of any shape (released by the caller). */
static inline WGPUTexture cu_texture(Ctx *ctx, WGPUTextureDimension dim, uint32_t w, uint32_t h, uint32_t d,
                                     WGPUTextureFormat format, WGPUTextureUsage usage, uint32_t mips,
                                     uint32_t samples) {
  WGPUTextureDescriptor desc = cu_texture_desc(dim, w, h, d, format, usage);
  desc.mipLevelCount = mips;
  desc.sampleCount = samples;
  return wgpuDeviceCreateTexture(ctx->device, &desc);
}

/* Creates a texture (then releases it): where the error came. The texture
 * must be non-NULL even when invalid. */
static inline CuOutcome cu_create_texture(Ctx *ctx, WGPUTextureDescriptor d) {
  if (cu_dry()) return CU_OK;
  CuOutcome o;
  WGPUTexture t = NULL;
  CU_CALL(ctx, o, t = wgpuDeviceCreateTexture(ctx->device, &d));
  CHECK(t != NULL);
  if (t) wgpuTextureRelease(t);
  return o;
}

/* Creates a view of t (then releases it): where the error came. The view
 * must be non-NULL even when invalid. */
static inline CuOutcome cu_view(Ctx *ctx, WGPUTexture t, WGPUTextureViewDescriptor vd) {
  if (cu_dry()) return CU_OK;
  CuOutcome o;
  WGPUTextureView v = NULL;
  CU_CALL(ctx, o, v = wgpuTextureCreateView(t, &vd));
  CHECK(v != NULL);
  if (v) wgpuTextureViewRelease(v);
  return o;
}

static inline uint32_t cu_mip_size(uint32_t s, uint32_t level) { return (s >> level) ? (s >> level) : 1; }

static inline WGPUTexelCopyTextureInfo cu_tex(WGPUTexture t, uint32_t mip, uint32_t x, uint32_t y, uint32_t z,
                                              WGPUTextureAspect aspect) {
  WGPUTexelCopyTextureInfo i = tu_tex_info(t);
  i.mipLevel = mip;
  i.origin.x = x;
  i.origin.y = y;
  i.origin.z = z;
  i.aspect = aspect;
  return i;
}

/* Copies between two textures (one encoder, Finish, Submit): where the
 * error came. */
typedef struct {
  WGPUTexelCopyTextureInfo src, dst;
  WGPUExtent3D size;
} CuT2T;

static inline void cu_record_t2t(WGPUCommandEncoder enc, void *arg) {
  CuT2T *c = (CuT2T *)arg;
  wgpuCommandEncoderCopyTextureToTexture(enc, &c->src, &c->dst, &c->size);
}

static inline CuOutcome cu_t2t(Ctx *ctx, WGPUTexelCopyTextureInfo src, WGPUTexelCopyTextureInfo dst,
                               WGPUExtent3D size) {
  CuT2T c = {src, dst, size};
  return cu_encode(ctx, cu_record_t2t, &c);
}

/* The three texel-copy methods of the CTS's image_copy tests. */
typedef enum { CU_WRITE_TEXTURE = 0, CU_COPY_B2T, CU_COPY_T2B } CuMethod;
static const char *const cu_method_names[] = {"WriteTexture", "CopyB2T", "CopyT2B"};

typedef struct {
  CuMethod method;
  WGPUTexelCopyTextureInfo tex;
  WGPUTexelCopyBufferInfo buf;
  WGPUExtent3D size;
} CuImageCopy;

static inline void cu_record_image_copy(WGPUCommandEncoder enc, void *arg) {
  CuImageCopy *c = (CuImageCopy *)arg;
  if (c->method == CU_COPY_B2T)
    wgpuCommandEncoderCopyBufferToTexture(enc, &c->buf, &c->tex, &c->size);
  else
    wgpuCommandEncoderCopyTextureToBuffer(enc, &c->tex, &c->buf, &c->size);
}

/* One buffer copy (CU_COPY_B2T or CU_COPY_T2B) between `tex` and buffer b
 * laid out as `layout`: where the error came. */
static inline CuOutcome cu_buffer_copy(Ctx *ctx, CuMethod method, WGPUBuffer b, WGPUTexelCopyBufferLayout layout,
                                       WGPUTexelCopyTextureInfo tex, WGPUExtent3D size) {
  CuImageCopy c = {method, tex, WGPU_TEXEL_COPY_BUFFER_INFO_INIT, size};
  c.buf.buffer = b;
  c.buf.layout = layout;
  return cu_encode(ctx, cu_record_image_copy, &c);
}

/* Runs one texel copy of `method` between `tex` and linear data of
 * data_size bytes laid out as `layout` (a new CopySrc|CopyDst buffer of that
 * size for the copies; a zeroed array for WriteTexture). */
static inline CuOutcome cu_image_copy(Ctx *ctx, CuMethod method, WGPUTexelCopyTextureInfo tex,
                                      WGPUTexelCopyBufferLayout layout, WGPUExtent3D size, uint64_t data_size) {
  if (cu_dry()) return CU_OK;
  if (method == CU_WRITE_TEXTURE) {
    void *data = calloc(1, data_size ? (size_t)data_size : 1);
    CuOutcome o;
    CU_CALL(ctx, o, wgpuQueueWriteTexture(ctx->queue, &tex, data, (size_t)data_size, &layout, &size));
    free(data);
    return o;
  }
  WGPUBuffer b = make_buffer(ctx->device, data_size, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 0);
  CuOutcome o = cu_buffer_copy(ctx, method, b, layout, tex, size);
  if (b) wgpuBufferRelease(b);
  return o;
}

/* Where an invalid texel copy of `method` reports its error. */
static inline CuOutcome cu_fail_at(CuMethod method) { return method == CU_WRITE_TEXTURE ? CU_AT_CALL : CU_AT_FINISH; }

/* The outcome of a texel copy of `method` that is valid when `ok`. */
static inline CuOutcome cu_ok_or(CuMethod method, int ok) { return ok ? CU_OK : cu_fail_at(method); }

/* What the OpenGL backend lacks. wgpu-core's GL adapter is a downlevel one
 * whose flags lack DEPTH_TEXTURE_AND_BUFFER_COPIES and VIEW_FORMATS (wgpu-hal
 * 30 never sets them for GL); no standard call reads downlevel flags, so the
 * backend tells. */
#define CU_WHY_DEPTH_COPIES                                                                \
  "GL has no buffer copies or WriteTexture of depth/stencil formats (wgpu-core needs the " \
  "DEPTH_TEXTURE_AND_BUFFER_COPIES downlevel flag)"
#define CU_WHY_VIEW_FORMATS "GL has no view formats other than the texture's (wgpu-core's VIEW_FORMATS downlevel flag)"

static inline int cu_is_gl(Ctx *ctx) { return harness_backend(ctx) == WGPUBackendType_OpenGL; }

static inline int cu_is_depth_stencil(WGPUTextureFormat f) {
  return f >= WGPUTextureFormat_Stencil8 && f <= WGPUTextureFormat_Depth32FloatStencil8;
}

/* Leaves the following cases out when they are texel copies of depth/stencil
 * format f on an adapter without them; otherwise runs them. */
static inline void cu_leave_out_depth_copies(Ctx *ctx, WGPUTextureFormat f) {
  cu_leave_out(cu_is_depth_stencil(f) && cu_is_gl(ctx) ? CU_WHY_DEPTH_COPIES : NULL);
}

static inline WGPUTexelCopyBufferLayout cu_layout(uint64_t offset, uint32_t bpr, uint32_t rpi) {
  WGPUTexelCopyBufferLayout l = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
  l.offset = offset;
  l.bytesPerRow = bpr;
  l.rowsPerImage = rpi;
  return l;
}

static inline WGPUExtent3D cu_ext(uint32_t w, uint32_t h, uint32_t d) {
  WGPUExtent3D e = {w, h, d};
  return e;
}

/* A second Ctx on a new adapter of base's instance (one device per adapter)
 * whose device has the given features (its errors count into *out).
 * Returns 0 on success; release it with cu_ctx_release. */
static inline int cu_ctx_with_features(Ctx *base, Ctx *out, const WGPUFeatureName *features, size_t n) {
  memset(out, 0, sizeof *out);
  out->instance = base->instance;
  out->adapter = request_adapter(base->instance, MU_WAIT_NS);
  if (!out->adapter) return -1;
  WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
  dd.requiredFeatureCount = n;
  dd.requiredFeatures = features;
  dd.uncapturedErrorCallbackInfo.callback = ctx_on_uncaptured;
  dd.uncapturedErrorCallbackInfo.userdata1 = out;
  out->device = request_device(base->instance, out->adapter, &dd, MU_WAIT_NS);
  if (!out->device) return -2;
  out->queue = wgpuDeviceGetQueue(out->device);
  return 0;
}

static inline void cu_ctx_release(Ctx *c) {
  if (c->queue) wgpuQueueRelease(c->queue);
  if (c->device) wgpuDeviceRelease(c->device);
  if (c->adapter) wgpuAdapterRelease(c->adapter);
}

#endif
