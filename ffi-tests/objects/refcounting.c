/* Rule (webgpu.h §2 "Objects, refcounting and ownership"): AddRef/Release work
 * on every object kind (Instance, Adapter, Device, Queue, Buffer, ShaderModule,
 * BindGroupLayout, BindGroup, PipelineLayout, ComputePipeline, CommandEncoder,
 * ComputePassEncoder, CommandBuffer): after AddRef + Release the object is
 * still usable (and an AddRef'd device is not destroyed by one Release: no
 * lost callback). The implementation keeps internal references: objects used
 * by others can be released early (layouts, modules, buffers, bind groups,
 * pipelines released before the work is recorded / submitted) and the work
 * still gives the right result. Parents may be released before children: a
 * buffer made from a device stays safe to use (getters) and release after the
 * device's last release. */
#include "../mapping/mapping_util.h"

#define N 256u

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);

  /* Instance, Adapter, Device, Queue. */
  wgpuInstanceAddRef(ctx.instance);
  wgpuInstanceRelease(ctx.instance);
  wgpuAdapterAddRef(ctx.adapter);
  wgpuAdapterRelease(ctx.adapter);
  wgpuDeviceAddRef(ctx.device);
  wgpuDeviceRelease(ctx.device);
  wgpuQueueAddRef(ctx.queue);
  wgpuQueueRelease(ctx.queue);
  {
    WGPULimits l = WGPU_LIMITS_INIT;
    CHECK_EQ(wgpuAdapterGetLimits(ctx.adapter, &l), WGPUStatus_Success);
  }
  sleep_ms(10);
  CHECK_EQ(ctx.lost_calls, 0);

  /* ShaderModule, BGL, PipelineLayout, ComputePipeline: AddRef/Release, then
   * release everything but the pipeline before using it. */
  WGPUShaderModule m = make_wgsl(ctx.device, MU_DOUBLE_WGSL);
  wgpuShaderModuleAddRef(m);
  wgpuShaderModuleRelease(m);
  WGPUBindGroupLayoutEntry le = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  le.binding = 0;
  le.visibility = WGPUShaderStage_Compute;
  le.buffer.type = WGPUBufferBindingType_Storage;
  WGPUBindGroupLayoutDescriptor ld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  ld.entryCount = 1;
  ld.entries = &le;
  WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(ctx.device, &ld);
  wgpuBindGroupLayoutAddRef(bgl);
  wgpuBindGroupLayoutRelease(bgl);
  WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
  pld.bindGroupLayoutCount = 1;
  pld.bindGroupLayouts = &bgl;
  WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(ctx.device, &pld);
  wgpuPipelineLayoutAddRef(pl);
  wgpuPipelineLayoutRelease(pl);
  WGPUComputePipelineDescriptor pd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  pd.layout = pl;
  pd.compute.module = m;
  pd.compute.entryPoint = sv("main");
  WGPUComputePipeline pipe = wgpuDeviceCreateComputePipeline(ctx.device, &pd);
  wgpuComputePipelineAddRef(pipe);
  wgpuComputePipelineRelease(pipe);
  wgpuShaderModuleRelease(m);
  wgpuPipelineLayoutRelease(pl);

  /* Buffer + BindGroup; the BGL and the buffer are released right after the
   * bind group is made. */
  WGPUBuffer data = make_buffer(ctx.device, N * 4,
                                WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 1);
  wgpuBufferAddRef(data);
  wgpuBufferRelease(data);
  uint32_t *init = (uint32_t *)wgpuBufferGetMappedRange(data, 0, N * 4);
  REQUIRE(init != NULL);
  for (uint32_t i = 0; i < N; i++) init[i] = i + 5;
  wgpuBufferUnmap(data);
  WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
  e.binding = 0;
  e.buffer = data;
  e.size = WGPU_WHOLE_SIZE;
  WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  bd.layout = bgl;
  bd.entryCount = 1;
  bd.entries = &e;
  WGPUBindGroup bg = wgpuDeviceCreateBindGroup(ctx.device, &bd);
  wgpuBindGroupAddRef(bg);
  wgpuBindGroupRelease(bg);
  wgpuBindGroupLayoutRelease(bgl);

  /* A copy of the result goes to `out`, which we keep. */
  WGPUBuffer out = make_buffer(ctx.device, N * 4, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);

  /* Encoders: AddRef/Release; pipeline and bind group released after being
   * set, before End/Finish/Submit. */
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
  wgpuCommandEncoderAddRef(enc);
  wgpuCommandEncoderRelease(enc);
  WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, NULL);
  wgpuComputePassEncoderAddRef(pass);
  wgpuComputePassEncoderRelease(pass);
  wgpuComputePassEncoderSetPipeline(pass, pipe);
  wgpuComputePassEncoderSetBindGroup(pass, 0, bg, 0, NULL);
  wgpuComputePipelineRelease(pipe);
  wgpuBindGroupRelease(bg);
  wgpuComputePassEncoderDispatchWorkgroups(pass, N / 64, 1, 1);
  wgpuComputePassEncoderEnd(pass);
  wgpuComputePassEncoderRelease(pass);
  wgpuCommandEncoderCopyBufferToBuffer(enc, data, 0, out, 0, N * 4);
  wgpuBufferRelease(data); /* recorded in the encoder: kept alive internally */
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  wgpuCommandEncoderRelease(enc);
  wgpuCommandBufferAddRef(cmd);
  wgpuCommandBufferRelease(cmd);
  wgpuQueueSubmit(ctx.queue, 1, &cmd);
  wgpuCommandBufferRelease(cmd); /* Submit did not consume our ref */

  CHECK_EQ(mu_map_wait(ctx.instance, out, WGPUMapMode_Read, 0, N * 4), WGPUMapAsyncStatus_Success);
  const uint32_t *r = (const uint32_t *)wgpuBufferGetConstMappedRange(out, 0, N * 4);
  CHECK(r != NULL);
  if (r) {
    int ok = 1;
    for (uint32_t i = 0; i < N; i++) ok &= r[i] == 2 * (i + 5);
    CHECK(ok);
  }
  wgpuBufferUnmap(out);
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);

  /* Parent before child: release the queue and the device (last refs) while
   * a buffer and a shader module made from it are still held. */
  WGPUBuffer child = make_buffer(ctx.device, 64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  WGPUShaderModule child_m = make_wgsl(ctx.device, MU_DOUBLE_WGSL);
  WGPUFuture lost = wgpuDeviceGetLostFuture(ctx.device);
  wgpuQueueRelease(ctx.queue);
  ctx.queue = NULL;
  wgpuDeviceRelease(ctx.device);
  ctx.device = NULL;
  CHECK_EQ(mu_wait(ctx.instance, lost), WGPUWaitStatus_Success);
  CHECK_EQ(wgpuBufferGetSize(child), 64);
  CHECK_EQ(wgpuBufferGetUsage(child), WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst);
  CHECK_EQ(wgpuBufferGetMapState(child), WGPUBufferMapState_Unmapped);
  CHECK_EQ(mu_map_wait(ctx.instance, child, WGPUMapMode_Read, 0, 64), WGPUMapAsyncStatus_Aborted);
  wgpuBufferAddRef(child);
  wgpuBufferRelease(child);
  wgpuBufferRelease(child);
  wgpuShaderModuleRelease(child_m);
  wgpuBufferRelease(out);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  CHECK_EQ(ctx.lost_calls, 1); /* only the final device release lost it */
  ctx_release(&ctx);
  return test_finish();
}
