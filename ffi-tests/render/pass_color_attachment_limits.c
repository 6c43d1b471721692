/* Rule (WebGPU beginRenderPass, colour attachment limits): a render pass
 * may have at most maxColorAttachments colour attachments, and the render
 * target byte cost of its colour formats, each first aligned to the
 * format's render target component alignment and then added in attachment
 * order, must not exceed maxColorAttachmentBytesPerSample (32 by default;
 * 8-bit unorm formats with 4 channels cost 8 bytes, not 4). A pass over
 * either limit makes the encoder's Finish raise a validation error; one
 * within both finishes cleanly. Beginning and ending the pass raise
 * nothing. On OpenGL the cases with a format that cannot be a render
 * attachment there (wgpu-core's downlevel formats: r32float, rg32float,
 * rgba32float on llvmpipe) are left out and counted. */
#include "pass_util.h"

typedef struct {
  WGPUTextureFormat format;
  const char *name;
  uint32_t cost;
  uint32_t align;
} Fmt;

static const Fmt FORMATS[] = {
    {WGPUTextureFormat_R8Unorm, "r8unorm", 1, 1},          {WGPUTextureFormat_RG8Unorm, "rg8unorm", 2, 1},
    {WGPUTextureFormat_RGBA8Unorm, "rgba8unorm", 8, 1},    {WGPUTextureFormat_BGRA8Unorm, "bgra8unorm", 8, 1},
    {WGPUTextureFormat_RGBA8Uint, "rgba8uint", 4, 1},      {WGPUTextureFormat_R16Float, "r16float", 2, 2},
    {WGPUTextureFormat_RG16Float, "rg16float", 4, 2},      {WGPUTextureFormat_RGBA16Float, "rgba16float", 8, 2},
    {WGPUTextureFormat_R32Float, "r32float", 4, 4},        {WGPUTextureFormat_RG32Float, "rg32float", 8, 4},
    {WGPUTextureFormat_RGBA32Float, "rgba32float", 16, 4}, {WGPUTextureFormat_RGB10A2Unorm, "rgb10a2unorm", 8, 4},
    {WGPUTextureFormat_RGBA32Uint, "rgba32uint", 16, 4},
};
#define NFORMATS (sizeof FORMATS / sizeof FORMATS[0])

static const Fmt *find(WGPUTextureFormat f) {
  for (size_t i = 0; i < NFORMATS; i++)
    if (FORMATS[i].format == f) return &FORMATS[i];
  return NULL;
}

static uint32_t bytes_per_sample(const WGPUTextureFormat *formats, size_t n) {
  uint32_t total = 0;
  for (size_t i = 0; i < n; i++) {
    const Fmt *f = find(formats[i]);
    total = (total + f->align - 1) / f->align * f->align + f->cost;
  }
  return total;
}

/* The pass of these colour formats, checked at Finish; left out on OpenGL
 * when one of them cannot be rendered to there (then even an over-limit
 * case would fail only for that reason). */
static void try_formats(Ctx *ctx, const WGPUTextureFormat *formats, size_t n, int valid, const char *what) {
  WGPURenderPassColorAttachment colors[16];
  for (size_t i = 0; i < n; i++)
    if (!pu_format_case(ctx, formats[i], find(formats[i])->name, 1, what)) return;
  for (size_t i = 0; i < n; i++)
    colors[i] = pu_color(pu_view(pu_texture(ctx, formats[i], WGPUTextureDimension_2D, 4, 4, 1, 1, 1, 0), NULL));
  pu_try(ctx, colors, n, NULL, valid, what);
  pu_release_all();
}

