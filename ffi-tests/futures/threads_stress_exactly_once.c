/* Rule (spec §7, §8.1 "exactly once", §8.3, §8.6, §9): under concurrency every
 * callback still runs exactly once and mapped data is right. 8 threads x 50
 * iterations: write -> copy into a MAP_READ buffer -> submit -> MapAsync (mode
 * rotating over the three; waited by WaitAny, a ProcessEvents loop or waiting
 * with no call) -> check the bytes -> unmap; plus an OnSubmittedWorkDone per
 * iteration (modes rotating), all waited by each thread at its end while the
 * others still run. A deadlock ends in the watchdog. */
#define _GNU_SOURCE
#include "futures_util.h"

enum { THREADS = 8, ITERS = 50, WORDS = FU_MAP_SIZE / 4 };
static Ctx ctx;
static FuRec maps[THREADS][ITERS], wds[THREADS][ITERS];
static const WGPUCallbackMode modes[3] = {WGPUCallbackMode_WaitAnyOnly, WGPUCallbackMode_AllowProcessEvents,
                                          WGPUCallbackMode_AllowSpontaneous};

typedef struct {
  int id;
  int map_wait_failed;
  int map_status_bad;
  int data_bad;
  int range_null;
  int wd_wait_failed;
  int iterations_done;
  double seconds;
} Worker;

static void *worker_main(void *arg) {
  Worker *w = (Worker *)arg;
  double t0 = now_s();
  int t = w->id;
  WGPUBuffer src = make_buffer(ctx.device, FU_MAP_SIZE, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 0);
  WGPUBuffer dst = fu_idle_map_buffer(&ctx);
  WGPUFuture wdf[ITERS];
  FuRec *wdr[ITERS];
  int done = 0;
  for (int i = 0; i < ITERS; i++) {
    uint32_t data[WORDS];
    for (int k = 0; k < WORDS; k++) data[k] = (uint32_t)(t * 1000000 + i * 1000 + k);
    wgpuQueueWriteBuffer(ctx.queue, src, 0, data, sizeof data);
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
    wgpuCommandEncoderCopyBufferToBuffer(enc, src, 0, dst, 0, FU_MAP_SIZE);
    submit_encoder(&ctx, enc);

    FuRec *mr = &maps[t][i];
    WGPUCallbackMode mode = modes[(t + i) % 3];
    WGPUFuture fm = fu_map_read(dst, mode, mr);
    wdr[i] = &wds[t][i];
    wdf[i] = fu_workdone(ctx.queue, modes[(t + 2 * i) % 3], wdr[i]);
    done = i + 1;

    int ok;
    if (mode == WGPUCallbackMode_WaitAnyOnly || (mode == WGPUCallbackMode_AllowProcessEvents && i % 2)) {
      ok = fu_wait1(ctx.instance, fm, FU_WAIT_S, NULL, NULL) == WGPUWaitStatus_Success && fu_calls(mr) == 1;
    } else if (mode == WGPUCallbackMode_AllowProcessEvents) {
      ok = fu_pump_until1(ctx.instance, mr, FU_WAIT_S);
    } else {
      ok = fu_sleep_until1(mr, FU_WAIT_S);
    }
    /* On a failure, stop this worker: going on would submit a buffer that is
     * still pending or mapped, a validation error that hides the real one. */
    if (!ok) {
      w->map_wait_failed++;
      break;
    }
    if (mr->status != WGPUMapAsyncStatus_Success) {
      w->map_status_bad++;
      break;
    }
    const uint32_t *got = (const uint32_t *)wgpuBufferGetConstMappedRange(dst, 0, FU_MAP_SIZE);
    if (!got) {
      w->range_null++;
    } else if (memcmp(got, data, sizeof data) != 0) {
      w->data_bad++;
    }
    wgpuBufferUnmap(dst);
  }
  w->iterations_done = done;
  if (!fu_wait_all(ctx.instance, wdf, wdr, (size_t)done, 1, FU_WAIT_S)) w->wd_wait_failed++;
  wgpuBufferRelease(src);
  wgpuBufferRelease(dst);
  w->seconds = now_s() - t0;
  return NULL;
}

int main(void) {
  fu_begin(90);
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  for (int t = 0; t < THREADS; t++) {
    for (int i = 0; i < ITERS; i++) {
      fu_rec_init(&maps[t][i], "stress map");
      fu_rec_init(&wds[t][i], "stress work-done");
    }
  }
  Worker w[THREADS];
  pthread_t th[THREADS];
  double t0 = now_s();
  for (int t = 0; t < THREADS; t++) {
    memset(&w[t], 0, sizeof w[t]);
    w[t].id = t;
    pthread_create(&th[t], NULL, worker_main, &w[t]);
  }
  for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
  fprintf(stderr, "%d threads x %d iterations in %.2f s\n", THREADS, ITERS, now_s() - t0);

  int map_wait_failed = 0, map_status_bad = 0, data_bad = 0, range_null = 0, wd_wait_failed = 0;
  int all_done = 1;
  for (int t = 0; t < THREADS; t++) {
    all_done &= w[t].iterations_done == ITERS;
    map_wait_failed += w[t].map_wait_failed;
    map_status_bad += w[t].map_status_bad;
    data_bad += w[t].data_bad;
    range_null += w[t].range_null;
    wd_wait_failed += w[t].wd_wait_failed;
  }
  CHECK_EQ(map_wait_failed, 0);
  CHECK_EQ(map_status_bad, 0);
  CHECK_EQ(range_null, 0);
  CHECK_EQ(data_bad, 0);
  CHECK_EQ(wd_wait_failed, 0);
  CHECK(all_done);

  /* Every callback exactly once, with Success. */
  fu_process_events(ctx.instance);
  int not_once = 0, bad_status = 0;
  for (int t = 0; t < THREADS; t++) {
    for (int i = 0; i < w[t].iterations_done; i++) {
      if (fu_calls(&maps[t][i]) != 1 || fu_calls(&wds[t][i]) != 1) {
        fprintf(stderr, "thread %d iteration %d: map called %d times, work-done %d times\n", t, i,
                fu_calls(&maps[t][i]), fu_calls(&wds[t][i]));
        not_once++;
      }
      if (maps[t][i].status != WGPUMapAsyncStatus_Success || wds[t][i].status != WGPUQueueWorkDoneStatus_Success)
        bad_status++;
    }
  }
  CHECK_EQ(not_once, 0);
  CHECK_EQ(bad_status, 0);

  ctx_release(&ctx);
  fu_idle(0.1);
  not_once = 0;
  for (int t = 0; t < THREADS; t++)
    for (int i = 0; i < w[t].iterations_done; i++)
      not_once += fu_calls(&maps[t][i]) != 1 || fu_calls(&wds[t][i]) != 1;
  CHECK_EQ(not_once, 0);
  return test_finish();
}
