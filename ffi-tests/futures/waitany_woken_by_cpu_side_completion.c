/* Rule (spec §8.3: WaitAny returns once a listed future completes; §9 Unmap
 * aborts a pending map): a thread blocked in WaitAny(UINT64_MAX) on a map of a
 * buffer that a long GPU job still uses is woken when another thread's Unmap
 * aborts that map: the wait does not last until the GPU finishes. On GPUs
 * WaitAny sleeps on the device fence (CI also runs this with
 * WGPU_SHIM_FENCE_WAIT=1 on lavapipe), and only the wake semaphore can end
 * that sleep early; otherwise the condition variable does.
 * Once the wait returned, a work-done future issued after the job must still
 * be pending (the job has not finished), the map's status must be Aborted, and
 * the wait must have ended within 0.25 s of the unmap (the job lasts about
 * 0.5 s; wgpu-shim's fence sleeps are cut into 1 s slices, so a missing wake-up
 * shows either as a finished job or as a late return). */
#define _GNU_SOURCE
#include "futures_util.h"

static Ctx ctx;
static WGPUBuffer busy;
/* Set just before the other thread calls Unmap (the waiter may wake while
 * that call is still running: the abort happens inside it). */
static atomic_int unmap_started;
static double t_unmap;

static void *unmapper(void *arg) {
  (void)arg;
  sleep_s(0.03);
  t_unmap = now_s();
  atomic_store(&unmap_started, 1);
  wgpuBufferUnmap(busy);
  return NULL;
}

int main(void) {
  fu_begin(120);
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  SpinJob job = fu_calibrate(&ctx, 1, 0.4);
  REQUIRE(job.ok);

  int early_ok = 0;
  for (int attempt = 1; attempt <= 3 && !early_ok; attempt++) {
    atomic_store(&unmap_started, 0);
    busy = fu_busy_map_buffer(&ctx, job.iterations, job.dispatches * (uint32_t)attempt);
    FuRec wd, mp;
    fu_rec_init(&wd, "work-done after the job");
    fu_rec_init(&mp, "map of the busy buffer");
    WGPUFuture wf = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wd);
    WGPUFuture mf = fu_map_read(busy, WGPUCallbackMode_WaitAnyOnly, &mp);
    pthread_t th;
    REQUIRE(pthread_create(&th, NULL, unmapper, NULL) == 0);
    WGPUBool completed = 0;
    double t_wait = now_s();
    CHECK_EQ(fu_wait1(ctx.instance, mf, -1, &mp, &completed), WGPUWaitStatus_Success);
    double t_woke = now_s();
    CHECK(completed);
    FU_CHECK_ONCE(&mp);
    if (!atomic_load(&unmap_started) && mp.status == WGPUMapAsyncStatus_Success) {
      /* The job, and the map, ended before the other thread even began its
       * unmap: that thread started late (a loaded machine; thread starts
       * are slower under Wine), and nothing was tested. */
      fprintf(stderr, "attempt %d: the map completed %.3f s into the wait, before the other thread's unmap "
              "began; trying a longer job\n", attempt, t_woke - t_wait);
    } else {
      FU_CHECK_STATUS(&mp, WGPUMapAsyncStatus_Aborted);
      CHECK(atomic_load(&unmap_started));
      if (atomic_load(&unmap_started)) {
        fprintf(stderr, "attempt %d: the wait returned %.3f s after the unmap\n", attempt, t_woke - t_unmap);
        CHECK(t_woke - t_unmap < 0.25);
      }
      /* Still running? Then the wait ended because of the unmap. */
      WGPUBool wd_done = 0;
      WGPUWaitStatus st = fu_wait1(ctx.instance, wf, 0, &wd, &wd_done);
      if (st == WGPUWaitStatus_TimedOut) {
        early_ok = 1;
      } else {
        fprintf(stderr, "attempt %d: the job had finished when the wait returned (a slow machine, or a wait that "
                "only ended with the GPU); trying a longer job\n", attempt);
      }
    }
    pthread_join(th, NULL);
    CHECK_EQ(fu_wait1(ctx.instance, wf, -1, &wd, NULL), WGPUWaitStatus_Success);
    FU_CHECK_ONCE(&wd);
    wgpuBufferRelease(busy);
  }
  CHECK(early_ok);
  ctx_release(&ctx);
  return test_finish();
}
