/* Rule (webgpu.h §6 "Error scopes", §7, §12): the error-scope stack is per OS
 * thread and starts empty on every thread. A scope pushed on thread A does not
 * capture an error made on thread B (B's error goes to the uncaptured-error
 * callback); B's own scope captures it; popping on B while only A has a scope
 * is an "empty stack" pop (status Error); A's scope still captures A's own
 * errors. */
#include "../mapping/mapping_util.h"

typedef struct {
  Ctx *ctx;
  int use_scope;
  int pop_empty;
  WGPUErrorType popped;
  PopResult empty_pop;
  int empty_pop_ok;
} ThreadArg;

static void *thread_b(void *p) {
  ThreadArg *a = (ThreadArg *)p;
  if (a->pop_empty) {
    a->empty_pop_ok = mu_pop_full(a->ctx->instance, a->ctx->device, &a->empty_pop);
    return NULL;
  }
  if (a->use_scope) wgpuDevicePushErrorScope(a->ctx->device, WGPUErrorFilter_Validation);
  WGPUBuffer bad = mu_bad_buffer(a->ctx->device);
  if (bad) wgpuBufferRelease(bad);
  if (a->use_scope) a->popped = mu_pop_type(a->ctx);
  return NULL;
}

static void run_b(ThreadArg *a) {
  pthread_t t;
  if (pthread_create(&t, NULL, thread_b, a) != 0) {
    CHECK(!"pthread_create");
    return;
  }
  pthread_join(t, NULL);
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  /* A pushes a scope; B makes an error without a scope. */
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  int before = ctx.uncaptured_errors;
  ThreadArg b1 = {&ctx, 0, 0, (WGPUErrorType)0, {0}, 0};
  run_b(&b1);
  CHECK_EQ(mu_uncaptured_since(&ctx, before, 1000), 1);
  CHECK_EQ(ctx.last_error_type, WGPUErrorType_Validation);
  /* A's scope saw nothing. */
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);

  /* B with its own scope: captured there, not uncaptured, not in A's. */
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  before = ctx.uncaptured_errors;
  ThreadArg b2 = {&ctx, 1, 0, (WGPUErrorType)0, {0}, 0};
  run_b(&b2);
  CHECK_EQ(b2.popped, WGPUErrorType_Validation);
  CHECK_EQ(mu_uncaptured_since(&ctx, before, 100), 0);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);

  /* A has a scope; B pops: B's stack is empty -> status Error. A's scope is
   * still there afterwards and captures A's error. */
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  ThreadArg b3 = {&ctx, 0, 1, (WGPUErrorType)0, {0}, 0};
  run_b(&b3);
  CHECK(b3.empty_pop_ok);
  CHECK_EQ(b3.empty_pop.status, WGPUPopErrorScopeStatus_Error);
  CHECK_EQ(b3.empty_pop.type, WGPUErrorType_NoError);
  CHECK(b3.empty_pop.msg_len > 0 && b3.empty_pop.msg_len != WGPU_STRLEN);
  before = ctx.uncaptured_errors;
  WGPUBuffer bad = mu_bad_buffer(ctx.device);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_Validation);
  CHECK_EQ(ctx.uncaptured_errors, before);
  if (bad) wgpuBufferRelease(bad);

  /* Two threads at once, each with its own scope and its own error kind of
   * outcome: B errs, A does not. */
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  ThreadArg b4 = {&ctx, 1, 0, (WGPUErrorType)0, {0}, 0};
  pthread_t t;
  REQUIRE(pthread_create(&t, NULL, thread_b, &b4) == 0);
  WGPUBuffer good = make_buffer(ctx.device, 64, WGPUBufferUsage_CopyDst, 0);
  pthread_join(t, NULL);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
  CHECK_EQ(b4.popped, WGPUErrorType_Validation);
  if (good) wgpuBufferRelease(good);

  /* A new thread starts with an empty stack even while A has scopes. */
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  ThreadArg b5 = {&ctx, 0, 1, (WGPUErrorType)0, {0}, 0};
  run_b(&b5);
  CHECK(b5.empty_pop_ok);
  CHECK_EQ(b5.empty_pop.status, WGPUPopErrorScopeStatus_Error);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);

  ctx_release(&ctx);
  return test_finish();
}
