/* wgpu-shim example: GPU completions in a libuv event loop (the loop of
 * Node.js native addons, uvloop, and many C servers).
 *
 * wgpu-shim's WGPUInstanceFeatureName_ShimReadinessHandle (wgpu_shim.h) gives
 * an instance a file descriptor that is readable exactly while
 * wgpuInstanceProcessEvents has callbacks to run. A uv_poll_t watches it:
 *
 *   uv_poll_init(loop, &poll, wgpuShimInstanceGetReadinessFd(instance));
 *   uv_poll_start(&poll, UV_READABLE, on_readable);
 *   // on_readable: wgpuInstanceProcessEvents(instance);
 *
 * and every AllowProcessEvents callback then runs inside ProcessEvents, on
 * the loop's thread. The GPU job of gpu_job.h (~200 ms: a buffer map and a
 * queue work-done) ends while the loop also runs the application's 16 ms
 * frame timer, which never calls ProcessEvents: the callbacks arrive through
 * the poll handle alone.
 *
 *   libuv_loop [--release-while-watched]
 *
 * With --release-while-watched it instead releases the instance from a timer
 * callback while the job runs and the poll handle is active, and checks what
 * the loop sees (docs/ASYNC.md, "Releasing the instance while a loop
 * watches"):
 *   - the pending callbacks run inside wgpuInstanceRelease, in that timer
 *     callback, with status CallbackCancelled;
 *   - the poll handle never fires again: the descriptor stays open and
 *     unreadable while the instance's adapter or device is alive;
 *   - the last release of those closes the descriptor; the kernel drops it
 *     from libuv's epoll set, so the handle still never fires, yet stays
 *     active: uv_run() would never return for it. Stop and close the handle
 *     (uv_poll_stop, uv_close) when the instance goes, as this program then
 *     does; the loop then ends normally.
 *
 * Prints the data line and the loop thread's CPU/wall during the wait. Exit
 * status 0 when every check held (the data matched, each callback ran once
 * on the loop's thread, CPU/wall at most 0.05); 1 otherwise. */
#define _POSIX_C_SOURCE 200809L

#include "gpu_job.h"

#include <poll.h>
#include <uv.h>

#define LU_FRAME_MS 16
#define LU_STATUS_CANCELLED 2 /* CallbackCancelled of WGPUMapAsyncStatus and WGPUQueueWorkDoneStatus */

typedef struct {
  Ep gpu;
  uv_loop_t *loop;
  int fd;           /* the readiness descriptor */
  uv_poll_t poll;   /* watching it */
  uv_timer_t frames; /* the application's frame timer */
  uv_timer_t cap;    /* the safety cap, and the bad-input case's steps */
  unsigned long loop_thread;
  EpResult map, done;
  int off_thread;    /* callbacks that ran off the loop's thread */
  int wakeups, ticks;
  double job_s;      /* the job under a blocking wgpuInstanceWaitAny */
  int step;          /* --release-while-watched: the next step */
  int wakeups_at_release;
} App;

static App app;

