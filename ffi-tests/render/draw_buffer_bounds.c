/* Rule (WebGPU draw-time validation, buffer ranges): draw() must not read
 * past the bound range of any vertex buffer the pipeline uses (per-vertex
 * buffers up to firstVertex + vertexCount strides, per-instance ones up to
 * firstInstance + instanceCount; the last stride only needs offset +
 * format size bytes; arrayStride 0 needs one element whatever the counts),
 * and drawIndexed() must not read past the bound index range nor past the
 * per-instance buffers (vertex buffers are not checked: the indices are
 * unknown). The indirect draws are not range-checked on the CPU. Buffers
 * bound to slots the pipeline does not use, however small, and one buffer
 * bound to several slots and as index buffer, are fine. Violations make
 * Finish raise a validation error (for a bundle: its Finish or the
 * encoder's); valid ones submit cleanly. Ported from CTS
 * encoding/cmds/render/draw.spec (vertex_buffer_OOB with a reduced sweep,
 * index_buffer_OOB, unused_buffer_bound, buffer_binding_overlap). */
#include "draw_util.h"

typedef struct {
  WGPUVertexFormat f;
  const char *name;
  uint32_t size;
} VFmt;

/* A pipeline with layouts in slots 0..7: slot 1 per-vertex, slot 7
 * per-instance, one attribute each (locations 2 and 6), the other slots
 * unused. */
static WGPURenderPipeline vi_pipeline(Ctx *ctx, uint64_t stride, WGPUVertexFormat f, uint64_t attr_offset) {
  WGPUVertexBufferLayout layouts[8];
  WGPUVertexAttribute a1 = WGPU_VERTEX_ATTRIBUTE_INIT, a7 = WGPU_VERTEX_ATTRIBUTE_INIT;
  a1.format = a7.format = f;
  a1.offset = a7.offset = attr_offset;
  a1.shaderLocation = 2;
  a7.shaderLocation = 6;
  for (int i = 0; i < 8; i++) layouts[i] = (WGPUVertexBufferLayout)WGPU_VERTEX_BUFFER_LAYOUT_INIT;
  layouts[1].arrayStride = stride;
  layouts[1].stepMode = WGPUVertexStepMode_Vertex;
  layouts[1].attributeCount = 1;
  layouts[1].attributes = &a1;
  layouts[7].arrayStride = stride;
  layouts[7].stepMode = WGPUVertexStepMode_Instance;
  layouts[7].attributeCount = 1;
  layouts[7].attributes = &a7;
  return du_pipeline(ctx, layouts, 8, WGPUPrimitiveTopology_TriangleList, WGPUIndexFormat_Undefined);
}

static WGPUBuffer buf(Ctx *ctx, uint64_t size, WGPUBufferUsage usage) { return make_buffer(ctx->device, size, usage, 0); }

