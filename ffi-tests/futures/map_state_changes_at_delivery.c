/* Rule (spec §8.2 "the state change a callback reports becomes visible when
 * the callback is delivered", §9.1, §9.2, §9.4; DECISIONS "Map state
 * visibility"): a map stays Pending (no mapped range) until its Success
 * callback is delivered; it is Mapped in that same step, so inside the
 * callback GetMapState is Mapped and GetConstMappedRange works (also in a
 * spontaneous callback, §8.7 exception). A map that finished on the GPU but was
 * not delivered is still Pending, so Unmap aborts it: state Unmapped at once,
 * callback Aborted when delivered. */
#define _GNU_SOURCE
#include "futures_util.h"

static FuRec m_pe, m_sp, m_w, m_abort, probe1, probe2;

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  fu_rec_init(&m_pe, "map AllowProcessEvents");
  fu_rec_init(&m_sp, "map AllowSpontaneous");
  fu_rec_init(&m_w, "map WaitAnyOnly");
  fu_rec_init(&m_abort, "map WaitAnyOnly, unmapped before delivery");
  fu_rec_init(&probe1, "spontaneous probe 1");
  fu_rec_init(&probe2, "spontaneous probe 2");
  m_pe.probe_state = m_pe.probe_range = 1;
  m_w.probe_state = m_w.probe_range = 1;
  m_sp.probe_range = 1; /* only the map-range calls are allowed in spontaneous callbacks */

  WGPUBuffer bb[3];
  fu_busy_map_buffers(&ctx, 1u << 16, 8, bb, 3);
  WGPUBuffer b_pe = bb[0], b_sp = bb[1], b_w = bb[2];
  fu_map_read(b_pe, WGPUCallbackMode_AllowProcessEvents, &m_pe);
  fu_map_read(b_sp, WGPUCallbackMode_AllowSpontaneous, &m_sp);
  WGPUFuture fw = fu_map_read(b_w, WGPUCallbackMode_WaitAnyOnly, &m_w);
  fu_workdone(ctx.queue, WGPUCallbackMode_AllowSpontaneous, &probe1);
  fu_sleep_until1(&probe1, 5.0);
  fu_sleep_until1(&m_sp, 5.0);
  fu_idle(0.05);

  /* Complete on the GPU, not delivered: Pending, no range. */
  FU_CHECK_NOT_CALLED(&m_pe);
  FU_CHECK_NOT_CALLED(&m_w);
  CHECK_EQ(wgpuBufferGetMapState(b_pe), WGPUBufferMapState_Pending);
  CHECK_EQ(wgpuBufferGetMapState(b_w), WGPUBufferMapState_Pending);
  CHECK(wgpuBufferGetConstMappedRange(b_pe, 0, FU_MAP_SIZE) == NULL);
  CHECK(wgpuBufferGetConstMappedRange(b_w, 0, FU_MAP_SIZE) == NULL);

  /* Spontaneous: Mapped when its callback runs. */
  FU_CHECK_ONCE(&m_sp);
  FU_CHECK_STATUS(&m_sp, WGPUMapAsyncStatus_Success);
  CHECK(m_sp.range != NULL);
  CHECK_EQ(wgpuBufferGetMapState(b_sp), WGPUBufferMapState_Mapped);

  /* ProcessEvents delivers: Mapped inside the callback. */
  CHECK(fu_pump_until1(ctx.instance, &m_pe, FU_WAIT_S));
  FU_CHECK_STATUS(&m_pe, WGPUMapAsyncStatus_Success);
  CHECK_EQ(m_pe.state_in_cb, WGPUBufferMapState_Mapped);
  CHECK(m_pe.range != NULL);
  CHECK_EQ(wgpuBufferGetMapState(b_pe), WGPUBufferMapState_Mapped);
  CHECK_EQ(wgpuBufferGetMapState(b_w), WGPUBufferMapState_Pending); /* still */

  /* WaitAny delivers: Mapped inside the callback. */
  CHECK_EQ(fu_wait1(ctx.instance, fw, FU_WAIT_S, &m_w, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&m_w);
  FU_CHECK_STATUS(&m_w, WGPUMapAsyncStatus_Success);
  CHECK_EQ(m_w.state_in_cb, WGPUBufferMapState_Mapped);
  CHECK(m_w.range != NULL);
  CHECK_EQ(wgpuBufferGetMapState(b_w), WGPUBufferMapState_Mapped);

  /* Complete but undelivered, then Unmap: aborted. */
  WGPUBuffer b_a = fu_busy_map_buffer(&ctx, 1u << 14, 2);
  WGPUFuture fa = fu_map_read(b_a, WGPUCallbackMode_WaitAnyOnly, &m_abort);
  fu_workdone(ctx.queue, WGPUCallbackMode_AllowSpontaneous, &probe2);
  fu_sleep_until1(&probe2, 5.0);
  fu_idle(0.05);
  CHECK_EQ(wgpuBufferGetMapState(b_a), WGPUBufferMapState_Pending);
  wgpuBufferUnmap(b_a);
  CHECK_EQ(wgpuBufferGetMapState(b_a), WGPUBufferMapState_Unmapped);
  CHECK_EQ(fu_wait1(ctx.instance, fa, FU_WAIT_S, &m_abort, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&m_abort);
  FU_CHECK_STATUS(&m_abort, WGPUMapAsyncStatus_Aborted);
  CHECK_EQ(wgpuBufferGetMapState(b_a), WGPUBufferMapState_Unmapped);
  CHECK(wgpuBufferGetConstMappedRange(b_a, 0, FU_MAP_SIZE) == NULL);

  wgpuBufferRelease(b_pe);
  wgpuBufferRelease(b_sp);
  wgpuBufferRelease(b_w);
  wgpuBufferRelease(b_a);
  ctx_release(&ctx);
  return test_finish();
}
