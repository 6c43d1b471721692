/* Rule (spec §8.1 "every callback runs exactly once, including the
 * cancellation path", §8.9, §2): a mix of every async op (RequestAdapter,
 * RequestDevice, MapAsync, OnSubmittedWorkDone, PopErrorScope (with and
 * without a scope), GetCompilationInfo, CreateComputePipelineAsync, and the
 * lost callbacks of the requested devices and of the main device), in every
 * callback mode, half of them driven (WaitAny / ProcessEvents / waiting with
 * no calls, devices destroyed so their lost callbacks fire) and half left
 * alone, then everything released: each callback ran exactly once. Driven
 * callbacks report success (Error for the pop of an empty stack, Destroyed
 * for a lost device). Run twice: objects released before the instance, and
 * the instance released first. */
#define _GNU_SOURCE
#include "futures_util.h"

enum { OP_ADAPTER, OP_DEVICE, OP_DEVICE_LOST, OP_MAP, OP_WORKDONE, OP_POP, OP_POP_EMPTY, OP_COMPINFO, OP_PIPELINE, NOPS };
static const char *op_names[NOPS] = {"RequestAdapter", "RequestDevice", "requested device lost",
                                     "MapAsync",       "OnSubmittedWorkDone", "PopErrorScope",
                                     "PopErrorScope (empty stack)", "GetCompilationInfo",
                                     "CreateComputePipelineAsync"};
static const int success[NOPS] = {WGPURequestAdapterStatus_Success, WGPURequestDeviceStatus_Success,
                                  WGPUDeviceLostReason_Destroyed,   WGPUMapAsyncStatus_Success,
                                  WGPUQueueWorkDoneStatus_Success,  WGPUPopErrorScopeStatus_Success,
                                  WGPUPopErrorScopeStatus_Error,    WGPUCompilationInfoRequestStatus_Success,
                                  WGPUCreatePipelineAsyncStatus_Success};
static const WGPUCallbackMode modes[3] = {WGPUCallbackMode_WaitAnyOnly, WGPUCallbackMode_AllowProcessEvents,
                                          WGPUCallbackMode_AllowSpontaneous};

typedef struct {
  FuRec r[NOPS];
  WGPUFuture f[NOPS];
  WGPUAdapter adapter; /* used for RequestDevice */
  WGPUBuffer buffer;
} Set;

/* [run][mode][driven?] */
static Set sets[2][3][2];
static FuRec main_lost[2];
static char names[2][3][2][NOPS][96];

static void issue(Ctx *ctx, WGPUShaderModule module, WGPUBuffer src, Set *s, WGPUCallbackMode mode) {
  s->adapter = fu_get_adapter(ctx->instance, 1);
  s->f[OP_ADAPTER] = fu_request_adapter(ctx->instance, mode, &s->r[OP_ADAPTER]);
  if (s->adapter) {
    s->f[OP_DEVICE] = fu_request_device(s->adapter, mode, &s->r[OP_DEVICE], mode, &s->r[OP_DEVICE_LOST], NULL);
  } else {
    CHECK(!"no adapter for RequestDevice");
  }
  s->buffer = fu_copy_to_map_buffer(ctx, src);
  s->f[OP_MAP] = fu_map_read(s->buffer, mode, &s->r[OP_MAP]);
  s->f[OP_WORKDONE] = fu_workdone(ctx->queue, mode, &s->r[OP_WORKDONE]);
  s->f[OP_POP] = fu_push_pop(ctx->device, mode, &s->r[OP_POP]);
  s->f[OP_POP_EMPTY] = fu_pop(ctx->device, mode, &s->r[OP_POP_EMPTY]);
  s->f[OP_COMPINFO] = fu_compinfo(module, mode, &s->r[OP_COMPINFO]);
  s->f[OP_PIPELINE] = fu_pipeline_async(ctx->device, module, mode, &s->r[OP_PIPELINE]);
}

/* Drives every op of s to delivery in its mode (the requested device is
 * destroyed once delivered, and its lost callback driven too). */
