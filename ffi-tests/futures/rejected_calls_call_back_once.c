/* Rule (DECISIONS "A rejected asynchronous call"): every asynchronous call
 * that is rejected before its operation starts (a NULL handle, callback mode
 * 0 or unknown, a chain on the callback info, a bad descriptor, a device-lost
 * callback info that is invalid) still calls its callback exactly once, with
 * the error status of its callback type:
 * - the handle is valid and the mode is valid: in that mode (WaitAnyOnly:
 *   only in a WaitAny on the returned future; AllowProcessEvents: also in
 *   ProcessEvents), through a real future that WaitAny reports complete;
 * - the handle is valid and the mode is not: inside the call; the future is
 *   the null future, as Dawn returns (nothing to wait on: the callback ran);
 * - the handle is NULL: inside the call; the future is the null future.
 * A NULL callback changes nothing but that nothing is called. Nothing is
 * called a second time, not by WaitAny, ProcessEvents or instance release.
 * RequestDevice rejections call the device-lost callback once too, with
 * FailedCreation (in its mode when valid, else inside the call).
 * The statuses: Error; ValidationError for the pipelines; CallbackCancelled
 * for GetCompilationInfo (its status has no error value); FailedCreation for
 * the lost callback; WGPUShimUserEventStatus_Error for user events.
 *
 * Run as `futures.rejected_calls_call_back_once` (the standard's rules) and
 * with argv[1] = "compat" (WGPU_SHIM_COMPAT=wgpu-native), where mode 0 means
 * AllowSpontaneous for CPU-timeline operations and AllowProcessEvents for
 * MapAsync and OnSubmittedWorkDone, and so decides where the error goes. */
#define _GNU_SOURCE
#include <webgpu/wgpu_shim.h>

#include "futures_util.h"

enum Where { INLINE, WAITANY, PROCESS, NEVER };
enum FutureKind { NULL_FUTURE, REAL_FUTURE };

static Ctx ctx;
static WGPUShaderModule module;
static WGPUBuffer map_buffer;
/* An unknown sType: no callback info accepts a chain. */
static WGPUChainedStruct bad_chain = {NULL, (WGPUSType)0x7FFF0001};

#define MODE0 ((WGPUCallbackMode)0)
#define MODE_BAD ((WGPUCallbackMode)0x1234)
#define WA WGPUCallbackMode_WaitAnyOnly
#define PE WGPUCallbackMode_AllowProcessEvents
#define SP WGPUCallbackMode_AllowSpontaneous

typedef struct Case Case;
struct Case {
  const char *name;
  WGPUFuture (*issue)(const Case *c, FuRec *r, FuRec *lost);
  WGPUCallbackMode mode;
  int null_handle, chain, null_callback;
  enum Where where;
  enum FutureKind future;
  int status;
  /* RequestDevice: the lost callback's info and what it must see. */
  WGPUCallbackMode lost_mode;
  int lost_chain;
  enum Where lost_where;
};

static void user_event_cb(WGPUShimUserEventStatus status, void *u1, void *u2) {
  (void)u2;
  if (u1) fu_note((FuRec *)u1, (int)status);
}

static void render_pipeline_cb(WGPUCreatePipelineAsyncStatus status, WGPURenderPipeline pipeline,
                               WGPUStringView message, void *u1, void *u2) {
  (void)u2;
  FuRec *r = (FuRec *)u1;
  if (!r) return;
  r->obj = (void *)pipeline;
  r->msg_len = sv_len(message);
  fu_note(r, (int)status);
}

#define FILL_INFO(ci, cb_fn)                     \
  do {                                           \
    (ci).mode = c->mode;                         \
    (ci).callback = c->null_callback ? NULL : (cb_fn); \
    (ci).userdata1 = r;                          \
    (ci).nextInChain = c->chain ? &bad_chain : NULL; \
  } while (0)

static WGPUFuture issue_map(const Case *c, FuRec *r, FuRec *lost) {
  (void)lost;
  WGPUBufferMapCallbackInfo ci = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  FILL_INFO(ci, fu_map_cb);
  return wgpuBufferMapAsync(c->null_handle ? NULL : map_buffer, WGPUMapMode_Read, 0, FU_MAP_SIZE, ci);
}

