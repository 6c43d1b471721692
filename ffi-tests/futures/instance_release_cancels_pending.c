/* Rule (spec §2 "Instance", §6 "Device lost", §8.9; DECISIONS "Thread of
 * CallbackCancelled callbacks"): releasing the last instance ref fires every
 * callback not yet delivered exactly once with CallbackCancelled (device lost:
 * reason CallbackCancelled), inside wgpuInstanceRelease, on the calling
 * thread, in future order, and returns promptly even with GPU work running.
 * Covers WaitAnyOnly and AllowProcessEvents futures never waited / pumped
 * (queue and CPU timeline), whose operation may be complete or still running,
 * and a WaitAnyOnly device-lost callback. An AllowSpontaneous work-done on a
 * job still running gets exactly one call (Success before, or Cancelled in
 * the release), and nothing runs after the release returned.
 * Two sub-cases: (a) device, queue, buffers etc. still alive at the instance
 * release (released after it: no callback fires again); (b) all of them
 * released first (the device release destroys: maps aborted, device lost -
 * but those callbacks are non-spontaneous and must wait for the instance
 * release, which cancels them). */
#define _GNU_SOURCE
#include "futures_util.h"

enum { LOST, MAP_W, WD_W, MAP_P, WD_P, POP_W, POP_P, COMP_W, PIPE_P, ADAPTER_W, NREC };
static const char *names[NREC] = {
    "device lost WaitAnyOnly",   "map WaitAnyOnly (busy buffer)", "work-done WaitAnyOnly", "map APE (busy buffer)",
    "work-done APE",             "pop error scope WaitAnyOnly",    "pop error scope APE",   "compilation info WaitAnyOnly",
    "pipeline async APE",        "request adapter WaitAnyOnly"};
static const int cancelled[NREC] = {
    WGPUDeviceLostReason_CallbackCancelled,        WGPUMapAsyncStatus_CallbackCancelled,
    WGPUQueueWorkDoneStatus_CallbackCancelled,     WGPUMapAsyncStatus_CallbackCancelled,
    WGPUQueueWorkDoneStatus_CallbackCancelled,     WGPUPopErrorScopeStatus_CallbackCancelled,
    WGPUPopErrorScopeStatus_CallbackCancelled,     WGPUCompilationInfoRequestStatus_CallbackCancelled,
    WGPUCreatePipelineAsyncStatus_CallbackCancelled, WGPURequestAdapterStatus_CallbackCancelled};
static FuRec rec[2][NREC], spont[2];
static SpinJob job;

static void run(int objects_first) {
  FuRec *r = rec[objects_first];
  for (int i = 0; i < NREC; i++) fu_rec_init(&r[i], names[i]);
  FuRec *sp = &spont[objects_first];
  fu_rec_init(sp, "spontaneous work-done on a running job");
  Ctx ctx;
  if (fu_ctx_init(&ctx, 1, WGPUCallbackMode_WaitAnyOnly, &r[LOST]) != 0) {
    CHECK(!"context creation failed");
    return;
  }
  if (!job.ok) job = fu_calibrate(&ctx, 1, 0.4);
  CHECK(job.ok);

  /* A quick job, its map/work-done futures complete soon... */
  WGPUBuffer quick = fu_busy_map_buffer(&ctx, 1u << 12, 1);
  fu_map_read(quick, WGPUCallbackMode_WaitAnyOnly, &r[MAP_W]);
  fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &r[WD_W]);
  /* ...a long one: these are still pending at the release. */
  WGPUBuffer slow = fu_busy_map_buffer(&ctx, job.iterations, job.dispatches);
  fu_map_read(slow, WGPUCallbackMode_AllowProcessEvents, &r[MAP_P]);
  fu_workdone(ctx.queue, WGPUCallbackMode_AllowProcessEvents, &r[WD_P]);
  fu_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &r[POP_W]);
  fu_push_pop(ctx.device, WGPUCallbackMode_AllowProcessEvents, &r[POP_P]);
  WGPUShaderModule module = make_wgsl(ctx.device, HARNESS_SPIN_WGSL);
  fu_compinfo(module, WGPUCallbackMode_WaitAnyOnly, &r[COMP_W]);
  fu_pipeline_async(ctx.device, module, WGPUCallbackMode_AllowProcessEvents, &r[PIPE_P]);
  fu_request_adapter(ctx.instance, WGPUCallbackMode_WaitAnyOnly, &r[ADAPTER_W]);
  fu_workdone(ctx.queue, WGPUCallbackMode_AllowSpontaneous, sp);

  fu_idle(0.05); /* the quick job is done; nothing here may have fired */
  for (int i = 0; i < NREC; i++) FU_CHECK_NOT_CALLED(&r[i]);

  if (objects_first) {
    wgpuShaderModuleRelease(module);
    wgpuBufferRelease(quick);
    wgpuBufferRelease(slow);
    wgpuQueueRelease(ctx.queue);
    wgpuDeviceRelease(ctx.device);
    wgpuAdapterRelease(ctx.adapter);
    /* Maps aborted and the device lost, but non-spontaneous: not delivered yet. */
    fu_idle(0.05);
    for (int i = 0; i < NREC; i++) FU_CHECK_NOT_CALLED(&r[i]);
  }

  double t0 = now_s();
  fu_release_instance(ctx.instance);
  double t_released = now_s();
  CHECK(t_released - t0 < 5.0 * harness_time_scale());

  int in_order = 1;
  for (int i = 0; i < NREC; i++) {
    FU_CHECK_ONCE(&r[i]);
    FU_CHECK_STATUS(&r[i], cancelled[i]);
    CHECK(r[i].on_main);
    CHECK_EQ(r[i].phase, FU_PHASE_RELEASE);
    if (i > 0 && !(r[i - 1].seq < r[i].seq)) in_order = 0;
  }
  CHECK(in_order); /* future order = issue order here (the lost future first) */
  CHECK(r[ADAPTER_W].obj == NULL);
  CHECK(r[PIPE_P].obj == NULL);
  CHECK(!r[LOST].dev_ptr_null);

  if (!objects_first) {
    wgpuShaderModuleRelease(module);
    wgpuBufferRelease(quick);
    wgpuBufferRelease(slow);
    wgpuQueueRelease(ctx.queue);
    wgpuDeviceRelease(ctx.device);
    wgpuAdapterRelease(ctx.adapter);
  }

  /* Let the long job finish: nothing may fire again, the spontaneous
   * work-done was called exactly once, not after the release returned. */
  fu_idle(job.seconds + 0.2);
  for (int i = 0; i < NREC; i++) FU_CHECK_ONCE(&r[i]);
  FU_CHECK_ONCE(sp);
  CHECK(sp->status == WGPUQueueWorkDoneStatus_Success || sp->status == WGPUQueueWorkDoneStatus_CallbackCancelled);
  if (fu_calls(sp) == 1) CHECK(sp->t_start <= t_released);
}

int main(void) {
  fu_begin(60);
  run(0);
  run(1);
  return test_finish();
}
