/* Rule (query sets): an occlusion query set reports its type and count,
 * takes a label, AddRef/Release, and Destroy (twice is fine); count above
 * the limit and a garbage type are validation errors with a non-NULL
 * (invalid) set; an unaligned resolve offset fails at Finish. On a device
 * without TimestampQuery a timestamp set is a validation error, and
 * timestampWrites naming an occlusion set fails at Finish. On a device with
 * TimestampQuery (only if the adapter has it; skipped with a note
 * otherwise): a compute pass's timestampWrites resolved into a buffer give
 * non-decreasing values; encoder WriteTimestamp fails at Finish (wgpu needs
 * a non-standard feature for it); a resolve of a destroyed set fails at
 * submit. */
#include "tex_util.h"

static WGPUQuerySet make_set(Ctx *ctx, WGPUQueryType type, uint32_t count) {
  WGPUQuerySetDescriptor d = WGPU_QUERY_SET_DESCRIPTOR_INIT;
  d.label = sv("qs");
  d.type = type;
  d.count = count;
  return wgpuDeviceCreateQuerySet(ctx->device, &d);
}

/* Timestamp writes and resolves on a device with TimestampQuery. */
static void timestamp_checks(Ctx *tc) {
  WGPUQuerySet ts = NULL;
  EXPECT_NO_VALIDATION(tc, ts = make_set(tc, WGPUQueryType_Timestamp, 3));
  if (!ts) return;
  CHECK_EQ(wgpuQuerySetGetType(ts), WGPUQueryType_Timestamp);
  WGPUBuffer rb = make_buffer(tc->device, 256, WGPUBufferUsage_QueryResolve | WGPUBufferUsage_CopySrc, 0);
  WGPUPassTimestampWrites tw = WGPU_PASS_TIMESTAMP_WRITES_INIT;
  tw.querySet = ts;
  tw.beginningOfPassWriteIndex = 0;
  tw.endOfPassWriteIndex = 1;
  WGPUComputePassDescriptor cd = WGPU_COMPUTE_PASS_DESCRIPTOR_INIT;
  cd.timestampWrites = &tw;
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(tc->device, NULL);
  WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, &cd);
  wgpuComputePassEncoderEnd(pass);
  wgpuCommandEncoderResolveQuerySet(enc, ts, 0, 2, rb, 0);
  WGPUCommandBuffer cmd = NULL;
  EXPECT_NO_VALIDATION(tc, cmd = wgpuCommandEncoderFinish(enc, NULL));
  EXPECT_NO_VALIDATION(tc, wgpuQueueSubmit(tc->queue, 1, &cmd));
  wgpuCommandBufferRelease(cmd);
  wgpuComputePassEncoderRelease(pass);
  wgpuCommandEncoderRelease(enc);
  uint64_t v[2] = {0, 0};
  CHECK(mu_read_buffer(tc, rb, 0, v, sizeof v));
  CHECK(v[1] >= v[0]);
  printf("timestamps: %llu %llu\n", (unsigned long long)v[0], (unsigned long long)v[1]);

  /* Encoder-level WriteTimestamp needs wgpu's timestamps-inside-encoders
   * feature, which no standard feature enables: an error at Finish. */
  enc = wgpuDeviceCreateCommandEncoder(tc->device, NULL);
  wgpuCommandEncoderWriteTimestamp(enc, ts, 2);
  EXPECT_VALIDATION(tc, cmd = wgpuCommandEncoderFinish(enc, NULL));
  wgpuCommandBufferRelease(cmd);
  wgpuCommandEncoderRelease(enc);

  /* Resolving a destroyed set fails at submit. */
  enc = wgpuDeviceCreateCommandEncoder(tc->device, NULL);
  wgpuCommandEncoderResolveQuerySet(enc, ts, 0, 2, rb, 0);
  EXPECT_NO_VALIDATION(tc, cmd = wgpuCommandEncoderFinish(enc, NULL));
  wgpuQuerySetDestroy(ts);
  wgpuQuerySetDestroy(ts);
  EXPECT_VALIDATION(tc, wgpuQueueSubmit(tc->queue, 1, &cmd));
  wgpuCommandBufferRelease(cmd);
  wgpuCommandEncoderRelease(enc);
  wgpuBufferRelease(rb);
  wgpuQuerySetRelease(ts);
}

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  WGPUQuerySet occ = NULL;
  EXPECT_NO_VALIDATION(&ctx, occ = make_set(&ctx, WGPUQueryType_Occlusion, 8));
  REQUIRE(occ != NULL);
  CHECK_EQ(wgpuQuerySetGetType(occ), WGPUQueryType_Occlusion);
  CHECK_EQ(wgpuQuerySetGetCount(occ), 8);
  wgpuQuerySetSetLabel(occ, sv("occlusion"));
  wgpuQuerySetAddRef(occ);
  wgpuQuerySetRelease(occ);

  WGPUQuerySet bad = NULL;
  EXPECT_VALIDATION(&ctx, bad = make_set(&ctx, WGPUQueryType_Occlusion, 1u << 20));
  CHECK(bad != NULL);
  CHECK_EQ(wgpuQuerySetGetCount(bad), 1u << 20);
  if (bad) wgpuQuerySetRelease(bad);
  EXPECT_VALIDATION(&ctx, bad = make_set(&ctx, (WGPUQueryType)0x77, 1));
  CHECK(bad != NULL);
  if (bad) wgpuQuerySetRelease(bad);

  /* The harness device has no TimestampQuery. */
  CHECK(!wgpuDeviceHasFeature(ctx.device, WGPUFeatureName_TimestampQuery));
  EXPECT_VALIDATION(&ctx, bad = make_set(&ctx, WGPUQueryType_Timestamp, 2));
  CHECK(bad != NULL);
  if (bad) wgpuQuerySetRelease(bad);
  {
    /* timestampWrites naming an occlusion set: an error at Finish. */
    WGPUPassTimestampWrites tw = WGPU_PASS_TIMESTAMP_WRITES_INIT;
    tw.querySet = occ;
    tw.beginningOfPassWriteIndex = 0;
    WGPUComputePassDescriptor cd = WGPU_COMPUTE_PASS_DESCRIPTOR_INIT;
    cd.timestampWrites = &tw;
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
    WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, &cd);
    wgpuComputePassEncoderEnd(pass);
    WGPUCommandBuffer cmd = NULL;
    EXPECT_VALIDATION(&ctx, cmd = wgpuCommandEncoderFinish(enc, NULL));
    wgpuCommandBufferRelease(cmd);
    wgpuComputePassEncoderRelease(pass);
    wgpuCommandEncoderRelease(enc);
  }

  /* A second adapter and a device with TimestampQuery, when it exists. */
  WGPUAdapter a2 = mu_request_adapter(ctx.instance);
  REQUIRE(a2 != NULL);
  if (!wgpuAdapterHasFeature(a2, WGPUFeatureName_TimestampQuery)) {
    printf("note: the adapter lacks TimestampQuery; timestamp checks skipped\n");
  } else {
    WGPUFeatureName f = WGPUFeatureName_TimestampQuery;
    WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
    dd.requiredFeatureCount = 1;
    dd.requiredFeatures = &f;
    DeviceRequest r;
    Ctx tc = ctx;
    tc.device = mu_request_device(ctx.instance, a2, &dd, &r);
    REQUIRE(tc.device != NULL);
    tc.queue = wgpuDeviceGetQueue(tc.device);
    CHECK(wgpuDeviceHasFeature(tc.device, WGPUFeatureName_TimestampQuery));
    timestamp_checks(&tc);
    wgpuQueueRelease(tc.queue);
    wgpuDeviceRelease(tc.device);
  }
  wgpuAdapterRelease(a2);

  /* An unaligned resolve offset is an error at Finish. */
  WGPUBuffer rb2 = make_buffer(ctx.device, 1024, WGPUBufferUsage_QueryResolve, 0);
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
  wgpuCommandEncoderResolveQuerySet(enc, occ, 0, 1, rb2, 8);
  WGPUCommandBuffer cmd = NULL;
  EXPECT_VALIDATION(&ctx, cmd = wgpuCommandEncoderFinish(enc, NULL));
  wgpuCommandBufferRelease(cmd);
  wgpuCommandEncoderRelease(enc);
  wgpuBufferRelease(rb2);

  EXPECT_NO_VALIDATION(&ctx, wgpuQuerySetDestroy(occ); wgpuQuerySetDestroy(occ));
  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuQuerySetRelease(occ);
  ctx_release(&ctx);
  return test_finish();
}