static void drive(Ctx *ctx, Set *s, WGPUCallbackMode mode) {
  FuRec *all[NOPS];
  WGPUFuture fs[NOPS];
  size_t n = 0;
  for (int op = 0; op < NOPS; op++) {
    if (op == OP_DEVICE_LOST) continue;
    all[n] = &s->r[op];
    fs[n] = s->f[op];
    n++;
  }
  int ok;
  if (mode == WGPUCallbackMode_WaitAnyOnly) {
    ok = fu_wait_all(ctx->instance, fs, all, n, 0 /* mixed sources: polls */, 5.0);
  } else if (mode == WGPUCallbackMode_AllowProcessEvents) {
    ok = fu_pump_until(ctx->instance, all, n, 5.0);
  } else {
    ok = fu_sleep_until(all, n, 5.0);
  }
  CHECK(ok);
  WGPUDevice dev = (WGPUDevice)s->r[OP_DEVICE].obj;
  if (!dev) return;
  WGPUFuture lost = wgpuDeviceGetLostFuture(dev);
  wgpuDeviceDestroy(dev);
  FuRec *l = &s->r[OP_DEVICE_LOST];
  if (mode == WGPUCallbackMode_WaitAnyOnly) {
    ok = fu_wait_all(ctx->instance, &lost, &l, 1, 1, 5.0);
  } else if (mode == WGPUCallbackMode_AllowProcessEvents) {
    ok = fu_pump_until(ctx->instance, &l, 1, 5.0);
  } else {
    ok = fu_sleep_until(&l, 1, 5.0);
  }
  CHECK(ok);
}

static void release_set(Set *s) {
  if (s->r[OP_ADAPTER].obj) wgpuAdapterRelease((WGPUAdapter)s->r[OP_ADAPTER].obj);
  if (s->r[OP_DEVICE].obj) wgpuDeviceRelease((WGPUDevice)s->r[OP_DEVICE].obj);
  if (s->r[OP_PIPELINE].obj) wgpuComputePipelineRelease((WGPUComputePipeline)s->r[OP_PIPELINE].obj);
  if (s->adapter) wgpuAdapterRelease(s->adapter);
  if (s->buffer) wgpuBufferRelease(s->buffer);
}

static void run(int instance_first) {
  fu_rec_init(&main_lost[instance_first], "main device lost");
  WGPUCallbackMode lost_mode = instance_first ? WGPUCallbackMode_AllowProcessEvents : WGPUCallbackMode_WaitAnyOnly;
  Ctx ctx;
  if (fu_ctx_init(&ctx, 1, lost_mode, &main_lost[instance_first]) != 0) {
    CHECK(!"context creation failed");
    return;
  }
  WGPUShaderModule module = make_wgsl(ctx.device, HARNESS_SPIN_WGSL);
  WGPUBuffer src = make_buffer(ctx.device, FU_MAP_SIZE, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 0);

  for (int m = 0; m < 3; m++) {
    for (int d = 0; d < 2; d++) {
      Set *s = &sets[instance_first][m][d];
      memset(s, 0, sizeof *s);
      for (int op = 0; op < NOPS; op++) {
        snprintf(names[instance_first][m][d][op], sizeof names[0][0][0][0], "%s %s %s (%s)", op_names[op],
                 fu_mode_name(modes[m]), d ? "driven" : "left alone",
                 instance_first ? "instance released first" : "objects released first");
        fu_rec_init(&s->r[op], names[instance_first][m][d][op]);
      }
      issue(&ctx, module, src, s, modes[m]);
    }
  }
  for (int m = 0; m < 3; m++) {
    Set *s = &sets[instance_first][m][1];
    drive(&ctx, s, modes[m]);
    for (int op = 0; op < NOPS; op++) {
      if (op == OP_DEVICE_LOST && !s->r[OP_DEVICE].obj) continue;
      FU_CHECK_ONCE(&s->r[op]);
      FU_CHECK_STATUS(&s->r[op], success[op]);
    }
  }

  if (!instance_first) {
    for (int m = 0; m < 3; m++)
      for (int d = 0; d < 2; d++) release_set(&sets[instance_first][m][d]);
    wgpuBufferRelease(src);
    wgpuShaderModuleRelease(module);
    wgpuQueueRelease(ctx.queue);
    wgpuDeviceRelease(ctx.device);
    wgpuAdapterRelease(ctx.adapter);
    fu_release_instance(ctx.instance);
  } else {
    fu_release_instance(ctx.instance);
    for (int m = 0; m < 3; m++)
      for (int d = 0; d < 2; d++) release_set(&sets[instance_first][m][d]);
    wgpuBufferRelease(src);
    wgpuShaderModuleRelease(module);
    wgpuQueueRelease(ctx.queue);
    wgpuDeviceRelease(ctx.device);
    wgpuAdapterRelease(ctx.adapter);
  }
  fu_idle(0.2);

  for (int m = 0; m < 3; m++)
    for (int d = 0; d < 2; d++)
      for (int op = 0; op < NOPS; op++) FU_CHECK_ONCE(&sets[instance_first][m][d].r[op]);
  FU_CHECK_ONCE(&main_lost[instance_first]);
}

int main(void) {
  fu_begin(100);
  run(0);
  run(1);
  return test_finish();
}
