/* wgpu-shim demo: a compute shader through the standard webgpu.h.
 *
 * Counts the Collatz steps of every n in 1..N on the GPU and checks every
 * result against the same computation on the CPU:
 *
 *   1. instance with the TimedWaitAny instance feature;
 *   2. adapter and device, each requested with a WaitAnyOnly callback and
 *      waited for with wgpuInstanceWaitAny;
 *   3. WGSL shader module, bind group layout, pipeline layout, compute pipeline;
 *   4. an input buffer filled through mappedAtCreation, an output storage
 *      buffer, a MAP_READ read-back buffer, and a bind group;
 *   5. one command buffer: a compute pass (dispatch) and a buffer copy;
 *   6. wgpuBufferMapAsync on the read-back buffer, waited for with
 *      wgpuInstanceWaitAny(UINT64_MAX), read with wgpuBufferGetConstMappedRange.
 *
 * Usage: compute [N]   (1 <= N <= 4194240, default 100000)
 *
 * Exit status 0 and a last line "OK" when every status was a success, no
 * device error was reported and every value matched; 1 otherwise (2 for a bad
 * argument). */
#define _POSIX_C_SOURCE 200809L

#include <webgpu/webgpu.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WORKGROUP_SIZE 64u
/* The shader and the CPU both stop counting here (u32 arithmetic wraps the
 * same way on both sides, so every n has one well-defined answer). */
#define MAX_STEPS 1000u
#define DEFAULT_N 100000u
/* maxComputeWorkgroupsPerDimension (default limit) times the workgroup size. */
#define MAX_N (65535u * WORKGROUP_SIZE)

static const char *const SHADER_WGSL =
    "@group(0) @binding(0) var<storage, read> numbers: array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> steps: array<u32>;\n"
    "\n"
    "const MAX_STEPS: u32 = 1000u;\n"
    "\n"
    "fn collatz_steps(start: u32) -> u32 {\n"
    "  var n = start;\n"
    "  var count = 0u;\n"
    "  while (n > 1u && count < MAX_STEPS) {\n"
    "    if ((n & 1u) == 1u) {\n"
    "      n = 3u * n + 1u;\n"
    "    } else {\n"
    "      n = n >> 1u;\n"
    "    }\n"
    "    count = count + 1u;\n"
    "  }\n"
    "  return count;\n"
    "}\n"
    "\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
    "  let i = id.x;\n"
    "  if (i >= arrayLength(&steps)) {\n"
    "    return;\n"
    "  }\n"
    "  steps[i] = collatz_steps(numbers[i]);\n"
    "}\n";

/* The shader's computation, in the same u32 arithmetic. *wrapped is set when
 * 3n + 1 overflowed 32 bits along the way (first for n = 159487): the count is
 * then not the true Collatz count, but the GPU must still agree with it. */
static uint32_t collatz_steps_cpu(uint32_t start, int *wrapped) {
  uint32_t n = start;
  uint32_t count = 0;
  while (n > 1u && count < MAX_STEPS) {
    if (n & 1u) {
      if (n > (UINT32_MAX - 1u) / 3u) *wrapped = 1;
      n = 3u * n + 1u;
    } else {
      n >>= 1;
    }
    count++;
  }
  return count;
}

/* ---- helpers ----------------------------------------------------------- */

static WGPUStringView sv(const char *s) {
  WGPUStringView v = {s, WGPU_STRLEN};
  return v;
}

/* Length of an output string view, for printf("%.*s"). */
static int sv_len(WGPUStringView v) {
  if (v.data == NULL) return 0;
  size_t n = v.length == WGPU_STRLEN ? strlen(v.data) : v.length;
  return n > (size_t)INT_MAX ? INT_MAX : (int)n;
}

static const char *sv_data(WGPUStringView v) { return v.data ? v.data : ""; }

