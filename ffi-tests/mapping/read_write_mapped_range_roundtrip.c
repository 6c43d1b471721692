/* Rule (webgpu.h §9.4, header docs of Read/WriteMappedRange): data written
 * with WriteMappedRange into a MAP_WRITE mapping is published at Unmap; after
 * a GPU copy into a MAP_READ buffer, ReadMappedRange (whole, split into
 * pieces, at offsets, and over a sub-range mapping) returns the same bytes,
 * and GetConstMappedRange sees the same bytes. Bytes outside a sub-range
 * Write mapping keep their previous contents. */
#include "mapping_util.h"

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  uint8_t data[256], got[256];
  mu_fill(data, sizeof data, 33);
  WGPUBuffer wb = make_buffer(ctx.device, 256, WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc, 0);
  WGPUBuffer rb = make_buffer(ctx.device, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  REQUIRE(wb && rb);

  /* Write in two pieces. */
  CHECK_EQ(mu_map_wait(ctx.instance, wb, WGPUMapMode_Write, 0, 256), WGPUMapAsyncStatus_Success);
  CHECK_EQ(wgpuBufferWriteMappedRange(wb, 0, data, 128), WGPUStatus_Success);
  CHECK_EQ(wgpuBufferWriteMappedRange(wb, 128, data + 128, 128), WGPUStatus_Success);
  wgpuBufferUnmap(wb);
  mu_copy(&ctx, wb, 0, rb, 0, 256);

  CHECK_EQ(mu_map_wait(ctx.instance, rb, WGPUMapMode_Read, 0, 256), WGPUMapAsyncStatus_Success);
  memset(got, 0, sizeof got);
  CHECK_EQ(wgpuBufferReadMappedRange(rb, 0, got, 256), WGPUStatus_Success);
  CHECK(memcmp(got, data, 256) == 0);
  memset(got, 0, sizeof got);
  CHECK_EQ(wgpuBufferReadMappedRange(rb, 64, got, 32), WGPUStatus_Success);
  CHECK(memcmp(got, data + 64, 32) == 0);
  CHECK_EQ(wgpuBufferReadMappedRange(rb, 248, got, 8), WGPUStatus_Success);
  CHECK(memcmp(got, data + 248, 8) == 0);
  const uint8_t *c = (const uint8_t *)wgpuBufferGetConstMappedRange(rb, 0, 256);
  CHECK(c != NULL);
  if (c) CHECK(memcmp(c, data, 256) == 0);
  wgpuBufferUnmap(rb);

  /* Sub-range Write mapping [64, 128): only those bytes change. */
  uint8_t patch[64];
  memset(patch, 0xA5, sizeof patch);
  CHECK_EQ(mu_map_wait(ctx.instance, wb, WGPUMapMode_Write, 64, 64), WGPUMapAsyncStatus_Success);
  CHECK_EQ(wgpuBufferWriteMappedRange(wb, 64, patch, 64), WGPUStatus_Success);
  wgpuBufferUnmap(wb);
  mu_copy(&ctx, wb, 0, rb, 0, 256);
  uint8_t want[256];
  memcpy(want, data, 256);
  memset(want + 64, 0xA5, 64);

  /* Read it back through a sub-range Read mapping [32, 160) and pieces. */
  CHECK_EQ(mu_map_wait(ctx.instance, rb, WGPUMapMode_Read, 32, 128), WGPUMapAsyncStatus_Success);
  memset(got, 0, sizeof got);
  CHECK_EQ(wgpuBufferReadMappedRange(rb, 32, got, 128), WGPUStatus_Success);
  CHECK(memcmp(got, want + 32, 128) == 0);
  CHECK_EQ(wgpuBufferReadMappedRange(rb, 96, got, 16), WGPUStatus_Success);
  CHECK(memcmp(got, want + 96, 16) == 0);
  c = (const uint8_t *)wgpuBufferGetConstMappedRange(rb, 32, 128);
  CHECK(c != NULL);
  if (c) CHECK(memcmp(c, want + 32, 128) == 0);
  wgpuBufferUnmap(rb);

  /* And the whole buffer once more. */
  CHECK_EQ(mu_map_wait(ctx.instance, rb, WGPUMapMode_Read, 0, WGPU_WHOLE_MAP_SIZE), WGPUMapAsyncStatus_Success);
  CHECK_EQ(wgpuBufferReadMappedRange(rb, 0, got, 256), WGPUStatus_Success);
  CHECK(memcmp(got, want, 256) == 0);
  wgpuBufferUnmap(rb);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuBufferRelease(wb);
  wgpuBufferRelease(rb);
  ctx_release(&ctx);
  return test_finish();
}
