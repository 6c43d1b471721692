/* Shared helpers for the render tests: a vertex + fragment shader and a
 * pipeline descriptor that uses it. */
#ifndef WGPU_SHIM_RENDER_UTIL_H
#define WGPU_SHIM_RENDER_UTIL_H

#include "../mapping/mapping_util.h"

/* Vertex stage reads a vec2 position at location 0; the fragment stage
 * writes a colour (location 0) from a uniform at group 0 binding 0. */
static const char *const RU_WGSL =
    "struct U { color: vec4f }\n"
    "@group(0) @binding(0) var<uniform> u: U;\n"
    "@vertex fn vs(@location(0) pos: vec2f) -> @builtin(position) vec4f {\n"
    "  return vec4f(pos, 0.0, 1.0);\n"
    "}\n"
    "@fragment fn fs() -> @location(0) vec4f { return u.color; }\n";

/* Vertex stage only, no inputs (for INIT-default pipelines). */
static const char *const RU_WGSL_NO_INPUTS =
    "@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {\n"
    "  return vec4f(f32(i), 0.0, 0.0, 1.0);\n"
    "}\n"
    "@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }\n";

/* Storage for a pipeline descriptor's pointed-to parts. */
typedef struct {
  WGPUVertexAttribute attr;
  WGPUVertexBufferLayout buffer;
  WGPUColorTargetState target;
  WGPUBlendState blend;
  WGPUFragmentState fragment;
  WGPURenderPipelineDescriptor desc;
} RuPipeline;

/* A valid descriptor for RU_WGSL: one vertex buffer (float32x2, stride 8),
 * one RGBA8Unorm target with alpha blending, auto layout. */
static inline void ru_pipeline_init(RuPipeline *p, WGPUShaderModule module) {
  memset(p, 0, sizeof *p);
  p->attr = WGPU_VERTEX_ATTRIBUTE_INIT;
  p->attr.format = WGPUVertexFormat_Float32x2;
  p->attr.offset = 0;
  p->attr.shaderLocation = 0;
  p->buffer = WGPU_VERTEX_BUFFER_LAYOUT_INIT;
  p->buffer.stepMode = WGPUVertexStepMode_Vertex;
  p->buffer.arrayStride = 8;
  p->buffer.attributeCount = 1;
  p->buffer.attributes = &p->attr;
  p->blend = WGPU_BLEND_STATE_INIT;
  p->blend.color.operation = WGPUBlendOperation_Add;
  p->blend.color.srcFactor = WGPUBlendFactor_SrcAlpha;
  p->blend.color.dstFactor = WGPUBlendFactor_OneMinusSrcAlpha;
  p->target = WGPU_COLOR_TARGET_STATE_INIT;
  p->target.format = WGPUTextureFormat_RGBA8Unorm;
  p->target.blend = &p->blend;
  p->fragment = WGPU_FRAGMENT_STATE_INIT;
  p->fragment.module = module;
  p->fragment.entryPoint = sv("fs");
  p->fragment.targetCount = 1;
  p->fragment.targets = &p->target;
  p->desc = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
  p->desc.vertex.module = module;
  p->desc.vertex.entryPoint = sv("vs");
  p->desc.vertex.bufferCount = 1;
  p->desc.vertex.buffers = &p->buffer;
  p->desc.fragment = &p->fragment;
}

/* A render bundle encoder descriptor for one RGBA8Unorm target. */
static inline WGPURenderBundleEncoder ru_bundle_encoder(WGPUDevice device, const WGPUTextureFormat *format) {
  WGPURenderBundleEncoderDescriptor d = WGPU_RENDER_BUNDLE_ENCODER_DESCRIPTOR_INIT;
  d.colorFormatCount = 1;
  d.colorFormats = format;
  return wgpuDeviceCreateRenderBundleEncoder(device, &d);
}

/* The message of the validation error raised by the statement(s), popped
 * from a Validation scope into r (r->type is NoError when none). */
#define RU_CAPTURE(ctx, r, ...)                                               \
  do {                                                                        \
    wgpuDevicePushErrorScope((ctx)->device, WGPUErrorFilter_Validation);      \
    __VA_ARGS__;                                                              \
    CHECK(mu_pop_full((ctx)->instance, (ctx)->device, (r)));                  \
  } while (0)

#endif