static const char *backend_name(WGPUBackendType t) {
  switch (t) {
    case WGPUBackendType_Null: return "Null";
    case WGPUBackendType_WebGPU: return "WebGPU";
    case WGPUBackendType_D3D11: return "D3D11";
    case WGPUBackendType_D3D12: return "D3D12";
    case WGPUBackendType_Metal: return "Metal";
    case WGPUBackendType_Vulkan: return "Vulkan";
    case WGPUBackendType_OpenGL: return "OpenGL";
    case WGPUBackendType_OpenGLES: return "OpenGLES";
    default: return "Undefined";
  }
}

static const char *adapter_type_name(WGPUAdapterType t) {
  switch (t) {
    case WGPUAdapterType_DiscreteGPU: return "discrete GPU";
    case WGPUAdapterType_IntegratedGPU: return "integrated GPU";
    case WGPUAdapterType_CPU: return "CPU";
    default: return "unknown";
  }
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int failures = 0;

#define FAIL(...)                                \
  do {                                           \
    fprintf(stderr, "compute: FAILED: ");        \
    fprintf(stderr, __VA_ARGS__);                \
    fprintf(stderr, "\n");                       \
    failures++;                                  \
  } while (0)

/* ---- callbacks --------------------------------------------------------- */

/* The device callbacks may run on any thread (uncaptured errors and an
 * AllowSpontaneous device-lost callback), so their state is atomic, and it is
 * static so that it outlives everything that could still call back. */
static atomic_int uncaptured_errors;
static atomic_int device_lost_early; /* lost before we released the device */
static atomic_int releasing_device;

static void on_uncaptured_error(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message,
                                void *userdata1, void *userdata2) {
  (void)device;
  (void)userdata1;
  (void)userdata2;
  atomic_fetch_add(&uncaptured_errors, 1);
  fprintf(stderr, "compute: uncaptured device error (type %d): %.*s\n", (int)type, sv_len(message),
          sv_data(message));
}

static void on_device_lost(WGPUDevice const *device, WGPUDeviceLostReason reason, WGPUStringView message,
                           void *userdata1, void *userdata2) {
  (void)device;
  (void)userdata1;
  (void)userdata2;
  if (!atomic_load(&releasing_device)) {
    atomic_store(&device_lost_early, 1);
    fprintf(stderr, "compute: device lost (reason %d): %.*s\n", (int)reason, sv_len(message),
            sv_data(message));
  }
}

typedef struct {
  int calls;
  WGPURequestAdapterStatus status;
  WGPUAdapter adapter;
} AdapterResult;

static void on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message,
                       void *userdata1, void *userdata2) {
  (void)userdata2;
  AdapterResult *r = (AdapterResult *)userdata1;
  r->calls++;
  r->status = status;
  r->adapter = adapter;
  if (status != WGPURequestAdapterStatus_Success) {
    fprintf(stderr, "compute: adapter request: status %d: %.*s\n", (int)status, sv_len(message),
            sv_data(message));
  }
}

typedef struct {
  int calls;
  WGPURequestDeviceStatus status;
  WGPUDevice device;
} DeviceResult;

static void on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message,
                      void *userdata1, void *userdata2) {
  (void)userdata2;
  DeviceResult *r = (DeviceResult *)userdata1;
  r->calls++;
  r->status = status;
  r->device = device;
  if (status != WGPURequestDeviceStatus_Success) {
    fprintf(stderr, "compute: device request: status %d: %.*s\n", (int)status, sv_len(message),
            sv_data(message));
  }
}

typedef struct {
  int calls;
  WGPUMapAsyncStatus status;
} MapResult;

static void on_mapped(WGPUMapAsyncStatus status, WGPUStringView message, void *userdata1, void *userdata2) {
  (void)userdata2;
  MapResult *r = (MapResult *)userdata1;
  r->calls++;
  r->status = status;
  if (status != WGPUMapAsyncStatus_Success) {
    fprintf(stderr, "compute: map: status %d: %.*s\n", (int)status, sv_len(message), sv_data(message));
  }
}

