/* Helpers for the mapping/, errors/ and objects/ tests (header-only).
 *
 * Include this header FIRST (before any system header): it selects POSIX
 * 2008 for the tests' POSIX calls under -std=c11. From another group use
 *   #include "../mapping/mapping_util.h"
 *
 * Every helper is `static inline` so that a test that does not use one gets no
 * unused-function warning. Every wait is bounded (MU_WAIT_NS), and the
 * harness's start_watchdog() ends a hung test with exit code 3. */
#ifndef WGPU_SHIM_MAPPING_UTIL_H
#define WGPU_SHIM_MAPPING_UTIL_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "harness.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Timeout of every bounded WaitAny in these tests: 10 s. */
/* 10 s, times WGPU_SHIM_TEST_TIME_SCALE (harness_time_scale). */
#define MU_WAIT_NS (10000000000ull * harness_time_scale())

/* ------------------------------------------------------------------------ */
/* Strings */

/* An output message that is non-empty, explicitly sized and readable. */
static inline int mu_msg_nonempty(WGPUStringView v) {
  return v.length != WGPU_STRLEN && v.length > 0 && v.data != NULL;
}

/* An output message that is empty (success). */
static inline int mu_msg_empty(WGPUStringView v) { return v.length == 0; }

/* A string view of explicit length (not NUL-terminated in general). */
static inline WGPUStringView mu_svn(const char *s, size_t n) {
  WGPUStringView v = {s, n};
  return v;
}

/* ------------------------------------------------------------------------ */
/* Waiting */

/* WaitAny on one future with a 10 s timeout. */
static inline WGPUWaitStatus mu_wait(WGPUInstance instance, WGPUFuture future) {
  WGPUFutureWaitInfo info = {future, 0};
  return wgpuInstanceWaitAny(instance, 1, &info, MU_WAIT_NS);
}

/* WaitAny on one future; also reports the `completed` flag. */
static inline WGPUWaitStatus mu_wait_completed(WGPUInstance instance, WGPUFuture future, int *completed) {
  WGPUFutureWaitInfo info = {future, 0};
  WGPUWaitStatus s = wgpuInstanceWaitAny(instance, 1, &info, MU_WAIT_NS);
  *completed = info.completed ? 1 : 0;
  return s;
}

/* Polls (ProcessEvents + short sleeps) until *counter >= target or ms pass.
 * Returns 1 when the counter got there. */
static inline int mu_poll_until(WGPUInstance instance, atomic_int *counter, int target, unsigned ms) {
  double deadline = now_s() + ms / 1000.0 * harness_time_scale();
  for (;;) {
    if (atomic_load(counter) >= target) return 1;
    if (now_s() > deadline) return 0;
    if (instance) wgpuInstanceProcessEvents(instance);
    sleep_ms(2);
  }
}

/* Waits (sleeping, no API call) until *counter >= target or ms pass. */
static inline int mu_sleep_until(atomic_int *counter, int target, unsigned ms) {
  double deadline = now_s() + ms / 1000.0 * harness_time_scale();
  for (;;) {
    if (atomic_load(counter) >= target) return 1;
    if (now_s() > deadline) return 0;
    sleep_ms(2);
  }
}

/* ------------------------------------------------------------------------ */
/* Buffer mapping */

typedef struct {
  atomic_int calls;
  atomic_int status;      /* WGPUMapAsyncStatus of the last call */
  atomic_int msg_nonempty; /* message of the last call was non-empty */
  atomic_int msg_empty;    /* message of the last call had length 0 */
  /* Filled only when `probe` is set (use only with non-spontaneous modes):
   * the buffer's map state seen inside the callback, and whether a const
   * range [probe_offset, probe_offset + 4) could be taken there. */
  WGPUBuffer probe;
  size_t probe_offset;
  atomic_int state_in_cb;
  atomic_int range_in_cb;
} MapResult;

