/* Shared helpers for the wgpu-shim C tests.
 *
 * Every test program checks one rule. CHECK* macros count passes and failures;
 * test_finish() prints "N passed, M failed" and gives main's exit code. */
#ifndef WGPU_SHIM_TEST_HARNESS_H
#define WGPU_SHIM_TEST_HARNESS_H

#include <webgpu/webgpu.h>

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
/* Releases queue, device, adapter and instance (those that are non-NULL). */
void ctx_release(Ctx *ctx);

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
double thread_cpu_s(void);

/* A compute shader that spins for about `iterations` steps per invocation,
 * writing into a storage buffer at binding 0: for making long GPU jobs. */
extern const char *const HARNESS_SPIN_WGSL;
/* Encodes and submits `dispatches` dispatches of the spin shader on `ctx`
 * (creating its pipeline once per call) and returns the submitted buffer,
 * which the caller releases. `iterations` tunes the length. */
WGPUBuffer submit_spin_job(Ctx *ctx, uint32_t iterations, uint32_t dispatches);

/* How many devices `instance` has allocated (wgpu.h's wgpuGenerateReport):
 * for tests that check when released devices are freed. */
size_t harness_devices_allocated(WGPUInstance instance);

#ifdef __cplusplus
}
#endif

#endif
