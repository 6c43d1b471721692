/* Rule (spec §8.3 "concurrent waits on one future", I#552; §7): two threads
 * wait on the same future. Its callback runs exactly once, on one of them; the
 * other does not return before that callback has finished (it sleeps 100 ms),
 * and both see Success with completed = true. Checked for a future that
 * completes during the waits, and many times for CPU futures that are already
 * complete when both threads race to deliver them. */
#define _GNU_SOURCE
#include "futures_util.h"

typedef struct {
  WGPUInstance instance;
  WGPUFuture future;
  pthread_barrier_t *barrier;
  WGPUWaitStatus status;
  WGPUBool completed;
  double returned_at;
  pthread_t self;
} Waiter;

static void *waiter_main(void *arg) {
  Waiter *w = (Waiter *)arg;
  w->self = pthread_self();
  WGPUFutureWaitInfo info = WGPU_FUTURE_WAIT_INFO_INIT;
  info.future = w->future;
  pthread_barrier_wait(w->barrier);
  w->status = wgpuInstanceWaitAny(w->instance, 1, &info, FU_NS(FU_WAIT_S));
  w->returned_at = now_s();
  w->completed = info.completed;
  return NULL;
}

enum { RACES = 20 };
static FuRec slow, races[RACES];

/* Runs two waiters on f and checks what they saw. */
static void run_pair(WGPUInstance inst, WGPUFuture f, FuRec *r) {
  pthread_barrier_t barrier;
  pthread_barrier_init(&barrier, NULL, 2);
  Waiter w[2];
  pthread_t t[2];
  for (int i = 0; i < 2; i++) {
    memset(&w[i], 0, sizeof w[i]);
    w[i].instance = inst;
    w[i].future = f;
    w[i].barrier = &barrier;
    pthread_create(&t[i], NULL, waiter_main, &w[i]);
  }
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  pthread_barrier_destroy(&barrier);
  FU_CHECK_ONCE(r);
  for (int i = 0; i < 2; i++) {
    CHECK_EQ(w[i].status, WGPUWaitStatus_Success);
    CHECK(w[i].completed);
    /* Neither thread returned before the callback had finished. */
    CHECK(w[i].returned_at >= r->t_end);
  }
  CHECK(pthread_equal(r->thread, w[0].self) || pthread_equal(r->thread, w[1].self));
}

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);

  /* A future that completes while both threads wait. */
  fu_rec_init(&slow, "work-done whose callback sleeps 100 ms");
  slow.sleep_s = 0.1;
  SpinJob job = fu_calibrate(&ctx, 1, 0.15);
  WGPUBuffer out = submit_spin_job(&ctx, job.iterations, job.dispatches);
  WGPUFuture f = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &slow);
  run_pair(ctx.instance, f, &slow);
  CHECK(slow.t_end - slow.t_start >= 0.09);

  /* Already-complete CPU futures: both threads race to deliver. */
  for (int i = 0; i < RACES; i++) {
    fu_rec_init(&races[i], "pop error scope whose callback sleeps 20 ms");
    races[i].sleep_s = 0.02;
    WGPUFuture fp = fu_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &races[i]);
    run_pair(ctx.instance, fp, &races[i]);
  }

  wgpuBufferRelease(out);
  ctx_release(&ctx);
  return test_finish();
}
