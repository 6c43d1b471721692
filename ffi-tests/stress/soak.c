/* Soak test: many threads for a long time on one instance and two devices.
 *
 *   stress.soak [SECONDS [THREADS]]   (defaults: WGPU_SHIM_SOAK_SECONDS or 5,
 *                                      WGPU_SHIM_SOAK_THREADS or 8)
 *
 * With WGPU_SHIM_SOAK_SAMPLE=S it also prints the heap in use every S
 * seconds while the threads run (a trend, for long runs: the mmapped part
 * holds the memory of devices being made and torn down at that moment).
 * With WGPU_SHIM_SOAK_EXIT_AT_END set it exits right after the final
 * measurement, releasing nothing, so that a heap profiler's "leaked" list
 * is what the run holds at its end; under AddressSanitizer it prints the
 * live allocations grouped by stack first.
 *
 * Each thread mixes: write + copy + submit + MapAsync + wait in each callback
 * mode (WaitAny, ProcessEvents, spontaneous) with the data checked; work-done
 * futures; buffers released and destroyed with a map in flight; devices of
 * their own destroyed or released with work in flight; instances of their
 * own released with work in flight (callbacks CallbackCancelled); 1 MiB
 * write maps whose view, kept past unmap, must read zeros (large views,
 * docs/MAPPING.md). One more thread calls ProcessEvents in a loop.
 *
 * Checked:
 * - every callback runs exactly once (each has a record; the totals of
 *   callbacks issued and run must agree at the end, and a second call of a
 *   live record fails at once);
 * - no deadlock: a watchdog fails the run when no operation completed for
 *   60 s (or the run overstays by 120 s), after dumping every thread's
 *   stack with gdb -batch (or eu-stack) when one is installed;
 * - flat memory: after a warm-up run of every operation, the threads are
 *   joined and the object counts of wgpuGenerateReport are taken; at the
 *   end (threads joined again) they must be equal. The RSS (after
 *   malloc_trim) is taken after the warm-up, after the first quarter of the
 *   run and at the end, each time with the threads joined; from the quarter
 *   to the end it may grow by at most 16 MiB + 10 % (the allocator's and the
 *   driver's caches settle in the first quarter; a leak keeps growing).
 * - no crash: a SIGSEGV, SIGBUS, SIGILL or SIGFPE prints the faulting
 *   thread, pc, the return address on top of its stack and a backtrace;
 * - no error-level log message (a destroy racing a map's delivery on
 *   another thread once logged one for an abort that was correct).
 * Runs under the standard's rules (WGPU_SHIM_COMPAT=standard), though it
 * calls wgpu.h's wgpuGenerateReport and wgpuDevicePoll.
 * Prints the operations done per kind and the memory figures. */
#define _GNU_SOURCE
#include "harness.h"
#include "webgpu/wgpu.h"

#include <execinfo.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <ucontext.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SIZE 256

/* AddressSanitizer's heap profile (absent in other builds). */
extern void __sanitizer_print_memory_profile(size_t top_percent, size_t max_contexts) __attribute__((weak));

enum { OP_MAP, OP_WORKDONE, OP_RELEASE_MAPPED, OP_DESTROY_MAPPED, OP_DEVICE, OP_INSTANCE, OP_LARGE_VIEW, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"map+verify",       "work-done",        "release-with-map",
                                               "destroy-with-map", "device-teardown",  "instance-release",
                                               "large-view"};

static WGPUInstance g_instance;
static WGPUDevice g_devices[2];
static WGPUQueue g_queues[2];
static WGPUBuffer g_src[2]; /* 256 bytes, CopySrc, filled with the pattern */
static atomic_int g_stop;
static atomic_ullong g_progress;
static atomic_ullong g_ops[OP_COUNT];
static atomic_ullong g_issued, g_called;
static atomic_int g_failed;
static double g_deadline;
/* WGPU_SHIM_SOAK_SAMPLE: seconds between the watchdog's heap samples (0: none). */
static double g_sample_s, g_t_start;
static atomic_int g_error_logs;

static void on_log(WGPULogLevel level, WGPUStringView message, void *userdata) {
  (void)userdata;
  if (level == WGPULogLevel_Error) {
    atomic_fetch_add(&g_error_logs, 1);
    fprintf(stderr, "error log: %.*s\n", (int)(message.length == WGPU_STRLEN ? strlen(message.data) : message.length),
            message.data);
  }
}