static void vertex_oob(Ctx *ctx) {
  const VFmt fmts[] = {{WGPUVertexFormat_Snorm8x2, "snorm8x2", 2}, {WGPUVertexFormat_Float32, "float32", 4},
                       {WGPUVertexFormat_Float16x4, "float16x4", 8}};
  const char *size_names[] = {"exact", "zero", "oneTooSmall"};
  const int size_cases[5][2] = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {0, 2}}; /* VB state, IB state */
  const char *stride_names[] = {"zero", "exact", "oversize"};
  const uint32_t offsets[] = {0, 7};
  const uint32_t vcases[5][3] = {{1, 0, 0}, {0, 0, 1}, {0, 0, 10000}, {0, 10000, 0}, {0, 10000, 10000}};
  char what[512];
  for (int fi = 0; fi < 3; fi++)
    for (int oi = 0; oi < 2; oi++)
      for (int si = 0; si < 3; si++) {
        uint32_t fsize = fmts[fi].size;
        uint64_t attr_off = (uint64_t)offsets[oi] * (fsize < 4 ? fsize : 4);
        uint64_t last = attr_off + fsize, stride = 0;
        if (si) stride = (last + (si == 2 ? 20 : 0) + 3) & ~(uint64_t)3;
        WGPURenderPipeline p = vi_pipeline(ctx, stride, fmts[fi].f, attr_off);
        for (int k = 0; k < 4; k++)
          for (int sc = 0; sc < 5; sc++)
            for (int v = 0; v < 5; v++)
              for (int in = 0; in < 5; in++) {
                if (vcases[v][2] == 10000 && vcases[in][2] == 10000) continue;
                int vzero = (int)vcases[v][0], izero = (int)vcases[in][0];
                uint32_t fv = vcases[v][1], vc = vcases[v][2], fins = vcases[in][1], ic = vcases[in][2];
                uint64_t vreq = (fv + vc) > 0 ? stride * (fv + vc - 1) + last : last;
                uint64_t ireq = (fins + ic) > 0 ? stride * (fins + ic - 1) + last : last;
                int vs = size_cases[sc][0], is = size_cases[sc][1];
                uint64_t vb_size = vs == 0 ? vreq : vs == 1 ? 0 : vreq - 1;
                uint64_t ib_size = is == 0 ? ireq : is == 1 ? 0 : ireq - 1;
                int vertex_oob = vs != 0 && k == DU_DRAW && !vzero;
                int instance_oob = is != 0 && (k == DU_DRAW || k == DU_DRAW_INDEXED) && !izero;
                int valid = !vertex_oob && !instance_oob;
                /* Only the render pass with the pipeline set last, and the
                 * bundle for the draw/drawIndexed cases (a reduced sweep). */
                for (int bundle = 0; bundle < 2; bundle++) {
                  if (bundle && (k >= DU_DRAW_INDIRECT || v % 2 || in % 2)) continue;
                  WGPUBuffer vb = buf(ctx, 200 + vb_size, WGPUBufferUsage_Vertex);
                  WGPUBuffer ib = buf(ctx, 200 + ib_size, WGPUBufferUsage_Vertex);
                  WGPUBuffer ix = NULL;
                  DuEnc e;
                  du_begin(&e, ctx, bundle, NULL);
                  du_vb(&e, 1, vb, 200, vb_size);
                  du_vb(&e, 7, ib, 200, ib_size);
                  du_pipeline_set(&e, p);
                  if (k == DU_DRAW || k == DU_DRAW_INDIRECT)
                    du_any_draw(&e, (DuDraw)k, vc, ic, fv, 0, fins);
                  else {
                    ix = buf(ctx, 400, WGPUBufferUsage_Index);
                    du_ib(&e, ix, WGPUIndexFormat_Uint16, 0, 400);
                    du_any_draw(&e, (DuDraw)k, 100, ic, 100, (int32_t)fv, fins);
                  }
                  snprintf(what, sizeof what,
                           "%s: %s attr offset %llu stride %s(%llu), VB %s (%llu B), IB %s (%llu B), "
                           "firstVertex %u vertexCount %u firstInstance %u instanceCount %u",
                           DU_DRAW_NAMES[k], fmts[fi].name, (unsigned long long)attr_off, stride_names[si],
                           (unsigned long long)stride, size_names[vs], (unsigned long long)vb_size, size_names[is],
                           (unsigned long long)ib_size, fv, vc, fins, ic);
                  du_end_expect(&e, valid, what);
                  wgpuBufferRelease(vb);
                  wgpuBufferRelease(ib);
                  if (ix) wgpuBufferRelease(ix);
                }
              }
        wgpuRenderPipelineRelease(p);
      }
}

static void index_oob(Ctx *ctx) {
  WGPURenderPipeline p = du_pipeline(ctx, NULL, 0, WGPUPrimitiveTopology_TriangleList, WGPUIndexFormat_Undefined);
  char what[256];
  const uint32_t buf_elems[] = {10, 100}, counts[] = {10, 11};
  for (int b = 0; b < 2; b++)
    for (int c = 0; c < 2; c++)
      for (int k = DU_DRAW_INDEXED; k <= DU_DRAW_INDEXED_INDIRECT; k += 2)
        for (int f = 0; f < 2; f++)
          for (int bundle = 0; bundle < 2; bundle++)
            for (int pipe_first = 0; pipe_first < 2; pipe_first++) {
              uint32_t esize = f ? 4 : 2;
              WGPUBuffer ix = buf(ctx, (uint64_t)buf_elems[b] * esize, WGPUBufferUsage_Index);
              DuEnc e;
              du_begin(&e, ctx, bundle, NULL);
              if (pipe_first) du_pipeline_set(&e, p);
              du_ib(&e, ix, f ? WGPUIndexFormat_Uint32 : WGPUIndexFormat_Uint16, 0, 10 * esize);
              if (!pipe_first) du_pipeline_set(&e, p);
              du_any_draw(&e, (DuDraw)k, counts[c], 1, 0, 0, 0);
              int valid = counts[c] <= 10 || k == DU_DRAW_INDEXED_INDIRECT;
              snprintf(what, sizeof what, "%s of %u %s indices, 10 bound of a %u-element buffer%s", DU_DRAW_NAMES[k],
                       counts[c], f ? "uint32" : "uint16", buf_elems[b], pipe_first ? ", pipeline first" : "");
              du_end_expect(&e, valid, what);
              wgpuBufferRelease(ix);
            }
  wgpuRenderPipelineRelease(p);
}

