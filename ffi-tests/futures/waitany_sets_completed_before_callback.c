/* Rule (spec §8.3, I#360, Dawn): WaitAny sets `completed = WGPU_TRUE` in the
 * caller's WGPUFutureWaitInfo before it invokes that future's callback, for
 * every kind of future and mode, whether the future completed before the call
 * or during it, and whether it is waited alone or in a list. */
#define _GNU_SOURCE
#include "futures_util.h"

enum { N = 7 };
static FuRec a[N], b[N], during, lost;

/* Issues one future of each kind into fs/recs (recs named by prefix). */
static void issue(Ctx *ctx, WGPUShaderModule module, FuRec *r, WGPUFuture *fs, WGPUBuffer *buf) {
  static const char *names[N] = {"map WaitAnyOnly",        "work-done WaitAnyOnly",    "work-done AllowProcessEvents",
                                 "pop WaitAnyOnly",        "compilation info APE",     "pipeline async WaitAnyOnly",
                                 "request adapter WaitAnyOnly"};
  for (int i = 0; i < N; i++) fu_rec_init(&r[i], names[i]);
  *buf = fu_busy_map_buffer(ctx, 1u << 14, 2);
  fs[0] = fu_map_read(*buf, WGPUCallbackMode_WaitAnyOnly, &r[0]);
  fs[1] = fu_workdone(ctx->queue, WGPUCallbackMode_WaitAnyOnly, &r[1]);
  fs[2] = fu_workdone(ctx->queue, WGPUCallbackMode_AllowProcessEvents, &r[2]);
  fs[3] = fu_push_pop(ctx->device, WGPUCallbackMode_WaitAnyOnly, &r[3]);
  fs[4] = fu_compinfo(module, WGPUCallbackMode_AllowProcessEvents, &r[4]);
  fs[5] = fu_pipeline_async(ctx->device, module, WGPUCallbackMode_WaitAnyOnly, &r[5]);
  fs[6] = fu_request_adapter(ctx->instance, WGPUCallbackMode_WaitAnyOnly, &r[6]);
}

static void release_objs(FuRec *r) {
  if (r[5].obj) wgpuComputePipelineRelease((WGPUComputePipeline)r[5].obj);
  if (r[6].obj) wgpuAdapterRelease((WGPUAdapter)r[6].obj);
}

int main(void) {
  fu_begin(60);
  Ctx ctx;
  fu_rec_init(&lost, "device lost WaitAnyOnly");
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_WaitAnyOnly, &lost) == 0);
  WGPUShaderModule module = make_wgsl(ctx.device, HARNESS_SPIN_WGSL);

  /* Each future waited on alone. */
  WGPUFuture fa[N];
  WGPUBuffer bufa;
  issue(&ctx, module, a, fa, &bufa);
  for (int i = 0; i < N; i++) {
    WGPUBool completed = WGPU_FALSE;
    CHECK_EQ(fu_wait1(ctx.instance, fa[i], FU_WAIT_S, &a[i], &completed), WGPUWaitStatus_Success);
    CHECK(completed);
    FU_CHECK_ONCE(&a[i]);
    CHECK_EQ(a[i].completed_seen, 1);
  }

  /* All in one list (entries reported completed are left out of later calls). */
  WGPUFuture fb[N];
  WGPUBuffer bufb;
  issue(&ctx, module, b, fb, &bufb);
  FuRec *rb[N];
  for (int i = 0; i < N; i++) rb[i] = &b[i];
  CHECK(fu_wait_all(ctx.instance, fb, rb, N, 0 /* mixed sources: polls */, FU_WAIT_S));
  for (int i = 0; i < N; i++) {
    FU_CHECK_ONCE(&b[i]);
    CHECK_EQ(b[i].completed_seen, 1);
  }

  /* A future that completes during the wait (a job of ~100 ms). */
  fu_rec_init(&during, "work-done completing during the wait");
  SpinJob job = fu_calibrate(&ctx, 1, 0.1);
  WGPUBuffer out = submit_spin_job(&ctx, job.iterations, job.dispatches);
  WGPUFuture fd = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &during);
  CHECK_EQ(fu_wait1(ctx.instance, fd, FU_WAIT_S, &during, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&during);
  CHECK_EQ(during.completed_seen, 1);

  /* The device-lost future. */
  WGPUFuture fl = wgpuDeviceGetLostFuture(ctx.device);
  wgpuDeviceDestroy(ctx.device);
  CHECK_EQ(fu_wait1(ctx.instance, fl, FU_WAIT_S, &lost, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&lost);
  CHECK_EQ(lost.completed_seen, 1);

  release_objs(a);
  release_objs(b);
  wgpuBufferRelease(out);
  wgpuBufferRelease(bufa);
  wgpuBufferRelease(bufb);
  wgpuShaderModuleRelease(module);
  ctx_release(&ctx);
  return test_finish();
}
