/* Rule (WebGPU device mismatch, across instances): an object made on a
 * device of another WGPUInstance, handed to a call of this device, is a
 * validation error where that call reports one (creation, the encoder's
 * Finish, a queue call), never a crash, a NULL object or a silent use of
 * some other object. wgpu-core checks device mismatch within one instance
 * only: each instance has its own registries, where the foreign object's id
 * names nothing (wgpu-core panicked) or another object of this instance.
 * Here the other instance holds several objects of each kind, so that its
 * ids exist in this instance's registries too. */
#include "../render/render_util.h"
#include "../textures/tex_util.h"

static const char *const WGSL =
    "@group(0) @binding(0) var<storage, read_write> b: array<u32>;\n"
    "@compute @workgroup_size(1) fn main() { b[0] = 1u; }\n";

static WGPUShaderModule module(WGPUDevice device) {
  WGPUShaderSourceWGSL src = WGPU_SHADER_SOURCE_WGSL_INIT;
  src.code = sv(WGSL);
  WGPUShaderModuleDescriptor d = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
  d.nextInChain = &src.chain;
  return wgpuDeviceCreateShaderModule(device, &d);
}

static WGPUBindGroupLayout storage_layout(WGPUDevice device) {
  WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  e.binding = 0;
  e.visibility = WGPUShaderStage_Compute;
  e.buffer.type = WGPUBufferBindingType_Storage;
  WGPUBindGroupLayoutDescriptor d = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  d.entryCount = 1;
  d.entries = &e;
  return wgpuDeviceCreateBindGroupLayout(device, &d);
}

static WGPUBindGroup storage_group(WGPUDevice device, WGPUBindGroupLayout layout, WGPUBuffer buffer) {
  WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
  e.binding = 0;
  e.buffer = buffer;
  e.size = WGPU_WHOLE_SIZE;
  WGPUBindGroupDescriptor d = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  d.layout = layout;
  d.entryCount = 1;
  d.entries = &e;
  return wgpuDeviceCreateBindGroup(device, &d);
}

static WGPUComputePipeline pipeline(WGPUDevice device, WGPUShaderModule m, WGPUPipelineLayout layout) {
  WGPUComputePipelineDescriptor d = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  d.layout = layout;
  d.compute.module = m;
  return wgpuDeviceCreateComputePipeline(device, &d);
}

/* The objects of one side. */
typedef struct {
  WGPUBuffer buffer, buffers[3];
  WGPUTexture texture;
  WGPUTextureView view;
  WGPUShaderModule module;
  WGPUBindGroupLayout layout;
  WGPUPipelineLayout pipeline_layout;
  WGPUBindGroup group;
  WGPUComputePipeline pipeline;
  WGPUCommandBuffer commands;
} Side;

static void side_init(Ctx *ctx, Side *s) {
  for (int i = 0; i < 3; i++) s->buffers[i] = make_buffer(ctx->device, 64, WGPUBufferUsage_CopyDst, 0);
  s->buffer =
      make_buffer(ctx->device, 256, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 0);
  s->texture = tu_texture(ctx, 4, 4, WGPUTextureFormat_RGBA8Unorm,
                          WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst | WGPUTextureUsage_RenderAttachment);
  s->view = wgpuTextureCreateView(s->texture, NULL);
  s->module = module(ctx->device);
  s->layout = storage_layout(ctx->device);
  WGPUPipelineLayoutDescriptor pd = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
  pd.bindGroupLayoutCount = 1;
  pd.bindGroupLayouts = &s->layout;
  s->pipeline_layout = wgpuDeviceCreatePipelineLayout(ctx->device, &pd);
  s->group = storage_group(ctx->device, s->layout, s->buffer);
  s->pipeline = pipeline(ctx->device, s->module, s->pipeline_layout);
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  s->commands = wgpuCommandEncoderFinish(enc, NULL);
  wgpuCommandEncoderRelease(enc);
}

