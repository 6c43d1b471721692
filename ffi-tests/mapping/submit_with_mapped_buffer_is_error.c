/* Rule (webgpu.h §9.5, JS submit validation): QueueSubmit of a command buffer
 * that uses a buffer which is Mapped (by MapAsync or at creation) or has a
 * Pending map is a validation error; the commands do not run (the mapped data
 * is unchanged) and the mapping / pending map is unaffected. After Unmap the
 * same work submits fine. */
#include "mapping_util.h"

static WGPUCommandBuffer copy_cmd(Ctx *ctx, WGPUBuffer src, WGPUBuffer dst, uint64_t size) {
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  wgpuCommandEncoderCopyBufferToBuffer(enc, src, 0, dst, 0, size);
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  wgpuCommandEncoderRelease(enc);
  return cmd;
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  uint8_t old_data[64], new_data[64], got[64];
  mu_fill(old_data, 64, 1);
  mu_fill(new_data, 64, 2);
  WGPUBuffer dst = mu_buffer_with_data(&ctx, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 1);
  WGPUBuffer src = mu_buffer_with_data(&ctx, 64, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 2);
  REQUIRE(dst && src);

  /* --- Destination Mapped. --- */
  CHECK_EQ(mu_map_wait(ctx.instance, dst, WGPUMapMode_Read, 0, 64), WGPUMapAsyncStatus_Success);
  WGPUCommandBuffer cmd = copy_cmd(&ctx, src, dst, 64);
  EXPECT_VALIDATION(&ctx, wgpuQueueSubmit(ctx.queue, 1, &cmd));
  wgpuCommandBufferRelease(cmd);
  CHECK_EQ(wgpuBufferGetMapState(dst), WGPUBufferMapState_Mapped);
  CHECK_EQ(wgpuBufferReadMappedRange(dst, 0, got, 64), WGPUStatus_Success);
  CHECK(memcmp(got, old_data, 64) == 0);
  wgpuBufferUnmap(dst);
  /* The copy did not run even later. */
  CHECK_EQ(mu_map_wait(ctx.instance, dst, WGPUMapMode_Read, 0, 64), WGPUMapAsyncStatus_Success);
  CHECK_EQ(wgpuBufferReadMappedRange(dst, 0, got, 64), WGPUStatus_Success);
  CHECK(memcmp(got, old_data, 64) == 0);
  wgpuBufferUnmap(dst);

  /* --- Destination with a Pending map (WaitAnyOnly, not yet delivered). --- */
  MapResult r;
  mu_map_result_init(&r);
  WGPUFuture f = mu_map_async(dst, WGPUMapMode_Read, 0, 64, WGPUCallbackMode_WaitAnyOnly, &r);
  CHECK_EQ(wgpuBufferGetMapState(dst), WGPUBufferMapState_Pending);
  cmd = copy_cmd(&ctx, src, dst, 64);
  EXPECT_VALIDATION(&ctx, wgpuQueueSubmit(ctx.queue, 1, &cmd));
  wgpuCommandBufferRelease(cmd);
  CHECK_EQ(wgpuBufferGetMapState(dst), WGPUBufferMapState_Pending);
  CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
  CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Success);
  CHECK_EQ(wgpuBufferReadMappedRange(dst, 0, got, 64), WGPUStatus_Success);
  CHECK(memcmp(got, old_data, 64) == 0);
  wgpuBufferUnmap(dst);

  /* --- Source mapped at creation (not yet unmapped). --- */
  WGPUBuffer mc = make_buffer(ctx.device, 64, WGPUBufferUsage_CopySrc, 1);
  REQUIRE(mc != NULL);
  CHECK_EQ(wgpuBufferWriteMappedRange(mc, 0, new_data, 64), WGPUStatus_Success);
  cmd = copy_cmd(&ctx, mc, dst, 64);
  EXPECT_VALIDATION(&ctx, wgpuQueueSubmit(ctx.queue, 1, &cmd));
  wgpuCommandBufferRelease(cmd);
  CHECK_EQ(wgpuBufferGetMapState(mc), WGPUBufferMapState_Mapped);

  /* --- After Unmap, the same work is fine and runs. --- */
  wgpuBufferUnmap(mc);
  cmd = copy_cmd(&ctx, mc, dst, 64);
  EXPECT_NO_VALIDATION(&ctx, wgpuQueueSubmit(ctx.queue, 1, &cmd));
  wgpuCommandBufferRelease(cmd);
  CHECK_EQ(mu_map_wait(ctx.instance, dst, WGPUMapMode_Read, 0, 64), WGPUMapAsyncStatus_Success);
  CHECK_EQ(wgpuBufferReadMappedRange(dst, 0, got, 64), WGPUStatus_Success);
  CHECK(memcmp(got, new_data, 64) == 0);
  wgpuBufferUnmap(dst);

  /* --- A Mapped buffer used in a compute pass's bind group (storage). --- */
  WGPUBuffer sto = make_buffer(ctx.device, 256, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, 1);
  REQUIRE(sto != NULL);
  WGPUShaderModule module = make_wgsl(ctx.device, MU_DOUBLE_WGSL);
  WGPUComputePipelineDescriptor pd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  pd.compute.module = module;
  pd.compute.entryPoint = sv("main");
  WGPUComputePipeline pipe = wgpuDeviceCreateComputePipeline(ctx.device, &pd);
  WGPUBindGroupLayout bgl = wgpuComputePipelineGetBindGroupLayout(pipe, 0);
  WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
  e.binding = 0;
  e.buffer = sto;
  e.size = WGPU_WHOLE_SIZE;
  WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  bd.layout = bgl;
  bd.entryCount = 1;
  bd.entries = &e;
  WGPUBindGroup bg = wgpuDeviceCreateBindGroup(ctx.device, &bd);
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
  WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, NULL);
  wgpuComputePassEncoderSetPipeline(pass, pipe);
  wgpuComputePassEncoderSetBindGroup(pass, 0, bg, 0, NULL);
  wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
  wgpuComputePassEncoderEnd(pass);
  cmd = wgpuCommandEncoderFinish(enc, NULL);
  EXPECT_VALIDATION(&ctx, wgpuQueueSubmit(ctx.queue, 1, &cmd));
  wgpuCommandBufferRelease(cmd);
  wgpuComputePassEncoderRelease(pass);
  wgpuCommandEncoderRelease(enc);
  wgpuBufferUnmap(sto);

  wgpuBindGroupRelease(bg);
  wgpuBindGroupLayoutRelease(bgl);
  wgpuComputePipelineRelease(pipe);
  wgpuShaderModuleRelease(module);
  wgpuBufferRelease(sto);
  wgpuBufferRelease(mc);
  wgpuBufferRelease(src);
  wgpuBufferRelease(dst);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
