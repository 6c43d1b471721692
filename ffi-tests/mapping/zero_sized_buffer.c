/* Rule (webgpu.h §9.2, §9.4 [Dawn]): a zero-sized buffer is valid; it can be
 * mapped (Read and Write, offset 0, size 0 or WGPU_WHOLE_MAP_SIZE), the
 * mapping gives a non-NULL pointer for a 0-byte range (GetMappedRange on a
 * Write mapping, GetConstMappedRange on a Read mapping, and at creation), and
 * unmaps back to Unmapped, all with no validation error. */
#include "mapping_util.h"

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  WGPUBuffer rb = NULL, wb = NULL, mc = NULL;
  EXPECT_NO_VALIDATION(&ctx, rb = make_buffer(ctx.device, 0, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0));
  EXPECT_NO_VALIDATION(&ctx, wb = make_buffer(ctx.device, 0, WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc, 0));
  EXPECT_NO_VALIDATION(&ctx, mc = make_buffer(ctx.device, 0, WGPUBufferUsage_CopySrc, 1));
  REQUIRE(rb && wb && mc);
  CHECK_EQ(wgpuBufferGetSize(rb), 0);
  CHECK_EQ(wgpuBufferGetMapState(rb), WGPUBufferMapState_Unmapped);

  /* mappedAtCreation, size 0. */
  CHECK_EQ(wgpuBufferGetMapState(mc), WGPUBufferMapState_Mapped);
  CHECK(wgpuBufferGetMappedRange(mc, 0, 0) != NULL);
  EXPECT_NO_VALIDATION(&ctx, wgpuBufferUnmap(mc));
  CHECK_EQ(wgpuBufferGetMapState(mc), WGPUBufferMapState_Unmapped);

  /* Write mapping, explicit size 0. */
  EXPECT_NO_VALIDATION(&ctx, CHECK_EQ(mu_map_wait(ctx.instance, wb, WGPUMapMode_Write, 0, 0),
                                      WGPUMapAsyncStatus_Success));
  CHECK_EQ(wgpuBufferGetMapState(wb), WGPUBufferMapState_Mapped);
  CHECK(wgpuBufferGetMappedRange(wb, 0, 0) != NULL);
  CHECK(wgpuBufferGetMappedRange(wb, 8, 0) == NULL); /* past the end */
  EXPECT_NO_VALIDATION(&ctx, wgpuBufferUnmap(wb));
  CHECK_EQ(wgpuBufferGetMapState(wb), WGPUBufferMapState_Unmapped);

  /* Write mapping, WHOLE_MAP_SIZE; GetMappedRange with WHOLE_MAP_SIZE. */
  EXPECT_NO_VALIDATION(&ctx, CHECK_EQ(mu_map_wait(ctx.instance, wb, WGPUMapMode_Write, 0, WGPU_WHOLE_MAP_SIZE),
                                      WGPUMapAsyncStatus_Success));
  CHECK(wgpuBufferGetMappedRange(wb, 0, WGPU_WHOLE_MAP_SIZE) != NULL);
  wgpuBufferUnmap(wb);

  /* Read mapping: const pointer; ReadMappedRange of 0 bytes succeeds. */
  EXPECT_NO_VALIDATION(&ctx, CHECK_EQ(mu_map_wait(ctx.instance, rb, WGPUMapMode_Read, 0, WGPU_WHOLE_MAP_SIZE),
                                      WGPUMapAsyncStatus_Success));
  CHECK_EQ(wgpuBufferGetMapState(rb), WGPUBufferMapState_Mapped);
  CHECK(wgpuBufferGetConstMappedRange(rb, 0, 0) != NULL);
  uint8_t dummy[4] = {0};
  CHECK_EQ(wgpuBufferReadMappedRange(rb, 0, dummy, 0), WGPUStatus_Success);
  CHECK(wgpuBufferGetMappedRange(rb, 0, 0) == NULL); /* mutable on a Read mapping */
  wgpuBufferUnmap(rb);
  CHECK_EQ(wgpuBufferGetMapState(rb), WGPUBufferMapState_Unmapped);

  /* Mapping past the end of a zero-sized buffer is still an error. */
  {
    MapResult r;
    mu_map_result_init(&r);
    WGPUFuture f = {0};
    EXPECT_VALIDATION(&ctx, f = mu_map_async(rb, WGPUMapMode_Read, 0, 4, WGPUCallbackMode_WaitAnyOnly, &r));
    CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
    CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Error);
  }

  wgpuBufferRelease(rb);
  wgpuBufferRelease(wb);
  wgpuBufferRelease(mc);
  ctx_release(&ctx);
  return test_finish();
}
