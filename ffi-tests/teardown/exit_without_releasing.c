/* Rule (webgpu.h §2; DECISIONS "Calls during process exit"): a process may
 * end without releasing anything: with objects of every kind alive, GPU
 * work in flight, callbacks outstanding (a map, a work-done, a
 * PopErrorScope, a spontaneous map the progress thread is waiting to
 * deliver) and another thread blocked in wgpuInstanceWaitAny, returning
 * from main exits with main's status: no crash, no hang in the exit
 * handlers. */
#include "teardown_util.h"

static TdWorld w;

static void *waiter(void *arg) {
  (void)arg;
  /* The device-lost future: it completes only when the device goes. */
  WGPUFutureWaitInfo wi = {wgpuDeviceGetLostFuture((WGPUDevice)w.objs[2].handle), 0};
  wgpuInstanceWaitAny((WGPUInstance)w.objs[0].handle, 1, &wi, UINT64_MAX);
  return NULL;
}

int main(void) {
  start_watchdog(60);
  REQUIRE(td_world(&w) == 0);
  Ctx c = td_world_ctx(&w);
  td_warm(&c);
  /* More GPU work, and a spontaneous map behind it. */
  WGPUBuffer job = submit_spin_job(&c, 20000, 8);
  (void)job;
  static TdRec spont;
  WGPUBuffer b = make_buffer(c.device, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  WGPUBufferMapCallbackInfo mi = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  mi.mode = WGPUCallbackMode_AllowSpontaneous;
  mi.callback = td_map_cb;
  mi.userdata1 = &spont;
  wgpuBufferMapAsync(b, WGPUMapMode_Read, 0, 64, mi);
  pthread_t t;
  REQUIRE(pthread_create(&t, NULL, waiter, NULL) == 0);
  sleep_ms(20);
  CHECK(1);
  return test_finish();
}
