/* Rule (spec §8.2, §8.6): an AllowProcessEvents callback fires inside
 * wgpuInstanceProcessEvents once its operation is complete, on the thread that
 * calls ProcessEvents, and never spontaneously (not on another thread, not
 * while the application makes no call). It also fires inside WaitAny when its
 * future is listed. */
#define _GNU_SOURCE
#include "futures_util.h"

static FuRec map1, wd1, pop1, probe, map2, wd2, pop2;

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  fu_rec_init(&map1, "APE map (ProcessEvents)");
  fu_rec_init(&wd1, "APE work-done (ProcessEvents)");
  fu_rec_init(&pop1, "APE pop error scope (ProcessEvents)");
  fu_rec_init(&probe, "spontaneous probe work-done");
  fu_rec_init(&map2, "APE map (WaitAny)");
  fu_rec_init(&wd2, "APE work-done (WaitAny)");
  fu_rec_init(&pop2, "APE pop error scope (WaitAny)");
  map1.probe_state = 1;
  map2.probe_state = 1;

  /* Part 1: delivered by ProcessEvents. */
  WGPUBuffer buf = fu_busy_map_buffer(&ctx, 1u << 16, 4);
  fu_map_read(buf, WGPUCallbackMode_AllowProcessEvents, &map1);
  fu_workdone(ctx.queue, WGPUCallbackMode_AllowProcessEvents, &wd1);
  fu_push_pop(ctx.device, WGPUCallbackMode_AllowProcessEvents, &pop1);

  /* Let the operations complete with no calls: a later spontaneous work-done
   * tells when the queue is done (if the library delivers spontaneously), then
   * some more idle time. Nothing above may fire meanwhile. */
  fu_workdone(ctx.queue, WGPUCallbackMode_AllowSpontaneous, &probe);
  fu_sleep_until1(&probe, 3.0);
  fu_idle(0.15);
  FU_CHECK_NOT_CALLED(&map1);
  FU_CHECK_NOT_CALLED(&wd1);
  FU_CHECK_NOT_CALLED(&pop1);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Pending);

  FuRec *part1[] = {&map1, &wd1, &pop1};
  CHECK(fu_pump_until(ctx.instance, part1, 3, FU_WAIT_S));
  for (int i = 0; i < 3; i++) {
    FU_CHECK_ONCE(part1[i]);
    CHECK(part1[i]->on_main);
    CHECK_EQ(part1[i]->phase, FU_PHASE_PROCESS_EVENTS);
    CHECK_EQ(part1[i]->status, 1); /* Success in every status enum */
  }
  CHECK_EQ(map1.state_in_cb, WGPUBufferMapState_Mapped);
  CHECK_EQ(pop1.error_type, WGPUErrorType_NoError);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Mapped);
  wgpuBufferUnmap(buf);

  /* Part 2: the same modes, delivered by WaitAny listing them (no ProcessEvents). */
  WGPUBuffer buf2 = fu_busy_map_buffer(&ctx, 1u << 16, 4);
  WGPUFuture fs[3];
  fs[0] = fu_map_read(buf2, WGPUCallbackMode_AllowProcessEvents, &map2);
  fs[1] = fu_workdone(ctx.queue, WGPUCallbackMode_AllowProcessEvents, &wd2);
  fs[2] = fu_push_pop(ctx.device, WGPUCallbackMode_AllowProcessEvents, &pop2);
  FuRec *part2[] = {&map2, &wd2, &pop2};
  CHECK(fu_wait_all(ctx.instance, fs, part2, 3, 0 /* mixed sources: polls */, FU_WAIT_S));
  for (int i = 0; i < 3; i++) {
    FU_CHECK_ONCE(part2[i]);
    CHECK(part2[i]->on_main);
    CHECK_EQ(part2[i]->phase, FU_PHASE_WAITANY);
    CHECK_EQ(part2[i]->completed_seen, 1);
    CHECK_EQ(part2[i]->status, 1);
  }
  CHECK_EQ(map2.state_in_cb, WGPUBufferMapState_Mapped);

  /* Nothing fires twice. */
  for (int i = 0; i < 5; i++) fu_process_events(ctx.instance);
  for (int i = 0; i < 3; i++) {
    FU_CHECK_ONCE(part1[i]);
    FU_CHECK_ONCE(part2[i]);
  }

  wgpuBufferUnmap(buf2);
  wgpuBufferRelease(buf);
  wgpuBufferRelease(buf2);
  ctx_release(&ctx);
  return test_finish();
}
