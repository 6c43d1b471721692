/* wgpu-shim example (Windows): GPU completions in a Win32 loop that waits
 * with WaitForMultipleObjects on several handles at once.
 *
 * On Windows an instance made with WGPUInstanceFeatureName_ShimReadinessHandle
 * (wgpu_shim.h) has a manual-reset event (wgpuShimInstanceGetReadinessEvent)
 * that is set exactly while wgpuInstanceProcessEvents has callbacks to run.
 * The loop lists it beside its own handles:
 *
 *   HANDLE handles[2] = {readiness_event, frame_timer};
 *   DWORD r = WaitForMultipleObjects(2, handles, FALSE, INFINITE);
 *   if (r == WAIT_OBJECT_0) wgpuInstanceProcessEvents(instance);  // resets the event
 *   if (r == WAIT_OBJECT_0 + 1) draw_frame();
 *
 * and every AllowProcessEvents callback then runs inside ProcessEvents, on
 * the loop's thread. The GPU job of gpu_job.h (~200 ms: a buffer map and a
 * queue work-done) ends while the loop also serves a periodic 16 ms waitable
 * timer (a frame timer, which never calls ProcessEvents).
 *
 *   wait_multiple_objects [--release-while-watched]
 *
 * With --release-while-watched it instead releases the instance from the
 * loop while the job runs and the event is still in the wait's array, and
 * checks what the loop sees (docs/ASYNC.md, "Releasing the instance while a
 * loop watches"):
 *   - the pending callbacks run inside wgpuInstanceRelease, on that thread,
 *     with status CallbackCancelled;
 *   - the event is never set again while the instance's adapter or device is
 *     alive: the waits return for the timer alone;
 *   - the last release of those closes the event handle: a wait that still
 *     lists it returns WAIT_FAILED with ERROR_INVALID_HANDLE. (On Windows a
 *     handle closed during a wait in progress is undefined behaviour, and a
 *     later handle may reuse its value: take it out of the array before the
 *     release that closes it, as this program then does.)
 *
 * Prints the data line and the loop thread's CPU/wall during the wait (under
 * Wine a thread's CPU time comes in 10 ms steps, so a wait that costs less
 * reads 0; a busy loop would read the whole wait). Exit status 0 when every
 * check held; 1 otherwise. */
#if !defined(_WIN32)
#error "wait_multiple_objects.c is a Windows program (event_loop.c and libuv_loop.c are its POSIX forms)"
#endif

#include "gpu_job.h"

#define WM_FRAME_MS 16
#define WM_STATUS_CANCELLED 2 /* CallbackCancelled of WGPUMapAsyncStatus and WGPUQueueWorkDoneStatus */

static unsigned long wm_loop_thread;
static int wm_off_thread;

static void wm_on_mapped(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2) {
  if (ep_thread_id() != wm_loop_thread) wm_off_thread++;
  ep_on_mapped(status, message, u1, u2);
}

static void wm_on_done(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *u1, void *u2) {
  if (ep_thread_id() != wm_loop_thread) wm_off_thread++;
  ep_on_work_done(status, message, u1, u2);
}

/* A periodic waitable timer: the application's frame timer. */
static HANDLE wm_frame_timer(void) {
  HANDLE t = CreateWaitableTimerW(NULL, FALSE, NULL);
  LARGE_INTEGER due;
  due.QuadPart = -(LONGLONG)WM_FRAME_MS * 10000; /* relative, in 100 ns units */
  if (t && !SetWaitableTimer(t, &due, WM_FRAME_MS, NULL, NULL, FALSE)) {
    CloseHandle(t);
    t = NULL;
  }
  if (!t) EP_FAIL("CreateWaitableTimer/SetWaitableTimer: error %lu", (unsigned long)GetLastError());
  return t;
}

static int wm_check_calls(const EpResult *map, const EpResult *done, int status) {
  if (map->calls != 1 || done->calls != 1 || map->status != status || done->status != status) {
    EP_FAIL("map: %d call(s), status %d; work-done: %d call(s), status %d; expected one each with status %d",
            map->calls, map->status, done->calls, done->status, status);
    return -1;
  }
  if (map->order > done->order) EP_FAIL("the work-done callback ran before the earlier map's");
  if (wm_off_thread) EP_FAIL("%d callback(s) ran off the loop's thread", wm_off_thread);
  return 0;
}

