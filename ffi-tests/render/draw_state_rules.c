/* Rule (WebGPU draw-time state validation): a draw needs a pipeline; a
 * pipeline with a strip topology and a stripIndexFormat needs indexed
 * draws to use that index format (checked again when the pipeline or the
 * index buffer changes, whichever was set first); an indexed draw needs an
 * index buffer; every vertex buffer slot the pipeline uses must be bound;
 * a pass may hold at most maxDrawCount (RenderPassMaxDrawCount chained to
 * the descriptor) draws, bundles' draws included. Violations make Finish
 * raise a validation error (for a bundle: its Finish or the encoder's);
 * the rest submit cleanly. wgpu-core 30 has no maxDrawCount: the library
 * must count draws itself. Ported from CTS encoding/cmds/render/draw.spec
 * (index_buffer_format, index_buffer_format_dirtying, max_draw_count) and
 * state_tracking.spec. */
#include "draw_util.h"

static const WGPUPrimitiveTopology TOPO[5] = {WGPUPrimitiveTopology_PointList, WGPUPrimitiveTopology_LineList,
                                              WGPUPrimitiveTopology_LineStrip, WGPUPrimitiveTopology_TriangleList,
                                              WGPUPrimitiveTopology_TriangleStrip};
static const char *TOPO_NAMES[5] = {"point-list", "line-list", "line-strip", "triangle-list", "triangle-strip"};
static const WGPUIndexFormat IF[3] = {WGPUIndexFormat_Undefined, WGPUIndexFormat_Uint16, WGPUIndexFormat_Uint32};
static const char *IF_NAMES[3] = {"undefined", "uint16", "uint32"};

static void strip_format(Ctx *ctx) {
  char what[256];
  WGPUBuffer ix = make_buffer(ctx->device, 16, WGPUBufferUsage_Index, 0);
  for (int t = 0; t < 5; t++) {
    int strip = t == 2 || t == 4;
    for (int s = 0; s < 3; s++) {
      if (!strip && s) continue;
      WGPURenderPipeline p = du_pipeline(ctx, NULL, 0, TOPO[t], IF[s]);
      for (int f = 1; f < 3; f++)
        for (int k = DU_DRAW_INDEXED; k <= DU_DRAW_INDEXED_INDIRECT; k += 2)
          for (int bundle = 0; bundle < 2; bundle++)
            for (int pipe_first = 0; pipe_first < 2; pipe_first++) {
              DuEnc e;
              du_begin(&e, ctx, bundle, NULL);
              if (pipe_first) du_pipeline_set(&e, p);
              du_ib(&e, ix, IF[f], 0, WGPU_WHOLE_SIZE);
              if (!pipe_first) du_pipeline_set(&e, p);
              du_any_draw(&e, (DuDraw)k, 3, 1, 0, 0, 0);
              int valid = !strip || s == f;
              snprintf(what, sizeof what, "%s, %s pipeline (strip %s), %s index buffer%s", DU_DRAW_NAMES[k],
                       TOPO_NAMES[t], IF_NAMES[s], IF_NAMES[f], pipe_first ? ", pipeline first" : "");
              du_end_expect(&e, valid, what);
            }
      wgpuRenderPipelineRelease(p);
    }
  }
  /* Dirtying: a matching draw, then a change of pipeline or index format,
   * then a second draw. */
  WGPURenderPipeline p32 = du_pipeline(ctx, NULL, 0, WGPUPrimitiveTopology_TriangleStrip, WGPUIndexFormat_Uint32);
  WGPURenderPipeline p16 = du_pipeline(ctx, NULL, 0, WGPUPrimitiveTopology_TriangleStrip, WGPUIndexFormat_Uint16);
  for (int dirty = 0; dirty < 3; dirty++)
    for (int k = DU_DRAW_INDEXED; k <= DU_DRAW_INDEXED_INDIRECT; k += 2)
      for (int bundle = 0; bundle < 2; bundle++) {
        DuEnc e;
        du_begin(&e, ctx, bundle, NULL);
        du_pipeline_set(&e, p32);
        du_ib(&e, ix, WGPUIndexFormat_Uint32, 0, 16);
        du_any_draw(&e, (DuDraw)k, 3, 1, 0, 0, 0);
        if (dirty == 1) du_pipeline_set(&e, p16);
        if (dirty == 2) du_ib(&e, ix, WGPUIndexFormat_Uint16, 0, 16);
        du_any_draw(&e, (DuDraw)k, 3, 1, 0, 0, 0);
        /* The WebGPU rule: both changes make the second draw mismatch.
         * (The C++ CTS port accepts the index-buffer change, following
         * Dawn; the spec and the TypeScript CTS do not.) */
        snprintf(what, sizeof what, "%s, strip uint32 then %s", DU_DRAW_NAMES[k],
                 dirty == 0 ? "nothing changed" : dirty == 1 ? "a uint16-strip pipeline" : "a uint16 index buffer");
        du_end_expect(&e, dirty == 0, what);
      }
  wgpuRenderPipelineRelease(p32);
  wgpuRenderPipelineRelease(p16);
  wgpuBufferRelease(ix);
}

