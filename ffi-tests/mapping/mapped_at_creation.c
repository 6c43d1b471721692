/* Rule (webgpu.h §9.1, §9.3, §9.4, §9.5): a buffer created with
 * mappedAtCreation starts Mapped and writable even without MAP_WRITE usage;
 * its data (written through GetMappedRange and WriteMappedRange) is published
 * at Unmap and reads back through a GPU copy (and through a later Read map for
 * a MAP_READ buffer). size % 4 != 0 with mappedAtCreation is a validation
 * error that still returns an (error) buffer whose range can be taken and
 * written; mappedAtCreation on a buffer that is invalid for another reason
 * (bad usage) also still gives a writable range. */
#include "mapping_util.h"

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  uint8_t expect[256];
  mu_fill(expect, sizeof expect, 21);

  /* --- CopySrc only (no MAP_WRITE): writable, published at Unmap. --- */
  WGPUBuffer src = NULL;
  EXPECT_NO_VALIDATION(&ctx, src = make_buffer(ctx.device, 256, WGPUBufferUsage_CopySrc, 1));
  REQUIRE(src != NULL);
  CHECK_EQ(wgpuBufferGetMapState(src), WGPUBufferMapState_Mapped);
  /* The initial contents are zero. */
  const uint8_t *z = (const uint8_t *)wgpuBufferGetConstMappedRange(src, 192, 64);
  CHECK(z != NULL);
  if (z) {
    int all_zero = 1;
    for (int i = 0; i < 64; i++) all_zero &= z[i] == 0;
    CHECK(all_zero);
  }
  uint8_t *p = (uint8_t *)wgpuBufferGetMappedRange(src, 0, 128);
  CHECK(p != NULL);
  if (p) {
    CHECK_EQ((uintptr_t)p % 16, 0);
    memcpy(p, expect, 128);
  }
  CHECK_EQ(wgpuBufferWriteMappedRange(src, 128, expect + 128, 64), WGPUStatus_Success);
  /* [192, 256) is reserved const above: writing it must fail. */
  CHECK_EQ(wgpuBufferWriteMappedRange(src, 192, expect + 192, 64), WGPUStatus_Error);
  EXPECT_NO_VALIDATION(&ctx, wgpuBufferUnmap(src));
  CHECK_EQ(wgpuBufferGetMapState(src), WGPUBufferMapState_Unmapped);

  uint8_t got[256];
  memset(got, 0xEE, sizeof got);
  CHECK(mu_read_buffer(&ctx, src, 0, got, 256));
  CHECK(memcmp(got, expect, 192) == 0);
  {
    int tail_zero = 1;
    for (int i = 192; i < 256; i++) tail_zero &= got[i] == 0;
    CHECK(tail_zero);
  }

  /* --- MAP_READ | COPY_DST at creation: published, then readable by a Read
   * map. --- */
  WGPUBuffer rb = NULL;
  EXPECT_NO_VALIDATION(&ctx, rb = make_buffer(ctx.device, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 1));
  REQUIRE(rb != NULL);
  CHECK_EQ(wgpuBufferWriteMappedRange(rb, 0, expect, 64), WGPUStatus_Success);
  wgpuBufferUnmap(rb);
  CHECK_EQ(mu_map_wait(ctx.instance, rb, WGPUMapMode_Read, 0, 64), WGPUMapAsyncStatus_Success);
  memset(got, 0, sizeof got);
  CHECK_EQ(wgpuBufferReadMappedRange(rb, 0, got, 64), WGPUStatus_Success);
  CHECK(memcmp(got, expect, 64) == 0);
  wgpuBufferUnmap(rb);

  /* --- Storage usage at creation, then used by a copy. --- */
  WGPUBuffer st = make_buffer(ctx.device, 64, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, 1);
  REQUIRE(st != NULL);
  uint32_t *u = (uint32_t *)wgpuBufferGetMappedRange(st, 0, WGPU_WHOLE_MAP_SIZE);
  CHECK(u != NULL);
  if (u)
    for (int i = 0; i < 16; i++) u[i] = 0xA0000000u + (uint32_t)i;
  wgpuBufferUnmap(st);
  uint32_t words[16];
  CHECK(mu_read_buffer(&ctx, st, 0, words, sizeof words));
  {
    int ok = 1;
    for (int i = 0; i < 16; i++) ok &= words[i] == 0xA0000000u + (uint32_t)i;
    CHECK(ok);
  }

  /* --- size % 4 != 0: validation error, yet an error buffer whose mapped
   * range can be taken and written. --- */
  WGPUBuffer odd = NULL;
  EXPECT_VALIDATION(&ctx, odd = make_buffer(ctx.device, 6, WGPUBufferUsage_CopySrc, 1));
  CHECK(odd != NULL);
  if (odd) {
    CHECK_EQ(wgpuBufferGetMapState(odd), WGPUBufferMapState_Mapped);
    uint8_t *o = (uint8_t *)wgpuBufferGetMappedRange(odd, 0, 4);
    CHECK(o != NULL);
    if (o) memset(o, 0x11, 4);
    EXPECT_NO_VALIDATION(&ctx, wgpuBufferUnmap(odd));
    CHECK_EQ(wgpuBufferGetMapState(odd), WGPUBufferMapState_Unmapped);
    wgpuBufferRelease(odd);
  }

  /* --- Invalid usage (MapRead | MapWrite) with mappedAtCreation: still a
   * writable range over the whole size. --- */
  WGPUBuffer bad = NULL;
  EXPECT_VALIDATION(&ctx, bad = make_buffer(ctx.device, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_MapWrite, 1));
  CHECK(bad != NULL);
  if (bad) {
    CHECK_EQ(wgpuBufferGetMapState(bad), WGPUBufferMapState_Mapped);
    uint8_t *b = (uint8_t *)wgpuBufferGetMappedRange(bad, 0, 256);
    CHECK(b != NULL);
    if (b) {
      memset(b, 0x22, 256); /* must not crash: 256 writable bytes */
      CHECK_EQ(b[255], 0x22);
    }
    CHECK_EQ(wgpuBufferWriteMappedRange(bad, 0, expect, 16), WGPUStatus_Error); /* overlap */
    wgpuBufferUnmap(bad);
    CHECK_EQ(wgpuBufferGetMapState(bad), WGPUBufferMapState_Unmapped);
    wgpuBufferRelease(bad);
  }

  /* --- Unknown usage bit with mappedAtCreation: same. --- */
  WGPUBuffer unk = NULL;
  EXPECT_VALIDATION(&ctx, unk = make_buffer(ctx.device, 64, WGPUBufferUsage_CopySrc | ((WGPUBufferUsage)1 << 40), 1));
  CHECK(unk != NULL);
  if (unk) {
    CHECK_EQ(wgpuBufferWriteMappedRange(unk, 0, expect, 64), WGPUStatus_Success);
    wgpuBufferUnmap(unk);
    wgpuBufferRelease(unk);
  }

  /* --- A size no host can hold (over maxBufferSize, so invalid, and no
   * mapping of it can be allocated): NULL and a validation error, not an
   * abort in the allocator. conv_device's fuzzing found the abort under
   * ASan (2^63 - 1 bytes); 2^62 is the size of a multiple of 4 here. --- */
  WGPUBuffer huge = (WGPUBuffer)(uintptr_t)1;
  EXPECT_VALIDATION(&ctx, huge = make_buffer(ctx.device, (uint64_t)1 << 62, WGPUBufferUsage_CopySrc, 1));
  CHECK(huge == NULL);
  if (huge) wgpuBufferRelease(huge);
  /* The device is unharmed. */
  WGPUBuffer after = make_buffer(ctx.device, 16, WGPUBufferUsage_CopySrc, 1);
  CHECK(after != NULL);
  if (after) {
    CHECK(wgpuBufferGetMappedRange(after, 0, 16) != NULL);
    wgpuBufferUnmap(after);
    wgpuBufferRelease(after);
  }

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuBufferRelease(st);
  wgpuBufferRelease(rb);
  wgpuBufferRelease(src);
  ctx_release(&ctx);
  return test_finish();
}