/* Waits for one future without a time limit; 0 when it completed. */
static int wait_for(WGPUInstance instance, WGPUFuture future, const char *what) {
  if (future.id == 0) {
    FAIL("%s returned the null future", what);
    return -1;
  }
  WGPUFutureWaitInfo info = {future, 0};
  WGPUWaitStatus status = wgpuInstanceWaitAny(instance, 1, &info, UINT64_MAX);
  if (status != WGPUWaitStatus_Success) {
    FAIL("wgpuInstanceWaitAny(%s) returned status %d", what, (int)status);
    return -1;
  }
  if (!info.completed) {
    FAIL("wgpuInstanceWaitAny(%s) returned Success without marking the future completed", what);
    return -1;
  }
  return 0;
}

static int parse_n(int argc, char **argv, uint32_t *n) {
  *n = DEFAULT_N;
  if (argc < 2) return 0;
  char *end = NULL;
  errno = 0;
  unsigned long v = strtoul(argv[1], &end, 10);
  if (argc > 2 || errno != 0 || end == argv[1] || *end != '\0' || argv[1][0] == '-' || v < 1 ||
      v > MAX_N) {
    fprintf(stderr, "usage: %s [N]   (1 <= N <= %u, default %u)\n", argv[0], MAX_N, DEFAULT_N);
    return -1;
  }
  *n = (uint32_t)v;
  return 0;
}

/* ---- the demo ---------------------------------------------------------- */

/* Every object the demo creates; demo_release() releases the non-NULL ones. */
typedef struct {
  WGPUInstance instance;
  WGPUAdapter adapter;
  WGPUDevice device;
  WGPUQueue queue;
  WGPUShaderModule shader;
  WGPUBindGroupLayout bind_group_layout;
  WGPUPipelineLayout pipeline_layout;
  WGPUComputePipeline pipeline;
  WGPUBuffer numbers;
  WGPUBuffer steps;
  WGPUBuffer readback;
  WGPUBindGroup bind_group;
  WGPUCommandEncoder encoder;
  WGPUComputePassEncoder pass;
  WGPUCommandBuffer commands;
  int readback_mapped;
  /* Callback results, filled in inside wgpuInstanceWaitAny (WaitAnyOnly). */
  AdapterResult adapter_result;
  DeviceResult device_result;
  MapResult map_result;
  uint32_t *expected;
} Demo;

