/* Rule (webgpu.h §2, §8.7, §8.9; DECISIONS "Calls during process exit"):
 * during process exit (an atexit handler, after the main thread's storage
 * is gone), callbacks may release objects, the device and instance
 * included, and each release still does its work: a WaitAnyOnly map
 * callback releases its buffer and the queue; a spontaneous work-done
 * callback releases the device (whose lost callback then runs inside that
 * release) and the adapter; the CallbackCancelled callbacks that
 * wgpuInstanceRelease runs release the remaining objects. Every callback
 * runs exactly once; nothing crashes or hangs. */
#include "teardown_util.h"

static TdWorld w;
static TdRec map_rec, done_rec, cancelled_rec;

static void release_kind(TdKind kind) {
  for (int i = 0; i < w.count; i++)
    if (w.objs[i].kind == kind && w.objs[i].handle) td_release_obj(&w.objs[i]);
}

static void on_map_release(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)message;
  (void)u2;
  td_note(&map_rec, (int)status);
  wgpuBufferUnmap((WGPUBuffer)u1);
  wgpuBufferRelease((WGPUBuffer)u1);
  release_kind(TD_QUEUE);
}

static void on_done_release_device(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)message;
  (void)u1;
  (void)u2;
  td_note(&done_rec, (int)status);
  release_kind(TD_DEVICE);
  /* The lost callback ran inside that release. */
  CHECK_EQ(w.ctx.lost_calls, 1);
  release_kind(TD_ADAPTER);
}

static void on_cancelled_release_rest(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)message;
  (void)u1;
  (void)u2;
  td_note(&cancelled_rec, (int)status);
  for (int i = 0; i < w.count; i++)
    if (w.objs[i].handle && w.objs[i].kind != TD_INSTANCE) td_release_obj(&w.objs[i]);
}

static void at_exit(void) {
  Ctx *c = &w.ctx;
  WGPUDevice device = (WGPUDevice)w.objs[2].handle;
  WGPUQueue queue = (WGPUQueue)w.objs[3].handle;
  WGPUInstance instance = (WGPUInstance)w.objs[0].handle;

  /* A WaitAnyOnly map whose callback releases the buffer and the queue. */
  WGPUBuffer b = make_buffer(device, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  WGPUBufferMapCallbackInfo mi = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  mi.mode = WGPUCallbackMode_WaitAnyOnly;
  mi.callback = on_map_release;
  mi.userdata1 = b;
  WGPUFutureWaitInfo wi = {wgpuBufferMapAsync(b, WGPUMapMode_Read, 0, 64, mi), 0};
  CHECK_EQ(wgpuInstanceWaitAny(instance, 1, &wi, 10000000000ull), WGPUWaitStatus_Success);
  CHECK_EQ(td_calls(&map_rec), 1);
  CHECK_EQ(map_rec.status, WGPUMapAsyncStatus_Success);

  /* A work-done that is never pumped: cancelled by the instance release,
   * its callback releases everything left but the instance. (The queue
   * handle was released by the map callback above; the device's own
   * reference keeps the queue working.) */
  queue = wgpuDeviceGetQueue(device);
  WGPUQueueWorkDoneCallbackInfo pe = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  pe.mode = WGPUCallbackMode_WaitAnyOnly;
  pe.callback = on_cancelled_release_rest;
  wgpuQueueOnSubmittedWorkDone(queue, pe);

  /* A spontaneous work-done whose callback releases the device and the
   * adapter. */
  WGPUQueueWorkDoneCallbackInfo sp = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  sp.mode = WGPUCallbackMode_AllowSpontaneous;
  sp.callback = on_done_release_device;
  wgpuQueueOnSubmittedWorkDone(queue, sp);
  wgpuQueueRelease(queue);
  for (int i = 0; i < 2000 && td_calls(&done_rec) == 0; i++) sleep_ms(1);
  CHECK_EQ(td_calls(&done_rec), 1);
  for (int i = 0; i < 2000 && c->lost_calls == 0; i++) sleep_ms(1);
  CHECK_EQ(c->lost_calls, 1);
  CHECK_EQ(c->lost_reason, WGPUDeviceLostReason_Destroyed);
  CHECK(c->lost_device_was_null);

  release_kind(TD_INSTANCE);
  CHECK_EQ(td_calls(&cancelled_rec), 1);
  CHECK_EQ(cancelled_rec.status, WGPUQueueWorkDoneStatus_CallbackCancelled);
  for (int i = 0; i < w.count; i++) CHECK(w.objs[i].handle == NULL);
  CHECK_EQ(td_calls(&w.map), 1);
  CHECK_EQ(td_calls(&w.done), 1);
  CHECK_EQ(td_calls(&w.pop), 1);
  td_finish_at_exit();
}

int main(void) {
  start_watchdog(60);
  if (td_world(&w) != 0) {
    CHECK(!"td_world");
    return test_finish();
  }
  Ctx warm = td_world_ctx(&w);
  td_warm(&warm);
  if (atexit(at_exit) != 0) {
    CHECK(!"atexit");
    return test_finish();
  }
  CHECK(1);
  return 0;
}