static inline void mu_map_result_init(MapResult *r) {
  memset(r, 0, sizeof *r);
  atomic_init(&r->calls, 0);
  atomic_init(&r->status, 0);
  atomic_init(&r->msg_nonempty, 0);
  atomic_init(&r->msg_empty, 0);
  atomic_init(&r->state_in_cb, 0);
  atomic_init(&r->range_in_cb, 0);
}

static inline void mu_on_map(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)u2;
  MapResult *r = (MapResult *)u1;
  if (r->probe) {
    atomic_store(&r->state_in_cb, (int)wgpuBufferGetMapState(r->probe));
    atomic_store(&r->range_in_cb, wgpuBufferGetConstMappedRange(r->probe, r->probe_offset, 4) != NULL);
  }
  atomic_store(&r->msg_nonempty, mu_msg_nonempty(message));
  atomic_store(&r->msg_empty, mu_msg_empty(message));
  atomic_store(&r->status, (int)status);
  atomic_fetch_add(&r->calls, 1);
}

static inline WGPUBufferMapCallbackInfo mu_map_info(WGPUCallbackMode mode, MapResult *r) {
  WGPUBufferMapCallbackInfo info = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  info.mode = mode;
  info.callback = mu_on_map;
  info.userdata1 = r;
  return info;
}

static inline WGPUFuture mu_map_async(WGPUBuffer buffer, WGPUMapMode mode, size_t offset, size_t size,
                                      WGPUCallbackMode cbmode, MapResult *r) {
  return wgpuBufferMapAsync(buffer, mode, offset, size, mu_map_info(cbmode, r));
}

/* MapAsync (WaitAnyOnly) + bounded wait. Returns the callback status, or 0
 * when the wait failed or the callback did not run exactly once. */
static inline WGPUMapAsyncStatus mu_map_wait(WGPUInstance instance, WGPUBuffer buffer, WGPUMapMode mode,
                                             size_t offset, size_t size) {
  MapResult r;
  mu_map_result_init(&r);
  WGPUFuture f = mu_map_async(buffer, mode, offset, size, WGPUCallbackMode_WaitAnyOnly, &r);
  if (mu_wait(instance, f) != WGPUWaitStatus_Success) return (WGPUMapAsyncStatus)0;
  if (atomic_load(&r.calls) != 1) return (WGPUMapAsyncStatus)0;
  return (WGPUMapAsyncStatus)atomic_load(&r.status);
}

/* ------------------------------------------------------------------------ */
/* Error scopes */

typedef struct {
  int calls;
  WGPUPopErrorScopeStatus status;
  WGPUErrorType type;
  size_t msg_len; /* length as reported (SIZE_MAX if WGPU_STRLEN was used) */
  char msg[512];
} PopResult;

static inline void mu_on_pop(WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView message,
                             void *u1, void *u2) {
  (void)u2;
  PopResult *r = (PopResult *)u1;
  r->calls++;
  r->status = status;
  r->type = type;
  r->msg_len = message.length;
  size_t n = message.length == WGPU_STRLEN ? 0 : message.length;
  if (n > sizeof r->msg - 1) n = sizeof r->msg - 1;
  if (message.data && n) memcpy(r->msg, message.data, n);
  r->msg[n] = 0;
}

/* PopErrorScope (WaitAnyOnly) + bounded wait. Returns 1 when the callback ran
 * exactly once within the wait. */
static inline int mu_pop_full(WGPUInstance instance, WGPUDevice device, PopResult *r) {
  memset(r, 0, sizeof *r);
  WGPUPopErrorScopeCallbackInfo info = WGPU_POP_ERROR_SCOPE_CALLBACK_INFO_INIT;
  info.mode = WGPUCallbackMode_WaitAnyOnly;
  info.callback = mu_on_pop;
  info.userdata1 = r;
  WGPUFuture f = wgpuDevicePopErrorScope(device, info);
  if (mu_wait(instance, f) != WGPUWaitStatus_Success) return 0;
  return r->calls == 1;
}

/* Pops and returns the captured error type (NoError when none); returns
 * (WGPUErrorType)0 when the pop did not succeed. */
