/* Rule (DECISIONS "A rejected asynchronous call"): a call rejected for an
 * invalid callback mode runs its callback, once, with Error, before it
 * returns, also while another thread is delivering spontaneous callbacks
 * and more of them wait behind the one it is running.
 *
 * Setup: a spontaneous map callback (A) blocks on the progress thread. The
 * main thread then completes a second spontaneous map (B), of a buffer a
 * submission writes, in a WaitAny for a later work-done future (WaitAny
 * delivers only what it lists); B's callback waits behind A's, since one
 * thread at a time delivers an instance's spontaneous callbacks, in order.
 * A MapAsync with mode 0x7 made now must still call back inside the call
 * (and return the null future).
 * (Before the fix its callback joined B's queue and ran later, on the
 * progress thread; found by the api_seq fuzz target.) */
#define _GNU_SOURCE
#include "harness.h"

#include <stdatomic.h>
#include <unistd.h>

static atomic_int a_entered, a_release, a_calls, b_calls, c_calls, c_status, d_calls;

static void on_done(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)status, (void)message, (void)u1, (void)u2;
  atomic_fetch_add(&d_calls, 1);
}

static void on_a(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)status, (void)message, (void)u1, (void)u2;
  atomic_store(&a_entered, 1);
  double limit = now_s() + 20.0 * harness_time_scale();
  while (!atomic_load(&a_release) && now_s() < limit) usleep(1000);
  atomic_fetch_add(&a_calls, 1);
}

static void on_b(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)status, (void)message, (void)u1, (void)u2;
  atomic_fetch_add(&b_calls, 1);
}

static void on_c(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2) {
  (void)message, (void)u1, (void)u2;
  atomic_store(&c_status, (int)status);
  atomic_fetch_add(&c_calls, 1);
}

static WGPUFuture map_read(WGPUBuffer buffer, WGPUCallbackMode mode, WGPUBufferMapCallback callback) {
  WGPUBufferMapCallbackInfo info = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  info.mode = mode;
  info.callback = callback;
  return wgpuBufferMapAsync(buffer, WGPUMapMode_Read, 0, 256, info);
}

/* Submits a clear of the first 256 bytes of buffer. */
static void clear(Ctx *ctx, WGPUBuffer buffer) {
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  wgpuCommandEncoderClearBuffer(enc, buffer, 0, 256);
  WGPUCommandBuffer cb = wgpuCommandEncoderFinish(enc, NULL);
  wgpuQueueSubmit(ctx->queue, 1, &cb);
  wgpuCommandBufferRelease(cb);
  wgpuCommandEncoderRelease(enc);
}

/* Sleeps (no API call) until *flag is at least want, for up to 10 s. */
static int sleep_until(atomic_int *flag, int want) {
  double limit = now_s() + 10.0 * harness_time_scale();
  while (atomic_load(flag) < want && now_s() < limit) usleep(1000);
  return atomic_load(flag) >= want;
}

int main(void) {
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUBuffer a = make_buffer(ctx.device, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  WGPUBuffer b = make_buffer(ctx.device, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  WGPUBuffer c = make_buffer(ctx.device, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  REQUIRE(a && b && c);

  /* A's callback comes from the progress thread (A waits for a
   * submission, so it does not complete in its MapAsync call) and stays
   * there. */
  clear(&ctx, a);
  CHECK(map_read(a, WGPUCallbackMode_AllowSpontaneous, on_a).id != 0);
  REQUIRE(sleep_until(&a_entered, 1));

  /* B waits for a submission (so it completes in a poll, not in its
   * MapAsync call), completes in this thread's WaitAny, and its callback
   * then waits behind A's. */
  clear(&ctx, b);
  CHECK(map_read(b, WGPUCallbackMode_AllowSpontaneous, on_b).id != 0);
  WGPUQueueWorkDoneCallbackInfo wi = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  wi.mode = WGPUCallbackMode_WaitAnyOnly;
  wi.callback = on_done;
  WGPUFutureWaitInfo done = {.future = wgpuQueueOnSubmittedWorkDone(ctx.queue, wi)};
  CHECK_EQ(wgpuInstanceWaitAny(ctx.instance, 1, &done, UINT64_MAX), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&d_calls), 1);
  int b_waited = atomic_load(&b_calls) == 0;
  if (!b_waited) printf("note: B was delivered at once; the queue this test sets up did not form\n");

  /* The rejected call: its callback has run when it returns, and its future
   * is the null future (nothing is left to wait for). */
  WGPUFuture fc = map_read(c, (WGPUCallbackMode)0x7, on_c);
  CHECK(fc.id == 0);
  CHECK_EQ(atomic_load(&c_calls), 1);
  CHECK_EQ(atomic_load(&c_status), WGPUMapAsyncStatus_Error);
  CHECK_EQ(wgpuBufferGetMapState(c), WGPUBufferMapState_Unmapped);

  /* Let A finish: A and B each run once, and C is not run again. */
  atomic_store(&a_release, 1);
  CHECK(sleep_until(&a_calls, 1));
  CHECK(sleep_until(&b_calls, 1));
  usleep(50 * 1000);
  CHECK_EQ(atomic_load(&a_calls), 1);
  CHECK_EQ(atomic_load(&b_calls), 1);
  CHECK_EQ(atomic_load(&c_calls), 1);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  wgpuBufferRelease(a);
  wgpuBufferRelease(b);
  wgpuBufferRelease(c);
  ctx_release(&ctx);
  return test_finish();
}
