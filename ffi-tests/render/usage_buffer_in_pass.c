/* Rule (WebGPU resource usage scopes, buffers): within one usage scope a
 * buffer may have any number of read-only usages (uniform, read-only
 * storage, vertex, index, indirect), or only writable-storage usages; a
 * writable storage usage together with any other usage is a conflict. A
 * render pass is one usage scope (every setBindGroup, setVertexBuffer,
 * setIndexBuffer and indirect buffer counts, drawn or not); in a compute
 * pass each dispatch is a scope of the bind groups bound at it (and its
 * indirect buffer), so usages in different dispatches never conflict. A
 * conflict makes Finish raise a validation error. Ported from CTS
 * resource_usages/buffer/in_pass_encoder.spec. */
#include "draw_util.h"

typedef enum { U_UNIFORM, U_STORAGE, U_RO_STORAGE, U_VERTEX, U_INDEX, U_INDIRECT, U_COUNT } Use;
static const char *USE_NAMES[U_COUNT] = {"uniform", "storage", "read-only-storage", "vertex", "index", "indirect"};

static int is_binding(Use u) { return u <= U_RO_STORAGE; }

static WGPUBufferBindingType bt(Use u) {
  return u == U_UNIFORM ? WGPUBufferBindingType_Uniform
         : u == U_STORAGE ? WGPUBufferBindingType_Storage
                          : WGPUBufferBindingType_ReadOnlyStorage;
}

/* A bind group layout + group with the binding usages of `uses` (n of
 * them) over `b`, visible to `stage`. */
static WGPUBindGroup group(Ctx *ctx, const Use *uses, int n, WGPUBuffer b, WGPUShaderStage stage,
                           WGPUBindGroupLayout *out_layout) {
  WGPUBindGroupLayoutEntry le[2];
  WGPUBindGroupEntry ge[2];
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (!is_binding(uses[i])) continue;
    le[k] = (WGPUBindGroupLayoutEntry)WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    le[k].binding = (uint32_t)k;
    le[k].visibility = stage;
    le[k].buffer.type = bt(uses[i]);
    ge[k] = (WGPUBindGroupEntry)WGPU_BIND_GROUP_ENTRY_INIT;
    ge[k].binding = (uint32_t)k;
    ge[k].buffer = b;
    ge[k].offset = 0;
    ge[k].size = 16;
    k++;
  }
  WGPUBindGroupLayoutDescriptor ld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  ld.entryCount = (size_t)k;
  ld.entries = le;
  *out_layout = wgpuDeviceCreateBindGroupLayout(ctx->device, &ld);
  WGPUBindGroupDescriptor gd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  gd.layout = *out_layout;
  gd.entryCount = (size_t)k;
  gd.entries = ge;
  return wgpuDeviceCreateBindGroup(ctx->device, &gd);
}

static WGPUPipelineLayout playout(Ctx *ctx, WGPUBindGroupLayout l) {
  WGPUPipelineLayoutDescriptor d = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
  d.bindGroupLayoutCount = 1;
  d.bindGroupLayouts = &l;
  return wgpuDeviceCreatePipelineLayout(ctx->device, &d);
}

static int valid_pair(Use a, Use b) {
  int wa = a == U_STORAGE, wb = b == U_STORAGE;
  return (!wa && !wb) || (wa && wb);
}

static const WGPUBufferUsage ALL = WGPUBufferUsage_Uniform | WGPUBufferUsage_Storage | WGPUBufferUsage_Vertex |
                                   WGPUBufferUsage_Index | WGPUBufferUsage_Indirect | WGPUBufferUsage_CopyDst;

