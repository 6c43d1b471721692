/* Rule (DECISIONS "Spontaneous callbacks": "... or at the end of the API call
 * that completed the operation (CPU-timeline operations: inline)"; spec §8.2
 * "should fire as soon as they find out the op has completed"): with
 * AllowSpontaneous, CPU-timeline operations that complete inside their call
 * (RequestAdapter, RequestDevice, PopErrorScope, GetCompilationInfo,
 * CreateComputePipelineAsync) have run their callback by the time the call
 * returns, on the calling thread; wgpuDeviceDestroy has run an
 * AllowSpontaneous device-lost callback by the time it returns. Each once. */
#define _GNU_SOURCE
#include "futures_util.h"

enum { ADAPTER, DEVICE, POP, POP_EMPTY, COMP, PIPE, LOST, N };
static FuRec r[N];
static const char *names[N] = {"RequestAdapter", "RequestDevice", "PopErrorScope", "PopErrorScope (empty)",
                               "GetCompilationInfo", "CreateComputePipelineAsync", "device lost"};

static void check_inline(FuRec *x, int calls_at_return) {
  char buf[160];
  snprintf(buf, sizeof buf, "'%s' ran before its call returned (calls at return: %d)", x->name, calls_at_return);
  harness_check(calls_at_return == 1, buf, __FILE__, __LINE__);
  CHECK(x->on_main);
  CHECK_EQ(x->phase, FU_PHASE_CALL);
}

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  for (int i = 0; i < N; i++) fu_rec_init(&r[i], names[i]);
  int at_return[N];
  const WGPUCallbackMode S = WGPUCallbackMode_AllowSpontaneous;

  fu_request_adapter(ctx.instance, S, &r[ADAPTER]);
  at_return[ADAPTER] = fu_calls(&r[ADAPTER]);
  WGPUAdapter adapter = (WGPUAdapter)r[ADAPTER].obj;
  CHECK(adapter != NULL);

  if (adapter) {
    fu_request_device(adapter, S, &r[DEVICE], S, &r[LOST], NULL);
    at_return[DEVICE] = fu_calls(&r[DEVICE]);
  } else {
    at_return[DEVICE] = 0;
  }
  WGPUDevice dev = (WGPUDevice)r[DEVICE].obj;
  CHECK(dev != NULL);

  fu_push_pop(ctx.device, S, &r[POP]);
  at_return[POP] = fu_calls(&r[POP]);
  fu_pop(ctx.device, S, &r[POP_EMPTY]);
  at_return[POP_EMPTY] = fu_calls(&r[POP_EMPTY]);

  WGPUShaderModule module = make_wgsl(ctx.device, HARNESS_SPIN_WGSL);
  fu_compinfo(module, S, &r[COMP]);
  at_return[COMP] = fu_calls(&r[COMP]);
  fu_pipeline_async(ctx.device, module, S, &r[PIPE]);
  at_return[PIPE] = fu_calls(&r[PIPE]);

  if (dev) {
    int old = fu_phase_enter(FU_PHASE_CALL);
    wgpuDeviceDestroy(dev);
    fu_phase_leave(old);
    at_return[LOST] = fu_calls(&r[LOST]);
  } else {
    at_return[LOST] = 0;
  }

  for (int i = 0; i < N; i++) check_inline(&r[i], at_return[i]);
  FU_CHECK_STATUS(&r[POP], WGPUPopErrorScopeStatus_Success);
  FU_CHECK_STATUS(&r[POP_EMPTY], WGPUPopErrorScopeStatus_Error);
  FU_CHECK_STATUS(&r[COMP], WGPUCompilationInfoRequestStatus_Success);
  FU_CHECK_STATUS(&r[PIPE], WGPUCreatePipelineAsyncStatus_Success);
  FU_CHECK_STATUS(&r[LOST], WGPUDeviceLostReason_Destroyed);

  fu_idle(0.05);
  if (r[PIPE].obj) wgpuComputePipelineRelease((WGPUComputePipeline)r[PIPE].obj);
  if (dev) wgpuDeviceRelease(dev);
  if (adapter) wgpuAdapterRelease(adapter);
  wgpuShaderModuleRelease(module);
  ctx_release(&ctx);
  for (int i = 0; i < N; i++) FU_CHECK_ONCE(&r[i]);
  return test_finish();
}