typedef struct {
  atomic_int calls;
  atomic_int status;
  WGPUCallbackMode mode;
} Rec;

static void fail(const char *what, long a, long b) {
  fprintf(stderr, "FAIL: %s (%ld, %ld)\n", what, a, b);
  atomic_store(&g_failed, 1);
}

static Rec *rec_new(WGPUCallbackMode mode) {
  Rec *r = calloc(1, sizeof *r);
  r->mode = mode;
  atomic_fetch_add(&g_issued, 1);
  return r;
}

static void rec_call(Rec *r, int status) {
  atomic_store(&r->status, status);
  if (atomic_fetch_add(&r->calls, 1) != 0) fail("a callback ran twice", status, 0);
  atomic_fetch_add(&g_called, 1);
}

static void on_map(WGPUMapAsyncStatus status, WGPUStringView m, void *u1, void *u2) {
  (void)m, (void)u2;
  rec_call(u1, (int)status);
}

static void on_done(WGPUQueueWorkDoneStatus status, WGPUStringView m, void *u1, void *u2) {
  (void)m, (void)u2;
  rec_call(u1, (int)status);
}

static WGPUCallbackMode pick_mode(unsigned *seed) {
  static const WGPUCallbackMode modes[3] = {WGPUCallbackMode_WaitAnyOnly, WGPUCallbackMode_AllowProcessEvents,
                                            WGPUCallbackMode_AllowSpontaneous};
  return modes[rand_r(seed) % 3];
}

static void die_with_stacks(const char *why);

/* Waits for r's one call in its mode; after 60 s, fails with every
 * thread's stack. */
static void rec_wait(WGPUInstance instance, WGPUFuture f, Rec *r) {
  double limit = now_s() + 60.0;
  if (r->mode == WGPUCallbackMode_WaitAnyOnly) {
    WGPUFutureWaitInfo info = {f, 0};
    WGPUWaitStatus s = wgpuInstanceWaitAny(instance, 1, &info, 60ull * 1000 * 1000 * 1000);
    if (s != WGPUWaitStatus_Success || !info.completed) fail("WaitAny did not complete", (long)s, (long)info.completed);
  }
  while (atomic_load(&r->calls) == 0) {
    if (now_s() > limit) {
      /* A lost wake-up or a deadlock: the stacks say which. */
      fail("a callback never came", (long)r->mode, 0);
      die_with_stacks("a callback never came within 60 s");
    }
    if (r->mode == WGPUCallbackMode_AllowProcessEvents) wgpuInstanceProcessEvents(instance);
    else usleep(100);
  }
}

static void rec_done(Rec *r) {
  if (atomic_load(&r->calls) != 1) fail("callback count", atomic_load(&r->calls), 1);
  free(r);
}

static WGPUFuture map_async(WGPUBuffer b, Rec *r) {
  WGPUBufferMapCallbackInfo info = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  info.mode = r->mode;
  info.callback = on_map;
  info.userdata1 = r;
  return wgpuBufferMapAsync(b, WGPUMapMode_Read, 0, SIZE, info);
}

static WGPUFuture work_done(WGPUQueue q, Rec *r) {
  WGPUQueueWorkDoneCallbackInfo info = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  info.mode = r->mode;
  info.callback = on_done;
  info.userdata1 = r;
  return wgpuQueueOnSubmittedWorkDone(q, info);
}