static inline WGPUErrorType mu_pop_type_dev(WGPUInstance instance, WGPUDevice device) {
  PopResult r;
  if (!mu_pop_full(instance, device, &r)) return (WGPUErrorType)0;
  if (r.status != WGPUPopErrorScopeStatus_Success) return (WGPUErrorType)0;
  return r.type;
}

static inline WGPUErrorType mu_pop_type(Ctx *ctx) { return mu_pop_type_dev(ctx->instance, ctx->device); }

/* Runs the statement(s) inside a Validation error scope and checks that a
 * validation error was (EXPECT_VALIDATION) or was not (EXPECT_NO_VALIDATION)
 * raised. */
#define EXPECT_VALIDATION(ctx, ...)                                                                   \
  do {                                                                                                \
    wgpuDevicePushErrorScope((ctx)->device, WGPUErrorFilter_Validation);                              \
    __VA_ARGS__;                                                                                      \
    harness_check_u64((uint64_t)mu_pop_type(ctx), (uint64_t)WGPUErrorType_Validation,                 \
                      "error type raised by `" #__VA_ARGS__ "`", "WGPUErrorType_Validation", __FILE__, \
                      __LINE__);                                                                      \
  } while (0)

#define EXPECT_NO_VALIDATION(ctx, ...)                                                                \
  do {                                                                                                \
    wgpuDevicePushErrorScope((ctx)->device, WGPUErrorFilter_Validation);                              \
    __VA_ARGS__;                                                                                      \
    harness_check_u64((uint64_t)mu_pop_type(ctx), (uint64_t)WGPUErrorType_NoError,                    \
                      "error type raised by `" #__VA_ARGS__ "`", "WGPUErrorType_NoError", __FILE__,    \
                      __LINE__);                                                                      \
  } while (0)

/* Number of uncaptured errors on ctx since `before`, after giving a late
 * (non-inline) report up to `ms` to arrive when none arrived yet, plus a short
 * grace period to catch duplicates. */
static inline int mu_uncaptured_since(Ctx *ctx, int before, unsigned ms) {
  volatile int *count = &ctx->uncaptured_errors;
  double deadline = now_s() + ms / 1000.0 * harness_time_scale();
  while (*count == before && now_s() < deadline) sleep_ms(2);
  sleep_ms(10);
  return *count - before;
}

/* ------------------------------------------------------------------------ */
/* GPU helpers */

/* Records src->dst copy, submits it, releases the temporaries. */
static inline void mu_copy(Ctx *ctx, WGPUBuffer src, uint64_t src_offset, WGPUBuffer dst, uint64_t dst_offset,
                           uint64_t size) {
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  wgpuCommandEncoderCopyBufferToBuffer(enc, src, src_offset, dst, dst_offset, size);
  submit_encoder(ctx, enc);
}

/* Reads `size` bytes (multiple of 4) of `src` (needs CopySrc) at `offset`
 * through a MapRead staging buffer and GetConstMappedRange. Returns 1 on
 * success. */
