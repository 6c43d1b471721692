/* wgpuQueueSubmitForIndex + wgpuDevicePoll: a blocking poll returns after
 * the submitted copy finished (the mapped data is right), sleeps rather
 * than spins, delivers AllowProcessEvents callbacks as ProcessEvents does
 * (bindings written for wgpu-native wait for them there) but never a
 * WaitAnyOnly one, and rejects an index that was never returned. */
#include "native_util.h"

static void on_map(WGPUMapAsyncStatus status, WGPUStringView message, void *userdata1, void *userdata2) {
  (void)message, (void)userdata2;
  int *calls = userdata1;
  if (status == WGPUMapAsyncStatus_Success) calls[0]++;
  calls[1]++;
}

int main(void) {
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  /* A copy from a filled buffer into a readable one. */
  enum { N = 1024 };
  WGPUBuffer src = make_buffer(ctx.device, N * 4, WGPUBufferUsage_CopySrc, 1);
  uint32_t *words = wgpuBufferGetMappedRange(src, 0, N * 4);
  REQUIRE(words != NULL);
  for (uint32_t i = 0; i < N; i++) words[i] = i * 7u + 3u;
  wgpuBufferUnmap(src);
  WGPUBuffer dst = make_buffer(ctx.device, N * 4, WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead, 0);
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
  wgpuCommandEncoderCopyBufferToBuffer(enc, src, 0, dst, 0, N * 4);
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  WGPUSubmissionIndex index = wgpuQueueSubmitForIndex(ctx.queue, 1, &cmd);
  CHECK(index > 0);

  /* Wait for exactly that submission; afterwards nothing is in flight. */
  CHECK(wgpuDevicePoll(ctx.device, 1, &index) == 1);

  /* A map in WaitAnyOnly mode: a blocking poll makes it ready but never
   * delivers it; WaitAny does. */
  int calls[2] = {0, 0};
  WGPUBufferMapCallbackInfo mcb = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  mcb.mode = WGPUCallbackMode_WaitAnyOnly;
  mcb.callback = on_map;
  mcb.userdata1 = calls;
  WGPUFuture only = wgpuBufferMapAsync(dst, WGPUMapMode_Read, 0, N * 4, mcb);
  CHECK(wgpuDevicePoll(ctx.device, 1, NULL) == 1);
  wgpuInstanceProcessEvents(ctx.instance);
  CHECK_EQ(calls[1], 0);
  WGPUFutureWaitInfo wi = {only, 0};
  CHECK_EQ(wgpuInstanceWaitAny(ctx.instance, 1, &wi, 0), WGPUWaitStatus_Success);
  CHECK(wi.completed);
  CHECK_EQ(calls[0], 1);
  CHECK_EQ(calls[1], 1);
  wgpuBufferUnmap(dst);

  /* A map in AllowProcessEvents mode (how wgpu-py maps): the blocking poll
   * delivers it, on this thread, before it returns. */
  mcb.mode = WGPUCallbackMode_AllowProcessEvents;
  wgpuBufferMapAsync(dst, WGPUMapMode_Read, 0, N * 4, mcb);
  CHECK(wgpuDevicePoll(ctx.device, 1, NULL) == 1);
  CHECK_EQ(calls[0], 2);
  CHECK_EQ(calls[1], 2);
  const uint32_t *got = wgpuBufferGetConstMappedRange(dst, 0, N * 4);
  REQUIRE(got != NULL);
  int same = 1;
  for (uint32_t i = 0; i < N; i++) same &= got[i] == i * 7u + 3u;
  CHECK(same);
  wgpuBufferUnmap(dst);

  /* A long job: the blocking poll sleeps (little CPU) until it is done. */
  WGPUBuffer job = submit_spin_job(&ctx, 1u << 16, 8);
  double wall0 = now_s(), cpu0 = thread_cpu_s();
  CHECK(wgpuDevicePoll(ctx.device, 1, NULL) == 1);
  double wall = now_s() - wall0, cpu = thread_cpu_s() - cpu0;
  printf("blocking poll: %.3f s wall, %.3f s CPU\n", wall, cpu);
  CHECK(cpu < 0.5 * wall + 0.02);
  wgpuBufferRelease(job);

  /* Non-blocking poll on an idle queue. */
  CHECK(wgpuDevicePoll(ctx.device, 0, NULL) == 1);

  /* A submit of no command buffers is a submission too: it gets the next
   * index (DECISIONS "wgpuQueueSubmitForIndex that submits nothing"). */
  WGPUSubmissionIndex empty = wgpuQueueSubmitForIndex(ctx.queue, 0, NULL);
  CHECK(empty > index);

  /* An index no submit returned is logged, not waited for. */
  WGPUSubmissionIndex bogus = index + 1000;
  CHECK(wgpuDevicePoll(ctx.device, 1, &bogus) == 0);
  /* NULL device, NULL commands with a count: logged, fallback values. */
  CHECK(wgpuDevicePoll(NULL, 1, NULL) == 0);
  CHECK_EQ(wgpuQueueSubmitForIndex(ctx.queue, 2, NULL), 0);
  /* A command buffer submitted twice: a validation error and index 0. */
  CHECK_EQ(wgpuQueueSubmitForIndex(ctx.queue, 1, &cmd), 0);
  CHECK(ctx.uncaptured_errors >= 1);

  wgpuCommandBufferRelease(cmd);
  wgpuCommandEncoderRelease(enc);
  wgpuBufferRelease(src);
  wgpuBufferRelease(dst);
  ctx_release(&ctx);
  return test_finish();
}
