/* Rule (webgpu.h §9.2, §8.8): a MapAsync succeeds only once the queue work
 * issued before it that uses the buffer has finished, so the mapping shows
 * its result: QueueWriteBuffer with NO submit after it (wgpu-core would run
 * that write only at the next submit), a copy in a long-running submission,
 * and a QueueWriteBuffer after a submitted copy (the last write wins). And
 * a map requested before an OnSubmittedWorkDone settles first (§8.8). */
#include "mapping_util.h"

static int g_order = 0;
static int g_map_order = 0, g_done_order = 0;

static void on_map_order(WGPUMapAsyncStatus s, WGPUStringView m, void *u1, void *u2) {
  (void)s;
  (void)m;
  (void)u1;
  (void)u2;
  g_map_order = ++g_order;
}

static void on_done_order(WGPUQueueWorkDoneStatus s, WGPUStringView m, void *u1, void *u2) {
  (void)s;
  (void)m;
  (void)u1;
  (void)u2;
  g_done_order = ++g_order;
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  uint8_t a[64], b[64], got[64];
  mu_fill(a, 64, 1);
  mu_fill(b, 64, 2);

  /* 1. QueueWriteBuffer, no submit, MapAsync. */
  WGPUBuffer rb = make_buffer(ctx.device, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  REQUIRE(rb != NULL);
  wgpuQueueWriteBuffer(ctx.queue, rb, 0, a, 64);
  CHECK_EQ(mu_map_wait(ctx.instance, rb, WGPUMapMode_Read, 0, 64), WGPUMapAsyncStatus_Success);
  CHECK_EQ(wgpuBufferReadMappedRange(rb, 0, got, 64), WGPUStatus_Success);
  CHECK(memcmp(got, a, 64) == 0);
  wgpuBufferUnmap(rb);

  /* 2. A copy behind a long GPU job. */
  WGPUBuffer src = make_buffer(ctx.device, 256, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 0);
  WGPUBuffer dst = make_buffer(ctx.device, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  REQUIRE(src && dst);
  uint8_t big[256];
  mu_fill(big, 256, 3);
  wgpuQueueWriteBuffer(ctx.queue, src, 0, big, 256);
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
  WGPUBuffer job = mu_encode_delay(&ctx, enc, 5 * MU_DELAY_100MS);
  wgpuCommandEncoderCopyBufferToBuffer(enc, job, 0, dst, 0, 256); /* depends on the job */
  wgpuCommandEncoderCopyBufferToBuffer(enc, src, 0, dst, 0, 256); /* then overwritten */
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  wgpuQueueSubmit(ctx.queue, 1, &cmd);
  wgpuCommandBufferRelease(cmd);
  wgpuCommandEncoderRelease(enc);
  CHECK_EQ(mu_map_wait(ctx.instance, dst, WGPUMapMode_Read, 0, 256), WGPUMapAsyncStatus_Success);
  uint8_t got256[256];
  CHECK_EQ(wgpuBufferReadMappedRange(dst, 0, got256, 256), WGPUStatus_Success);
  CHECK(memcmp(got256, big, 256) == 0);
  wgpuBufferUnmap(dst);
  wgpuBufferRelease(job);

  /* 3. Submitted copy (a into rb), then QueueWriteBuffer (b), no submit. */
  WGPUBuffer sa = make_buffer(ctx.device, 64, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 0);
  wgpuQueueWriteBuffer(ctx.queue, sa, 0, a, 64);
  mu_copy(&ctx, sa, 0, rb, 0, 64);
  wgpuQueueWriteBuffer(ctx.queue, rb, 0, b, 64);
  CHECK_EQ(mu_map_wait(ctx.instance, rb, WGPUMapMode_Read, 0, 64), WGPUMapAsyncStatus_Success);
  CHECK_EQ(wgpuBufferReadMappedRange(rb, 0, got, 64), WGPUStatus_Success);
  CHECK(memcmp(got, b, 64) == 0);
  wgpuBufferUnmap(rb);

  /* 4. Map before OnSubmittedWorkDone (both AllowProcessEvents): the map's
   * callback comes first. */
  mu_gpu_delay_into(&ctx, dst, 2 * MU_DELAY_100MS);
  WGPUBufferMapCallbackInfo mi = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  mi.mode = WGPUCallbackMode_AllowProcessEvents;
  mi.callback = on_map_order;
  WGPUFuture fm = wgpuBufferMapAsync(dst, WGPUMapMode_Read, 0, 256, mi);
  WGPUQueueWorkDoneCallbackInfo wi = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  wi.mode = WGPUCallbackMode_AllowProcessEvents;
  wi.callback = on_done_order;
  WGPUFuture fd = wgpuQueueOnSubmittedWorkDone(ctx.queue, wi);
  double deadline = now_s() + 10.0 * harness_time_scale();
  while ((g_map_order == 0 || g_done_order == 0) && now_s() < deadline) {
    wgpuInstanceProcessEvents(ctx.instance);
    sleep_ms(1);
  }
  CHECK_EQ(g_map_order, 1);
  CHECK_EQ(g_done_order, 2);
  CHECK_EQ(mu_wait(ctx.instance, fm), WGPUWaitStatus_Success);
  CHECK_EQ(mu_wait(ctx.instance, fd), WGPUWaitStatus_Success);
  wgpuBufferUnmap(dst);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuBufferRelease(sa);
  wgpuBufferRelease(src);
  wgpuBufferRelease(dst);
  wgpuBufferRelease(rb);
  ctx_release(&ctx);
  return test_finish();
}
