/* Rule (WebGPU createBindGroup, buffer bindings): for an entry of a buffer
 * layout entry,
 * - [offset, offset + size) must lie in the buffer, size (or the rest of
 *   the buffer for WHOLE_SIZE) must not be 0, and offset must be a multiple
 *   of minUniformBufferOffsetAlignment (uniform) or
 *   minStorageBufferOffsetAlignment (storage, read-only storage);
 * - the binding size must be at most maxUniformBufferBindingSize /
 *   maxStorageBufferBindingSize, and for the storage types a multiple of 4
 *   (uniform bindings have no such rule);
 * - the binding size must be at least the layout's minBindingSize (when not
 *   0);
 * - the buffer must have Uniform usage for a uniform entry and Storage usage
 *   for a storage / read-only storage entry (other usages alongside are
 *   fine).
 * Anything else is a validation error that still returns a (invalid) bind
 * group. Ports CTS createBindGroup buffer_offset_and_size_for_bind_groups_match,
 * minBindingSize, buffer,usage, buffer,resource_offset,
 * buffer,resource_binding_size and buffer,effective_buffer_binding_size. */
#include "bind_group_util.h"

/* One bind group of a single buffer entry (layout of `type`, minBindingSize
 * `min`) over `b` at offset / size. */
static void buf_case(Ctx *ctx, int want_error, WGPUBufferBindingType type, uint64_t min, WGPUBuffer b,
                     uint64_t offset, uint64_t size) {
  WGPUBindGroupLayoutEntry le = bg_buffer_entry(0, WGPUShaderStage_Compute, type, 0);
  le.buffer.minBindingSize = min;
  WGPUBindGroupLayout l = bg_layout(ctx, &le, 1);
  WGPUBindGroupEntry ge = bg_buf(0, b, offset, size);
  bg_group_case(ctx, want_error, l, &ge, 1);
  wgpuBindGroupLayoutRelease(l);
}

