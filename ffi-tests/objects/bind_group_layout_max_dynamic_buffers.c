/* Rule (WebGPU createBindGroupLayout, binding slot limits): one layout may
 * hold at most maxDynamicUniformBuffersPerPipelineLayout uniform buffers
 * with hasDynamicOffset, and at most maxDynamicStorageBuffersPerPipelineLayout
 * storage / read-only storage ones; one more is a validation error at
 * layout creation, whether or not non-dynamic buffers of the type are added
 * (within the per-stage limits). Exactly the maximum, with or without one
 * non-dynamic buffer more, is valid. Ports CTS createBindGroupLayout
 * max_dynamic_buffers. */
#include "bind_group_util.h"

int main(void) {
  Ctx ctx;
  if (!bg_start(&ctx, 30)) return test_finish();
  WGPULimits lim = bg_limits(&ctx);

  for (size_t t = 0; t < BG_BUFFER_TYPE_COUNT; t++) {
    const WGPUBufferBindingType type = BG_BUFFER_TYPES[t];
    uint32_t max_dyn = bg_max_dynamic(&lim, type), per_stage = bg_max_per_stage(&lim, type);
    BG_REQUIRE(&ctx, max_dyn > 0 && max_dyn + 2 <= 64);
    for (uint32_t extra = 0; extra <= 1; extra++)
      for (uint32_t statics = 0; statics <= 1; statics++) {
        WGPUBindGroupLayoutEntry e[64];
        uint32_t n = 0;
        for (uint32_t i = 0; i < max_dyn + extra; i++, n++)
          e[n] = bg_buffer_entry(n, WGPUShaderStage_Compute, type, 1);
        for (uint32_t i = 0; i < statics; i++, n++) e[n] = bg_buffer_entry(n, WGPUShaderStage_Compute, type, 0);
        int want_error = extra > 0 || n > per_stage;
        bg_case("%u dynamic (max %u) + %u static %s buffers", max_dyn + extra, max_dyn, statics,
                BG_BUFFER_TYPE_NAMES[t]);
        bg_layout_case(&ctx, want_error, e, n);
      }
  }

  return bg_finish(&ctx);
}
