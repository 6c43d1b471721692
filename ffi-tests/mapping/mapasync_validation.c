/* Rule (webgpu.h §9.2): MapAsync validation. Each of these gives callback
 * status Error with a non-empty message plus a validation error, and leaves the
 * buffer Unmapped (and mappable again):
 *   offset % 8 != 0, size % 4 != 0, offset + size > buffer size, a mode with
 *   both or neither of Read/Write or with unknown bits, a Read mapping without
 *   MAP_READ usage, a Write mapping without MAP_WRITE usage, a destroyed
 *   buffer.
 * WGPU_WHOLE_MAP_SIZE means max(0, buffer.size - offset); offset == size with
 * WHOLE_MAP_SIZE (or an explicit size 0) is a valid 0-byte mapping. */
#include "mapping_util.h"

/* Runs one MapAsync that must fail validation; returns nothing, checks all. */
static void expect_map_error(Ctx *ctx, WGPUBuffer buf, WGPUMapMode mode, size_t offset, size_t size,
                             const char *what) {
  MapResult r;
  mu_map_result_init(&r);
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUFuture f = mu_map_async(buf, mode, offset, size, WGPUCallbackMode_WaitAnyOnly, &r);
  WGPUErrorType t = mu_pop_type(ctx);
  WGPUWaitStatus ws = mu_wait(ctx->instance, f);
  int ok = ws == WGPUWaitStatus_Success && atomic_load(&r.calls) == 1 &&
           atomic_load(&r.status) == WGPUMapAsyncStatus_Error && atomic_load(&r.msg_nonempty) &&
           t == WGPUErrorType_Validation && wgpuBufferGetMapState(buf) == WGPUBufferMapState_Unmapped;
  if (!ok) {
    fprintf(stderr,
            "  case '%s': wait=%d calls=%d status=%d msg_nonempty=%d scope_type=%d state=%d\n"
            "  (want wait=1 calls=1 status=3(Error) msg_nonempty=1 scope_type=2(Validation) state=1)\n",
            what, (int)ws, atomic_load(&r.calls), atomic_load(&r.status), atomic_load(&r.msg_nonempty), (int)t,
            (int)wgpuBufferGetMapState(buf));
  }
  harness_check(ok, what, __FILE__, __LINE__);
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  uint8_t expect[64];
  mu_fill(expect, sizeof expect, 3);
  WGPUBuffer rbuf = mu_buffer_with_data(&ctx, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 3);
  WGPUBuffer wbuf = make_buffer(ctx.device, 64, WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc, 0);
  WGPUBuffer nomap = make_buffer(ctx.device, 64, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 0);
  REQUIRE(rbuf && wbuf && nomap);

  /* Alignment and bounds. */
  expect_map_error(&ctx, rbuf, WGPUMapMode_Read, 4, 8, "offset % 8 != 0");
  expect_map_error(&ctx, rbuf, WGPUMapMode_Read, 12, 4, "offset 12 (% 8 != 0)");
  expect_map_error(&ctx, rbuf, WGPUMapMode_Read, 0, 6, "size % 4 != 0");
  expect_map_error(&ctx, rbuf, WGPUMapMode_Read, 8, 2, "size 2");
  expect_map_error(&ctx, rbuf, WGPUMapMode_Read, 8, 64, "offset + size > buffer size");
  expect_map_error(&ctx, rbuf, WGPUMapMode_Read, 0, 68, "size > buffer size");
  expect_map_error(&ctx, rbuf, WGPUMapMode_Read, 72, WGPU_WHOLE_MAP_SIZE, "offset > size with WHOLE_MAP_SIZE");
  expect_map_error(&ctx, rbuf, WGPUMapMode_Read, 4, WGPU_WHOLE_MAP_SIZE, "offset % 8 with WHOLE_MAP_SIZE");
  /* offset + size overflowing size_t must not wrap around into "valid". */
  expect_map_error(&ctx, rbuf, WGPUMapMode_Read, 8, SIZE_MAX - 7, "offset + size wraps");

  /* Mode. */
  expect_map_error(&ctx, rbuf, WGPUMapMode_Read | WGPUMapMode_Write, 0, 64, "mode Read|Write");
  expect_map_error(&ctx, rbuf, WGPUMapMode_None, 0, 64, "mode None");
  expect_map_error(&ctx, rbuf, WGPUMapMode_Read | ((WGPUMapMode)1 << 5), 0, 64, "mode Read|unknown bit 5");
  expect_map_error(&ctx, rbuf, (WGPUMapMode)1 << 40, 0, 64, "mode unknown bit 40 only");
  expect_map_error(&ctx, wbuf, WGPUMapMode_Write | ((WGPUMapMode)1 << 63), 0, 64, "mode Write|bit 63");

  /* Usage. */
  expect_map_error(&ctx, rbuf, WGPUMapMode_Write, 0, 64, "Write without MAP_WRITE usage");
  expect_map_error(&ctx, wbuf, WGPUMapMode_Read, 0, 64, "Read without MAP_READ usage");
  expect_map_error(&ctx, nomap, WGPUMapMode_Read, 0, 64, "Read on a buffer with no map usage");
  expect_map_error(&ctx, nomap, WGPUMapMode_Write, 0, 64, "Write on a buffer with no map usage");

  /* After all those failures, the buffers map normally. */
  CHECK_EQ(wgpuBufferGetMapState(rbuf), WGPUBufferMapState_Unmapped);
  EXPECT_NO_VALIDATION(&ctx, CHECK_EQ(mu_map_wait(ctx.instance, rbuf, WGPUMapMode_Read, 0, 64),
                                      WGPUMapAsyncStatus_Success));
  const uint8_t *p = (const uint8_t *)wgpuBufferGetConstMappedRange(rbuf, 0, 64);
  CHECK(p != NULL);
  if (p) CHECK(memcmp(p, expect, 64) == 0);
  wgpuBufferUnmap(rbuf);
  EXPECT_NO_VALIDATION(&ctx, CHECK_EQ(mu_map_wait(ctx.instance, wbuf, WGPUMapMode_Write, 0, 64),
                                      WGPUMapAsyncStatus_Success));
  wgpuBufferUnmap(wbuf);

  /* WHOLE_MAP_SIZE = rest of the buffer: [16, 64). */
  EXPECT_NO_VALIDATION(&ctx, CHECK_EQ(mu_map_wait(ctx.instance, rbuf, WGPUMapMode_Read, 16, WGPU_WHOLE_MAP_SIZE),
                                      WGPUMapAsyncStatus_Success));
  CHECK_EQ(wgpuBufferGetMapState(rbuf), WGPUBufferMapState_Mapped);
  p = (const uint8_t *)wgpuBufferGetConstMappedRange(rbuf, 16, 48);
  CHECK(p != NULL);
  if (p) CHECK(memcmp(p, expect + 16, 48) == 0);
  CHECK(wgpuBufferGetConstMappedRange(rbuf, 8, 8) == NULL);  /* before the mapping */
  CHECK(wgpuBufferGetConstMappedRange(rbuf, 56, 16) == NULL); /* past the buffer */
  wgpuBufferUnmap(rbuf);

  /* WHOLE_MAP_SIZE from 0 covers the whole buffer. */
  CHECK_EQ(mu_map_wait(ctx.instance, rbuf, WGPUMapMode_Read, 0, WGPU_WHOLE_MAP_SIZE), WGPUMapAsyncStatus_Success);
  CHECK(wgpuBufferGetConstMappedRange(rbuf, 0, 64) != NULL);
  wgpuBufferUnmap(rbuf);

  /* offset == size with WHOLE_MAP_SIZE: a valid 0-byte mapping. */
  EXPECT_NO_VALIDATION(&ctx, CHECK_EQ(mu_map_wait(ctx.instance, rbuf, WGPUMapMode_Read, 64, WGPU_WHOLE_MAP_SIZE),
                                      WGPUMapAsyncStatus_Success));
  CHECK_EQ(wgpuBufferGetMapState(rbuf), WGPUBufferMapState_Mapped);
  CHECK(wgpuBufferGetConstMappedRange(rbuf, 0, 4) == NULL); /* nothing of it is mapped */
  wgpuBufferUnmap(rbuf);
  CHECK_EQ(wgpuBufferGetMapState(rbuf), WGPUBufferMapState_Unmapped);

  /* An explicit size 0 is valid too, also at a non-end offset. */
  EXPECT_NO_VALIDATION(&ctx, CHECK_EQ(mu_map_wait(ctx.instance, wbuf, WGPUMapMode_Write, 8, 0),
                                      WGPUMapAsyncStatus_Success));
  CHECK_EQ(wgpuBufferGetMapState(wbuf), WGPUBufferMapState_Mapped);
  wgpuBufferUnmap(wbuf);

  /* The last valid range: [56, 64). */
  EXPECT_NO_VALIDATION(&ctx, CHECK_EQ(mu_map_wait(ctx.instance, rbuf, WGPUMapMode_Read, 56, 8),
                                      WGPUMapAsyncStatus_Success));
  p = (const uint8_t *)wgpuBufferGetConstMappedRange(rbuf, 56, 8);
  CHECK(p != NULL);
  if (p) CHECK(memcmp(p, expect + 56, 8) == 0);
  wgpuBufferUnmap(rbuf);

  /* Destroyed buffer: Error + validation error, stays Unmapped. */
  wgpuBufferDestroy(wbuf);
  expect_map_error(&ctx, wbuf, WGPUMapMode_Write, 0, 64, "destroyed buffer");
  wgpuBufferDestroy(rbuf);
  expect_map_error(&ctx, rbuf, WGPUMapMode_Read, 0, WGPU_WHOLE_MAP_SIZE, "destroyed buffer (WHOLE_MAP_SIZE)");

  wgpuBufferRelease(nomap);
  wgpuBufferRelease(wbuf);
  wgpuBufferRelease(rbuf);
  ctx_release(&ctx);
  return test_finish();
}
