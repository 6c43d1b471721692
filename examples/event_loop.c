/* wgpu-shim example: GPU completions in a plain event loop, on Linux (epoll),
 * macOS and the BSDs (kqueue) and Windows (WaitForSingleObject).
 *
 * wgpu-shim's WGPUInstanceFeatureName_ShimReadinessHandle (wgpu_shim.h) gives
 * an instance an OS handle that is ready exactly while
 * wgpuInstanceProcessEvents has callbacks to run: on Unix a file descriptor
 * that is readable then (wgpuShimInstanceGetReadinessFd), on Windows a
 * manual-reset event that is set then (wgpuShimInstanceGetReadinessEvent). An
 * event loop adds it to what it waits on, sleeps in the kernel, and calls
 * ProcessEvents when it fires: no polling timer, no busy loop, no extra
 * thread.
 *
 *   1. instance with TimedWaitAny + ShimReadinessHandle (the extension is
 *      looked up with wgpuHasInstanceFeature / wgpuGetProcAddress, as a
 *      program that may run on another webgpu.h implementation would);
 *   2. adapter and device (WaitAnyOnly callbacks, wgpuInstanceWaitAny);
 *   3. a compute shader that runs an LCG for 60000 steps on each of 64 seeds;
 *      a short run calibrates how many dispatches make a job of ~200 ms;
 *   4. one submission: seeds written with wgpuQueueWriteBuffer, the compute
 *      pass, a copy of the results into a MAP_READ buffer;
 *   5. wgpuBufferMapAsync and wgpuQueueOnSubmittedWorkDone, both in
 *      AllowProcessEvents mode;
 *   6. the event loop's wait on the readiness handle (no timeout but a 30 s
 *      safety cap), wgpuInstanceProcessEvents() when it fires, until both
 *      callbacks ran; the waiting thread's CPU time and the wall time are
 *      measured;
 *   7. the mapped results are checked against the same LCG on the CPU.
 *
 * Prints the data summary and the wait's CPU/wall figures. Exit status 0 when
 * everything succeeded, the data matched, and the waiting thread used at most
 * 5% of the wall time of the wait in CPU (beyond two steps of the thread CPU
 * clock: see ep_cpu_within_limit); 1 otherwise. */
#define _POSIX_C_SOURCE 200809L
#if defined(__APPLE__)
#define _DARWIN_C_SOURCE /* kqueue(2) beside POSIX */
#endif

#include <webgpu/webgpu.h>
#include <webgpu/wgpu_shim.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(_WIN32)
#include <windows.h>
#elif defined(__linux__)
#include <sys/epoll.h>
#include <unistd.h>
#else
#include <sys/event.h>
#include <unistd.h>
#endif

/* The instance, device and GPU job, and the CPU's answer: shared with the
 * other loop examples. */
#include "gpu_job.h"

/* ---- the event loop ------------------------------------------------------ */

/* ---- the event loop's wait, per system ----------------------------------- */

/* What the loop waits on: the instance's readiness handle, in the system's
 * own waiting call. */
typedef struct {
#if defined(_WIN32)
  HANDLE event; /* set while callbacks are ready; the library clears it */
#elif defined(__linux__)
  int fd;   /* readable while callbacks are ready */
  int epfd; /* an epoll set holding it, level-triggered */
#else
  int fd; /* readable while callbacks are ready */
  int kq; /* a kqueue watching it, level-triggered (no EV_CLEAR) */
#endif
} EpLoop;

/* Gets the readiness handle of `instance` (found with wgpuGetProcAddress)
 * and adds it to a new wait set. 0 on success. */
