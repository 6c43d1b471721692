/* wgpu-shim benchmarks: one program for any webgpu.h library.
 *
 *   bench --lib PATH [--scenario NAME[,NAME...]] [--strategy S[,S...]]
 *         [--iterations N] [--quick] [--samples] [--job-ms MS] [--job-units N]
 *         [--wake-ms MS[,MS...]] [--size BYTES] [--max-size BYTES] [--timeout S]
 *         [--backend B]
 *
 * The library is opened with dlopen and every function is resolved with dlsym
 * (falling back to wgpuGetProcAddress), so the same binary measures
 * wgpu-shim and wgpu-native. The library is recognised by its extensions:
 * wgpuShimInstanceCreateUserEvent (wgpu-shim, which also has wgpu.h's
 * wgpuDevicePoll) or wgpuDevicePoll alone (wgpu-native).
 *
 * Scenarios: info, calibrate, map_roundtrip, wait_cpu_cost, wakeup_latency,
 * futures_throughput, readback_bandwidth, api_overhead, scaling, all.
 * Strategies (how the application waits for a callback):
 *   waitany      wgpuInstanceWaitAny(UINT64_MAX), WaitAnyOnly callback
 *                (libraries with a working WaitAny: not wgpu-native)
 *   spin         wgpuInstanceProcessEvents in a loop, AllowProcessEvents
 *   spontaneous  AllowSpontaneous; the application thread sleeps on a
 *                pthread condition variable that the callback signals
 *                (not wgpu-native: it only calls back inside poll calls)
 *   poll         wgpuDevicePoll(device, wait=1, NULL), AllowProcessEvents
 *                (libraries with wgpu.h)
 *
 * Output: one JSON object per line on stdout. Every measured run verifies its
 * data and counts its callbacks; a failure prints {"error": ...} and exits
 * non-zero (1: verification, 2: usage, 3: timeout, 4: setup).
 */
#define _GNU_SOURCE
#if defined(_WIN32) && !defined(__USE_MINGW_ANSI_STDIO)
#define __USE_MINGW_ANSI_STDIO 1 /* C99 printf (%zu) on mingw-w64 */
#endif

#include "webgpu/webgpu.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- the few system calls that differ on Windows (mingw-w64; run under
 * Wine by scripts/wine-bench.sh) ----------------------------------------- */
#ifdef _WIN32
#include <windows.h>
#define BENCH_PRINTF gnu_printf /* what __USE_MINGW_ANSI_STDIO gives */
#define BENCH_DLOPEN(path) ((void *)LoadLibraryA(path))
#define BENCH_DLSYM(lib, name) ((void *)GetProcAddress((HMODULE)(lib), (name)))
static const char *bench_dlerror(void) {
  static char msg[64];
  snprintf(msg, sizeof msg, "LoadLibrary error %lu", (unsigned long)GetLastError());
  return msg;
}
static long bench_cpus_online(void) {
  SYSTEM_INFO si;
  GetSystemInfo(&si);
  return (long)si.dwNumberOfProcessors;
}
#else
#include <dirent.h>
#include <dlfcn.h>
#define BENCH_PRINTF printf
#define BENCH_DLOPEN(path) dlopen((path), RTLD_NOW | RTLD_LOCAL)
#define BENCH_DLSYM(lib, name) dlsym((lib), (name))
static const char *bench_dlerror(void) { return dlerror(); }
static long bench_cpus_online(void) { return sysconf(_SC_NPROCESSORS_ONLN); }
#endif

/* ---- the library's functions ------------------------------------------- */

/* (required, name without the wgpu prefix) */
#define API(X)                                \
  X(1, CreateInstance)                        \
  X(0, GetInstanceLimits)                     \
  X(1, InstanceRequestAdapter)                \
  X(1, InstanceProcessEvents)                 \
  X(0, InstanceWaitAny)                       \
  X(1, InstanceRelease)                       \
  X(1, AdapterGetInfo)                        \
  X(1, AdapterGetLimits)                      \
  X(1, AdapterInfoFreeMembers)                \
  X(1, AdapterRequestDevice)                  \
  X(1, AdapterRelease)                        \
  X(1, DeviceGetQueue)                        \
  X(1, DeviceGetLimits)                       \
  X(1, DeviceCreateBuffer)                    \
  X(1, DeviceCreateCommandEncoder)            \
  X(1, DeviceCreateShaderModule)              \
  X(1, DeviceCreateBindGroupLayout)           \
  X(1, DeviceCreatePipelineLayout)            \
  X(1, DeviceCreateComputePipeline)           \
  X(1, DeviceCreateBindGroup)                 \
  X(1, DeviceRelease)                         \
  X(1, QueueWriteBuffer)                      \
  X(1, QueueSubmit)                           \
  X(1, QueueOnSubmittedWorkDone)              \
  X(1, QueueRelease)                          \
  X(1, BufferMapAsync)                        \
  X(1, BufferGetConstMappedRange)             \
  X(1, BufferGetMappedRange)                  \
  X(0, BufferReadMappedRange)                 \
  X(1, BufferUnmap)                           \
  X(1, BufferRelease)                         \
  X(1, BufferDestroy)                         \
  X(1, BufferGetSize)                         \
  X(1, CommandEncoderCopyBufferToBuffer)      \
  X(1, CommandEncoderBeginComputePass)        \
  X(1, CommandEncoderFinish)                  \
  X(1, CommandEncoderRelease)                 \
  X(1, CommandBufferRelease)                  \
  X(1, ComputePassEncoderSetPipeline)         \
  X(1, ComputePassEncoderSetBindGroup)        \
  X(1, ComputePassEncoderDispatchWorkgroups)  \
  X(1, ComputePassEncoderEnd)                 \
  X(1, ComputePassEncoderRelease)             \
  X(1, ShaderModuleRelease)                   \
  X(1, BindGroupLayoutRelease)                \
  X(1, PipelineLayoutRelease)                 \
  X(1, ComputePipelineRelease)                \
  X(1, BindGroupRelease)

#define DECLARE_FN(req, name) WGPUProc##name name;
static struct {
  API(DECLARE_FN)
} W;
#undef DECLARE_FN

/* wgpu-native's extensions (from its wgpu.h, declared here by hand). */
typedef uint64_t NativeSubmissionIndex;
typedef WGPUBool (*PfnDevicePoll)(WGPUDevice device, WGPUBool wait, NativeSubmissionIndex const *index);
typedef uint32_t (*PfnGetVersion)(void);

static PfnDevicePoll native_device_poll;
static PfnGetVersion native_get_version;
static void *shim_create_user_event; /* presence only */

/* ---- small helpers ----------------------------------------------------- */

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t clock_ns(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t thread_cpu_ns(void) { return clock_ns(CLOCK_THREAD_CPUTIME_ID); }
static uint64_t process_cpu_ns(void) { return clock_ns(CLOCK_PROCESS_CPUTIME_ID); }

static WGPUStringView sv(const char *s) {
  WGPUStringView v = {s, WGPU_STRLEN};
  return v;
}

static const char *g_scenario = "setup"; /* for error lines */
static const char *g_library = "unknown";

/* Prints an error line (JSON) and exits. */
static void die(int code, const char *fmt, ...) __attribute__((noreturn, format(BENCH_PRINTF, 2, 3)));
static void json_escape(char *out, size_t cap, const char *s, size_t n);

static void die(int code, const char *fmt, ...) {
  char msg[1024], esc[2100];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "bench: %s: FAILED: %s\n", g_scenario, msg);
  json_escape(esc, sizeof esc, msg, strlen(msg));
  printf("{\"scenario\":\"%s\",\"library\":\"%s\",\"error\":\"%s\",\"verified\":false}\n", g_scenario,
         g_library, esc);
  fflush(stdout);
  fflush(stderr);
  _exit(code);
}

#define CHECK(cond, ...)          \
  do {                            \
    if (!(cond)) die(1, __VA_ARGS__); \
  } while (0)

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) die(4, "out of memory (%zu bytes)", n);
  return p;
}

static void *xcalloc(size_t n, size_t sz) {
  void *p = calloc(n ? n : 1, sz ? sz : 1);
  if (!p) die(4, "out of memory (%zu x %zu bytes)", n, sz);
  return p;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct {
  size_t n;
  double median, p99, mean, min, max;
} Stats;

/* Nearest-rank percentiles over a copy of v. */
static Stats stats_of(const double *v, size_t n) {
  Stats s = {0};
  s.n = n;
  if (n == 0) return s;
  double *c = xmalloc(n * sizeof *c);
  memcpy(c, v, n * sizeof *c);
  qsort(c, n, sizeof *c, cmp_double);
  double sum = 0;
  for (size_t i = 0; i < n; i++) sum += c[i];
  s.mean = sum / (double)n;
  s.min = c[0];
  s.max = c[n - 1];
  s.median = (n % 2) ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
  size_t k = (size_t)ceil(0.99 * (double)n);
  if (k < 1) k = 1;
  s.p99 = c[k - 1];
  free(c);
  return s;
}

/* ---- JSON lines -------------------------------------------------------- */

static char jbuf[1 << 20];
static size_t jlen;
static int jfirst;

static void json_escape(char *out, size_t cap, const char *s, size_t n) {
  size_t o = 0;
  for (size_t i = 0; i < n && s && o + 7 < cap; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      out[o++] = '\\';
      out[o++] = (char)c;
    } else if (c < 0x20) {
      o += (size_t)snprintf(out + o, cap - o, "\\u%04x", c);
    } else {
      out[o++] = (char)c;
    }
  }
  out[o] = 0;
}

static void japp(const char *fmt, ...) __attribute__((format(BENCH_PRINTF, 1, 2)));
static void japp(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(jbuf + jlen, sizeof jbuf - jlen, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof jbuf - jlen) die(4, "JSON line too long");
  jlen += (size_t)n;
}

static void jkey(const char *k) {
  japp("%s\"%s\":", jfirst ? "" : ",", k);
  jfirst = 0;
}

static void jstr(const char *k, const char *v) {
  char esc[2048];
  json_escape(esc, sizeof esc, v ? v : "", v ? strlen(v) : 0);
  jkey(k);
  japp("\"%s\"", esc);
}

static void jnum(const char *k, double v) {
  jkey(k);
  if (isfinite(v))
    japp("%.6g", v);
  else
    japp("null");
}

static void jint(const char *k, long long v) {
  jkey(k);
  japp("%lld", v);
}

static void jbool(const char *k, int v) {
  jkey(k);
  japp("%s", v ? "true" : "false");
}

static void jraw(const char *k, const char *raw) {
  jkey(k);
  japp("%s", raw);
}

static void jbegin(const char *scenario, const char *strategy) {
  jlen = 0;
  jfirst = 1;
  japp("{");
  jstr("scenario", scenario);
  jstr("strategy", strategy);
  jstr("library", g_library);
}

/* Median etc. in microseconds (values given in microseconds). */
static void jstats_us(const Stats *s) {
  jint("n", (long long)s->n);
  jnum("median_us", s->median);
  jnum("p99_us", s->p99);
  jnum("mean_us", s->mean);
  jnum("min_us", s->min);
  jnum("max_us", s->max);
}

static void jsamples(const char *k, const double *v, size_t n) {
  jkey(k);
  japp("[");
  for (size_t i = 0; i < n; i++) japp("%s%.3f", i ? "," : "", v[i]);
  japp("]");
}

static void jend(void) {
  japp("}\n");
  fwrite(jbuf, 1, jlen, stdout);
  fflush(stdout);
}

/* ---- options ----------------------------------------------------------- */

enum { S_WAITANY, S_SPIN, S_SPONT, S_POLL, S_COUNT };
static const char *const STRATEGY_NAMES[S_COUNT] = {"waitany", "spin", "spontaneous", "poll"};

static struct {
  const char *lib;
  char scenarios[512];
  int strategies[S_COUNT]; /* requested (all 0: every supported one) */
  long iterations;         /* 0: scenario default */
  int quick;
  int samples;
  double job_ms;
  long job_iters;
  double wake_ms[8]; /* wakeup_latency's job lengths (--wake-ms) */
  int n_wake_ms;     /* 0: the default, 10 and 100 ms (5 ms with --quick) */
  uint64_t size;
  uint64_t max_size;
  unsigned timeout_s;
  int verbose;
  int inject_fault; /* self-test: corrupt the expected data of one trip */
  WGPUBackendType backend; /* the adapter request's backendType (Undefined: any) */
} opt = {.job_ms = 0, .size = 4096, .timeout_s = 600};

