/* Rule (end to end over webgpu.h's compute path): a WGSL doubling shader over
 * 1024 u32s runs correctly (a) with an explicit bind group layout and pipeline
 * layout and (b) with an auto layout (pipeline layout NULL, bind group layout
 * from wgpuComputePipelineGetBindGroupLayout), with input uploaded by
 * mappedAtCreation and QueueWriteBuffer, results copied to a MAP_READ buffer,
 * mapped and checked element by element; (a) then (b) on the same buffer
 * gives x4. No validation errors on the way. */
#include "../mapping/mapping_util.h"

#define N 1024u

static void dispatch(Ctx *ctx, WGPUComputePipeline p, WGPUBindGroup bg) {
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(enc, NULL);
  wgpuComputePassEncoderSetPipeline(pass, p);
  wgpuComputePassEncoderSetBindGroup(pass, 0, bg, 0, NULL);
  wgpuComputePassEncoderDispatchWorkgroups(pass, N / 64, 1, 1);
  wgpuComputePassEncoderEnd(pass);
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  wgpuQueueSubmit(ctx->queue, 1, &cmd);
  wgpuCommandBufferRelease(cmd);
  wgpuComputePassEncoderRelease(pass);
  wgpuCommandEncoderRelease(enc);
}

static WGPUBindGroup make_group(Ctx *ctx, WGPUBindGroupLayout bgl, WGPUBuffer b) {
  WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
  e.binding = 0;
  e.buffer = b;
  e.offset = 0;
  e.size = N * 4;
  WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  bd.layout = bgl;
  bd.entryCount = 1;
  bd.entries = &e;
  return wgpuDeviceCreateBindGroup(ctx->device, &bd);
}

/* Copies b into a MAP_READ buffer, maps it, checks data[i] == f(i). */
static int verify(Ctx *ctx, WGPUBuffer b, uint32_t mul, uint32_t add) {
  WGPUBuffer rb = make_buffer(ctx->device, N * 4, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  mu_copy(ctx, b, 0, rb, 0, N * 4);
  int ok = mu_map_wait(ctx->instance, rb, WGPUMapMode_Read, 0, N * 4) == WGPUMapAsyncStatus_Success;
  const uint32_t *p = ok ? (const uint32_t *)wgpuBufferGetConstMappedRange(rb, 0, N * 4) : NULL;
  int bad = -1;
  if (p) {
    for (uint32_t i = 0; i < N; i++) {
      if (p[i] != (i * 3u + add) * mul) {
        bad = (int)i;
        break;
      }
    }
    if (bad >= 0)
      fprintf(stderr, "  element %d: got %u want %u\n", bad, p[bad], ((uint32_t)bad * 3u + add) * mul);
  }
  ok = p != NULL && bad < 0;
  wgpuBufferUnmap(rb);
  wgpuBufferRelease(rb);
  return ok;
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);

  WGPUShaderModule m = make_wgsl(ctx.device, MU_DOUBLE_WGSL);
  REQUIRE(m != NULL);

  /* Data: mappedAtCreation, data[i] = 3i + 1. */
  WGPUBuffer data = make_buffer(ctx.device, N * 4,
                                WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 1);
  REQUIRE(data != NULL);
  uint32_t *init = (uint32_t *)wgpuBufferGetMappedRange(data, 0, N * 4);
  REQUIRE(init != NULL);
  for (uint32_t i = 0; i < N; i++) init[i] = i * 3u + 1u;
  wgpuBufferUnmap(data);

  /* (a) explicit layouts. */
  WGPUBindGroupLayoutEntry le = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  le.binding = 0;
  le.visibility = WGPUShaderStage_Compute;
  le.buffer.type = WGPUBufferBindingType_Storage;
  le.buffer.minBindingSize = 4;
  WGPUBindGroupLayoutDescriptor ld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  ld.label = sv("explicit bgl");
  ld.entryCount = 1;
  ld.entries = &le;
  WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(ctx.device, &ld);
  WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
  pld.bindGroupLayoutCount = 1;
  pld.bindGroupLayouts = &bgl;
  WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(ctx.device, &pld);
  WGPUComputePipelineDescriptor pd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  pd.label = sv("explicit pipeline");
  pd.layout = pl;
  pd.compute.module = m;
  pd.compute.entryPoint = sv("main");
  WGPUComputePipeline p1 = wgpuDeviceCreateComputePipeline(ctx.device, &pd);
  WGPUBindGroup g1 = make_group(&ctx, bgl, data);
  dispatch(&ctx, p1, g1);
  CHECK(verify(&ctx, data, 2, 1));

  /* (b) auto layout, on the same buffer: x4 in all. */
  pd.layout = NULL;
  pd.label = sv("auto pipeline");
  WGPUComputePipeline p2 = wgpuDeviceCreateComputePipeline(ctx.device, &pd);
  WGPUBindGroupLayout auto_bgl = wgpuComputePipelineGetBindGroupLayout(p2, 0);
  CHECK(auto_bgl != NULL);
  WGPUBindGroup g2 = make_group(&ctx, auto_bgl, data);
  dispatch(&ctx, p2, g2);
  CHECK(verify(&ctx, data, 4, 1));

  /* (b') auto layout on a fresh buffer filled by QueueWriteBuffer. */
  WGPUBuffer data2 = make_buffer(ctx.device, N * 4,
                                 WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 0);
  uint32_t *tmp = (uint32_t *)malloc(N * 4);
  for (uint32_t i = 0; i < N; i++) tmp[i] = i * 3u + 7u;
  wgpuQueueWriteBuffer(ctx.queue, data2, 0, tmp, N * 4);
  free(tmp);
  WGPUBindGroup g3 = make_group(&ctx, auto_bgl, data2);
  dispatch(&ctx, p2, g3);
  CHECK(verify(&ctx, data2, 2, 7));

  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
  CHECK_EQ(ctx.uncaptured_errors, 0);

  wgpuBindGroupRelease(g3);
  wgpuBindGroupRelease(g2);
  wgpuBindGroupRelease(g1);
  wgpuBindGroupLayoutRelease(auto_bgl);
  wgpuComputePipelineRelease(p2);
  wgpuComputePipelineRelease(p1);
  wgpuPipelineLayoutRelease(pl);
  wgpuBindGroupLayoutRelease(bgl);
  wgpuBufferRelease(data2);
  wgpuBufferRelease(data);
  wgpuShaderModuleRelease(m);
  ctx_release(&ctx);
  return test_finish();
}
