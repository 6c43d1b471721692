/* wgpuSetLogCallback / wgpuSetLogLevel: library messages (a rejected call,
 * an uncaptured validation error) reach the callback with their level;
 * the level filters them; NULL restores the default sink. */
#include "native_util.h"

typedef struct {
  int messages;
  int errors;
  int warnings;
  int saw_function_name;
  int saw_validation;
  WGPULogLevel worst_level_seen;
} LogState;

static void on_log(WGPULogLevel level, WGPUStringView message, void *userdata) {
  LogState *s = userdata;
  /* Errors on stderr too, where a failing test shows them. */
  if (level == WGPULogLevel_Error && message.data) fprintf(stderr, "log: %.*s\n", (int)sv_len(message), message.data);
  s->messages++;
  if (level == WGPULogLevel_Error) s->errors++;
  if (level == WGPULogLevel_Warn) s->warnings++;
  if (level > s->worst_level_seen) s->worst_level_seen = level;
  if (sv_contains(message, "wgpuBufferGetSize")) s->saw_function_name = 1;
  if (sv_contains(message, "validation")) s->saw_validation = 1;
}

int main(void) {
  LogState s;
  memset(&s, 0, sizeof s);
  wgpuSetLogLevel(WGPULogLevel_Warn);
  wgpuSetLogCallback(on_log, &s);

  /* A rejected call is logged as an error naming the function. */
  CHECK_EQ(wgpuBufferGetSize(NULL), 0);
  CHECK(s.errors >= 1);
  CHECK(s.saw_function_name);
  CHECK(s.worst_level_seen <= WGPULogLevel_Warn);

  /* A validation error on a device without an uncaptured-error callback
   * is logged as a warning. */
  WGPUInstanceFeatureName timed[] = {WGPUInstanceFeatureName_TimedWaitAny};
  WGPUInstanceDescriptor idesc = WGPU_INSTANCE_DESCRIPTOR_INIT;
  idesc.requiredFeatureCount = 1;
  idesc.requiredFeatures = timed;
  WGPUInstance instance = wgpuCreateInstance(&idesc);
  REQUIRE(instance != NULL);
  WGPUAdapter adapter = request_adapter(instance, UINT64_MAX);
  REQUIRE(adapter != NULL);
  WGPUDevice device = request_device(instance, adapter, NULL, UINT64_MAX);
  REQUIRE(device != NULL);
  WGPUBufferDescriptor bad = WGPU_BUFFER_DESCRIPTOR_INIT;
  bad.size = 16;
  bad.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_MapWrite; /* not allowed together */
  WGPUBuffer b = wgpuDeviceCreateBuffer(device, &bad);
  CHECK(s.warnings >= 1);
  CHECK(s.saw_validation);

  /* Level Off: nothing reaches the callback. */
  int before = s.messages;
  wgpuSetLogLevel(WGPULogLevel_Off);
  CHECK_EQ(wgpuBufferGetSize(NULL), 0);
  CHECK_EQ(s.messages, before);

  /* An unknown level is refused (logged at error level: seen again). */
  wgpuSetLogLevel(WGPULogLevel_Error);
  wgpuSetLogLevel((WGPULogLevel)42);
  CHECK_EQ(s.messages, before + 1);

  /* NULL restores stderr: the callback sees nothing more. */
  wgpuSetLogCallback(NULL, NULL);
  CHECK_EQ(wgpuBufferGetSize(NULL), 0);
  CHECK_EQ(s.messages, before + 1);
  wgpuSetLogLevel(WGPULogLevel_Warn);

  if (b) wgpuBufferRelease(b);
  wgpuDeviceRelease(device);
  wgpuAdapterRelease(adapter);
  wgpuInstanceRelease(instance);
  return test_finish();
}
