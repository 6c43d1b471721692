/* Shared helpers for the wgpu-shim C tests.
 *
 * Every test program checks one rule. CHECK* macros count passes and failures;
 * test_finish() prints "N passed, M failed" and gives main's exit code. */
#ifndef WGPU_SHIM_TEST_HARNESS_H
#define WGPU_SHIM_TEST_HARNESS_H

#include <webgpu/webgpu.h>
#include <webgpu/wgpu.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

extern int harness_passed;
extern int harness_failed;

void harness_check(int ok, const char *expr, const char *file, int line);
void harness_check_u64(uint64_t a, uint64_t b, const char *ea, const char *eb, const char *file, int line);

#define CHECK(cond) harness_check(!!(cond), #cond, __FILE__, __LINE__)
#define CHECK_EQ(a, b) harness_check_u64((uint64_t)(a), (uint64_t)(b), #a, #b, __FILE__, __LINE__)
/* Aborts the test (counted as a failure) when a precondition does not hold. */
#define REQUIRE(cond)                                                                   \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      harness_check(0, #cond, __FILE__, __LINE__);                                      \
      return test_finish();                                                             \
    }                                                                                   \
  } while (0)

/* Prints the summary line and returns the process exit code. */
int test_finish(void);

/* A NUL-terminated string as a WGPUStringView. */
WGPUStringView sv(const char *s);
/* Whether a (non-NULL-terminated) output string view equals s. */
int sv_eq(WGPUStringView v, const char *s);
/* Whether an output string view contains s (case-sensitive). */
int sv_contains(WGPUStringView v, const char *s);
/* The length of a string view (WGPU_STRLEN: up to the NUL; 0 when data is NULL). */
size_t sv_len(WGPUStringView v);

typedef struct {
  WGPUInstance instance;
  WGPUAdapter adapter;
  WGPUDevice device;
  WGPUQueue queue;
  /* Uncaptured errors seen on the device (the callback counts them). */
  int uncaptured_errors;
  WGPUErrorType last_error_type;
  char last_error[512];
  /* Device lost callback. */
  int lost_calls;
  WGPUDeviceLostReason lost_reason;
  int lost_device_was_null;
} Ctx;

/* Creates an instance (with TimedWaitAny), an adapter and a device with the
 * uncaptured-error and device-lost callbacks wired into *ctx (lost mode:
 * AllowSpontaneous). Returns 0 on success. */
int ctx_init(Ctx *ctx);
/* Same, with the device-lost callback mode chosen by the caller. */
int ctx_init_mode(Ctx *ctx, WGPUCallbackMode lost_mode);
/* Same, with the device requested for *ddesc as the caller made it (wire
 * ctx_on_uncaptured / ctx_on_lost in, with ctx as userdata1, to count into
 * ctx). Returns 0 on success; -1 to -4 when no instance, adapter, device or
 * queue could be had. */
int ctx_init_desc(Ctx *ctx, const WGPUDeviceDescriptor *ddesc);
/* Releases queue, device, adapter and instance (those that are non-NULL). */
void ctx_release(Ctx *ctx);
/* The callbacks ctx_init wires in, for devices requested elsewhere: with the
 * Ctx as userdata1, the uncaptured-error one counts into uncaptured_errors,
 * last_error_type and last_error; the device-lost one into lost_calls,
 * lost_reason and lost_device_was_null. */
void ctx_on_uncaptured(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message, void *u1, void *u2);
void ctx_on_lost(WGPUDevice const *device, WGPUDeviceLostReason reason, WGPUStringView message, void *u1, void *u2);

/* An instance, with the TimedWaitAny feature when timed_wait_any is non-zero
 * (NULL on failure). */
WGPUInstance create_instance(int timed_wait_any);
/* Requests an adapter of `instance` (default options; WaitAnyOnly) whose
 * callback stores it in *out (NULL on failure, printing why); returns the
 * request's future, for the caller to wait on. */