int main(void) {
  Ctx ctx;
  if (!bg_start(&ctx, 60)) return test_finish();
  WGPULimits lim = bg_limits(&ctx);
  const uint64_t W = WGPU_WHOLE_SIZE;

  /* buffer_offset_and_size_for_bind_groups_match: a 1024-byte storage buffer. */
  {
    WGPUBuffer b = make_buffer(ctx.device, 1024, WGPUBufferUsage_Storage, 0);
    struct {
      uint64_t offset, size;
      int ok;
    } t[] = {{0, 512, 1},    {256, 256, 1}, {0, 1024, 1},   {0, W, 1},      {768, 256, 1},  {768, W, 1},
             {0, 0, 0},      {256, 0, 0},   {1024, 0, 0},   {1024, W, 0},   {1, 256, 0},    {1, W, 0},
             {127, 256, 0},  {255, 256, 0}, {1280, 0, 0},   {0, 1280, 0},   {1024, 1, 0}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
      if (t[i].size == W)
        bg_case("1024-byte buffer, offset %llu, WHOLE_SIZE", (unsigned long long)t[i].offset);
      else
        bg_case("1024-byte buffer, offset %llu, size %llu", (unsigned long long)t[i].offset,
                (unsigned long long)t[i].size);
      buf_case(&ctx, !t[i].ok, WGPUBufferBindingType_Storage, 0, b, t[i].offset, t[i].size);
    }
    wgpuBufferRelease(b);
  }

  /* minBindingSize: a buffer of `size` bytes, whole. */
  {
    const uint64_t mins[] = {0, 4, 8, 256};
    for (size_t m = 0; m < 4; m++) {
      uint64_t sizes[3];
      size_t ns;
      if (mins[m] == 0) {
        sizes[0] = 4, sizes[1] = 256, ns = 2;
      } else {
        sizes[0] = mins[m] - 4, sizes[1] = mins[m], sizes[2] = mins[m] + 4, ns = 3;
      }
      for (size_t s = 0; s < ns; s++) {
        if (sizes[s] == 0) continue; /* a zero-sized binding is an error of its own */
        WGPUBuffer b = make_buffer(ctx.device, sizes[s], WGPUBufferUsage_Storage, 0);
        bg_case("minBindingSize %llu, %llu-byte buffer", (unsigned long long)mins[m], (unsigned long long)sizes[s]);
        buf_case(&ctx, mins[m] != 0 && sizes[s] < mins[m], WGPUBufferBindingType_Storage, mins[m], b, 0, W);
        wgpuBufferRelease(b);
      }
    }
    /* minBindingSize against an explicit size smaller than the buffer. */
    WGPUBuffer b = make_buffer(ctx.device, 256, WGPUBufferUsage_Uniform, 0);
    bg_case("minBindingSize 16, uniform binding of 8 bytes of a 256-byte buffer");
    buf_case(&ctx, 1, WGPUBufferBindingType_Uniform, 16, b, 0, 8);
    wgpuBufferRelease(b);
  }

  /* buffer,usage: every pair of non-map usages. */
  {
    const WGPUBufferUsage usages[] = {WGPUBufferUsage_CopySrc, WGPUBufferUsage_CopyDst, WGPUBufferUsage_Index,
                                      WGPUBufferUsage_Vertex,  WGPUBufferUsage_Uniform, WGPUBufferUsage_Storage,
                                      WGPUBufferUsage_Indirect, WGPUBufferUsage_QueryResolve};
    const size_t nu = sizeof usages / sizeof usages[0];
    for (size_t t = 0; t < BG_BUFFER_TYPE_COUNT; t++)
      for (size_t a = 0; a < nu; a++)
        for (size_t c = a; c < nu; c++) {
          WGPUBufferUsage u = usages[a] | usages[c];
          WGPUBuffer b = make_buffer(ctx.device, 4, u, 0);
          int ok = (u & bg_buffer_usage(BG_BUFFER_TYPES[t])) != 0;
          bg_case("%s entry, buffer usage 0x%llx", BG_BUFFER_TYPE_NAMES[t], (unsigned long long)u);
          buf_case(&ctx, !ok, BG_BUFFER_TYPES[t], 0, b, 0, W);
          wgpuBufferRelease(b);
        }
  }

  /* buffer,resource_offset */
  for (size_t t = 0; t < BG_BUFFER_TYPE_COUNT; t++) {
    uint64_t align = bg_offset_alignment(&lim, BG_BUFFER_TYPES[t]);
    WGPUBuffer b = make_buffer(ctx.device, 1024, bg_buffer_usage(BG_BUFFER_TYPES[t]), 0);
    const uint64_t offsets[] = {0, align / 2, align + align / 2, 2, align};
    for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
      bg_case("%s entry, offset %llu (alignment %llu)", BG_BUFFER_TYPE_NAMES[t], (unsigned long long)offsets[o],
              (unsigned long long)align);
      buf_case(&ctx, offsets[o] % align != 0, BG_BUFFER_TYPES[t], 0, b, offsets[o], W);
    }
    wgpuBufferRelease(b);
  }

  /* buffer,resource_binding_size: a buffer of the maximum binding size. */
  for (size_t t = 0; t < BG_BUFFER_TYPE_COUNT; t++) {
    int uniform = bg_is_uniform(BG_BUFFER_TYPES[t]);
    uint64_t max = uniform ? lim.maxUniformBufferBindingSize : lim.maxStorageBufferBindingSize / 4 * 4;
    uint64_t mult = uniform ? 1 : 4;
    WGPUBuffer b = make_buffer(ctx.device, max, bg_buffer_usage(BG_BUFFER_TYPES[t]), 0);
    BG_REQUIRE(&ctx, b != NULL);
    const uint64_t sizes[] = {mult, max, max + mult};
    for (size_t s = 0; s < 3; s++) {
      bg_case("%s entry, binding size %llu (max %llu)", BG_BUFFER_TYPE_NAMES[t], (unsigned long long)sizes[s],
              (unsigned long long)max);
      buf_case(&ctx, sizes[s] > max, BG_BUFFER_TYPES[t], 0, b, 0, sizes[s]);
    }
    wgpuBufferRelease(b);
  }
  /* A WHOLE_SIZE binding of a uniform buffer larger than the limit. */
  {
    WGPUBuffer b = make_buffer(ctx.device, (uint64_t)lim.maxUniformBufferBindingSize + 256, WGPUBufferUsage_Uniform, 0);
    bg_case("uniform entry, WHOLE_SIZE of a buffer 256 bytes over maxUniformBufferBindingSize");
    buf_case(&ctx, 1, WGPUBufferBindingType_Uniform, 0, b, 0, W);
    bg_case("uniform entry, WHOLE_SIZE from offset 256 (exactly the maximum)");
    buf_case(&ctx, 0, WGPUBufferBindingType_Uniform, 0, b, 256, W);
    wgpuBufferRelease(b);
  }

  /* buffer,effective_buffer_binding_size */
  for (size_t t = 0; t < BG_BUFFER_TYPE_COUNT; t++) {
    uint64_t align = bg_offset_alignment(&lim, BG_BUFFER_TYPES[t]);
    const uint64_t additions[] = {8, 10};
    const uint64_t bsizes[] = {W, 2, 4, 6};
    for (uint64_t om = 0; om <= 1; om++)
      for (size_t a = 0; a < 2; a++)
        for (size_t s = 0; s < 4; s++) {
          uint64_t offset = align * om, bufsize = align + additions[a];
          uint64_t eff = bsizes[s] == W ? bufsize - offset : bsizes[s];
          WGPUBuffer b = make_buffer(ctx.device, bufsize, bg_buffer_usage(BG_BUFFER_TYPES[t]), 0);
          int ok = bg_is_uniform(BG_BUFFER_TYPES[t]) || eff % 4 == 0;
          bg_case("%s entry, %llu-byte buffer, offset %llu, size %s%llu (effective %llu)", BG_BUFFER_TYPE_NAMES[t],
                  (unsigned long long)bufsize, (unsigned long long)offset, bsizes[s] == W ? "WHOLE=" : "",
                  (unsigned long long)(bsizes[s] == W ? eff : bsizes[s]), (unsigned long long)eff);
          buf_case(&ctx, !ok, BG_BUFFER_TYPES[t], 0, b, offset, bsizes[s]);
          wgpuBufferRelease(b);
        }
  }

  return bg_finish(&ctx);
}
