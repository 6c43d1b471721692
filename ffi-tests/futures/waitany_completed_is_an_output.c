/* Rule (spec §8.3; issue "three deviations", 3): `completed` is an output.
 * A pending future whose `completed` the application set to TRUE reads
 * FALSE after a WaitAny that returns TimedOut, and after one that returns
 * Success for another listed future; a complete one reads TRUE. */
#define _GNU_SOURCE
#include "futures_util.h"

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  FuRec done, pop;
  fu_rec_init(&done, "work done");
  fu_rec_init(&pop, "pop");
  WGPUBuffer job = submit_spin_job(&ctx, 200000, 8);
  WGPUFuture fd = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &done);
  WGPUFutureWaitInfo one = {fd, WGPU_TRUE};
  WGPUWaitStatus st = fu_wait_any(ctx.instance, 1, &one, 0);
  if (st == WGPUWaitStatus_TimedOut) CHECK_EQ(one.completed, WGPU_FALSE);
  WGPUFuture fp = fu_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &pop);
  WGPUFutureWaitInfo two[2] = {{fd, WGPU_TRUE}, {fp, WGPU_FALSE}};
  st = fu_wait_any(ctx.instance, 2, two, 0);
  CHECK_EQ(st, WGPUWaitStatus_Success);
  CHECK_EQ(two[1].completed, WGPU_TRUE);
  CHECK_EQ(two[0].completed, fu_calls(&done) == 1 ? WGPU_TRUE : WGPU_FALSE);
  WGPUBool c = WGPU_FALSE;
  CHECK_EQ(fu_poll1_until(ctx.instance, fd, 30.0, &done, &c), WGPUWaitStatus_Success);
  WGPUFutureWaitInfo again = {fd, WGPU_FALSE};
  CHECK_EQ(fu_wait_any(ctx.instance, 1, &again, 0), WGPUWaitStatus_Success);
  CHECK_EQ(again.completed, WGPU_TRUE);
  wgpuBufferRelease(job);
  ctx_release(&ctx);
  return test_finish();
}
