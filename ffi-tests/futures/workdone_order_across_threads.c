/* Rule (spec §8.8): on one queue, OnSubmittedWorkDone callbacks settle in call
 * order. Checked where wgpu-shim batches work-done futures and completes idle
 * ones at once: 6 threads each register 300 work-done futures
 * (AllowProcessEvents), with submits, empty submits and writes between some
 * of them, on one device; one more thread delivers everything through
 * ProcessEvents. Each callback takes a global sequence number; for every
 * thread, its futures' numbers must grow in the order it registered them
 * (a later future of a thread never settles before an earlier one), and every
 * callback runs exactly once. */
#define _GNU_SOURCE
#include "futures_util.h"

enum { THREADS = 6, PER = 300 };
static Ctx ctx;
static FuRec recs[THREADS][PER];
static atomic_int registering;
static WGPUBuffer scratch[THREADS];

static void *worker(void *arg) {
  int t = (int)(intptr_t)arg;
  uint32_t seed = 0x9e3779b9u * (uint32_t)(t + 1);
  for (int i = 0; i < PER; i++) {
    seed = seed * 1664525u + 1013904223u;
    switch (seed >> 29) {
      case 0:
      case 1:
        submit_empty(&ctx);
        break;
      case 2: {
        uint32_t data[4] = {(uint32_t)i, (uint32_t)t, 0, 0};
        wgpuQueueWriteBuffer(ctx.queue, scratch[t], 0, data, sizeof data);
        break;
      }
      default: /* nothing new: join the current batch or complete at once */
        break;
    }
    fu_rec_init(&recs[t][i], "work-done");
    WGPUFuture f = fu_workdone(ctx.queue, WGPUCallbackMode_AllowProcessEvents, &recs[t][i]);
    if (f.id == 0) fprintf(stderr, "thread %d: future %d is null\n", t, i);
  }
  atomic_fetch_sub(&registering, 1);
  return NULL;
}

static int all_called(void) {
  for (int t = 0; t < THREADS; t++)
    for (int i = 0; i < PER; i++)
      if (fu_calls(&recs[t][i]) == 0) return 0;
  return 1;
}

int main(void) {
  fu_begin(120);
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  for (int t = 0; t < THREADS; t++) scratch[t] = make_buffer(ctx.device, 64, WGPUBufferUsage_CopyDst, 0);
  atomic_store(&registering, THREADS);
  pthread_t th[THREADS];
  for (int t = 0; t < THREADS; t++) REQUIRE(pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t) == 0);
  /* This thread delivers, while the others register and until all ran. */
  double deadline = now_s() + FU_WAIT_S;
  while ((atomic_load(&registering) > 0 || !all_called()) && now_s() < deadline) {
    wgpuInstanceProcessEvents(ctx.instance);
    sleep_s(0.0002);
  }
  for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
  wgpuInstanceProcessEvents(ctx.instance);

  int ordered = 1;
  for (int t = 0; t < THREADS; t++) {
    for (int i = 0; i < PER; i++) {
      FU_CHECK_ONCE(&recs[t][i]);
      FU_CHECK_STATUS(&recs[t][i], WGPUQueueWorkDoneStatus_Success);
      if (i > 0 && ordered && !(recs[t][i - 1].seq < recs[t][i].seq)) {
        fprintf(stderr, "thread %d: work-done %d settled (seq %d) after work-done %d (seq %d)\n", t, i - 1,
                recs[t][i - 1].seq, i, recs[t][i].seq);
        ordered = 0;
      }
    }
  }
  CHECK(ordered);
  for (int t = 0; t < THREADS; t++) wgpuBufferRelease(scratch[t]);
  ctx_release(&ctx);
  return test_finish();
}
