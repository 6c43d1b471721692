/* Rule (wgpu_shim.h, readiness fd): completions racing with a ProcessEvents
 * drain are never lost, and the fd does not stay readable with nothing ready.
 *
 * A producer thread issues AllowProcessEvents operations in short rounds, of
 * three kinds: queue work-dones behind tiny submissions (completed by the
 * device's progress thread or inside a later submit), user events it signals
 * at once, and PopErrorScope (both completed inline on the producer thread),
 * with random pauses of microseconds (sometimes a sleep). The main thread is
 * an event loop that only ever calls ProcessEvents when poll() says the fd is
 * readable.
 *
 * Two checks catch a lost wakeup (a ready callback left while the fd is
 * unreadable):
 *   1. CPU kinds, continuously: the producer raises a flag after the
 *      completing call returned. After every drain and every poll timeout the
 *      main thread reads the flags FIRST, then the fd: if the fd is unreadable,
 *      every flagged operation must already have been delivered (only the main
 *      thread delivers, and it is not delivering at that moment).
 *   2. End of each round: the producer waits (WaitAny on a WaitAnyOnly probe
 *      work-done issued last) until all its operations are complete, then
 *      tells the main thread on a separate signal (an eventfd; on Windows an
 *      event) and waits for it. Now nothing else completes, so every
 *      undelivered callback is ready: the
 *      readiness fd must become readable within 1 s, and be unreadable once
 *      everything is delivered. A lost wakeup in the last race of a round has
 *      no later completion to mask it.
 * Spurious wakeups (poll says readable, ProcessEvents then delivers nothing)
 * are counted: a few are tolerated, more than 10% of the wakeups fail (an fd
 * that stays readable makes the loop spin). Every callback runs exactly once,
 * on the main thread. On Windows the fd is the readiness event
 * (wgpuShimInstanceGetReadinessEvent) and poll() a wait on it
 * (eventloop_util.h). */
#include "eventloop_util.h"

#define MAX_OPS 40000
#define RUN_S 2.5
#define MAX_BATCH 40

enum { KIND_WORKDONE = 0, KIND_USER = 1, KIND_POP = 2 };

static ElRec ape[MAX_OPS];
static ElRec probes[MAX_OPS];
static int kind[MAX_OPS];
static atomic_int cpu_complete[MAX_OPS];
static atomic_int issued; /* ops [0, issued) are fully set up */
static atomic_int producer_done;
static atomic_int acked_round;
static atomic_int delivered; /* APE callbacks run */
static atomic_int wrong_thread;
static ElSignal ctl_fd; /* producer -> main: "round complete" */
static int rounds_done;
static Ctx ctx;

static void count_hook(ElRec *r) {
  atomic_fetch_add(&delivered, 1);
  if (!r->on_main) atomic_fetch_add(&wrong_thread, 1);
}

static void *producer(void *arg) {
  (void)arg;
  double end = now_s() + RUN_S;
  unsigned rng = 12345;
  int i = 0;
  int round = 0;
  while (i + MAX_BATCH <= MAX_OPS && now_s() < end) {
    rng = rng * 1103515245u + 12345u;
    int batch = 1 + (int)((rng >> 16) % MAX_BATCH);
    for (int b = 0; b < batch; b++, i++) {
      rng = rng * 1103515245u + 12345u;
      int k = (int)((rng >> 16) % 3);
      kind[i] = k;
      el_rec_init(&ape[i], "APE op");
      ape[i].hook = count_hook;
      ape[i].index = i;
      atomic_store(&issued, i + 1); /* published before the op can complete */
      switch (k) {
        case KIND_WORKDONE:
          submit_empty(&ctx);
          el_workdone(ctx.queue, WGPUCallbackMode_AllowProcessEvents, &ape[i]);
          break;
        case KIND_USER: {
          WGPUFuture f = el_user_event(ctx.instance, WGPUCallbackMode_AllowProcessEvents, &ape[i]);
          if (wgpuShimInstanceSignalUserEvent(ctx.instance, f) != WGPUStatus_Success) {
            fprintf(stderr, "producer: signal of op %d failed\n", i);
          }
          atomic_store(&cpu_complete[i], 1);
          break;
        }
        default:
          el_push_pop(ctx.device, WGPUCallbackMode_AllowProcessEvents, &ape[i]);
          atomic_store(&cpu_complete[i], 1);
          break;
      }
      /* Vary the phase against the consumer: mostly a short busy pause (so
       * completions often meet a drain in progress, even contend for the
       * library's lock), sometimes a real sleep. */
      if (((rng >> 8) & 15) == 0) {
        sleep_s((double)((rng >> 20) % 200) * 1e-6);
      } else {
        double until = now_s() + (double)((rng >> 20) % 20) * 1e-6;
        while (now_s() < until) {
        }
      }
    }
    /* Every work-done of the round is complete once a later one is (the
     * queue finishes in order; closures fire microseconds apart at most). */
    el_rec_init(&probes[round], "WaitAnyOnly probe");
    WGPUFuture last_probe = el_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &probes[round]);
    if (el_wait1(ctx.instance, last_probe, EL_WAIT_S, NULL) != WGPUWaitStatus_Success) {
      fprintf(stderr, "producer: probe wait failed\n");
    }
    round++;
    el_signal_raise(ctl_fd);
    double ack_deadline = now_s() + 20.0;
    while (atomic_load(&acked_round) < round && now_s() < ack_deadline) sleep_s(50e-6);
  }
  atomic_store(&producer_done, 1);
  el_signal_raise(ctl_fd);
  return NULL;
}

