/* Rule (wgpu_shim.h wgpuShimInstanceSetSpinWait; ARCHITECTURE "The wait
 * ladder"): the spin setting is accepted (0 off, a cap, UINT64_MAX the
 * default), found through wgpuGetProcAddress, refuses a NULL instance, and
 * waits keep their results with spinning on, off and at its largest cap:
 * WaitAny on a work-done future, a spontaneous map callback, and
 * wgpuDevicePoll's wait. */
#define _GNU_SOURCE
#include <webgpu/wgpu.h>
#include <webgpu/wgpu_shim.h>

#include "futures_util.h"

int main(void) {
  fu_begin(120);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  CHECK(wgpuGetProcAddress(sv("wgpuShimInstanceSetSpinWait")) != NULL);
  CHECK_EQ(wgpuShimInstanceSetSpinWait(NULL, 0), WGPUStatus_Error);
  const uint64_t caps[4] = {0, 20000, 1000000000ull, UINT64_MAX};
  for (int c = 0; c < 4; c++) {
    CHECK_EQ(wgpuShimInstanceSetSpinWait(ctx.instance, caps[c]), WGPUStatus_Success);
    for (int round = 0; round < 3; round++) {
      FuRec done, map;
      fu_rec_init(&done, "work done");
      fu_rec_init(&map, "map");
      WGPUBuffer job = submit_spin_job(&ctx, round == 0 ? 100 : 50000, 2);
      WGPUFuture fd = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &done);
      WGPUBool completed = WGPU_FALSE;
      CHECK_EQ(fu_wait1(ctx.instance, fd, 30.0, &done, &completed), WGPUWaitStatus_Success);
      CHECK(completed);
      CHECK_EQ(fu_calls(&done), 1);
      WGPUBuffer readback = fu_idle_map_buffer(&ctx);
      WGPUBuffer busy = submit_spin_job(&ctx, 50000, 1);
      fu_map_read(readback, WGPUCallbackMode_AllowSpontaneous, &map);
      double deadline = now_s() + 30.0;
      while (fu_calls(&map) == 0 && now_s() < deadline) sleep_s(0.001);
      CHECK_EQ(fu_calls(&map), 1);
      wgpuBufferUnmap(readback);
      WGPUBuffer more = submit_spin_job(&ctx, 50000, 1);
      wgpuDevicePoll(ctx.device, 1, NULL);
      wgpuBufferRelease(more);
      wgpuBufferRelease(busy);
      wgpuBufferRelease(readback);
      wgpuBufferRelease(job);
    }
  }
  ctx_release(&ctx);
  return test_finish();
}
