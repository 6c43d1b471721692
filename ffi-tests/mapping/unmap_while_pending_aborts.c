/* Rule (webgpu.h §9.2, §12): Unmap while a map is Pending aborts it: the
 * callback gets Aborted (with a non-empty message), the state is Unmapped at
 * once (before any wait), Unmap raises no error, WaitAny on the future returns
 * promptly (it does not wait for the GPU), and a GPU result that arrives later
 * is thrown away. For each callback mode: WaitAnyOnly (delivered by WaitAny),
 * AllowProcessEvents (delivered by ProcessEvents) and AllowSpontaneous
 * (delivered with no WaitAny/ProcessEvents at all). */
#include "mapping_util.h"

static void one_mode(Ctx *ctx, WGPUCallbackMode mode, WGPUMapMode map_mode, uint32_t delay_workgroups) {
  WGPUBufferUsage usage = map_mode == WGPUMapMode_Read ? (WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst)
                                                       : (WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc);
  WGPUBuffer buf = make_buffer(ctx->device, 256, usage, 0);
  if (!buf) {
    CHECK(buf != NULL);
    return;
  }
  /* Make the map depend on GPU work that is still running (an
   * AllowSpontaneous map of an idle buffer may legally complete, and be
   * delivered, inside the MapAsync call itself). */
  if (delay_workgroups) {
    if (map_mode == WGPUMapMode_Read)
      mu_gpu_delay_into(ctx, buf, delay_workgroups);
    else
      mu_gpu_delay_reading(ctx, buf, delay_workgroups);
  }

  MapResult r;
  mu_map_result_init(&r);
  WGPUFuture f = mu_map_async(buf, map_mode, 0, 256, mode, &r);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Pending);

  EXPECT_NO_VALIDATION(ctx, wgpuBufferUnmap(buf));
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);
  CHECK(wgpuBufferGetConstMappedRange(buf, 0, 4) == NULL);

  double t0 = now_s();
  if (mode == WGPUCallbackMode_AllowSpontaneous) {
    /* No WaitAny, no ProcessEvents: it must arrive by itself. */
    CHECK(mu_sleep_until(&r.calls, 1, 5000));
  } else if (mode == WGPUCallbackMode_AllowProcessEvents) {
    CHECK(mu_poll_until(ctx->instance, &r.calls, 1, 5000));
  } else {
    /* Not delivered until waited. */
    wgpuInstanceProcessEvents(ctx->instance);
    CHECK_EQ(atomic_load(&r.calls), 0);
    CHECK_EQ(mu_wait(ctx->instance, f), WGPUWaitStatus_Success);
  }
  double dt = now_s() - t0;
  CHECK(dt < 0.3); /* promptly: not after the ~0.7 s GPU job */
  CHECK_EQ(atomic_load(&r.calls), 1);
  CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Aborted);
  CHECK(atomic_load(&r.msg_nonempty));
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);

  /* Waiting (again) reports it completed without a second call. */
  int completed = 0;
  CHECK_EQ(mu_wait_completed(ctx->instance, f, &completed), WGPUWaitStatus_Success);
  CHECK(completed);

  /* Let the GPU work finish: the old result must not map the buffer. */
  sleep_ms(50);
  wgpuInstanceProcessEvents(ctx->instance);
  CHECK_EQ(atomic_load(&r.calls), 1);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);
  CHECK(wgpuBufferGetConstMappedRange(buf, 0, 4) == NULL);

  /* A new map works normally afterwards. */
  CHECK_EQ(mu_map_wait(ctx->instance, buf, map_mode, 0, 256), WGPUMapAsyncStatus_Success);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Mapped);
  CHECK(wgpuBufferGetConstMappedRange(buf, 0, 256) != NULL);
  wgpuBufferUnmap(buf);
  CHECK_EQ(atomic_load(&r.calls), 1);
  wgpuBufferRelease(buf);
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  /* The first case sits behind a ~0.7 s GPU job (on lavapipe). */
  one_mode(&ctx, WGPUCallbackMode_WaitAnyOnly, WGPUMapMode_Read, 7 * MU_DELAY_100MS);
  one_mode(&ctx, WGPUCallbackMode_AllowProcessEvents, WGPUMapMode_Read, 3 * MU_DELAY_100MS);
  one_mode(&ctx, WGPUCallbackMode_AllowSpontaneous, WGPUMapMode_Read, 3 * MU_DELAY_100MS);
  one_mode(&ctx, WGPUCallbackMode_WaitAnyOnly, WGPUMapMode_Write, 0);
  one_mode(&ctx, WGPUCallbackMode_AllowSpontaneous, WGPUMapMode_Write, 3 * MU_DELAY_100MS);

  /* Unmap, then an immediate second MapAsync: the new request is accepted
   * (state went back to Unmapped synchronously) and succeeds, while the
   * first one is Aborted. */
  WGPUBuffer buf = make_buffer(ctx.device, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  MapResult a, b;
  mu_map_result_init(&a);
  mu_map_result_init(&b);
  WGPUFuture fa = mu_map_async(buf, WGPUMapMode_Read, 0, 64, WGPUCallbackMode_WaitAnyOnly, &a);
  wgpuBufferUnmap(buf);
  WGPUFuture fb = {0};
  EXPECT_NO_VALIDATION(&ctx, fb = mu_map_async(buf, WGPUMapMode_Read, 0, 32, WGPUCallbackMode_WaitAnyOnly, &b));
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Pending);
  CHECK_EQ(mu_wait(ctx.instance, fb), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&b.status), WGPUMapAsyncStatus_Success);
  CHECK_EQ(mu_wait(ctx.instance, fa), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&a.status), WGPUMapAsyncStatus_Aborted);
  CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Mapped);
  CHECK(wgpuBufferGetConstMappedRange(buf, 0, 32) != NULL);
  wgpuBufferUnmap(buf);
  wgpuBufferRelease(buf);

  /* The same, repeated (catches an abort that is processed asynchronously,
   * leaving the buffer busy for a moment after Unmap), alternating modes. */
  {
    WGPUBuffer rb = make_buffer(ctx.device, 256, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
    int bad_state = 0, bad_error = 0, bad_status = 0;
    for (int i = 0; i < 40; i++) {
      WGPUCallbackMode m1 = (i & 1) ? WGPUCallbackMode_AllowSpontaneous : WGPUCallbackMode_WaitAnyOnly;
      if (i % 8 == 0) mu_gpu_delay_into(&ctx, rb, 1);
      mu_map_result_init(&a);
      mu_map_result_init(&b);
      fa = mu_map_async(rb, WGPUMapMode_Read, 0, 256, m1, &a);
      wgpuBufferUnmap(rb);
      bad_state += wgpuBufferGetMapState(rb) != WGPUBufferMapState_Unmapped;
      wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
      fb = mu_map_async(rb, WGPUMapMode_Read, 0, 256, WGPUCallbackMode_WaitAnyOnly, &b);
      PopResult pr;
      int popped = mu_pop_full(ctx.instance, ctx.device, &pr);
      int err = !popped || pr.status != WGPUPopErrorScopeStatus_Success || pr.type != WGPUErrorType_NoError;
      if (err && bad_error == 0)
        fprintf(stderr, "  iteration %d (first mode %d): MapAsync after Unmap raised: %s\n", i, (int)m1, pr.msg);
      bad_error += err;
      mu_wait(ctx.instance, fb);
      mu_wait(ctx.instance, fa);
      /* A spontaneous map of an idle buffer may have been delivered (Success)
       * before the Unmap; a WaitAnyOnly one cannot. */
      int a_ok = atomic_load(&a.status) == WGPUMapAsyncStatus_Aborted ||
                 (m1 == WGPUCallbackMode_AllowSpontaneous && atomic_load(&a.status) == WGPUMapAsyncStatus_Success);
      int st_bad = !a_ok || atomic_load(&a.calls) != 1 || atomic_load(&b.status) != WGPUMapAsyncStatus_Success;
      if (st_bad && bad_status == 0)
        fprintf(stderr, "  iteration %d (first mode %d): first map status %d (calls %d), second map status %d\n", i,
                (int)m1, atomic_load(&a.status), atomic_load(&a.calls), atomic_load(&b.status));
      bad_status += st_bad;
      wgpuBufferUnmap(rb);
    }
    CHECK_EQ(bad_state, 0);
    CHECK_EQ(bad_error, 0);
    CHECK_EQ(bad_status, 0);
    wgpuBufferRelease(rb);
  }

  if (ctx.uncaptured_errors) fprintf(stderr, "  last uncaptured error: %s\n", ctx.last_error);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
