/* Rule (spec §8.3, §8.4; DECISIONS "timedWaitAnyMaxCount"):
 *  - wgpuHasInstanceFeature(TimedWaitAny) is true and wgpuGetInstanceFeatures
 *    lists it; wgpuGetInstanceLimits succeeds and reports
 *    timedWaitAnyMaxCount >= 1024 (wgpu-shim: exactly 1,048,576);
 *  - InstanceDescriptor.requiredLimits above that maximum makes
 *    wgpuCreateInstance return NULL; at or below it, creation succeeds;
 *  - a timed wait listing more futures than the limit returns Error and
 *    delivers nothing; exactly the limit is fine; the limit does not apply to
 *    polls (timeoutNS == 0). */
#define _GNU_SOURCE
#include "futures_util.h"

static FuRec wd;

static WGPUInstance instance_with_limit(size_t limit) {
  WGPUInstanceFeatureName features[] = {WGPUInstanceFeatureName_TimedWaitAny};
  WGPUInstanceLimits limits = WGPU_INSTANCE_LIMITS_INIT;
  limits.timedWaitAnyMaxCount = limit;
  WGPUInstanceDescriptor desc = WGPU_INSTANCE_DESCRIPTOR_INIT;
  desc.requiredFeatureCount = 1;
  desc.requiredFeatures = features;
  desc.requiredLimits = &limits;
  return wgpuCreateInstance(&desc);
}

int main(void) {
  fu_begin(60);
  CHECK(wgpuHasInstanceFeature(WGPUInstanceFeatureName_TimedWaitAny));
  WGPUSupportedInstanceFeatures feats = WGPU_SUPPORTED_INSTANCE_FEATURES_INIT;
  wgpuGetInstanceFeatures(&feats);
  int listed = 0;
  for (size_t i = 0; i < feats.featureCount; i++) {
    if (feats.features[i] == WGPUInstanceFeatureName_TimedWaitAny) listed = 1;
  }
  CHECK(listed);
  wgpuSupportedInstanceFeaturesFreeMembers(feats);

  WGPUInstanceLimits lim = WGPU_INSTANCE_LIMITS_INIT;
  CHECK_EQ(wgpuGetInstanceLimits(&lim), WGPUStatus_Success);
  CHECK(lim.timedWaitAnyMaxCount >= 1024);
  CHECK_EQ(lim.timedWaitAnyMaxCount, 1048576);
  REQUIRE(lim.timedWaitAnyMaxCount >= 1 && lim.timedWaitAnyMaxCount <= ((size_t)1 << 26));
  const size_t max = lim.timedWaitAnyMaxCount;

  /* Instance creation against requiredLimits. */
  WGPUInstance over = instance_with_limit(max + 1);
  CHECK(over == NULL);
  if (over) wgpuInstanceRelease(over);
  WGPUInstance at = instance_with_limit(max);
  CHECK(at != NULL);
  if (at) wgpuInstanceRelease(at);
  WGPUInstance small = instance_with_limit(64);
  CHECK(small != NULL);
  if (small) wgpuInstanceRelease(small);

  Ctx ctx;
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  fu_rec_init(&wd, "work-done WaitAnyOnly");
  submit_empty(&ctx);
  WGPUFuture f = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &wd);
  sleep_s(0.05);

  /* max + 1 entries (the same valid future repeated). */
  WGPUFutureWaitInfo *w = (WGPUFutureWaitInfo *)calloc(max + 1, sizeof *w);
  REQUIRE(w != NULL);
  for (size_t i = 0; i <= max; i++) w[i].future = f;

  double t0 = now_s();
  CHECK_EQ(fu_wait_any(ctx.instance, max + 1, w, FU_NS(1.0)), WGPUWaitStatus_Error);
  CHECK_EQ(fu_wait_any(ctx.instance, max + 1, w, UINT64_MAX), WGPUWaitStatus_Error);
  CHECK(now_s() - t0 < 1.0);
  FU_CHECK_NOT_CALLED(&wd);

  /* Polls are not limited. */
  WGPUWaitStatus st = WGPUWaitStatus_TimedOut;
  double deadline = now_s() + FU_WAIT_S;
  while (st == WGPUWaitStatus_TimedOut && now_s() < deadline) {
    st = fu_wait_any(ctx.instance, max + 1, w, 0);
    if (st == WGPUWaitStatus_TimedOut) sleep_s(0.005);
  }
  CHECK_EQ(st, WGPUWaitStatus_Success);
  FU_CHECK_ONCE(&wd);
  CHECK(w[0].completed);
  CHECK(w[max].completed);

  /* Exactly the limit, timed: fine (Success: the future is complete). */
  for (size_t i = 0; i <= max; i++) w[i].completed = WGPU_FALSE;
  CHECK_EQ(fu_wait_any(ctx.instance, max, w, FU_NS(1.0)), WGPUWaitStatus_Success);
  CHECK(w[0].completed);
  CHECK(w[max - 1].completed);
  CHECK(!w[max].completed); /* not part of the call */
  /* And a timed wait over the limit on a delivered future is still Error. */
  CHECK_EQ(fu_wait_any(ctx.instance, max + 1, w, FU_NS(1.0)), WGPUWaitStatus_Error);
  FU_CHECK_ONCE(&wd);

  free(w);
  ctx_release(&ctx);
  return test_finish();
}
