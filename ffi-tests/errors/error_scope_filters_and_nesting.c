/* Rule (webgpu.h §3, §6 "Error scopes"): an error is captured by the innermost
 * scope whose filter matches its type; scopes with other filters let it pass
 * outward; with no matching scope it goes to the uncaptured callback. Pop is
 * LIFO and reports Success with the captured type (Validation, with a
 * non-empty message) or NoError (empty message); a scope holds its first
 * error, later ones in the same scope are not re-reported. Pop on an empty
 * stack gives status Error, type NoError and a non-empty message. After the
 * device is lost, pops give Success/NoError and errors are dropped. */
#include "../mapping/mapping_util.h"

static PopResult pop(Ctx *ctx) {
  PopResult r;
  CHECK(mu_pop_full(ctx->instance, ctx->device, &r));
  return r;
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUBuffer junk[16];
  int nj = 0;

  /* Innermost non-matching (OOM, Internal), outer Validation captures. */
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Internal);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_OutOfMemory);
  junk[nj++] = mu_bad_buffer(ctx.device);
  PopResult r = pop(&ctx);
  CHECK_EQ(r.status, WGPUPopErrorScopeStatus_Success);
  CHECK_EQ(r.type, WGPUErrorType_NoError);
  CHECK_EQ(r.msg_len, 0);
  r = pop(&ctx);
  CHECK_EQ(r.status, WGPUPopErrorScopeStatus_Success);
  CHECK_EQ(r.type, WGPUErrorType_NoError);
  r = pop(&ctx);
  CHECK_EQ(r.status, WGPUPopErrorScopeStatus_Success);
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  CHECK(r.msg_len > 0 && r.msg_len != WGPU_STRLEN && r.msg[0] != 0);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  /* Two Validation scopes: only the innermost captures. */
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  junk[nj++] = mu_bad_buffer(ctx.device);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_Validation);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);

  /* Several errors in one scope: one report; the next scope is clean. */
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  junk[nj++] = mu_bad_buffer(ctx.device);
  junk[nj++] = mu_bad_buffer(ctx.device);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_Validation);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  /* Only non-matching scopes: uncaptured. */
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_OutOfMemory);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Internal);
  int before = ctx.uncaptured_errors;
  junk[nj++] = mu_bad_buffer(ctx.device);
  CHECK_EQ(mu_uncaptured_since(&ctx, before, 1000), 1);
  CHECK_EQ(ctx.last_error_type, WGPUErrorType_Validation);
  CHECK(ctx.last_error[0] != 0);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);

  /* Errors made after a pop go to the scope below (LIFO). */
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation); /* outer */
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation); /* inner */
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);             /* inner, clean */
  junk[nj++] = mu_bad_buffer(ctx.device);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_Validation);          /* outer */

  /* Empty stack. */
  r = pop(&ctx);
  CHECK_EQ(r.status, WGPUPopErrorScopeStatus_Error);
  CHECK_EQ(r.type, WGPUErrorType_NoError);
  CHECK(r.msg_len > 0 && r.msg_len != WGPU_STRLEN && r.msg[0] != 0);
  /* ...and again (still empty, nothing broke). */
  r = pop(&ctx);
  CHECK_EQ(r.status, WGPUPopErrorScopeStatus_Error);
  /* Pushing works again afterwards. */
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  junk[nj++] = mu_bad_buffer(ctx.device);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_Validation);

  /* A pop in AllowSpontaneous mode is delivered without a wait (it is a
   * CPU-timeline future). */
  {
    PopResult sr;
    memset(&sr, 0, sizeof sr);
    wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
    junk[nj++] = mu_bad_buffer(ctx.device);
    WGPUPopErrorScopeCallbackInfo info = WGPU_POP_ERROR_SCOPE_CALLBACK_INFO_INIT;
    info.mode = WGPUCallbackMode_AllowSpontaneous;
    info.callback = mu_on_pop;
    info.userdata1 = &sr;
    WGPUFuture f = wgpuDevicePopErrorScope(ctx.device, info);
    double deadline = now_s() + 5.0;
    while (*(volatile int *)&sr.calls == 0 && now_s() < deadline) sleep_ms(2);
    CHECK_EQ(sr.calls, 1);
    CHECK_EQ(sr.type, WGPUErrorType_Validation);
    CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
    CHECK_EQ(sr.calls, 1);
  }

  CHECK_EQ(ctx.uncaptured_errors, 1);

  /* Lost device: pops give Success + NoError, errors are dropped. */
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  wgpuDeviceDestroy(ctx.device);
  junk[nj++] = mu_bad_buffer(ctx.device);
  r = pop(&ctx);
  CHECK_EQ(r.status, WGPUPopErrorScopeStatus_Success);
  CHECK_EQ(r.type, WGPUErrorType_NoError);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  junk[nj++] = mu_bad_buffer(ctx.device);
  r = pop(&ctx);
  CHECK_EQ(r.status, WGPUPopErrorScopeStatus_Success);
  CHECK_EQ(r.type, WGPUErrorType_NoError);
  CHECK_EQ(ctx.uncaptured_errors, 1);

  for (int i = 0; i < nj; i++)
    if (junk[i]) wgpuBufferRelease(junk[i]);
  ctx_release(&ctx);
  return test_finish();
}