static void wm_await(Ep *e, HANDLE event, HANDLE timer, uint32_t dispatches, double job_s) {
  EpResult map = {0, 0, NULL, 0}, done = {0, 0, NULL, 0};
  if (ep_start_job(e, dispatches, wm_on_mapped, &map, wm_on_done, &done) != 0) return;
  HANDLE handles[2] = {event, timer};
  int wakeups = 0, ticks = 0;
  double step = ep_cpu_clock_step(); /* measured before the timed wait */
  double wall0 = ep_clock(CLOCK_MONOTONIC), cpu0 = ep_clock(CLOCK_THREAD_CPUTIME_ID);
  while (!map.calls || !done.calls) {
    if (ep_clock(CLOCK_MONOTONIC) - wall0 > EP_SAFETY_CAP_MS / 1e3) {
      EP_FAIL("no completion within %d ms (map %d, work-done %d calls)", EP_SAFETY_CAP_MS, map.calls, done.calls);
      return;
    }
    DWORD r = WaitForMultipleObjects(2, handles, FALSE, EP_SAFETY_CAP_MS);
    if (r == WAIT_OBJECT_0) {
      wakeups++;
      wgpuInstanceProcessEvents(e->instance); /* runs the ready callbacks, resets the event */
    } else if (r == WAIT_OBJECT_0 + 1) {
      ticks++; /* a frame */
    } else if (r != WAIT_TIMEOUT) {
      EP_FAIL("WaitForMultipleObjects: %lu, error %lu", (unsigned long)r, (unsigned long)GetLastError());
      return;
    }
  }
  double wall = ep_clock(CLOCK_MONOTONIC) - wall0, cpu = ep_clock(CLOCK_THREAD_CPUTIME_ID) - cpu0;
  if (wm_check_calls(&map, &done, WGPUMapAsyncStatus_Success) != 0) return;
  if (WaitForSingleObject(event, 0) != WAIT_TIMEOUT) {
    EP_FAIL("the readiness event is still set after both callbacks ran");
  }
  ep_check_data(e);
  double ratio = wall > 0 ? cpu / wall : 1.0;
  printf("callbacks: map and work-done once each, in that order, on the loop thread (%d wakeup(s) on the readiness "
         "event; %d frame timer ticks meanwhile)\n",
         wakeups, ticks);
  printf("wait: %.1f ms wall (the same job under a blocking wgpuInstanceWaitAny: %.1f ms), %.3f ms CPU on the loop "
         "thread, CPU/wall ratio %.4f (the CPU clock's step: %.3f ms)\n",
         wall * 1e3, job_s * 1e3, cpu * 1e3, ratio, step * 1e3);
  if (ticks < 2) EP_FAIL("the frame timer fired %d time(s) during the job: the loop did not serve it", ticks);
  if (!ep_cpu_within_limit(cpu, wall)) {
    EP_FAIL("the loop thread's CPU/wall ratio %.4f is above %.2f (with two %.3f ms steps of the CPU clock allowed)",
            ratio, EP_MAX_CPU_RATIO, step * 1e3);
  }
}

/* Waits on {event, timer} until `seconds` pass; the number of times the
 * event fired, or -1 when a wait failed (its error in *error). */
static int wm_serve(HANDLE event, HANDLE timer, double seconds, DWORD *error) {
  HANDLE handles[2] = {event, timer};
  int fired = 0;
  double t0 = ep_clock(CLOCK_MONOTONIC);
  while (ep_clock(CLOCK_MONOTONIC) - t0 < seconds) {
    DWORD r = WaitForMultipleObjects(2, handles, FALSE, 1000);
    if (r == WAIT_OBJECT_0) {
      fired++;
      return fired; /* (a loop would call ProcessEvents here) */
    } else if (r == WAIT_FAILED) {
      *error = GetLastError();
      return -1;
    }
  }
  return fired;
}

