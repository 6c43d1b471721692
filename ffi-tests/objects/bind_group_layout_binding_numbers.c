/* Rule (WebGPU createBindGroupLayout): the binding numbers of a layout's
 * entries must be unique, and each must be below the device's
 * maxBindingsPerBindGroup limit; otherwise creation is a validation error
 * that still returns a (invalid) layout. Bindings 1, 4, 8, 256 and
 * maxBindingsPerBindGroup - 1 are valid; maxBindingsPerBindGroup itself and
 * a repeated binding number are not. Ports CTS createBindGroupLayout
 * duplicate_bindings and maximum_binding_limit. */
#include "bind_group_util.h"

int main(void) {
  Ctx ctx;
  if (!bg_start(&ctx, 30)) return test_finish();
  WGPULimits lim = bg_limits(&ctx);
  BG_REQUIRE(&ctx, lim.maxBindingsPerBindGroup > 256);

  /* duplicate_bindings */
  const uint32_t pairs[][2] = {{0, 1}, {0, 0}, {3, 3}, {5, 2}};
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    WGPUBindGroupLayoutEntry e[2] = {
        bg_buffer_entry(pairs[i][0], WGPUShaderStage_Compute, WGPUBufferBindingType_Storage, 0),
        bg_buffer_entry(pairs[i][1], WGPUShaderStage_Compute, WGPUBufferBindingType_Storage, 0)};
    bg_case("bindings %u and %u", pairs[i][0], pairs[i][1]);
    bg_layout_case(&ctx, pairs[i][0] == pairs[i][1], e, 2);
  }
  /* A duplicate among entries of different types is still a duplicate. */
  {
    WGPUBindGroupLayoutEntry e[2] = {
        bg_buffer_entry(7, WGPUShaderStage_Compute, WGPUBufferBindingType_Uniform, 0),
        bg_sampler_entry(7, WGPUShaderStage_Compute, WGPUSamplerBindingType_Filtering)};
    bg_case("buffer and sampler both at binding 7");
    bg_layout_case(&ctx, 1, e, 2);
  }

  /* maximum_binding_limit */
  const uint32_t bindings[] = {1, 4, 8, 256, lim.maxBindingsPerBindGroup - 1, lim.maxBindingsPerBindGroup,
                               lim.maxBindingsPerBindGroup + 1, 0xFFFFFFFFu};
  for (size_t i = 0; i < sizeof bindings / sizeof bindings[0]; i++) {
    WGPUBindGroupLayoutEntry e =
        bg_buffer_entry(bindings[i], WGPUShaderStage_Compute, WGPUBufferBindingType_Storage, 0);
    bg_case("binding %u (maxBindingsPerBindGroup %u)", bindings[i], lim.maxBindingsPerBindGroup);
    bg_layout_case(&ctx, bindings[i] >= lim.maxBindingsPerBindGroup, &e, 1);
  }

  return bg_finish(&ctx);
}
