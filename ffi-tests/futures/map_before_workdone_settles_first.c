/* Rule (spec §8.8, JS promise ordering): a MapAsync made before an
 * OnSubmittedWorkDone on the same device settles first. Checked per mode
 * (AllowSpontaneous with no polling, AllowProcessEvents with ProcessEvents,
 * WaitAnyOnly with both listed, the work-done first in the list), for a map
 * of a buffer the queue is writing and for a map of an idle buffer while the
 * queue is busy. */
#define _GNU_SOURCE
#include "futures_util.h"

enum { ROUNDS = 6 };
static FuRec maps[3][ROUNDS], wds[3][ROUNDS];

static const WGPUCallbackMode modes[3] = {WGPUCallbackMode_AllowSpontaneous, WGPUCallbackMode_AllowProcessEvents,
                                          WGPUCallbackMode_WaitAnyOnly};

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);

  for (int m = 0; m < 3; m++) {
    for (int i = 0; i < ROUNDS; i++) {
      FuRec *mr = &maps[m][i], *wr = &wds[m][i];
      fu_rec_init(mr, fu_mode_name(modes[m]));
      fu_rec_init(wr, fu_mode_name(modes[m]));
      WGPUBuffer buf;
      WGPUBuffer busy = NULL;
      if (i % 2 == 0) {
        buf = fu_busy_map_buffer(&ctx, 1u << 14, (uint32_t)(2 + i));
      } else {
        buf = fu_idle_map_buffer(&ctx);
        busy = submit_spin_job(&ctx, 1u << 14, (uint32_t)(2 + i));
      }
      WGPUFuture fm = fu_map_read(buf, modes[m], mr);
      WGPUFuture fw = fu_workdone(ctx.queue, modes[m], wr);
      FuRec *both[2] = {wr, mr};
      int delivered;
      if (modes[m] == WGPUCallbackMode_AllowSpontaneous) {
        delivered = fu_sleep_until(both, 2, 5.0);
      } else if (modes[m] == WGPUCallbackMode_AllowProcessEvents) {
        delivered = fu_pump_until(ctx.instance, both, 2, 5.0);
      } else {
        WGPUFuture fs[2] = {fw, fm};
        delivered = fu_wait_all(ctx.instance, fs, both, 2, 1, 5.0);
      }
      CHECK(delivered);
      FU_CHECK_ONCE(mr);
      FU_CHECK_ONCE(wr);
      FU_CHECK_STATUS(mr, WGPUMapAsyncStatus_Success);
      FU_CHECK_STATUS(wr, WGPUQueueWorkDoneStatus_Success);
      if (!(mr->seq < wr->seq)) {
        fprintf(stderr, "%s round %d (%s buffer): work-done settled before the earlier map\n",
                fu_mode_name(modes[m]), i, i % 2 == 0 ? "busy" : "idle");
      }
      CHECK(mr->seq < wr->seq);
      wgpuBufferUnmap(buf);
      wgpuBufferRelease(buf);
      if (busy) wgpuBufferRelease(busy);
      if (!delivered) break; /* this mode does not deliver: no use waiting for more rounds */
    }
  }

  ctx_release(&ctx);
  return test_finish();
}