static void side_release(Side *s) {
  for (int i = 0; i < 3; i++) wgpuBufferRelease(s->buffers[i]);
  wgpuBufferRelease(s->buffer);
  wgpuTextureViewRelease(s->view);
  wgpuTextureRelease(s->texture);
  wgpuShaderModuleRelease(s->module);
  wgpuBindGroupLayoutRelease(s->layout);
  wgpuPipelineLayoutRelease(s->pipeline_layout);
  wgpuBindGroupRelease(s->group);
  wgpuComputePipelineRelease(s->pipeline);
  wgpuCommandBufferRelease(s->commands);
}

/* Finishing `enc` raises a validation error naming another instance. */
static void finish_fails(Ctx *ctx, WGPUCommandEncoder enc, const char *what) {
  PopResult r;
  WGPUCommandBuffer cb = NULL;
  RU_CAPTURE(ctx, &r, cb = wgpuCommandEncoderFinish(enc, NULL));
  char buf[768];
  snprintf(buf, sizeof buf, "%s: Finish is a validation error naming another instance (got type %d: %s)", what,
           (int)r.type, r.msg);
  harness_check(r.type == WGPUErrorType_Validation && strstr(r.msg, "another WGPUInstance") != NULL, buf, __FILE__,
                __LINE__);
  if (cb) wgpuCommandBufferRelease(cb);
  wgpuCommandEncoderRelease(enc);
}

/* The statement raises a validation error naming another instance. */
#define EXPECT_FOREIGN(ctx, what, ...)                                                                         \
  do {                                                                                                         \
    PopResult r_;                                                                                              \
    RU_CAPTURE(ctx, &r_, __VA_ARGS__);                                                                         \
    char buf_[768];                                                                                            \
    snprintf(buf_, sizeof buf_, "%s: a validation error naming another instance (got type %d: %s)", what,      \
             (int)r_.type, r_.msg);                                                                            \
    harness_check(r_.type == WGPUErrorType_Validation && strstr(r_.msg, "another WGPUInstance") != NULL, buf_, \
                  __FILE__, __LINE__);                                                                         \
  } while (0)

static void creations(Ctx *ctx, Side *mine, Side *other) {
  WGPUBindGroup g = NULL;
  EXPECT_FOREIGN(ctx, "bind group of another instance's buffer",
                 g = storage_group(ctx->device, mine->layout, other->buffer));
  CHECK(g != NULL);
  if (g) wgpuBindGroupRelease(g);
  EXPECT_FOREIGN(ctx, "bind group of another instance's layout",
                 g = storage_group(ctx->device, other->layout, mine->buffer));
  CHECK(g != NULL);
  if (g) wgpuBindGroupRelease(g);

  WGPUPipelineLayoutDescriptor pd = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
  pd.bindGroupLayoutCount = 1;
  pd.bindGroupLayouts = &other->layout;
  WGPUPipelineLayout pl = NULL;
  EXPECT_FOREIGN(ctx, "pipeline layout of another instance's bind group layout",
                 pl = wgpuDeviceCreatePipelineLayout(ctx->device, &pd));
  CHECK(pl != NULL);
  if (pl) wgpuPipelineLayoutRelease(pl);

  WGPUComputePipeline p = NULL;
  EXPECT_FOREIGN(ctx, "compute pipeline of another instance's module", p = pipeline(ctx->device, other->module, NULL));
  CHECK(p != NULL);
  if (p) wgpuComputePipelineRelease(p);
  EXPECT_FOREIGN(ctx, "compute pipeline of another instance's layout",
                 p = pipeline(ctx->device, mine->module, other->pipeline_layout));
  CHECK(p != NULL);
  if (p) wgpuComputePipelineRelease(p);
}

