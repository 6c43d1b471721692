/* Rule (spec §8.3, §8.6, §8.8, I#552): a burst of work-done futures that
 * complete together is delivered exactly once each, in call order, however
 * the delivery is split up, while other threads and nested calls wait on
 * futures of the same burst:
 *   - ProcessEvents on the main thread delivers N AllowProcessEvents futures;
 *     the callbacks it runs come in call order;
 *   - one of the first callbacks sleeps, and meanwhile a second thread waits
 *     (WaitAny) on a future far down the burst: it returns Success with
 *     `completed` set, and only once that future's callback has finished;
 *   - another early callback calls WaitAny on later futures of the burst
 *     itself (nested), one close behind it and one far down: Success,
 *     `completed`, and each listed future's callback has run by the time its
 *     wait returns (spec §8.3: a just-completed future's callback fires in
 *     the WaitAny);
 *   - every callback ran exactly once, with Success.
 * wgpu-shim delivers a burst a few dozen callbacks at a time: a future close
 * behind the running callback has been taken by the delivery but not run,
 * one far down is still ready. Both must fire in a nested wait. */
#define _GNU_SOURCE
#include "futures_util.h"

enum { N = 3000, SLEEPER = 5, NESTER = 7, NESTED_NEAR = 20, NESTED_TARGET = 2000, REMOTE_TARGET = 2500 };
static FuRec rec[N];
static WGPUFuture fs[N];
static WGPUInstance g_instance;
static WGPUWaitStatus nested_status;
static WGPUBool nested_completed;
static int nested_target_calls;
static WGPUWaitStatus near_status;
static WGPUBool near_completed;
static int near_calls;

typedef struct {
  WGPUWaitStatus status;
  WGPUBool completed;
  double returned_at;
  int target_calls_at_return;
} Remote;
static Remote remote;
static atomic_int remote_go;

/* NESTER's callback: waits on two later futures of the same burst, one
 * close behind it and one far down. */
static void nest_hook(FuRec *r) {
  (void)r;
  WGPUFutureWaitInfo near = WGPU_FUTURE_WAIT_INFO_INIT;
  near.future = fs[NESTED_NEAR];
  near_status = wgpuInstanceWaitAny(g_instance, 1, &near, FU_NS(FU_WAIT_S));
  near_completed = near.completed;
  near_calls = fu_calls(&rec[NESTED_NEAR]);
  WGPUFutureWaitInfo info = WGPU_FUTURE_WAIT_INFO_INIT;
  info.future = fs[NESTED_TARGET];
  nested_status = wgpuInstanceWaitAny(g_instance, 1, &info, FU_NS(FU_WAIT_S));
  nested_completed = info.completed;
  nested_target_calls = fu_calls(&rec[NESTED_TARGET]);
}

/* SLEEPER's callback: lets the remote waiter start while the burst is being
 * delivered. */
static void go_hook(FuRec *r) {
  (void)r;
  atomic_store(&remote_go, 1);
}

static void *remote_main(void *arg) {
  (void)arg;
  while (!atomic_load(&remote_go)) sleep_s(0.001);
  WGPUFutureWaitInfo info = WGPU_FUTURE_WAIT_INFO_INIT;
  info.future = fs[REMOTE_TARGET];
  remote.status = wgpuInstanceWaitAny(g_instance, 1, &info, FU_NS(FU_WAIT_S));
  remote.returned_at = now_s();
  remote.completed = info.completed;
  remote.target_calls_at_return = fu_calls(&rec[REMOTE_TARGET]);
  return NULL;
}

int main(void) {
  fu_begin(120);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  g_instance = ctx.instance;

  /* Queue work first, so the burst waits for it and completes all at once. */
  WGPUBuffer out = submit_spin_job(&ctx, 1u << 12, 4);
  for (int i = 0; i < N; i++) {
    fu_rec_init(&rec[i], "burst");
    rec[i].index = i;
    fs[i] = fu_workdone(ctx.queue, WGPUCallbackMode_AllowProcessEvents, &rec[i]);
    CHECK(fs[i].id != 0);
  }
  rec[SLEEPER].hook = go_hook;
  rec[SLEEPER].sleep_s = 0.2;
  rec[NESTER].hook = nest_hook;
  /* The remote target's callback takes a while: the remote waiter must not
   * return before it has finished, whichever thread runs it. */
  rec[REMOTE_TARGET].sleep_s = 0.05;

  pthread_t t;
  REQUIRE(pthread_create(&t, NULL, remote_main, NULL) == 0);
  FuRec *rp[N];
  for (int i = 0; i < N; i++) rp[i] = &rec[i];
  CHECK(fu_pump_until(ctx.instance, rp, N, 4 * FU_WAIT_S));
  pthread_join(t, NULL);

  int once = 1, ok = 1, ordered = 1, last_seq = 0;
  for (int i = 0; i < N; i++) {
    once &= fu_entries(&rec[i]) == 1 && fu_calls(&rec[i]) == 1;
    ok &= rec[i].status == (int)WGPUQueueWorkDoneStatus_Success;
    /* The callbacks ProcessEvents ran (on the main thread, outside the
     * nested wait) come in call order. */
    if (rec[i].on_main && rec[i].phase == FU_PHASE_PROCESS_EVENTS && i != NESTED_NEAR && i != NESTED_TARGET) {
      if (rec[i].seq <= last_seq) {
        if (ordered) fprintf(stderr, "callback %d ran (seq %d) after a later future's (seq %d)\n", i, rec[i].seq, last_seq);
        ordered = 0;
      }
      last_seq = rec[i].seq;
    }
  }
  CHECK(once);
  CHECK(ok);
  CHECK(ordered);

  /* Nested waits inside an early callback: each listed future's callback
   * ran during its wait, whether or not the outer delivery had reached it. */
  CHECK_EQ(near_status, WGPUWaitStatus_Success);
  CHECK(near_completed);
  CHECK_EQ(near_calls, 1);
  CHECK(rec[NESTED_NEAR].seq > rec[NESTER].seq);
  CHECK_EQ(nested_status, WGPUWaitStatus_Success);
  CHECK(nested_completed);
  CHECK_EQ(nested_target_calls, 1);
  CHECK(rec[NESTED_TARGET].on_main);
  CHECK(rec[NESTED_TARGET].seq > rec[NESTER].seq);

  /* The other thread's wait. */
  CHECK_EQ(remote.status, WGPUWaitStatus_Success);
  CHECK(remote.completed);
  CHECK_EQ(remote.target_calls_at_return, 1);
  CHECK(remote.returned_at >= rec[REMOTE_TARGET].t_end);

  wgpuBufferRelease(out);
  ctx_release(&ctx);
  return test_finish();
}