static int loop_open(EpLoop *l, WGPUInstance instance) {
#if defined(_WIN32)
  WGPUProcShimInstanceGetReadinessEvent get_event =
      (WGPUProcShimInstanceGetReadinessEvent)wgpuGetProcAddress(ep_sv("wgpuShimInstanceGetReadinessEvent"));
  if (!get_event) {
    EP_FAIL("wgpuGetProcAddress(wgpuShimInstanceGetReadinessEvent) returned NULL");
    return -1;
  }
  l->event = (HANDLE)get_event(instance);
  if (!l->event) {
    EP_FAIL("wgpuShimInstanceGetReadinessEvent returned NULL");
    return -1;
  }
  return 0;
#else
  WGPUProcShimInstanceGetReadinessFd get_fd =
      (WGPUProcShimInstanceGetReadinessFd)wgpuGetProcAddress(ep_sv("wgpuShimInstanceGetReadinessFd"));
  if (!get_fd) {
    EP_FAIL("wgpuGetProcAddress(wgpuShimInstanceGetReadinessFd) returned NULL");
    return -1;
  }
  l->fd = get_fd(instance);
  if (l->fd < 0) {
    EP_FAIL("wgpuShimInstanceGetReadinessFd returned %d", l->fd);
    return -1;
  }
#if defined(__linux__)
  l->epfd = epoll_create1(EPOLL_CLOEXEC);
  if (l->epfd < 0) {
    EP_FAIL("epoll_create1: %s", strerror(errno));
    return -1;
  }
  struct epoll_event ev;
  memset(&ev, 0, sizeof ev);
  ev.events = EPOLLIN; /* level-triggered: readable while callbacks are ready */
  ev.data.fd = l->fd;
  if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, l->fd, &ev) != 0) {
    EP_FAIL("epoll_ctl(ADD readiness fd): %s", strerror(errno));
    close(l->epfd);
    return -1;
  }
#else
  l->kq = kqueue();
  if (l->kq < 0) {
    EP_FAIL("kqueue: %s", strerror(errno));
    return -1;
  }
  struct kevent ev;
  EV_SET(&ev, l->fd, EVFILT_READ, EV_ADD, 0, 0, NULL);
  if (kevent(l->kq, &ev, 1, NULL, 0, NULL) != 0) {
    EP_FAIL("kevent(EV_ADD readiness fd): %s", strerror(errno));
    close(l->kq);
    return -1;
  }
#endif
  return 0;
#endif
}

/* Sleeps until the handle is ready or `timeout_ms` passes: 1 when ready, 0
 * on timeout, -1 on error (EINTR is a timeout of length zero: 0). */
static int loop_wait(EpLoop *l, int timeout_ms) {
#if defined(_WIN32)
  DWORD r = WaitForSingleObject(l->event, (DWORD)timeout_ms);
  if (r == WAIT_OBJECT_0) return 1;
  if (r == WAIT_TIMEOUT) return 0;
  EP_FAIL("WaitForSingleObject: error %lu", (unsigned long)GetLastError());
  return -1;
#elif defined(__linux__)
  struct epoll_event out[4];
  int n = epoll_wait(l->epfd, out, 4, timeout_ms);
  if (n < 0 && errno == EINTR) return 0;
  if (n < 0) {
    EP_FAIL("epoll_wait: %s", strerror(errno));
    return -1;
  }
  for (int i = 0; i < n; i++)
    if (out[i].data.fd == l->fd) return 1;
  return 0;
#else
  struct kevent out;
  struct timespec ts = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L};
  int n = kevent(l->kq, NULL, 0, &out, 1, &ts);
  if (n < 0 && errno == EINTR) return 0;
  if (n < 0) {
    EP_FAIL("kevent: %s", strerror(errno));
    return -1;
  }
  return n > 0 && (int)out.ident == l->fd;
#endif
}

/* Closes the wait set (the handle itself is the instance's). */
static void loop_close(EpLoop *l) {
#if defined(_WIN32)
  (void)l;
#elif defined(__linux__)
  close(l->epfd);
#else
  close(l->kq);
#endif
}