static int low = 0;         /* ops below are known delivered */
static int cpu_violations = 0;
static int round_violations = 0;
static int stuck_readable = 0;

/* Check 1 (CPU kinds): flags first, then the fd. */
static void check_cpu_invariant(ElHandle fd, const char *where) {
  int n = atomic_load(&issued);
  static int flagged[MAX_OPS];
  for (int i = low; i < n; i++) flagged[i] = kind[i] != KIND_WORKDONE && atomic_load(&cpu_complete[i]);
  if (el_readable(fd, 0) != 0) return;
  for (int i = low; i < n; i++) {
    if (flagged[i] && el_calls(&ape[i]) != 1) {
      if (cpu_violations < 5) {
        fprintf(stderr, "LOST WAKEUP (%s): op %d (kind %d) complete, undelivered, fd unreadable\n", where, i, kind[i]);
      }
      cpu_violations++;
      break;
    }
  }
  while (low < n && el_calls(&ape[low]) == 1) low++;
}

/* Check 2: the round is complete and nothing else runs. */
static void finish_round(ElHandle fd) {
  for (;;) {
    int n = atomic_load(&issued);
    if (atomic_load(&delivered) >= n) break;
    int r = el_readable(fd, 1.0);
    if (r == 1) {
      wgpuInstanceProcessEvents(ctx.instance);
      continue;
    }
    if (round_violations < 5) {
      fprintf(stderr, "LOST WAKEUP (end of round %d): %d of %d delivered, fd unreadable for 1 s\n", rounds_done,
              atomic_load(&delivered), n);
    }
    round_violations++;
    wgpuInstanceProcessEvents(ctx.instance); /* recover */
    if (atomic_load(&delivered) < n) {
      fprintf(stderr, "end of round: ProcessEvents cannot deliver the rest either\n");
      break;
    }
  }
  if (el_readable(fd, 0) != 0) {
    if (stuck_readable < 5) fprintf(stderr, "fd readable at the end of round %d with everything delivered\n", rounds_done);
    stuck_readable++;
  }
}

int main(void) {
  el_begin(90);
  REQUIRE(el_ctx_init(&ctx, EL_READINESS) == 0);
  ElHandle fd = el_readiness(ctx.instance);
  REQUIRE(fd != EL_NO_HANDLE);
  EL_CHECK_READABLE(fd, 0, "start");
  ctl_fd = el_signal_new();
  REQUIRE(ctl_fd != EL_NO_HANDLE);

  pthread_t t;
  REQUIRE(pthread_create(&t, NULL, producer, NULL) == 0);
  int wakeups = 0, spurious = 0, timeouts = 0;
  double deadline = now_s() + RUN_S + 30.0;
  int finished = 0;
  while (!finished) {
    if (now_s() > deadline) {
      fprintf(stderr, "the run did not end in time\n");
      break;
    }
    int ready[2];
    int n = el_readable2(fd, ctl_fd, 1.0, ready);
    if (n < 0) break;
    if (ready[0]) {
      wakeups++;
      int before = atomic_load(&delivered);
      wgpuInstanceProcessEvents(ctx.instance);
      if (atomic_load(&delivered) == before) spurious++;
      check_cpu_invariant(fd, "after a drain");
    } else if (n == 0) {
      timeouts++;
      check_cpu_invariant(fd, "after a poll timeout");
    }
    if (ready[1]) {
      el_signal_take(ctl_fd);
      finish_round(fd);
      if (atomic_load(&producer_done)) {
        finished = 1;
      } else {
        rounds_done++;
        atomic_store(&acked_round, rounds_done);
      }
    }
  }
  atomic_store(&acked_round, 1 << 30);
  pthread_join(t, NULL);
  int n = atomic_load(&issued);
  int counts[3] = {0, 0, 0};
  for (int i = 0; i < n; i++) counts[kind[i]]++;
  fprintf(stderr,
          "%d ops (%d work-done, %d user event, %d pop) in %d rounds: %d wakeups, %d spurious, %d poll timeouts; "
          "violations: %d CPU invariant, %d end of round, %d stuck readable\n",
          n, counts[0], counts[1], counts[2], rounds_done, wakeups, spurious, timeouts, cpu_violations,
          round_violations, stuck_readable);

  CHECK(finished);
  CHECK(n >= 300 && rounds_done >= 50); /* enough races to mean something */
  CHECK(counts[KIND_WORKDONE] > 0 && counts[KIND_USER] > 0 && counts[KIND_POP] > 0);
  CHECK_EQ(cpu_violations, 0);
  CHECK_EQ(round_violations, 0);
  CHECK_EQ(stuck_readable, 0);
  CHECK_EQ(atomic_load(&delivered), n);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    if (el_calls(&ape[i]) != 1 || ape[i].status != 1) {
      if (bad < 5) fprintf(stderr, "op %d (kind %d): %d calls, status %d\n", i, kind[i], el_calls(&ape[i]), ape[i].status);
      bad++;
    }
  }
  CHECK_EQ(bad, 0);
  CHECK_EQ(atomic_load(&wrong_thread), 0);
  CHECK(spurious <= 3 || spurious * 10 <= wakeups);
  /* Nothing ready: the fd stays unreadable. */
  EL_CHECK_READABLE(fd, 0, "everything delivered");
  CHECK_EQ(el_readable(fd, 0.2), 0);
  wgpuInstanceProcessEvents(ctx.instance);
  CHECK_EQ(atomic_load(&delivered), n);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  el_signal_close(ctl_fd);
  ctx_release(&ctx);
  return test_finish();
}
