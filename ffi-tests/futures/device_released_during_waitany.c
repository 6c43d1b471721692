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
 * crashes inside lavapipe, as on NVIDIA; memcheck reports it too (the test
 * is not in scripts/valgrind.sh's runs: there it takes about 10 minutes).
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
    SpinJob job = fu_calibrate(&ctx, 1, 0.3 * attempt * scale);
    REQUIRE(job.ok);
    WGPUBuffer busy = fu_busy_map_buffer(&ctx, job.iterations, job.dispatches);
    fu_rec_init(&g_done, "work-done after the job");
    g_future = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &g_done);
    atomic_store(&g_returned, 0);
    pthread_t th;
    REQUIRE(pthread_create(&th, NULL, waiter, NULL) == 0);
    sleep_s(0.1 * scale);
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
