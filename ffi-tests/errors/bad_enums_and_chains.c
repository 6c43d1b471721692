/* Rule (webgpu.h §1, §5, §6): numerically invalid enum values and bad struct
 * chains in device-timeline descriptors are validation errors that produce an
 * invalid object (never a crash, never NULL): unknown BufferUsage bits,
 * garbage TextureFormat / access in a BGL storage-texture entry, garbage
 * buffer binding type, unknown ShaderStage bits; a chained struct with an
 * unknown sType, a known sType that is not valid for that root (must not be
 * downcast), the same sType twice (and a cycle made of it); a
 * ShaderModuleDescriptor with no source, with two sources, or with a SPIR-V
 * source while the instance lacks the ShaderSourceSPIRV feature; an enum value
 * that needs a feature the device lacks (BGRA8Unorm storage texture without
 * BGRA8UnormStorage); a non-finite ConstantEntry.value (Inf, NaN). Using the
 * invalid objects raises further validation errors, not crashes. */
#include "../mapping/mapping_util.h"

#include <math.h>

static const char *const OVERRIDE_WGSL =
    "override k: f32 = 1.0;\n"
    "@group(0) @binding(0) var<storage, read_write> data: array<f32>;\n"
    "@compute @workgroup_size(1)\n"
    "fn main() { data[0] = k; }\n";

static WGPUBindGroupLayout bgl_with(Ctx *ctx, WGPUBindGroupLayoutEntry e) {
  WGPUBindGroupLayoutDescriptor d = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  d.entryCount = 1;
  d.entries = &e;
  return wgpuDeviceCreateBindGroupLayout(ctx->device, &d);
}