static void render_pairs(Ctx *ctx) {
  char what[256];
  for (int a = 0; a < U_COUNT; a++)
    for (int b = a; b < U_COUNT; b++) {
      if (a == b && !is_binding((Use)a)) continue; /* one vertex/index/indirect use only */
      Use uses[2] = {(Use)a, (Use)b};
      WGPUBuffer buf = make_buffer(ctx->device, 256, ALL, 0);
      /* Zero the buffer so that indirect draws draw nothing. */
      static const uint8_t zeros[256];
      wgpuQueueWriteBuffer(ctx->queue, buf, 0, zeros, sizeof zeros);
      WGPUBindGroupLayout bgl = NULL;
      WGPUBindGroup bg = group(ctx, uses, 2, buf, WGPUShaderStage_Fragment, &bgl);
      WGPUPipelineLayout pl = playout(ctx, bgl);
      WGPURenderPipeline p =
          du_pipeline_layout(ctx, pl, NULL, 0, WGPUPrimitiveTopology_TriangleList, WGPUIndexFormat_Undefined);
      for (int bundle = 0; bundle < 2; bundle++) {
        DuEnc e;
        du_begin(&e, ctx, bundle, NULL);
        du_pipeline_set(&e, p);
        if (bundle) wgpuRenderBundleEncoderSetBindGroup(e.be, 0, bg, 0, NULL);
        else wgpuRenderPassEncoderSetBindGroup(e.pass, 0, bg, 0, NULL);
        int indirect = 0;
        for (int i = 0; i < 2; i++) {
          if (uses[i] == U_VERTEX) du_vb(&e, 0, buf, 0, 16);
          if (uses[i] == U_INDEX) du_ib(&e, buf, WGPUIndexFormat_Uint16, 0, 16);
          if (uses[i] == U_INDIRECT) indirect = 1;
        }
        if (indirect) du_draw_indirect(&e, buf, 0);
        snprintf(what, sizeof what, "render pass: one buffer as %s and %s", USE_NAMES[a], USE_NAMES[b]);
        du_end_expect(&e, valid_pair((Use)a, (Use)b), what);
      }
      /* The same two usages from two bind groups (binding usages only). */
      if (is_binding((Use)a) && is_binding((Use)b)) {
        WGPUBindGroupLayout l1 = NULL, l2 = NULL;
        WGPUBindGroup g1 = group(ctx, &uses[0], 1, buf, WGPUShaderStage_Fragment, &l1);
        WGPUBindGroup g2 = group(ctx, &uses[1], 1, buf, WGPUShaderStage_Fragment, &l2);
        DuEnc e;
        du_begin(&e, ctx, 0, NULL);
        wgpuRenderPassEncoderSetBindGroup(e.pass, 0, g1, 0, NULL);
        wgpuRenderPassEncoderSetBindGroup(e.pass, 1, g2, 0, NULL);
        snprintf(what, sizeof what, "render pass, no draw: %s in group 0 and %s in group 1", USE_NAMES[a],
                 USE_NAMES[b]);
        du_end_expect(&e, valid_pair((Use)a, (Use)b), what);
        /* Group 0 replaced by the second group: still one scope. */
        du_begin(&e, ctx, 0, NULL);
        wgpuRenderPassEncoderSetBindGroup(e.pass, 0, g1, 0, NULL);
        wgpuRenderPassEncoderSetBindGroup(e.pass, 0, g2, 0, NULL);
        snprintf(what, sizeof what, "render pass: group 0 = %s, then group 0 = %s", USE_NAMES[a], USE_NAMES[b]);
        du_end_expect(&e, valid_pair((Use)a, (Use)b), what);
        wgpuBindGroupRelease(g1);
        wgpuBindGroupRelease(g2);
        wgpuBindGroupLayoutRelease(l1);
        wgpuBindGroupLayoutRelease(l2);
      }
      wgpuRenderPipelineRelease(p);
      wgpuPipelineLayoutRelease(pl);
      wgpuBindGroupRelease(bg);
      wgpuBindGroupLayoutRelease(bgl);
      wgpuBufferRelease(buf);
    }
}

static int bad_compute = 0;