WGPUFuture request_adapter_future(WGPUInstance instance, WGPUAdapter *out);
/* Requests a device of `adapter` for `desc` (NULL: defaults; WaitAnyOnly)
 * whose callback stores it in *out (NULL on failure, printing why); returns
 * the request's future, for the caller to wait on. */
WGPUFuture request_device_future(WGPUAdapter adapter, const WGPUDeviceDescriptor *desc, WGPUDevice *out);
/* Requests an adapter of `instance` (default options; WaitAnyOnly) and waits
 * for it at most timeout_ns (UINT64_MAX: no limit). NULL on failure. */
WGPUAdapter request_adapter(WGPUInstance instance, uint64_t timeout_ns);
/* Requests a device of `adapter` for `desc` (NULL: defaults; WaitAnyOnly)
 * and waits for it at most timeout_ns (UINT64_MAX: no limit). NULL on
 * failure. */
WGPUDevice request_device(WGPUInstance instance, WGPUAdapter adapter, const WGPUDeviceDescriptor *desc,
                          uint64_t timeout_ns);

/* WaitAny on one future with an infinite timeout; returns the status. */
WGPUWaitStatus wait_one(WGPUInstance instance, WGPUFuture future);

/* Buffer helpers. */
WGPUBuffer make_buffer(WGPUDevice device, uint64_t size, WGPUBufferUsage usage, int mapped_at_creation);
WGPUShaderModule make_wgsl(WGPUDevice device, const char *code);

/* How much longer the tests' hang watchdogs, bounded waits and wall-clock
 * bounds allow: WGPU_SHIM_TEST_TIME_SCALE (a positive integer, default 1;
 * scripts/valgrind.sh sets it, as memcheck runs the library tens of times
 * slower). */
unsigned harness_time_scale(void);

/* Seconds on a monotonic clock, and this thread's CPU seconds. */
double now_s(void);

/* Prints "SKIP: <why>" and exits with 77, which CTest reports as skipped:
 * for a test whose subject this adapter or backend does not have. */
