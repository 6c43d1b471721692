/* Rule (spec §8.2, §12; DECISIONS "Map state visibility"): a WaitAnyOnly
 * callback fires only inside wgpuInstanceWaitAny when its future is listed.
 * ProcessEvents never fires it, nor does time passing with no calls, even once
 * the operation has completed. A WaitAnyOnly map leaves the buffer Pending
 * (no mapped range) until WaitAny delivers it; in the callback it is Mapped. */
#define _GNU_SOURCE
#include "futures_util.h"

static FuRec map_rec, wd_rec, pop_rec, probe_rec;

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  fu_rec_init(&map_rec, "WaitAnyOnly map");
  fu_rec_init(&wd_rec, "WaitAnyOnly work-done");
  fu_rec_init(&pop_rec, "WaitAnyOnly pop error scope");
  fu_rec_init(&probe_rec, "AllowProcessEvents probe work-done");
  map_rec.probe_state = 1;

  /* A map on a buffer the queue still writes, and a work-done after a submit. */
  WGPUBuffer buf = fu_busy_map_buffer(&ctx, 1u << 16, 4);
  WGPUFuture f_map = fu_map_read(buf, WGPUCallbackMode_WaitAnyOnly, &map_rec);
  WGPUFuture f_wd = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wd_rec);
  WGPUFuture f_pop = fu_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &pop_rec);
  CHECK(f_map.id != 0);
  CHECK(f_wd.id != 0);
  CHECK(f_pop.id != 0);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Pending);

  /* A later AllowProcessEvents work-done: once ProcessEvents delivers it, the
   * map and the work-done above have completed too (they cover less work). */
  fu_workdone(ctx.queue, WGPUCallbackMode_AllowProcessEvents, &probe_rec);
  CHECK(fu_pump_until1(ctx.instance, &probe_rec, FU_WAIT_S));
  for (int i = 0; i < 20; i++) {
    fu_process_events(ctx.instance);
    sleep_s(0.005);
  }
  FU_CHECK_NOT_CALLED(&map_rec);
  FU_CHECK_NOT_CALLED(&wd_rec);
  FU_CHECK_NOT_CALLED(&pop_rec);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Pending);
  CHECK(wgpuBufferGetConstMappedRange(buf, 0, FU_MAP_SIZE) == NULL);

  /* No calls at all for 200 ms: nothing may fire on another thread. */
  fu_idle(0.2);
  FU_CHECK_NOT_CALLED(&map_rec);
  FU_CHECK_NOT_CALLED(&wd_rec);
  FU_CHECK_NOT_CALLED(&pop_rec);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Pending);

  /* A poll of the map alone delivers the map, and only the map. */
  WGPUBool completed = WGPU_FALSE;
  CHECK_EQ(fu_wait1(ctx.instance, f_map, 0, &map_rec, &completed), WGPUWaitStatus_Success);
  CHECK(completed);
  FU_CHECK_ONCE(&map_rec);
  FU_CHECK_STATUS(&map_rec, WGPUMapAsyncStatus_Success);
  CHECK(map_rec.on_main);
  CHECK_EQ(map_rec.phase, FU_PHASE_WAITANY);
  CHECK_EQ(map_rec.state_in_cb, WGPUBufferMapState_Mapped);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Mapped);
  CHECK(wgpuBufferGetConstMappedRange(buf, 0, FU_MAP_SIZE) != NULL);
  FU_CHECK_NOT_CALLED(&wd_rec);
  FU_CHECK_NOT_CALLED(&pop_rec);

  /* A timed wait on the work-done delivers it. */
  completed = WGPU_FALSE;
  CHECK_EQ(fu_wait1(ctx.instance, f_wd, FU_WAIT_S, &wd_rec, &completed), WGPUWaitStatus_Success);
  CHECK(completed);
  FU_CHECK_ONCE(&wd_rec);
  FU_CHECK_STATUS(&wd_rec, WGPUQueueWorkDoneStatus_Success);
  CHECK(wd_rec.on_main);
  CHECK_EQ(wd_rec.phase, FU_PHASE_WAITANY);
  FU_CHECK_NOT_CALLED(&pop_rec);

  /* The CPU-timeline future too. */
  CHECK_EQ(fu_wait1(ctx.instance, f_pop, FU_WAIT_S, &pop_rec, &completed), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&pop_rec);
  FU_CHECK_STATUS(&pop_rec, WGPUPopErrorScopeStatus_Success);
  CHECK_EQ(pop_rec.error_type, WGPUErrorType_NoError);
  CHECK(pop_rec.on_main);
  CHECK_EQ(pop_rec.phase, FU_PHASE_WAITANY);

  /* Nothing more later. */
  fu_process_events(ctx.instance);
  FU_CHECK_ONCE(&map_rec);
  FU_CHECK_ONCE(&wd_rec);
  FU_CHECK_ONCE(&probe_rec);

  wgpuBufferUnmap(buf);
  wgpuBufferRelease(buf);
  ctx_release(&ctx);
  return test_finish();
}
