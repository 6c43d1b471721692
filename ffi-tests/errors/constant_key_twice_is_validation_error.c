/* Rule (DECISIONS "A WGPUConstantEntry key given twice"): a pipeline whose
 * constants name one override twice is a validation error (as Dawn), even
 * with equal values; each key once is valid. */
#include "../mapping/mapping_util.h"

static const char *const WGSL = "override scale: f32 = 1.0;\n"
                                "@group(0) @binding(0) var<storage, read_write> out: array<f32>;\n"
                                "@compute @workgroup_size(1) fn main() { out[0] = scale; }\n";

static WGPUErrorType create_with(Ctx *ctx, WGPUShaderModule module, const WGPUConstantEntry *entries, size_t n) {
  WGPUComputePipelineDescriptor desc = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  desc.compute.module = module;
  desc.compute.entryPoint = sv("main");
  desc.compute.constantCount = n;
  desc.compute.constants = entries;
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(ctx->device, &desc);
  CHECK(p != NULL);
  WGPUErrorType type = mu_pop_type(ctx);
  if (p) wgpuComputePipelineRelease(p);
  return type;
}

int main(void) {
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUShaderModule module = make_wgsl(ctx.device, WGSL);
  WGPUConstantEntry once[1] = {WGPU_CONSTANT_ENTRY_INIT};
  once[0].key = sv("scale");
  once[0].value = 2.0;
  CHECK_EQ(create_with(&ctx, module, once, 1), WGPUErrorType_NoError);
  WGPUConstantEntry twice[2] = {WGPU_CONSTANT_ENTRY_INIT, WGPU_CONSTANT_ENTRY_INIT};
  twice[0].key = sv("scale");
  twice[0].value = 2.0;
  twice[1].key = sv("scale");
  twice[1].value = 3.0;
  CHECK_EQ(create_with(&ctx, module, twice, 2), WGPUErrorType_Validation);
  twice[1].value = 2.0;
  CHECK_EQ(create_with(&ctx, module, twice, 2), WGPUErrorType_Validation);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuShaderModuleRelease(module);
  ctx_release(&ctx);
  return test_finish();
}
