/* Rule (DECISIONS "Spontaneous callbacks": a spontaneous callback runs at the
 * end of the API call that completed the operation; spec §8.3 "a later
 * WaitAny on a future that already completed returns Success and does not
 * run the callback again"; §8.8 work-done callbacks settle in call order):
 * on an idle queue, an AllowSpontaneous OnSubmittedWorkDone completes in its
 * own call, so its callback has run, once, on the calling thread, by the time
 * the call returns. Its future is nonzero, distinct from every other, and
 * reported complete by WaitAny (timeout 0 and infinite) without a second
 * call. Many in a row settle in call order; a WaitAnyOnly future registered
 * between them is not delivered by them. */
#define _GNU_SOURCE
#include "futures_util.h"

enum { N = 200 };
static FuRec rec[N], quiet, probe;

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);

  /* Make the queue idle: wait for a work-done future. */
  fu_rec_init(&probe, "idle probe");
  WGPUFuture p = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &probe);
  CHECK_EQ(fu_wait1(ctx.instance, p, FU_WAIT_S, &probe, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&probe);

  WGPUFuture fs[N];
  int at_return[N];
  int quiet_at = N / 2;
  WGPUFuture qf = {0};
  for (int i = 0; i < N; i++) {
    fu_rec_init(&rec[i], "spontaneous work-done");
    rec[i].index = i;
    int old = fu_phase_enter(FU_PHASE_CALL);
    fs[i] = fu_workdone(ctx.queue, WGPUCallbackMode_AllowSpontaneous, &rec[i]);
    fu_phase_leave(old);
    at_return[i] = fu_calls(&rec[i]);
    if (i == quiet_at) {
      fu_rec_init(&quiet, "WaitAnyOnly work-done");
      qf = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &quiet);
    }
  }
  int inline_all = 1, on_main = 1, ordered = 1, nonzero = 1, distinct = 1;
  for (int i = 0; i < N; i++) {
    inline_all &= at_return[i] == 1;
    on_main &= rec[i].on_main && rec[i].phase == FU_PHASE_CALL;
    nonzero &= fs[i].id != 0;
    if (i > 0) ordered &= rec[i - 1].seq < rec[i].seq;
    for (int j = 0; j < i; j++) distinct &= fs[i].id != fs[j].id;
  }
  CHECK(inline_all);
  CHECK(on_main);
  CHECK(ordered);
  CHECK(nonzero);
  CHECK(distinct);
  CHECK_EQ(fu_calls(&quiet), 0);

  /* Completed futures: WaitAny reports them, runs nothing again. */
  WGPUFutureWaitInfo infos[3] = {WGPU_FUTURE_WAIT_INFO_INIT, WGPU_FUTURE_WAIT_INFO_INIT, WGPU_FUTURE_WAIT_INFO_INIT};
  infos[0].future = fs[0];
  infos[1].future = fs[N - 1];
  CHECK_EQ(wgpuInstanceWaitAny(ctx.instance, 2, infos, 0), WGPUWaitStatus_Success);
  CHECK(infos[0].completed && infos[1].completed);
  infos[0].completed = infos[1].completed = 0;
  infos[2].future = qf;
  CHECK_EQ(wgpuInstanceWaitAny(ctx.instance, 3, infos, UINT64_MAX), WGPUWaitStatus_Success);
  CHECK(infos[0].completed && infos[1].completed && infos[2].completed);
  FU_CHECK_ONCE(&quiet);
  CHECK_EQ(fu_calls(&rec[0]), 1);
  CHECK_EQ(fu_calls(&rec[N - 1]), 1);

  ctx_release(&ctx);
  return test_finish();
}