static void missing_state(Ctx *ctx) {
  char what[256];
  WGPUVertexAttribute a = WGPU_VERTEX_ATTRIBUTE_INIT;
  a.format = WGPUVertexFormat_Float32x2;
  WGPUVertexBufferLayout l[2] = {WGPU_VERTEX_BUFFER_LAYOUT_INIT, WGPU_VERTEX_BUFFER_LAYOUT_INIT};
  l[1].arrayStride = 8;
  l[1].stepMode = WGPUVertexStepMode_Vertex;
  l[1].attributeCount = 1;
  l[1].attributes = &a;
  WGPURenderPipeline pv = du_pipeline(ctx, l, 2, WGPUPrimitiveTopology_TriangleList, WGPUIndexFormat_Undefined);
  WGPURenderPipeline p0 = du_pipeline(ctx, NULL, 0, WGPUPrimitiveTopology_TriangleList, WGPUIndexFormat_Undefined);
  WGPUBuffer vb = make_buffer(ctx->device, 64, WGPUBufferUsage_Vertex, 0);
  WGPUBuffer ix = make_buffer(ctx->device, 64, WGPUBufferUsage_Index, 0);
  for (int k = 0; k < 4; k++)
    for (int bundle = 0; bundle < 2; bundle++) {
      int indexed = k == DU_DRAW_INDEXED || k == DU_DRAW_INDEXED_INDIRECT;
      /* No pipeline. */
      DuEnc e;
      du_begin(&e, ctx, bundle, NULL);
      du_vb(&e, 1, vb, 0, WGPU_WHOLE_SIZE);
      du_ib(&e, ix, WGPUIndexFormat_Uint16, 0, WGPU_WHOLE_SIZE);
      du_any_draw(&e, (DuDraw)k, 3, 1, 0, 0, 0);
      snprintf(what, sizeof what, "%s without a pipeline", DU_DRAW_NAMES[k]);
      du_end_expect(&e, 0, what);
      /* Slot 1 used but not bound (slot 0, unused, bound instead). */
      du_begin(&e, ctx, bundle, NULL);
      du_pipeline_set(&e, pv);
      du_vb(&e, 0, vb, 0, WGPU_WHOLE_SIZE);
      if (indexed) du_ib(&e, ix, WGPUIndexFormat_Uint16, 0, WGPU_WHOLE_SIZE);
      du_any_draw(&e, (DuDraw)k, 3, 1, 0, 0, 0);
      snprintf(what, sizeof what, "%s with used vertex slot 1 unbound", DU_DRAW_NAMES[k]);
      du_end_expect(&e, 0, what);
      /* Bound: fine. */
      du_begin(&e, ctx, bundle, NULL);
      du_pipeline_set(&e, pv);
      du_vb(&e, 1, vb, 0, WGPU_WHOLE_SIZE);
      if (indexed) du_ib(&e, ix, WGPUIndexFormat_Uint16, 0, WGPU_WHOLE_SIZE);
      du_any_draw(&e, (DuDraw)k, 3, 1, 0, 0, 0);
      snprintf(what, sizeof what, "%s with vertex slot 1 bound", DU_DRAW_NAMES[k]);
      du_end_expect(&e, 1, what);
      /* Indexed without an index buffer. */
      if (indexed) {
        du_begin(&e, ctx, bundle, NULL);
        du_pipeline_set(&e, p0);
        du_any_draw(&e, (DuDraw)k, 3, 1, 0, 0, 0);
        snprintf(what, sizeof what, "%s without an index buffer", DU_DRAW_NAMES[k]);
        du_end_expect(&e, 0, what);
      }
    }
  wgpuBufferRelease(vb);
  wgpuBufferRelease(ix);
  wgpuRenderPipelineRelease(pv);
  wgpuRenderPipelineRelease(p0);
}

