/* Rule (spec §8.8, §8.6 "ready callbacks run in future-ID order"): on one
 * queue, OnSubmittedWorkDone callbacks settle in call order. Checked with N
 * calls interleaved with submits of different lengths, writes, empty submits
 * and calls with no submit in between, separately for AllowSpontaneous
 * (delivered with no polling), AllowProcessEvents (ProcessEvents) and
 * WaitAnyOnly (every future listed in each WaitAny, and once all at once after
 * they all completed). */
#define _GNU_SOURCE
#include "futures_util.h"

enum { N = 24 };
static FuRec rec[4][N];
static FuRec done_probe;

static void issue(Ctx *ctx, WGPUCallbackMode mode, FuRec *r, WGPUFuture *fs, WGPUBuffer scratch) {
  for (int i = 0; i < N; i++) {
    fu_rec_init(&r[i], fu_mode_name(mode));
    r[i].index = i;
    switch (i % 4) {
      case 0: { /* a compute job, longer for earlier calls */
        WGPUBuffer out = submit_spin_job(ctx, 1u << 12, (uint32_t)(N - i));
        wgpuBufferRelease(out);
        break;
      }
      case 1: /* nothing submitted since the previous call */
        break;
      case 2: {
        uint32_t data[4] = {(uint32_t)i, 0, 0, 0};
        wgpuQueueWriteBuffer(ctx->queue, scratch, 0, data, sizeof data);
        break;
      }
      default:
        submit_empty(ctx);
        break;
    }
    fs[i] = fu_workdone(ctx->queue, mode, &r[i]);
  }
}

static void check_order(FuRec *r, const char *what) {
  int ordered = 1;
  for (int i = 0; i < N; i++) {
    FU_CHECK_ONCE(&r[i]);
    FU_CHECK_STATUS(&r[i], WGPUQueueWorkDoneStatus_Success);
    if (i > 0 && !(r[i - 1].seq < r[i].seq)) {
      fprintf(stderr, "%s: work-done %d settled (seq %d) after work-done %d (seq %d)\n", what, i - 1, r[i - 1].seq,
              i, r[i].seq);
      ordered = 0;
    }
  }
  CHECK(ordered);
}

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  WGPUBuffer scratch = make_buffer(ctx.device, 64, WGPUBufferUsage_CopyDst, 0);
  WGPUFuture fs[N];
  FuRec *rp[N];

  /* AllowSpontaneous */
  issue(&ctx, WGPUCallbackMode_AllowSpontaneous, rec[0], fs, scratch);
  for (int i = 0; i < N; i++) rp[i] = &rec[0][i];
  CHECK(fu_sleep_until(rp, N, FU_WAIT_S));
  check_order(rec[0], "AllowSpontaneous");

  /* AllowProcessEvents */
  issue(&ctx, WGPUCallbackMode_AllowProcessEvents, rec[1], fs, scratch);
  for (int i = 0; i < N; i++) rp[i] = &rec[1][i];
  CHECK(fu_pump_until(ctx.instance, rp, N, FU_WAIT_S));
  check_order(rec[1], "AllowProcessEvents");

  /* WaitAnyOnly, all listed, waited while they complete */
  issue(&ctx, WGPUCallbackMode_WaitAnyOnly, rec[2], fs, scratch);
  for (int i = 0; i < N; i++) rp[i] = &rec[2][i];
  CHECK(fu_wait_all(ctx.instance, fs, rp, N, 1, FU_WAIT_S));
  check_order(rec[2], "WaitAnyOnly (waited while completing)");

  /* WaitAnyOnly, all complete before the first wait, listed in reverse. */
  issue(&ctx, WGPUCallbackMode_WaitAnyOnly, rec[3], fs, scratch);
  fu_rec_init(&done_probe, "spontaneous probe");
  fu_workdone(ctx.queue, WGPUCallbackMode_AllowSpontaneous, &done_probe);
  fu_sleep_until1(&done_probe, 5.0);
  WGPUFuture rev[N];
  FuRec *rrev[N];
  for (int i = 0; i < N; i++) {
    rev[i] = fs[N - 1 - i];
    rrev[i] = &rec[3][N - 1 - i];
  }
  CHECK(fu_wait_all(ctx.instance, rev, rrev, N, 1, FU_WAIT_S));
  check_order(rec[3], "WaitAnyOnly (all complete, listed in reverse)");

  wgpuBufferRelease(scratch);
  ctx_release(&ctx);
  return test_finish();
}