static WGPUFuture issue_map2(const Case *c, FuRec *r, FuRec *lost) {
  (void)lost;
  WGPUBufferMapCallbackInfo ci = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  FILL_INFO(ci, fu_map_cb);
  return wgpuBufferMapAsync2(c->null_handle ? NULL : map_buffer, WGPUMapMode_Read, 0, FU_MAP_SIZE, ci);
}

static WGPUFuture issue_workdone(const Case *c, FuRec *r, FuRec *lost) {
  (void)lost;
  WGPUQueueWorkDoneCallbackInfo ci = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  FILL_INFO(ci, fu_workdone_cb);
  return wgpuQueueOnSubmittedWorkDone(c->null_handle ? NULL : ctx.queue, ci);
}

static WGPUFuture issue_pop(const Case *c, FuRec *r, FuRec *lost) {
  (void)lost;
  WGPUPopErrorScopeCallbackInfo ci = WGPU_POP_ERROR_SCOPE_CALLBACK_INFO_INIT;
  FILL_INFO(ci, fu_pop_cb);
  /* A scope to pop, so that the only problem is the rejection. */
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  WGPUFuture f = wgpuDevicePopErrorScope(c->null_handle ? NULL : ctx.device, ci);
  return f;
}

static WGPUFuture issue_compinfo(const Case *c, FuRec *r, FuRec *lost) {
  (void)lost;
  WGPUCompilationInfoCallbackInfo ci = WGPU_COMPILATION_INFO_CALLBACK_INFO_INIT;
  FILL_INFO(ci, fu_compinfo_cb);
  return wgpuShaderModuleGetCompilationInfo(c->null_handle ? NULL : module, ci);
}

/* A valid descriptor unless the case's lost_chain field says "NULL descriptor". */
static WGPUFuture issue_compute(const Case *c, FuRec *r, FuRec *lost) {
  (void)lost;
  WGPUComputePipelineDescriptor desc = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  desc.compute.module = module;
  desc.compute.entryPoint = sv("main");
  WGPUCreateComputePipelineAsyncCallbackInfo ci = WGPU_CREATE_COMPUTE_PIPELINE_ASYNC_CALLBACK_INFO_INIT;
  FILL_INFO(ci, fu_pipeline_cb);
  return wgpuDeviceCreateComputePipelineAsync(c->null_handle ? NULL : ctx.device, c->lost_chain ? NULL : &desc, ci);
}

/* Always a NULL descriptor (or a NULL device). */
static WGPUFuture issue_render(const Case *c, FuRec *r, FuRec *lost) {
  (void)lost;
  WGPUCreateRenderPipelineAsyncCallbackInfo ci = WGPU_CREATE_RENDER_PIPELINE_ASYNC_CALLBACK_INFO_INIT;
  FILL_INFO(ci, render_pipeline_cb);
  return wgpuDeviceCreateRenderPipelineAsync(c->null_handle ? NULL : ctx.device, NULL, ci);
}

static WGPUFuture issue_adapter(const Case *c, FuRec *r, FuRec *lost) {
  (void)lost;
  WGPURequestAdapterCallbackInfo ci = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  FILL_INFO(ci, fu_adapter_cb);
  return wgpuInstanceRequestAdapter(c->null_handle ? NULL : ctx.instance, NULL, ci);
}

static WGPUFuture issue_device(const Case *c, FuRec *r, FuRec *lost) {
  WGPUDeviceDescriptor desc = WGPU_DEVICE_DESCRIPTOR_INIT;
  desc.deviceLostCallbackInfo.mode = c->lost_mode;
  desc.deviceLostCallbackInfo.callback = fu_lost_cb;
  desc.deviceLostCallbackInfo.userdata1 = lost;
  desc.deviceLostCallbackInfo.nextInChain = c->lost_chain ? &bad_chain : NULL;
  WGPURequestDeviceCallbackInfo ci = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  FILL_INFO(ci, fu_device_cb);
  return wgpuAdapterRequestDevice(c->null_handle ? NULL : ctx.adapter, &desc, ci);
}

