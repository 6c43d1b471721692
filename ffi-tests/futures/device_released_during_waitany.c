/* Rule (webgpu.h §2, object lifetime; spec §8.3): the application may
 * release a device, its queue and its buffers while another thread's
 * WaitAny still waits for that device's work. The wait completes as usual,
 * and the device is freed when the last internal reference goes, here the
 * one the waiting thread holds for its sleep on the device fence.
 *
 * Found on the NVIDIA driver by the soak test (docs/RELIABILITY.md): the
 * waiter's sleeper held the device and, separately, the device's wake
 * semaphore. Dropping the sleeper dropped the device first (which destroys
 * the Vulkan device) and the semaphore after it: vkDestroySemaphore on a
 * destroyed device, a crash inside the driver. On lavapipe the wake
 * semaphore exists only with WGPU_SHIM_FENCE_WAIT=1, which this test sets,
 * and the use of the destroyed device reads freed memory without crashing.
 * Under ASan (scripts/sanitize.sh, which fills freed memory) that read
 * crashes inside lavapipe, as on NVIDIA; memcheck reports it too.
 *
 * The waiter waits for a work-done future behind a long job, so that only
 * the GPU ends its wait. Checks: the work-done callback runs once, with
 * Success; the waiting thread was still asleep when the device was released
 * (else the case was not exercised, and the test retries with a longer
 * job); no device is left on the instance once the wait has returned. */
#define _GNU_SOURCE
#include "futures_util.h"
#include "webgpu/wgpu.h"

static WGPUInstance g_instance;
static WGPUFuture g_future;
static FuRec g_done;
static atomic_int g_returned;

static void *waiter(void *arg) {
  (void)arg;
  WGPUFutureWaitInfo info = {g_future, 0};
  WGPUWaitStatus st = wgpuInstanceWaitAny(g_instance, 1, &info, UINT64_MAX);
  CHECK_EQ(st, WGPUWaitStatus_Success);
  CHECK(info.completed);
  atomic_store(&g_returned, 1);
  return NULL;
}

/* Finds a spin job of at least target_s. Unlike fu_calibrate, it starts
 * small and waits without a bound, so that it also works under memcheck,
 * where the driver's shader code runs many times slower. */
static FuJob calibrate(Ctx *ctx, double target_s) {
  FuJob job = {1u << 10, 1, 0.0, 0};
  for (int i = 0; i < 24 && !job.ok; i++) {
    FuRec r;
    fu_rec_init(&r, "calibration work-done");
    WGPUBuffer out = submit_spin_job(ctx, job.iterations, job.dispatches);
    double t0 = now_s();
    WGPUFuture f = fu_workdone(ctx->queue, WGPUCallbackMode_WaitAnyOnly, &r);
    WGPUFutureWaitInfo info = {f, 0};
    WGPUWaitStatus st = wgpuInstanceWaitAny(ctx->instance, 1, &info, UINT64_MAX);
    job.seconds = now_s() - t0;
    wgpuBufferRelease(out);
    if (st != WGPUWaitStatus_Success || fu_calls(&r) != 1) break;
    if (job.seconds >= target_s) {
      job.ok = 1;
    } else if (job.iterations < (1u << 16)) {
      job.iterations *= 4;
    } else if (job.dispatches < 8192) {
      double factor = target_s * 1.3 / (job.seconds > 0.002 ? job.seconds : 0.002);
      job.dispatches = (uint32_t)(job.dispatches * (factor < 2 ? 2 : factor > 32 ? 32 : factor) + 0.999);
    } else {
      break;
    }
  }
  fprintf(stderr, "calibration: %u iterations x %u dispatches = %.3f s (target %.3f s)%s\n", job.iterations,
          job.dispatches, job.seconds, target_s, job.ok ? "" : ": not reached");
  return job;
}

int main(void) {
  /* The wake semaphore, as on every GPU (read when a device is created). */
  setenv("WGPU_SHIM_FENCE_WAIT", "1", 1);
  fu_begin(300);
  int exercised = 0;
  for (int attempt = 1; attempt <= 3 && !exercised; attempt++) {
    Ctx ctx;
    REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
    g_instance = ctx.instance;
    double scale = harness_time_scale();
    FuJob job = calibrate(&ctx, 0.3 * attempt * scale);
    REQUIRE(job.ok);
    WGPUBuffer busy = fu_busy_map_buffer(&ctx, job.iterations, job.dispatches);
    fu_rec_init(&g_done, "work-done after the job");
    g_future = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &g_done);
    atomic_store(&g_returned, 0);
    pthread_t th;
    REQUIRE(pthread_create(&th, NULL, waiter, NULL) == 0);
    fu_sleep(0.1 * scale);
    /* Every application reference to the device and its objects goes while
     * the waiter sleeps. */
    wgpuBufferRelease(busy);
    wgpuQueueRelease(ctx.queue);
    wgpuDeviceRelease(ctx.device);
    wgpuAdapterRelease(ctx.adapter);
    exercised = !atomic_load(&g_returned);
    if (!exercised) {
      fprintf(stderr, "attempt %d: the wait had returned before the release; trying a longer job\n", attempt);
    }
    pthread_join(th, NULL);
    FU_CHECK_ONCE(&g_done);
    FU_CHECK_STATUS(&g_done, WGPUQueueWorkDoneStatus_Success);
    CHECK_EQ(harness_devices_allocated(g_instance), 0);
    wgpuInstanceRelease(ctx.instance);
  }
  CHECK(exercised);
  return test_finish();
}