void harness_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Reports SKIP when, on an OpenGL adapter, a GPU job's wgpuQueueSubmit took
 * submit_s and the wait after it only wait_s: the driver ran the job inside
 * the submit (llvmpipe's OpenGL runs compute dispatches there), so nothing
 * stays in flight for a test about waiting. (lavapipe's Vulkan submit can
 * take long too, but only waiting for the job before it.) */
void harness_skip_if_job_ran_in_submit(Ctx *ctx, double submit_s, double wait_s);

/* Under WGPU_BACKEND=gl, tells every instance create_instance makes from now
 * on about `display` (WGPUInstanceExtras.displayHandle, with backends GL;
 * WGPU_SHIM_COMPAT=standard keeps the standard's rules): the GL backend
 * presents only to windows of the display it was made with. */
void harness_set_instance_display(WGPUNativeDisplayHandle display);

/* The backend of ctx's adapter (Undefined if its info cannot be read). */
WGPUBackendType harness_backend(Ctx *ctx);
double thread_cpu_s(void);

/* Sleeps for `seconds` (no-op when <= 0), resuming after a signal. */
void sleep_s(double seconds);
/* Sleeps for `ms` milliseconds, resuming after a signal. */
void sleep_ms(unsigned ms);

#ifdef _WIN32
/* POSIX setenv, which the MinGW-w64 C runtime lacks (harness.c): sets the
 * variable both in the process environment, where the library reads it
 * (GetEnvironmentVariableW, as Rust's std::env::var does), and in the C
 * runtime's copy, which getenv reads. */
int setenv(const char *name, const char *value, int overwrite);
#endif

/* Starts a detached thread that ends the process with exit code 3 when the
 * test still runs after `seconds` times harness_time_scale(): a hung or
 * deadlocked library fails the test instead of stalling the run. Call first
 * in main. */
void start_watchdog(unsigned seconds);

/* CHECKs that the callback `name` ran `expected` times (it ran `calls`
 * times), naming it in the failure message. */
void check_callback_calls(const char *name, int calls, int expected, const char *file, int line);

/* Finishes enc, submits the command buffer on ctx's queue, releases both. */
void submit_encoder(Ctx *ctx, WGPUCommandEncoder enc);
/* Submits an empty command buffer. */
void submit_empty(Ctx *ctx);
/* Clears `texture` (a render attachment) to `color` in a render pass and
 * submits it. */
void clear_texture(Ctx *ctx, WGPUTexture texture, WGPUColor color);
/* Copies texel (0, 0) of `texture` (CopySrc) into a mappable buffer and
 * returns its first four bytes in the texture's format order; 1 when read. */
int read_texel_00(Ctx *ctx, WGPUTexture texture, uint8_t out[4]);

/* A compute shader that spins for about `iterations` steps per invocation,
 * writing into a storage buffer at binding 0: for making long GPU jobs. */
extern const char *const HARNESS_SPIN_WGSL;
/* Records into enc (outside any pass) one compute pass of `wgsl`'s entry
 * point "main" (auto layout) with a new 256-byte output buffer (Storage |
 * CopySrc) at group 0 binding 0 and `params` (a uniform buffer) at binding 1,
 * dispatching `workgroups` workgroups `dispatches` times. Returns the output
 * buffer, which the caller releases. For GPU jobs that take a while: work
 * that must wait for the job goes into the SAME command buffer (on lavapipe
 * a wgpuQueueSubmit blocks while an earlier submission runs, so a job in a
 * submission of its own is over when the next submit returns). */
WGPUBuffer encode_compute_job(Ctx *ctx, WGPUCommandEncoder enc, const char *wgsl, WGPUBuffer params,
                              uint32_t workgroups, uint32_t dispatches);
/* Records `dispatches` one-workgroup dispatches of the spin shader into enc
 * (encode_compute_job) and returns its output buffer, which the caller
 * releases. `iterations` tunes the length. */
WGPUBuffer encode_spin_job(Ctx *ctx, WGPUCommandEncoder enc, uint32_t iterations, uint32_t dispatches);
/* Encodes (encode_spin_job) and submits a spin job on `ctx` and returns the
 * submitted output buffer, which the caller releases. */
WGPUBuffer submit_spin_job(Ctx *ctx, uint32_t iterations, uint32_t dispatches);

/* Spin-job parameters found by calibrate_spin_job. */
typedef struct {
  uint32_t iterations;
  uint32_t dispatches;
  double seconds; /* measured length of the (shorter) last calibration job */
  int ok;         /* 1 when a job of at least the target length was found */
} SpinJob;

/* How calibrate_spin_job searches: at most `attempts` tries; after a short
 * job the next aims at target_s * margin, growing the dispatch count by a
 * factor of min_factor to 32; with scale_down, a first job over 2.5 x
 * target_s is scaled down (to aim at target_s * 1.4) once and measured
 * again. */
typedef struct {
  int attempts;
  double margin;
  double min_factor;
  int scale_down;
} SpinCalibration;

/* The length in seconds of one spin job of the given parameters on ctx,
 * from submit to work-done (-1 when the wait failed); `timed` tells whether
 * the instance has TimedWaitAny. */
typedef double (*SpinJobTimer)(Ctx *ctx, int timed, uint32_t iterations, uint32_t dispatches);

/* Finds spin-job parameters whose job, measured by time_job, takes at least
 * target_s twice in a row (so a run slowed down by other processes, ctest -j,
 * does not pass for a long job). On lavapipe the length of a spin job
 * follows the number of dispatches (about 2 ms each at 2^16 iterations) and
 * hardly the iteration count beyond that, so the dispatch count is what is
 * scaled; it is capped so that a broken wait (returning early) cannot grow a
 * job to minutes. */
SpinJob calibrate_spin_job(Ctx *ctx, int timed, double target_s, const SpinCalibration *how,
                           SpinJobTimer time_job);

/* How many devices `instance` has allocated (wgpu.h's wgpuGenerateReport):
 * for tests that check when released devices are freed. */
size_t harness_devices_allocated(WGPUInstance instance);

#ifdef __cplusplus
}
#endif

#endif
