/* Rule (spec §8.3; issue "three deviations", 1): whatever WaitAny returns,
 * it moves every listed future's device on. A polling loop over a
 * work-done future (after real GPU work) and an already complete
 * PopErrorScope future, both WaitAnyOnly, with timeout 0 until both report
 * completed, ends: the first poll completes the CPU-timeline future, and
 * every later poll, which returns Success at once because a listed future
 * is complete, still makes the queue progress. Run without and with direct
 * fence waits (the second CTest run sets WGPU_SHIM_FENCE_WAIT). Also mixed:
 * a complete future of the CPU timeline listed with pending work of two
 * devices' queues. */
#define _GNU_SOURCE
#include "futures_util.h"

static int poll_until_both(Ctx *ctx, WGPUInstance instance, WGPUFuture a, WGPUFuture b, double max_s) {
  WGPUFutureWaitInfo infos[2] = {{a, WGPU_FALSE}, {b, WGPU_FALSE}};
  double deadline = now_s() + max_s;
  int polls = 0;
  while (!(infos[0].completed && infos[1].completed)) {
    WGPUWaitStatus st = fu_wait_any(instance, 2, infos, 0);
    if (st != WGPUWaitStatus_Success && st != WGPUWaitStatus_TimedOut) return -1;
    polls++;
    if (now_s() > deadline) return -2;
    sleep_s(0.0005);
  }
  (void)ctx;
  return polls;
}

int main(void) {
  fu_begin(120);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  for (int round = 0; round < 3; round++) {
    FuRec done, pop;
    fu_rec_init(&done, "work done");
    fu_rec_init(&pop, "pop");
    WGPUBuffer job = submit_spin_job(&ctx, 20000, 4);
    WGPUFuture fd = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &done);
    WGPUFuture fp = fu_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &pop);
    int polls = poll_until_both(&ctx, ctx.instance, fd, fp, 30.0);
    CHECK(polls > 0);
    CHECK_EQ(fu_calls(&done), 1);
    CHECK_EQ(fu_calls(&pop), 1);
    wgpuBufferRelease(job);
  }

  /* Two devices: one complete CPU future listed with both queues' work. */
  Ctx other;
  REQUIRE(fu_ctx_init(&other, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  FuRec d1, d2, pop;
  fu_rec_init(&d1, "work done 1");
  fu_rec_init(&d2, "work done 2");
  fu_rec_init(&pop, "pop");
  WGPUBuffer j1 = submit_spin_job(&ctx, 20000, 2);
  WGPUBuffer j2 = submit_spin_job(&other, 20000, 2);
  WGPUFutureWaitInfo infos[3] = {{fu_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &pop), 0},
                                 {fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &d1), 0},
                                 {fu_workdone(other.queue, WGPUCallbackMode_WaitAnyOnly, &d2), 0}};
  /* `other` is a second instance: its future is waited on there. */
  WGPUFutureWaitInfo mine[2] = {infos[0], infos[1]};
  double deadline = now_s() + 30.0;
  while (!(mine[0].completed && mine[1].completed) && now_s() < deadline) {
    fu_wait_any(ctx.instance, 2, mine, 0);
    sleep_s(0.0005);
  }
  CHECK(mine[0].completed && mine[1].completed);
  WGPUBool c = WGPU_FALSE;
  CHECK_EQ(fu_poll1_until(other.instance, infos[2].future, 30.0, &d2, &c), WGPUWaitStatus_Success);
  CHECK(c);
  wgpuBufferRelease(j1);
  wgpuBufferRelease(j2);
  ctx_release(&other);
  ctx_release(&ctx);
  return test_finish();
}
