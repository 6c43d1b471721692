/* Rule (WebGPU createSampler; CTS createSampler): creation is a validation
 * error (the sampler still non-NULL) when lodMinClamp or lodMaxClamp is
 * negative or lodMinClamp > lodMaxClamp (tiny negative values included, and
 * equal or huge clamps are fine); when maxAnisotropy is 0; and when
 * maxAnisotropy > 1 while any of magFilter, minFilter, mipmapFilter is not
 * Linear. maxAnisotropy above the hardware's maximum is clamped, not an
 * error. */
#include "cts_util.h"

static CuOutcome sampler(Ctx *ctx, WGPUSamplerDescriptor sd) {
  CuOutcome o;
  WGPUSampler s = NULL;
  CU_CALL(ctx, o, s = wgpuDeviceCreateSampler(ctx->device, &sd));
  CHECK(s != NULL);
  if (s) wgpuSamplerRelease(s);
  return o;
}

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  const float lods[7] = {-4e-30f, -1.f, 0.f, 0.5f, 1.f, 10.f, 4e30f};
  for (int a = 0; a < 7; a++)
    for (int b = 0; b < 7; b++) {
      WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
      sd.lodMinClamp = lods[a];
      sd.lodMaxClamp = lods[b];
      int ok = !(lods[a] > lods[b] || lods[a] < 0 || lods[b] < 0);
      cu_expect(sampler(&ctx, sd), cu_ok_or_call(ok), "lodMinClamp %g lodMaxClamp %g", (double)lods[a],
                (double)lods[b]);
    }
  cu_section("lod clamps");

  const uint16_t anis[] = {0, 1, 2, 4, 7, 16, 32, 33, 1024, 65535};
  for (size_t i = 0; i < sizeof anis / sizeof anis[0]; i++)
    for (int mask = 0; mask < 8; mask++) { /* bit set: that filter is Linear */
      WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
      sd.maxAnisotropy = anis[i];
      sd.magFilter = (mask & 1) ? WGPUFilterMode_Linear : WGPUFilterMode_Nearest;
      sd.minFilter = (mask & 2) ? WGPUFilterMode_Linear : WGPUFilterMode_Nearest;
      sd.mipmapFilter = (mask & 4) ? WGPUMipmapFilterMode_Linear : WGPUMipmapFilterMode_Nearest;
      int ok = anis[i] >= 1 && (anis[i] == 1 || mask == 7);
      cu_expect(sampler(&ctx, sd), cu_ok_or_call(ok), "maxAnisotropy %u mag %s min %s mipmap %s", anis[i],
                (mask & 1) ? "linear" : "nearest", (mask & 2) ? "linear" : "nearest",
                (mask & 4) ? "linear" : "nearest");
    }
  cu_section("maxAnisotropy");

  return cu_finish(&ctx);
}