static int ep_run(Ep *e) {
  /* 1. The extension, found at run time. */
  if (!wgpuHasInstanceFeature(WGPUInstanceFeatureName_ShimReadinessHandle)) {
    EP_FAIL("the library does not support WGPUInstanceFeatureName_ShimReadinessHandle");
    return -1;
  }
  if (ep_open(e) != 0) return -1;
  EpLoop loop;
  if (loop_open(&loop, e->instance) != 0) return -1;

  uint32_t dispatches = ep_calibrate(e);
  if (dispatches == 0) {
    loop_close(&loop);
    return -1;
  }

  /* 4 + 5: the job, then the two AllowProcessEvents operations. */
  EpResult map = {0, 0, NULL, 0}, done = {0, 0, NULL, 0};
  if (ep_start_job(e, dispatches, ep_on_mapped, &map, ep_on_work_done, &done) != 0) {
    loop_close(&loop);
    return -1;
  }

  /* 6. Sleep in the event loop's wait until the library says there is work. */
  double step = ep_cpu_clock_step(); /* measured before the timed wait */
  double wall0 = ep_clock(CLOCK_MONOTONIC);
  double cpu0 = ep_clock(CLOCK_THREAD_CPUTIME_ID);
  double proc0 = ep_clock(CLOCK_PROCESS_CPUTIME_ID);
  int wakeups = 0, empty_wakeups = 0;
  while (map.calls == 0 || done.calls == 0) {
    int left_ms = EP_SAFETY_CAP_MS - (int)((ep_clock(CLOCK_MONOTONIC) - wall0) * 1e3);
    if (left_ms <= 0) {
      EP_FAIL("no completion within the %d ms safety cap (map %d, work-done %d calls)", EP_SAFETY_CAP_MS,
              map.calls, done.calls);
      break;
    }
    int ready = loop_wait(&loop, left_ms);
    if (ready < 0) break;
    if (ready == 0) continue;
    wakeups++;
    int before = map.calls + done.calls;
    wgpuInstanceProcessEvents(e->instance); /* runs the ready callbacks */
    if (map.calls + done.calls == before) empty_wakeups++;
  }
  double wall = ep_clock(CLOCK_MONOTONIC) - wall0;
  double cpu = ep_clock(CLOCK_THREAD_CPUTIME_ID) - cpu0;
  double proc = ep_clock(CLOCK_PROCESS_CPUTIME_ID) - proc0;

  /* Nothing is left: the handle must be quiet now. */
  int left = loop_wait(&loop, 0);
  loop_close(&loop);
  if (left != 0) EP_FAIL("the readiness handle is still ready after both callbacks ran");

  if (map.calls != 1 || map.status != WGPUMapAsyncStatus_Success) {
    EP_FAIL("map callback: %d call(s), status %d", map.calls, map.status);
  }
  if (done.calls != 1 || done.status != WGPUQueueWorkDoneStatus_Success) {
    EP_FAIL("work-done callback: %d call(s), status %d", done.calls, done.status);
  }
  if (map.calls == 1 && done.calls == 1 && map.order > done.order) {
    EP_FAIL("the work-done callback ran before the earlier map's");
  }

  /* 7. The data. */
  if (map.calls == 1 && map.status == WGPUMapAsyncStatus_Success) ep_check_data(e);

  double ratio = wall > 0 ? cpu / wall : 1.0;
  printf("wait: %.1f ms wall, %.3f ms CPU on the waiting thread (%.2f%% of wall), %d wakeup(s), %d empty; "
         "process CPU meanwhile %.1f ms (lavapipe's threads run the shader)\n",
         wall * 1e3, cpu * 1e3, ratio * 100.0, wakeups, empty_wakeups, proc * 1e3);
  if (!ep_cpu_within_limit(cpu, wall)) {
    EP_FAIL("the waiting thread used %.2f%% of the wall time in CPU (limit %.0f%%, with two %.3f ms steps of the "
            "CPU clock allowed)",
            ratio * 100.0, EP_MAX_CPU_RATIO * 100.0, step * 1e3);
  }
  if (wall < EP_TARGET_S * 0.25) {
    fprintf(stderr, "event loop: note: the job was much shorter than planned (%.1f ms)\n", wall * 1e3);
  }
  if (ep_uncaptured) EP_FAIL("%d device error(s)", ep_uncaptured);
  return 0;
}

int main(void) {
  Ep e;
  memset(&e, 0, sizeof e);
  ep_run(&e);
  ep_release(&e);
  if (ep_failures) {
    printf("FAILED (%d)\n", ep_failures);
    return 1;
  }
  printf("OK\n");
  return 0;
}