static inline int mu_read_buffer(Ctx *ctx, WGPUBuffer src, uint64_t offset, void *out, size_t size) {
  WGPUBuffer staging = make_buffer(ctx->device, size, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  if (!staging) return 0;
  mu_copy(ctx, src, offset, staging, 0, size);
  int ok = 0;
  if (mu_map_wait(ctx->instance, staging, WGPUMapMode_Read, 0, size) == WGPUMapAsyncStatus_Success) {
    const void *p = wgpuBufferGetConstMappedRange(staging, 0, size);
    if (p) {
      memcpy(out, p, size);
      ok = 1;
    }
    wgpuBufferUnmap(staging);
  }
  wgpuBufferRelease(staging);
  return ok;
}

/* A GPU job that takes time on any backend, including lavapipe (llvmpipe
 * caps a shader's loop at 65535 iterations in all, and folds chains of
 * multiply-adds, so the harness spin job stays short there): every
 * invocation runs `outer` (<= 60000) iterations of 16 non-foldable steps.
 * On lavapipe (2 cores) one workgroup of 60000 iterations is ~6.5 ms. */
static const char *const MU_DELAY_WGSL =
    "struct P { outer: u32, pad0: u32, pad1: u32, pad2: u32 }\n"
    "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
    "@group(0) @binding(1) var<uniform> p: P;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "  var x: u32 = id.x;\n"
    "  for (var i: u32 = 0u; i < p.outer; i = i + 1u) {\n"
    "    x = (x ^ (x >> 13u)) * 1664525u + 1013904223u; x = (x ^ (x >> 13u)) * 1664525u + 1013904223u; x = (x ^ (x >> 13u)) * 1664525u + 1013904223u; x = (x ^ (x >> 13u)) * 1664525u + 1013904223u; x = (x ^ (x >> 13u)) * 1664525u + 1013904223u; x = (x ^ (x >> 13u)) * 1664525u + 1013904223u; x = (x ^ (x >> 13u)) * 1664525u + 1013904223u; x = (x ^ (x >> 13u)) * 1664525u + 1013904223u; x = (x ^ (x >> 13u)) * 1664525u + 1013904223u; x = (x ^ (x >> 13u)) * 1664525u + 1013904223u; x = (x ^ (x >> 13u)) * 1664525u + 1013904223u; x = (x ^ (x >> 13u)) * 1664525u + 1013904223u; x = (x ^ (x >> 13u)) * 1664525u + 1013904223u; x = (x ^ (x >> 13u)) * 1664525u + 1013904223u; x = (x ^ (x >> 13u)) * 1664525u + 1013904223u; x = (x ^ (x >> 13u)) * 1664525u + 1013904223u; \n"
    "  }\n"
    "  out[id.x & 63u] = x;\n"
    "}\n";

/* Workgroups of MU_DELAY_WGSL for about 100 ms on lavapipe. */
#define MU_DELAY_100MS 15u

/* Records `workgroups` workgroups of the delay shader into `enc` (with
 * encode_compute_job: record the work that must wait for the job in the SAME
 * command buffer) and returns its output buffer (Storage | CopySrc, 256
 * bytes), which the caller releases. */
static inline WGPUBuffer mu_encode_delay(Ctx *ctx, WGPUCommandEncoder enc, uint32_t workgroups) {
  WGPUBuffer params = make_buffer(ctx->device, 16, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, 1);
  uint32_t *p = (uint32_t *)wgpuBufferGetMappedRange(params, 0, 16);
  if (p) {
    p[0] = 60000u;
    p[1] = p[2] = p[3] = 0;
  }
  wgpuBufferUnmap(params);
  WGPUBuffer out = encode_compute_job(ctx, enc, MU_DELAY_WGSL, params, workgroups, 1);
  wgpuBufferRelease(params);
  return out;
}

/* Submits one command buffer: the delay job, then (when non-NULL) a copy
 * job -> dst[0..256) (dst: CopyDst, >= 256 bytes; a Read map of dst then waits
 * for the job) and a copy read_src[0..256) -> scratch (read_src: CopySrc, >=
 * 256 bytes; a Write map of read_src then waits for the job). */
static inline void mu_gpu_delay(Ctx *ctx, uint32_t workgroups, WGPUBuffer dst, WGPUBuffer read_src) {
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPUBuffer job = mu_encode_delay(ctx, enc, workgroups);
  WGPUBuffer scratch = NULL;
  if (dst) wgpuCommandEncoderCopyBufferToBuffer(enc, job, 0, dst, 0, 256);
  if (read_src) {
    scratch = make_buffer(ctx->device, 512, WGPUBufferUsage_CopyDst, 0);
    wgpuCommandEncoderCopyBufferToBuffer(enc, job, 0, scratch, 0, 256);
    wgpuCommandEncoderCopyBufferToBuffer(enc, read_src, 0, scratch, 256, 256);
  }
  double t0 = now_s();
  submit_encoder(ctx, enc);
  double submit_s = now_s() - t0;
  /* A driver that runs the job inside the submit (llvmpipe's OpenGL runs
   * compute dispatches there) leaves no map pending behind it. (lavapipe's
   * Vulkan submit can take long too, waiting for the job before.) */
  if (workgroups >= MU_DELAY_100MS / 2 && submit_s >= 0.04 && harness_backend(ctx) == WGPUBackendType_OpenGL)
    harness_skip("the driver runs the delay job inside wgpuQueueSubmit (%.3f s there, OpenGL): "
                 "no map stays pending behind GPU work",
                 submit_s);
  if (scratch) wgpuBufferRelease(scratch);
  wgpuBufferRelease(job);
}

/* A Read map of dst waits for a delay job. */
static inline void mu_gpu_delay_into(Ctx *ctx, WGPUBuffer dst, uint32_t workgroups) {
  mu_gpu_delay(ctx, workgroups, dst, NULL);
}

/* A Write map of src waits for a delay job (the GPU reads src after it). */
static inline void mu_gpu_delay_reading(Ctx *ctx, WGPUBuffer src, uint32_t workgroups) {
  mu_gpu_delay(ctx, workgroups, NULL, src);
}

/* Fills `n` bytes with a pattern derived from `seed`. */
static inline void mu_fill(void *p, size_t n, uint32_t seed) {
  uint8_t *b = (uint8_t *)p;
  for (size_t i = 0; i < n; i++) b[i] = (uint8_t)((i * 131u + seed * 7u + (i >> 8)) & 0xFF);
}

/* A buffer of `size` bytes with `usage`, holding mu_fill(seed) contents
 * written through QueueWriteBuffer (usage must include CopyDst), followed by
 * an empty submit (wgpu-core performs QueueWriteBuffer writes at the next
 * submit; this keeps tests that are about something else independent of
 * that). */
static inline WGPUBuffer mu_buffer_with_data(Ctx *ctx, uint64_t size, WGPUBufferUsage usage, uint32_t seed) {
  WGPUBuffer b = make_buffer(ctx->device, size, usage, 0);
  uint8_t *tmp = (uint8_t *)malloc((size_t)size);
  mu_fill(tmp, (size_t)size, seed);
  wgpuQueueWriteBuffer(ctx->queue, b, 0, tmp, (size_t)size);
  free(tmp);
  submit_empty(ctx);
  return b;
}

/* ------------------------------------------------------------------------ */
/* Instances, adapters and devices of the test's own */

static inline WGPUInstance mu_create_instance(int multiple_devices_per_adapter) {
  WGPUInstanceFeatureName features[2] = {WGPUInstanceFeatureName_TimedWaitAny,
                                         WGPUInstanceFeatureName_MultipleDevicesPerAdapter};
  WGPUInstanceDescriptor desc = WGPU_INSTANCE_DESCRIPTOR_INIT;
  desc.requiredFeatureCount = multiple_devices_per_adapter ? 2 : 1;
  desc.requiredFeatures = features;
  return wgpuCreateInstance(&desc);
}

/* An adapter of `instance` (request_adapter, waited at most MU_WAIT_NS). */
static inline WGPUAdapter mu_request_adapter(WGPUInstance instance) { return request_adapter(instance, MU_WAIT_NS); }

typedef struct {
  int calls;
  WGPURequestDeviceStatus status;
  WGPUDevice device;
  int msg_nonempty;
  int msg_empty;
} DeviceRequest;

static inline void mu_on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message,
                                void *u1, void *u2) {
  (void)u2;
  DeviceRequest *r = (DeviceRequest *)u1;
  r->calls++;
  r->status = status;
  r->device = device;
  r->msg_nonempty = mu_msg_nonempty(message);
  r->msg_empty = mu_msg_empty(message);
}

