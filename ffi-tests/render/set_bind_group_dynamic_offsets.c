/* Rule (WebGPU setBindGroup, dynamic offsets), for a compute pass, a render
 * pass and a render bundle encoder: dynamicOffsetCount must equal the
 * number of dynamic buffers in the group's layout (an offset for a group
 * that has none, or too few / too many, is an error); each offset must be a
 * multiple of minUniformBufferOffsetAlignment (uniform) or
 * minStorageBufferOffsetAlignment (storage, read-only storage); and each
 * binding's offset + dynamic offset + size must stay inside its buffer
 * (offsets up to 0xFFFFFFFF must not wrap around). A violation makes the
 * encoder's Finish a validation error; valid offsets finish and submit
 * without error. Ports CTS setBindGroup
 * dynamic_offsets_passed_but_not_expected,
 * dynamic_offsets_match_expectations_in_pass_encoder and
 * buffer_dynamic_offsets (the JS-only u32array_start_and_length has no C
 * counterpart). */
#include "set_bind_group_util.h"

int main(void) {
  Ctx ctx;
  if (!bg_start(&ctx, 60)) return test_finish();
  WGPULimits lim = bg_limits(&ctx);

  /* dynamic_offsets_passed_but_not_expected */
  for (SbgKind k = 0; k < SBG_KINDS; k++) {
    WGPUBindGroupLayout l = bg_layout(&ctx, NULL, 0);
    WGPUBindGroup g = bg_group(&ctx, l, NULL, 0);
    SbgEncoder e;
    sbg_begin(&ctx, &e, k);
    const uint32_t zero = 0;
    sbg_set(&e, 0, g, 1, &zero);
    bg_case("%s, one dynamic offset for an empty group", SBG_KIND_NAMES[k]);
    sbg_validate(&ctx, &e, 0, 1);
    wgpuBindGroupRelease(g);
    wgpuBindGroupLayoutRelease(l);
  }

  /* dynamic_offsets_match_expectations_in_pass_encoder: two dynamic
   * buffers (uniform, then uniform or storage) of 2*256+8 bytes, each bound
   * with size 12. */
  struct {
    uint32_t offsets[3];
    size_t n;
    int ok;
  } cases[] = {
      {{256, 0}, 2, 1},        {{1, 2}, 2, 0},    {{256, 0, 0}, 3, 0}, {{256}, 1, 0},
      {{0}, 0, 0},             {{512, 0}, 2, 0},  {{1024, 0}, 2, 0},   {{0xFFFFFFFFu, 0}, 2, 0},
      {{0, 512}, 2, 0},        {{0, 1024}, 2, 0}, {{0, 0xFFFFFFFFu}, 2, 0},
  };
  for (SbgKind k = 0; k < SBG_KINDS; k++)
    for (int frag = 0; frag <= 1; frag++)
      for (int storage = 0; storage <= 1; storage++) {
        WGPUShaderStage vis = WGPUShaderStage_Compute | (frag ? WGPUShaderStage_Fragment : 0);
        WGPUBindGroupLayoutEntry le[2] = {
            bg_buffer_entry(0, vis, WGPUBufferBindingType_Uniform, 1),
            bg_buffer_entry(1, vis, storage ? WGPUBufferBindingType_Storage : WGPUBufferBindingType_Uniform, 1)};
        WGPUBindGroupLayout l = bg_layout(&ctx, le, 2);
        WGPUBuffer b0 = make_buffer(ctx.device, 2 * 256 + 8, WGPUBufferUsage_Uniform, 0);
        WGPUBuffer b1 =
            make_buffer(ctx.device, 2 * 256 + 8, storage ? WGPUBufferUsage_Storage : WGPUBufferUsage_Uniform, 0);
        WGPUBindGroupEntry ge[2] = {bg_buf(0, b0, 0, 12), bg_buf(1, b1, 0, 12)};
        WGPUBindGroup g = NULL;
        bg_case("creating the dynamic group");
        BG_EXPECT(&ctx, 0, g = bg_group(&ctx, l, ge, 2));
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
          char list[64] = "";
          for (size_t i = 0; i < cases[c].n; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%u", i ? "," : "", cases[c].offsets[i]);
          bg_case("%s, visibility %s, %s second buffer, offsets [%s]", SBG_KIND_NAMES[k],
                  frag ? "Compute|Fragment" : "Compute", storage ? "storage" : "uniform", list);
          SbgEncoder e;
          sbg_begin(&ctx, &e, k);
          sbg_set(&e, 0, g, cases[c].n, cases[c].n ? cases[c].offsets : NULL);
          sbg_validate(&ctx, &e, cases[c].ok, 1);
        }
        if (g) wgpuBindGroupRelease(g);
        wgpuBufferRelease(b0);
        wgpuBufferRelease(b1);
        wgpuBindGroupLayoutRelease(l);
      }

  /* buffer_dynamic_offsets: alignment, one dynamic buffer of 3*256 bytes
   * bound with size 12. */
  for (size_t t = 0; t < BG_BUFFER_TYPE_COUNT; t++)
    for (SbgKind k = 0; k < SBG_KINDS; k++) {
      const WGPUBufferBindingType type = BG_BUFFER_TYPES[t];
      uint32_t align = bg_offset_alignment(&lim, type);
      WGPUBindGroupLayoutEntry le = bg_buffer_entry(0, WGPUShaderStage_Compute, type, 1);
      WGPUBindGroupLayout l = bg_layout(&ctx, &le, 1);
      WGPUBuffer b = make_buffer(ctx.device, 3 * 256, bg_buffer_usage(type), 0);
      WGPUBindGroupEntry ge = bg_buf(0, b, 0, 12);
      WGPUBindGroup g = bg_group(&ctx, l, &ge, 1);
      const uint32_t offsets[] = {align, align / 2, align + align / 2, 2 * align, align + 2};
      for (size_t o = 0; o < 5; o++) {
        bg_case("%s, %s dynamic buffer, offset %u (alignment %u)", SBG_KIND_NAMES[k], BG_BUFFER_TYPE_NAMES[t],
                offsets[o], align);
        SbgEncoder e;
        sbg_begin(&ctx, &e, k);
        sbg_set(&e, 0, g, 1, &offsets[o]);
        sbg_validate(&ctx, &e, offsets[o] % align == 0, 1);
      }
      wgpuBindGroupRelease(g);
      wgpuBufferRelease(b);
      wgpuBindGroupLayoutRelease(l);
    }

  return bg_finish(&ctx);
}