static WGPUFuture issue_user_event(const Case *c, FuRec *r, FuRec *lost) {
  (void)lost;
  WGPUShimUserEventCallbackInfo ci = {0};
  FILL_INFO(ci, user_event_cb);
  return wgpuShimInstanceCreateUserEvent(c->null_handle ? NULL : ctx.instance, ci);
}

/* name, issue, mode, null_handle, chain, null_callback, where, future, status, lost_mode, lost_chain, lost_where */
static const Case standard_cases[] = {
    {"MapAsync NULL buffer", issue_map, WA, 1, 0, 0, INLINE, NULL_FUTURE, WGPUMapAsyncStatus_Error, 0, 0, NEVER},
    {"MapAsync mode 0", issue_map, MODE0, 0, 0, 0, INLINE, NULL_FUTURE, WGPUMapAsyncStatus_Error, 0, 0, NEVER},
    {"MapAsync unknown mode", issue_map, MODE_BAD, 0, 0, 0, INLINE, NULL_FUTURE, WGPUMapAsyncStatus_Error, 0, 0,
     NEVER},
    {"MapAsync chain, WaitAnyOnly", issue_map, WA, 0, 1, 0, WAITANY, REAL_FUTURE, WGPUMapAsyncStatus_Error, 0, 0,
     NEVER},
    {"MapAsync chain, AllowProcessEvents", issue_map, PE, 0, 1, 0, PROCESS, REAL_FUTURE, WGPUMapAsyncStatus_Error, 0,
     0, NEVER},
    {"MapAsync mode 0, NULL callback", issue_map, MODE0, 0, 0, 1, NEVER, NULL_FUTURE, 0, 0, 0, NEVER},
    {"MapAsync2 mode 0", issue_map2, MODE0, 0, 0, 0, INLINE, NULL_FUTURE, WGPUMapAsyncStatus_Error, 0, 0, NEVER},
    {"MapAsync2 NULL buffer", issue_map2, SP, 1, 0, 0, INLINE, NULL_FUTURE, WGPUMapAsyncStatus_Error, 0, 0, NEVER},
    {"OnSubmittedWorkDone NULL queue", issue_workdone, WA, 1, 0, 0, INLINE, NULL_FUTURE,
     WGPUQueueWorkDoneStatus_Error, 0, 0, NEVER},
    {"OnSubmittedWorkDone mode 0", issue_workdone, MODE0, 0, 0, 0, INLINE, NULL_FUTURE, WGPUQueueWorkDoneStatus_Error,
     0, 0, NEVER},
    {"OnSubmittedWorkDone chain, WaitAnyOnly", issue_workdone, WA, 0, 1, 0, WAITANY, REAL_FUTURE,
     WGPUQueueWorkDoneStatus_Error, 0, 0, NEVER},
    {"PopErrorScope NULL device", issue_pop, PE, 1, 0, 0, INLINE, NULL_FUTURE, WGPUPopErrorScopeStatus_Error, 0, 0,
     NEVER},
    {"PopErrorScope mode 0", issue_pop, MODE0, 0, 0, 0, INLINE, NULL_FUTURE, WGPUPopErrorScopeStatus_Error, 0, 0,
     NEVER},
    {"PopErrorScope chain, AllowProcessEvents", issue_pop, PE, 0, 1, 0, PROCESS, REAL_FUTURE,
     WGPUPopErrorScopeStatus_Error, 0, 0, NEVER},
    {"GetCompilationInfo NULL module", issue_compinfo, WA, 1, 0, 0, INLINE, NULL_FUTURE,
     WGPUCompilationInfoRequestStatus_CallbackCancelled, 0, 0, NEVER},
    {"GetCompilationInfo unknown mode", issue_compinfo, MODE_BAD, 0, 0, 0, INLINE, NULL_FUTURE,
     WGPUCompilationInfoRequestStatus_CallbackCancelled, 0, 0, NEVER},
    {"GetCompilationInfo chain, WaitAnyOnly", issue_compinfo, WA, 0, 1, 0, WAITANY, REAL_FUTURE,
     WGPUCompilationInfoRequestStatus_CallbackCancelled, 0, 0, NEVER},
    {"CreateComputePipelineAsync NULL device", issue_compute, SP, 1, 0, 0, INLINE, NULL_FUTURE,
     WGPUCreatePipelineAsyncStatus_ValidationError, 0, 0, NEVER},
    {"CreateComputePipelineAsync mode 0", issue_compute, MODE0, 0, 0, 0, INLINE, NULL_FUTURE,
     WGPUCreatePipelineAsyncStatus_ValidationError, 0, 0, NEVER},
    {"CreateComputePipelineAsync NULL descriptor, WaitAnyOnly", issue_compute, WA, 0, 0, 0, WAITANY, REAL_FUTURE,
     WGPUCreatePipelineAsyncStatus_ValidationError, 0, 1, NEVER},
    {"CreateComputePipelineAsync chain, AllowProcessEvents", issue_compute, PE, 0, 1, 0, PROCESS, REAL_FUTURE,
     WGPUCreatePipelineAsyncStatus_ValidationError, 0, 0, NEVER},
    {"CreateRenderPipelineAsync NULL descriptor, WaitAnyOnly", issue_render, WA, 0, 0, 0, WAITANY, REAL_FUTURE,
     WGPUCreatePipelineAsyncStatus_ValidationError, 0, 0, NEVER},
    {"CreateRenderPipelineAsync mode 0", issue_render, MODE0, 0, 0, 0, INLINE, NULL_FUTURE,
     WGPUCreatePipelineAsyncStatus_ValidationError, 0, 0, NEVER},
    {"CreateRenderPipelineAsync NULL device", issue_render, PE, 1, 0, 0, INLINE, NULL_FUTURE,
     WGPUCreatePipelineAsyncStatus_ValidationError, 0, 0, NEVER},
    {"RequestAdapter NULL instance", issue_adapter, WA, 1, 0, 0, INLINE, NULL_FUTURE, WGPURequestAdapterStatus_Error, 0,
     0, NEVER},
    {"RequestAdapter mode 0", issue_adapter, MODE0, 0, 0, 0, INLINE, NULL_FUTURE, WGPURequestAdapterStatus_Error, 0, 0,
     NEVER},
    {"RequestAdapter chain, WaitAnyOnly", issue_adapter, WA, 0, 1, 0, WAITANY, REAL_FUTURE,
     WGPURequestAdapterStatus_Error, 0, 0, NEVER},
    /* The case of issue 17: a lost callback with mode 0. */
    {"RequestDevice lost mode 0, WaitAnyOnly", issue_device, WA, 0, 0, 0, WAITANY, REAL_FUTURE,
     WGPURequestDeviceStatus_Error, MODE0, 0, INLINE},
    {"RequestDevice lost unknown mode, AllowProcessEvents", issue_device, PE, 0, 0, 0, PROCESS, REAL_FUTURE,
     WGPURequestDeviceStatus_Error, MODE_BAD, 0, INLINE},
    {"RequestDevice lost chain (AllowProcessEvents), WaitAnyOnly", issue_device, WA, 0, 0, 0, WAITANY, REAL_FUTURE,
     WGPURequestDeviceStatus_Error, PE, 1, PROCESS},
    {"RequestDevice NULL adapter", issue_device, WA, 1, 0, 0, INLINE, NULL_FUTURE, WGPURequestDeviceStatus_Error, SP, 0,
     INLINE},
    {"RequestDevice mode 0", issue_device, MODE0, 0, 0, 0, INLINE, NULL_FUTURE, WGPURequestDeviceStatus_Error, SP, 0,
     INLINE},
    {"RequestDevice chain, AllowProcessEvents", issue_device, PE, 0, 1, 0, PROCESS, REAL_FUTURE,
     WGPURequestDeviceStatus_Error, SP, 0, INLINE},
    {"ShimInstanceCreateUserEvent mode 0", issue_user_event, MODE0, 0, 0, 0, INLINE, NULL_FUTURE,
     WGPUShimUserEventStatus_Error, 0, 0, NEVER},
    {"ShimInstanceCreateUserEvent NULL instance", issue_user_event, WA, 1, 0, 0, INLINE, NULL_FUTURE,
     WGPUShimUserEventStatus_Error, 0, 0, NEVER},
    {"ShimInstanceCreateUserEvent chain, WaitAnyOnly", issue_user_event, WA, 0, 1, 0, WAITANY, REAL_FUTURE,
     WGPUShimUserEventStatus_Error, 0, 0, NEVER},
};