/* RequestDevice (WaitAnyOnly) + bounded wait; fills *r and returns the
 * device (NULL on failure). */
static inline WGPUDevice mu_request_device(WGPUInstance instance, WGPUAdapter adapter,
                                           const WGPUDeviceDescriptor *desc, DeviceRequest *r) {
  memset(r, 0, sizeof *r);
  WGPURequestDeviceCallbackInfo cb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  cb.mode = WGPUCallbackMode_WaitAnyOnly;
  cb.callback = mu_on_device;
  cb.userdata1 = r;
  WGPUFuture f = wgpuAdapterRequestDevice(adapter, desc, cb);
  if (mu_wait(instance, f) != WGPUWaitStatus_Success) return NULL;
  return r->calls == 1 && r->status == WGPURequestDeviceStatus_Success ? r->device : NULL;
}

/* Device-lost callback record. */
typedef struct {
  atomic_int calls;
  atomic_int reason;
  atomic_int ptr_null;     /* the WGPUDevice const* itself was NULL */
  atomic_int pointee_null; /* *device was NULL */
  WGPUDevice pointee;
  void *userdata1;
  void *userdata2;
} LostRecord;

static inline void mu_on_lost(WGPUDevice const *device, WGPUDeviceLostReason reason, WGPUStringView message,
                              void *u1, void *u2) {
  (void)message;
  LostRecord *r = (LostRecord *)u1;
  r->userdata1 = u1;
  r->userdata2 = u2;
  atomic_store(&r->ptr_null, device == NULL);
  atomic_store(&r->pointee_null, device == NULL || *device == NULL);
  r->pointee = device ? *device : NULL;
  atomic_store(&r->reason, (int)reason);
  atomic_fetch_add(&r->calls, 1);
}