/* A MapRead buffer with the pattern copied in (submitted, not waited for). */
static WGPUBuffer filled_readback(WGPUDevice device, WGPUQueue queue, WGPUBuffer src) {
  WGPUBuffer dst = make_buffer(device, SIZE, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(device, NULL);
  wgpuCommandEncoderCopyBufferToBuffer(enc, src, 0, dst, 0, SIZE);
  WGPUCommandBuffer cb = wgpuCommandEncoderFinish(enc, NULL);
  wgpuQueueSubmit(queue, 1, &cb);
  wgpuCommandBufferRelease(cb);
  wgpuCommandEncoderRelease(enc);
  return dst;
}

static WGPUBuffer make_src(WGPUDevice device, WGPUQueue queue) {
  WGPUBuffer src = make_buffer(device, SIZE, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 0);
  uint8_t pattern[SIZE];
  for (int i = 0; i < SIZE; i++) pattern[i] = (uint8_t)(i * 7 + 3);
  wgpuQueueWriteBuffer(queue, src, 0, pattern, SIZE);
  return src;
}

static void op_map(unsigned *seed) {
  int d = rand_r(seed) % 2;
  WGPUBuffer dst = filled_readback(g_devices[d], g_queues[d], g_src[d]);
  Rec *r = rec_new(pick_mode(seed));
  WGPUFuture f = map_async(dst, r);
  rec_wait(g_instance, f, r);
  if (atomic_load(&r->status) != WGPUMapAsyncStatus_Success) {
    fail("map status", atomic_load(&r->status), WGPUMapAsyncStatus_Success);
  } else {
    const uint8_t *p = wgpuBufferGetConstMappedRange(dst, 0, SIZE);
    if (!p) fail("no mapped range", 0, 0);
    for (int i = 0; p && i < SIZE; i++)
      if (p[i] != (uint8_t)(i * 7 + 3)) {
        fail("mapped data", i, p[i]);
        break;
      }
    if (wgpuBufferGetMapState(dst) != WGPUBufferMapState_Mapped) fail("map state", wgpuBufferGetMapState(dst), 3);
    wgpuBufferUnmap(dst);
  }
  rec_done(r);
  wgpuBufferRelease(dst);
}

/* A 1 MiB MapWrite buffer mapped, written through its view and unmapped
 * (a large view: on Vulkan under Linux the driver's own pages, moved):
 * the kept view must read zeros afterwards (docs/MAPPING.md). */
enum { LARGE = 1 << 20 };
static void op_large_view(unsigned *seed) {
  int d = rand_r(seed) % 2;
  WGPUBuffer b = make_buffer(g_devices[d], LARGE, WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc, 0);
  Rec *r = rec_new(pick_mode(seed));
  WGPUBufferMapCallbackInfo info = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  info.mode = r->mode;
  info.callback = on_map;
  info.userdata1 = r;
  WGPUFuture f = wgpuBufferMapAsync(b, WGPUMapMode_Write, 0, LARGE, info);
  rec_wait(g_instance, f, r);
  if (atomic_load(&r->status) != WGPUMapAsyncStatus_Success) {
    fail("large map status", atomic_load(&r->status), WGPUMapAsyncStatus_Success);
  } else {
    uint32_t *p = wgpuBufferGetMappedRange(b, 0, LARGE);
    if (!p) fail("no large mapped range", 0, 0);
    for (size_t i = 0; p && i < LARGE / 4; i += 1024) p[i] = 0x5EEDu;
    wgpuBufferUnmap(b);
    for (size_t i = 0; p && i < LARGE / 4; i += 1024)
      if (p[i] != 0) {
        fail("stale large view", (long)i, (long)p[i]);
        break;
      }
  }
  rec_done(r);
  wgpuBufferRelease(b);
}

static void op_workdone(unsigned *seed) {
  int d = rand_r(seed) % 2;
  Rec *r = rec_new(pick_mode(seed));
  WGPUFuture f = work_done(g_queues[d], r);
  rec_wait(g_instance, f, r);
  if (atomic_load(&r->status) != WGPUQueueWorkDoneStatus_Success) fail("work-done status", atomic_load(&r->status), 1);
  rec_done(r);
}

/* Release (or destroy, then release) a buffer whose map is in flight: the
 * callback still comes once, Success if it came first, else Aborted. */
static void op_drop_mapped(unsigned *seed, int destroy) {
  int d = rand_r(seed) % 2;
  WGPUBuffer dst = filled_readback(g_devices[d], g_queues[d], g_src[d]);
  Rec *r = rec_new(pick_mode(seed));
  WGPUFuture f = map_async(dst, r);
  if (destroy) wgpuBufferDestroy(dst);
  wgpuBufferRelease(dst);
  rec_wait(g_instance, f, r);
  int s = atomic_load(&r->status);
  if (s != WGPUMapAsyncStatus_Success && s != WGPUMapAsyncStatus_Aborted) fail("dropped map status", s, 0);
  /* Only a WaitAnyOnly callback cannot have been delivered before the
   * destroy (the ProcessEvents thread may deliver an AllowProcessEvents one). */
  if (destroy && r->mode == WGPUCallbackMode_WaitAnyOnly && s != WGPUMapAsyncStatus_Aborted)
    fail("destroy while pending must abort (status, mode)", s, (long)r->mode);
  rec_done(r);
}

/* A device from a new adapter of `instance` (an adapter gives one device). */
static WGPUDevice new_device(WGPUInstance instance) {
  WGPUAdapter adapter = request_adapter(instance, UINT64_MAX);
  if (!adapter) return NULL;
  WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
  WGPUDevice device = request_device(instance, adapter, &dd, UINT64_MAX);
  wgpuAdapterRelease(adapter);
  return device;
}

/* A device of the shared instance with maps and work in flight, then
 * destroyed or released (every callback still comes once). */
static void op_device(unsigned *seed) {
  WGPUDevice device = new_device(g_instance);
  if (!device) {
    fail("no device", 0, 0);
    return;
  }
  WGPUQueue queue = wgpuDeviceGetQueue(device);
  WGPUBuffer src = make_src(device, queue);
  enum { N = 4 };
  Rec *r[N];
  WGPUFuture f[N];
  WGPUBuffer b[N];
  for (int i = 0; i < N; i++) {
    b[i] = filled_readback(device, queue, src);
    r[i] = rec_new(pick_mode(seed));
    f[i] = i == N - 1 ? work_done(queue, r[i]) : map_async(b[i], r[i]);
  }
  int destroy = rand_r(seed) % 2;
  if (destroy) wgpuDeviceDestroy(device);
  for (int i = 0; i < N; i++) wgpuBufferRelease(b[i]);
  wgpuBufferRelease(src);
  wgpuQueueRelease(queue);
  wgpuDeviceRelease(device);
  for (int i = 0; i < N; i++) {
    rec_wait(g_instance, f[i], r[i]);
    rec_done(r[i]);
  }
}

/* An instance of its own with work in flight, released first: its owed
 * callbacks come once (CallbackCancelled unless they came before). */
static void op_instance(unsigned *seed) {
  WGPUInstance instance = create_instance(1);
  WGPUDevice device = instance ? new_device(instance) : NULL;
  if (!device) {
    fail("no instance/adapter/device", 0, 0);
    return;
  }
  WGPUQueue queue = wgpuDeviceGetQueue(device);
  WGPUBuffer src = make_src(device, queue);
  enum { N = 3 };
  Rec *r[N];
  WGPUBuffer b[N];
  for (int i = 0; i < N; i++) {
    b[i] = filled_readback(device, queue, src);
    r[i] = rec_new(pick_mode(seed));
    if (i == N - 1) work_done(queue, r[i]);
    else map_async(b[i], r[i]);
  }
  wgpuInstanceRelease(instance);
  double limit = now_s() + 60.0;
  for (int i = 0; i < N; i++) {
    while (atomic_load(&r[i]->calls) == 0 && now_s() < limit) usleep(200);
    int s = atomic_load(&r[i]->status);
    if (atomic_load(&r[i]->calls) == 0) fail("instance release: a callback never came", i, r[i]->mode);
    else if (s != 1 && s != 2) fail("instance release: status", s, i); /* Success or CallbackCancelled */
  }
  for (int i = 0; i < N; i++) wgpuBufferRelease(b[i]);
  wgpuBufferRelease(src);
  wgpuQueueRelease(queue);
  wgpuDeviceRelease(device);
  for (int i = 0; i < N; i++) rec_done(r[i]);
}

typedef struct {
  unsigned seed;
  int every_op_once; /* the warm-up: each kind once, in order */
} Worker;

static void one_op(Worker *w, int op) {
  switch (op) {
  case OP_MAP: op_map(&w->seed); break;
  case OP_WORKDONE: op_workdone(&w->seed); break;
  case OP_RELEASE_MAPPED: op_drop_mapped(&w->seed, 0); break;
  case OP_DESTROY_MAPPED: op_drop_mapped(&w->seed, 1); break;
  case OP_DEVICE: op_device(&w->seed); break;
  case OP_LARGE_VIEW: op_large_view(&w->seed); break;
  default: op_instance(&w->seed); break;
  }
  atomic_fetch_add(&g_ops[op], 1);
  atomic_fetch_add(&g_progress, 1);
}

static void *worker(void *arg) {
  Worker *w = arg;
  if (w->every_op_once) {
    for (int op = 0; op < OP_COUNT; op++) one_op(w, op);
    return NULL;
  }
  while (!atomic_load(&g_stop) && !atomic_load(&g_failed)) {
    /* Device and instance teardowns are slow on lavapipe: 1 in 200 each. */
    int x = rand_r(&w->seed) % 1000;
    int op = x < 5 ? OP_INSTANCE : x < 10 ? OP_DEVICE : x < 100 ? OP_RELEASE_MAPPED : x < 190 ? OP_DESTROY_MAPPED
             : x < 250 ? OP_LARGE_VIEW : x < 500 ? OP_WORKDONE : OP_MAP;
    one_op(w, op);
  }
  return NULL;
}

static void *pumper(void *arg) {
  (void)arg;
  while (!atomic_load(&g_stop)) {
    wgpuInstanceProcessEvents(g_instance);
    usleep(500);
  }
  return NULL;
}

/* Dumps every thread's stack (gdb, else eu-stack), then aborts. */
static void die_with_stacks(const char *why) {
  fprintf(stderr, "FAIL: %s; stacks of every thread:\n", why);
  fflush(stderr);
  char pid[32];
  snprintf(pid, sizeof pid, "%d", (int)getpid());
  pid_t child = fork();
  if (child == 0) {
    dup2(2, 1);
    execlp("gdb", "gdb", "-batch", "-nx", "-p", pid, "-ex", "thread apply all bt", (char *)NULL);
    execlp("eu-stack", "eu-stack", "-p", pid, (char *)NULL);
    fprintf(stderr, "(neither gdb nor eu-stack is installed)\n");
    _exit(127);
  }
  if (child > 0) waitpid(child, NULL, 0);
  abort();
}

/* Prints the line of /proc/self/maps that holds address a (the library and
 * offset of a code address). */
static void print_mapping(const char *what, unsigned long a) {
  static char buf[1 << 20];
  int fd = open("/proc/self/maps", O_RDONLY);
  if (fd < 0) return;
  ssize_t n, used = 0;
  while (used < (ssize_t)sizeof buf - 1 && (n = read(fd, buf + used, sizeof buf - 1 - used)) > 0) used += n;
  close(fd);
  buf[used] = 0;
  for (char *line = buf, *end; *line; line = end + 1) {
    end = strchr(line, '\n');
    if (!end) break;
    *end = 0;
    unsigned long lo, hi;
    if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && a >= lo && a < hi) {
      dprintf(2, "  %s %#lx is in: %s\n", what, a, line);
      return;
    }
  }
  dprintf(2, "  %s %#lx is in no mapping\n", what, a);
}