static void usage(void) {
  fprintf(stderr,
          "usage: bench --lib PATH [--scenario NAME[,NAME...]] [--strategy S[,S...]]\n"
          "             [--iterations N] [--quick] [--samples] [--job-ms MS] [--job-units N]\n"
          "             [--wake-ms MS[,MS...]] [--size BYTES] [--max-size BYTES] [--timeout S]\n"
          "             [--verbose]\n"
          "             [--backend vulkan|d3d12|metal|opengl]\n"
          "             [--inject-fault]   (self-test: a map_roundtrip check must fail)\n"
          "scenarios: info calibrate map_roundtrip wait_cpu_cost wakeup_latency\n"
          "           futures_throughput readback_bandwidth api_overhead scaling all\n"
          "strategies: waitany spin spontaneous poll\n");
  exit(2);
}

static uint64_t parse_size(const char *s) {
  char *end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || v < 0) usage();
  switch (*end) {
    case 'k': case 'K': v *= 1024.0; end++; break;
    case 'm': case 'M': v *= 1024.0 * 1024.0; end++; break;
    case 'g': case 'G': v *= 1024.0 * 1024.0 * 1024.0; end++; break;
    default: break;
  }
  if (*end == 'i' || *end == 'I') end++;
  if (*end == 'b' || *end == 'B') end++;
  if (*end) usage();
  return (uint64_t)v;
}

static void parse_args(int argc, char **argv) {
  snprintf(opt.scenarios, sizeof opt.scenarios, "all");
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
#define NEXT() (i + 1 < argc ? argv[++i] : (usage(), ""))
    if (!strcmp(a, "--lib")) {
      opt.lib = NEXT();
    } else if (!strcmp(a, "--scenario")) {
      snprintf(opt.scenarios, sizeof opt.scenarios, "%s", NEXT());
    } else if (!strcmp(a, "--strategy")) {
      char tmp[256];
      snprintf(tmp, sizeof tmp, "%s", NEXT());
      for (char *t = strtok(tmp, ","); t; t = strtok(NULL, ",")) {
        int found = 0;
        for (int s = 0; s < S_COUNT; s++)
          if (!strcmp(t, STRATEGY_NAMES[s])) opt.strategies[s] = found = 1;
        if (!found) usage();
      }
    } else if (!strcmp(a, "--iterations")) {
      opt.iterations = strtol(NEXT(), NULL, 10);
      if (opt.iterations < 1) usage();
    } else if (!strcmp(a, "--quick")) {
      opt.quick = 1;
    } else if (!strcmp(a, "--samples")) {
      opt.samples = 1;
    } else if (!strcmp(a, "--job-ms")) {
      opt.job_ms = strtod(NEXT(), NULL);
      if (!(opt.job_ms > 0)) usage();
    } else if (!strcmp(a, "--wake-ms")) {
      /* wakeup_latency's job lengths, comma-separated milliseconds. */
      char tmp[256];
      snprintf(tmp, sizeof tmp, "%s", NEXT());
      opt.n_wake_ms = 0;
      for (char *t = strtok(tmp, ","); t; t = strtok(NULL, ",")) {
        char *end = NULL;
        double v = strtod(t, &end);
        if (end == t || *end || !(v > 0) || opt.n_wake_ms == (int)(sizeof opt.wake_ms / sizeof opt.wake_ms[0]))
          usage();
        opt.wake_ms[opt.n_wake_ms++] = v;
      }
      if (!opt.n_wake_ms) usage();
    } else if (!strcmp(a, "--job-units") || !strcmp(a, "--job-iters")) {
      opt.job_iters = strtol(NEXT(), NULL, 10);
      if (opt.job_iters < 1) usage();
    } else if (!strcmp(a, "--size")) {
      opt.size = parse_size(NEXT());
      if (opt.size < 4 || opt.size % 4) usage();
    } else if (!strcmp(a, "--max-size")) {
      opt.max_size = parse_size(NEXT());
    } else if (!strcmp(a, "--timeout")) {
      opt.timeout_s = (unsigned)strtoul(NEXT(), NULL, 10);
    } else if (!strcmp(a, "--backend")) {
      const char *b = NEXT();
      if (!strcmp(b, "vulkan")) opt.backend = WGPUBackendType_Vulkan;
      else if (!strcmp(b, "d3d12")) opt.backend = WGPUBackendType_D3D12;
      else if (!strcmp(b, "metal")) opt.backend = WGPUBackendType_Metal;
      else if (!strcmp(b, "opengl")) opt.backend = WGPUBackendType_OpenGL;
      else usage();
    } else if (!strcmp(a, "--verbose")) {
      opt.verbose = 1;
    } else if (!strcmp(a, "--inject-fault")) {
      opt.inject_fault = 1;
    } else {
      usage();
    }
#undef NEXT
  }
  if (!opt.lib) usage();
}

/* ---- watchdog ---------------------------------------------------------- */

static void on_alarm(int sig) {
  (void)sig;
  static const char msg[] = "{\"scenario\":\"watchdog\",\"error\":\"timed out\",\"verified\":false}\n";
  ssize_t r = write(1, msg, sizeof msg - 1);
  (void)r;
  static const char msg2[] = "bench: FAILED: watchdog timeout\n";
  r = write(2, msg2, sizeof msg2 - 1);
  (void)r;
  _exit(3);
}

#ifdef _WIN32
/* No SIGALRM on Windows: a thread sleeps out the timeout instead. */
static void *watchdog_thread(void *arg) {
  (void)arg;
  Sleep((DWORD)opt.timeout_s * 1000u);
  on_alarm(0);
  return NULL;
}

static void start_watchdog(void) {
  pthread_t t;
  if (pthread_create(&t, NULL, watchdog_thread, NULL) == 0) pthread_detach(t);
}
#else
static void start_watchdog(void) {
  signal(SIGALRM, on_alarm);
  alarm(opt.timeout_s);
}
#endif

/* ---- state ------------------------------------------------------------- */

static struct {
  void *dl;
  int is_native, is_shim;
  WGPUInstance instance;
  WGPUAdapter adapter;
  WGPUDevice device;
  WGPUQueue queue;
  WGPULimits limits;
  WGPUAdapterType adapter_type;
  WGPUBackendType backend;
  char vendor[256], architecture[256], device_name[256], description[512];
  uint32_t vendor_id, device_id;
  int supported[S_COUNT];
  int default_strategy; /* for setup waits and verification maps */
} G;

static atomic_int g_device_errors;
static atomic_int g_device_lost;

static void check_device_errors(void) {
  int e = atomic_load(&g_device_errors);
  CHECK(e == 0, "%d device error(s) reported (see stderr)", e);
  CHECK(!atomic_load(&g_device_lost), "the device was lost");
}

/* ---- callbacks and waiting --------------------------------------------- */

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cv = PTHREAD_COND_INITIALIZER;

/* One awaited callback. */
typedef struct {
  atomic_int calls;
  atomic_int status;
  _Atomic uint64_t t_cb; /* when the callback started (CLOCK_MONOTONIC ns) */
} Rec;

static void rec_reset(Rec *r) {
  atomic_store(&r->calls, 0);
  atomic_store(&r->status, -1);
  atomic_store(&r->t_cb, 0);
}

static void rec_fire(Rec *r, int status) {
  uint64_t t = now_ns();
  atomic_store(&r->t_cb, t);
  atomic_store(&r->status, status);
  pthread_mutex_lock(&g_mu);
  atomic_fetch_add(&r->calls, 1);
  pthread_cond_broadcast(&g_cv);
  pthread_mutex_unlock(&g_mu);
}

static void on_map(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)u2;
  if (status != WGPUMapAsyncStatus_Success)
    fprintf(stderr, "bench: map status %d: %.*s\n", (int)status,
            message.data ? (int)(message.length == WGPU_STRLEN ? strlen(message.data) : message.length) : 0,
            message.data ? message.data : "");
  rec_fire((Rec *)u1, (int)status);
}

static void on_work_done(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)message;
  (void)u2;
  rec_fire((Rec *)u1, (int)status);
}

static WGPUCallbackMode mode_for(int strategy) {
  switch (strategy) {
    case S_WAITANY: return WGPUCallbackMode_WaitAnyOnly;
    case S_SPONT: return WGPUCallbackMode_AllowSpontaneous;
    default: return WGPUCallbackMode_AllowProcessEvents;
  }
}

/* Wall/CPU of one wait, filled by wait_rec. */
typedef struct {
  uint64_t t_start, t_end; /* wall */
  uint64_t cpu_start, cpu_end; /* this thread */
  uint64_t pcpu_start, pcpu_end; /* the whole process (library threads too) */
} WaitTimes;

/* Waits with `strategy` until r has `expected` calls; checks the count. */
static void wait_rec(int strategy, WGPUFuture future, Rec *r, int expected, WaitTimes *wt) {
  /* The CPU-time reads sit inside the wall-clock interval. */
  if (wt) {
    wt->t_start = now_ns();
    wt->pcpu_start = process_cpu_ns();
    wt->cpu_start = thread_cpu_ns();
  }
  switch (strategy) {
    case S_WAITANY: {
      CHECK(future.id != 0, "the operation returned the null future");
      while (atomic_load(&r->calls) < expected) {
        WGPUFutureWaitInfo info = {future, 0};
        WGPUWaitStatus st = W.InstanceWaitAny(G.instance, 1, &info, UINT64_MAX);
        CHECK(st == WGPUWaitStatus_Success, "wgpuInstanceWaitAny returned %d", (int)st);
        CHECK(info.completed, "wgpuInstanceWaitAny: Success without completed");
        break;
      }
      break;
    }
    case S_SPIN:
      while (atomic_load_explicit(&r->calls, memory_order_acquire) < expected) W.InstanceProcessEvents(G.instance);
      break;
    case S_SPONT:
      pthread_mutex_lock(&g_mu);
      while (atomic_load(&r->calls) < expected) pthread_cond_wait(&g_cv, &g_mu);
      pthread_mutex_unlock(&g_mu);
      break;
    case S_POLL: {
      long polls = 0;
      while (atomic_load(&r->calls) < expected) {
        native_device_poll(G.device, 1, NULL);
        CHECK(++polls < 1000000, "wgpuDevicePoll: no callback after %ld polls", polls);
      }
      break;
    }
    default: die(4, "bad strategy");
  }
  if (wt) {
    wt->cpu_end = thread_cpu_ns();
    wt->pcpu_end = process_cpu_ns();
    wt->t_end = now_ns();
  }
  CHECK(atomic_load(&r->calls) == expected, "callback ran %d times, expected %d", atomic_load(&r->calls),
        expected);
}

static WGPUFuture map_async(WGPUBuffer buf, uint64_t offset, uint64_t size, int strategy, Rec *r) {
  WGPUBufferMapCallbackInfo cb = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  cb.mode = mode_for(strategy);
  cb.callback = on_map;
  cb.userdata1 = r;
  return W.BufferMapAsync(buf, WGPUMapMode_Read, (size_t)offset, (size_t)size, cb);
}

static WGPUFuture work_done(int strategy, Rec *r) {
  WGPUQueueWorkDoneCallbackInfo cb = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  cb.mode = mode_for(strategy);
  cb.callback = on_work_done;
  cb.userdata1 = r;
  return W.QueueOnSubmittedWorkDone(G.queue, cb);
}

/* Maps buf for reading and waits (default strategy). */
static void map_read_sync(WGPUBuffer buf, uint64_t size) {
  Rec r;
  rec_reset(&r);
  WGPUFuture f = map_async(buf, 0, size, G.default_strategy, &r);
  wait_rec(G.default_strategy, f, &r, 1, NULL);
  CHECK(atomic_load(&r.status) == WGPUMapAsyncStatus_Success, "map failed: status %d", atomic_load(&r.status));
}