static inline void mu_lost_record_init(LostRecord *r) {
  memset(r, 0, sizeof *r);
  atomic_init(&r->calls, 0);
  atomic_init(&r->reason, 0);
  atomic_init(&r->ptr_null, 0);
  atomic_init(&r->pointee_null, 0);
}

/* Uncaptured-error callback record. */
typedef struct {
  atomic_int calls;
  atomic_int type;
  atomic_int msg_nonempty;
  WGPUDevice pointee;
  void *userdata2;
} ErrRecord;

static inline void mu_on_uncaptured(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message,
                                    void *u1, void *u2) {
  ErrRecord *r = (ErrRecord *)u1;
  r->pointee = device ? *device : NULL;
  r->userdata2 = u2;
  atomic_store(&r->msg_nonempty, mu_msg_nonempty(message));
  atomic_store(&r->type, (int)type);
  atomic_fetch_add(&r->calls, 1);
}

static inline void mu_err_record_init(ErrRecord *r) {
  memset(r, 0, sizeof *r);
  atomic_init(&r->calls, 0);
  atomic_init(&r->type, 0);
  atomic_init(&r->msg_nonempty, 0);
}

/* A device descriptor wired to the given records (either may be NULL). */
static inline WGPUDeviceDescriptor mu_device_desc(WGPUCallbackMode lost_mode, LostRecord *lost, ErrRecord *err) {
  WGPUDeviceDescriptor d = WGPU_DEVICE_DESCRIPTOR_INIT;
  if (lost) {
    d.deviceLostCallbackInfo.mode = lost_mode;
    d.deviceLostCallbackInfo.callback = mu_on_lost;
    d.deviceLostCallbackInfo.userdata1 = lost;
  }
  if (err) {
    d.uncapturedErrorCallbackInfo.callback = mu_on_uncaptured;
    d.uncapturedErrorCallbackInfo.userdata1 = err;
  }
  return d;
}

/* A buffer descriptor that is always a validation error (MapRead|MapWrite). */
static inline WGPUBuffer mu_bad_buffer(WGPUDevice device) {
  return make_buffer(device, 16, WGPUBufferUsage_MapRead | WGPUBufferUsage_MapWrite, 0);
}

/* The WGSL doubling shader used by the compute tests. */
static const char *const MU_DOUBLE_WGSL =
    "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "  if (id.x < arrayLength(&data)) {\n"
    "    data[id.x] = data[id.x] * 2u;\n"
    "  }\n"
    "}\n";

#endif
