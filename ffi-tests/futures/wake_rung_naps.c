/* Rule (docs/ARCHITECTURE.md "The wait ladder", rung 3; engine/watch.rs):
 * with the early wake on for every long wait (WGPU_SHIM_WAKE_RUNG=on, with
 * spinning on, WGPU_SHIM_SPIN_US=50, and WaitAny's wake semaphore,
 * WGPU_SHIM_FENCE_WAIT=1, as on GPUs), a device that has learned the length
 * of its long jobs naps until shortly before their predicted end while its
 * fence watcher sleeps on the fence, and is still woken when the GPU finishes
 * sooner. For each way of waiting that uses it (WaitAny and wgpuDevicePoll
 * sleeping on the fence; the progress thread behind a spontaneous callback):
 * - after a run of jobs of one length, each callback comes exactly once;
 * - a job far shorter than the learned length is reported at its own end,
 *   well before the predicted one (the watcher ends the nap, not the timer);
 * - a job twice as long is reported too (the sleep goes on after the
 *   early wake's spin).
 * The short job's bound is half the learned length (at least 40 ms). */
#define _GNU_SOURCE
#include "futures_util.h"
#include "webgpu/wgpu.h"

enum { TEACH = 6 };

typedef enum { BY_WAITANY, BY_POLL, BY_SPONTANEOUS } How;
static const char *const HOW_NAMES[] = {"WaitAny", "wgpuDevicePoll", "spontaneous"};

/* Submits the job and waits for its work-done callback `how`; returns the
 * seconds from submit to the callback, or -1. */
static double run_job(Ctx *ctx, How how, uint32_t iterations, uint32_t dispatches) {
  FuRec r;
  fu_rec_init(&r, HOW_NAMES[how]);
  double t0 = now_s();
  WGPUBuffer out = submit_spin_job(ctx, iterations, dispatches);
  WGPUCallbackMode mode = how == BY_SPONTANEOUS  ? WGPUCallbackMode_AllowSpontaneous
                          : how == BY_POLL ? WGPUCallbackMode_AllowProcessEvents
                                           : WGPUCallbackMode_WaitAnyOnly;
  WGPUFuture f = fu_workdone(ctx->queue, mode, &r);
  int ok = 0;
  if (how == BY_WAITANY) {
    WGPUBool completed = WGPU_FALSE;
    ok = fu_wait1(ctx->instance, f, -1, &r, &completed) == WGPUWaitStatus_Success && completed;
  } else if (how == BY_POLL) {
    wgpuDevicePoll(ctx->device, 1, NULL);
    ok = 1;
  } else {
    ok = fu_sleep_until1(&r, 30.0);
  }
  double t = now_s() - t0;
  /* wgpuDevicePoll delivered its AllowProcessEvents callback in the call. */
  CHECK(ok);
  CHECK_EQ(fu_calls(&r), 1);
  FU_CHECK_STATUS(&r, WGPUQueueWorkDoneStatus_Success);
  wgpuBufferRelease(out);
  return ok && fu_calls(&r) == 1 ? t : -1;
}

int main(void) {
  /* Read when the device is created and at the first wait. */
  setenv("WGPU_SHIM_WAKE_RUNG", "on", 1);
  setenv("WGPU_SHIM_SPIN_US", "50", 1);
  setenv("WGPU_SHIM_FENCE_WAIT", "1", 1);
  fu_begin(300);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  SpinJob job = fu_calibrate(&ctx, 1, 0.04 * harness_time_scale());
  REQUIRE(job.ok);
  for (How how = BY_WAITANY; how <= BY_SPONTANEOUS; how++) {
    double learned = 0;
    for (int i = 0; i < TEACH; i++) {
      double t = run_job(&ctx, how, job.iterations, job.dispatches);
      CHECK(t > 0);
      learned = t;
    }
    /* A tiny job: its end, not the learned one. */
    double bound = learned / 2 > 0.04 ? learned / 2 : 0.04;
    double short_t = run_job(&ctx, how, 100, 1);
    fprintf(stderr, "%s: jobs of %.1f ms, then a tiny one reported after %.1f ms (bound %.1f ms)\n", HOW_NAMES[how],
            learned * 1e3, short_t * 1e3, bound * 1e3);
    CHECK(short_t > 0 && short_t < bound);
    /* Teach again, then a job twice as long. */
    for (int i = 0; i < TEACH; i++) CHECK(run_job(&ctx, how, job.iterations, job.dispatches) > 0);
    double long_t = run_job(&ctx, how, job.iterations, 2 * job.dispatches);
    fprintf(stderr, "%s: a job twice as long reported after %.1f ms\n", HOW_NAMES[how], long_t * 1e3);
    CHECK(long_t > 0);
  }
  ctx_release(&ctx);
  return test_finish();
}