static void wait_idle(void) {
  Rec r;
  rec_reset(&r);
  WGPUFuture f = work_done(G.default_strategy, &r);
  wait_rec(G.default_strategy, f, &r, 1, NULL);
  CHECK(atomic_load(&r.status) == WGPUQueueWorkDoneStatus_Success, "work-done status %d", atomic_load(&r.status));
}

/* Spin helper for setup callbacks (adapter/device): ProcessEvents until set. */
static void spin_until(atomic_int *flag, const char *what) {
  uint64_t deadline = now_ns() + 60ull * 1000000000ull;
  while (!atomic_load(flag)) {
    W.InstanceProcessEvents(G.instance);
    if (now_ns() > deadline) die(4, "%s: no callback within 60 s", what);
  }
}

/* ---- objects ----------------------------------------------------------- */

static WGPUBuffer make_buffer(uint64_t size, WGPUBufferUsage usage, int mapped, const char *label) {
  WGPUBufferDescriptor d = WGPU_BUFFER_DESCRIPTOR_INIT;
  d.label = sv(label);
  d.size = size;
  d.usage = usage;
  d.mappedAtCreation = mapped ? 1 : 0;
  WGPUBuffer b = W.DeviceCreateBuffer(G.device, &d);
  if (!b) die(4, "wgpuDeviceCreateBuffer(%s, %" PRIu64 " bytes) returned NULL", label, size);
  return b;
}

static void submit_commands(WGPUCommandEncoder enc) {
  WGPUCommandBuffer cb = W.CommandEncoderFinish(enc, NULL);
  if (!cb) die(4, "wgpuCommandEncoderFinish returned NULL");
  W.QueueSubmit(G.queue, 1, &cb);
  W.CommandBufferRelease(cb);
  W.CommandEncoderRelease(enc);
}

static WGPUCommandEncoder encoder(void) {
  WGPUCommandEncoder e = W.DeviceCreateCommandEncoder(G.device, NULL);
  if (!e) die(4, "wgpuDeviceCreateCommandEncoder returned NULL");
  return e;
}

static void submit_empty(void) { submit_commands(encoder()); }

/* ---- data patterns ----------------------------------------------------- */

static inline uint32_t pat(uint64_t index, uint32_t seed) {
  uint32_t x = (uint32_t)index * 2654435761u ^ seed;
  return x ^ (x >> 15);
}

static void fill_pat(uint32_t *dst, uint64_t first_word, uint64_t words, uint32_t seed) {
  for (uint64_t i = 0; i < words; i++) dst[i] = pat(first_word + i, seed);
}

/* Index of the first mismatching word, or -1. */
static int64_t check_pat(const uint32_t *p, uint64_t first_word, uint64_t words, uint32_t seed) {
  for (uint64_t i = 0; i < words; i++)
    if (p[i] != pat(first_word + i, seed)) return (int64_t)i;
  return -1;
}

/* ---- the long GPU job -------------------------------------------------- */

/* One job: `count` invocations, each running `iters` x 8 steps of a hash
 * chain, results to a storage buffer and copied to a read-back buffer.
 * Its size is one number, `units`: on a GPU the iterations (the dispatch is
 * fixed at JOB_GPU_WORKGROUPS workgroups, enough to fill a large GPU); on a
 * CPU adapter (lavapipe) the workgroups, at JOB_CPU_ITERS iterations each,
 * because llvmpipe ends any shader loop after 65535 iterations in total. */
#define JOB_WG 64u
#define JOB_GPU_WORKGROUPS 4096u
#define JOB_CPU_ITERS 1024u
#define JOB_MAX_WORKGROUPS 65535u
static const char *const JOB_WGSL =
    "struct Params { iters: u32, seed: u32, count: u32, pad: u32 };\n"
    "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
    "@group(0) @binding(1) var<uniform> params: Params;\n"
    "fn step(x: u32) -> u32 {\n"
    "  let y = x * 1664525u + 1013904223u;\n"
    "  return y ^ (y >> 16u);\n"
    "}\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3<u32>) {\n"
    "  let i = gid.x;\n"
    "  if (i >= params.count) { return; }\n"
    "  var x = i ^ params.seed;\n"
    "  for (var k = 0u; k < params.iters; k = k + 1u) {\n"
    "    x = step(step(step(step(step(step(step(step(x))))))));\n"
    "  }\n"
    "  out[i] = x;\n"
    "}\n";

static uint32_t job_expect(uint32_t i, uint32_t seed, uint32_t iters) {
  uint32_t x = i ^ seed;
  for (uint64_t k = 0; k < (uint64_t)iters * 8u; k++) {
    x = x * 1664525u + 1013904223u;
    x = x ^ (x >> 16);
  }
  return x;
}

static struct {
  int ready;
  int cpu;
  WGPUShaderModule module;
  WGPUBindGroupLayout bgl;
  WGPUPipelineLayout layout;
  WGPUComputePipeline pipeline;
  WGPUBuffer params, out, readback;
  WGPUBindGroup group;
  uint32_t units;   /* calibrated for target_job_ms() */
  double job_ms;    /* measured duration of one job of `units` */
} J;

static uint32_t job_max_units(void) { return J.cpu ? JOB_MAX_WORKGROUPS : (1u << 24); }

static void job_shape(uint32_t units, uint32_t *iters, uint32_t *workgroups) {
  if (units < 1) units = 1;
  if (units > job_max_units()) units = job_max_units();
  *iters = J.cpu ? JOB_CPU_ITERS : units;
  *workgroups = J.cpu ? units : JOB_GPU_WORKGROUPS;
}

static uint32_t job_max_invocations(void) { return (J.cpu ? JOB_MAX_WORKGROUPS : JOB_GPU_WORKGROUPS) * JOB_WG; }

static void job_init(void) {
  if (J.ready) return;
  J.cpu = G.adapter_type == WGPUAdapterType_CPU;
  WGPUShaderSourceWGSL wgsl = WGPU_SHADER_SOURCE_WGSL_INIT;
  wgsl.code = sv(JOB_WGSL);
  WGPUShaderModuleDescriptor md = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
  md.nextInChain = &wgsl.chain;
  md.label = sv("bench job");
  J.module = W.DeviceCreateShaderModule(G.device, &md);
  WGPUBindGroupLayoutEntry e[2] = {WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT, WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT};
  e[0].binding = 0;
  e[0].visibility = WGPUShaderStage_Compute;
  e[0].buffer.type = WGPUBufferBindingType_Storage;
  e[1].binding = 1;
  e[1].visibility = WGPUShaderStage_Compute;
  e[1].buffer.type = WGPUBufferBindingType_Uniform;
  WGPUBindGroupLayoutDescriptor bd = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  bd.entryCount = 2;
  bd.entries = e;
  J.bgl = W.DeviceCreateBindGroupLayout(G.device, &bd);
  WGPUPipelineLayoutDescriptor pd = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
  pd.bindGroupLayoutCount = 1;
  pd.bindGroupLayouts = &J.bgl;
  J.layout = W.DeviceCreatePipelineLayout(G.device, &pd);
  WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  cd.layout = J.layout;
  cd.compute.module = J.module;
  cd.compute.entryPoint = sv("main");
  J.pipeline = W.DeviceCreateComputePipeline(G.device, &cd);
  if (!J.module || !J.bgl || !J.layout || !J.pipeline) die(4, "creating the job pipeline failed");
  uint64_t bytes = (uint64_t)job_max_invocations() * 4u;
  J.params = make_buffer(16, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, 0, "job params");
  J.out = make_buffer(bytes, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, 0, "job out");
  J.readback = make_buffer(bytes, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0, "job readback");
  WGPUBindGroupEntry ge[2] = {WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT};
  ge[0].binding = 0;
  ge[0].buffer = J.out;
  ge[0].size = bytes;
  ge[1].binding = 1;
  ge[1].buffer = J.params;
  ge[1].size = 16;
  WGPUBindGroupDescriptor gd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  gd.layout = J.bgl;
  gd.entryCount = 2;
  gd.entries = ge;
  J.group = W.DeviceCreateBindGroup(G.device, &gd);
  if (!J.group) die(4, "creating the job bind group failed");
  check_device_errors();
  J.ready = 1;
}

/* Queues one job (dispatch + copy to the read-back buffer) and submits it. */
static void job_submit(uint32_t units, uint32_t seed) {
  uint32_t iters, wgs;
  job_shape(units, &iters, &wgs);
  uint32_t params[4] = {iters, seed, wgs * JOB_WG, 0};
  W.QueueWriteBuffer(G.queue, J.params, 0, params, sizeof params);
  WGPUCommandEncoder enc = encoder();
  WGPUComputePassEncoder pass = W.CommandEncoderBeginComputePass(enc, NULL);
  W.ComputePassEncoderSetPipeline(pass, J.pipeline);
  W.ComputePassEncoderSetBindGroup(pass, 0, J.group, 0, NULL);
  W.ComputePassEncoderDispatchWorkgroups(pass, wgs, 1, 1);
  W.ComputePassEncoderEnd(pass);
  W.ComputePassEncoderRelease(pass);
  W.CommandEncoderCopyBufferToBuffer(enc, J.out, 0, J.readback, 0, (uint64_t)wgs * JOB_WG * 4u);
  submit_commands(enc);
}

/* After the job's completion was observed: maps the read-back buffer and
 * checks two invocations' results against the CPU. */
static void job_verify(uint32_t units, uint32_t seed) {
  uint32_t iters, wgs;
  job_shape(units, &iters, &wgs);
  uint32_t count = wgs * JOB_WG;
  uint64_t bytes = (uint64_t)count * 4u;
  map_read_sync(J.readback, bytes);
  const uint32_t *p = W.BufferGetConstMappedRange(J.readback, 0, (size_t)bytes);
  CHECK(p != NULL, "job read-back: GetConstMappedRange returned NULL");
  uint32_t idx[2] = {(seed * 7919u) % count, count - 1};
  for (int k = 0; k < 2; k++) {
    uint32_t want = job_expect(idx[k], seed, iters);
    CHECK(p[idx[k]] == want, "job result [%u] = %u, expected %u (iters %u seed %u)", idx[k], p[idx[k]], want,
          iters, seed);
  }
  W.BufferUnmap(J.readback);
}

/* Runs one job waited with the default strategy; returns its ms. */
static double job_run_once(uint32_t iters, uint32_t seed) {
  Rec r;
  rec_reset(&r);
  uint64_t t0 = now_ns();
  job_submit(iters, seed);
  WGPUFuture f = work_done(G.default_strategy, &r);
  wait_rec(G.default_strategy, f, &r, 1, NULL);
  double ms = (double)(now_ns() - t0) / 1e6;
  job_verify(iters, seed);
  return ms;
}

static double target_job_ms(void) {
  if (opt.job_ms > 0) return opt.job_ms;
  return opt.quick ? 20.0 : 100.0;
}

/* The fastest of three runs: other load only ever makes a run slower. */
static double job_measure(uint32_t units, uint32_t seed) {
  double best = 0;
  for (int k = 0; k < 3; k++) {
    double ms = job_run_once(units, seed + (uint32_t)k);
    if (k == 0 || ms < best) best = ms;
  }
  return best;
}

static void job_calibrate(void) {
  job_init();
  if (J.units) return;
  double target = target_job_ms();
  if (opt.job_iters) {
    J.units = (uint32_t)opt.job_iters;
    J.job_ms = job_measure(J.units, 1);
    return;
  }
  job_run_once(1, 1); /* warm-up (pipeline compilation on first use) */
  uint64_t units = 1;
  double ms = job_measure((uint32_t)units, 2);
  while (ms < target / 4.0 && units < job_max_units()) {
    units *= 4;
    if (units > job_max_units()) units = job_max_units();
    ms = job_measure((uint32_t)units, 3);
  }
  for (int round = 0; round < 2; round++) {
    double scaled = (double)units * target / (ms > 0.01 ? ms : 0.01);
    if (scaled > job_max_units()) scaled = job_max_units();
    if (scaled < 1) scaled = 1;
    units = (uint64_t)scaled;
    ms = job_measure((uint32_t)units, 4 + (uint32_t)round);
  }
  J.units = (uint32_t)units;
  J.job_ms = ms;
}

