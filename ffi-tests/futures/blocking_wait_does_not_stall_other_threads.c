/* Rule (spec §7 "every function is thread-safe", §8.3, §8.7; §11 note 3):
 * while thread A blocks in WaitAny(UINT64_MAX) on a GPU job of >= 500 ms, no
 * global lock is held through the wait: thread B meanwhile creates and
 * releases buffers, writes a buffer, calls ProcessEvents, maps an idle
 * MAP_READ buffer and waits for that map in its own WaitAny, pops an error
 * scope and waits for it, and destroys a buffer. All of that ends well before
 * A's wait returns (B's time < half of A's wait).
 * B then submits an empty command buffer. That submit is only required to
 * return (no deadlock), not to be quick: on lavapipe a submit made while an
 * earlier submission runs blocks in vkQueueSubmit until that one finished
 * (wgpu-hal chains submissions with a semaphore), whatever the shim's locks.
 *
 * Timing: the job is calibrated to >= 600 ms, but calibration under ctest -j2
 * load can overestimate it by 2x or more. The comparison is only meaningful
 * when A really blocked for a while, so a run where A's wait was shorter than
 * MIN_A_WAIT is repeated with a job twice as long (a few times at most; if A
 * never blocks that long, that is a failure). */
#define _GNU_SOURCE
#include "futures_util.h"

static Ctx ctx;
static FuRec a_wd, b_map, b_pop;
static WGPUFuture a_future;

static struct {
  double start, end;
  WGPUWaitStatus status;
  WGPUBool completed;
} A;

static struct {
  double start, end, submit_end;
  double step_end[8];
  WGPUWaitStatus map_wait, pop_wait;
  int buffers_ok;
  const void *range;
} B;

static void *thread_a(void *arg) {
  (void)arg;
  WGPUFutureWaitInfo info = WGPU_FUTURE_WAIT_INFO_INIT;
  info.future = a_future;
  A.start = now_s();
  A.status = wgpuInstanceWaitAny(ctx.instance, 1, &info, UINT64_MAX);
  A.end = now_s();
  A.completed = info.completed;
  return NULL;
}

static void *thread_b(void *arg) {
  (void)arg;
  B.start = now_s();
  int ok = 1;
  for (int i = 0; i < 8; i++) {
    WGPUBuffer b = make_buffer(ctx.device, 1024, WGPUBufferUsage_CopyDst | WGPUBufferUsage_Storage, 0);
    ok &= b != NULL;
    if (b) wgpuBufferRelease(b);
  }
  B.step_end[0] = now_s();
  WGPUBuffer dst = make_buffer(ctx.device, 256, WGPUBufferUsage_CopyDst, 0);
  uint32_t data[64];
  for (int i = 0; i < 64; i++) data[i] = (uint32_t)i;
  wgpuQueueWriteBuffer(ctx.queue, dst, 0, data, sizeof data);
  B.step_end[1] = now_s();
  wgpuInstanceProcessEvents(ctx.instance);
  B.step_end[2] = now_s();
  WGPUBuffer idle = fu_idle_map_buffer(&ctx);
  b_map.probe_state = 1;
  WGPUFuture fm = fu_map_read(idle, WGPUCallbackMode_WaitAnyOnly, &b_map);
  B.map_wait = fu_wait1(ctx.instance, fm, FU_WAIT_S, &b_map, NULL);
  B.range = wgpuBufferGetConstMappedRange(idle, 0, FU_MAP_SIZE);
  wgpuBufferUnmap(idle);
  B.step_end[3] = now_s();
  WGPUFuture fp = fu_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &b_pop);
  B.pop_wait = fu_wait1(ctx.instance, fp, FU_WAIT_S, &b_pop, NULL);
  B.step_end[4] = now_s();
  WGPUBuffer doomed = make_buffer(ctx.device, 256, WGPUBufferUsage_CopyDst, 0);
  wgpuBufferDestroy(doomed);
  wgpuBufferRelease(doomed);
  wgpuBufferRelease(dst);
  wgpuBufferRelease(idle);
  B.step_end[5] = now_s();
  B.buffers_ok = ok;
  B.end = now_s();
  submit_empty(&ctx);
  B.submit_end = now_s();
  return NULL;
}

enum { ATTEMPTS = 3 };
#define MIN_A_WAIT 0.3

/* One round: A waits on a job of `dispatches` dispatches while B works. */
static void run_round(uint32_t iterations, uint32_t dispatches) {
  memset(&A, 0, sizeof A);
  memset(&B, 0, sizeof B);
  fu_rec_init(&a_wd, "A: work-done of the long job");
  fu_rec_init(&b_map, "B: map of an idle buffer");
  fu_rec_init(&b_pop, "B: pop error scope");
  WGPUBuffer out = submit_spin_job(&ctx, iterations, dispatches);
  a_future = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &a_wd);

  pthread_t ta, tb;
  pthread_create(&ta, NULL, thread_a, NULL);
  sleep_s(0.05); /* A is blocked in its wait by now */
  pthread_create(&tb, NULL, thread_b, NULL);
  pthread_join(tb, NULL);
  pthread_join(ta, NULL);
  wgpuBufferRelease(out);
}

int main(void) {
  fu_begin(90);
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);

  SpinJob job = fu_calibrate(&ctx, 1, 0.6);
  REQUIRE(job.ok);
  double a_wait = 0, b_total = 0;
  uint32_t dispatches = job.dispatches;
  for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
    run_round(job.iterations, dispatches);
    a_wait = A.end - A.start;
    b_total = B.end - B.start;
    static const char *steps[6] = {"create/release buffers", "write buffer",         "ProcessEvents",
                                   "map idle buffer+wait",   "pop error scope+wait", "destroy/release"};
    double prev = B.start;
    for (int i = 0; i < 6; i++) {
      fprintf(stderr, "B %-22s %.3f s\n", steps[i], B.step_end[i] - prev);
      prev = B.step_end[i];
    }
    fprintf(stderr, "attempt %d (%u dispatches): A waited %.3f s; B took %.3f s, ended %.3f s before A's wait returned\n",
            attempt, dispatches, a_wait, b_total, A.end - B.end);
    fprintf(stderr, "B's empty submit then took %.3f s (returned %.3f s after A's wait)\n", B.submit_end - B.end,
            B.submit_end - A.end);
    /* Every round must get these right, whatever the job length. */
    CHECK_EQ(A.status, WGPUWaitStatus_Success);
    CHECK(A.completed);
    FU_CHECK_ONCE(&a_wd);
    CHECK(B.buffers_ok);
    CHECK_EQ(B.map_wait, WGPUWaitStatus_Success);
    FU_CHECK_ONCE(&b_map);
    FU_CHECK_STATUS(&b_map, WGPUMapAsyncStatus_Success);
    CHECK(B.range != NULL);
    CHECK_EQ(B.pop_wait, WGPUWaitStatus_Success);
    FU_CHECK_ONCE(&b_pop);
    CHECK(B.start > A.start);
    if (a_wait >= MIN_A_WAIT) break;
    fprintf(stderr, "A's wait was too short to judge B against it: again with a longer job\n");
    dispatches *= 2;
  }

  /* The rule, on a round where A really blocked. */
  CHECK(a_wait >= MIN_A_WAIT);
  CHECK(B.end < A.end);
  CHECK(b_total < 0.5 * a_wait);

  ctx_release(&ctx);
  return test_finish();
}
