/* Rule (WebGPU beginRenderPass / beginComputePass, query sets): a render
 * pass's occlusionQuerySet must be of type Occlusion; a pass's
 * timestampWrites.querySet must be of type Timestamp, each index given
 * must be < the set's count, at least one index must be given, and the two
 * must differ. Violations make Finish raise a validation error (beginning
 * and ending raise nothing); valid passes finish cleanly. Ported from CTS
 * render_pass/render_pass_descriptor.spec (timestampWrites,*,
 * occlusionQuerySet,query_set_type) and encoding/beginComputePass.spec.
 * Needs the TimestampQuery feature (SKIP without it). */
#include "pass_util.h"

static WGPUQuerySet qset(Ctx *ctx, WGPUQueryType type, uint32_t count) {
  WGPUQuerySetDescriptor d = WGPU_QUERY_SET_DESCRIPTOR_INIT;
  d.type = type;
  d.count = count;
  WGPUQuerySet q = NULL;
  EXPECT_NO_VALIDATION(ctx, q = wgpuDeviceCreateQuerySet(ctx->device, &d));
  return q;
}

static void try_compute(Ctx *ctx, const WGPUPassTimestampWrites *tw, int valid, const char *what) {
  WGPUComputePassDescriptor d = WGPU_COMPUTE_PASS_DESCRIPTOR_INIT;
  d.timestampWrites = tw;
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  PopResult r;
  RU_CAPTURE(ctx, &r, {
    WGPUComputePassEncoder p = wgpuCommandEncoderBeginComputePass(enc, &d);
    wgpuComputePassEncoderEnd(p);
    wgpuComputePassEncoderRelease(p);
  });
  CHECK_EQ(r.type, WGPUErrorType_NoError);
  pu_finish_expect(ctx, enc, valid, what);
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
  WGPUFeatureName feat = WGPUFeatureName_TimestampQuery;
  dd.requiredFeatureCount = 1;
  dd.requiredFeatures = &feat;
  dd.uncapturedErrorCallbackInfo.callback = ctx_on_uncaptured;
  dd.uncapturedErrorCallbackInfo.userdata1 = &ctx;
  if (ctx_init_desc(&ctx, &dd) != 0) harness_skip("no device with TimestampQuery");
  pu_watch_internal_errors();
  char what[256];
  WGPUTextureView v = pu_view(pu_tex2d(&ctx, WGPUTextureFormat_RGBA8Unorm), NULL);
  WGPURenderPassColorAttachment c = pu_color(v);

  /* occlusionQuerySet type. */
  for (int ts = 0; ts < 2; ts++) {
    WGPUQuerySet q = qset(&ctx, ts ? WGPUQueryType_Timestamp : WGPUQueryType_Occlusion, 1);
    WGPURenderPassDescriptor d = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    d.colorAttachmentCount = 1;
    d.colorAttachments = &c;
    d.occlusionQuerySet = q;
    pu_try_pass(&ctx, &d, !ts, ts ? "timestamp set as occlusionQuerySet" : "occlusion set as occlusionQuerySet");
    wgpuQuerySetRelease(q);
  }

  /* timestampWrites query set type. */
  for (int ts = 0; ts < 2; ts++) {
    WGPUQuerySet q = qset(&ctx, ts ? WGPUQueryType_Timestamp : WGPUQueryType_Occlusion, 2);
    WGPUPassTimestampWrites tw = WGPU_PASS_TIMESTAMP_WRITES_INIT;
    tw.querySet = q;
    tw.beginningOfPassWriteIndex = 0;
    tw.endOfPassWriteIndex = 1;
    WGPURenderPassDescriptor d = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    d.colorAttachmentCount = 1;
    d.colorAttachments = &c;
    d.timestampWrites = &tw;
    snprintf(what, sizeof what, "render pass timestampWrites into a%s set", ts ? " timestamp" : "n occlusion");
    pu_try_pass(&ctx, &d, ts, what);
    snprintf(what, sizeof what, "compute pass timestampWrites into a%s set", ts ? " timestamp" : "n occlusion");
    try_compute(&ctx, &tw, ts, what);
    wgpuQuerySetRelease(q);
  }

  /* Indexes against a 2-query set. */
  WGPUQuerySet q = qset(&ctx, WGPUQueryType_Timestamp, 2);
  const uint32_t U = WGPU_QUERY_SET_INDEX_UNDEFINED;
  const uint32_t idx[][2] = {{0, U}, {1, U}, {2, U}, {3, U}, {U, 0}, {U, 1}, {U, 2}, {U, 3},
                             {0, 1}, {1, 0}, {0, 0}, {1, 1}, {U, U}, {0, 2}, {2, 0}};
  for (size_t i = 0; i < sizeof idx / sizeof idx[0]; i++) {
    uint32_t b = idx[i][0], e = idx[i][1];
    int valid = !(b == U && e == U) && (b == U || b < 2) && (e == U || e < 2) && !(b != U && b == e);
    WGPUPassTimestampWrites tw = WGPU_PASS_TIMESTAMP_WRITES_INIT;
    tw.querySet = q;
    tw.beginningOfPassWriteIndex = b;
    tw.endOfPassWriteIndex = e;
    WGPURenderPassDescriptor d = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    d.colorAttachmentCount = 1;
    d.colorAttachments = &c;
    d.timestampWrites = &tw;
    char bs[16], es[16];
    snprintf(bs, sizeof bs, b == U ? "-" : "%u", b);
    snprintf(es, sizeof es, e == U ? "-" : "%u", e);
    snprintf(what, sizeof what, "render pass timestampWrites begin %s end %s (count 2)", bs, es);
    pu_try_pass(&ctx, &d, valid, what);
    snprintf(what, sizeof what, "compute pass timestampWrites begin %s end %s (count 2)", bs, es);
    try_compute(&ctx, &tw, valid, what);
  }
  wgpuQuerySetRelease(q);

  pu_report(&ctx, pu_bad_cases);
  pu_release_all();
  ctx_release(&ctx);
  return test_finish();
}
