/* Fault `map-fail` (the backend fails a buffer map), injected at the 1st and
 * 3rd map: those callbacks get Error (once each, with a message), the buffer
 * stays Unmapped with no range, the device is not lost, and the next map of
 * the same buffer succeeds with the data intact (nothing lost). Covers the
 * WaitAnyOnly and AllowSpontaneous modes. */
#include "fault_util.h"

static void fails_then_works(Ctx *ctx, WGPUBuffer buf, WGPUCallbackMode mode, uint32_t seed) {
  MapResult r;
  mu_map_result_init(&r);
  WGPUFuture f = mu_map_async(buf, WGPUMapMode_Read, 0, 256, mode, &r);
  if (mode == WGPUCallbackMode_AllowSpontaneous) CHECK(mu_sleep_until(&r.calls, 1, 5000));
  else CHECK_EQ(mu_wait(ctx->instance, f), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&r.calls), 1);
  CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Error);
  CHECK(atomic_load(&r.msg_nonempty));
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);
  CHECK(wgpuBufferGetConstMappedRange(buf, 0, 4) == NULL);

  MapResult ok;
  mu_map_result_init(&ok);
  f = mu_map_async(buf, WGPUMapMode_Read, 0, 256, mode, &ok);
  if (mode == WGPUCallbackMode_AllowSpontaneous) CHECK(mu_sleep_until(&ok.calls, 1, 5000));
  else CHECK_EQ(mu_wait(ctx->instance, f), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&ok.calls), 1);
  CHECK_EQ(atomic_load(&ok.status), WGPUMapAsyncStatus_Success);
  const uint8_t *p = wgpuBufferGetConstMappedRange(buf, 0, 256);
  CHECK(p != NULL);
  uint8_t want[256];
  mu_fill(want, sizeof want, seed);
  CHECK(p && memcmp(p, want, sizeof want) == 0);
  wgpuBufferUnmap(buf);
  CHECK_EQ(atomic_load(&r.calls), 1);
}

int main(void) {
  fault_plan("map-fail@1,map-fail@3");
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUBuffer buf = mu_buffer_with_data(&ctx, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 7);
  REQUIRE(buf != NULL);
  fails_then_works(&ctx, buf, WGPUCallbackMode_WaitAnyOnly, 7);
  fails_then_works(&ctx, buf, WGPUCallbackMode_AllowSpontaneous, 7);
  CHECK_EQ(ctx.lost_calls, 0);
  wgpuBufferRelease(buf);
  ctx_release(&ctx);
  return test_finish();
}
