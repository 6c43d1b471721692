/* Rule (webgpu.h §9.4, §12; DECISIONS "Two ReadMappedRange/GetConstMappedRange
 * calls over the same bytes"): GetMappedRange / GetConstMappedRange return
 * NULL and ReadMappedRange / WriteMappedRange return WGPUStatus_Error -- with
 * NO device error -- when: the buffer is not Mapped (incl. Pending); offset %
 * 8 != 0; size % 4 != 0; offset < mapOffset; offset + size > mapOffset +
 * mapSize; the mutable variant is used on a Read mapping; the range overlaps
 * an earlier one unless both are const. WGPU_WHOLE_MAP_SIZE in Get* means
 * buffer.size - offset (not mapSize - offset); Read/Write reject it. Const +
 * const overlap (incl. two ReadMappedRange over the same bytes) is allowed.
 * Pointers are congruent to the offset modulo 16 (map offsets here are
 * multiples of 16). A new mapping starts with no reserved ranges. */
#include "mapping_util.h"

#define RANGE_NULL(call) CHECK((call) == NULL)
#define STATUS_ERR(call) CHECK_EQ((call), WGPUStatus_Error)

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  uint8_t expect[256];
  mu_fill(expect, sizeof expect, 5);
  WGPUBuffer rb = mu_buffer_with_data(&ctx, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 5);
  WGPUBuffer wb = make_buffer(ctx.device, 256, WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc, 0);
  REQUIRE(rb && wb);
  uint8_t tmp[256];
  memset(tmp, 0, sizeof tmp);

  /* Everything below must raise no device error at all. */
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Internal);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_OutOfMemory);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  int uncaptured_before = ctx.uncaptured_errors;

  /* --- Not mapped. --- */
  RANGE_NULL(wgpuBufferGetConstMappedRange(rb, 0, 16));
  RANGE_NULL(wgpuBufferGetMappedRange(wb, 0, 16));
  STATUS_ERR(wgpuBufferReadMappedRange(rb, 0, tmp, 16));
  STATUS_ERR(wgpuBufferWriteMappedRange(wb, 0, tmp, 16));

  /* --- Pending. --- */
  MapResult r;
  mu_map_result_init(&r);
  WGPUFuture f = mu_map_async(rb, WGPUMapMode_Read, 64, 128, WGPUCallbackMode_WaitAnyOnly, &r);
  CHECK_EQ(wgpuBufferGetMapState(rb), WGPUBufferMapState_Pending);
  RANGE_NULL(wgpuBufferGetConstMappedRange(rb, 64, 16));
  STATUS_ERR(wgpuBufferReadMappedRange(rb, 64, tmp, 16));
  RANGE_NULL(wgpuBufferGetMappedRange(rb, 64, 16));
  CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Success);
  /* rb is mapped for Read over [64, 192). */

  /* --- Alignment. --- */
  RANGE_NULL(wgpuBufferGetConstMappedRange(rb, 68, 4));  /* offset % 8 */
  RANGE_NULL(wgpuBufferGetConstMappedRange(rb, 76, 8));  /* offset % 8 */
  STATUS_ERR(wgpuBufferReadMappedRange(rb, 68, tmp, 4));
  RANGE_NULL(wgpuBufferGetConstMappedRange(rb, 64, 6));  /* size % 4 */
  RANGE_NULL(wgpuBufferGetConstMappedRange(rb, 64, 1));
  STATUS_ERR(wgpuBufferReadMappedRange(rb, 64, tmp, 6));
  STATUS_ERR(wgpuBufferReadMappedRange(rb, 64, tmp, 2));

  /* --- Bounds. --- */
  RANGE_NULL(wgpuBufferGetConstMappedRange(rb, 56, 8));   /* before mapOffset */
  RANGE_NULL(wgpuBufferGetConstMappedRange(rb, 0, 256));
  STATUS_ERR(wgpuBufferReadMappedRange(rb, 56, tmp, 8));
  RANGE_NULL(wgpuBufferGetConstMappedRange(rb, 184, 16)); /* past mapOffset + mapSize */
  RANGE_NULL(wgpuBufferGetConstMappedRange(rb, 192, 8));
  RANGE_NULL(wgpuBufferGetConstMappedRange(rb, 64, 132));
  STATUS_ERR(wgpuBufferReadMappedRange(rb, 184, tmp, 16));
  RANGE_NULL(wgpuBufferGetConstMappedRange(rb, 256, 8)); /* past the buffer */
  RANGE_NULL(wgpuBufferGetConstMappedRange(rb, 64, SIZE_MAX - 63)); /* wraps */
  STATUS_ERR(wgpuBufferReadMappedRange(rb, 64, tmp, SIZE_MAX - 63));

  /* --- WHOLE_MAP_SIZE is buffer.size - offset: from 64 that is 192 bytes,
   * beyond this mapping's end (192), so it fails here. --- */
  RANGE_NULL(wgpuBufferGetConstMappedRange(rb, 64, WGPU_WHOLE_MAP_SIZE));
  RANGE_NULL(wgpuBufferGetConstMappedRange(rb, 128, WGPU_WHOLE_MAP_SIZE));
  STATUS_ERR(wgpuBufferReadMappedRange(rb, 64, tmp, WGPU_WHOLE_MAP_SIZE));

  /* --- Mutable variants on a Read mapping. --- */
  RANGE_NULL(wgpuBufferGetMappedRange(rb, 64, 16));
  RANGE_NULL(wgpuBufferGetMappedRange(rb, 64, WGPU_WHOLE_MAP_SIZE));
  STATUS_ERR(wgpuBufferWriteMappedRange(rb, 64, tmp, 16));

  /* --- Valid const ranges, contents and alignment. --- */
  const uint8_t *p64 = (const uint8_t *)wgpuBufferGetConstMappedRange(rb, 64, 16);
  CHECK(p64 != NULL);
  if (p64) {
    CHECK(memcmp(p64, expect + 64, 16) == 0);
    CHECK_EQ((uintptr_t)p64 % 16, 0);
  }
  const uint8_t *p72 = (const uint8_t *)wgpuBufferGetConstMappedRange(rb, 72, 8);
  CHECK(p72 != NULL);
  if (p72) {
    CHECK(memcmp(p72, expect + 72, 8) == 0);
    CHECK_EQ((uintptr_t)p72 % 16, 8);
  }
  /* Const + const overlap: allowed, same bytes. */
  const uint8_t *p64b = (const uint8_t *)wgpuBufferGetConstMappedRange(rb, 64, 32);
  CHECK(p64b != NULL);
  if (p64b) CHECK(memcmp(p64b, expect + 64, 32) == 0);
  /* The last bytes of the mapping. */
  const uint8_t *pend = (const uint8_t *)wgpuBufferGetConstMappedRange(rb, 176, 16);
  CHECK(pend != NULL);
  if (pend) {
    CHECK(memcmp(pend, expect + 176, 16) == 0);
    CHECK_EQ((uintptr_t)pend % 16, 0);
  }
  /* ReadMappedRange over bytes already taken const: allowed; twice: allowed. */
  memset(tmp, 0, sizeof tmp);
  CHECK_EQ(wgpuBufferReadMappedRange(rb, 64, tmp, 32), WGPUStatus_Success);
  CHECK(memcmp(tmp, expect + 64, 32) == 0);
  memset(tmp, 0, sizeof tmp);
  CHECK_EQ(wgpuBufferReadMappedRange(rb, 64, tmp, 32), WGPUStatus_Success);
  CHECK(memcmp(tmp, expect + 64, 32) == 0);
  CHECK_EQ(wgpuBufferReadMappedRange(rb, 128, tmp, 64), WGPUStatus_Success);
  CHECK(memcmp(tmp, expect + 128, 64) == 0);
  CHECK_EQ(wgpuBufferReadMappedRange(rb, 128, tmp, 64), WGPUStatus_Success);
  /* Failed calls reserved nothing: a const range over them still works. */
  CHECK(wgpuBufferGetConstMappedRange(rb, 64, 128) != NULL);
  /* Earlier pointers still read the data (nothing was invalidated). */
  if (p64) CHECK(memcmp(p64, expect + 64, 16) == 0);

  wgpuBufferUnmap(rb);
  RANGE_NULL(wgpuBufferGetConstMappedRange(rb, 64, 16)); /* after Unmap */
  STATUS_ERR(wgpuBufferReadMappedRange(rb, 64, tmp, 16));

  /* --- WHOLE_MAP_SIZE succeeds when the mapping reaches the buffer end. --- */
  CHECK_EQ(mu_map_wait(ctx.instance, rb, WGPUMapMode_Read, 64, WGPU_WHOLE_MAP_SIZE), WGPUMapAsyncStatus_Success);
  const uint8_t *pw = (const uint8_t *)wgpuBufferGetConstMappedRange(rb, 128, WGPU_WHOLE_MAP_SIZE);
  CHECK(pw != NULL); /* 128 bytes: [128, 256) */
  if (pw) CHECK(memcmp(pw, expect + 128, 128) == 0);
  CHECK(wgpuBufferGetConstMappedRange(rb, 64, WGPU_WHOLE_MAP_SIZE) != NULL); /* const overlap */
  STATUS_ERR(wgpuBufferReadMappedRange(rb, 64, tmp, WGPU_WHOLE_MAP_SIZE));
  wgpuBufferUnmap(rb);
  /* ...and mapping [0, 192) then asking WHOLE from 0 (= 256 bytes) fails. */
  CHECK_EQ(mu_map_wait(ctx.instance, rb, WGPUMapMode_Read, 0, 192), WGPUMapAsyncStatus_Success);
  RANGE_NULL(wgpuBufferGetConstMappedRange(rb, 0, WGPU_WHOLE_MAP_SIZE));
  CHECK(wgpuBufferGetConstMappedRange(rb, 0, 192) != NULL);
  wgpuBufferUnmap(rb);

  /* --- Write mapping: overlap rules with mutable ranges. --- */
  CHECK_EQ(mu_map_wait(ctx.instance, wb, WGPUMapMode_Write, 0, 256), WGPUMapAsyncStatus_Success);
  /* const first, then mutable over it: rejected both ways. */
  const void *c0 = wgpuBufferGetConstMappedRange(wb, 0, 32);
  CHECK(c0 != NULL); /* const ranges work on Write mappings */
  RANGE_NULL(wgpuBufferGetMappedRange(wb, 16, 16));
  RANGE_NULL(wgpuBufferGetMappedRange(wb, 0, 8));
  STATUS_ERR(wgpuBufferWriteMappedRange(wb, 0, tmp, 8));
  STATUS_ERR(wgpuBufferWriteMappedRange(wb, 24, tmp, 16)); /* partial overlap */
  CHECK_EQ(wgpuBufferReadMappedRange(wb, 0, tmp, 32), WGPUStatus_Success); /* const + const */
  /* mutable first, then anything over it: rejected. */
  uint8_t *m64 = (uint8_t *)wgpuBufferGetMappedRange(wb, 64, 32);
  CHECK(m64 != NULL);
  if (m64) CHECK_EQ((uintptr_t)m64 % 16, 0);
  RANGE_NULL(wgpuBufferGetConstMappedRange(wb, 80, 8));
  RANGE_NULL(wgpuBufferGetMappedRange(wb, 64, 8));
  RANGE_NULL(wgpuBufferGetMappedRange(wb, 56, 16)); /* straddles the start */
  STATUS_ERR(wgpuBufferReadMappedRange(wb, 64, tmp, 8));
  STATUS_ERR(wgpuBufferWriteMappedRange(wb, 88, tmp, 4));
  /* Adjacent, non-overlapping ranges are fine. */
  uint8_t *m96 = (uint8_t *)wgpuBufferGetMappedRange(wb, 96, 32);
  CHECK(m96 != NULL);
  CHECK(wgpuBufferGetConstMappedRange(wb, 32, 32) != NULL); /* [32, 64) */
  /* WriteMappedRange reserves: a second write over the same bytes fails. */
  CHECK_EQ(wgpuBufferWriteMappedRange(wb, 128, tmp, 16), WGPUStatus_Success);
  STATUS_ERR(wgpuBufferWriteMappedRange(wb, 128, tmp, 16));
  RANGE_NULL(wgpuBufferGetConstMappedRange(wb, 136, 8));
  STATUS_ERR(wgpuBufferReadMappedRange(wb, 128, tmp, 8));
  /* WHOLE_MAP_SIZE for a mutable range: [144, 256). */
  uint8_t *mw = (uint8_t *)wgpuBufferGetMappedRange(wb, 144, WGPU_WHOLE_MAP_SIZE);
  CHECK(mw != NULL);
  if (mw) memset(mw, 0x5A, 112);
  STATUS_ERR(wgpuBufferWriteMappedRange(wb, 144, tmp, WGPU_WHOLE_MAP_SIZE));
  wgpuBufferUnmap(wb);

  /* --- A new mapping starts clean: the same ranges can be taken again. --- */
  CHECK_EQ(mu_map_wait(ctx.instance, wb, WGPUMapMode_Write, 0, 256), WGPUMapAsyncStatus_Success);
  CHECK(wgpuBufferGetMappedRange(wb, 64, 32) != NULL);
  CHECK(wgpuBufferGetMappedRange(wb, 0, 32) != NULL);
  CHECK_EQ(wgpuBufferWriteMappedRange(wb, 128, tmp, 16), WGPUStatus_Success);
  wgpuBufferUnmap(wb);

  /* --- mappedAtCreation: mutable ranges allowed, overlap rules apply. --- */
  WGPUBuffer mc = make_buffer(ctx.device, 64, WGPUBufferUsage_CopySrc, 1);
  REQUIRE(mc != NULL);
  uint8_t *mc0 = (uint8_t *)wgpuBufferGetMappedRange(mc, 0, 32);
  CHECK(mc0 != NULL);
  if (mc0) CHECK_EQ((uintptr_t)mc0 % 16, 0);
  RANGE_NULL(wgpuBufferGetMappedRange(mc, 16, 16));
  RANGE_NULL(wgpuBufferGetConstMappedRange(mc, 0, 8));
  CHECK_EQ(wgpuBufferWriteMappedRange(mc, 32, tmp, 32), WGPUStatus_Success);
  RANGE_NULL(wgpuBufferGetMappedRange(mc, 4, 4)); /* misaligned as well */
  wgpuBufferUnmap(mc);
  RANGE_NULL(wgpuBufferGetMappedRange(mc, 0, 32));
  wgpuBufferRelease(mc);

  /* No device error from any of the above. */
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
  CHECK_EQ(ctx.uncaptured_errors, uncaptured_before);

  wgpuBufferRelease(rb);
  wgpuBufferRelease(wb);
  ctx_release(&ctx);
  return test_finish();
}
