/* Rule (webgpu.h §2, object lifetime): creating and releasing devices over
 * and over on one instance keeps the instance's memory flat. A device made
 * with no device-lost callback (the _INIT macros: mode 0, no callback) still
 * has a lost future, which completes when the device is released; with no
 * callback to deliver, nothing of it may stay behind. Its event stayed in
 * the instance's registry until the instance was released (hundreds of bytes
 * of heap per device), which the soak test's memory figures showed. The
 * lost future still reads complete in WaitAny. */
#include "../mapping/mapping_util.h"

#ifdef _WIN32
#include <windows.h>

/* Bytes in use in the process heap, where Rust's allocator (HeapAlloc on
 * GetProcessHeap) puts the library's memory: the busy blocks HeapWalk
 * lists (0 when it cannot walk the heap). */
static size_t heap_in_use(void) {
  HANDLE heap = GetProcessHeap();
  PROCESS_HEAP_ENTRY e;
  size_t used = 0;
  if (!HeapLock(heap)) return 0;
  e.lpData = NULL;
  while (HeapWalk(heap, &e)) {
    if (e.wFlags & PROCESS_HEAP_ENTRY_BUSY) used += e.cbData;
  }
  HeapUnlock(heap);
  return used;
}
#else
#include <malloc.h>

/* Heap bytes in use (0 where the allocator does not say: ASan, valgrind). */
static size_t heap_in_use(void) {
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}
#endif

/* Whether all n devices were made. */
static int churn(WGPUInstance inst, int n, WGPUFuture *last_lost) {
  for (int i = 0; i < n; i++) {
    DeviceRequest req;
    WGPUAdapter a = mu_request_adapter(inst);
    if (!a) return 0;
    WGPUDevice d = mu_request_device(inst, a, NULL, &req);
    if (!d) return 0;
    *last_lost = wgpuDeviceGetLostFuture(d);
    wgpuDeviceRelease(d);
    wgpuAdapterRelease(a);
  }
  return 1;
}

int main(void) {
  start_watchdog(120);
  WGPUInstance inst = mu_create_instance(0);
  REQUIRE(inst != NULL);
  WGPUFuture lost = {0};
  /* Warm-up: the allocator's and the driver's caches fill. */
  REQUIRE(churn(inst, 200, &lost));
  size_t before = heap_in_use();
  REQUIRE(churn(inst, 150, &lost));
  size_t after = heap_in_use();
  long grown = (long)after - (long)before;
  printf("heap in use: %zu bytes after the warm-up, %zu after 150 more devices (%+ld, %+ld per device)\n", before,
         after, grown, grown / 150);
  /* Before the fix: +55 KiB here (about 370 bytes a device; the first 200
   * devices fill the allocator's and the driver's caches). After it: +7 KiB
   * (about 50 bytes a device, wgpu-core's and lavapipe's). */
  if (before != 0) CHECK(grown < 24 * 1024);

  /* The last device's lost future is complete. */
  WGPUFutureWaitInfo info = {lost, 0};
  CHECK_EQ(wgpuInstanceWaitAny(inst, 1, &info, 0), WGPUWaitStatus_Success);
  CHECK_EQ(info.completed, 1);
  wgpuInstanceRelease(inst);
  return test_finish();
}