/* Under wgpu-native compatibility mode 0 is a mode: the error follows it. */
static const Case compat_cases[] = {
    {"compat: MapAsync mode 0, chain", issue_map, MODE0, 0, 1, 0, PROCESS, REAL_FUTURE, WGPUMapAsyncStatus_Error, 0, 0,
     NEVER},
    {"compat: MapAsync NULL buffer, mode 0", issue_map, MODE0, 1, 0, 0, INLINE, NULL_FUTURE, WGPUMapAsyncStatus_Error,
     0, 0, NEVER},
    {"compat: MapAsync unknown mode", issue_map, MODE_BAD, 0, 0, 0, INLINE, NULL_FUTURE, WGPUMapAsyncStatus_Error, 0,
     0, NEVER},
    {"compat: OnSubmittedWorkDone mode 0, chain", issue_workdone, MODE0, 0, 1, 0, PROCESS, REAL_FUTURE,
     WGPUQueueWorkDoneStatus_Error, 0, 0, NEVER},
    {"compat: RequestAdapter mode 0, chain", issue_adapter, MODE0, 0, 1, 0, INLINE, REAL_FUTURE,
     WGPURequestAdapterStatus_Error, 0, 0, NEVER},
    {"compat: PopErrorScope mode 0, chain", issue_pop, MODE0, 0, 1, 0, INLINE, REAL_FUTURE,
     WGPUPopErrorScopeStatus_Error, 0, 0, NEVER},
    {"compat: GetCompilationInfo mode 0, chain", issue_compinfo, MODE0, 0, 1, 0, INLINE, REAL_FUTURE,
     WGPUCompilationInfoRequestStatus_CallbackCancelled, 0, 0, NEVER},
    {"compat: CreateComputePipelineAsync mode 0, NULL descriptor", issue_compute, MODE0, 0, 0, 0, INLINE, REAL_FUTURE,
     WGPUCreatePipelineAsyncStatus_ValidationError, 0, 1, NEVER},
    {"compat: RequestDevice mode 0, lost mode 0 with a chain", issue_device, MODE0, 0, 0, 0, INLINE, REAL_FUTURE,
     WGPURequestDeviceStatus_Error, MODE0, 1, INLINE},
    {"compat: ShimInstanceCreateUserEvent mode 0", issue_user_event, MODE0, 0, 0, 0, INLINE, NULL_FUTURE,
     WGPUShimUserEventStatus_Error, 0, 0, NEVER},
};

