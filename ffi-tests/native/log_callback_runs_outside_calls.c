/* wgpuSetLogCallback: the callback is application code, so like every other
 * callback it never runs where internal locks are held: a message logged
 * during a call (by wgpu-shim or wgpu-core, here at trace level, many of
 * them inside device polls, under the device's poll lock) reaches the
 * callback when the call is about to return, on the calling thread. So the
 * callback may call back into the library: here it polls the device, which
 * takes the lock the outer poll held, and must not deadlock. */
#include "native_util.h"

#include <pthread.h>

static pthread_t main_thread;
static int messages, reentered;
static WGPUDevice g_device;

static void on_log(WGPULogLevel level, WGPUStringView message, void *userdata) {
  (void)userdata;
  /* Errors on stderr too, where a failing test shows them. */
  if (level == WGPULogLevel_Error && message.data) fprintf(stderr, "log: %.*s\n", (int)sv_len(message), message.data);
  if (!pthread_equal(pthread_self(), main_thread)) return; /* library threads: their own flush points */
  messages++;
  /* Call back into the library from the callback: polls take the device's
   * poll lock, which an outer poll still held if this ran inside it. */
  if (g_device && reentered < 50) {
    reentered++;
    wgpuDevicePoll(g_device, 0, NULL);
  }
}

int main(void) {
  main_thread = pthread_self();
  start_watchdog(60); /* a deadlock fails the test (exit 3) instead of hanging it */
  wgpuSetLogLevel(WGPULogLevel_Trace);
  wgpuSetLogCallback(on_log, NULL);

  WGPUInstanceFeatureName timed[] = {WGPUInstanceFeatureName_TimedWaitAny};
  WGPUInstanceDescriptor idesc = WGPU_INSTANCE_DESCRIPTOR_INIT;
  idesc.requiredFeatureCount = 1;
  idesc.requiredFeatures = timed;
  WGPUInstance instance;
  instance = wgpuCreateInstance(&idesc);
  REQUIRE(instance != NULL);
  WGPUAdapter adapter = request_adapter(instance, UINT64_MAX);
  REQUIRE(adapter != NULL);
  WGPUDevice device = request_device(instance, adapter, NULL, UINT64_MAX);
  REQUIRE(device != NULL);
  g_device = device;
  WGPUQueue queue;
  queue = wgpuDeviceGetQueue(device);

  /* Work and polls: wgpu-core logs at trace level inside them. */
  for (int i = 0; i < 20; i++) {
    WGPUCommandEncoder enc;
    WGPUCommandBuffer cmd;
    enc = wgpuDeviceCreateCommandEncoder(device, NULL);
    cmd = wgpuCommandEncoderFinish(enc, NULL);
    wgpuQueueSubmit(queue, 1, &cmd);
    wgpuDevicePoll(device, 1, NULL);
    wgpuCommandBufferRelease(cmd);
    wgpuCommandEncoderRelease(enc);
  }
  /* A rejected call: its error message arrives after it returned. */
  int before = messages;
  wgpuBufferGetSize(NULL);
  CHECK(messages > before);

  printf("%d messages on this thread, %d re-entrant polls\n", messages, reentered);
  CHECK(messages > 20);
  CHECK(reentered > 0);

  wgpuSetLogCallback(NULL, NULL);
  wgpuSetLogLevel(WGPULogLevel_Warn);
  g_device = NULL;
  wgpuQueueRelease(queue);
  wgpuDeviceRelease(device);
  wgpuAdapterRelease(adapter);
  wgpuInstanceRelease(instance);
  return test_finish();
}