/* A crash report: the signal, the thread's name, the faulting pc and
 * address, where the pc and the return address on top of the stack lie (a
 * call through a bad pointer leaves the caller there), and a backtrace;
 * then the default action. A run once ended in SIGSEGV with no more to go
 * on than the shell's exit status 139. */
static void on_crash(int sig, siginfo_t *si, void *ucv) {
  char name[17] = {0};
  prctl(PR_GET_NAME, name);
  dprintf(2, "\nFAIL: signal %d (code %d, address %p) in thread %d '%s'\n", sig, si->si_code, si->si_addr, (int)gettid(),
          name);
#if defined(__x86_64__)
  ucontext_t *uc = ucv;
  unsigned long pc = (unsigned long)uc->uc_mcontext.gregs[REG_RIP];
  unsigned long sp = (unsigned long)uc->uc_mcontext.gregs[REG_RSP];
  print_mapping("pc", pc);
  print_mapping("stack top", *(unsigned long *)sp);
#else
  (void)ucv;
#endif
  void *frames[64];
  int n = backtrace(frames, 64);
  backtrace_symbols_fd(frames, n, 2);
  for (int i = 0; i < n; i++) print_mapping("frame", (unsigned long)frames[i]);
  signal(sig, SIG_DFL);
  raise(sig);
}