int main(void) {
  Ctx ctx;
  REQUIRE(pu_start(&ctx, 60) == 0);
  WGPULimits lim = WGPU_LIMITS_INIT;
  REQUIRE(wgpuDeviceGetLimits(ctx.device, &lim) == WGPUStatus_Success);
  REQUIRE(lim.maxColorAttachments <= 8);
  char what[256];

  /* maxColorAttachments (R8Unorm: 1 byte each, far below the byte limit). */
  WGPUTextureFormat r8[9];
  for (int i = 0; i < 9; i++) r8[i] = WGPUTextureFormat_R8Unorm;
  snprintf(what, sizeof what, "%u r8unorm attachments (= maxColorAttachments)", lim.maxColorAttachments);
  try_formats(&ctx, r8, lim.maxColorAttachments, 1, what);
  snprintf(what, sizeof what, "%u r8unorm attachments (maxColorAttachments + 1)", lim.maxColorAttachments + 1);
  try_formats(&ctx, r8, lim.maxColorAttachments + 1, 0, what);

  /* maxColorAttachmentBytesPerSample, one format repeated 1..max times. */
  for (size_t f = 0; f < NFORMATS; f++)
    for (uint32_t n = 1; n <= lim.maxColorAttachments; n++) {
      WGPUTextureFormat fs[8];
      for (uint32_t i = 0; i < n; i++) fs[i] = FORMATS[f].format;
      uint32_t bytes = bytes_per_sample(fs, n);
      snprintf(what, sizeof what, "%u x %s (%u bytes per sample, limit %u)", n, FORMATS[f].name, bytes,
               lim.maxColorAttachmentBytesPerSample);
      try_formats(&ctx, fs, n, bytes <= lim.maxColorAttachmentBytesPerSample, what);
    }

  /* Unaligned sequences: alignment padding counts. */
  const WGPUTextureFormat seq1[] = {WGPUTextureFormat_R8Unorm, WGPUTextureFormat_R32Float,
                                    WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA32Float,
                                    WGPUTextureFormat_R8Unorm};
  const WGPUTextureFormat seq2[] = {WGPUTextureFormat_R32Float, WGPUTextureFormat_RGBA8Unorm,
                                    WGPUTextureFormat_RGBA32Float, WGPUTextureFormat_R8Unorm,
                                    WGPUTextureFormat_R8Unorm};
  /* 1, padded to 4, + 4 = 8, + 4 = 12, + 16 = 28, + 4 = 32: exactly at
   * the default limit, only after padding. */
  const WGPUTextureFormat seq3[] = {WGPUTextureFormat_R8Unorm, WGPUTextureFormat_R32Float,
                                    WGPUTextureFormat_RG16Float, WGPUTextureFormat_RGBA32Float,
                                    WGPUTextureFormat_R32Float};
  /* With rgba8unorm (8) in front: 8 + 4 + 4 + 16 + 4 = 36, over it. */
  const WGPUTextureFormat seq4[] = {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_R32Float,
                                    WGPUTextureFormat_RG16Float, WGPUTextureFormat_RGBA32Float,
                                    WGPUTextureFormat_R32Float};
  /* Without 32-bit float formats (which OpenGL cannot render to): 1,
   * padded to 4, + 8 = 12, + 1 = 13, padded to 16, + 16 = 32 (valid); one
   * more r8unorm makes 33 (invalid, 27 without the padding). */
  const WGPUTextureFormat seq5[] = {WGPUTextureFormat_R8Unorm, WGPUTextureFormat_RGB10A2Unorm,
                                    WGPUTextureFormat_R8Unorm, WGPUTextureFormat_RGBA32Uint};
  const WGPUTextureFormat seq6[] = {WGPUTextureFormat_R8Unorm, WGPUTextureFormat_RGB10A2Unorm,
                                    WGPUTextureFormat_R8Unorm, WGPUTextureFormat_RGBA32Uint,
                                    WGPUTextureFormat_R8Unorm};
  const WGPUTextureFormat *seqs[] = {seq1, seq2, seq3, seq4, seq5, seq6};
  const size_t seq_lens[] = {5, 5, 5, 5, 4, 5};
  const char *seq_names[] = {"r8unorm,r32float,rgba8unorm,rgba32float,r8unorm",
                             "r32float,rgba8unorm,rgba32float,r8unorm,r8unorm",
                             "r8unorm,r32float,rg16float,rgba32float,r32float",
                             "rgba8unorm,r32float,rg16float,rgba32float,r32float",
                             "r8unorm,rgb10a2unorm,r8unorm,rgba32uint",
                             "r8unorm,rgb10a2unorm,r8unorm,rgba32uint,r8unorm"};
  for (int s = 0; s < 6; s++) {
    uint32_t bytes = bytes_per_sample(seqs[s], seq_lens[s]);
    snprintf(what, sizeof what, "%s (%u bytes per sample with alignment)", seq_names[s], bytes);
    try_formats(&ctx, seqs[s], seq_lens[s], bytes <= lim.maxColorAttachmentBytesPerSample, what);
  }

  pu_report(&ctx, pu_bad_cases);
  ctx_release(&ctx);
  return test_finish();
}