static void unused_bound(Ctx *ctx) {
  WGPURenderPipeline p = du_pipeline(ctx, NULL, 0, WGPUPrimitiveTopology_TriangleList, WGPUIndexFormat_Undefined);
  WGPUBuffer ix = buf(ctx, 400, WGPUBufferUsage_Index);
  char what[256];
  for (int si = 0; si < 2; si++)
    for (int sv_ = 0; sv_ < 2; sv_++)
      for (int sin = 0; sin < 2; sin++)
        for (int k = 0; k < 4; k++) {
          int indexed = k == DU_DRAW_INDEXED || k == DU_DRAW_INDEXED_INDIRECT;
          if (si && indexed) continue;
          for (uint32_t off = 0; off <= 4; off += 4)
            for (uint32_t size = 0; size <= 1; size++)
              for (int bundle = 0; bundle < 2; bundle++) {
                WGPUBuffer small = buf(ctx, off + size, WGPUBufferUsage_Index | WGPUBufferUsage_Vertex);
                DuEnc e;
                du_begin(&e, ctx, bundle, NULL);
                if (indexed) du_ib(&e, ix, WGPUIndexFormat_Uint16, 0, 400);
                else if (si) du_ib(&e, small, WGPUIndexFormat_Uint16, off, size);
                if (sv_) du_vb(&e, 1, small, off, size);
                if (sin) du_vb(&e, 7, small, off, size);
                du_pipeline_set(&e, p);
                du_any_draw(&e, (DuDraw)k, 100, 100, 100, 100, 100);
                snprintf(what, sizeof what, "%s with a %u-byte range at %u bound to%s%s%s (unused)", DU_DRAW_NAMES[k],
                         size, off, si ? " index" : "", sv_ ? " slot1" : "", sin ? " slot7" : "");
                du_end_expect(&e, 1, what);
                wgpuBufferRelease(small);
              }
        }
  wgpuBufferRelease(ix);
  wgpuRenderPipelineRelease(p);
}

static void overlap(Ctx *ctx) {
  char what[256];
  for (int si = 0; si < 3; si++) {
    uint64_t last = 16, stride = si ? ((last + (si == 2 ? 20 : 0) + 3) & ~(uint64_t)3) : 0;
    WGPURenderPipeline p = vi_pipeline(ctx, stride, WGPUVertexFormat_Float32x4, 0);
    uint64_t vsize = stride * 199 + last, isize = vsize, xsize = 400;
    for (int k = 0; k < 4; k++)
      for (int fv = 0; fv < 3; fv++)
        for (int fi = 0; fi < 3; fi++)
          for (int fx = 0; fx < 3; fx++) {
            uint64_t vo = (vsize * fv + 3) & ~(uint64_t)3, io = (isize * fi + 3) & ~(uint64_t)3,
                     xo = (xsize * fx + 3) & ~(uint64_t)3;
            uint64_t total = vo + vsize;
            if (io + isize > total) total = io + isize;
            if (xo + xsize > total) total = xo + xsize;
            WGPUBuffer shared = buf(ctx, total, WGPUBufferUsage_Vertex | WGPUBufferUsage_Index);
            DuEnc e;
            du_begin(&e, ctx, (fv + fi + fx) % 2, NULL);
            du_vb(&e, 1, shared, vo, vsize);
            du_vb(&e, 7, shared, io, isize);
            du_ib(&e, shared, WGPUIndexFormat_Uint16, xo, xsize);
            du_pipeline_set(&e, p);
            du_any_draw(&e, (DuDraw)k, 100, 100, 100, 100, 100);
            snprintf(what, sizeof what, "%s, one buffer at vertex %llu, instance %llu, index %llu, stride %llu",
                     DU_DRAW_NAMES[k], (unsigned long long)vo, (unsigned long long)io, (unsigned long long)xo,
                     (unsigned long long)stride);
            du_end_expect(&e, 1, what);
            wgpuBufferRelease(shared);
          }
    wgpuRenderPipelineRelease(p);
  }
}

int main(void) {
  Ctx ctx;
  REQUIRE(du_start(&ctx, 300) == 0);
  index_oob(&ctx);
  printf("index_buffer_OOB done, %d bad so far\n", du_bad_cases);
  unused_bound(&ctx);
  printf("unused_buffer_bound done, %d bad so far\n", du_bad_cases);
  overlap(&ctx);
  printf("buffer_binding_overlap done, %d bad so far\n", du_bad_cases);
  vertex_oob(&ctx);
  printf("vertex_buffer_OOB done\n");
  pu_report(&ctx, du_bad_cases);
  du_fini();
  ctx_release(&ctx);
  return test_finish();
}