static void commands(Ctx *ctx, Side *mine, Side *other) {
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  wgpuCommandEncoderCopyBufferToBuffer(enc, other->buffer, 0, mine->buffer, 0, 4);
  finish_fails(ctx, enc, "CopyBufferToBuffer from another instance's buffer");

  enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  wgpuCommandEncoderClearBuffer(enc, other->buffer, 0, 4);
  finish_fails(ctx, enc, "ClearBuffer of another instance's buffer");

  enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPUTexelCopyTextureInfo src = tu_tex_info(other->texture), dst = tu_tex_info(mine->texture);
  WGPUExtent3D size = {4, 4, 1};
  wgpuCommandEncoderCopyTextureToTexture(enc, &src, &dst, &size);
  finish_fails(ctx, enc, "CopyTextureToTexture from another instance's texture");

  enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPUTexelCopyBufferInfo b = tu_buf_info(other->buffer, 256, 1);
  WGPUExtent3D row = {4, 1, 1};
  wgpuCommandEncoderCopyTextureToBuffer(enc, &dst, &b, &row);
  finish_fails(ctx, enc, "CopyTextureToBuffer into another instance's buffer");

  enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
  ca.view = other->view;
  ca.loadOp = WGPULoadOp_Clear;
  ca.storeOp = WGPUStoreOp_Store;
  WGPURenderPassDescriptor rp = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
  rp.colorAttachmentCount = 1;
  rp.colorAttachments = &ca;
  WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &rp);
  CHECK(pass != NULL);
  if (pass) {
    wgpuRenderPassEncoderEnd(pass);
    wgpuRenderPassEncoderRelease(pass);
  }
  finish_fails(ctx, enc, "a render pass on another instance's texture view");

  for (int k = 0; k < 2; k++) {
    enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
    WGPUComputePassEncoder cp = wgpuCommandEncoderBeginComputePass(enc, NULL);
    wgpuComputePassEncoderSetPipeline(cp, k == 0 ? other->pipeline : mine->pipeline);
    wgpuComputePassEncoderSetBindGroup(cp, 0, k == 1 ? other->group : mine->group, 0, NULL);
    wgpuComputePassEncoderDispatchWorkgroups(cp, 1, 1, 1);
    wgpuComputePassEncoderEnd(cp);
    wgpuComputePassEncoderRelease(cp);
    finish_fails(
        ctx, enc,
        k == 0 ? "SetPipeline with another instance's pipeline" : "SetBindGroup with another instance's bind group");
  }
}

static void queue_calls(Ctx *ctx, Side *mine, Side *other) {
  const uint32_t word = 7;
  EXPECT_FOREIGN(ctx, "WriteBuffer into another instance's buffer",
                 wgpuQueueWriteBuffer(ctx->queue, other->buffer, 0, &word, 4));
  WGPUTexelCopyTextureInfo t = tu_tex_info(other->texture);
  WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
  layout.bytesPerRow = 16;
  WGPUExtent3D one = {1, 1, 1};
  EXPECT_FOREIGN(ctx, "WriteTexture into another instance's texture",
                 wgpuQueueWriteTexture(ctx->queue, &t, &word, 4, &layout, &one));
  EXPECT_FOREIGN(ctx, "Submit of another instance's command buffer", wgpuQueueSubmit(ctx->queue, 1, &other->commands));
  /* This device still works: a valid write and copy read back. */
  wgpuQueueWriteBuffer(ctx->queue, mine->buffer, 0, &word, 4);
  uint32_t back = 0;
  CHECK(mu_read_buffer(ctx, mine->buffer, 0, &back, 4));
  CHECK_EQ(back, word);
}

int main(void) {
  start_watchdog(60);
  Ctx a, b;
  REQUIRE(ctx_init(&a) == 0);
  if (ctx_init(&b) != 0) {
    ctx_release(&a);
    REQUIRE(!"a second instance and device");
  }
  Side mine, other, other_more;
  side_init(&a, &mine);
  /* More objects on the other side than on this one, so that its ids are
   * also ids of live objects here. */
  side_init(&b, &other_more);
  side_init(&b, &other);

  creations(&a, &mine, &other);
  commands(&a, &mine, &other);
  queue_calls(&a, &mine, &other);

  CHECK_EQ(a.uncaptured_errors, 0);
  CHECK_EQ(b.uncaptured_errors, 0);
  side_release(&other);
  side_release(&other_more);
  side_release(&mine);
  ctx_release(&b);
  ctx_release(&a);
  return test_finish();
}
