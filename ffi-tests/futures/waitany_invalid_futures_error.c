/* Rule (spec §8.3 edge cases [U]; DECISIONS "count == 0", "futures == NULL",
 * "Null (0), never-issued or foreign future id"):
 *  - the null future (id 0), a never-issued id, or a future issued by another
 *    instance in the list -> Error (polls and timed waits), nothing delivered,
 *    not even the valid futures listed next to it;
 *  - futures == NULL with count > 0 -> Error;
 *  - count == 0 -> Success at once, whatever the timeout. */
#define _GNU_SOURCE
#include "futures_util.h"

static FuRec wd, other_ra;

/* WaitAny gives `expected` without waiting: in under 250 ms (generous for a
 * loaded machine), where the timeouts used here are 0.5 s, 1 s or forever. */
#define CHECK_AT_ONCE(inst, n, w, ns, expected) check_at_once((inst), (n), (w), (ns), (expected), __LINE__)
static void check_at_once(WGPUInstance inst, size_t n, WGPUFutureWaitInfo *w, uint64_t ns, WGPUWaitStatus expected,
                          int line) {
  double t0 = now_s();
  WGPUWaitStatus st = fu_wait_any(inst, n, w, ns);
  double took = now_s() - t0;
  char buf[160];
  snprintf(buf, sizeof buf, "WaitAny(count %zu, timeout %llu ns) gave %d (expected %d) after %.3f s", n,
           (unsigned long long)ns, (int)st, (int)expected, took);
  harness_check(st == expected && took < 0.25, buf, __FILE__, line);
}

static void check_error_list(WGPUInstance inst, WGPUFuture valid, WGPUFuture bad) {
  WGPUFutureWaitInfo w[2] = {WGPU_FUTURE_WAIT_INFO_INIT, WGPU_FUTURE_WAIT_INFO_INIT};
  w[0].future = bad;
  CHECK_AT_ONCE(inst, 1, w, 0, WGPUWaitStatus_Error);
  CHECK_AT_ONCE(inst, 1, w, FU_NS(0.01), WGPUWaitStatus_Error);
  CHECK_AT_ONCE(inst, 1, w, UINT64_MAX, WGPUWaitStatus_Error);
  w[0].future = valid;
  w[1].future = bad;
  CHECK_AT_ONCE(inst, 2, w, 0, WGPUWaitStatus_Error);
  CHECK_AT_ONCE(inst, 2, w, FU_NS(0.5), WGPUWaitStatus_Error);
  w[0].future = bad;
  w[1].future = valid;
  CHECK_AT_ONCE(inst, 2, w, 0, WGPUWaitStatus_Error);
  CHECK_AT_ONCE(inst, 2, w, FU_NS(0.5), WGPUWaitStatus_Error);
}

int main(void) {
  fu_begin(60);
  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  fu_rec_init(&wd, "valid work-done WaitAnyOnly");
  fu_rec_init(&other_ra, "other instance's request adapter");

  /* A valid future, complete and not delivered. */
  submit_empty(&ctx);
  WGPUFuture valid = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wd);
  sleep_s(0.05);

  WGPUFuture null_future = WGPU_FUTURE_INIT;
  CHECK_EQ(null_future.id, 0);
  check_error_list(ctx.instance, valid, null_future);
  WGPUFuture garbage[3] = {{UINT64_MAX}, {0xDEADBEEFCAFEF00Dull}, {1ull << 63}};
  for (int i = 0; i < 3; i++) check_error_list(ctx.instance, valid, garbage[i]);

  /* A future issued by another instance. */
  WGPUInstance other = create_instance(1);
  REQUIRE(other != NULL);
  WGPUFuture foreign = fu_request_adapter(other, WGPUCallbackMode_WaitAnyOnly, &other_ra);
  CHECK(foreign.id != 0);
  check_error_list(ctx.instance, valid, foreign);
  /* ... and ours on the other instance. */
  WGPUFutureWaitInfo ours = WGPU_FUTURE_WAIT_INFO_INIT;
  ours.future = valid;
  CHECK_AT_ONCE(other, 1, &ours, 0, WGPUWaitStatus_Error);
  CHECK_AT_ONCE(other, 1, &ours, FU_NS(0.5), WGPUWaitStatus_Error);
  FU_CHECK_NOT_CALLED(&wd);
  FU_CHECK_NOT_CALLED(&other_ra);

  /* NULL array with count > 0. */
  CHECK_AT_ONCE(ctx.instance, 1, NULL, 0, WGPUWaitStatus_Error);
  CHECK_AT_ONCE(ctx.instance, 3, NULL, FU_NS(0.5), WGPUWaitStatus_Error);

  /* count == 0: Success at once. */
  CHECK_AT_ONCE(ctx.instance, 0, NULL, 0, WGPUWaitStatus_Success);
  CHECK_AT_ONCE(ctx.instance, 0, NULL, FU_NS(1.0), WGPUWaitStatus_Success);
  CHECK_AT_ONCE(ctx.instance, 0, NULL, UINT64_MAX, WGPUWaitStatus_Success);
  WGPUFutureWaitInfo unused = WGPU_FUTURE_WAIT_INFO_INIT;
  CHECK_AT_ONCE(ctx.instance, 0, &unused, FU_NS(1.0), WGPUWaitStatus_Success);
  FU_CHECK_NOT_CALLED(&wd);

  /* The valid future is still intact and deliverable on its own instance. */
  WGPUBool completed = WGPU_FALSE;
  CHECK_EQ(fu_wait1(ctx.instance, valid, FU_WAIT_S, &wd, &completed), WGPUWaitStatus_Success);
  CHECK(completed);
  FU_CHECK_ONCE(&wd);
  CHECK_EQ(fu_wait1(other, foreign, FU_WAIT_S, &other_ra, NULL), WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&other_ra);
  /* Delivered futures are still foreign to the other instance. */
  CHECK_AT_ONCE(other, 1, &ours, 0, WGPUWaitStatus_Error);
  WGPUFutureWaitInfo theirs = WGPU_FUTURE_WAIT_INFO_INIT;
  theirs.future = foreign;
  CHECK_AT_ONCE(ctx.instance, 1, &theirs, 0, WGPUWaitStatus_Error);
  CHECK_AT_ONCE(ctx.instance, 1, &theirs, FU_NS(0.5), WGPUWaitStatus_Error);

  if (other_ra.obj) wgpuAdapterRelease((WGPUAdapter)other_ra.obj);
  wgpuInstanceRelease(other);
  ctx_release(&ctx);
  return test_finish();
}