static void max_draw_count(Ctx *ctx) {
  char what[256];
  WGPURenderPipeline p = du_pipeline(ctx, NULL, 0, WGPUPrimitiveTopology_TriangleList, WGPUIndexFormat_Undefined);
  const uint32_t zero3[3] = {0, 0, 0}, ind[4] = {3, 1, 0, 0}, ind5[5] = {3, 1, 0, 0, 0};
  WGPUBuffer ix = du_buffer_u32(ctx, zero3, 3, WGPUBufferUsage_Index);
  WGPUBuffer ib = du_buffer_u32(ctx, ind, 4, WGPUBufferUsage_Indirect);
  WGPUBuffer ib5 = du_buffer_u32(ctx, ind5, 5, WGPUBufferUsage_Indirect);
  const uint64_t maxes[4] = {0, 1, 4, 16};
  const int counts[7] = {0, 1, 2, 4, 5, 16, 17};
  WGPUTextureFormat f = WGPUTextureFormat_RGBA8Unorm;
  for (int bf = 0; bf < 2; bf++)
    for (int bs = 0; bs < 2; bs++)
      for (int m = 0; m < 4; m++)
        for (int c = 0; c < 7; c++) {
          WGPURenderPassMaxDrawCount mdc = WGPU_RENDER_PASS_MAX_DRAW_COUNT_INIT;
          mdc.maxDrawCount = maxes[m];
          WGPURenderPassColorAttachment ca = pu_color(du_view);
          WGPURenderPassDescriptor d = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
          d.nextInChain = &mdc.chain;
          d.colorAttachmentCount = 1;
          d.colorAttachments = &ca;
          WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
          PopResult r;
          RU_CAPTURE(ctx, &r, {
            WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &d);
            WGPURenderBundleEncoder be[2] = {bf ? ru_bundle_encoder(ctx->device, &f) : NULL,
                                             bs ? ru_bundle_encoder(ctx->device, &f) : NULL};
            wgpuRenderPassEncoderSetPipeline(pass, p);
            wgpuRenderPassEncoderSetIndexBuffer(pass, ix, WGPUIndexFormat_Uint16, 0, WGPU_WHOLE_SIZE);
            for (int h = 0; h < 2; h++)
              if (be[h]) {
                wgpuRenderBundleEncoderSetPipeline(be[h], p);
                wgpuRenderBundleEncoderSetIndexBuffer(be[h], ix, WGPUIndexFormat_Uint16, 0, WGPU_WHOLE_SIZE);
              }
            for (int i = 0; i < counts[c]; i++) {
              WGPURenderBundleEncoder b = be[i < counts[c] / 2 ? 0 : 1];
              int kind = i % 4;
              if (b) {
                if (kind == 0) wgpuRenderBundleEncoderDraw(b, 3, 1, 0, 0);
                else if (kind == 1) wgpuRenderBundleEncoderDrawIndexed(b, 3, 1, 0, 0, 0);
                else if (kind == 2) wgpuRenderBundleEncoderDrawIndirect(b, ib, 0);
                else wgpuRenderBundleEncoderDrawIndexedIndirect(b, ib5, 0);
              } else {
                if (kind == 0) wgpuRenderPassEncoderDraw(pass, 3, 1, 0, 0);
                else if (kind == 1) wgpuRenderPassEncoderDrawIndexed(pass, 3, 1, 0, 0, 0);
                else if (kind == 2) wgpuRenderPassEncoderDrawIndirect(pass, ib, 0);
                else wgpuRenderPassEncoderDrawIndexedIndirect(pass, ib5, 0);
              }
            }
            WGPURenderBundle bundles[2];
            size_t nb = 0;
            for (int h = 0; h < 2; h++)
              if (be[h]) {
                bundles[nb++] = wgpuRenderBundleEncoderFinish(be[h], NULL);
                wgpuRenderBundleEncoderRelease(be[h]);
              }
            if (nb) wgpuRenderPassEncoderExecuteBundles(pass, nb, bundles);
            for (size_t i = 0; i < nb; i++) wgpuRenderBundleRelease(bundles[i]);
            wgpuRenderPassEncoderEnd(pass);
            wgpuRenderPassEncoderRelease(pass);
          });
          CHECK_EQ(r.type, WGPUErrorType_NoError);
          snprintf(what, sizeof what, "%d draws (%s first half, %s second half), maxDrawCount %llu", counts[c],
                   bf ? "bundle" : "pass", bs ? "bundle" : "pass", (unsigned long long)maxes[m]);
          pu_finish_expect(ctx, enc, (uint64_t)counts[c] <= maxes[m], what);
        }
  wgpuBufferRelease(ix);
  wgpuBufferRelease(ib);
  wgpuBufferRelease(ib5);
  wgpuRenderPipelineRelease(p);
}

int main(void) {
  Ctx ctx;
  REQUIRE(du_start(&ctx, 120) == 0);
  strip_format(&ctx);
  printf("strip index format: %d bad so far\n", du_bad_cases);
  missing_state(&ctx);
  printf("missing state: %d bad so far\n", du_bad_cases);
  max_draw_count(&ctx);
  printf("max_draw_count: %d bad\n", pu_bad_cases);
  pu_report(&ctx, du_bad_cases + pu_bad_cases);
  du_fini();
  ctx_release(&ctx);
  return test_finish();
}
