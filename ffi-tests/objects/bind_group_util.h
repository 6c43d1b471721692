/* Helpers for the bind group, bind group layout and pipeline layout tests
 * (objects/bind_group_*.c, objects/bind_group_layout_*.c,
 * objects/pipeline_layout_*.c, render/set_bind_group_*.c): entries,
 * one-call creation, a second device, a case check that names the case
 * and the message of the error raised (or not), and the cases left out on
 * the OpenGL adapter. Error scopes, textures and render bundle encoders come
 * from the shared helpers (render/render_util.h, textures/tex_util.h,
 * mapping/mapping_util.h). */
#ifndef WGPU_SHIM_BIND_GROUP_UTIL_H
#define WGPU_SHIM_BIND_GROUP_UTIL_H

#include "../render/render_util.h"
#include "../textures/tex_util.h"

#include <stdarg.h>

/* Runs the statement(s) inside a Validation error scope (RU_CAPTURE, which
 * checks the pop) and checks that a validation error was raised
 * (want_error != 0) or not; a failure names the case (set with bg_case) and
 * the error message popped. */
#define BG_EXPECT(ctx, want_error, ...) BG_EXPECT_AT(ctx, want_error, __FILE__, __LINE__, __VA_ARGS__)
#define BG_EXPECT_AT(ctx, want_error, file, line, ...)            \
  do {                                                            \
    PopResult bg_r_;                                              \
    RU_CAPTURE(ctx, &bg_r_, __VA_ARGS__);                         \
    bg_report_(&bg_r_, (want_error), file, line, bg_case_);       \
  } while (0)

/* The current case's name, set with bg_case() before BG_EXPECT. */
static char bg_case_[256];