static WGPUBindGroupLayoutEntry storage_entry(void) {
  WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  e.binding = 0;
  e.visibility = WGPUShaderStage_Compute;
  e.buffer.type = WGPUBufferBindingType_Storage;
  return e;
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUBuffer bufs[16];
  int nb = 0;
  WGPUBindGroupLayout bgls[16];
  int nl = 0;
  WGPUShaderModule mods[16];
  int nm = 0;

  /* --- Control: the valid versions raise nothing. --- */
  EXPECT_NO_VALIDATION(&ctx, bufs[nb++] = make_buffer(ctx.device, 64, WGPUBufferUsage_CopyDst, 0));
  EXPECT_NO_VALIDATION(&ctx, bgls[nl++] = bgl_with(&ctx, storage_entry()));

  /* --- BufferUsage unknown bits. --- */
  WGPUBuffer b = NULL;
  EXPECT_VALIDATION(&ctx, b = make_buffer(ctx.device, 64, WGPUBufferUsage_CopyDst | ((WGPUBufferUsage)1 << 20), 0));
  CHECK(b != NULL);
  bufs[nb++] = b;
  /* Using the invalid buffer is an error too (not a crash). */
  EXPECT_VALIDATION(&ctx, wgpuQueueWriteBuffer(ctx.queue, b, 0, "abcd", 4));

  /* --- BGL entries with garbage enums. --- */
  WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  e.binding = 0;
  e.visibility = WGPUShaderStage_Compute;
  e.storageTexture.access = WGPUStorageTextureAccess_WriteOnly;
  e.storageTexture.format = (WGPUTextureFormat)0x0000FFEE;
  e.storageTexture.viewDimension = WGPUTextureViewDimension_2D;
  EXPECT_VALIDATION(&ctx, bgls[nl++] = bgl_with(&ctx, e));
  CHECK(bgls[nl - 1] != NULL);

  e.storageTexture.format = WGPUTextureFormat_RGBA8Unorm;
  e.storageTexture.access = (WGPUStorageTextureAccess)0x77;
  EXPECT_VALIDATION(&ctx, bgls[nl++] = bgl_with(&ctx, e));

  WGPUBindGroupLayoutEntry be = storage_entry();
  be.buffer.type = (WGPUBufferBindingType)0x55;
  EXPECT_VALIDATION(&ctx, bgls[nl++] = bgl_with(&ctx, be));

  be = storage_entry();
  be.visibility = WGPUShaderStage_Compute | ((WGPUShaderStage)1 << 30);
  EXPECT_VALIDATION(&ctx, bgls[nl++] = bgl_with(&ctx, be));
  WGPUBindGroupLayout invalid_bgl = bgls[nl - 1];

  /* A format that needs a feature this device does not have. */
  if (!wgpuDeviceHasFeature(ctx.device, WGPUFeatureName_BGRA8UnormStorage)) {
    e.storageTexture.format = WGPUTextureFormat_BGRA8Unorm;
    e.storageTexture.access = WGPUStorageTextureAccess_WriteOnly;
    EXPECT_VALIDATION(&ctx, bgls[nl++] = bgl_with(&ctx, e));
  }
  /* Control: the same entry with a core format is fine. */
  e.storageTexture.format = WGPUTextureFormat_RGBA8Unorm;
  EXPECT_NO_VALIDATION(&ctx, bgls[nl++] = bgl_with(&ctx, e));

  /* Using an invalid layout in a pipeline layout: error, not crash. */
  {
    WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pld.bindGroupLayoutCount = 1;
    pld.bindGroupLayouts = &invalid_bgl;
    WGPUPipelineLayout pl = NULL;
    EXPECT_VALIDATION(&ctx, pl = wgpuDeviceCreatePipelineLayout(ctx.device, &pld));
    CHECK(pl != NULL);
    if (pl) wgpuPipelineLayoutRelease(pl);
  }

  /* --- Chains on BufferDescriptor. --- */
  {
    WGPUChainedStruct unknown = {NULL, (WGPUSType)0x0000FFF0};
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.size = 64;
    bd.usage = WGPUBufferUsage_CopyDst;
    bd.nextInChain = &unknown;
    EXPECT_VALIDATION(&ctx, b = wgpuDeviceCreateBuffer(ctx.device, &bd));
    CHECK(b != NULL);
    bufs[nb++] = b;

    /* A known sType that does not extend BufferDescriptor. */
    WGPUShaderSourceWGSL wgsl = WGPU_SHADER_SOURCE_WGSL_INIT;
    wgsl.code = sv(MU_DOUBLE_WGSL);
    bd.nextInChain = &wgsl.chain;
    EXPECT_VALIDATION(&ctx, b = wgpuDeviceCreateBuffer(ctx.device, &bd));
    CHECK(b != NULL);
    bufs[nb++] = b;
  }

  /* --- Chains on ShaderModuleDescriptor. --- */
  {
    WGPUShaderModuleDescriptor md = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    /* No source at all. */
    EXPECT_VALIDATION(&ctx, mods[nm++] = wgpuDeviceCreateShaderModule(ctx.device, &md));
    CHECK(mods[nm - 1] != NULL);

    /* Valid source (control). */
    WGPUShaderSourceWGSL w1 = WGPU_SHADER_SOURCE_WGSL_INIT;
    w1.code = sv(MU_DOUBLE_WGSL);
    md.nextInChain = &w1.chain;
    EXPECT_NO_VALIDATION(&ctx, mods[nm++] = wgpuDeviceCreateShaderModule(ctx.device, &md));

    /* The same sType twice. */
    WGPUShaderSourceWGSL w2 = WGPU_SHADER_SOURCE_WGSL_INIT;
    w2.code = sv(MU_DOUBLE_WGSL);
    w1.chain.next = &w2.chain;
    EXPECT_VALIDATION(&ctx, mods[nm++] = wgpuDeviceCreateShaderModule(ctx.device, &md));

    /* A cycle (w1 -> w2 -> w1): must terminate with an error. */
    w2.chain.next = &w1.chain;
    EXPECT_VALIDATION(&ctx, mods[nm++] = wgpuDeviceCreateShaderModule(ctx.device, &md));
    w2.chain.next = NULL;

    /* A self-loop on a single link. */
    w1.chain.next = &w1.chain;
    EXPECT_VALIDATION(&ctx, mods[nm++] = wgpuDeviceCreateShaderModule(ctx.device, &md));
    w1.chain.next = NULL;

    /* Unknown sType after a valid source. */
    WGPUChainedStruct unknown = {NULL, (WGPUSType)0x0000FFF1};
    w1.chain.next = &unknown;
    EXPECT_VALIDATION(&ctx, mods[nm++] = wgpuDeviceCreateShaderModule(ctx.device, &md));
    w1.chain.next = NULL;

    /* SPIR-V source: the instance (ctx_init) did not enable
     * ShaderSourceSPIRV, so it is not allowed. Also: two sources. */
    static const uint32_t spirv[5] = {0x07230203u, 0x00010000u, 0, 1, 0};
    WGPUShaderSourceSPIRV sp = WGPU_SHADER_SOURCE_SPIRV_INIT;
    sp.codeSize = 5;
    sp.code = spirv;
    md.nextInChain = &sp.chain;
    EXPECT_VALIDATION(&ctx, mods[nm++] = wgpuDeviceCreateShaderModule(ctx.device, &md));
    md.nextInChain = &w1.chain;
    w1.chain.next = &sp.chain;
    EXPECT_VALIDATION(&ctx, mods[nm++] = wgpuDeviceCreateShaderModule(ctx.device, &md));
    w1.chain.next = NULL;

    /* Using an invalid module in a pipeline: a validation error. */
    WGPUComputePipelineDescriptor pd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    pd.compute.module = mods[0];
    pd.compute.entryPoint = sv("main");
    WGPUComputePipeline p = NULL;
    EXPECT_VALIDATION(&ctx, p = wgpuDeviceCreateComputePipeline(ctx.device, &pd));
    CHECK(p != NULL);
    if (p) wgpuComputePipelineRelease(p);
  }

  /* --- Unknown sType on other device-timeline roots. --- */
  {
    WGPUChainedStruct unknown = {NULL, (WGPUSType)0x0000FFF2};
    WGPUCommandEncoderDescriptor ed = WGPU_COMMAND_ENCODER_DESCRIPTOR_INIT;
    ed.nextInChain = &unknown;
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, &ed);
    CHECK(enc != NULL);
    /* The encoder is invalid: its Finish is a validation error at the latest. */
    wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
    WGPUCommandBuffer cb = enc ? wgpuCommandEncoderFinish(enc, NULL) : NULL;
    WGPUErrorType t = mu_pop_type(&ctx);
    CHECK_EQ(t, WGPUErrorType_Validation);
    if (cb) wgpuCommandBufferRelease(cb);
    if (enc) wgpuCommandEncoderRelease(enc);

    WGPUBindGroupLayoutDescriptor ld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    ld.nextInChain = &unknown;
    EXPECT_VALIDATION(&ctx, bgls[nl++] = wgpuDeviceCreateBindGroupLayout(ctx.device, &ld));

    WGPUShaderSourceWGSL w = WGPU_SHADER_SOURCE_WGSL_INIT;
    w.code = sv(MU_DOUBLE_WGSL);
    WGPUShaderModule good = make_wgsl(ctx.device, MU_DOUBLE_WGSL);
    WGPUComputePipelineDescriptor pd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    pd.compute.module = good;
    pd.compute.entryPoint = sv("main");
    pd.nextInChain = &unknown;
    WGPUComputePipeline p = NULL;
    EXPECT_VALIDATION(&ctx, p = wgpuDeviceCreateComputePipeline(ctx.device, &pd));
    if (p) wgpuComputePipelineRelease(p);
    pd.nextInChain = NULL;
    pd.compute.nextInChain = &w.chain; /* valid sType, wrong root */
    EXPECT_VALIDATION(&ctx, p = wgpuDeviceCreateComputePipeline(ctx.device, &pd));
    if (p) wgpuComputePipelineRelease(p);
    pd.compute.nextInChain = NULL;
    EXPECT_NO_VALIDATION(&ctx, p = wgpuDeviceCreateComputePipeline(ctx.device, &pd));
    if (p) wgpuComputePipelineRelease(p);
    wgpuShaderModuleRelease(good);
  }

  /* --- Non-finite override constants. --- */
  {
    WGPUShaderModule om = make_wgsl(ctx.device, OVERRIDE_WGSL);
    WGPUConstantEntry ce = WGPU_CONSTANT_ENTRY_INIT;
    ce.key = sv("k");
    WGPUComputePipelineDescriptor pd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    pd.compute.module = om;
    pd.compute.entryPoint = sv("main");
    pd.compute.constantCount = 1;
    pd.compute.constants = &ce;
    double values[3] = {INFINITY, -INFINITY, NAN};
    for (int i = 0; i < 3; i++) {
      ce.value = values[i];
      WGPUComputePipeline p = NULL;
      EXPECT_VALIDATION(&ctx, p = wgpuDeviceCreateComputePipeline(ctx.device, &pd));
      CHECK(p != NULL);
      if (p) wgpuComputePipelineRelease(p);
    }
    ce.value = 2.5;
    WGPUComputePipeline ok = NULL;
    EXPECT_NO_VALIDATION(&ctx, ok = wgpuDeviceCreateComputePipeline(ctx.device, &pd));
    if (ok) wgpuComputePipelineRelease(ok);
    /* An unknown override key is an error too. */
    ce.key = sv("no_such_override");
    EXPECT_VALIDATION(&ctx, ok = wgpuDeviceCreateComputePipeline(ctx.device, &pd));
    if (ok) wgpuComputePipelineRelease(ok);
    wgpuShaderModuleRelease(om);
  }

  CHECK_EQ(ctx.uncaptured_errors, 0);
  for (int i = 0; i < nb; i++)
    if (bufs[i]) wgpuBufferRelease(bufs[i]);
  for (int i = 0; i < nl; i++)
    if (bgls[i]) wgpuBindGroupLayoutRelease(bgls[i]);
  for (int i = 0; i < nm; i++)
    if (mods[i]) wgpuShaderModuleRelease(mods[i]);
  ctx_release(&ctx);
  return test_finish();
}
