/* Rule (webgpu.h §2, §6; JS GPUCommandEncoder state machine): ClearBuffer
 * (range and WGPU_WHOLE_SIZE) and CopyBufferToBuffer record and run
 * correctly; balanced debug groups / markers on the encoder and on a compute
 * pass are fine; an unbalanced PopDebugGroup (or a group left open) makes
 * Finish a validation error; using an encoder after Finish (copy, clear,
 * BeginComputePass, a second Finish) and a pass after End are validation
 * errors; SetLabel on every object kind (NUL-terminated, explicit length,
 * empty, null) raises nothing; Finish does not consume the encoder's ref. */
#include "../mapping/mapping_util.h"

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  uint8_t src_data[256], got[256];
  mu_fill(src_data, 256, 17);
  WGPUBuffer src = mu_buffer_with_data(&ctx, 256, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 17);
  WGPUBuffer dst = make_buffer(ctx.device, 256, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 0);
  REQUIRE(src && dst);

  /* --- Copy + clear + debug markers, all valid. --- */
  WGPUCommandEncoder enc = NULL;
  WGPUCommandBuffer cmd = NULL;
  EXPECT_NO_VALIDATION(&ctx, {
    WGPUCommandEncoderDescriptor ed = WGPU_COMMAND_ENCODER_DESCRIPTOR_INIT;
    ed.label = sv("ops encoder");
    enc = wgpuDeviceCreateCommandEncoder(ctx.device, &ed);
    wgpuCommandEncoderPushDebugGroup(enc, sv("outer"));
    wgpuCommandEncoderInsertDebugMarker(enc, mu_svn("marker-with-explicit-length!!", 12));
    wgpuCommandEncoderCopyBufferToBuffer(enc, src, 0, dst, 0, 256);
    wgpuCommandEncoderPushDebugGroup(enc, sv("inner"));
    wgpuCommandEncoderClearBuffer(enc, dst, 64, 64);
    wgpuCommandEncoderPopDebugGroup(enc);
    WGPUComputePassDescriptor cpd = WGPU_COMPUTE_PASS_DESCRIPTOR_INIT;
    cpd.label = sv("pass");
    WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, &cpd);
    wgpuComputePassEncoderPushDebugGroup(pass, sv("pass group"));
    wgpuComputePassEncoderInsertDebugMarker(pass, sv("pass marker"));
    wgpuComputePassEncoderPopDebugGroup(pass);
    wgpuComputePassEncoderInsertDebugMarker(pass, (WGPUStringView)WGPU_STRING_VIEW_INIT);
    wgpuComputePassEncoderEnd(pass);
    wgpuComputePassEncoderRelease(pass);
    wgpuCommandEncoderCopyBufferToBuffer(enc, src, 200, dst, 248, 8);
    wgpuCommandEncoderPopDebugGroup(enc);
    WGPUCommandBufferDescriptor cbd = WGPU_COMMAND_BUFFER_DESCRIPTOR_INIT;
    cbd.label = sv("ops cmd");
    cmd = wgpuCommandEncoderFinish(enc, &cbd);
    wgpuQueueSubmit(ctx.queue, 1, &cmd);
  });
  CHECK(cmd != NULL);
  CHECK(mu_read_buffer(&ctx, dst, 0, got, 256));
  {
    uint8_t want[256];
    memcpy(want, src_data, 256);
    memset(want + 64, 0, 64);
    memcpy(want + 248, src_data + 200, 8);
    CHECK(memcmp(got, want, 256) == 0);
  }

  /* --- The encoder after Finish: each use is a validation error. Finish did
   * not consume the ref (we still release it below). --- */
  EXPECT_VALIDATION(&ctx, wgpuCommandEncoderCopyBufferToBuffer(enc, src, 0, dst, 0, 4));
  EXPECT_VALIDATION(&ctx, wgpuCommandEncoderClearBuffer(enc, dst, 0, 4));
  EXPECT_VALIDATION(&ctx, {
    WGPUComputePassEncoder p2 = wgpuCommandEncoderBeginComputePass(enc, NULL);
    if (p2) wgpuComputePassEncoderRelease(p2);
  });
  EXPECT_VALIDATION(&ctx, {
    WGPUCommandBuffer again = wgpuCommandEncoderFinish(enc, NULL);
    if (again) wgpuCommandBufferRelease(again);
  });
  EXPECT_VALIDATION(&ctx, wgpuCommandEncoderPushDebugGroup(enc, sv("late")));
  /* Submitting the same command buffer twice is an error too. */
  EXPECT_VALIDATION(&ctx, wgpuQueueSubmit(ctx.queue, 1, &cmd));
  wgpuCommandBufferRelease(cmd);
  wgpuCommandEncoderRelease(enc);

  /* --- WHOLE_SIZE clear from an offset. --- */
  EXPECT_NO_VALIDATION(&ctx, {
    WGPUCommandEncoder e2 = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
    wgpuCommandEncoderClearBuffer(e2, dst, 128, WGPU_WHOLE_SIZE);
    WGPUCommandBuffer c2 = wgpuCommandEncoderFinish(e2, NULL);
    wgpuQueueSubmit(ctx.queue, 1, &c2);
    wgpuCommandBufferRelease(c2);
    wgpuCommandEncoderRelease(e2);
  });
  CHECK(mu_read_buffer(&ctx, dst, 0, got, 256));
  {
    int zero = 1;
    for (int i = 128; i < 256; i++) zero &= got[i] == 0;
    CHECK(zero);
    CHECK(memcmp(got, src_data, 64) == 0);
  }

  /* --- Unbalanced debug groups: Finish fails. --- */
  {
    WGPUCommandEncoder e3 = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
    wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
    wgpuCommandEncoderPopDebugGroup(e3); /* nothing pushed */
    WGPUCommandBuffer c3 = wgpuCommandEncoderFinish(e3, NULL);
    CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_Validation);
    CHECK(c3 != NULL); /* an invalid command buffer, not NULL */
    EXPECT_VALIDATION(&ctx, wgpuQueueSubmit(ctx.queue, 1, &c3));
    if (c3) wgpuCommandBufferRelease(c3);
    wgpuCommandEncoderRelease(e3);

    WGPUCommandEncoder e4 = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
    wgpuCommandEncoderPushDebugGroup(e4, sv("never popped"));
    WGPUCommandBuffer c4 = NULL;
    EXPECT_VALIDATION(&ctx, c4 = wgpuCommandEncoderFinish(e4, NULL));
    if (c4) wgpuCommandBufferRelease(c4);
    wgpuCommandEncoderRelease(e4);

    WGPUCommandEncoder e5 = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
    WGPUComputePassEncoder p5 = wgpuCommandEncoderBeginComputePass(e5, NULL);
    wgpuComputePassEncoderPopDebugGroup(p5); /* nothing pushed in the pass */
    wgpuComputePassEncoderEnd(p5);
    WGPUCommandBuffer c5 = NULL;
    EXPECT_VALIDATION(&ctx, c5 = wgpuCommandEncoderFinish(e5, NULL));
    if (c5) wgpuCommandBufferRelease(c5);
    wgpuComputePassEncoderRelease(p5);
    wgpuCommandEncoderRelease(e5);
  }

  /* --- A pass used after End; the encoder used while a pass is open. --- */
  {
    WGPUCommandEncoder e6 = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
    WGPUComputePassEncoder p6 = wgpuCommandEncoderBeginComputePass(e6, NULL);
    wgpuComputePassEncoderEnd(p6);
    EXPECT_VALIDATION(&ctx, wgpuComputePassEncoderEnd(p6));
    EXPECT_VALIDATION(&ctx, wgpuComputePassEncoderInsertDebugMarker(p6, sv("after end")));
    WGPUCommandBuffer c6 = wgpuCommandEncoderFinish(e6, NULL);
    if (c6) wgpuCommandBufferRelease(c6);
    wgpuComputePassEncoderRelease(p6);
    wgpuCommandEncoderRelease(e6);

    WGPUCommandEncoder e7 = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
    WGPUComputePassEncoder p7 = wgpuCommandEncoderBeginComputePass(e7, NULL);
    wgpuCommandEncoderCopyBufferToBuffer(e7, src, 0, dst, 0, 4); /* pass still open */
    wgpuComputePassEncoderEnd(p7);
    WGPUCommandBuffer c7 = NULL;
    EXPECT_VALIDATION(&ctx, c7 = wgpuCommandEncoderFinish(e7, NULL));
    if (c7) wgpuCommandBufferRelease(c7);
    wgpuComputePassEncoderRelease(p7);
    wgpuCommandEncoderRelease(e7);
  }

  /* --- Invalid copies/clears are reported at Finish. --- */
  {
    WGPUCommandEncoder e8 = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
    wgpuCommandEncoderCopyBufferToBuffer(e8, src, 0, dst, 0, 6); /* size % 4 */
    WGPUCommandBuffer c8 = NULL;
    EXPECT_VALIDATION(&ctx, c8 = wgpuCommandEncoderFinish(e8, NULL));
    if (c8) wgpuCommandBufferRelease(c8);
    wgpuCommandEncoderRelease(e8);
    WGPUCommandEncoder e9 = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
    wgpuCommandEncoderClearBuffer(e9, dst, 4, 8);   /* valid on its own */
    wgpuCommandEncoderClearBuffer(e9, dst, 252, 8); /* past the end */
    WGPUCommandBuffer c9 = NULL;
    EXPECT_VALIDATION(&ctx, c9 = wgpuCommandEncoderFinish(e9, NULL));
    if (c9) wgpuCommandBufferRelease(c9);
    wgpuCommandEncoderRelease(e9);
  }

  /* --- SetLabel on every object kind. --- */
  EXPECT_NO_VALIDATION(&ctx, {
    WGPUStringView labels[4] = {sv("label"), mu_svn("explicit-length-label-XXXX", 21), sv(""),
                                WGPU_STRING_VIEW_INIT};
    WGPUShaderModule m = make_wgsl(ctx.device, MU_DOUBLE_WGSL);
    /* An explicit layout (an auto layout's BGL is exclusive to its pipeline
     * and may not go into a pipeline layout). */
    WGPUBindGroupLayoutEntry lent = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    lent.binding = 0;
    lent.visibility = WGPUShaderStage_Compute;
    lent.buffer.type = WGPUBufferBindingType_Storage;
    WGPUBindGroupLayoutDescriptor ld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    ld.entryCount = 1;
    ld.entries = &lent;
    WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(ctx.device, &ld);
    WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pld.bindGroupLayoutCount = 1;
    pld.bindGroupLayouts = &bgl;
    WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(ctx.device, &pld);
    WGPUComputePipelineDescriptor pd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    pd.layout = pl;
    pd.compute.module = m;
    pd.compute.entryPoint = sv("main");
    WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(ctx.device, &pd);
    WGPUBuffer sb = make_buffer(ctx.device, 64, WGPUBufferUsage_Storage, 0);
    WGPUBindGroupEntry be = WGPU_BIND_GROUP_ENTRY_INIT;
    be.binding = 0;
    be.buffer = sb;
    be.size = WGPU_WHOLE_SIZE;
    WGPUBindGroupDescriptor bgd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bgd.layout = bgl;
    bgd.entryCount = 1;
    bgd.entries = &be;
    WGPUBindGroup bg = wgpuDeviceCreateBindGroup(ctx.device, &bgd);
    WGPUCommandEncoder le = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
    WGPUComputePassEncoder lp = wgpuCommandEncoderBeginComputePass(le, NULL);
    for (int i = 0; i < 4; i++) {
      wgpuDeviceSetLabel(ctx.device, labels[i]);
      wgpuQueueSetLabel(ctx.queue, labels[i]);
      wgpuBufferSetLabel(sb, labels[i]);
      wgpuShaderModuleSetLabel(m, labels[i]);
      wgpuBindGroupLayoutSetLabel(bgl, labels[i]);
      wgpuBindGroupSetLabel(bg, labels[i]);
      wgpuPipelineLayoutSetLabel(pl, labels[i]);
      wgpuComputePipelineSetLabel(p, labels[i]);
      wgpuCommandEncoderSetLabel(le, labels[i]);
      wgpuComputePassEncoderSetLabel(lp, labels[i]);
    }
    wgpuComputePassEncoderEnd(lp);
    WGPUCommandBuffer lc = wgpuCommandEncoderFinish(le, NULL);
    for (int i = 0; i < 4; i++) wgpuCommandBufferSetLabel(lc, labels[i]);
    wgpuCommandBufferRelease(lc);
    wgpuComputePassEncoderRelease(lp);
    wgpuCommandEncoderRelease(le);
    wgpuBindGroupRelease(bg);
    wgpuBufferRelease(sb);
    wgpuPipelineLayoutRelease(pl);
    wgpuBindGroupLayoutRelease(bgl);
    wgpuComputePipelineRelease(p);
    wgpuShaderModuleRelease(m);
  });

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuBufferRelease(src);
  wgpuBufferRelease(dst);
  ctx_release(&ctx);
  return test_finish();
}
