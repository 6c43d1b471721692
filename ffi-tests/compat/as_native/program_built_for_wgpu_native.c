/* Rule (DECISIONS "Selecting wgpu-native compatibility"): a program linked
 * against libwgpu_native.so runs when wgpu-shim stands in for that file (here
 * a link named libwgpu_native.so), with no setting and no wgpu.h call before
 * its first request: the file name turns wgpu-native's rules on. It
 * requests an adapter and a device with mode 0 and maps with mode 0, waiting
 * in wgpuInstanceProcessEvents, as wgpu-native programs do. Linked without
 * the test harness (which links libwgpu_shim by its own name). */
#include <webgpu/webgpu.h>

#include <stdio.h>
#include <string.h>

#include "../compat_util.h"

static int passed, failed;
#define CHECK(c)                                                 \
  do {                                                           \
    if (c) {                                                     \
      passed++;                                                  \
    } else {                                                     \
      failed++;                                                  \
      fprintf(stderr, "%s:%d: FAILED %s\n", __FILE__, __LINE__, #c); \
    }                                                            \
  } while (0)

int main(void) {
  WGPUInstance instance = wgpuCreateInstance(NULL);
  CHECK(instance != NULL);
  if (!instance) return 1;
  CuState s;
  memset(&s, 0, sizeof s);
  cu_request_adapter(instance, &s);
  CHECK(s.adapter_calls == 1 && s.adapter != NULL);
  if (s.adapter) cu_request_device(s.adapter, &s);
  CHECK(s.device_calls == 1 && s.device != NULL);
  if (s.device) {
    WGPUQueue queue = wgpuDeviceGetQueue(s.device);
    WGPUBuffer buffer = cu_read_buffer(s.device, queue);
    cu_map_read(buffer, &s);
    for (int i = 0; i < 100000 && s.map_calls == 0; i++) wgpuInstanceProcessEvents(instance);
    CHECK(s.map_calls == 1 && s.map_status == WGPUMapAsyncStatus_Success);
    const uint32_t *words = (const uint32_t *)wgpuBufferGetMappedRange(buffer, 0, 16);
    CHECK(words != NULL && words[3] == 4);
    wgpuBufferUnmap(buffer);
    wgpuBufferRelease(buffer);
    wgpuQueueRelease(queue);
    wgpuDeviceRelease(s.device);
    CHECK(s.lost_calls == 0);
  }
  if (s.adapter) wgpuAdapterRelease(s.adapter);
  wgpuInstanceRelease(instance);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
