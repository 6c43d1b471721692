/* Rule (webgpu.h §9.3): what is written through GetMappedRange into a
 * MapMode_Write mapping reaches the buffer at Unmap (a later GPU copy sees
 * it); a Write mapping shows the buffer's current contents (so a second Write
 * mapping sees the first one's data); and only the mapped sub-range is
 * written back. */
#include "mapping_util.h"

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  uint8_t data[256], got[256];
  mu_fill(data, sizeof data, 44);
  WGPUBuffer wb = make_buffer(ctx.device, 256, WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc, 0);
  REQUIRE(wb != NULL);

  CHECK_EQ(mu_map_wait(ctx.instance, wb, WGPUMapMode_Write, 0, 256), WGPUMapAsyncStatus_Success);
  uint8_t *p = (uint8_t *)wgpuBufferGetMappedRange(wb, 0, 256);
  CHECK(p != NULL);
  if (p) memcpy(p, data, 256);
  EXPECT_NO_VALIDATION(&ctx, wgpuBufferUnmap(wb));
  memset(got, 0, sizeof got);
  CHECK(mu_read_buffer(&ctx, wb, 0, got, 256));
  CHECK(memcmp(got, data, 256) == 0);

  /* A new Write mapping shows the current contents. */
  CHECK_EQ(mu_map_wait(ctx.instance, wb, WGPUMapMode_Write, 0, 256), WGPUMapAsyncStatus_Success);
  const uint8_t *c = (const uint8_t *)wgpuBufferGetConstMappedRange(wb, 0, 128);
  CHECK(c != NULL);
  if (c) CHECK(memcmp(c, data, 128) == 0);
  /* Change [128, 256) only. */
  uint8_t *q = (uint8_t *)wgpuBufferGetMappedRange(wb, 128, 128);
  CHECK(q != NULL);
  if (q) {
    CHECK(memcmp(q, data + 128, 128) == 0);
    memset(q, 0x3C, 128);
  }
  wgpuBufferUnmap(wb);
  uint8_t want[256];
  memcpy(want, data, 256);
  memset(want + 128, 0x3C, 128);
  CHECK(mu_read_buffer(&ctx, wb, 0, got, 256));
  CHECK(memcmp(got, want, 256) == 0);

  /* Sub-range mapping [16, 48): writes land there, the rest is unchanged. */
  CHECK_EQ(mu_map_wait(ctx.instance, wb, WGPUMapMode_Write, 16, 32), WGPUMapAsyncStatus_Success);
  uint8_t *s = (uint8_t *)wgpuBufferGetMappedRange(wb, 16, 32);
  CHECK(s != NULL);
  if (s) memset(s, 0x77, 32);
  wgpuBufferUnmap(wb);
  memset(want + 16, 0x77, 32);
  CHECK(mu_read_buffer(&ctx, wb, 0, got, 256));
  CHECK(memcmp(got, want, 256) == 0);

  /* A mapping that is unmapped without writing leaves the data as it was. */
  CHECK_EQ(mu_map_wait(ctx.instance, wb, WGPUMapMode_Write, 0, 256), WGPUMapAsyncStatus_Success);
  wgpuBufferUnmap(wb);
  CHECK(mu_read_buffer(&ctx, wb, 0, got, 256));
  CHECK(memcmp(got, want, 256) == 0);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuBufferRelease(wb);
  ctx_release(&ctx);
  return test_finish();
}