static inline void bg_case(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void bg_case(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(bg_case_, sizeof bg_case_, fmt, ap);
  va_end(ap);
}

static inline void bg_report_(const PopResult *r, int want_error, const char *file, int line, const char *name) {
  char buf[1024];
  if (r->calls != 1) return; /* RU_CAPTURE counted the failed pop */
  if (r->status != WGPUPopErrorScopeStatus_Success) {
    snprintf(buf, sizeof buf, "%s: the error scope could not be popped (status %d)", name, (int)r->status);
    harness_check(0, buf, file, line);
    return;
  }
  if (want_error)
    snprintf(buf, sizeof buf, "%s: expected a validation error, got %s", name,
             r->type == WGPUErrorType_NoError ? "none" : r->msg);
  else
    snprintf(buf, sizeof buf, "%s: expected no error, got type %d: %s", name, (int)r->type, r->msg);
  int ok = want_error ? r->type == WGPUErrorType_Validation : r->type == WGPUErrorType_NoError;
  harness_check(ok, buf, file, line);
}

/* A test's start: the watchdog and ctx_init. When ctx_init fails it counts
 * a failure and releases what it got; returns 1 when ctx is ready. */
#define bg_start(ctx, seconds) bg_start_(ctx, seconds, __FILE__, __LINE__)
static inline int bg_start_(Ctx *ctx, unsigned seconds, const char *file, int line) {
  start_watchdog(seconds);
  if (ctx_init(ctx) == 0) return 1;
  harness_check(0, "ctx_init(&ctx) == 0", file, line);
  ctx_release(ctx);
  return 0;
}

/* A test's end: checks that no error escaped its error scopes, releases ctx
 * and returns main's exit code. */
#define bg_finish(ctx) bg_finish_(ctx, __FILE__, __LINE__)
static inline int bg_finish_(Ctx *ctx, const char *file, int line) {
  harness_check_u64((uint64_t)ctx->uncaptured_errors, 0, "ctx.uncaptured_errors", "0", file, line);
  ctx_release(ctx);
  return test_finish();
}

/* REQUIRE for after bg_start: gives up (a failed check), releasing ctx; the
 * caller holds nothing else at that point. */
#define BG_REQUIRE(ctx, cond)                      \
  do {                                             \
    if (!(cond)) {                                 \
      harness_check(0, #cond, __FILE__, __LINE__); \
      ctx_release(ctx);                            \
      return test_finish();                        \
    }                                              \
  } while (0)

/* Cases left out on this adapter because their subject does not exist
 * there, counted by reason (reasons are compared by content). */
#define BG_LEFT_OUT_REASONS 4
typedef struct {
  const char *why[BG_LEFT_OUT_REASONS];
  int n[BG_LEFT_OUT_REASONS];
} BgLeftOut;

/* Leaves the current case (named with bg_case) out, printing its name. */
static inline void bg_leave_out(BgLeftOut *s, const char *why) {
  printf("left out: %s\n", bg_case_);
  for (int i = 0; i < BG_LEFT_OUT_REASONS; i++) {
    if (!s->why[i]) s->why[i] = why;
    if (strcmp(s->why[i], why) == 0) {
      s->n[i]++;
      return;
    }
  }
  fprintf(stderr, "bg_leave_out: more than %d reasons\n", BG_LEFT_OUT_REASONS);
  harness_check(0, "bg_leave_out: a reason slot is free", __FILE__, __LINE__);
}

/* Prints "N cases left out: <why>" for each reason. */
static inline void bg_left_out_print(const BgLeftOut *s) {
  for (int i = 0; i < BG_LEFT_OUT_REASONS; i++)
    if (s->n[i]) printf("%d cases left out: %s\n", s->n[i], s->why[i]);
}

/* Whether ctx's adapter is wgpu-core's OpenGL one. It is a downlevel
 * adapter: wgpu-core takes its texture format features from the GL
 * backend's own table (describe_format_features), not from WebGPU's. */
static inline int bg_is_gl(Ctx *ctx) { return harness_backend(ctx) == WGPUBackendType_OpenGL; }

/* On the OpenGL adapter: whether a 1x1 texture of `format` with `usage`
 * cannot be made there (webgpu.h has no format-capabilities query, so it is
 * tried in an error scope). On any other adapter 0, without trying: every
 * format and usage these tests use exists on a WebGPU adapter, and a missing
 * one must fail its cases. */
static inline int bg_gl_lacks(Ctx *ctx, WGPUTextureFormat format, WGPUTextureUsage usage) {
  if (!bg_is_gl(ctx)) return 0;
  WGPUTexture t = NULL;
  PopResult r;
  RU_CAPTURE(ctx, &r, t = tu_texture(ctx, 1, 1, format, usage));
  if (t) wgpuTextureRelease(t);
  return r.type != WGPUErrorType_NoError;
}

static inline WGPULimits bg_limits(Ctx *ctx) {
  WGPULimits l = WGPU_LIMITS_INIT;
  wgpuDeviceGetLimits(ctx->device, &l);
  return l;
}

/* The three buffer binding types, their names, and what the device's limits
 * and usages say for each. */
#define BG_BUFFER_TYPE_COUNT 3
static const WGPUBufferBindingType BG_BUFFER_TYPES[BG_BUFFER_TYPE_COUNT] = {
    WGPUBufferBindingType_Uniform, WGPUBufferBindingType_Storage, WGPUBufferBindingType_ReadOnlyStorage};
static const char *const BG_BUFFER_TYPE_NAMES[BG_BUFFER_TYPE_COUNT] = {"uniform", "storage", "read-only-storage"};

static inline int bg_is_uniform(WGPUBufferBindingType t) { return t == WGPUBufferBindingType_Uniform; }

/* The buffer usage a binding of type t needs. */
static inline WGPUBufferUsage bg_buffer_usage(WGPUBufferBindingType t) {
  return bg_is_uniform(t) ? WGPUBufferUsage_Uniform : WGPUBufferUsage_Storage;
}

/* min{Uniform,Storage}BufferOffsetAlignment. */
static inline uint32_t bg_offset_alignment(const WGPULimits *l, WGPUBufferBindingType t) {
  return bg_is_uniform(t) ? l->minUniformBufferOffsetAlignment : l->minStorageBufferOffsetAlignment;
}

/* maxDynamic{Uniform,Storage}BuffersPerPipelineLayout. */
static inline uint32_t bg_max_dynamic(const WGPULimits *l, WGPUBufferBindingType t) {
  return bg_is_uniform(t) ? l->maxDynamicUniformBuffersPerPipelineLayout
                          : l->maxDynamicStorageBuffersPerPipelineLayout;
}

/* max{Uniform,Storage}BuffersPerShaderStage. */
static inline uint32_t bg_max_per_stage(const WGPULimits *l, WGPUBufferBindingType t) {
  return bg_is_uniform(t) ? l->maxUniformBuffersPerShaderStage : l->maxStorageBuffersPerShaderStage;
}

static inline const char *bg_dim_name(WGPUTextureViewDimension d) {
  static const char *const n[] = {"Undefined", "1D", "2D", "2DArray", "Cube", "CubeArray", "3D"};
  return (unsigned)d < sizeof n / sizeof n[0] ? n[d] : "?";
}

/* Layout entries. */
static inline WGPUBindGroupLayoutEntry bg_buffer_entry(uint32_t binding, WGPUShaderStage vis,
                                                       WGPUBufferBindingType type, int dynamic) {
  WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  e.binding = binding;
  e.visibility = vis;
  e.buffer.type = type;
  e.buffer.hasDynamicOffset = dynamic ? 1u : 0u;
  return e;
}

static inline WGPUBindGroupLayoutEntry bg_sampler_entry(uint32_t binding, WGPUShaderStage vis,
                                                        WGPUSamplerBindingType type) {
  WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  e.binding = binding;
  e.visibility = vis;
  e.sampler.type = type;
  return e;
}

static inline WGPUBindGroupLayoutEntry bg_texture_entry(uint32_t binding, WGPUShaderStage vis,
                                                        WGPUTextureSampleType type,
                                                        WGPUTextureViewDimension dim, int multisampled) {
  WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  e.binding = binding;
  e.visibility = vis;
  e.texture.sampleType = type;
  e.texture.viewDimension = dim;
  e.texture.multisampled = multisampled ? 1u : 0u;
  return e;
}

static inline WGPUBindGroupLayoutEntry bg_storage_texture_entry(uint32_t binding, WGPUShaderStage vis,
                                                                WGPUStorageTextureAccess access,
                                                                WGPUTextureFormat format,
                                                                WGPUTextureViewDimension dim) {
  WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  e.binding = binding;
  e.visibility = vis;
  e.storageTexture.access = access;
  e.storageTexture.format = format;
  e.storageTexture.viewDimension = dim;
  return e;
}

static inline WGPUBindGroupLayout bg_layout_on(WGPUDevice device, const WGPUBindGroupLayoutEntry *e, size_t n) {
  WGPUBindGroupLayoutDescriptor d = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  d.entryCount = n;
  d.entries = e;
  return wgpuDeviceCreateBindGroupLayout(device, &d);
}

static inline WGPUBindGroupLayout bg_layout(Ctx *ctx, const WGPUBindGroupLayoutEntry *e, size_t n) {
  return bg_layout_on(ctx->device, e, n);
}

/* Creates a bind group layout for the case (expecting a validation error or
 * not; a failure names the caller's line), checks it is not NULL and
 * releases it. */
#define bg_layout_case(ctx, want_error, e, n) bg_layout_case_(ctx, want_error, e, n, __FILE__, __LINE__)
static inline void bg_layout_case_(Ctx *ctx, int want_error, const WGPUBindGroupLayoutEntry *e, size_t n,
                                   const char *file, int line) {
  WGPUBindGroupLayout l = NULL;
  BG_EXPECT_AT(ctx, want_error, file, line, l = bg_layout(ctx, e, n));
  harness_check(l != NULL, "the bind group layout is not NULL", file, line);
  if (l) wgpuBindGroupLayoutRelease(l);
}

/* Group entries. */
static inline WGPUBindGroupEntry bg_buf(uint32_t binding, WGPUBuffer b, uint64_t offset, uint64_t size) {
  WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
  e.binding = binding;
  e.buffer = b;
  e.offset = offset;
  e.size = size;
  return e;
}

static inline WGPUBindGroupEntry bg_view(uint32_t binding, WGPUTextureView v) {
  WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
  e.binding = binding;
  e.textureView = v;
  return e;
}

static inline WGPUBindGroupEntry bg_samp(uint32_t binding, WGPUSampler s) {
  WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
  e.binding = binding;
  e.sampler = s;
  return e;
}

static inline WGPUBindGroup bg_group_on(WGPUDevice device, WGPUBindGroupLayout l, const WGPUBindGroupEntry *e,
                                        size_t n) {
  WGPUBindGroupDescriptor d = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  d.layout = l;
  d.entryCount = n;
  d.entries = e;
  return wgpuDeviceCreateBindGroup(device, &d);
}

static inline WGPUBindGroup bg_group(Ctx *ctx, WGPUBindGroupLayout l, const WGPUBindGroupEntry *e, size_t n) {
  return bg_group_on(ctx->device, l, e, n);
}

/* One resource of any kind for a bind group entry (the members not used
 * are NULL). */
typedef struct {
  WGPUBuffer buffer;
  WGPUSampler sampler;
  WGPUTexture texture;
  WGPUTextureView view;
} BgRes;

static inline WGPUBindGroupEntry bg_res_entry(uint32_t binding, const BgRes *r) {
  WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
  e.binding = binding;
  e.buffer = r->buffer;
  e.sampler = r->sampler;
  e.textureView = r->view;
  return e;
}

static inline void bg_res_release(BgRes *r) {
  if (r->view) wgpuTextureViewRelease(r->view);
  if (r->texture) wgpuTextureRelease(r->texture);
  if (r->sampler) wgpuSamplerRelease(r->sampler);
  if (r->buffer) wgpuBufferRelease(r->buffer);
  memset(r, 0, sizeof *r);
}

/* Creates a bind group for the case (expecting a validation error or not;
 * a failure names the caller's line) and releases it. */
#define bg_group_case(ctx, want_error, l, e, n) bg_group_case_(ctx, want_error, l, e, n, __FILE__, __LINE__)
static inline void bg_group_case_(Ctx *ctx, int want_error, WGPUBindGroupLayout l, const WGPUBindGroupEntry *e,
                                  size_t n, const char *file, int line) {
  WGPUBindGroup g = NULL;
  BG_EXPECT_AT(ctx, want_error, file, line, g = bg_group(ctx, l, e, n));
  harness_check(g != NULL, "the bind group is not NULL", file, line);
  if (g) wgpuBindGroupRelease(g);
}

/* A texture of any dimension, layer, mip and sample count (tu_texture,
 * textures/tex_util.h, makes the plain 2D ones). */
static inline WGPUTexture bg_texture(Ctx *ctx, WGPUTextureDimension dim, uint32_t w, uint32_t h, uint32_t layers,
                                     uint32_t mips, uint32_t samples, WGPUTextureFormat format,
                                     WGPUTextureUsage usage) {
  WGPUTextureDescriptor d = tu_desc(dim, w, h, layers, mips, samples, format, usage);
  return wgpuDeviceCreateTexture(ctx->device, &d);
}

/* A second device on ctx's instance, from a new adapter, with no callbacks. */
typedef struct {
  WGPUAdapter adapter;
  WGPUDevice device;
} BgOther;

static inline void bg_other_close(BgOther *o) {
  if (o->device) wgpuDeviceRelease(o->device);
  if (o->adapter) wgpuAdapterRelease(o->adapter);
  o->device = NULL;
  o->adapter = NULL;
}

/* Returns 1 when the device was had; otherwise releases what was got. */
static inline int bg_other_open(Ctx *ctx, BgOther *o) {
  o->adapter = request_adapter(ctx->instance, MU_WAIT_NS);
  o->device = o->adapter ? request_device(ctx->instance, o->adapter, NULL, MU_WAIT_NS) : NULL;
  if (!o->device) bg_other_close(o);
  return o->device != NULL;
}

#endif
