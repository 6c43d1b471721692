/* Rule (spec §1, §8.2, §12 "Treating CallbackMode 0 as WaitAnyOnly";
 * DECISIONS "CallbackInfo.mode == 0 (or unknown)"): an async op whose
 * CallbackInfo.mode is 0 (what the INIT macros leave) or an unknown value
 * returns the null future and its callback is never called: not by
 * ProcessEvents, not by time passing, not by the instance release. No crash.
 * The rejected MapAsync leaves the buffer Unmapped, so a valid MapAsync
 * afterwards succeeds. WaitAny on the returned null future is Error. */
#define _GNU_SOURCE
#include "futures_util.h"

enum { OPS = 7 };
static FuRec r[2][OPS];
static const char *names[OPS] = {"MapAsync", "OnSubmittedWorkDone", "PopErrorScope", "GetCompilationInfo",
                                 "CreateComputePipelineAsync", "RequestAdapter", "RequestDevice"};
static FuRec valid_map;

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  WGPUShaderModule module = make_wgsl(ctx.device, HARNESS_SPIN_WGSL);
  const WGPUCallbackMode bad_modes[2] = {(WGPUCallbackMode)0, (WGPUCallbackMode)0x1234};
  WGPUBuffer bufs[2];
  WGPUAdapter adapters[2];

  for (int b = 0; b < 2; b++) {
    WGPUCallbackMode mode = bad_modes[b];
    for (int i = 0; i < OPS; i++) fu_rec_init(&r[b][i], names[i]);
    bufs[b] = fu_idle_map_buffer(&ctx);
    adapters[b] = fu_get_adapter(ctx.instance, 1);
    WGPUFuture f[OPS];
    f[0] = fu_map_read(bufs[b], mode, &r[b][0]);
    fu_submit_empty(&ctx);
    f[1] = fu_workdone(ctx.queue, mode, &r[b][1]);
    f[2] = fu_push_pop(ctx.device, mode, &r[b][2]);
    f[3] = fu_compinfo(module, mode, &r[b][3]);
    f[4] = fu_pipeline_async(ctx.device, module, mode, &r[b][4]);
    f[5] = fu_request_adapter(ctx.instance, mode, &r[b][5]);
    f[6] = adapters[b] ? fu_request_device(adapters[b], mode, &r[b][6], WGPUCallbackMode_AllowSpontaneous, NULL,
                                           NULL)
                       : WGPU_FUTURE_INIT;
    for (int i = 0; i < OPS; i++) {
      char buf[128];
      snprintf(buf, sizeof buf, "%s with mode 0x%x returns the null future (got %llu)", names[i], (unsigned)mode,
               (unsigned long long)f[i].id);
      harness_check(f[i].id == 0, buf, __FILE__, __LINE__);
    }
    /* The rejected map did not start. */
    CHECK_EQ(wgpuBufferGetMapState(bufs[b]), WGPUBufferMapState_Unmapped);
    /* WaitAny on the null future: Error (DECISIONS: null id). */
    WGPUBool completed = WGPU_FALSE;
    CHECK_EQ(fu_wait1(ctx.instance, f[0], 0, NULL, &completed), WGPUWaitStatus_Error);
  }

  for (int i = 0; i < 10; i++) {
    fu_process_events(ctx.instance);
    fu_sleep(0.01);
  }
  fu_idle(0.1);
  for (int b = 0; b < 2; b++)
    for (int i = 0; i < OPS; i++) FU_CHECK_NOT_CALLED(&r[b][i]);

  /* A valid map on the buffer works (it was never Pending). */
  fu_rec_init(&valid_map, "valid map after a rejected one");
  WGPUFuture fv = fu_map_read(bufs[0], WGPUCallbackMode_WaitAnyOnly, &valid_map);
  CHECK(fv.id != 0);
  CHECK_EQ(fu_wait1(ctx.instance, fv, FU_WAIT_S, &valid_map, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&valid_map);
  FU_CHECK_STATUS(&valid_map, WGPUMapAsyncStatus_Success);
  wgpuBufferUnmap(bufs[0]);

  for (int b = 0; b < 2; b++) {
    wgpuBufferRelease(bufs[b]);
    if (adapters[b]) wgpuAdapterRelease(adapters[b]);
  }
  wgpuShaderModuleRelease(module);
  ctx_release(&ctx);
  fu_idle(0.05);
  for (int b = 0; b < 2; b++)
    for (int i = 0; i < OPS; i++) FU_CHECK_NOT_CALLED(&r[b][i]);
  FU_CHECK_ONCE(&valid_map);
  return test_finish();
}