static void *watchdog(void *arg) {
  (void)arg;
  unsigned long long last = atomic_load(&g_progress);
  double last_t = now_s(), next_sample = g_sample_s > 0 ? last_t + g_sample_s : 0;
  while (!atomic_load(&g_stop)) {
    sleep(1);
    unsigned long long p = atomic_load(&g_progress);
    double t = now_s();
    if (next_sample > 0 && t >= next_sample) {
      /* A trend line while the threads run: the heap then also holds the
       * workers' in-flight objects and per-thread malloc caches. */
      struct mallinfo2 mi = mallinfo2();
      WGPUGlobalReport r;
      memset(&r, 0, sizeof r);
      wgpuGenerateReport(g_instance, &r);
      printf("  sample: %.0f s since start, %llu operations, heap in use: %zu KiB in arenas + %zu KiB mmapped; "
             "shared instance: %zu devices, %zu buffers allocated\n",
             t - g_t_start, p, mi.uordblks / 1024, mi.hblkhd / 1024, r.hub.devices.numAllocated,
             r.hub.buffers.numAllocated);
      fflush(stdout);
      next_sample = t + g_sample_s;
    }
    if (p != last) last = p, last_t = t;
    if (t - last_t > 60.0) die_with_stacks("no operation completed for 60 s (deadlock?)");
    if (t > g_deadline + 120.0) die_with_stacks("the run overstayed its time by 120 s");
  }
  return NULL;
}

