/* Rule (WebGPU createRenderPipeline, GPUVertexState): at most
 * maxVertexBuffers buffer layouts and maxVertexAttributes attributes in all;
 * arrayStride at most maxVertexBufferArrayStride and a multiple of 4; each
 * shaderLocation below maxVertexAttributes and unique across all buffers;
 * each attribute offset a multiple of min(4, format size) and the attribute
 * inside the stride (inside maxVertexBufferArrayStride when the stride is
 * 0); every vertex shader input location must come from an attribute whose
 * format has the input's scalar type (float / uint / sint), and no shader
 * input may use a location >= maxVertexAttributes. Each violation is a
 * validation error (at pipeline creation, or for the location limit at
 * shader module or pipeline creation) with a non-NULL pipeline; overlapping
 * attributes and the valid neighbours raise nothing. */
#include "pipeline_util.h"

#define MAX_ATTRS 20
#define MAX_BUFS 10

typedef struct {
  WGPUVertexAttribute attrs[MAX_BUFS][MAX_ATTRS];
  WGPUVertexBufferLayout bufs[MAX_BUFS];
  WGPUColorTargetState target;
  WGPUFragmentState fragment;
  WGPURenderPipelineDescriptor desc;
} Pipe;

/* A module whose `vs` reads, for each i < n, `types[i]` at `locs[i]`. */
static WGPUShaderModule vs_module(Ctx *ctx, size_t n, const unsigned *locs, const char *const *types) {
  char code[4096];
  size_t at = 0;
  at += snprintf(code + at, sizeof code - at, "struct In {\n  @builtin(vertex_index) vi: u32,\n");
  for (size_t i = 0; i < n; i++)
    at += snprintf(code + at, sizeof code - at, "  @location(%u) a%llu: %s,\n", locs[i], (unsigned long long)i,
                   types[i]);
  snprintf(code + at, sizeof code - at,
           "}\n@vertex fn vs(i: In) -> @builtin(position) vec4f { return vec4f(0.0, 0.0, 0.0, 1.0); }\n"
           "@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }\n");
  return make_wgsl(ctx->device, code);
}

/* nbufs buffer layouts (stride 16, step Vertex) without attributes. */
static void pipe_init(Pipe *p, WGPUShaderModule m, size_t nbufs) {
  memset(p, 0, sizeof *p);
  for (size_t b = 0; b < MAX_BUFS; b++) {
    p->bufs[b] = WGPU_VERTEX_BUFFER_LAYOUT_INIT;
    p->bufs[b].stepMode = WGPUVertexStepMode_Vertex;
    p->bufs[b].arrayStride = 16;
    p->bufs[b].attributes = p->attrs[b];
  }
  pl_render_init(&p->desc, &p->fragment, &p->target, m);
  p->desc.vertex.bufferCount = nbufs;
  p->desc.vertex.buffers = p->bufs;
}

static void add_attr(Pipe *p, size_t buf, WGPUVertexFormat f, uint64_t offset, uint32_t loc) {
  WGPUVertexAttribute *a = &p->attrs[buf][p->bufs[buf].attributeCount++];
  *a = WGPU_VERTEX_ATTRIBUTE_INIT;
  a->format = f;
  a->offset = offset;
  a->shaderLocation = loc;
}