/* Steps 1 and 2: instance, adapter, device, queue. */
static int demo_open(Demo *d) {
  WGPUInstanceFeatureName instance_features[] = {WGPUInstanceFeatureName_TimedWaitAny};
  WGPUInstanceDescriptor instance_desc = WGPU_INSTANCE_DESCRIPTOR_INIT;
  instance_desc.requiredFeatureCount = 1;
  instance_desc.requiredFeatures = instance_features;
  d->instance = wgpuCreateInstance(&instance_desc);
  if (!d->instance) {
    FAIL("wgpuCreateInstance (with TimedWaitAny) returned NULL");
    return -1;
  }

  WGPURequestAdapterOptions adapter_options = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
  WGPURequestAdapterCallbackInfo adapter_cb = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  adapter_cb.mode = WGPUCallbackMode_WaitAnyOnly;
  adapter_cb.callback = on_adapter;
  adapter_cb.userdata1 = &d->adapter_result;
  WGPUFuture adapter_future = wgpuInstanceRequestAdapter(d->instance, &adapter_options, adapter_cb);
  if (d->adapter_result.calls != 0) FAIL("WaitAnyOnly adapter callback ran before wgpuInstanceWaitAny");
  if (wait_for(d->instance, adapter_future, "wgpuInstanceRequestAdapter") != 0) return -1;
  d->adapter = d->adapter_result.adapter;
  if (d->adapter_result.calls != 1 || d->adapter_result.status != WGPURequestAdapterStatus_Success ||
      !d->adapter) {
    FAIL("adapter callback: %d call(s), status %d, adapter %p", d->adapter_result.calls,
         (int)d->adapter_result.status, (void *)d->adapter);
    return -1;
  }

  WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
  if (wgpuAdapterGetInfo(d->adapter, &info) != WGPUStatus_Success) {
    FAIL("wgpuAdapterGetInfo failed");
    return -1;
  }
  printf("adapter: %.*s\n", sv_len(info.device), sv_data(info.device));
  if (sv_len(info.description) > 0) printf("driver: %.*s\n", sv_len(info.description), sv_data(info.description));
  printf("backend: %s, type: %s", backend_name(info.backendType), adapter_type_name(info.adapterType));
  if (sv_len(info.vendor) > 0) printf(", vendor: %.*s", sv_len(info.vendor), sv_data(info.vendor));
  printf("\n");
  wgpuAdapterInfoFreeMembers(info);

  WGPUDeviceDescriptor device_desc = WGPU_DEVICE_DESCRIPTOR_INIT;
  device_desc.label = sv("compute demo device");
  device_desc.uncapturedErrorCallbackInfo.callback = on_uncaptured_error;
  device_desc.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowSpontaneous;
  device_desc.deviceLostCallbackInfo.callback = on_device_lost;
  WGPURequestDeviceCallbackInfo device_cb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  device_cb.mode = WGPUCallbackMode_WaitAnyOnly;
  device_cb.callback = on_device;
  device_cb.userdata1 = &d->device_result;
  WGPUFuture device_future = wgpuAdapterRequestDevice(d->adapter, &device_desc, device_cb);
  if (d->device_result.calls != 0) FAIL("WaitAnyOnly device callback ran before wgpuInstanceWaitAny");
  if (wait_for(d->instance, device_future, "wgpuAdapterRequestDevice") != 0) return -1;
  d->device = d->device_result.device;
  if (d->device_result.calls != 1 || d->device_result.status != WGPURequestDeviceStatus_Success ||
      !d->device) {
    FAIL("device callback: %d call(s), status %d, device %p", d->device_result.calls,
         (int)d->device_result.status, (void *)d->device);
    return -1;
  }
  d->queue = wgpuDeviceGetQueue(d->device);
  if (!d->queue) {
    FAIL("wgpuDeviceGetQueue returned NULL");
    return -1;
  }
  return 0;
}

/* Step 3: shader module, bind group layout, pipeline layout, pipeline. */
static int demo_pipeline(Demo *d) {
  WGPUShaderSourceWGSL wgsl = WGPU_SHADER_SOURCE_WGSL_INIT;
  wgsl.code = sv(SHADER_WGSL);
  WGPUShaderModuleDescriptor shader_desc = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
  shader_desc.nextInChain = &wgsl.chain;
  shader_desc.label = sv("collatz");
  d->shader = wgpuDeviceCreateShaderModule(d->device, &shader_desc);

  WGPUBindGroupLayoutEntry entries[2] = {WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT, WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT};
  entries[0].binding = 0;
  entries[0].visibility = WGPUShaderStage_Compute;
  entries[0].buffer.type = WGPUBufferBindingType_ReadOnlyStorage;
  entries[1].binding = 1;
  entries[1].visibility = WGPUShaderStage_Compute;
  entries[1].buffer.type = WGPUBufferBindingType_Storage;
  WGPUBindGroupLayoutDescriptor bgl_desc = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  bgl_desc.label = sv("collatz bind group layout");
  bgl_desc.entryCount = 2;
  bgl_desc.entries = entries;
  d->bind_group_layout = wgpuDeviceCreateBindGroupLayout(d->device, &bgl_desc);

  WGPUPipelineLayoutDescriptor pl_desc = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
  pl_desc.label = sv("collatz pipeline layout");
  pl_desc.bindGroupLayoutCount = 1;
  pl_desc.bindGroupLayouts = &d->bind_group_layout;
  d->pipeline_layout = wgpuDeviceCreatePipelineLayout(d->device, &pl_desc);

  WGPUComputePipelineDescriptor pipeline_desc = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  pipeline_desc.label = sv("collatz pipeline");
  pipeline_desc.layout = d->pipeline_layout;
  pipeline_desc.compute.module = d->shader;
  pipeline_desc.compute.entryPoint = sv("main");
  d->pipeline = wgpuDeviceCreateComputePipeline(d->device, &pipeline_desc);
  if (!d->shader || !d->bind_group_layout || !d->pipeline_layout || !d->pipeline) {
    FAIL("creating the shader module, layouts or pipeline returned NULL");
    return -1;
  }
  return 0;
}

