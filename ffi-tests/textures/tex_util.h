/* Helpers for the texture tests: textures, texel copies and read-back. */
#ifndef WGPU_SHIM_TEX_UTIL_H
#define WGPU_SHIM_TEX_UTIL_H

#include "../mapping/mapping_util.h"

/* A texture descriptor of any shape. */
static inline WGPUTextureDescriptor tu_desc(WGPUTextureDimension dim, uint32_t w, uint32_t h, uint32_t layers,
                                            uint32_t mips, uint32_t samples, WGPUTextureFormat format,
                                            WGPUTextureUsage usage) {
  WGPUTextureDescriptor d = WGPU_TEXTURE_DESCRIPTOR_INIT;
  d.dimension = dim;
  d.size.width = w;
  d.size.height = h;
  d.size.depthOrArrayLayers = layers;
  d.mipLevelCount = mips;
  d.sampleCount = samples;
  d.format = format;
  d.usage = usage;
  return d;
}

/* A 2D texture with one mip level and one sample. */
static inline WGPUTexture tu_texture(Ctx *ctx, uint32_t w, uint32_t h, WGPUTextureFormat format,
                                     WGPUTextureUsage usage) {
  WGPUTextureDescriptor d = WGPU_TEXTURE_DESCRIPTOR_INIT;
  d.size.width = w;
  d.size.height = h;
  d.format = format;
  d.usage = usage;
  return wgpuDeviceCreateTexture(ctx->device, &d);
}

static inline WGPUTexelCopyTextureInfo tu_tex_info(WGPUTexture t) {
  WGPUTexelCopyTextureInfo i = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
  i.texture = t;
  return i;
}

static inline WGPUTexelCopyBufferInfo tu_buf_info(WGPUBuffer b, uint32_t bytes_per_row, uint32_t rows) {
  WGPUTexelCopyBufferInfo i = WGPU_TEXEL_COPY_BUFFER_INFO_INIT;
  i.buffer = b;
  i.layout.bytesPerRow = bytes_per_row;
  i.layout.rowsPerImage = rows;
  return i;
}

/* Encodes and submits one texture -> buffer copy of w x h texels. */
static inline void tu_copy_to_buffer(Ctx *ctx, WGPUTexture t, WGPUBuffer b, uint32_t w, uint32_t h,
                                     uint32_t bytes_per_row) {
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPUTexelCopyTextureInfo src = tu_tex_info(t);
  WGPUTexelCopyBufferInfo dst = tu_buf_info(b, bytes_per_row, h);
  WGPUExtent3D size = {w, h, 1};
  wgpuCommandEncoderCopyTextureToBuffer(enc, &src, &dst, &size);
  submit_encoder(ctx, enc);
}

/* Reads the w x h texels (4 bytes each) of an RGBA8-sized texture (needs
 * CopySrc) into out (w*h*4 bytes, tightly packed). Returns 1 on success. */
static inline int tu_read_rgba8(Ctx *ctx, WGPUTexture t, uint32_t w, uint32_t h, uint8_t *out) {
  uint32_t bpr = (w * 4 + 255) / 256 * 256;
  WGPUBuffer b = make_buffer(ctx->device, (uint64_t)bpr * h, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  if (!b) return 0;
  tu_copy_to_buffer(ctx, t, b, w, h, bpr);
  int ok = 0;
  if (mu_map_wait(ctx->instance, b, WGPUMapMode_Read, 0, (size_t)bpr * h) == WGPUMapAsyncStatus_Success) {
    const uint8_t *p = (const uint8_t *)wgpuBufferGetConstMappedRange(b, 0, (size_t)bpr * h);
    if (p) {
      for (uint32_t y = 0; y < h; y++) memcpy(out + (size_t)y * w * 4, p + (size_t)y * bpr, (size_t)w * 4);
      ok = 1;
    }
    wgpuBufferUnmap(b);
  }
  wgpuBufferRelease(b);
  return ok;
}

/* The reference texel pattern: 4 bytes for texel (x, y). */
static inline void tu_texel(uint32_t x, uint32_t y, uint32_t seed, uint8_t px[4]) {
  px[0] = (uint8_t)(x * 7u + seed);
  px[1] = (uint8_t)(y * 13u + seed * 3u);
  px[2] = (uint8_t)((x ^ y) + seed * 5u);
  px[3] = (uint8_t)(x + y * 31u + 1u);
}

static inline void tu_fill(uint8_t *p, uint32_t w, uint32_t h, uint32_t stride, uint32_t seed) {
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++) tu_texel(x, y, seed, p + (size_t)y * stride + (size_t)x * 4);
}

/* Number of texels in tightly packed `got` that differ from the pattern. */
static inline int tu_mismatches(const uint8_t *got, uint32_t w, uint32_t h, uint32_t seed) {
  int bad = 0;
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++) {
      uint8_t want[4];
      tu_texel(x, y, seed, want);
      const uint8_t *g = got + ((size_t)y * w + x) * 4;
      if (memcmp(g, want, 4) != 0) {
        if (bad < 3)
          fprintf(stderr, "  texel (%u,%u): got %u,%u,%u,%u want %u,%u,%u,%u\n", x, y, g[0], g[1], g[2], g[3],
                  want[0], want[1], want[2], want[3]);
        bad++;
      }
    }
  return bad;
}

#endif
