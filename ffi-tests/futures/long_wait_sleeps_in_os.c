/* Rule (spec §8.3 "blocks until", §11 note 3/5: the wait is a condition
 * variable / fence wait, not a spin): a blocking WaitAny(UINT64_MAX) on a GPU
 * job of >= 150 ms sleeps in the OS. The waiting thread uses less than a
 * quarter of the wall time as CPU time. Checked for a work-done future and
 * for a MapAsync future, each on a runtime-calibrated job.
 *
 * Timing: the job is calibrated to >= 300 ms, but calibration under ctest -j2
 * load can overestimate it by 2x or more. A wait shorter than MIN_WALL says
 * little about sleeping, so such a round is repeated with a job twice as long
 * (a few times at most; never reaching MIN_WALL is a failure). The CPU check
 * holds on every round. */
#define _GNU_SOURCE
#include "futures_util.h"

enum { ATTEMPTS = 3 };
#define MIN_WALL 0.15

static FuRec wd, mp;

/* Waits on f without a timeout; returns the wall time. */
static double measure(const char *what, int attempt, WGPUInstance inst, WGPUFuture f, FuRec *r) {
  double c0 = thread_cpu_s();
  double t0 = now_s();
  WGPUBool completed = WGPU_FALSE;
  WGPUWaitStatus st = fu_wait1(inst, f, -1 /* UINT64_MAX; the watchdog bounds it */, r, &completed);
  double wall = now_s() - t0;
  double cpu = thread_cpu_s() - c0;
  fprintf(stderr, "%s (attempt %d): wall %.3f s, waiting thread CPU %.3f s (%.0f%%)\n", what, attempt, wall, cpu,
          wall > 0 ? 100.0 * cpu / wall : 0.0);
  CHECK_EQ(st, WGPUWaitStatus_Success);
  CHECK(completed);
  FU_CHECK_ONCE(r);
  CHECK(cpu < 0.25 * wall);
  return wall;
}

int main(void) {
  fu_begin(90);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);

  SpinJob job = fu_calibrate(&ctx, 1, 0.3); /* >= 150 ms with a margin */
  REQUIRE(job.ok);

  double wall = 0;
  uint32_t dispatches = job.dispatches;
  for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
    fu_rec_init(&wd, "work-done WaitAnyOnly");
    WGPUBuffer out = submit_spin_job(&ctx, job.iterations, dispatches);
    WGPUFuture f = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wd);
    wall = measure("work-done wait", attempt, ctx.instance, f, &wd);
    wgpuBufferRelease(out);
    if (wall >= MIN_WALL) break;
    dispatches *= 2;
  }
  CHECK(wall >= MIN_WALL);

  dispatches = job.dispatches;
  for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
    fu_rec_init(&mp, "map WaitAnyOnly");
    WGPUBuffer buf = fu_busy_map_buffer(&ctx, job.iterations, dispatches);
    double t_call = now_s();
    WGPUFuture fm = fu_map_read(buf, WGPUCallbackMode_WaitAnyOnly, &mp);
    fprintf(stderr, "MapAsync call took %.3f s\n", now_s() - t_call);
    wall = measure("map wait", attempt, ctx.instance, fm, &mp);
    FU_CHECK_STATUS(&mp, WGPUMapAsyncStatus_Success);
    wgpuBufferUnmap(buf);
    wgpuBufferRelease(buf);
    if (wall >= MIN_WALL) break;
    dispatches *= 2;
  }
  CHECK(wall >= MIN_WALL);

  ctx_release(&ctx);
  return test_finish();
}
