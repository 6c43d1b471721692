/* Rule (DECISIONS "callback == NULL"; spec §13 I#556): an async op with a
 * valid mode and a NULL callback runs normally; it returns a real future that
 * WaitAny reports completed; nothing is called and nothing crashes, in any
 * mode, through ProcessEvents, spontaneous completion and instance release.
 * A NULL-callback map really maps the buffer. A NULL-callback RequestDevice
 * makes a device that is released at once: its lost callback says Destroyed. */
#define _GNU_SOURCE
#include "futures_util.h"

static const WGPUCallbackMode modes[3] = {WGPUCallbackMode_WaitAnyOnly, WGPUCallbackMode_AllowProcessEvents,
                                          WGPUCallbackMode_AllowSpontaneous};

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  WGPUShaderModule module = make_wgsl(ctx.device, HARNESS_SPIN_WGSL);

  for (int m = 0; m < 3; m++) {
    WGPUBuffer buf = fu_busy_map_buffer(&ctx, 1u << 12, 1);
    WGPUFuture fs[5];
    fs[0] = fu_map_read(buf, modes[m], NULL);
    fs[1] = fu_workdone(ctx.queue, modes[m], NULL);
    fs[2] = fu_push_pop(ctx.device, modes[m], NULL);
    fs[3] = fu_compinfo(module, modes[m], NULL);
    fs[4] = fu_request_adapter(ctx.instance, modes[m], NULL);
    for (int i = 0; i < 5; i++) CHECK(fs[i].id != 0);
    fu_process_events(ctx.instance);
    CHECK(fu_wait_all(ctx.instance, fs, NULL, 5, 0 /* mixed sources: polls */, FU_WAIT_S));
    CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Mapped);
    CHECK(wgpuBufferGetConstMappedRange(buf, 0, FU_MAP_SIZE) != NULL);
    wgpuBufferUnmap(buf);
    wgpuBufferRelease(buf);
  }

  /* RequestDevice with a NULL callback (DECISIONS "RequestDevice with a NULL
   * callback"): the device is made and, owned by nobody, released at once;
   * its lost callback reports Destroyed, once. */
  static FuRec lost;
  fu_rec_init(&lost, "lost callback of a device nobody received");
  WGPUAdapter second = fu_get_adapter(ctx.instance, 1);
  REQUIRE(second != NULL);
  WGPUFuture fd =
      fu_request_device(second, WGPUCallbackMode_WaitAnyOnly, NULL, WGPUCallbackMode_AllowSpontaneous, &lost, NULL);
  CHECK(fd.id != 0);
  CHECK_EQ(fu_wait1(ctx.instance, fd, FU_WAIT_S, NULL, NULL), WGPUWaitStatus_Success);
  CHECK(fu_sleep_until1(&lost, FU_WAIT_S));
  FU_CHECK_ONCE(&lost);
  FU_CHECK_STATUS(&lost, WGPUDeviceLostReason_Destroyed);
  wgpuAdapterRelease(second);

  /* Left pending at the instance release: nothing to call, no crash. */
  WGPUBuffer pending = fu_busy_map_buffer(&ctx, 1u << 12, 1);
  fu_map_read(pending, WGPUCallbackMode_WaitAnyOnly, NULL);
  fu_workdone(ctx.queue, WGPUCallbackMode_AllowProcessEvents, NULL);
  fu_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, NULL);
  wgpuBufferRelease(pending);
  wgpuShaderModuleRelease(module);
  ctx_release(&ctx);
  return test_finish();
}