static void expect(Ctx *ctx, const Pipe *p, int want_error, const char *what) {
  pl_expect_render(ctx, &p->desc, want_error, what);
}

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPULimits lim = WGPU_LIMITS_INIT;
  REQUIRE(wgpuDeviceGetLimits(ctx.device, &lim) == WGPUStatus_Success);
  REQUIRE(lim.maxVertexBuffers < MAX_BUFS && lim.maxVertexAttributes < MAX_ATTRS);
  WGPUShaderModule m0 = vs_module(&ctx, 0, NULL, NULL);
  REQUIRE(m0 != NULL);
  Pipe p;
  char what[256];

  /* max_vertex_buffer_limit. */
  pipe_init(&p, m0, lim.maxVertexBuffers);
  expect(&ctx, &p, 0, "maxVertexBuffers buffer layouts");
  pipe_init(&p, m0, lim.maxVertexBuffers + 1);
  expect(&ctx, &p, 1, "maxVertexBuffers + 1 buffer layouts");

  /* max_vertex_attribute_limit: attributes spread over two buffers. */
  for (uint32_t extra = 0; extra < 2; extra++) {
    uint32_t n = lim.maxVertexAttributes + extra;
    pipe_init(&p, m0, 2);
    for (uint32_t i = 0; i < n; i++) {
      /* The extra attribute reuses location 0; only the count is under test
       * then, as the uniqueness rule is tested below. */
      add_attr(&p, i % 2, WGPUVertexFormat_Float32, 0, i < lim.maxVertexAttributes ? i : 0);
    }
    snprintf(what, sizeof what, "%u vertex attributes in all", n);
    expect(&ctx, &p, extra != 0, what);
  }

  /* max_vertex_buffer_array_stride_limit and alignment. */
  const uint64_t strides[] = {0, 4, 8, 2044, 2048, 2052, 4096, 2, 6, 2046, 1};
  for (size_t i = 0; i < sizeof strides / sizeof strides[0]; i++) {
    pipe_init(&p, m0, 1);
    p.bufs[0].arrayStride = strides[i];
    int bad = strides[i] > lim.maxVertexBufferArrayStride || strides[i] % 4 != 0;
    snprintf(what, sizeof what, "arrayStride %llu (no attributes)", (unsigned long long)strides[i]);
    expect(&ctx, &p, bad, what);
  }

  /* vertex_attribute_shaderLocation_limit. */
  const uint32_t locs[] = {0, 15, 16, 17, 0x7fffffff, 0xffffffffu};
  for (size_t i = 0; i < sizeof locs / sizeof locs[0]; i++) {
    pipe_init(&p, m0, 1);
    add_attr(&p, 0, WGPUVertexFormat_Float32, 0, locs[i]);
    snprintf(what, sizeof what, "attribute shaderLocation %u", locs[i]);
    expect(&ctx, &p, locs[i] >= lim.maxVertexAttributes, what);
  }

  /* vertex_attribute_shaderLocation_unique: same and different buffers. */
  pipe_init(&p, m0, 1);
  add_attr(&p, 0, WGPUVertexFormat_Float32, 0, 3);
  add_attr(&p, 0, WGPUVertexFormat_Float32, 4, 3);
  expect(&ctx, &p, 1, "shaderLocation 3 twice in one buffer");
  pipe_init(&p, m0, 2);
  add_attr(&p, 0, WGPUVertexFormat_Float32, 0, 7);
  add_attr(&p, 1, WGPUVertexFormat_Float32, 0, 7);
  expect(&ctx, &p, 1, "shaderLocation 7 in two buffers");
  pipe_init(&p, m0, 2);
  add_attr(&p, 0, WGPUVertexFormat_Float32, 0, 7);
  add_attr(&p, 1, WGPUVertexFormat_Float32, 0, 8);
  expect(&ctx, &p, 0, "shaderLocations 7 and 8 in two buffers");

  /* vertex_attribute_offset_alignment: multiple of min(4, size). */
  struct { WGPUVertexFormat f; uint32_t size; } fmts[] = {
      {WGPUVertexFormat_Uint8x2, 2}, {WGPUVertexFormat_Uint8x4, 4}, {WGPUVertexFormat_Unorm16x2, 4},
      {WGPUVertexFormat_Float16x4, 8}, {WGPUVertexFormat_Float32, 4}, {WGPUVertexFormat_Float32x3, 12},
      {WGPUVertexFormat_Uint32x4, 16}};
  const uint64_t offs[] = {0, 1, 2, 3, 4, 6, 8};
  for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
    for (size_t o = 0; o < sizeof offs / sizeof offs[0]; o++) {
      pipe_init(&p, m0, 1);
      p.bufs[0].arrayStride = 32;
      add_attr(&p, 0, fmts[f].f, offs[o], 0);
      uint32_t align = fmts[f].size < 4 ? fmts[f].size : 4;
      snprintf(what, sizeof what, "format %d (size %u) at offset %llu", (int)fmts[f].f, fmts[f].size,
               (unsigned long long)offs[o]);
      expect(&ctx, &p, offs[o] % align != 0, what);
    }
  }

  /* vertex_attribute_contained_in_stride (the stride-8 Float32x2 at 4 case
   * is in pipeline_invalid_is_validation_error). */
  struct { uint64_t stride, offset; WGPUVertexFormat f; int bad; const char *n; } cont[] = {
      {16, 0, WGPUVertexFormat_Uint32x4, 0, "Uint32x4 at 0, stride 16"},
      {16, 4, WGPUVertexFormat_Uint32x4, 1, "Uint32x4 at 4, stride 16"},
      {12, 8, WGPUVertexFormat_Float32, 0, "Float32 at 8, stride 12"},
      {12, 12, WGPUVertexFormat_Float32, 1, "Float32 at 12, stride 12"},
      {4, 2, WGPUVertexFormat_Unorm8x2, 0, "Unorm8x2 at 2, stride 4"},
      {4, 4, WGPUVertexFormat_Unorm8x2, 1, "Unorm8x2 at 4, stride 4"},
      {0, 2048 - 16, WGPUVertexFormat_Float32x4, 0, "Float32x4 at 2032, stride 0"},
      {0, 2048 - 12, WGPUVertexFormat_Float32x4, 1, "Float32x4 at 2036, stride 0"},
      {0, 2048, WGPUVertexFormat_Float32, 1, "Float32 at 2048, stride 0"},
      {0, 1ull << 32, WGPUVertexFormat_Float32, 1, "Float32 at 2^32, stride 0"},
      {2048, 2044, WGPUVertexFormat_Float32, 0, "Float32 at 2044, stride 2048"},
      {2048, 2048, WGPUVertexFormat_Float32, 1, "Float32 at 2048, stride 2048"},
  };
  REQUIRE(lim.maxVertexBufferArrayStride == 2048);
  for (size_t i = 0; i < sizeof cont / sizeof cont[0]; i++) {
    pipe_init(&p, m0, 1);
    p.bufs[0].arrayStride = cont[i].stride;
    add_attr(&p, 0, cont[i].f, cont[i].offset, 0);
    expect(&ctx, &p, cont[i].bad, cont[i].n);
  }

  /* many_attributes_overlapping: every attribute at offset 0, all valid. */
  pipe_init(&p, m0, 1);
  for (uint32_t i = 0; i < lim.maxVertexAttributes; i++) add_attr(&p, 0, WGPUVertexFormat_Float32x4, 0, i);
  expect(&ctx, &p, 0, "maxVertexAttributes overlapping attributes at offset 0");

  /* vertex_shader_input_location_in_vertex_state. */
  {
    const unsigned l[] = {0, 5};
    const char *const t[] = {"vec4f", "vec4f"};
    WGPUShaderModule m = vs_module(&ctx, 2, l, t);
    REQUIRE(m != NULL);
    pipe_init(&p, m, 1);
    add_attr(&p, 0, WGPUVertexFormat_Float32x4, 0, 0);
    expect(&ctx, &p, 1, "shader reads location 5, vertex state has only location 0");
    pipe_init(&p, m, 2);
    add_attr(&p, 0, WGPUVertexFormat_Float32x4, 0, 0);
    add_attr(&p, 1, WGPUVertexFormat_Float32x4, 0, 5);
    expect(&ctx, &p, 0, "shader reads locations 0 and 5, both in the vertex state");
    pipe_init(&p, m, 0);
    expect(&ctx, &p, 1, "shader reads locations 0 and 5, no vertex buffers");
    wgpuShaderModuleRelease(m);
  }

  /* vertex_shader_type_matches_attribute_format. */
  struct { const char *type; WGPUVertexFormat f; int ok; } tm[] = {
      {"f32", WGPUVertexFormat_Float32, 1},    {"f32", WGPUVertexFormat_Unorm8x4, 1},
      {"f32", WGPUVertexFormat_Snorm16x2, 1},  {"f32", WGPUVertexFormat_Float16x2, 1},
      {"f32", WGPUVertexFormat_Uint32, 0},     {"f32", WGPUVertexFormat_Sint32, 0},
      {"f32", WGPUVertexFormat_Uint8x4, 0},    {"u32", WGPUVertexFormat_Uint32, 1},
      {"u32", WGPUVertexFormat_Uint16x2, 1},   {"u32", WGPUVertexFormat_Float32, 0},
      {"u32", WGPUVertexFormat_Sint32, 0},     {"u32", WGPUVertexFormat_Unorm8x4, 0},
      {"i32", WGPUVertexFormat_Sint32, 1},     {"i32", WGPUVertexFormat_Sint8x4, 1},
      {"i32", WGPUVertexFormat_Uint32, 0},     {"i32", WGPUVertexFormat_Float32x2, 0},
      {"vec4f", WGPUVertexFormat_Float32, 1},  {"vec2u", WGPUVertexFormat_Uint32x4, 1},
      {"vec4i", WGPUVertexFormat_Uint32x4, 0}, {"vec3f", WGPUVertexFormat_Snorm8x4, 1},
  };
  for (size_t i = 0; i < sizeof tm / sizeof tm[0]; i++) {
    const unsigned l[] = {0};
    const char *const t[] = {tm[i].type};
    WGPUShaderModule m = vs_module(&ctx, 1, l, t);
    REQUIRE(m != NULL);
    pipe_init(&p, m, 1);
    p.bufs[0].arrayStride = 16;
    add_attr(&p, 0, tm[i].f, 0, 0);
    snprintf(what, sizeof what, "shader input %s from vertex format %d", tm[i].type, (int)tm[i].f);
    expect(&ctx, &p, !tm[i].ok, what);
    wgpuShaderModuleRelease(m);
  }

  /* vertex_shader_input_location_limit: a shader input at location 16. */
  for (unsigned loc = 15; loc <= 16; loc++) {
    const unsigned l[] = {loc};
    const char *const t[] = {"vec4f"};
    PopResult r;
    WGPURenderPipeline pipe = NULL;
    RU_CAPTURE(&ctx, &r, {
      WGPUShaderModule m = vs_module(&ctx, 1, l, t);
      pipe_init(&p, m, 1);
      add_attr(&p, 0, WGPUVertexFormat_Float32x4, 0, loc < lim.maxVertexAttributes ? loc : 0);
      pipe = wgpuDeviceCreateRenderPipeline(ctx.device, &p.desc);
      if (m) wgpuShaderModuleRelease(m);
    });
    char buf[1024];
    snprintf(buf, sizeof buf, "shader input at location %u: expected %s (got type %d: %s)", loc,
             loc >= lim.maxVertexAttributes ? "a validation error" : "no error", (int)r.type, r.msg);
    harness_check(loc >= lim.maxVertexAttributes ? r.type == WGPUErrorType_Validation
                                                 : r.type == WGPUErrorType_NoError,
                  buf, __FILE__, __LINE__);
    CHECK(pipe != NULL);
    if (pipe) wgpuRenderPipelineRelease(pipe);
  }

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuShaderModuleRelease(m0);
  ctx_release(&ctx);
  return test_finish();
}