static int readable_now(int fd) {
  struct pollfd p = {fd, POLLIN, 0};
  return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static void stop_all(void) {
  if (uv_is_active((uv_handle_t *)&app.poll)) uv_poll_stop(&app.poll);
  uv_timer_stop(&app.frames);
  uv_timer_stop(&app.cap);
}

static void lu_on_mapped(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2) {
  if (ep_thread_id() != app.loop_thread) app.off_thread++;
  ep_on_mapped(status, message, u1, u2);
}

static void lu_on_done(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *u1, void *u2) {
  if (ep_thread_id() != app.loop_thread) app.off_thread++;
  ep_on_work_done(status, message, u1, u2);
}

/* The whole integration: ProcessEvents when the descriptor is readable. */
static void on_readable(uv_poll_t *handle, int status, int events) {
  (void)handle;
  (void)events;
  if (status < 0) {
    EP_FAIL("uv_poll reported %s", uv_strerror(status));
    stop_all();
    return;
  }
  app.wakeups++;
  wgpuInstanceProcessEvents(app.gpu.instance); /* runs the ready callbacks */
  if (app.map.calls && app.done.calls && app.step == 0) stop_all();
}

static void on_frame(uv_timer_t *t) {
  (void)t;
  app.ticks++;
}

static void on_cap(uv_timer_t *t) {
  (void)t;
  EP_FAIL("no completion within %d ms (map %d, work-done %d calls)", EP_SAFETY_CAP_MS, app.map.calls,
          app.done.calls);
  stop_all();
}

static int check_calls(int status) {
  if (app.map.calls != 1 || app.done.calls != 1 || app.map.status != status || app.done.status != status) {
    EP_FAIL("map: %d call(s), status %d; work-done: %d call(s), status %d; expected one each with status %d",
            app.map.calls, app.map.status, app.done.calls, app.done.status, status);
    return -1;
  }
  if (app.map.order > app.done.order) EP_FAIL("the work-done callback ran before the earlier map's");
  if (app.off_thread) EP_FAIL("%d callback(s) ran off the loop's thread", app.off_thread);
  return 0;
}

/* ---- the await ------------------------------------------------------------ */

static void await_job(uint32_t dispatches) {
  if (ep_start_job(&app.gpu, dispatches, lu_on_mapped, &app.map, lu_on_done, &app.done) != 0) return;
  uv_timer_start(&app.cap, on_cap, EP_SAFETY_CAP_MS, 0);
  double step = ep_cpu_clock_step(); /* measured before the timed wait */
  double wall0 = ep_clock(CLOCK_MONOTONIC), cpu0 = ep_clock(CLOCK_THREAD_CPUTIME_ID);
  uv_run(app.loop, UV_RUN_DEFAULT); /* until both callbacks ran: on_readable stops the handles */
  double wall = ep_clock(CLOCK_MONOTONIC) - wall0, cpu = ep_clock(CLOCK_THREAD_CPUTIME_ID) - cpu0;
  if (check_calls(WGPUMapAsyncStatus_Success) != 0) return;
  if (readable_now(app.fd)) EP_FAIL("the readiness fd is still readable after both callbacks ran");
  ep_check_data(&app.gpu);
  double ratio = wall > 0 ? cpu / wall : 1.0;
  printf("callbacks: map and work-done once each, in that order, on the loop thread (%d wakeup(s) of the poll "
         "handle; %d frame timer ticks meanwhile)\n",
         app.wakeups, app.ticks);
  printf("wait: %.1f ms wall (the same job under a blocking wgpuInstanceWaitAny: %.1f ms), %.3f ms CPU on the loop "
         "thread, CPU/wall ratio %.4f (the CPU clock's step: %.3f ms)\n",
         wall * 1e3, app.job_s * 1e3, cpu * 1e3, ratio, step * 1e3);
  if (app.ticks < 2) EP_FAIL("the frame timer ticked %d time(s) during the job: the loop was not running", app.ticks);
  if (!ep_cpu_within_limit(cpu, wall)) {
    EP_FAIL("the loop thread's CPU/wall ratio %.4f is above %.2f (with two %.3f ms steps of the CPU clock allowed)",
            ratio, EP_MAX_CPU_RATIO, step * 1e3);
  }
}

/* ---- bad input: the instance released while the loop watches its fd ------ */

static double quiet_wall, quiet_cpu, quiet_t0, quiet_c0;

static void release_step(uv_timer_t *t) {
  switch (app.step++) {
  case 0: /* the job is running: release the instance */
    if (app.map.calls || app.done.calls) EP_FAIL("callbacks ran before the job could have ended");
    wgpuInstanceRelease(app.gpu.instance);
    app.gpu.instance = NULL;
    check_calls(LU_STATUS_CANCELLED); /* they ran inside the release, here */
    app.wakeups_at_release = app.wakeups;
    quiet_t0 = ep_clock(CLOCK_MONOTONIC);
    quiet_c0 = ep_clock(CLOCK_THREAD_CPUTIME_ID);
    uv_timer_start(t, release_step, (uint64_t)(3 * app.job_s * 1e3) + 100, 0);
    break;
  case 1: /* the job ended meanwhile: nothing fired; now the last objects go */
    quiet_wall = ep_clock(CLOCK_MONOTONIC) - quiet_t0;
    quiet_cpu = ep_clock(CLOCK_THREAD_CPUTIME_ID) - quiet_c0;
    if (app.wakeups != app.wakeups_at_release || readable_now(app.fd))
      EP_FAIL("the poll handle fired %d time(s) after the release", app.wakeups - app.wakeups_at_release);
    ep_release(&app.gpu); /* closes the descriptor under the active handle */
    memset(&app.gpu, 0, sizeof app.gpu);
    uv_timer_start(t, release_step, 100, 0);
    break;
  default: /* the closed descriptor: still no event, the handle still active */
    if (app.wakeups != app.wakeups_at_release) EP_FAIL("the poll handle fired after the descriptor closed");
    if (!uv_is_active((uv_handle_t *)&app.poll)) EP_FAIL("the poll handle went inactive by itself");
    stop_all(); /* what a binding does when the instance goes */
    break;
  }
}

static void release_while_watched(uint32_t dispatches) {
  if (ep_start_job(&app.gpu, dispatches, lu_on_mapped, &app.map, lu_on_done, &app.done) != 0) return;
  app.step = 0;
  double step = ep_cpu_clock_step(); /* measured before the timed wait */
  uv_timer_start(&app.cap, release_step, 50, 0);
  double wall0 = ep_clock(CLOCK_MONOTONIC);
  uv_run(app.loop, UV_RUN_DEFAULT);
  double wall = ep_clock(CLOCK_MONOTONIC) - wall0;
  if (app.step != 3) EP_FAIL("the loop ended at step %d of 3", app.step);
  if (app.map.calls != 1 || app.done.calls != 1) EP_FAIL("callbacks ran again after the release");
  double ratio = quiet_wall > 0 ? quiet_cpu / quiet_wall : 1.0;
  if (!ep_cpu_within_limit(quiet_cpu, quiet_wall)) {
    EP_FAIL("the loop thread's CPU/wall after the release: %.4f (two %.3f ms clock steps allowed)", ratio, step * 1e3);
  }
  printf("release while watched: map and work-done CallbackCancelled inside wgpuInstanceRelease on the loop thread; "
         "the poll handle stayed quiet for %.0f ms (%.3f ms loop CPU, %d wakeups); after the last release it stayed "
         "quiet and active until uv_poll_stop; the loop ended after %.0f ms\n",
         quiet_wall * 1e3, quiet_cpu * 1e3, app.wakeups - app.wakeups_at_release, wall * 1e3);
}

int main(int argc, char **argv) {
  int bad_input = argc == 2 && strcmp(argv[1], "--release-while-watched") == 0;
  if (argc > 2 || (argc == 2 && !bad_input)) {
    fprintf(stderr, "usage: %s [--release-while-watched]\n", argv[0]);
    return 2;
  }
  memset(&app, 0, sizeof app);
  app.loop_thread = ep_thread_id();
  printf("libuv %s\n", uv_version_string());
  if (ep_open(&app.gpu) == 0) {
    int fd = app.fd = wgpuShimInstanceGetReadinessFd(app.gpu.instance);
    uint32_t dispatches = ep_calibrate(&app.gpu);
    app.job_s = dispatches ? ep_time_job(&app.gpu, dispatches) : -1;
    ep_order = 0;
    app.loop = uv_default_loop();
    int rc = fd < 0 ? -1 : uv_poll_init(app.loop, &app.poll, fd);
    if (fd < 0 || rc != 0) EP_FAIL("readiness fd %d, uv_poll_init: %s", fd, rc ? uv_strerror(rc) : "-");
    if (fd >= 0 && rc == 0 && dispatches && app.job_s > 0) {
      uv_poll_start(&app.poll, UV_READABLE, on_readable);
      uv_timer_init(app.loop, &app.frames);
      uv_timer_init(app.loop, &app.cap);
      uv_timer_start(&app.frames, on_frame, LU_FRAME_MS, LU_FRAME_MS);
      if (bad_input) {
        release_while_watched(dispatches);
      } else {
        await_job(dispatches);
      }
      uv_close((uv_handle_t *)&app.poll, NULL);
      uv_close((uv_handle_t *)&app.frames, NULL);
      uv_close((uv_handle_t *)&app.cap, NULL);
      uv_run(app.loop, UV_RUN_DEFAULT); /* runs the closes */
    }
    if (app.loop && uv_loop_close(app.loop) != 0) EP_FAIL("uv_loop_close: handles left open");
  }
  ep_release(&app.gpu);
  if (ep_failures) {
    printf("FAILED (%d)\n", ep_failures);
    return 1;
  }
  printf("OK\n");
  return 0;
}