static void wm_release_while_watched(Ep *e, HANDLE event, HANDLE timer, uint32_t dispatches, double job_s) {
  EpResult map = {0, 0, NULL, 0}, done = {0, 0, NULL, 0};
  if (ep_start_job(e, dispatches, wm_on_mapped, &map, wm_on_done, &done) != 0) return;
  DWORD error = 0;
  double step = ep_cpu_clock_step(); /* measured before the timed wait */
  if (wm_serve(event, timer, 0.05, &error) != 0) EP_FAIL("the readiness event fired before the job could end");
  wgpuInstanceRelease(e->instance); /* the job runs; the event is in the loop's array */
  e->instance = NULL;
  wm_check_calls(&map, &done, WM_STATUS_CANCELLED); /* they ran inside the release, here */

  double wall0 = ep_clock(CLOCK_MONOTONIC), cpu0 = ep_clock(CLOCK_THREAD_CPUTIME_ID);
  int fired = wm_serve(event, timer, 3 * job_s + 0.1, &error);
  double wall = ep_clock(CLOCK_MONOTONIC) - wall0, cpu = ep_clock(CLOCK_THREAD_CPUTIME_ID) - cpu0;
  if (fired != 0) EP_FAIL("the readiness event fired %d time(s) after the release (error %lu)", fired, error);

  ep_release(e); /* the last objects: the event handle is closed */
  memset(e, 0, sizeof *e);
  HANDLE handles[2] = {event, timer};
  DWORD r = WaitForMultipleObjects(2, handles, FALSE, 1000);
  DWORD last = GetLastError();
  if (r != WAIT_FAILED || last != ERROR_INVALID_HANDLE) {
    EP_FAIL("a wait listing the closed event returned %lu (error %lu), expected WAIT_FAILED with "
            "ERROR_INVALID_HANDLE",
            (unsigned long)r, (unsigned long)last);
  }
  /* The binding takes it out of the array: the loop goes on. */
  if (WaitForMultipleObjects(1, &timer, FALSE, 1000) != WAIT_OBJECT_0) EP_FAIL("the frame timer stopped");
  if (map.calls != 1 || done.calls != 1) EP_FAIL("callbacks ran again after the release");
  double ratio = wall > 0 ? cpu / wall : 1.0;
  if (!ep_cpu_within_limit(cpu, wall)) {
    EP_FAIL("the loop thread's CPU/wall after the release: %.4f (two %.3f ms clock steps allowed)", ratio, step * 1e3);
  }
  printf("release while watched: map and work-done CallbackCancelled inside wgpuInstanceRelease on the loop thread; "
         "the event stayed unset for %.0f ms (%.3f ms loop CPU, 0 wakeups); after the last release a wait listing it "
         "returned WAIT_FAILED, ERROR_INVALID_HANDLE\n",
         wall * 1e3, cpu * 1e3);
}

int main(int argc, char **argv) {
  int bad_input = argc == 2 && strcmp(argv[1], "--release-while-watched") == 0;
  if (argc > 2 || (argc == 2 && !bad_input)) {
    fprintf(stderr, "usage: %s [--release-while-watched]\n", argv[0]);
    return 2;
  }
  wm_loop_thread = ep_thread_id();
  Ep e;
  memset(&e, 0, sizeof e);
  HANDLE timer = wm_frame_timer();
  if (timer && ep_open(&e) == 0) {
    HANDLE event = (HANDLE)wgpuShimInstanceGetReadinessEvent(e.instance);
    uint32_t dispatches = ep_calibrate(&e);
    double job_s = dispatches ? ep_time_job(&e, dispatches) : -1;
    ep_order = 0;
    if (!event) EP_FAIL("wgpuShimInstanceGetReadinessEvent returned NULL");
    if (event && dispatches && job_s > 0) {
      if (bad_input) {
        wm_release_while_watched(&e, event, timer, dispatches, job_s);
      } else {
        wm_await(&e, event, timer, dispatches, job_s);
      }
    }
  }
  ep_release(&e);
  if (timer) CloseHandle(timer);
  if (ep_failures) {
    printf("FAILED (%d)\n", ep_failures);
    return 1;
  }
  printf("OK\n");
  return 0;
}