enum { MAX_CASES = 64 };
static FuRec recs[MAX_CASES], lost_recs[MAX_CASES];
static WGPUFuture futures[MAX_CASES];

static void expect_calls(FuRec *r, int expected, const char *when) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s: called %d times %s, expected %d", r->name, fu_calls(r), when, expected);
  harness_check(fu_calls(r) == expected, buf, __FILE__, __LINE__);
}

int main(int argc, char **argv) {
  int compat = argc > 1 && strcmp(argv[1], "compat") == 0;
  setenv("WGPU_SHIM_COMPAT", compat ? "wgpu-native" : "standard", 1);
  const Case *cases = compat ? compat_cases : standard_cases;
  size_t n = compat ? sizeof compat_cases / sizeof *compat_cases : sizeof standard_cases / sizeof *standard_cases;
  REQUIRE(n <= MAX_CASES);
  fu_begin(120);
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  module = make_wgsl(ctx.device, HARNESS_SPIN_WGSL);
  map_buffer = fu_idle_map_buffer(&ctx);

  for (size_t i = 0; i < n; i++) {
    const Case *c = &cases[i];
    FuRec *r = &recs[i], *lost = &lost_recs[i];
    fu_rec_init(r, c->name);
    fu_rec_init(lost, c->name);
    int old = fu_phase_enter(FU_PHASE_CALL);
    futures[i] = c->issue(c, r, lost);
    fu_phase_leave(old);
    char buf[256];
    snprintf(buf, sizeof buf, "%s: future %llu, expected %s", c->name, (unsigned long long)futures[i].id,
             c->future == NULL_FUTURE ? "the null future" : "a real one");
    harness_check((futures[i].id == 0) == (c->future == NULL_FUTURE), buf, __FILE__, __LINE__);
    expect_calls(r, c->where == INLINE ? 1 : 0, "when the call returned");
    if (c->where == INLINE) {
      CHECK_EQ(r->phase, FU_PHASE_CALL);
      FU_CHECK_STATUS(r, c->status);
    }
    if (c->lost_where != NEVER) expect_calls(lost, c->lost_where == INLINE ? 1 : 0, "(lost) when the call returned");
    if (c->lost_where == INLINE) FU_CHECK_STATUS(lost, WGPUDeviceLostReason_FailedCreation);
  }
  /* ProcessEvents delivers AllowProcessEvents errors, and only those. */
  for (int k = 0; k < 3; k++) fu_process_events(ctx.instance);
  for (size_t i = 0; i < n; i++) {
    const Case *c = &cases[i];
    expect_calls(&recs[i], c->where == INLINE || c->where == PROCESS ? 1 : 0, "after ProcessEvents");
    if (c->where == PROCESS) {
      CHECK_EQ(recs[i].phase, FU_PHASE_PROCESS_EVENTS);
      FU_CHECK_STATUS(&recs[i], c->status);
    }
    if (c->lost_where != NEVER) expect_calls(&lost_recs[i], 1, "(lost) after ProcessEvents");
    if (c->lost_where == PROCESS) {
      CHECK_EQ(lost_recs[i].phase, FU_PHASE_PROCESS_EVENTS);
      FU_CHECK_STATUS(&lost_recs[i], WGPUDeviceLostReason_FailedCreation);
    }
  }
  /* WaitAny (a poll) on each real future: Success, complete; the WaitAnyOnly
   * ones run now, the others are not run again. */
  for (size_t i = 0; i < n; i++) {
    const Case *c = &cases[i];
    if (c->future == NULL_FUTURE) continue;
    for (int pass = 0; pass < 2; pass++) {
      WGPUBool completed = WGPU_FALSE;
      WGPUWaitStatus st = fu_wait1(ctx.instance, futures[i], 0, &recs[i], &completed);
      char buf[256];
      snprintf(buf, sizeof buf, "%s: WaitAny pass %d status %d completed %d", c->name, pass, (int)st, (int)completed);
      harness_check(st == WGPUWaitStatus_Success && completed, buf, __FILE__, __LINE__);
    }
    expect_calls(&recs[i], c->where == NEVER ? 0 : 1, "after WaitAny");
    if (c->where == WAITANY) {
      CHECK_EQ(recs[i].phase, FU_PHASE_WAITANY);
      FU_CHECK_STATUS(&recs[i], c->status);
    }
  }

  /* The rejected maps left the buffer Unmapped: a valid map works. */
  CHECK_EQ(wgpuBufferGetMapState(map_buffer), WGPUBufferMapState_Unmapped);
  static FuRec valid_map;
  fu_rec_init(&valid_map, "valid map after the rejected ones");
  WGPUFuture fv = fu_map_read(map_buffer, WGPUCallbackMode_WaitAnyOnly, &valid_map);
  CHECK_EQ(fu_wait1(ctx.instance, fv, FU_WAIT_S, &valid_map, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&valid_map);
  FU_CHECK_STATUS(&valid_map, WGPUMapAsyncStatus_Success);
  wgpuBufferUnmap(map_buffer);

  wgpuBufferRelease(map_buffer);
  wgpuShaderModuleRelease(module);
  ctx_release(&ctx);
  fu_idle(0.05);
  /* Nothing ran a second time, not even the instance release. */
  for (size_t i = 0; i < n; i++) {
    expect_calls(&recs[i], cases[i].where == NEVER ? 0 : 1, "after the instance release");
    if (cases[i].lost_where != NEVER) expect_calls(&lost_recs[i], 1, "(lost) after the instance release");
  }
  return test_finish();
}