static WGPUBuffer make_buffer(WGPUDevice device, const char *label, uint64_t size, WGPUBufferUsage usage,
                              int mapped_at_creation) {
  WGPUBufferDescriptor desc = WGPU_BUFFER_DESCRIPTOR_INIT;
  desc.label = sv(label);
  desc.size = size;
  desc.usage = usage;
  desc.mappedAtCreation = mapped_at_creation ? 1 : 0;
  WGPUBuffer buffer = wgpuDeviceCreateBuffer(device, &desc);
  if (!buffer) FAIL("wgpuDeviceCreateBuffer(%s) returned NULL", label);
  return buffer;
}

/* Step 4: the numbers 1..N written through mappedAtCreation, the step counts,
 * a MAP_READ buffer to read them back, and the bind group. */
static int demo_buffers(Demo *d, uint32_t n) {
  const uint64_t size = (uint64_t)n * sizeof(uint32_t);
  d->numbers = make_buffer(d->device, "numbers", size, WGPUBufferUsage_Storage, 1);
  d->steps = make_buffer(d->device, "steps", size, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, 0);
  d->readback = make_buffer(d->device, "readback", size, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  if (!d->numbers || !d->steps || !d->readback) return -1;

  uint32_t *init = (uint32_t *)wgpuBufferGetMappedRange(d->numbers, 0, (size_t)size);
  if (!init) {
    FAIL("wgpuBufferGetMappedRange on a mappedAtCreation buffer returned NULL");
    return -1;
  }
  for (uint32_t i = 0; i < n; i++) init[i] = i + 1;
  wgpuBufferUnmap(d->numbers);

  WGPUBindGroupEntry entries[2] = {WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT};
  entries[0].binding = 0;
  entries[0].buffer = d->numbers;
  entries[1].binding = 1;
  entries[1].buffer = d->steps;
  WGPUBindGroupDescriptor group_desc = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  group_desc.label = sv("collatz bind group");
  group_desc.layout = d->bind_group_layout;
  group_desc.entryCount = 2;
  group_desc.entries = entries;
  d->bind_group = wgpuDeviceCreateBindGroup(d->device, &group_desc);
  if (!d->bind_group) {
    FAIL("wgpuDeviceCreateBindGroup returned NULL");
    return -1;
  }
  return 0;
}

/* Step 5: record and submit the dispatch and the copy into the MAP_READ buffer. */
static int demo_submit(Demo *d, uint32_t n) {
  WGPUCommandEncoderDescriptor encoder_desc = WGPU_COMMAND_ENCODER_DESCRIPTOR_INIT;
  encoder_desc.label = sv("collatz encoder");
  d->encoder = wgpuDeviceCreateCommandEncoder(d->device, &encoder_desc);
  if (!d->encoder) {
    FAIL("wgpuDeviceCreateCommandEncoder returned NULL");
    return -1;
  }
  d->pass = wgpuCommandEncoderBeginComputePass(d->encoder, NULL);
  if (!d->pass) {
    FAIL("wgpuCommandEncoderBeginComputePass returned NULL");
    return -1;
  }
  wgpuComputePassEncoderSetPipeline(d->pass, d->pipeline);
  wgpuComputePassEncoderSetBindGroup(d->pass, 0, d->bind_group, 0, NULL);
  wgpuComputePassEncoderDispatchWorkgroups(d->pass, (n + WORKGROUP_SIZE - 1) / WORKGROUP_SIZE, 1, 1);
  wgpuComputePassEncoderEnd(d->pass);
  wgpuComputePassEncoderRelease(d->pass);
  d->pass = NULL;
  wgpuCommandEncoderCopyBufferToBuffer(d->encoder, d->steps, 0, d->readback, 0, (uint64_t)n * sizeof(uint32_t));
  d->commands = wgpuCommandEncoderFinish(d->encoder, NULL);
  wgpuCommandEncoderRelease(d->encoder);
  d->encoder = NULL;
  if (!d->commands) {
    FAIL("wgpuCommandEncoderFinish returned NULL");
    return -1;
  }
  wgpuQueueSubmit(d->queue, 1, &d->commands);
  wgpuCommandBufferRelease(d->commands);
  d->commands = NULL;
  return 0;
}

/* Step 6: map the read-back buffer and wait for it in wgpuInstanceWaitAny
 * (the thread sleeps until the GPU is done: no polling loop). */
static const uint32_t *demo_map(Demo *d, uint32_t n) {
  const size_t size = (size_t)n * sizeof(uint32_t);
  WGPUBufferMapCallbackInfo map_cb = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  map_cb.mode = WGPUCallbackMode_WaitAnyOnly;
  map_cb.callback = on_mapped;
  map_cb.userdata1 = &d->map_result;
  WGPUFuture map_future = wgpuBufferMapAsync(d->readback, WGPUMapMode_Read, 0, size, map_cb);
  if (d->map_result.calls != 0) FAIL("WaitAnyOnly map callback ran before wgpuInstanceWaitAny");
  WGPUBufferMapState state = wgpuBufferGetMapState(d->readback);
  if (state != WGPUBufferMapState_Pending) {
    FAIL("map state after wgpuBufferMapAsync is %d, expected Pending", (int)state);
  }
  if (wait_for(d->instance, map_future, "wgpuBufferMapAsync") != 0) return NULL;
  if (d->map_result.calls != 1 || d->map_result.status != WGPUMapAsyncStatus_Success) {
    FAIL("map callback: %d call(s), status %d", d->map_result.calls, (int)d->map_result.status);
    return NULL;
  }
  d->readback_mapped = 1;
  state = wgpuBufferGetMapState(d->readback);
  if (state != WGPUBufferMapState_Mapped) {
    FAIL("map state after the map callback is %d, expected Mapped", (int)state);
  }
  const uint32_t *result = (const uint32_t *)wgpuBufferGetConstMappedRange(d->readback, 0, size);
  if (!result) FAIL("wgpuBufferGetConstMappedRange returned NULL");
  return result;
}

/* Step 7: check every value against the CPU and print a few. */
static int demo_verify(Demo *d, const uint32_t *result, uint32_t n, double gpu_ms) {
  d->expected = (uint32_t *)malloc((size_t)n * sizeof(uint32_t));
  if (!d->expected) {
    FAIL("out of memory");
    return -1;
  }
  uint32_t mismatches = 0;
  uint32_t best = 0;
  uint32_t first_wrapped = 0;
  for (uint32_t i = 0; i < n; i++) {
    int wrapped = 0;
    d->expected[i] = collatz_steps_cpu(i + 1, &wrapped);
    if (wrapped && !first_wrapped) first_wrapped = i + 1;
    if (result[i] != d->expected[i]) {
      if (mismatches < 10) {
        fprintf(stderr, "compute: mismatch: steps(%" PRIu32 ") = %" PRIu32 " on the GPU, %" PRIu32 " on the CPU\n",
                i + 1, result[i], d->expected[i]);
      }
      mismatches++;
    }
    if (d->expected[i] > d->expected[best]) best = i;
  }
  printf("Collatz steps for 1..%" PRIu32 " on the GPU (%.1f ms from encoding to mapped):\n", n, gpu_ms);
  static const uint32_t shown[] = {1, 2, 3, 7, 27, 97, 871};
  for (size_t k = 0; k < sizeof shown / sizeof shown[0] && shown[k] <= n; k++) {
    printf("  steps(%" PRIu32 ") = %" PRIu32 "\n", shown[k], result[shown[k] - 1]);
  }
  printf("  steps(%" PRIu32 ") = %" PRIu32 "  (the most up to %" PRIu32 ")\n", best + 1, result[best], n);
  if (first_wrapped) {
    printf("  (from n = %" PRIu32 " on, some paths overflow 32 bits and wrap, on the GPU and the CPU alike)\n",
           first_wrapped);
  }
  if (mismatches) {
    FAIL("%" PRIu32 " of %" PRIu32 " values differ from the CPU", mismatches, n);
    return -1;
  }
  printf("all %" PRIu32 " values match the CPU\n", n);
  return 0;
}

static int demo_run(Demo *d, uint32_t n) {
  if (demo_open(d) != 0 || demo_pipeline(d) != 0 || demo_buffers(d, n) != 0) return -1;
  double t0 = now_ms();
  if (demo_submit(d, n) != 0) return -1;
  const uint32_t *result = demo_map(d, n);
  if (!result) return -1;
  return demo_verify(d, result, n, now_ms() - t0);
}

static void demo_release(Demo *d) {
  if (d->readback_mapped) wgpuBufferUnmap(d->readback);
  if (d->pass) wgpuComputePassEncoderRelease(d->pass);
  if (d->encoder) wgpuCommandEncoderRelease(d->encoder);
  if (d->commands) wgpuCommandBufferRelease(d->commands);
  if (d->bind_group) wgpuBindGroupRelease(d->bind_group);
  if (d->readback) wgpuBufferRelease(d->readback);
  if (d->steps) wgpuBufferRelease(d->steps);
  if (d->numbers) wgpuBufferRelease(d->numbers);
  if (d->pipeline) wgpuComputePipelineRelease(d->pipeline);
  if (d->pipeline_layout) wgpuPipelineLayoutRelease(d->pipeline_layout);
  if (d->bind_group_layout) wgpuBindGroupLayoutRelease(d->bind_group_layout);
  if (d->shader) wgpuShaderModuleRelease(d->shader);
  if (d->queue) wgpuQueueRelease(d->queue);
  /* Device errors and losses up to here fail the run; releasing the last
   * reference loses the device (reason Destroyed), which is expected. */
  int errors = atomic_load(&uncaptured_errors);
  if (errors) FAIL("%d uncaptured device error(s)", errors);
  if (atomic_load(&device_lost_early)) FAIL("the device was lost");
  atomic_store(&releasing_device, 1);
  if (d->device) wgpuDeviceRelease(d->device);
  if (d->adapter) wgpuAdapterRelease(d->adapter);
  if (d->instance) wgpuInstanceRelease(d->instance);
  free(d->expected);
  memset(d, 0, sizeof *d);
}

int main(int argc, char **argv) {
  uint32_t n;
  if (parse_n(argc, argv, &n) != 0) return 2;
  static Demo demo; /* static: zero-initialised, and alive for every callback */
  if (demo_run(&demo, n) != 0 && failures == 0) FAIL("the demo stopped early");
  demo_release(&demo);
  fflush(stdout);
  if (failures) {
    fprintf(stderr, "compute: %d failure(s)\n", failures);
    return 1;
  }
  printf("OK\n");
  return 0;
}