static long rss_kib(void) {
  malloc_trim(0);
  FILE *f = fopen("/proc/self/statm", "r");
  long pages = 0, resident = 0;
  if (f) {
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    fclose(f);
  }
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Bytes of the malloc heap in use (allocated, not freed, including
 * allocations served by mmap), in KiB: unlike the RSS, free memory the
 * allocator keeps is not counted. */
static long heap_kib(void) {
  struct mallinfo2 mi = mallinfo2();
  return (long)((mi.uordblks + mi.hblkhd) / 1024);
}

/* Object counts of the shared instance (allocated, per kind). */
static void counts(size_t out[17]) {
  WGPUGlobalReport r;
  memset(&r, 0, sizeof r);
  for (int d = 0; d < 2; d++) wgpuDevicePoll(g_devices[d], 1, NULL);
  wgpuGenerateReport(g_instance, &r);
  const WGPURegistryReport *k = &r.hub.adapters;
  for (int i = 0; i < 17; i++) out[i] = k[i].numAllocated;
}

static void run_threads(Worker *ws, int n, int once) {
  pthread_t t[64], pump, dog;
  atomic_store(&g_stop, 0);
  pthread_create(&pump, NULL, pumper, NULL);
  pthread_create(&dog, NULL, watchdog, NULL);
  for (int i = 0; i < n; i++) {
    ws[i].every_op_once = once;
    pthread_create(&t[i], NULL, worker, &ws[i]);
  }
  if (!once) {
    while (now_s() < g_deadline && !atomic_load(&g_failed)) usleep(100 * 1000);
    atomic_store(&g_stop, 1);
  }
  for (int i = 0; i < n; i++) pthread_join(t[i], NULL);
  atomic_store(&g_stop, 1);
  pthread_join(pump, NULL);
  pthread_join(dog, NULL);
}

int main(int argc, char **argv) {
  const char *es = getenv("WGPU_SHIM_SOAK_SECONDS"), *et = getenv("WGPU_SHIM_SOAK_THREADS");
  double seconds = argc > 1 ? atof(argv[1]) : es ? atof(es) : 5.0;
  int threads = argc > 2 ? atoi(argv[2]) : et ? atoi(et) : 8;
  if (threads < 1) threads = 1;
  if (threads > 64) threads = 64;
  setenv("WGPU_SHIM_COMPAT", "standard", 1);
  const char *sample = getenv("WGPU_SHIM_SOAK_SAMPLE");
  g_sample_s = sample ? atof(sample) : 0;
  g_t_start = now_s();
  struct sigaction crash = {.sa_sigaction = on_crash, .sa_flags = SA_SIGINFO};
  sigaction(SIGSEGV, &crash, NULL);
  sigaction(SIGBUS, &crash, NULL);
  sigaction(SIGILL, &crash, NULL);
  sigaction(SIGFPE, &crash, NULL);
  wgpuSetLogCallback(on_log, NULL);
  wgpuSetLogLevel(WGPULogLevel_Warn);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  g_instance = ctx.instance;
  g_devices[0] = ctx.device;
  g_queues[0] = ctx.queue;
  g_devices[1] = new_device(g_instance);
  REQUIRE(g_devices[1] != NULL);
  g_queues[1] = wgpuDeviceGetQueue(g_devices[1]);
  for (int d = 0; d < 2; d++) g_src[d] = make_src(g_devices[d], g_queues[d]);

  Worker ws[64];
  for (int i = 0; i < threads; i++) ws[i] = (Worker){.seed = 0x9e3779b9u * (unsigned)(i + 1)};
  /* Warm-up: every operation on every thread, twice; then the baseline. */
  g_deadline = now_s() + 600.0;
  run_threads(ws, threads, 1);
  run_threads(ws, threads, 1);
  size_t before[17], after[17];
  counts(before);
  long rss0 = rss_kib(), heap0 = heap_kib();
  unsigned long long warm_ops = atomic_load(&g_progress);

  double t0 = now_s();
  g_deadline = t0 + seconds / 4;
  run_threads(ws, threads, 0);
  long rss_quarter = rss_kib(), heap_quarter = heap_kib();
  g_deadline = t0 + seconds;
  run_threads(ws, threads, 0);
  double took = now_s() - t0;

  counts(after);
  long rss1 = rss_kib(), heap1 = heap_kib();
  if (getenv("WGPU_SHIM_SOAK_EXIT_AT_END")) {
    /* For a heap profiler (heaptrack): what is still allocated here, with
     * the threads joined and nothing released yet, is what the run kept. */
    printf("soak: exiting at the end measurement (heap in use %ld KiB)\n", heap1);
    fflush(stdout);
    /* Under AddressSanitizer: the live allocations by allocating stack. */
    if (__sanitizer_print_memory_profile) __sanitizer_print_memory_profile(100, 40);
    _exit(0);
  }
  unsigned long long total = atomic_load(&g_progress) - warm_ops;
  printf("soak: %d threads, %.1f s, %llu operations (%.0f/s)\n", threads, took, total, total / took);
  for (int op = 0; op < OP_COUNT; op++) printf("  %-18s %llu\n", op_names[op], (unsigned long long)atomic_load(&g_ops[op]));
  printf("  callbacks issued %llu, run %llu\n", (unsigned long long)atomic_load(&g_issued),
         (unsigned long long)atomic_load(&g_called));
  printf("  RSS after warm-up %ld KiB, after the first quarter %ld KiB, at the end %ld KiB (%+ld KiB since the quarter)\n",
         rss0, rss_quarter, rss1, rss1 - rss_quarter);
  printf("  heap in use after warm-up %ld KiB, after the first quarter %ld KiB, at the end %ld KiB (%+ld KiB since the quarter)\n",
         heap0, heap_quarter, heap1, heap1 - heap_quarter);
  static const char *const kinds[17] = {"adapters",    "devices",         "queues",           "pipelineLayouts",
                                        "shaderModules", "bindGroupLayouts", "bindGroups",      "commandBuffers",
                                        "renderBundles", "renderPipelines", "computePipelines", "pipelineCaches",
                                        "querySets",   "buffers",         "textures",         "textureViews",
                                        "samplers"};
  for (int i = 0; i < 17; i++) {
    if (before[i] != after[i]) printf("  %s: %zu after warm-up, %zu at the end\n", kinds[i], before[i], after[i]);
    CHECK_EQ(after[i], before[i]);
  }
  printf("  object counts equal to the warm-up's: buffers %zu, devices %zu, queues %zu, command buffers %zu\n",
         after[13], after[1], after[2], after[7]);
  printf("  error-level log messages: %d\n", atomic_load(&g_error_logs));
  CHECK_EQ(atomic_load(&g_error_logs), 0);
  CHECK(!atomic_load(&g_failed));
  CHECK_EQ(atomic_load(&g_called), atomic_load(&g_issued));
  CHECK(rss1 - rss_quarter <= 16 * 1024 + rss_quarter / 10);
  CHECK(total > 0);

  for (int d = 0; d < 2; d++) wgpuBufferRelease(g_src[d]);
  wgpuQueueRelease(g_queues[1]);
  wgpuDeviceRelease(g_devices[1]);
  ctx_release(&ctx);
  return test_finish();
}