static void compute_pairs(Ctx *ctx) {
  char what[256];
  WGPUShaderModule cm = make_wgsl(ctx->device, "@compute @workgroup_size(1) fn main() {}\n");
  const Use cu[4] = {U_UNIFORM, U_STORAGE, U_RO_STORAGE, U_INDIRECT};
  for (int ai = 0; ai < 4; ai++)
    for (int bi = ai; bi < 4; bi++)
      for (int same = 0; same < 2; same++) {
        Use a = cu[ai], b = cu[bi];
        if (a == U_INDIRECT && b == U_INDIRECT) continue;
        WGPUBuffer buf = make_buffer(ctx->device, 256, ALL, 0);
        static const uint8_t zeros[256];
        wgpuQueueWriteBuffer(ctx->queue, buf, 0, zeros, sizeof zeros);
        Use uses[2] = {a, b};
        /* Group with both binding usages (same dispatch) or one group per
         * dispatch. */
        WGPUBindGroupLayout lboth = NULL, l1 = NULL, l2 = NULL;
        WGPUBindGroup gboth = group(ctx, uses, 2, buf, WGPUShaderStage_Compute, &lboth);
        WGPUBindGroup g1 = group(ctx, &uses[0], 1, buf, WGPUShaderStage_Compute, &l1);
        WGPUBindGroup g2 = group(ctx, &uses[1], 1, buf, WGPUShaderStage_Compute, &l2);
        WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
        cd.compute.module = cm;
        cd.compute.entryPoint = sv("main");
        WGPUPipelineLayout plb = playout(ctx, lboth), pl1 = playout(ctx, l1), pl2 = playout(ctx, l2);
        cd.layout = plb;
        WGPUComputePipeline pb = wgpuDeviceCreateComputePipeline(ctx->device, &cd);
        cd.layout = pl1;
        WGPUComputePipeline p1 = wgpuDeviceCreateComputePipeline(ctx->device, &cd);
        cd.layout = pl2;
        WGPUComputePipeline p2 = wgpuDeviceCreateComputePipeline(ctx->device, &cd);
        int indirect = b == U_INDIRECT;
        WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
        PopResult r;
        RU_CAPTURE(ctx, &r, {
          WGPUComputePassEncoder cp = wgpuCommandEncoderBeginComputePass(enc, NULL);
          if (same) {
            wgpuComputePassEncoderSetPipeline(cp, pb);
            wgpuComputePassEncoderSetBindGroup(cp, 0, gboth, 0, NULL);
            if (indirect) wgpuComputePassEncoderDispatchWorkgroupsIndirect(cp, buf, 0);
            else wgpuComputePassEncoderDispatchWorkgroups(cp, 1, 1, 1);
          } else {
            wgpuComputePassEncoderSetPipeline(cp, p1);
            wgpuComputePassEncoderSetBindGroup(cp, 0, g1, 0, NULL);
            wgpuComputePassEncoderDispatchWorkgroups(cp, 1, 1, 1);
            wgpuComputePassEncoderSetPipeline(cp, p2);
            wgpuComputePassEncoderSetBindGroup(cp, 0, g2, 0, NULL);
            if (indirect) wgpuComputePassEncoderDispatchWorkgroupsIndirect(cp, buf, 0);
            else wgpuComputePassEncoderDispatchWorkgroups(cp, 1, 1, 1);
          }
          wgpuComputePassEncoderEnd(cp);
          wgpuComputePassEncoderRelease(cp);
        });
        CHECK_EQ(r.type, WGPUErrorType_NoError);
        snprintf(what, sizeof what, "compute pass: %s and %s in %s", USE_NAMES[a], USE_NAMES[b],
                 same ? "one dispatch" : "two dispatches");
        int before = pu_bad_cases;
        pu_finish_expect(ctx, enc, !same || valid_pair(a, b), what);
        bad_compute += pu_bad_cases - before;
        /* Bound but never dispatched: no scope at all. */
        if (same) {
          enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
          WGPUComputePassEncoder cp = wgpuCommandEncoderBeginComputePass(enc, NULL);
          wgpuComputePassEncoderSetBindGroup(cp, 0, gboth, 0, NULL);
          wgpuComputePassEncoderEnd(cp);
          wgpuComputePassEncoderRelease(cp);
          snprintf(what, sizeof what, "compute pass: %s and %s bound, no dispatch", USE_NAMES[a], USE_NAMES[b]);
          before = pu_bad_cases;
          pu_finish_expect(ctx, enc, 1, what);
          bad_compute += pu_bad_cases - before;
        }
        wgpuComputePipelineRelease(pb);
        wgpuComputePipelineRelease(p1);
        wgpuComputePipelineRelease(p2);
        wgpuPipelineLayoutRelease(plb);
        wgpuPipelineLayoutRelease(pl1);
        wgpuPipelineLayoutRelease(pl2);
        wgpuBindGroupRelease(gboth);
        wgpuBindGroupRelease(g1);
        wgpuBindGroupRelease(g2);
        wgpuBindGroupLayoutRelease(lboth);
        wgpuBindGroupLayoutRelease(l1);
        wgpuBindGroupLayoutRelease(l2);
        wgpuBufferRelease(buf);
      }
  wgpuShaderModuleRelease(cm);
}

int main(void) {
  Ctx ctx;
  REQUIRE(du_start(&ctx, 120) == 0);
  render_pairs(&ctx);
  printf("render: %d bad\n", du_bad_cases);
  compute_pairs(&ctx);
  printf("compute: %d bad\n", bad_compute);
  pu_report(&ctx, du_bad_cases + pu_bad_cases);
  du_fini();
  ctx_release(&ctx);
  return test_finish();
}
