/* Rule (webgpu.h §9.1, DECISIONS "Map state visibility"): a buffer's map state
 * goes Unmapped -> Pending at MapAsync, stays Pending until the map callback
 * is delivered (WaitAnyOnly and not yet waited: Pending even after the GPU is
 * done), becomes Mapped in the step that calls the callback (so the callback
 * already sees Mapped and can take a range), and Unmapped again after Unmap.
 * A buffer created with mappedAtCreation starts Mapped. */
#include "mapping_util.h"

static void on_work_done(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)message;
  (void)u2;
  *(int *)u1 = (int)status;
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  /* --- Read mapping, WaitAnyOnly --- */
  WGPUBuffer buf = mu_buffer_with_data(&ctx, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 1);
  REQUIRE(buf != NULL);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);

  MapResult r;
  mu_map_result_init(&r);
  r.probe = buf;
  r.probe_offset = 0;
  WGPUFuture f = mu_map_async(buf, WGPUMapMode_Read, 0, 64, WGPUCallbackMode_WaitAnyOnly, &r);
  CHECK(f.id != 0);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Pending);
  CHECK(wgpuBufferGetConstMappedRange(buf, 0, 4) == NULL);

  /* ProcessEvents never delivers a WaitAnyOnly callback. */
  for (int i = 0; i < 5; i++) {
    wgpuInstanceProcessEvents(ctx.instance);
    sleep_ms(10);
  }
  CHECK_EQ(atomic_load(&r.calls), 0);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Pending);

  /* Work done on the queue after the map was requested: the GPU side of the
   * map is certainly complete now, but its callback has not been delivered,
   * so the state must still be Pending. */
  int done_status = 0;
  WGPUQueueWorkDoneCallbackInfo wd = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  wd.mode = WGPUCallbackMode_WaitAnyOnly;
  wd.callback = on_work_done;
  wd.userdata1 = &done_status;
  WGPUFuture wf = wgpuQueueOnSubmittedWorkDone(ctx.queue, wd);
  CHECK_EQ(mu_wait(ctx.instance, wf), WGPUWaitStatus_Success);
  CHECK_EQ(done_status, WGPUQueueWorkDoneStatus_Success);
  CHECK_EQ(atomic_load(&r.calls), 0);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Pending);
  CHECK(wgpuBufferGetConstMappedRange(buf, 0, 4) == NULL);

  /* Delivery: Mapped in the same step that calls the callback. */
  CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&r.calls), 1);
  CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Success);
  CHECK(atomic_load(&r.msg_empty));
  CHECK_EQ(atomic_load(&r.state_in_cb), WGPUBufferMapState_Mapped);
  CHECK(atomic_load(&r.range_in_cb));
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Mapped);
  {
    uint8_t expect[64];
    mu_fill(expect, sizeof expect, 1);
    const uint8_t *p = (const uint8_t *)wgpuBufferGetConstMappedRange(buf, 16, 48);
    CHECK(p != NULL);
    if (p) CHECK(memcmp(p, expect + 16, 48) == 0);
  }

  /* Waiting again: completed, no second call, state unchanged. */
  int completed = 0;
  CHECK_EQ(mu_wait_completed(ctx.instance, f, &completed), WGPUWaitStatus_Success);
  CHECK(completed);
  CHECK_EQ(atomic_load(&r.calls), 1);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Mapped);

  EXPECT_NO_VALIDATION(&ctx, wgpuBufferUnmap(buf));
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);
  CHECK(wgpuBufferGetConstMappedRange(buf, 0, 4) == NULL);
  /* Unmap of an Unmapped buffer does nothing and is no error. */
  EXPECT_NO_VALIDATION(&ctx, wgpuBufferUnmap(buf));
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);

  /* The cycle can be repeated. */
  CHECK_EQ(mu_map_wait(ctx.instance, buf, WGPUMapMode_Read, 0, 64), WGPUMapAsyncStatus_Success);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Mapped);
  wgpuBufferUnmap(buf);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);

  /* --- Write mapping, AllowProcessEvents: Pending until ProcessEvents or
   * WaitAny delivers it. --- */
  WGPUBuffer wbuf = make_buffer(ctx.device, 64, WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc, 0);
  REQUIRE(wbuf != NULL);
  CHECK_EQ(wgpuBufferGetMapState(wbuf), WGPUBufferMapState_Unmapped);
  MapResult w;
  mu_map_result_init(&w);
  w.probe = wbuf;
  w.probe_offset = 56;
  WGPUFuture wfut = mu_map_async(wbuf, WGPUMapMode_Write, 0, 64, WGPUCallbackMode_AllowProcessEvents, &w);
  CHECK_EQ(wgpuBufferGetMapState(wbuf), WGPUBufferMapState_Pending);
  sleep_ms(50); /* no delivery without WaitAny / ProcessEvents */
  CHECK_EQ(atomic_load(&w.calls), 0);
  CHECK_EQ(wgpuBufferGetMapState(wbuf), WGPUBufferMapState_Pending);
  CHECK(mu_poll_until(ctx.instance, &w.calls, 1, 10000));
  CHECK_EQ(atomic_load(&w.status), WGPUMapAsyncStatus_Success);
  CHECK_EQ(atomic_load(&w.state_in_cb), WGPUBufferMapState_Mapped);
  CHECK(atomic_load(&w.range_in_cb));
  CHECK_EQ(wgpuBufferGetMapState(wbuf), WGPUBufferMapState_Mapped);
  CHECK(wgpuBufferGetMappedRange(wbuf, 0, 32) != NULL);
  CHECK_EQ(mu_wait(ctx.instance, wfut), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&w.calls), 1);
  wgpuBufferUnmap(wbuf);
  CHECK_EQ(wgpuBufferGetMapState(wbuf), WGPUBufferMapState_Unmapped);

  /* --- AllowSpontaneous: Pending right after the call; delivered without
   * any WaitAny/ProcessEvents (DECISIONS: the progress thread delivers);
   * Mapped once delivered. --- */
  MapResult s;
  mu_map_result_init(&s);
  WGPUFuture sf = mu_map_async(buf, WGPUMapMode_Read, 0, 64, WGPUCallbackMode_AllowSpontaneous, &s);
  if (atomic_load(&s.calls) == 0) {
    /* Not yet delivered: must be Pending (it cannot be Mapped before). */
    WGPUBufferMapState st = wgpuBufferGetMapState(buf);
    CHECK(st == WGPUBufferMapState_Pending || (st == WGPUBufferMapState_Mapped && atomic_load(&s.calls) == 1));
  }
  CHECK(mu_sleep_until(&s.calls, 1, 10000));
  CHECK_EQ(atomic_load(&s.status), WGPUMapAsyncStatus_Success);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Mapped);
  CHECK(wgpuBufferGetConstMappedRange(buf, 0, 64) != NULL);
  CHECK_EQ(mu_wait(ctx.instance, sf), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&s.calls), 1);
  wgpuBufferUnmap(buf);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);

  /* --- mappedAtCreation starts Mapped (with and without map usage). --- */
  WGPUBuffer mc = make_buffer(ctx.device, 32, WGPUBufferUsage_CopySrc, 1);
  REQUIRE(mc != NULL);
  CHECK_EQ(wgpuBufferGetMapState(mc), WGPUBufferMapState_Mapped);
  CHECK(wgpuBufferGetMappedRange(mc, 0, 32) != NULL);
  wgpuBufferUnmap(mc);
  CHECK_EQ(wgpuBufferGetMapState(mc), WGPUBufferMapState_Unmapped);
  WGPUBuffer mcr = make_buffer(ctx.device, 32, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 1);
  REQUIRE(mcr != NULL);
  CHECK_EQ(wgpuBufferGetMapState(mcr), WGPUBufferMapState_Mapped);
  wgpuBufferUnmap(mcr);
  CHECK_EQ(wgpuBufferGetMapState(mcr), WGPUBufferMapState_Unmapped);
  /* ...and can then be mapped the ordinary way. */
  CHECK_EQ(mu_map_wait(ctx.instance, mcr, WGPUMapMode_Read, 0, 32), WGPUMapAsyncStatus_Success);
  CHECK_EQ(wgpuBufferGetMapState(mcr), WGPUBufferMapState_Mapped);
  wgpuBufferUnmap(mcr);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuBufferRelease(mcr);
  wgpuBufferRelease(mc);
  wgpuBufferRelease(wbuf);
  wgpuBufferRelease(buf);
  ctx_release(&ctx);
  return test_finish();
}