/* Units for a job of `ms` milliseconds, from the calibration. */
static uint32_t units_for_ms(double ms) {
  double v = (double)J.units * ms / target_job_ms();
  return v < 1 ? 1u : (uint32_t)v;
}

/* ---- per-thread CPU (schedstat) ---------------------------------------- */

typedef struct {
  int tid;
  char comm[32];
  uint64_t ns;
} ThreadCpu;

typedef struct {
  ThreadCpu t[512];
  int n;
} ThreadSnap;

static void snap_threads(ThreadSnap *s) {
  s->n = 0;
#ifdef _WIN32
  /* No /proc: the per-thread breakdown is left out on Windows (the waiting
   * thread's and the process's CPU are still measured). */
  return;
#else
  DIR *d = opendir("/proc/self/task");
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)) && s->n < (int)(sizeof s->t / sizeof s->t[0])) {
    if (e->d_name[0] == '.') continue;
    ThreadCpu *t = &s->t[s->n];
    t->tid = atoi(e->d_name);
    if (t->tid <= 0) continue;
    char path[96];
    snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", t->tid);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    unsigned long long ns = 0;
    int ok = fscanf(f, "%llu", &ns) == 1;
    fclose(f);
    if (!ok) continue;
    t->ns = ns;
    snprintf(path, sizeof path, "/proc/self/task/%d/comm", t->tid);
    f = fopen(path, "r");
    t->comm[0] = 0;
    if (f) {
      if (!fgets(t->comm, sizeof t->comm, f)) t->comm[0] = 0;
      fclose(f);
      t->comm[strcspn(t->comm, "\n")] = 0;
    }
    s->n++;
  }
  closedir(d);
#endif
}

/* Accumulated CPU per thread-name group across several waits. */
typedef struct {
  char name[32];
  double ms;
} CpuGroup;

typedef struct {
  CpuGroup g[64];
  int n;
} CpuGroups;

static void group_name(const char *comm, char *out, size_t cap, int main_tid, int tid) {
  if (tid == main_tid) {
    snprintf(out, cap, "waiting thread");
    return;
  }
  snprintf(out, cap, "%s", comm[0] ? comm : "?");
  /* Strip a trailing number so that worker pools form one group. */
  size_t n = strlen(out);
  while (n > 0 && (isdigit((unsigned char)out[n - 1]) || out[n - 1] == '-' || out[n - 1] == ':' ||
                   out[n - 1] == '_' || out[n - 1] == ' '))
    out[--n] = 0;
  if (!n) snprintf(out, cap, "?");
}

static void groups_add(CpuGroups *g, const ThreadSnap *a, const ThreadSnap *b) {
  int main_tid = (int)getpid();
  for (int i = 0; i < b->n; i++) {
    uint64_t before = 0;
    for (int j = 0; j < a->n; j++)
      if (a->t[j].tid == b->t[i].tid) before = a->t[j].ns;
    if (b->t[i].ns <= before) continue;
    char name[32];
    group_name(b->t[i].comm, name, sizeof name, main_tid, b->t[i].tid);
    int k;
    for (k = 0; k < g->n; k++)
      if (!strcmp(g->g[k].name, name)) break;
    if (k == g->n) {
      if (g->n == (int)(sizeof g->g / sizeof g->g[0])) continue;
      snprintf(g->g[k].name, sizeof g->g[k].name, "%s", name);
      g->g[k].ms = 0;
      g->n++;
    }
    g->g[k].ms += (double)(b->t[i].ns - before) / 1e6;
  }
}

/* Threads whose CPU counts as the cost of waiting: the waiting thread and
 * the library's own threads (wgpu-shim's are named "wgpu-shim ...").
 * Driver threads (lavapipe runs the "GPU" work on CPU threads, named after
 * the process or llvmpipe-N) are left out. */
static int is_wait_thread(const char *name) {
  return !strcmp(name, "waiting thread") || !strncmp(name, "wgpu", 4);
}

static void jgroups(const char *k, const CpuGroups *g, double wall_ms) {
  char raw[8192];
  size_t o = 0;
  raw[o++] = '{';
  for (int i = 0; i < g->n && o < sizeof raw - 200; i++) {
    char esc[96];
    json_escape(esc, sizeof esc, g->g[i].name, strlen(g->g[i].name));
    o += (size_t)snprintf(raw + o, sizeof raw - o, "%s\"%s\":%.4f", i ? "," : "", esc,
                          wall_ms > 0 ? g->g[i].ms / wall_ms : 0.0);
  }
  raw[o++] = '}';
  raw[o] = 0;
  jraw(k, raw);
}

/* ---- setup ------------------------------------------------------------- */

static void on_uncaptured_error(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message, void *u1,
                                void *u2) {
  (void)device;
  (void)u1;
  (void)u2;
  atomic_fetch_add(&g_device_errors, 1);
  fprintf(stderr, "bench: device error (type %d): %.*s\n", (int)type,
          message.data ? (int)(message.length == WGPU_STRLEN ? strlen(message.data) : message.length) : 0,
          message.data ? message.data : "");
}

static atomic_int g_releasing;
static void on_device_lost(WGPUDevice const *device, WGPUDeviceLostReason reason, WGPUStringView message,
                           void *u1, void *u2) {
  (void)device;
  (void)u1;
  (void)u2;
  if (atomic_load(&g_releasing)) return;
  atomic_store(&g_device_lost, 1);
  fprintf(stderr, "bench: device lost (reason %d): %.*s\n", (int)reason,
          message.data ? (int)(message.length == WGPU_STRLEN ? strlen(message.data) : message.length) : 0,
          message.data ? message.data : "");
}

static struct {
  atomic_int done;
  int status;
  WGPUAdapter adapter;
  WGPUDevice device;
} setup_cb;

static void on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message, void *u1,
                       void *u2) {
  (void)message;
  (void)u1;
  (void)u2;
  setup_cb.status = (int)status;
  setup_cb.adapter = adapter;
  atomic_store(&setup_cb.done, 1);
}

static void on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void *u1,
                      void *u2) {
  (void)u1;
  (void)u2;
  setup_cb.status = (int)status;
  setup_cb.device = device;
  if (status != WGPURequestDeviceStatus_Success)
    fprintf(stderr, "bench: device request failed: %.*s\n",
            message.data ? (int)(message.length == WGPU_STRLEN ? strlen(message.data) : message.length) : 0,
            message.data ? message.data : "");
  atomic_store(&setup_cb.done, 1);
}

static void copy_sv(char *dst, size_t cap, WGPUStringView v) {
  size_t n = 0;
  if (v.data) n = v.length == WGPU_STRLEN ? strlen(v.data) : v.length;
  if (n >= cap) n = cap - 1;
  if (n) memcpy(dst, v.data, n);
  dst[n] = 0;
}

