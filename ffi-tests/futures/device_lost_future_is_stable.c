/* Rule (spec §6 "Device lost", §2 "Device" release, I#380, I#532):
 * wgpuDeviceGetLostFuture returns the same non-null future on every call,
 * before and after the loss. It is pending while the device lives, and
 * completes with reason Destroyed after wgpuDeviceDestroy; the callback (mode
 * WaitAnyOnly: only inside WaitAny) runs once, with a non-NULL device pointer
 * whose pointee is the device. Releasing the device afterwards does not fire
 * it again. When instead the last device ref is released with no Destroy, the
 * lost callback gets reason Destroyed and a NULL pointee. Spontaneous mode:
 * fires by itself after Destroy, once. */
#define _GNU_SOURCE
#include "futures_util.h"

static FuRec lost_w, lost_r, lost_s;

int main(void) {
  fu_begin(60);

  /* 1. WaitAnyOnly, wgpuDeviceDestroy. */
  Ctx ctx;
  fu_rec_init(&lost_w, "lost WaitAnyOnly (destroy)");
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_WaitAnyOnly, &lost_w) == 0);
  WGPUFuture f1 = wgpuDeviceGetLostFuture(ctx.device);
  WGPUFuture f2 = wgpuDeviceGetLostFuture(ctx.device);
  CHECK(f1.id != 0);
  CHECK_EQ(f1.id, f2.id);
  CHECK_EQ(fu_wait1(ctx.instance, f1, 0, &lost_w, NULL), WGPUWaitStatus_TimedOut);
  CHECK_EQ(fu_wait1(ctx.instance, f1, 0.05, &lost_w, NULL), WGPUWaitStatus_TimedOut);
  FU_CHECK_NOT_CALLED(&lost_w);

  wgpuDeviceDestroy(ctx.device);
  fu_process_events(ctx.instance);
  fu_idle(0.05);
  FU_CHECK_NOT_CALLED(&lost_w); /* WaitAnyOnly */
  CHECK_EQ(wgpuDeviceGetLostFuture(ctx.device).id, f1.id);
  WGPUBool completed = WGPU_FALSE;
  CHECK_EQ(fu_wait1(ctx.instance, f1, FU_WAIT_S, &lost_w, &completed), WGPUWaitStatus_Success);
  CHECK(completed);
  FU_CHECK_ONCE(&lost_w);
  FU_CHECK_STATUS(&lost_w, WGPUDeviceLostReason_Destroyed);
  CHECK(!lost_w.dev_ptr_null);
  CHECK(!lost_w.dev_null);
  CHECK(lost_w.dev_seen == ctx.device);
  CHECK(lost_w.on_main);
  CHECK_EQ(wgpuDeviceGetLostFuture(ctx.device).id, f1.id);
  CHECK_EQ(fu_wait1(ctx.instance, f1, FU_WAIT_S, NULL, &completed), WGPUWaitStatus_Success);
  wgpuDeviceDestroy(ctx.device); /* again: no second loss */
  wgpuDeviceRelease(ctx.device);
  ctx.device = NULL;
  fu_process_events(ctx.instance);
  CHECK_EQ(fu_wait1(ctx.instance, f1, 0, NULL, &completed), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&lost_w);

  /* 2. WaitAnyOnly, last ref released without Destroy: pointee NULL. The lost
   * future stays waitable on the instance after the device is gone. */
  Ctx c2;
  memset(&c2, 0, sizeof c2);
  c2.instance = ctx.instance;
  fu_rec_init(&lost_r, "lost WaitAnyOnly (last release)");
  WGPUAdapter a2 = fu_get_adapter(ctx.instance, 1);
  REQUIRE(a2 != NULL);
  WGPUDevice d2 = fu_get_device(ctx.instance, a2, 1, WGPUCallbackMode_WaitAnyOnly, &lost_r, &c2);
  REQUIRE(d2 != NULL);
  WGPUFuture fr = wgpuDeviceGetLostFuture(d2);
  CHECK(fr.id != 0);
  CHECK(fr.id != f1.id);
  wgpuDeviceRelease(d2);
  FU_CHECK_NOT_CALLED(&lost_r);
  CHECK_EQ(fu_wait1(ctx.instance, fr, FU_WAIT_S, &lost_r, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&lost_r);
  FU_CHECK_STATUS(&lost_r, WGPUDeviceLostReason_Destroyed);
  CHECK(!lost_r.dev_ptr_null);
  CHECK(lost_r.dev_null);
  wgpuAdapterRelease(a2);

  /* 3. AllowSpontaneous: fires by itself after Destroy, once. */
  fu_rec_init(&lost_s, "lost AllowSpontaneous (destroy)");
  WGPUAdapter a3 = fu_get_adapter(ctx.instance, 1);
  REQUIRE(a3 != NULL);
  WGPUDevice d3 = fu_get_device(ctx.instance, a3, 1, WGPUCallbackMode_AllowSpontaneous, &lost_s, &c2);
  REQUIRE(d3 != NULL);
  WGPUFuture fs = wgpuDeviceGetLostFuture(d3);
  CHECK_EQ(wgpuDeviceGetLostFuture(d3).id, fs.id);
  fu_idle(0.05);
  FU_CHECK_NOT_CALLED(&lost_s);
  wgpuDeviceDestroy(d3);
  CHECK(fu_sleep_until1(&lost_s, 5.0));
  FU_CHECK_ONCE(&lost_s);
  FU_CHECK_STATUS(&lost_s, WGPUDeviceLostReason_Destroyed);
  CHECK(!lost_s.dev_ptr_null);
  CHECK(lost_s.dev_seen == d3);
  CHECK_EQ(wgpuDeviceGetLostFuture(d3).id, fs.id);
  CHECK_EQ(fu_wait1(ctx.instance, fs, 0, NULL, &completed), WGPUWaitStatus_Success);
  CHECK(completed);
  wgpuDeviceRelease(d3);
  wgpuAdapterRelease(a3);
  fu_idle(0.05);
  FU_CHECK_ONCE(&lost_s);

  ctx_release(&ctx);
  FU_CHECK_ONCE(&lost_w);
  FU_CHECK_ONCE(&lost_r);
  FU_CHECK_ONCE(&lost_s);
  return test_finish();
}
