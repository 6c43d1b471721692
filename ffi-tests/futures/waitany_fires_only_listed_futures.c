/* Rule (spec §8.3, I#513, §12): WaitAny fires only the callbacks of the
 * futures it lists. Other futures that are complete, on the same queue or not,
 * WaitAnyOnly or AllowProcessEvents, stay undelivered; a later wait (or
 * ProcessEvents for AllowProcessEvents) delivers them. In particular, waiting
 * on an OnSubmittedWorkDone does not deliver the MapAsync issued before it. */
#define _GNU_SOURCE
#include "futures_util.h"

static FuRec map_a, wd_b, wd_c, pop_d, wd_e, map_f;

static void check_calls(int a, int b, int c, int d, int e, int f) {
  CHECK_EQ(fu_calls(&map_a), a);
  CHECK_EQ(fu_calls(&wd_b), b);
  CHECK_EQ(fu_calls(&wd_c), c);
  CHECK_EQ(fu_calls(&pop_d), d);
  CHECK_EQ(fu_calls(&wd_e), e);
  CHECK_EQ(fu_calls(&map_f), f);
}

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  fu_rec_init(&map_a, "A: map WaitAnyOnly");
  fu_rec_init(&wd_b, "B: work-done WaitAnyOnly");
  fu_rec_init(&wd_c, "C: work-done WaitAnyOnly (the one waited first)");
  fu_rec_init(&pop_d, "D: pop error scope WaitAnyOnly");
  fu_rec_init(&wd_e, "E: work-done AllowProcessEvents");
  fu_rec_init(&map_f, "F: map AllowProcessEvents");

  WGPUBuffer buf_a = fu_busy_map_buffer(&ctx, 1u << 16, 4);
  WGPUBuffer buf_f = fu_busy_map_buffer(&ctx, 1u << 16, 4);
  WGPUFuture fa = fu_map_read(buf_a, WGPUCallbackMode_WaitAnyOnly, &map_a);
  WGPUFuture ff = fu_map_read(buf_f, WGPUCallbackMode_AllowProcessEvents, &map_f);
  WGPUFuture fb = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wd_b);
  WGPUFuture fe = fu_workdone(ctx.queue, WGPUCallbackMode_AllowProcessEvents, &wd_e);
  WGPUFuture fd = fu_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &pop_d);
  WGPUFuture fc = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wd_c);

  /* C is the last work-done: when it is complete, so are all the others. */
  WGPUBool completed = WGPU_FALSE;
  CHECK_EQ(fu_wait1(ctx.instance, fc, FU_WAIT_S, &wd_c, &completed), WGPUWaitStatus_Success);
  CHECK(completed);
  check_calls(0, 0, 1, 0, 0, 0);
  fu_idle(0.05);
  check_calls(0, 0, 1, 0, 0, 0);

  CHECK_EQ(fu_wait1(ctx.instance, fb, FU_WAIT_S, &wd_b, &completed), WGPUWaitStatus_Success);
  check_calls(0, 1, 1, 0, 0, 0);
  CHECK_EQ(fu_wait1(ctx.instance, fd, FU_WAIT_S, &pop_d, &completed), WGPUWaitStatus_Success);
  check_calls(0, 1, 1, 1, 0, 0);
  CHECK_EQ(fu_wait1(ctx.instance, fa, FU_WAIT_S, &map_a, &completed), WGPUWaitStatus_Success);
  check_calls(1, 1, 1, 1, 0, 0);
  CHECK_EQ(wgpuBufferGetMapState(buf_a), WGPUBufferMapState_Mapped);
  /* F is complete but not listed and not pumped: its buffer is still Pending. */
  CHECK_EQ(wgpuBufferGetMapState(buf_f), WGPUBufferMapState_Pending);

  /* A list of two: both delivered, the other AllowProcessEvents one not. */
  WGPUFutureWaitInfo two[2] = {WGPU_FUTURE_WAIT_INFO_INIT, WGPU_FUTURE_WAIT_INFO_INIT};
  two[0].future = fe;
  two[1].future = fa; /* already delivered: reported completed, not re-fired */
  CHECK_EQ(fu_wait_any(ctx.instance, 2, two, FU_NS(FU_WAIT_S)), WGPUWaitStatus_Success);
  CHECK(two[1].completed);
  if (!two[0].completed) {
    /* Allowed shortcut (Dawn): an already-completed entry ends the wait. Wait on E alone. */
    CHECK_EQ(fu_wait1(ctx.instance, fe, FU_WAIT_S, &wd_e, &completed), WGPUWaitStatus_Success);
  }
  check_calls(1, 1, 1, 1, 1, 0);
  CHECK_EQ(wgpuBufferGetMapState(buf_f), WGPUBufferMapState_Pending);

  /* F is delivered by ProcessEvents. */
  CHECK(fu_pump_until1(ctx.instance, &map_f, FU_WAIT_S));
  check_calls(1, 1, 1, 1, 1, 1);
  CHECK_EQ(map_f.phase, FU_PHASE_PROCESS_EVENTS);
  CHECK_EQ(wgpuBufferGetMapState(buf_f), WGPUBufferMapState_Mapped);
  (void)ff;

  wgpuBufferRelease(buf_a);
  wgpuBufferRelease(buf_f);
  ctx_release(&ctx);
  return test_finish();
}