static void resolve_api(void) {
  G.dl = BENCH_DLOPEN(opt.lib);
  if (!G.dl) die(4, "dlopen(%s): %s", opt.lib, bench_dlerror());
  /* wgpu-native's wgpuGetProcAddress panics (not implemented, aborting the
   * process): recognise it first and use only dlsym there. */
  int native = BENCH_DLSYM(G.dl, "wgpuDevicePoll") != NULL && BENCH_DLSYM(G.dl, "wgpuShimInstanceCreateUserEvent") == NULL;
  WGPUProcGetProcAddress gpa = native ? NULL : (WGPUProcGetProcAddress)BENCH_DLSYM(G.dl, "wgpuGetProcAddress");
#define RESOLVE(req, name)                                                            \
  do {                                                                                \
    void *p = BENCH_DLSYM(G.dl, "wgpu" #name);                                              \
    if (!p && gpa) p = (void *)gpa(sv("wgpu" #name));                                 \
    W.name = (WGPUProc##name)p;                                                       \
    if (!p && (req)) die(4, "%s does not export wgpu" #name, opt.lib);                 \
  } while (0);
  API(RESOLVE)
#undef RESOLVE
  native_device_poll = (PfnDevicePoll)BENCH_DLSYM(G.dl, "wgpuDevicePoll");
  native_get_version = (PfnGetVersion)BENCH_DLSYM(G.dl, "wgpuGetVersion");
  shim_create_user_event = BENCH_DLSYM(G.dl, "wgpuShimInstanceCreateUserEvent");
  if (!shim_create_user_event && gpa) shim_create_user_event = (void *)gpa(sv("wgpuShimInstanceCreateUserEvent"));
  G.is_shim = shim_create_user_event != NULL;
  G.is_native = native_device_poll != NULL && !G.is_shim;
  g_library = G.is_native ? "wgpu-native" : G.is_shim ? "wgpu-shim" : "unknown";
  /* wgpu-native: WaitAny aborts the process and callback modes are ignored
   * (callbacks only run inside wgpuDevicePoll / ProcessEvents). */
  G.supported[S_WAITANY] = !G.is_native && W.InstanceWaitAny != NULL;
  G.supported[S_SPIN] = 1;
  G.supported[S_SPONT] = !G.is_native;
  G.supported[S_POLL] = native_device_poll != NULL;
  G.default_strategy = G.supported[S_WAITANY] ? S_WAITANY : G.supported[S_POLL] ? S_POLL : S_SPIN;
}

static void setup(void) {
  WGPUInstanceDescriptor idesc = WGPU_INSTANCE_DESCRIPTOR_INIT;
  WGPUInstanceFeatureName feats[] = {WGPUInstanceFeatureName_TimedWaitAny};
  WGPUInstanceLimits ilimits = WGPU_INSTANCE_LIMITS_INIT;
  if (G.supported[S_WAITANY]) {
    /* wgpuInstanceWaitAny(UINT64_MAX) is a timed wait: it needs the feature,
     * and the futures scenarios list up to 100,000 futures at once. */
    idesc.requiredFeatureCount = 1;
    idesc.requiredFeatures = feats;
    if (W.GetInstanceLimits && W.GetInstanceLimits(&ilimits) == WGPUStatus_Success) {
      ilimits.nextInChain = NULL;
      idesc.requiredLimits = &ilimits;
    }
  }
  G.instance = W.CreateInstance(&idesc);
  if (!G.instance) die(4, "wgpuCreateInstance returned NULL");

  WGPURequestAdapterOptions ao = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
  ao.powerPreference = WGPUPowerPreference_HighPerformance;
  ao.backendType = opt.backend;
  WGPURequestAdapterCallbackInfo acb = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  acb.mode = WGPUCallbackMode_AllowProcessEvents;
  acb.callback = on_adapter;
  atomic_store(&setup_cb.done, 0);
  W.InstanceRequestAdapter(G.instance, &ao, acb);
  spin_until(&setup_cb.done, "wgpuInstanceRequestAdapter");
  if (setup_cb.status != WGPURequestAdapterStatus_Success || !setup_cb.adapter)
    die(4, "no adapter (status %d)", setup_cb.status);
  G.adapter = setup_cb.adapter;

  WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
  if (W.AdapterGetInfo(G.adapter, &info) != WGPUStatus_Success) die(4, "wgpuAdapterGetInfo failed");
  copy_sv(G.vendor, sizeof G.vendor, info.vendor);
  copy_sv(G.architecture, sizeof G.architecture, info.architecture);
  copy_sv(G.device_name, sizeof G.device_name, info.device);
  copy_sv(G.description, sizeof G.description, info.description);
  G.adapter_type = info.adapterType;
  G.backend = info.backendType;
  G.vendor_id = info.vendorID;
  G.device_id = info.deviceID;
  W.AdapterInfoFreeMembers(info);

  WGPULimits alim = WGPU_LIMITS_INIT;
  if (W.AdapterGetLimits(G.adapter, &alim) != WGPUStatus_Success) die(4, "wgpuAdapterGetLimits failed");
  WGPULimits req = WGPU_LIMITS_INIT;
  req.maxBufferSize = alim.maxBufferSize;
  req.maxStorageBufferBindingSize = alim.maxStorageBufferBindingSize;

  WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
  dd.label = sv("bench device");
  dd.requiredLimits = &req;
  dd.uncapturedErrorCallbackInfo.callback = on_uncaptured_error;
  dd.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowSpontaneous;
  dd.deviceLostCallbackInfo.callback = on_device_lost;
  WGPURequestDeviceCallbackInfo dcb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  dcb.mode = WGPUCallbackMode_AllowProcessEvents;
  dcb.callback = on_device;
  atomic_store(&setup_cb.done, 0);
  W.AdapterRequestDevice(G.adapter, &dd, dcb);
  spin_until(&setup_cb.done, "wgpuAdapterRequestDevice");
  if (setup_cb.status != WGPURequestDeviceStatus_Success || !setup_cb.device)
    die(4, "no device (status %d)", setup_cb.status);
  G.device = setup_cb.device;
  G.queue = W.DeviceGetQueue(G.device);
  if (!G.queue) die(4, "wgpuDeviceGetQueue returned NULL");
  G.limits = (WGPULimits)WGPU_LIMITS_INIT;
  if (W.DeviceGetLimits(G.device, &G.limits) != WGPUStatus_Success) die(4, "wgpuDeviceGetLimits failed");
}

static void teardown(void) {
  if (J.ready) {
    W.BindGroupRelease(J.group);
    W.BufferRelease(J.params);
    W.BufferRelease(J.out);
    W.BufferRelease(J.readback);
    W.ComputePipelineRelease(J.pipeline);
    W.PipelineLayoutRelease(J.layout);
    W.BindGroupLayoutRelease(J.bgl);
    W.ShaderModuleRelease(J.module);
  }
  atomic_store(&g_releasing, 1);
  W.QueueRelease(G.queue);
  W.DeviceRelease(G.device);
  W.AdapterRelease(G.adapter);
  W.InstanceRelease(G.instance);
}

/* ---- strategies to run ------------------------------------------------- */

/* Requested and supported strategies, in S_ order; returns the count. */
static int strategies(int *out) {
  int any = 0, n = 0;
  for (int s = 0; s < S_COUNT; s++) any |= opt.strategies[s];
  for (int s = 0; s < S_COUNT; s++)
    if (G.supported[s] && (!any || opt.strategies[s])) out[n++] = s;
  return n;
}

static long iters_or(long dflt_gpu, long dflt_cpu, long dflt_quick) {
  if (opt.iterations) return opt.iterations;
  if (opt.quick) return dflt_quick;
  return G.adapter_type == WGPUAdapterType_CPU ? dflt_cpu : dflt_gpu;
}

static int is_cpu_adapter(void) { return G.adapter_type == WGPUAdapterType_CPU; }

/* ---- scenario: info ---------------------------------------------------- */

static const char *backend_name(WGPUBackendType t) {
  switch (t) {
    case WGPUBackendType_Vulkan: return "Vulkan";
    case WGPUBackendType_Metal: return "Metal";
    case WGPUBackendType_D3D12: return "D3D12";
    case WGPUBackendType_D3D11: return "D3D11";
    case WGPUBackendType_OpenGL: return "OpenGL";
    case WGPUBackendType_OpenGLES: return "OpenGLES";
    case WGPUBackendType_WebGPU: return "WebGPU";
    case WGPUBackendType_Null: return "Null";
    default: return "Undefined";
  }
}

static const char *adapter_type_name(WGPUAdapterType t) {
  switch (t) {
    case WGPUAdapterType_DiscreteGPU: return "DiscreteGPU";
    case WGPUAdapterType_IntegratedGPU: return "IntegratedGPU";
    case WGPUAdapterType_CPU: return "CPU";
    default: return "Unknown";
  }
}

static void cpu_model(char *out, size_t cap) {
  snprintf(out, cap, "unknown");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    if (!strncmp(line, "model name", 10)) {
      char *c = strchr(line, ':');
      if (c) {
        c++;
        while (*c == ' ' || *c == '\t') c++;
        c[strcspn(c, "\n")] = 0;
        snprintf(out, cap, "%s", c);
      }
      break;
    }
  }
  fclose(f);
}

static void scenario_info(void) {
  char cpu[256];
  cpu_model(cpu, sizeof cpu);
  jbegin("info", "-");
  jstr("lib_path", opt.lib);
  if (native_get_version) {
    uint32_t v = native_get_version();
    char vs[64];
    snprintf(vs, sizeof vs, "%u.%u.%u.%u", (v >> 24) & 0xff, (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff);
    jstr("version", vs);
  }
  jstr("adapter_vendor", G.vendor);
  jstr("adapter_architecture", G.architecture);
  jstr("adapter_device", G.device_name);
  jstr("adapter_description", G.description);
  jstr("backend", backend_name(G.backend));
  jstr("adapter_type", adapter_type_name(G.adapter_type));
  jint("vendor_id", G.vendor_id);
  jint("device_id", G.device_id);
  jint("max_buffer_size", (long long)G.limits.maxBufferSize);
  jstr("cpu_model", cpu);
  jint("cpus_online", bench_cpus_online());
  {
    char st[128] = "";
    int n = 0;
    for (int s = 0; s < S_COUNT; s++)
      if (G.supported[s]) n += snprintf(st + n, sizeof st - (size_t)n, "%s%s", n ? "," : "", STRATEGY_NAMES[s]);
    jstr("strategies", st);
  }
  const char *icd = getenv("VK_ICD_FILENAMES");
  if (!icd) icd = getenv("VK_DRIVER_FILES");
  jstr("icd", icd ? icd : "");
  jbool("verified", 1);
  jend();
}

/* ---- scenario: calibrate ----------------------------------------------- */

static void scenario_calibrate(void) {
  job_calibrate();
  jbegin("calibrate", G.default_strategy >= 0 ? STRATEGY_NAMES[G.default_strategy] : "-");
  {
    uint32_t it, wg;
    job_shape(J.units, &it, &wg);
    jint("units", J.units);
    jint("shader_iterations", (long long)it * 8);
    jint("invocations", (long long)wg * JOB_WG);
  }
  jnum("target_ms", target_job_ms());
  jnum("job_ms", J.job_ms);
  jbool("verified", 1);
  jend();
}

/* ---- scenario: map_roundtrip ------------------------------------------- */

static void scenario_map_roundtrip(void) {
  int st[S_COUNT];
  int ns = strategies(st);
  long trips = iters_or(2000, 300, 20);
  long warm = opt.quick ? 3 : 5;
  uint64_t size = opt.size;
  uint64_t words = size / 4;
  WGPUBuffer src = make_buffer(size, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 0, "roundtrip src");
  WGPUBuffer dst = make_buffer(size, WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead, 0, "roundtrip dst");
  uint32_t *data = xmalloc(size);
  double *trip_us[S_COUNT], *wait_us[S_COUNT];
  double wait_wall[S_COUNT] = {0}, wait_cpu[S_COUNT] = {0}, wait_pcpu[S_COUNT] = {0};
  long callbacks[S_COUNT] = {0}, early_calls[S_COUNT] = {0};
  /* Phases: write+encode+submit, MapAsync call, read+verify, unmap. */
  static const char *const PHASES[4] = {"submit", "map_call", "read_verify", "unmap"};
  double *ph[S_COUNT][4];
  for (int i = 0; i < ns; i++) {
    trip_us[i] = xcalloc((size_t)trips, sizeof(double));
    wait_us[i] = xcalloc((size_t)trips, sizeof(double));
    for (int k = 0; k < 4; k++) ph[i][k] = xcalloc((size_t)trips, sizeof(double));
  }
  /* The strategies take turns in blocks of trips, so that drift (other
   * load, clocks) spreads over all of them, while each block runs in the
   * steady state of one strategy (the first `warm` trips of a block are not
   * counted: a strategy's first trips after another's pay for the switch). */
  long nblocks = opt.quick ? 1 : 10;
  if (nblocks > trips) nblocks = trips;
  long per_block = (trips + nblocks - 1) / nblocks;
  long counted[S_COUNT] = {0};
  long total = (per_block + warm) * nblocks * ns;
  uint32_t seed = 0x1234567u;
  for (long k = 0; k < total; k++) {
    long block = k / (per_block + warm); /* over all strategies */
    long in_block = k % (per_block + warm);
    int si = (int)(block % ns), s = st[si];
    long trip = -1;
    if (in_block >= warm && counted[si] < trips) trip = counted[si]++;
    seed = seed * 1664525u + 1013904223u;
    fill_pat(data, 0, words, seed);
    Rec r;
    rec_reset(&r);
    WaitTimes wt;
    uint64_t t0 = now_ns();
    W.QueueWriteBuffer(G.queue, src, 0, data, (size_t)size);
    WGPUCommandEncoder enc = encoder();
    W.CommandEncoderCopyBufferToBuffer(enc, src, 0, dst, 0, size);
    submit_commands(enc);
    uint64_t t_sub = now_ns();
    WGPUFuture f = map_async(dst, 0, size, s, &r);
    uint64_t t_map = now_ns();
    int early = atomic_load(&r.calls) != 0;
    wait_rec(s, f, &r, 1, &wt);
    CHECK(atomic_load(&r.status) == WGPUMapAsyncStatus_Success, "%s: map status %d", STRATEGY_NAMES[s],
          atomic_load(&r.status));
    const uint32_t *p = W.BufferGetConstMappedRange(dst, 0, (size_t)size);
    CHECK(p != NULL, "GetConstMappedRange returned NULL");
    if (opt.inject_fault && trip == 1) data[words / 2] ^= 1u;
    CHECK(memcmp(p, data, (size_t)size) == 0, "%s: read-back data differ (trip %ld)", STRATEGY_NAMES[s], trip);
    uint64_t t_read = now_ns();
    W.BufferUnmap(dst);
    uint64_t t1 = now_ns();
    if (trip >= 0) {
      trip_us[si][trip] = (double)(t1 - t0) / 1e3;
      ph[si][0][trip] = (double)(t_sub - t0) / 1e3;
      ph[si][1][trip] = (double)(t_map - t_sub) / 1e3;
      ph[si][2][trip] = (double)(t_read - wt.t_end) / 1e3;
      ph[si][3][trip] = (double)(t1 - t_read) / 1e3;
      early_calls[si] += early;
      wait_us[si][trip] = (double)(wt.t_end - wt.t_start) / 1e3;
      wait_wall[si] += (double)(wt.t_end - wt.t_start);
      wait_cpu[si] += (double)(wt.cpu_end - wt.cpu_start);
      wait_pcpu[si] += (double)(wt.pcpu_end - wt.pcpu_start);
      callbacks[si] += atomic_load(&r.calls);
    }
  }
  check_device_errors();
  for (int i = 0; i < ns; i++) {
    Stats s = stats_of(trip_us[i], (size_t)trips);
    Stats w = stats_of(wait_us[i], (size_t)trips);
    jbegin("map_roundtrip", STRATEGY_NAMES[st[i]]);
    jstats_us(&s);
    jnum("cpu_over_wall", wait_wall[i] > 0 ? wait_cpu[i] / wait_wall[i] : 0);
    /* Every thread of the process during the waits (library threads, e.g.
     * a driver spinning in its semaphore wait, count too). */
    jnum("process_cpu_over_wall", wait_wall[i] > 0 ? wait_pcpu[i] / wait_wall[i] : 0);
    /* CPU time per wait, in microseconds: the waiting thread, and every
     * thread of the process (nanosecond sums over `trips` waits). */
    jnum("cpu_us_per_wait", trips > 0 ? wait_cpu[i] / (double)trips / 1e3 : 0);
    jnum("process_cpu_us_per_wait", trips > 0 ? wait_pcpu[i] / (double)trips / 1e3 : 0);
    jnum("wait_median_us", w.median);
    jnum("wait_p99_us", w.p99);
    jnum("wait_mean_us", w.mean);
    for (int k = 0; k < 4; k++) {
      char key[64];
      Stats p = stats_of(ph[i][k], (size_t)trips);
      snprintf(key, sizeof key, "%s_median_us", PHASES[k]);
      jnum(key, p.median);
      snprintf(key, sizeof key, "%s_mean_us", PHASES[k]);
      jnum(key, p.mean);
      free(ph[i][k]);
    }
    /* Callbacks that had already run when MapAsync returned. */
    jint("callback_before_wait", early_calls[i]);
    jnum("throughput", s.mean > 0 ? 1e6 / s.mean : 0);
    jstr("throughput_unit", "trips/s");
    jint("bytes", (long long)size);
    jint("callbacks", callbacks[i]);
    jbool("verified", callbacks[i] == trips);
    if (opt.samples) jsamples("samples_us", trip_us[i], (size_t)trips);
    jend();
    CHECK(callbacks[i] == trips, "callbacks %ld != trips %ld", callbacks[i], trips);
    free(trip_us[i]);
    free(wait_us[i]);
  }
  free(data);
  W.BufferRelease(src);
  W.BufferRelease(dst);
}

/* ---- scenario: wait_cpu_cost ------------------------------------------- */

static void scenario_wait_cpu_cost(void) {
  job_calibrate();
  int st[S_COUNT];
  int ns = strategies(st);
  long reps = iters_or(5, 3, 1);
  double wall[S_COUNT] = {0}, tcpu[S_COUNT] = {0}, pcpu[S_COUNT] = {0};
  double *job_ms[S_COUNT];
  CpuGroups groups[S_COUNT];
  memset(groups, 0, sizeof groups);
  long callbacks[S_COUNT] = {0};
  for (int i = 0; i < ns; i++) job_ms[i] = xcalloc((size_t)reps, sizeof(double));
  static ThreadSnap a, b;
  uint32_t seed = 100;
  for (long rep = 0; rep < reps; rep++) {
    for (int i = 0; i < ns; i++) {
      int s = st[i];
      seed++;
      Rec r;
      rec_reset(&r);
      job_submit(J.units, seed);
      WGPUFuture f = work_done(s, &r);
      snap_threads(&a);
      uint64_t p0 = process_cpu_ns();
      WaitTimes wt;
      wait_rec(s, f, &r, 1, &wt);
      uint64_t p1 = process_cpu_ns();
      snap_threads(&b);
      CHECK(atomic_load(&r.status) == WGPUQueueWorkDoneStatus_Success, "work-done status %d",
            atomic_load(&r.status));
      double w = (double)(wt.t_end - wt.t_start);
      wall[i] += w;
      tcpu[i] += (double)(wt.cpu_end - wt.cpu_start);
      pcpu[i] += (double)(p1 - p0);
      job_ms[i][rep] = w / 1e6;
      groups_add(&groups[i], &a, &b);
      callbacks[i] += atomic_load(&r.calls);
      job_verify(J.units, seed);
    }
  }
  check_device_errors();
  for (int i = 0; i < ns; i++) {
    Stats s = stats_of(job_ms[i], (size_t)reps);
    for (size_t k = 0; k < (size_t)reps; k++) job_ms[i][k] *= 1000.0; /* to us for stats */
    Stats su = stats_of(job_ms[i], (size_t)reps);
    double wall_ms = wall[i] / 1e6;
    /* The waiting thread's own CPU comes from its thread clock, read inside
     * the wait: its /proc snapshot also counts the snapshots themselves
     * (reading every thread's schedstat costs the reading thread about as
     * much as a long wait does). The library's threads come from the
     * snapshots. */
    double wait_ms = tcpu[i] / 1e6;
    for (int g = 0; g < groups[i].n; g++)
      if (strcmp(groups[i].g[g].name, "waiting thread") && is_wait_thread(groups[i].g[g].name))
        wait_ms += groups[i].g[g].ms;
    jbegin("wait_cpu_cost", STRATEGY_NAMES[st[i]]);
    jstats_us(&su);
    jnum("job_ms", s.median);
    jnum("cpu_over_wall", wall[i] > 0 ? tcpu[i] / wall[i] : 0);
    jnum("process_cpu_over_wall", wall[i] > 0 ? pcpu[i] / wall[i] : 0);
    /* The waiting thread plus the library's threads (not the driver's). */
    jnum("wait_threads_cpu_over_wall", wall_ms > 0 ? wait_ms / wall_ms : 0);
    jgroups("threads_cpu_over_wall", &groups[i], wall_ms);
    jint("job_units", J.units);
    jint("callbacks", callbacks[i]);
    jbool("verified", callbacks[i] == reps);
    jend();
    free(job_ms[i]);
  }
}

/* ---- scenario: wakeup_latency ------------------------------------------ */

/* One job length: `reps` rounds of identical jobs, one per strategy, the
 * spin first. Besides when the callback ran, each wait's CPU is measured
 * from the start of the submission to the end of the wait ("over the whole
 * job"): the process's (CLOCK_PROCESS_CPUTIME_ID: every thread, the
 * library's and the driver's too; the bench's own threads are idle then:
 * the watchdog is an alarm, or a thread asleep on Windows) and the waiting
 * thread's (CLOCK_THREAD_CPUTIME_ID). On lavapipe the job itself runs on
 * the process's CPU threads, so its process figure is near 1 there. */
static void wakeup_run(double lat_ms, long reps) {
  int st[S_COUNT];
  int ns = strategies(st);
  /* The spin is the reference: it must run, and first in each round. */
  int order[S_COUNT], no = 0;
  order[no++] = S_SPIN;
  for (int i = 0; i < ns; i++)
    if (st[i] != S_SPIN) order[no++] = st[i];
  uint32_t iters = units_for_ms(lat_ms);
  double *d_cb[S_COUNT], *d_wake[S_COUNT], *diff[S_COUNT], *wdiff[S_COUNT], *d_submit[S_COUNT];
  double *pcw[S_COUNT], *tcw[S_COUNT]; /* CPU/wall, submit → end of the wait */
  for (int i = 0; i < no; i++) {
    d_submit[i] = xcalloc((size_t)reps, sizeof(double));
    d_cb[i] = xcalloc((size_t)reps, sizeof(double));
    d_wake[i] = xcalloc((size_t)reps, sizeof(double));
    diff[i] = xcalloc((size_t)reps, sizeof(double));
    wdiff[i] = xcalloc((size_t)reps, sizeof(double));
    pcw[i] = xcalloc((size_t)reps, sizeof(double));
    tcw[i] = xcalloc((size_t)reps, sizeof(double));
  }
  long callbacks[S_COUNT] = {0};
  uint32_t seed = 5000 + (uint32_t)(lat_ms * 16.0);
  job_submit(iters, seed); /* warm-up */
  wait_idle();
  job_verify(iters, seed);
  for (long rep = 0; rep < reps; rep++) {
    seed++;
    for (int i = 0; i < no; i++) {
      int s = order[i];
      Rec r;
      rec_reset(&r);
      /* Times are taken from the start of the submission: a driver may
       * spend part of the job inside vkQueueSubmit. */
      uint64_t t_sub = now_ns();
      job_submit(iters, seed); /* identical job for every strategy of a round */
      d_submit[i][rep] = (double)(now_ns() - t_sub) / 1e3;
      WGPUFuture f = work_done(s, &r);
      WaitTimes wt;
      wait_rec(s, f, &r, 1, &wt);
      CHECK(atomic_load(&r.status) == WGPUQueueWorkDoneStatus_Success, "work-done status %d",
            atomic_load(&r.status));
      d_cb[i][rep] = (double)(atomic_load(&r.t_cb) - t_sub) / 1e3;
      d_wake[i][rep] = (double)(wt.t_end - t_sub) / 1e3;
      /* CPU/wall of the wait itself, from after the submit and the
       * work-done call to the wake-up: what waiting for the job costs. The
       * submit's own CPU (over 100 µs on NVIDIA's driver for this job) is
       * the application's call, the same whatever the wait. */
      double wall = (double)(wt.t_end - wt.t_start);
      pcw[i][rep] = wall > 0 ? (double)(wt.pcpu_end - wt.pcpu_start) / wall : 0;
      tcw[i][rep] = wall > 0 ? (double)(wt.cpu_end - wt.cpu_start) / wall : 0;
      callbacks[i] += atomic_load(&r.calls);
      job_verify(iters, seed);
    }
    for (int i = 0; i < no; i++) {
      diff[i][rep] = d_cb[i][rep] - d_cb[0][rep];
      wdiff[i][rep] = d_wake[i][rep] - d_wake[0][rep];
    }
  }
  check_device_errors();
  for (int i = 0; i < no; i++) {
    Stats sd = stats_of(diff[i], (size_t)reps);
    Stats sw = stats_of(wdiff[i], (size_t)reps);
    Stats sc = stats_of(d_cb[i], (size_t)reps);
    Stats sk = stats_of(d_wake[i], (size_t)reps);
    jbegin("wakeup_latency", STRATEGY_NAMES[order[i]]);
    /* median_us/p99_us: callback start minus the spin's, same job. */
    jstats_us(&sd);
    jnum("wake_minus_spin_median_us", sw.median);
    jnum("wake_minus_spin_p99_us", sw.p99);
    jnum("callback_after_submit_median_us", sc.median);
    jnum("callback_after_submit_p99_us", sc.p99);
    jnum("wake_after_submit_median_us", sk.median);
    {
      Stats su = stats_of(d_submit[i], (size_t)reps);
      jnum("submit_call_median_us", su.median);
      free(d_submit[i]);
    }
    /* CPU/wall of the wait (after the submit call), medians over the
     * jobs: every thread of the process, and the waiting thread alone. */
    {
      Stats sp = stats_of(pcw[i], (size_t)reps);
      Stats sth = stats_of(tcw[i], (size_t)reps);
      jnum("process_cpu_wall_median", sp.median);
      jnum("thread_cpu_wall_median", sth.median);
      free(pcw[i]);
      free(tcw[i]);
    }
    jnum("job_ms", lat_ms);
    jint("job_units", iters);
    jint("callbacks", callbacks[i]);
    jbool("verified", callbacks[i] == reps);
    jend();
    free(d_cb[i]);
    free(d_wake[i]);
    free(diff[i]);
    free(wdiff[i]);
  }
}

/* Every job length of --wake-ms (default 10 and 100 ms; 5 ms with --quick),
 * one record per (job length, strategy). Jobs up to 20 ms run 40 times per
 * strategy (15 on a CPU adapter, as before: there the jobs share the CPUs
 * with the waiting threads and take longer than asked),
 * longer ones 12 times (3 with --quick; --iterations sets every count). */
static void scenario_wakeup_latency(void) {
  job_calibrate();
  static const double dflt[] = {10.0, 100.0}, quick[] = {5.0};
  const double *ms = opt.n_wake_ms ? opt.wake_ms : opt.quick ? quick : dflt;
  int n = opt.n_wake_ms ? opt.n_wake_ms : opt.quick ? 1 : 2;
  for (int k = 0; k < n; k++) wakeup_run(ms[k], ms[k] <= 20.0 ? iters_or(40, 15, 3) : iters_or(12, 12, 3));
}

/* ---- scenario: futures_throughput / scaling ---------------------------- */

static struct {
  atomic_uint *hits;
  atomic_long done;
  atomic_long bad;
  long target;
  int spont;
  _Atomic uint64_t t_last;
} FT;

static void on_many_done(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)message;
  (void)u2;
  size_t i = (size_t)(uintptr_t)u1;
  atomic_fetch_add_explicit(&FT.hits[i], 1, memory_order_relaxed);
  if (status != WGPUQueueWorkDoneStatus_Success) atomic_fetch_add(&FT.bad, 1);
  long n = atomic_fetch_add(&FT.done, 1) + 1;
  if (n == FT.target) {
    atomic_store(&FT.t_last, now_ns());
    if (FT.spont) {
      pthread_mutex_lock(&g_mu);
      pthread_cond_broadcast(&g_cv);
      pthread_mutex_unlock(&g_mu);
    }
  }
}

typedef struct {
  double total_us, register_us, deliver_us;
  long waitany_calls;
} FtResult;

static FtResult futures_once(int s, long count) {
  FtResult res = {0};
  FT.hits = xcalloc((size_t)count, sizeof(atomic_uint));
  atomic_store(&FT.done, 0);
  atomic_store(&FT.bad, 0);
  atomic_store(&FT.t_last, 0);
  FT.target = count;
  FT.spont = s == S_SPONT;
  WGPUFutureWaitInfo *infos = NULL;
  if (s == S_WAITANY) infos = xcalloc((size_t)count, sizeof *infos);
  submit_empty();
  uint64_t t0 = now_ns();
  WGPUQueueWorkDoneCallbackInfo cb = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  cb.mode = mode_for(s);
  cb.callback = on_many_done;
  for (long i = 0; i < count; i++) {
    cb.userdata1 = (void *)(uintptr_t)i;
    WGPUFuture f = W.QueueOnSubmittedWorkDone(G.queue, cb);
    if (infos) {
      CHECK(f.id != 0, "OnSubmittedWorkDone returned the null future");
      infos[i].future = f;
      infos[i].completed = 0;
    }
  }
  uint64_t t_reg = now_ns();
  switch (s) {
    case S_WAITANY: {
      size_t left = (size_t)count;
      while (atomic_load(&FT.done) < count) {
        WGPUWaitStatus ws = W.InstanceWaitAny(G.instance, left, infos, UINT64_MAX);
        res.waitany_calls++;
        CHECK(ws == WGPUWaitStatus_Success, "wgpuInstanceWaitAny(%zu futures) returned %d", left, (int)ws);
        size_t k = 0;
        for (size_t i = 0; i < left; i++)
          if (!infos[i].completed) infos[k++] = infos[i];
        CHECK(k < left, "wgpuInstanceWaitAny: Success without any completed future");
        left = k;
        if (left == 0) break;
      }
      break;
    }
    case S_SPIN:
      while (atomic_load(&FT.done) < count) W.InstanceProcessEvents(G.instance);
      break;
    case S_SPONT:
      pthread_mutex_lock(&g_mu);
      while (atomic_load(&FT.done) < count) pthread_cond_wait(&g_cv, &g_mu);
      pthread_mutex_unlock(&g_mu);
      break;
    case S_POLL: {
      long polls = 0;
      while (atomic_load(&FT.done) < count) {
        native_device_poll(G.device, 1, NULL);
        CHECK(++polls < 100000, "wgpuDevicePoll: callbacks missing after %ld polls", polls);
      }
      break;
    }
  }
  uint64_t t_end = atomic_load(&FT.t_last);
  uint64_t t_seen = now_ns();
  if (!t_end) t_end = t_seen;
  /* Nothing more may arrive: give late duplicates a chance, then check. */
  W.InstanceProcessEvents(G.instance);
  if (native_device_poll) native_device_poll(G.device, 0, NULL);
  CHECK(atomic_load(&FT.done) == count, "%ld callbacks for %ld futures", atomic_load(&FT.done), count);
  CHECK(atomic_load(&FT.bad) == 0, "%ld work-done callbacks with a failure status", atomic_load(&FT.bad));
  for (long i = 0; i < count; i++)
    CHECK(atomic_load(&FT.hits[i]) == 1, "future %ld: callback ran %u times", i, atomic_load(&FT.hits[i]));
  res.total_us = (double)(t_end - t0) / 1e3;
  res.register_us = (double)(t_reg - t0) / 1e3;
  /* Callbacks may all have run during registration (spontaneous mode). */
  res.deliver_us = t_end > t_reg ? (double)(t_end - t_reg) / 1e3 : 0.0;
  free(FT.hits);
  FT.hits = NULL;
  free(infos);
  return res;
}

static void futures_run(const char *scenario, const long *counts, int ncounts, long reps) {
  int st[S_COUNT];
  int ns = strategies(st);
  futures_once(G.default_strategy, 100); /* warm-up */
  for (int c = 0; c < ncounts; c++) {
    long count = counts[c];
    double *tot[S_COUNT], *reg[S_COUNT], *del[S_COUNT];
    long calls[S_COUNT] = {0};
    for (int i = 0; i < ns; i++) {
      tot[i] = xcalloc((size_t)reps, sizeof(double));
      reg[i] = xcalloc((size_t)reps, sizeof(double));
      del[i] = xcalloc((size_t)reps, sizeof(double));
    }
    for (long rep = 0; rep < reps; rep++) {
      for (int i = 0; i < ns; i++) {
        FtResult r = futures_once(st[i], count);
        tot[i][rep] = r.total_us;
        reg[i][rep] = r.register_us;
        del[i][rep] = r.deliver_us;
        calls[i] += r.waitany_calls;
      }
    }
    check_device_errors();
    for (int i = 0; i < ns; i++) {
      Stats t = stats_of(tot[i], (size_t)reps);
      Stats rg = stats_of(reg[i], (size_t)reps);
      Stats dl = stats_of(del[i], (size_t)reps);
      jbegin(scenario, STRATEGY_NAMES[st[i]]);
      jint("count", count);
      jstats_us(&t);
      jnum("throughput", t.median > 0 ? (double)count / (t.median / 1e6) : 0);
      jstr("throughput_unit", "callbacks/s");
      jnum("register_ns_per_future", rg.median * 1e3 / (double)count);
      jnum("deliver_median_us", dl.median);
      if (st[i] == S_WAITANY) jnum("waitany_calls_per_run", (double)calls[i] / (double)reps);
      jint("callbacks", count * reps);
      jbool("verified", 1);
      jend();
      free(tot[i]);
      free(reg[i]);
      free(del[i]);
    }
  }
}

static void scenario_futures_throughput(void) {
  static const long full[] = {10000, 100000};
  static const long quick[] = {1000, 10000};
  futures_run("futures_throughput", opt.quick ? quick : full, 2, iters_or(3, 3, 1));
}

static void scenario_scaling(void) {
  static const long full[] = {1, 10, 100, 1000, 10000, 100000};
  static const long quick[] = {1, 100, 10000};
  long reps = iters_or(2, 2, 1);
  if (opt.quick)
    futures_run("scaling", quick, 3, reps);
  else
    futures_run("scaling", full, 6, reps);
}

/* ---- scenario: readback_bandwidth -------------------------------------- */

enum { RB_CONST, RB_READ, RB_MEMCPY, RB_COUNT };
static const char *const RB_NAMES[RB_COUNT] = {"const_range_memcpy", "read_mapped_range", "memcpy"};

static void scenario_readback_bandwidth(void) {
  uint64_t cap = G.limits.maxBufferSize;
  uint64_t user_cap = opt.max_size;
  if (!user_cap) user_cap = opt.quick ? (1u << 20) : is_cpu_adapter() ? (256u << 20) : (1ull << 30);
  if (cap > user_cap) cap = user_cap;
  uint64_t step = opt.quick ? 16 : 4;
  uint64_t target_bytes = opt.quick ? (8u << 20) : is_cpu_adapter() ? (512u << 20) : (2ull << 30);
  const uint32_t seed = 0xC0FFEEu;
  for (uint64_t size = 4096; size <= cap; size *= step) {
    uint64_t words = size / 4;
    /* The buffer: MAP_READ, filled at creation, then mapped for reading. */
    WGPUBuffer buf = make_buffer(size, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 1, "readback");
    uint32_t *w = W.BufferGetMappedRange(buf, 0, (size_t)size);
    CHECK(w != NULL, "GetMappedRange (mappedAtCreation, %" PRIu64 " bytes) returned NULL", size);
    fill_pat(w, 0, words, seed);
    W.BufferUnmap(buf);
    submit_empty();
    uint64_t tm0 = now_ns();
    map_read_sync(buf, size);
    double map_us = (double)(now_ns() - tm0) / 1e3;
    uint32_t *dst = xmalloc(size);
    uint32_t *src = xmalloc(size);
    memset(dst, 0, size);
    fill_pat(src, 0, words, seed);
    /* Small sizes: several copies per timed sample. */
    uint64_t batch = size >= (1u << 20) ? 1 : (1u << 20) / size;
    uint64_t samples = target_bytes / (size * batch);
    if (samples < 5) samples = 5;
    if (samples > 200) samples = 200;
    /* The methods take turns sample by sample, so that they share the
     * machine's conditions (memory bandwidth varies on a shared host). */
    int have[RB_COUNT];
    double *us[RB_COUNT], first_us[RB_COUNT] = {0};
    for (int m = 0; m < RB_COUNT; m++) {
      have[m] = !(m == RB_READ && (!W.BufferReadMappedRange || G.is_native));
      us[m] = xcalloc((size_t)samples, sizeof(double));
    }
    const uint64_t stride = 1021; /* words between poisoned probes */
    for (uint64_t sidx = 0; sidx < samples; sidx++) {
      for (int m = 0; m < RB_COUNT; m++) {
        if (!have[m]) continue;
        if (sidx == 0)
          memset(dst, 0, size);
        else
          for (uint64_t i = sidx % stride; i < words; i += stride) dst[i] = ~pat(i, seed);
        uint64_t t0 = now_ns();
        for (uint64_t b = 0; b < batch; b++) {
          if (m == RB_CONST) {
            const void *p = W.BufferGetConstMappedRange(buf, 0, (size_t)size);
            if (!p) die(1, "GetConstMappedRange(%" PRIu64 ") returned NULL", size);
            memcpy(dst, p, size);
          } else if (m == RB_READ) {
            WGPUStatus rs = W.BufferReadMappedRange(buf, 0, dst, (size_t)size);
            if (rs != WGPUStatus_Success) die(1, "ReadMappedRange(%" PRIu64 ") failed", size);
          } else {
            memcpy(dst, src, size);
          }
          __asm__ __volatile__("" ::"r"(dst) : "memory");
        }
        uint64_t t1 = now_ns();
        us[m][sidx] = (double)(t1 - t0) / 1e3 / (double)batch;
        if (sidx == 0) {
          first_us[m] = us[m][sidx];
          int64_t bad = check_pat(dst, 0, words, seed);
          CHECK(bad < 0, "%s %" PRIu64 " bytes: word %" PRId64 " differs", RB_NAMES[m], size, bad);
        } else {
          for (uint64_t i = sidx % stride; i < words; i += stride)
            CHECK(dst[i] == pat(i, seed), "%s %" PRIu64 " bytes: probe %" PRIu64 " differs", RB_NAMES[m], size, i);
        }
      }
    }
    /* The unmap after the reads: with views that never go stale, the
     * view's pages are retired here (wgpu-shim, docs/MAPPING.md). */
    uint64_t tu0 = now_ns();
    W.BufferUnmap(buf);
    double unmap_us = (double)(now_ns() - tu0) / 1e3;
    for (int m = 0; m < RB_COUNT; m++) {
      if (!have[m]) {
        jbegin("readback_bandwidth", "mapped");
        jstr("variant", RB_NAMES[m]);
        jint("bytes", (long long)size);
        /* wgpu-native v29 exports it, but it panics ("not implemented"),
         * which aborts the process. */
        jstr("skipped", G.is_native ? "wgpuBufferReadMappedRange is not implemented in wgpu-native (panics)"
                                    : "wgpuBufferReadMappedRange not exported");
        jbool("verified", 1);
        jend();
        free(us[m]);
        continue;
      }
      Stats s = stats_of(us[m], (size_t)samples);
      jbegin("readback_bandwidth", m == RB_MEMCPY ? "-" : "mapped");
      jstr("variant", RB_NAMES[m]);
      jint("bytes", (long long)size);
      jstats_us(&s);
      jnum("throughput", s.median > 0 ? (double)size / (s.median * 1e3) : 0);
      jstr("throughput_unit", "GB/s");
      jnum("first_gbps", first_us[m] > 0 ? (double)size / (first_us[m] * 1e3) : 0);
      jint("batch", (long long)batch);
      if (m != RB_MEMCPY) {
        jnum("map_us", map_us);
        jnum("unmap_us", unmap_us);
      }
      jint("callbacks", 1);
      jbool("verified", 1);
      jend();
      free(us[m]);
    }
    W.BufferDestroy(buf);
    W.BufferRelease(buf);
    free(dst);
    free(src);
    check_device_errors();
  }
}

/* ---- scenario: api_overhead -------------------------------------------- */

/* Begins one api_overhead record: the median of the per-operation times
 * `us` (microseconds) is the figure (run.py adds the best round's median);
 * batch_ns is the mean over a loop of the operations back to back (< 0:
 * the operations cannot run back to back, e.g. each map needs a wait). */
static void api_begin(const char *variant, const double *us, long n, double batch_ns) {
  Stats s = stats_of(us, (size_t)n);
  jbegin("api_overhead", "-");
  jstr("variant", variant);
  jstats_us(&s);
  jnum("ns_per_op", s.median * 1e3);
  if (batch_ns >= 0) {
    jnum("mean_ns_per_op_batch", batch_ns);
    jnum("throughput", 1e9 / batch_ns);
    jstr("throughput_unit", "ops/s");
  }
}

/* Every operation is timed alone (two clock reads around the call), after
 * `warm` untimed ones; the same count for every variant (--iterations sets
 * it: benches/callgrind.sh runs a few hundred under valgrind). */
static void scenario_api_overhead(void) {
  long n = iters_or(20000, 5000, 300);
  long warm = n / 10 + 10;
  double *ns_op = xcalloc((size_t)n, sizeof(double));
  /* Buffer create + release. */
  WGPUBufferDescriptor d = WGPU_BUFFER_DESCRIPTOR_INIT;
  d.label = sv("small");
  d.size = 256;
  d.usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst;
  uint64_t tb0 = 0;
  for (long i = -warm; i < n; i++) {
    if (i == 0) tb0 = now_ns();
    uint64_t t0 = now_ns();
    WGPUBuffer b = W.DeviceCreateBuffer(G.device, &d);
    W.BufferRelease(b);
    uint64_t t1 = now_ns();
    if (!b) die(1, "wgpuDeviceCreateBuffer returned NULL");
    if (i >= 0) ns_op[i] = (double)(t1 - t0);
  }
  double batch_ns = (double)(now_ns() - tb0) / (double)n;
  check_device_errors();
  {
    /* Verify that created buffers work: one more, checked. */
    WGPUBuffer b = W.DeviceCreateBuffer(G.device, &d);
    CHECK(b && W.BufferGetSize(b) == 256, "buffer size check failed");
    W.BufferRelease(b);
  }
  for (long i = 0; i < n; i++) ns_op[i] /= 1e3; /* us */
  api_begin("buffer_create_release", ns_op, n, batch_ns);
  jint("bytes", 256);
  jint("callbacks", 0);
  jbool("verified", 1);
  jend();

  /* Empty command buffer: encode + finish + submit (+ releases). */
  wait_idle();
  for (long i = -warm; i < n; i++) {
    if (i == 0) tb0 = now_ns();
    uint64_t t0 = now_ns();
    WGPUCommandEncoder e = W.DeviceCreateCommandEncoder(G.device, NULL);
    WGPUCommandBuffer cb = W.CommandEncoderFinish(e, NULL);
    W.QueueSubmit(G.queue, 1, &cb);
    W.CommandBufferRelease(cb);
    W.CommandEncoderRelease(e);
    uint64_t t1 = now_ns();
    if (!e || !cb) die(1, "encoder/finish returned NULL");
    if (i >= 0) ns_op[i] = (double)(t1 - t0) / 1e3;
  }
  batch_ns = (double)(now_ns() - tb0) / (double)n;
  uint64_t tw = now_ns();
  wait_idle(); /* every submission completes: one callback */
  double drain_us = (double)(now_ns() - tw) / 1e3;
  check_device_errors();
  api_begin("empty_submit", ns_op, n, batch_ns);
  jnum("drain_us", drain_us);
  jint("callbacks", 1);
  jbool("verified", 1);
  jend();

  /* MapAsync, GetConstMappedRange and Unmap of an idle 4 KiB MAP_READ
   * buffer, each call timed alone, in one cycle per operation: MapAsync
   * (timed: the call only registers the request), the wait for its
   * callback (untimed, with the library's default strategy, as everywhere
   * in this program: WaitAny with a WaitAnyOnly callback on wgpu-shim,
   * wgpuDevicePoll with an AllowProcessEvents one on wgpu-native),
   * GetConstMappedRange of the whole buffer (timed: the first call on each
   * mapping, as an application makes it), then Unmap (timed); and the
   * whole cycle, wait included (map_cycle). No
   * submission uses the buffer, so each map is ready at the next poll. */
  {
    const uint64_t size = 4096;
    const uint32_t seed = 0xA11CE5u;
    WGPUBuffer mb = make_buffer(size, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 1, "api map");
    uint32_t *w = W.BufferGetMappedRange(mb, 0, (size_t)size);
    CHECK(w != NULL, "GetMappedRange (mappedAtCreation) returned NULL");
    fill_pat(w, 0, size / 4, seed);
    W.BufferUnmap(mb);
    submit_empty();
    wait_idle();
    double *t_map = xcalloc((size_t)n, sizeof(double));
    double *t_get = xcalloc((size_t)n, sizeof(double));
    double *t_unmap = xcalloc((size_t)n, sizeof(double));
    double *t_cycle = xcalloc((size_t)n, sizeof(double));
    const int ds = G.default_strategy;
    /* One record for every callback of the loop: each wait expects exactly
     * one more call, and the total is checked again after the loop, so a
     * callback that ran twice (or late) fails the run. */
    Rec mr;
    rec_reset(&mr);
    int cycles = 0;
    for (long i = -warm; i < n; i++) {
      uint64_t t0 = now_ns();
      WGPUFuture f = map_async(mb, 0, size, ds, &mr);
      uint64_t t1 = now_ns();
      wait_rec(ds, f, &mr, ++cycles, NULL);
      CHECK(atomic_load(&mr.status) == WGPUMapAsyncStatus_Success, "map status %d", atomic_load(&mr.status));
      uint64_t t2 = now_ns();
      const void *p = W.BufferGetConstMappedRange(mb, 0, (size_t)size);
      uint64_t t3 = now_ns();
      CHECK(p != NULL, "GetConstMappedRange returned NULL");
      uint64_t t4 = now_ns();
      W.BufferUnmap(mb);
      uint64_t t5 = now_ns();
      if (i >= 0) {
        t_map[i] = (double)(t1 - t0) / 1e3;
        t_get[i] = (double)(t3 - t2) / 1e3;
        t_unmap[i] = (double)(t5 - t4) / 1e3;
        /* The whole cycle (the wait and the checks between the calls
         * included): a library that moves work from one call into
         * another, or into the wait, shows it here. */
        t_cycle[i] = (double)(t5 - t0) / 1e3;
      }
    }
    /* Give a late duplicate its chance, then count. */
    W.InstanceProcessEvents(G.instance);
    if (native_device_poll) native_device_poll(G.device, 0, NULL);
    CHECK(atomic_load(&mr.calls) == cycles, "%d map callbacks for %d MapAsync calls", atomic_load(&mr.calls),
          cycles);
    /* The mapped bytes are still the ones written at creation. */
    map_read_sync(mb, size);
    const uint32_t *p = W.BufferGetConstMappedRange(mb, 0, (size_t)size);
    CHECK(p != NULL, "GetConstMappedRange returned NULL");
    int64_t bad = check_pat(p, 0, size / 4, seed);
    CHECK(bad < 0, "mapped range: word %" PRId64 " differs", bad);
    W.BufferUnmap(mb);
    check_device_errors();
    static const char *const NAMES[4] = {"map_async", "get_mapped_range", "unmap", "map_cycle"};
    double *times[4] = {t_map, t_get, t_unmap, t_cycle};
    for (int k = 0; k < 4; k++) {
      api_begin(NAMES[k], times[k], n, -1);
      jint("bytes", (long long)size);
      jint("callbacks", k == 0 ? n : 0);
      jbool("verified", 1);
      jend();
      free(times[k]);
    }
    W.BufferRelease(mb);
  }

  /* QueueWriteBuffer of 4 KiB into a COPY_DST buffer, each call timed
   * alone. A write's data waits in a staging buffer until the next
   * submission and is freed once that submission has completed: every 64
   * writes an empty command buffer is submitted, and every 1,024 the queue
   * is drained, both untimed and left out of the loop's mean, so that the
   * staging memory stays bounded (as in an application that submits every
   * frame) instead of growing by 4 KiB per operation. */
  {
    const uint64_t size = 4096;
    const uint32_t seed = 0x5EED5u;
    WGPUBuffer wb = make_buffer(size, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 0, "api write");
    uint32_t *src = xmalloc(size);
    fill_pat(src, 0, size / 4, seed);
    uint64_t excluded = 0; /* ns of the submits and drains inside the timed loop */
    for (long i = -warm; i < n; i++) {
      src[0] = (uint32_t)i; /* the last write is recognisable */
      if (i == 0) {
        tb0 = now_ns();
        excluded = 0;
      }
      uint64_t t0 = now_ns();
      W.QueueWriteBuffer(G.queue, wb, 0, src, (size_t)size);
      uint64_t t1 = now_ns();
      if (i >= 0) ns_op[i] = (double)(t1 - t0) / 1e3;
      long done = i + warm + 1;
      if (done % 64 == 0) {
        submit_empty();
        if (done % 1024 == 0) wait_idle();
        excluded += now_ns() - t1;
      }
    }
    batch_ns = (double)(now_ns() - tb0 - excluded) / (double)n;
    /* The buffer holds the last write: copy it to a MAP_READ buffer. */
    WGPUBuffer rb = make_buffer(size, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0, "api write check");
    WGPUCommandEncoder enc = encoder();
    W.CommandEncoderCopyBufferToBuffer(enc, wb, 0, rb, 0, size);
    submit_commands(enc);
    map_read_sync(rb, size);
    const uint32_t *p = W.BufferGetConstMappedRange(rb, 0, (size_t)size);
    CHECK(p != NULL, "GetConstMappedRange returned NULL");
    CHECK(p[0] == (uint32_t)(n - 1), "write_buffer: word 0 is %u, expected %ld (the last write)", p[0], n - 1);
    int64_t bad = check_pat(p + 1, 1, size / 4 - 1, seed);
    CHECK(bad < 0, "write_buffer: word %" PRId64 " differs", bad + 1);
    W.BufferUnmap(rb);
    W.BufferRelease(rb);
    W.BufferRelease(wb);
    free(src);
    check_device_errors();
    api_begin("write_buffer", ns_op, n, batch_ns);
    jint("bytes", (long long)size);
    jint("callbacks", 0);
    jbool("verified", 1);
    jend();
  }
  free(ns_op);
}

/* ---- main -------------------------------------------------------------- */

typedef struct {
  const char *name;
  void (*fn)(void);
} Scenario;

static const Scenario SCENARIOS[] = {
    {"info", scenario_info},
    {"calibrate", scenario_calibrate},
    {"map_roundtrip", scenario_map_roundtrip},
    {"wait_cpu_cost", scenario_wait_cpu_cost},
    {"wakeup_latency", scenario_wakeup_latency},
    {"futures_throughput", scenario_futures_throughput},
    {"readback_bandwidth", scenario_readback_bandwidth},
    {"api_overhead", scenario_api_overhead},
    {"scaling", scenario_scaling},
};
#define NSCEN ((int)(sizeof SCENARIOS / sizeof SCENARIOS[0]))

int main(int argc, char **argv) {
  parse_args(argc, argv);
  start_watchdog();
  resolve_api();
  for (int s = 0; s < S_COUNT; s++)
    if (opt.strategies[s] && !G.supported[s] && opt.verbose)
      fprintf(stderr, "bench: %s does not support strategy %s; skipped\n", g_library, STRATEGY_NAMES[s]);
  setup();
  int run[NSCEN] = {0};
  char tmp[512];
  snprintf(tmp, sizeof tmp, "%s", opt.scenarios);
  for (char *t = strtok(tmp, ","); t; t = strtok(NULL, ",")) {
    int found = 0;
    for (int i = 0; i < NSCEN; i++) {
      if (!strcmp(t, "all") ? i != 1 : !strcmp(t, SCENARIOS[i].name)) {
        run[i] = 1;
        found = 1;
      }
    }
    if (!found) {
      fprintf(stderr, "bench: unknown scenario %s\n", t);
      usage();
    }
  }
  run[0] = 1; /* info always */
  for (int i = 0; i < NSCEN; i++) {
    if (!run[i]) continue;
    g_scenario = SCENARIOS[i].name;
    uint64_t t0 = now_ns();
    SCENARIOS[i].fn();
    check_device_errors();
    if (opt.verbose)
      fprintf(stderr, "bench: %s: %s done in %.2f s\n", g_library, g_scenario, (double)(now_ns() - t0) / 1e9);
  }
  g_scenario = "teardown";
  teardown();
  /* Everything ran and verified, and every object was released: what
   * happens after this line (exit handlers) is the library's exit safety. */
  jbegin("done", "-");
  jbool("verified", 1);
  jend();
  return 0;
}
