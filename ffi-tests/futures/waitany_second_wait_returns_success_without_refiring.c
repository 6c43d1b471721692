/* Rule (spec §8.3 "waiting on the same future twice", §12; DECISIONS "a
 * future that was issued by this instance and has completed is recognised as
 * completed"): WaitAny on a future whose callback already ran returns Success
 * at once with completed = true, and does not run the callback again. This
 * holds however the callback was delivered (WaitAny, ProcessEvents,
 * spontaneously), for polls and timed waits, alone or next to a pending
 * future, and after many newer futures were issued (no id/slot reuse). */
#define _GNU_SOURCE
#include "futures_util.h"

enum { MANY = 64 };
static FuRec wd_w, map_w, pop_w, wd_pe, wd_sp, pending, many[MANY];

/* Waits again on f in several ways; r must stay at one call. */
static void check_rewait(WGPUInstance inst, WGPUFuture f, FuRec *r) {
  WGPUBool completed = WGPU_FALSE;
  double t0 = now_s();
  CHECK_EQ(fu_wait1(inst, f, 0, NULL, &completed), WGPUWaitStatus_Success);
  CHECK(completed);
  completed = WGPU_FALSE;
  CHECK_EQ(fu_wait1(inst, f, 5.0, NULL, &completed), WGPUWaitStatus_Success);
  CHECK(completed);
  completed = WGPU_FALSE;
  CHECK_EQ(fu_wait1(inst, f, -1 /* UINT64_MAX */, NULL, &completed), WGPUWaitStatus_Success);
  CHECK(completed);
  CHECK(now_s() - t0 < 1.0); /* at once */
  fu_process_events(inst);
  FU_CHECK_ONCE(r);
}

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  fu_rec_init(&wd_w, "work-done WaitAnyOnly");
  fu_rec_init(&map_w, "map WaitAnyOnly");
  fu_rec_init(&pop_w, "pop WaitAnyOnly");
  fu_rec_init(&wd_pe, "work-done AllowProcessEvents via ProcessEvents");
  fu_rec_init(&wd_sp, "work-done AllowSpontaneous");
  fu_rec_init(&pending, "pending work-done");

  WGPUBuffer buf = fu_busy_map_buffer(&ctx, 1u << 14, 2);
  WGPUFuture f_map = fu_map_read(buf, WGPUCallbackMode_WaitAnyOnly, &map_w);
  WGPUFuture f_wd = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wd_w);
  WGPUFuture f_pop = fu_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &pop_w);
  WGPUFuture f_pe = fu_workdone(ctx.queue, WGPUCallbackMode_AllowProcessEvents, &wd_pe);
  WGPUFuture f_sp = fu_workdone(ctx.queue, WGPUCallbackMode_AllowSpontaneous, &wd_sp);

  CHECK_EQ(fu_wait1(ctx.instance, f_map, FU_WAIT_S, &map_w, NULL), WGPUWaitStatus_Success);
  CHECK_EQ(fu_wait1(ctx.instance, f_wd, FU_WAIT_S, &wd_w, NULL), WGPUWaitStatus_Success);
  CHECK_EQ(fu_wait1(ctx.instance, f_pop, FU_WAIT_S, &pop_w, NULL), WGPUWaitStatus_Success);
  CHECK(fu_pump_until1(ctx.instance, &wd_pe, FU_WAIT_S));
  CHECK(fu_sleep_until1(&wd_sp, 5.0));
  FU_CHECK_ONCE(&map_w);
  FU_CHECK_ONCE(&wd_w);
  FU_CHECK_ONCE(&pop_w);
  FU_CHECK_ONCE(&wd_pe);
  FU_CHECK_ONCE(&wd_sp);

  check_rewait(ctx.instance, f_map, &map_w);
  check_rewait(ctx.instance, f_wd, &wd_w);
  check_rewait(ctx.instance, f_pop, &pop_w);
  check_rewait(ctx.instance, f_pe, &wd_pe);
  check_rewait(ctx.instance, f_sp, &wd_sp);

  /* Many newer futures, live (complete but undelivered) while we re-wait the old ones. */
  WGPUFuture fm[MANY];
  FuRec *rm[MANY];
  for (int i = 0; i < MANY; i++) {
    fu_rec_init(&many[i], "newer work-done");
    rm[i] = &many[i];
    submit_empty(&ctx);
    fm[i] = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &many[i]);
  }
  check_rewait(ctx.instance, f_wd, &wd_w);
  check_rewait(ctx.instance, f_map, &map_w);
  for (int i = 0; i < MANY; i++) FU_CHECK_NOT_CALLED(&many[i]);
  CHECK(fu_wait_all(ctx.instance, fm, rm, MANY, 1, FU_WAIT_S));
  for (int i = 0; i < MANY; i++) FU_CHECK_ONCE(&many[i]);
  check_rewait(ctx.instance, f_wd, &wd_w);
  check_rewait(ctx.instance, fm[0], &many[0]);

  /* A delivered future next to a pending one: a poll gives Success, not TimedOut. */
  SpinJob job = fu_calibrate(&ctx, 1, 0.2);
  WGPUBuffer out = submit_spin_job(&ctx, job.iterations, job.dispatches);
  WGPUFuture f_pending = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &pending);
  WGPUFutureWaitInfo two[2] = {WGPU_FUTURE_WAIT_INFO_INIT, WGPU_FUTURE_WAIT_INFO_INIT};
  two[0].future = f_pending;
  two[1].future = f_wd;
  CHECK_EQ(fu_wait_any(ctx.instance, 2, two, 0), WGPUWaitStatus_Success);
  CHECK(two[1].completed);
  two[0].completed = two[1].completed = WGPU_FALSE;
  CHECK_EQ(fu_wait_any(ctx.instance, 2, two, FU_NS(FU_WAIT_S)), WGPUWaitStatus_Success);
  CHECK(two[1].completed);
  FU_CHECK_ONCE(&wd_w);
  CHECK_EQ(fu_wait1(ctx.instance, f_pending, FU_WAIT_S, &pending, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&pending);
  check_rewait(ctx.instance, f_pending, &pending);

  wgpuBufferRelease(out);
  wgpuBufferRelease(buf);
  ctx_release(&ctx);
  return test_finish();
}
