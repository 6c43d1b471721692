/* Rule (spec §8.8; DECISIONS "work-done futures are batched"): a work-done
 * future completes only once every piece of queue work issued before it has
 * finished, however the library shortcuts the idle case (completing at once
 * when nothing is outstanding) and the busy case (futures registered with no
 * new work in between share one completion). Checked without timing: once a
 * work-done callback ran, a buffer written by the prior work must be mappable
 * at once (a map of an idle buffer needs no GPU progress: WaitAny with
 * timeout 0 polls for it and reports it), and hold the data written.
 *   1. Busy: a spin job writes a buffer; several work-done futures follow it
 *      with nothing in between (one shared completion).
 *   2. Idle shortcut, then work: after everything finished, a write with no
 *      submit, then a work-done; the written buffer maps at once and holds
 *      the data (the write was flushed and is covered by the future).
 *   3. The same with the write recorded by unmapping a buffer created
 *      mapped (wgpu-core copies its staging memory in on the queue).
 *   4. Idle: with nothing issued since, a work-done completes in its call. */
#define _GNU_SOURCE
#include "futures_util.h"

enum { ROUNDS = 6, PER_ROUND = 5 };

/* MapAsync + WaitAny(timeout 0) on `buf`: 1 if the map succeeded at once. */
static int maps_at_once(Ctx *ctx, WGPUBuffer buf, const char *what, int round) {
  FuRec r;
  fu_rec_init(&r, what);
  WGPUFuture f = fu_map_read(buf, WGPUCallbackMode_WaitAnyOnly, &r);
  WGPUBool completed = 0;
  WGPUWaitStatus st = fu_wait1(ctx->instance, f, 0, &r, &completed);
  if (st != WGPUWaitStatus_Success || !completed || fu_calls(&r) != 1) {
    fprintf(stderr, "%s (round %d): the buffer written before the work-done was not idle after its callback "
            "(WaitAny status %d, completed %d, calls %d)\n", what, round, (int)st, (int)completed, fu_calls(&r));
    /* Let the map finish so the buffer can be released cleanly. */
    fu_wait1(ctx->instance, f, -1, &r, NULL);
    return 0;
  }
  FU_CHECK_STATUS(&r, WGPUMapAsyncStatus_Success);
  return 1;
}

int main(void) {
  fu_begin(120);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);

  for (int round = 0; round < ROUNDS; round++) {
    /* 1. Busy: a job of a few milliseconds, then futures with nothing new in
     * between; wait for the LAST one only (the first ones settle first). */
    WGPUBuffer busy = fu_busy_map_buffer(&ctx, 1u << 12, 8 + 4 * (uint32_t)round);
    FuRec recs[PER_ROUND];
    WGPUFuture fs[PER_ROUND];
    for (int i = 0; i < PER_ROUND; i++) {
      fu_rec_init(&recs[i], "work-done after a job");
      fs[i] = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &recs[i]);
      CHECK(fs[i].id != 0);
    }
    CHECK(fu_wait1(ctx.instance, fs[PER_ROUND - 1], -1, &recs[PER_ROUND - 1], NULL) == WGPUWaitStatus_Success);
    FU_CHECK_STATUS(&recs[PER_ROUND - 1], WGPUQueueWorkDoneStatus_Success);
    CHECK(maps_at_once(&ctx, busy, "job buffer", round));
    wgpuBufferUnmap(busy);
    wgpuBufferRelease(busy);
    FuRec *rp[PER_ROUND];
    for (int i = 0; i < PER_ROUND; i++) rp[i] = &recs[i];
    CHECK(fu_wait_all(ctx.instance, fs, rp, PER_ROUND, 1, FU_WAIT_S));
    for (int i = 0; i < PER_ROUND; i++) FU_CHECK_ONCE(&recs[i]);

    /* 2. Everything is idle now; a write with no submit, then a work-done. */
    WGPUBuffer written = fu_idle_map_buffer(&ctx);
    uint32_t data[FU_MAP_SIZE / 4];
    for (uint32_t k = 0; k < FU_MAP_SIZE / 4; k++) data[k] = 0x5eed0000u + (uint32_t)round * 1000u + k;
    wgpuQueueWriteBuffer(ctx.queue, written, 0, data, sizeof data);
    FuRec wr;
    fu_rec_init(&wr, "work-done after a write");
    WGPUFuture wf = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wr);
    CHECK(fu_wait1(ctx.instance, wf, -1, &wr, NULL) == WGPUWaitStatus_Success);
    FU_CHECK_STATUS(&wr, WGPUQueueWorkDoneStatus_Success);
    if (maps_at_once(&ctx, written, "written buffer", round)) {
      const uint32_t *p = wgpuBufferGetConstMappedRange(written, 0, FU_MAP_SIZE);
      CHECK(p != NULL);
      if (p) CHECK(memcmp(p, data, sizeof data) == 0);
    } else {
      CHECK(0);
    }
    wgpuBufferUnmap(written);
    wgpuBufferRelease(written);

    /* 3. A buffer created mapped, filled and unmapped (no submit). */
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.size = FU_MAP_SIZE;
    bd.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
    bd.mappedAtCreation = 1;
    WGPUBuffer created = wgpuDeviceCreateBuffer(ctx.device, &bd);
    CHECK(created != NULL);
    uint32_t *w = wgpuBufferGetMappedRange(created, 0, FU_MAP_SIZE);
    CHECK(w != NULL);
    if (w) memcpy(w, data, sizeof data);
    wgpuBufferUnmap(created);
    FuRec cr;
    fu_rec_init(&cr, "work-done after an unmap of a buffer created mapped");
    WGPUFuture cf = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &cr);
    CHECK(fu_wait1(ctx.instance, cf, -1, &cr, NULL) == WGPUWaitStatus_Success);
    if (maps_at_once(&ctx, created, "buffer created mapped", round)) {
      const uint32_t *p = wgpuBufferGetConstMappedRange(created, 0, FU_MAP_SIZE);
      CHECK(p != NULL);
      if (p) CHECK(memcmp(p, data, sizeof data) == 0);
    } else {
      CHECK(0);
    }
    wgpuBufferUnmap(created);
    wgpuBufferRelease(created);

    /* 4. Idle (the unmap of a MAP_READ buffer records no write, but the
     * library may count it: wait once), then a work-done with nothing
     * issued since completes within its call. */
    FuRec settle;
    fu_rec_init(&settle, "settle");
    WGPUFuture sf = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &settle);
    CHECK(fu_wait1(ctx.instance, sf, -1, &settle, NULL) == WGPUWaitStatus_Success);
    FuRec idle;
    fu_rec_init(&idle, "work-done on an idle queue");
    WGPUFuture idf = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &idle);
    WGPUBool completed = 0;
    CHECK(fu_wait1(ctx.instance, idf, 0, &idle, &completed) == WGPUWaitStatus_Success);
    CHECK(completed);
    FU_CHECK_ONCE(&idle);
  }

  ctx_release(&ctx);
  return test_finish();
}
