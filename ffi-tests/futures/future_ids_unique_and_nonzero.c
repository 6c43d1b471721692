/* Rule (spec §8.1, §8.3 "future lifetime"; DECISIONS "a future that was issued
 * by this instance and has completed is recognised as completed"): every
 * future returned by an async op (in any valid mode) is non-null, and no two
 * are equal, including futures issued after earlier ones were delivered (ids
 * are not reused), and futures of two instances. wgpuDeviceGetLostFuture is the
 * one exception: it returns the same future every time. */
#define _GNU_SOURCE
#include "futures_util.h"

enum { ROUNDS = 3, PER_ROUND = 96, MAXF = 2048 };
static uint64_t ids[MAXF];
static size_t nids;
static FuRec recs[ROUNDS][PER_ROUND];
static FuRec misc[16];

static void add(WGPUFuture f) {
  if (nids < MAXF) ids[nids++] = f.id;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  static const WGPUCallbackMode modes[3] = {WGPUCallbackMode_WaitAnyOnly, WGPUCallbackMode_AllowProcessEvents,
                                            WGPUCallbackMode_AllowSpontaneous};
  WGPUShaderModule module = make_wgsl(ctx.device, HARNESS_SPIN_WGSL);

  /* Rounds of work-done / pop / map futures, each round delivered before the next. */
  for (int round = 0; round < ROUNDS; round++) {
    WGPUFuture fs[PER_ROUND];
    FuRec *rp[PER_ROUND];
    WGPUBuffer bufs[PER_ROUND / 8];
    for (int i = 0; i < PER_ROUND; i++) {
      fu_rec_init(&recs[round][i], "future");
      rp[i] = &recs[round][i];
      WGPUCallbackMode mode = modes[i % 3];
      if (i % 8 == 7) {
        bufs[i / 8] = fu_idle_map_buffer(&ctx);
        fs[i] = fu_map_read(bufs[i / 8], mode, rp[i]);
      } else if (i % 2) {
        fs[i] = fu_push_pop(ctx.device, mode, rp[i]);
      } else {
        if (i % 4 == 0) submit_empty(&ctx);
        fs[i] = fu_workdone(ctx.queue, mode, rp[i]);
      }
      add(fs[i]);
    }
    /* Deliver all of them: waiting works for every mode. */
    CHECK(fu_wait_all(ctx.instance, fs, NULL, PER_ROUND, 0 /* mixed sources: polls */, FU_WAIT_S));
    fu_sleep_until(rp, PER_ROUND, FU_WAIT_S);
    for (int i = 0; i < PER_ROUND; i++) FU_CHECK_ONCE(rp[i]);
    for (int b = 0; b < PER_ROUND / 8; b++) wgpuBufferRelease(bufs[b]);
  }

  /* The other kinds. */
  for (int i = 0; i < 16; i++) fu_rec_init(&misc[i], "misc");
  WGPUFuture fm[6];
  fm[0] = fu_compinfo(module, WGPUCallbackMode_WaitAnyOnly, &misc[0]);
  fm[1] = fu_pipeline_async(ctx.device, module, WGPUCallbackMode_WaitAnyOnly, &misc[1]);
  fm[2] = fu_request_adapter(ctx.instance, WGPUCallbackMode_WaitAnyOnly, &misc[2]);
  WGPUAdapter other_adapter = fu_get_adapter(ctx.instance, 1);
  REQUIRE(other_adapter != NULL);
  fm[3] = fu_request_device(other_adapter, WGPUCallbackMode_WaitAnyOnly, &misc[3], WGPUCallbackMode_WaitAnyOnly,
                            &misc[4], NULL);
  fm[4] = fu_compinfo(module, WGPUCallbackMode_AllowSpontaneous, &misc[5]);
  fm[5] = wgpuDeviceGetLostFuture(ctx.device);
  for (int i = 0; i < 6; i++) add(fm[i]);
  FuRec *mr[5] = {&misc[0], &misc[1], &misc[2], &misc[3], &misc[5]};
  CHECK(fu_wait_all(ctx.instance, fm, mr, 5, 1, FU_WAIT_S));
  WGPUDevice dev2 = (WGPUDevice)misc[3].obj;
  if (dev2) {
    WGPUFuture l2 = wgpuDeviceGetLostFuture(dev2);
    add(l2);
    CHECK(l2.id != fm[5].id);
    CHECK_EQ(wgpuDeviceGetLostFuture(dev2).id, l2.id);
  }
  CHECK_EQ(wgpuDeviceGetLostFuture(ctx.device).id, fm[5].id);

  /* A second instance's futures. */
  WGPUInstance other = create_instance(1);
  REQUIRE(other != NULL);
  FuRec *or_ = &misc[6];
  WGPUFuture fo = fu_request_adapter(other, WGPUCallbackMode_WaitAnyOnly, or_);
  add(fo);
  CHECK_EQ(fu_wait1(other, fo, FU_WAIT_S, or_, NULL), WGPUWaitStatus_Success);

  /* Non-null and pairwise distinct. */
  size_t zeros = 0;
  for (size_t i = 0; i < nids; i++) zeros += ids[i] == 0;
  CHECK_EQ(zeros, 0);
  qsort(ids, nids, sizeof ids[0], cmp_u64);
  size_t dups = 0;
  for (size_t i = 1; i < nids; i++) {
    if (ids[i] == ids[i - 1]) {
      fprintf(stderr, "future id %llu issued twice\n", (unsigned long long)ids[i]);
      dups++;
    }
  }
  CHECK_EQ(dups, 0);
  CHECK(nids > ROUNDS * PER_ROUND);

  if (or_->obj) wgpuAdapterRelease((WGPUAdapter)or_->obj);
  wgpuInstanceRelease(other);
  if (dev2) wgpuDeviceRelease(dev2);
  if (misc[1].obj) wgpuComputePipelineRelease((WGPUComputePipeline)misc[1].obj);
  if (misc[2].obj) wgpuAdapterRelease((WGPUAdapter)misc[2].obj);
  wgpuAdapterRelease(other_adapter);
  wgpuShaderModuleRelease(module);
  ctx_release(&ctx);
  return test_finish();
}
