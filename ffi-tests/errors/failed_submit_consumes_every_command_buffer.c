/* Rule (WebGPU queue.submit): a submit that fails uses up every command
 * buffer it was given, the valid ones too, so submitting one of them again is
 * a validation error. The failures: an invalid command buffer in the list
 * (its Finish failed), a command buffer that uses a destroyed buffer (an
 * error of the submit itself), and a NULL handle in the list (rejected and
 * logged). A successful submit uses its command buffers up as well. */
#include "../mapping/mapping_util.h"

/* A command buffer copying 16 bytes from src to dst; `bad_size` makes the
 * copy invalid (not a multiple of 4), so Finish fails. */
static WGPUCommandBuffer copy_cb(Ctx *ctx, WGPUBuffer src, WGPUBuffer dst, int bad_size) {
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  wgpuCommandEncoderCopyBufferToBuffer(enc, src, 0, dst, 0, bad_size ? 3 : 16);
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  WGPUCommandBuffer cb = wgpuCommandEncoderFinish(enc, NULL);
  CHECK_EQ(mu_pop_type(ctx), bad_size ? WGPUErrorType_Validation : WGPUErrorType_NoError);
  wgpuCommandEncoderRelease(enc);
  return cb;
}

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUBufferUsage u = WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst;
  WGPUBuffer a = make_buffer(ctx.device, 64, u, 0);
  WGPUBuffer b = make_buffer(ctx.device, 64, u, 0);

  /* An invalid command buffer beside a valid one. */
  WGPUCommandBuffer ok1 = copy_cb(&ctx, a, b, 0);
  WGPUCommandBuffer bad = copy_cb(&ctx, a, b, 1);
  WGPUCommandBuffer list1[2] = {ok1, bad};
  EXPECT_VALIDATION(&ctx, wgpuQueueSubmit(ctx.queue, 2, list1));
  EXPECT_VALIDATION(&ctx, wgpuQueueSubmit(ctx.queue, 1, &ok1));

  /* A command buffer that uses a destroyed buffer. */
  WGPUBuffer doomed = make_buffer(ctx.device, 64, u, 0);
  WGPUCommandBuffer ok2 = copy_cb(&ctx, a, b, 0);
  WGPUCommandBuffer uses_destroyed = copy_cb(&ctx, doomed, b, 0);
  wgpuBufferDestroy(doomed);
  WGPUCommandBuffer list2[2] = {ok2, uses_destroyed};
  EXPECT_VALIDATION(&ctx, wgpuQueueSubmit(ctx.queue, 2, list2));
  EXPECT_VALIDATION(&ctx, wgpuQueueSubmit(ctx.queue, 1, &ok2));

  /* A NULL handle in the list: rejected (logged); the valid ones around it
   * are used up all the same. */
  WGPUCommandBuffer ok3 = copy_cb(&ctx, a, b, 0);
  WGPUCommandBuffer ok4 = copy_cb(&ctx, a, b, 0);
  WGPUCommandBuffer list3[3] = {ok3, NULL, ok4};
  wgpuQueueSubmit(ctx.queue, 3, list3);
  EXPECT_VALIDATION(&ctx, wgpuQueueSubmit(ctx.queue, 1, &ok3));
  EXPECT_VALIDATION(&ctx, wgpuQueueSubmit(ctx.queue, 1, &ok4));

  /* A successful submit uses its command buffers up too. */
  WGPUCommandBuffer ok5 = copy_cb(&ctx, a, b, 0);
  EXPECT_NO_VALIDATION(&ctx, wgpuQueueSubmit(ctx.queue, 1, &ok5));
  EXPECT_VALIDATION(&ctx, wgpuQueueSubmit(ctx.queue, 1, &ok5));

  WGPUCommandBuffer all[] = {ok1, bad, ok2, uses_destroyed, ok3, ok4, ok5};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wgpuCommandBufferRelease(all[i]);
  wgpuBufferRelease(doomed);
  wgpuBufferRelease(a);
  wgpuBufferRelease(b);
  ctx_release(&ctx);
  return test_finish();
}
