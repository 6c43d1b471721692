/* Rule (webgpu.h §1, §4.2, §4.3, §12): in a BindGroupLayoutEntry, value 0 of
 * a binding type means BindingNotUsed and value 1 means Undefined, which is
 * defaulted (BufferBindingType Undefined -> Uniform; StorageTextureAccess
 * Undefined -> WriteOnly). An entry that uses no binding type at all, or two
 * at once, is a validation error. The defaulted Uniform layout accepts a
 * uniform buffer, rejects a storage-only one, and works with a WGSL
 * var<uniform> in a pipeline. */
#include "../mapping/mapping_util.h"

static WGPUBindGroupLayout bgl1(Ctx *ctx, const WGPUBindGroupLayoutEntry *e) {
  WGPUBindGroupLayoutDescriptor d = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  d.entryCount = 1;
  d.entries = e;
  return wgpuDeviceCreateBindGroupLayout(ctx->device, &d);
}

static WGPUBindGroup group1(Ctx *ctx, WGPUBindGroupLayout l, WGPUBuffer b) {
  WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
  e.binding = 0;
  e.buffer = b;
  e.size = WGPU_WHOLE_SIZE;
  WGPUBindGroupDescriptor d = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  d.layout = l;
  d.entryCount = 1;
  d.entries = &e;
  return wgpuDeviceCreateBindGroup(ctx->device, &d);
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  CHECK_EQ(WGPUBufferBindingType_BindingNotUsed, 0);
  CHECK_EQ(WGPUBufferBindingType_Undefined, 1);
  CHECK_EQ(WGPUStorageTextureAccess_BindingNotUsed, 0);
  CHECK_EQ(WGPUStorageTextureAccess_Undefined, 1);

  /* buffer.type = Undefined -> Uniform. */
  WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  e.binding = 0;
  e.visibility = WGPUShaderStage_Compute;
  e.buffer.type = WGPUBufferBindingType_Undefined;
  WGPUBindGroupLayout ul = NULL;
  EXPECT_NO_VALIDATION(&ctx, ul = bgl1(&ctx, &e));
  WGPUBuffer ub = make_buffer(ctx.device, 16, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, 0);
  WGPUBuffer sb = make_buffer(ctx.device, 16, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, 0);
  WGPUBindGroup g = NULL;
  EXPECT_NO_VALIDATION(&ctx, g = group1(&ctx, ul, ub));
  if (g) wgpuBindGroupRelease(g);
  EXPECT_VALIDATION(&ctx, g = group1(&ctx, ul, sb)); /* not a Storage layout */
  if (g) wgpuBindGroupRelease(g);

  /* The defaulted layout matches a var<uniform> shader. */
  {
    WGPUShaderModule m = make_wgsl(ctx.device,
                                   "@group(0) @binding(0) var<uniform> u: vec4<u32>;\n"
                                   "@compute @workgroup_size(1) fn main() { _ = u.x; }\n");
    WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pld.bindGroupLayoutCount = 1;
    pld.bindGroupLayouts = &ul;
    WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(ctx.device, &pld);
    WGPUComputePipelineDescriptor pd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    pd.layout = pl;
    pd.compute.module = m;
    pd.compute.entryPoint = sv("main");
    WGPUComputePipeline p = NULL;
    EXPECT_NO_VALIDATION(&ctx, p = wgpuDeviceCreateComputePipeline(ctx.device, &pd));
    if (p) wgpuComputePipelineRelease(p);
    wgpuPipelineLayoutRelease(pl);
    wgpuShaderModuleRelease(m);
  }

  /* No binding type at all (everything BindingNotUsed): error. */
  WGPUBindGroupLayoutEntry none = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  none.binding = 0;
  none.visibility = WGPUShaderStage_Compute;
  WGPUBindGroupLayout l2 = NULL;
  EXPECT_VALIDATION(&ctx, l2 = bgl1(&ctx, &none));
  CHECK(l2 != NULL);
  if (l2) wgpuBindGroupLayoutRelease(l2);

  /* Two binding types in one entry: error. */
  WGPUBindGroupLayoutEntry both = e;
  both.buffer.type = WGPUBufferBindingType_Storage;
  both.storageTexture.access = WGPUStorageTextureAccess_WriteOnly;
  both.storageTexture.format = WGPUTextureFormat_RGBA8Unorm;
  both.storageTexture.viewDimension = WGPUTextureViewDimension_2D;
  EXPECT_VALIDATION(&ctx, l2 = bgl1(&ctx, &both));
  if (l2) wgpuBindGroupLayoutRelease(l2);

  /* storageTexture.access = Undefined -> WriteOnly: a valid entry. */
  WGPUBindGroupLayoutEntry st = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  st.binding = 0;
  st.visibility = WGPUShaderStage_Compute;
  st.storageTexture.access = WGPUStorageTextureAccess_Undefined;
  st.storageTexture.format = WGPUTextureFormat_RGBA8Unorm;
  EXPECT_NO_VALIDATION(&ctx, l2 = bgl1(&ctx, &st));
  if (l2) wgpuBindGroupLayoutRelease(l2);
  /* ... but its format has no default. */
  st.storageTexture.format = WGPUTextureFormat_Undefined;
  EXPECT_VALIDATION(&ctx, l2 = bgl1(&ctx, &st));
  if (l2) wgpuBindGroupLayoutRelease(l2);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuBindGroupLayoutRelease(ul);
  wgpuBufferRelease(ub);
  wgpuBufferRelease(sb);
  ctx_release(&ctx);
  return test_finish();
}
