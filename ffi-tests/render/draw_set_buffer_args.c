/* Rule (WebGPU setVertexBuffer / setIndexBuffer / drawIndirect /
 * drawIndexedIndirect arguments, in a render pass and in a render bundle):
 * a vertex buffer slot must be < maxVertexBuffers; the buffer must be
 * valid, of this device, and have Vertex (Index, Indirect) usage; a vertex
 * buffer offset must be a multiple of 4, an index buffer offset a multiple
 * of the index format's size, an indirect offset a multiple of 4; offset +
 * size must fit in the buffer (WGPU_WHOLE_SIZE: the rest, offset may equal
 * the buffer size); an indirect draw needs 16 (indexed: 20) bytes from its
 * offset. Violations make Finish raise a validation error (bundle: its
 * Finish or the encoder's); a destroyed buffer finishes cleanly and fails
 * at submit. A buffer of another device is rejected whether that device
 * is of the same instance (the CTS case) or of another instance (where
 * wgpu-core 30 panics in its id lookup and the library raises nothing).
 * In a render bundle wgpu-core 30 checks neither the indirect offset's
 * alignment nor its range (the pass path does), and panics at Finish on
 * an out-of-range one. Ported from CTS encoding/cmds/render/
 * {setVertexBuffer,setIndexBuffer,indirect_draw}.spec. */
#include "draw_util.h"

typedef enum { ST_VALID, ST_INVALID, ST_DESTROYED } State;
static const char *STATE_NAMES[3] = {"valid", "invalid", "destroyed"};

static WGPUBuffer state_buffer(Ctx *ctx, uint64_t size, WGPUBufferUsage usage, State s) {
  if (s == ST_INVALID) {
    WGPUBuffer b = NULL;
    /* MapRead together with MapWrite is not allowed: an error buffer. */
    EXPECT_VALIDATION(ctx, b = make_buffer(ctx->device, size, usage | WGPUBufferUsage_MapRead | WGPUBufferUsage_MapWrite, 0));
    return b;
  }
  WGPUBuffer b = make_buffer(ctx->device, size, usage, 0);
  if (s == ST_DESTROYED) wgpuBufferDestroy(b);
  return b;
}

static WGPURenderPipeline pipe_ = NULL;

/* What to record: a set call of kind `what` with the arguments. */
typedef enum { VB, IB, INDIRECT, INDEXED_INDIRECT } Op;

static void run(Ctx *ctx, int bundle, Op op, uint32_t slot, WGPUBuffer b, WGPUIndexFormat f, uint64_t off,
                uint64_t size, int valid, const char *what) {
  DuEnc e;
  du_begin(&e, ctx, bundle, NULL);
  if (op == VB) du_vb(&e, slot, b, off, size);
  else if (op == IB) du_ib(&e, b, f, off, size);
  else {
    du_pipeline_set(&e, pipe_);
    if (op == INDIRECT) du_draw_indirect(&e, b, off);
    else {
      WGPUBuffer ix = make_buffer(ctx->device, 16, WGPUBufferUsage_Index, 0);
      e.temps[e.ntemps++] = ix;
      du_ib(&e, ix, WGPUIndexFormat_Uint32, 0, WGPU_WHOLE_SIZE);
      du_draw_indexed_indirect(&e, b, off);
    }
  }
  du_end_expect(&e, valid, what);
}

int main(void) {
  start_watchdog(120);
  Ctx ctx, other;
  REQUIRE(ctx_init(&ctx) == 0);
  pu_watch_internal_errors();
  REQUIRE(ctx_init(&other) == 0);
  /* A second device of the same instance (and adapter kind). */
  WGPUAdapter adapter2 = request_adapter(ctx.instance, MU_WAIT_NS);
  REQUIRE(adapter2 != NULL);
  WGPUDevice device2 = request_device(ctx.instance, adapter2, NULL, MU_WAIT_NS);
  REQUIRE(device2 != NULL);
  du_init(&ctx);
  pipe_ = du_pipeline(&ctx, NULL, 0, WGPUPrimitiveTopology_TriangleList, WGPUIndexFormat_Undefined);
  WGPULimits lim = WGPU_LIMITS_INIT;
  REQUIRE(wgpuDeviceGetLimits(ctx.device, &lim) == WGPUStatus_Success);
  char what[256];
  const WGPUBufferUsage USAGE[4] = {WGPUBufferUsage_Vertex, WGPUBufferUsage_Index, WGPUBufferUsage_Indirect,
                                    WGPUBufferUsage_Indirect};
  const char *OP[4] = {"setVertexBuffer", "setIndexBuffer", "drawIndirect", "drawIndexedIndirect"};

  for (int bundle = 0; bundle < 2; bundle++) {
    /* Slot. */
    const uint32_t slots[3] = {0, lim.maxVertexBuffers - 1, lim.maxVertexBuffers};
    for (int i = 0; i < 3; i++) {
      WGPUBuffer b = make_buffer(ctx.device, 16, WGPUBufferUsage_Vertex, 0);
      snprintf(what, sizeof what, "setVertexBuffer slot %u (maxVertexBuffers %u)", slots[i], lim.maxVertexBuffers);
      run(&ctx, bundle, VB, slots[i], b, 0, 0, WGPU_WHOLE_SIZE, slots[i] < lim.maxVertexBuffers, what);
      wgpuBufferRelease(b);
    }
    for (int op = 0; op < 4; op++) {
      uint64_t need = op == INDEXED_INDIRECT ? 20 : 16;
      /* Buffer state. */
      for (int s = 0; s < 3; s++) {
        WGPUBuffer b = state_buffer(&ctx, 64, USAGE[op], (State)s);
        snprintf(what, sizeof what, "%s with a %s buffer", OP[op], STATE_NAMES[s]);
        du_expect_submit_error = s == ST_DESTROYED;
        run(&ctx, bundle, (Op)op, 0, b, WGPUIndexFormat_Uint32, 0, op < 2 ? WGPU_WHOLE_SIZE : 0, s != ST_INVALID, what);
        du_expect_submit_error = 0;
        wgpuBufferRelease(b);
      }
      /* Device mismatch: another device of the same instance, and one of
       * another instance. */
      for (int mis = 0; mis < 3; mis++) {
        WGPUBuffer b = make_buffer(mis == 0 ? ctx.device : mis == 1 ? device2 : other.device, 64, USAGE[op], 0);
        snprintf(what, sizeof what, "%s with a buffer of %s", OP[op],
                 mis == 0 ? "the same device" : mis == 1 ? "another device of the instance" : "another instance's device");
        run(&ctx, bundle, (Op)op, 0, b, WGPUIndexFormat_Uint32, 0, op < 2 ? WGPU_WHOLE_SIZE : 0, !mis, what);
        wgpuBufferRelease(b);
      }
      /* Usage. */
      const WGPUBufferUsage usages[3] = {USAGE[op], WGPUBufferUsage_CopyDst, WGPUBufferUsage_CopyDst | USAGE[op]};
      for (int u = 0; u < 3; u++) {
        WGPUBuffer b = make_buffer(ctx.device, 64, usages[u], 0);
        snprintf(what, sizeof what, "%s with usage 0x%llx", OP[op], (unsigned long long)usages[u]);
        run(&ctx, bundle, (Op)op, 0, b, WGPUIndexFormat_Uint32, 0, op < 2 ? WGPU_WHOLE_SIZE : 0,
            (usages[u] & USAGE[op]) != 0, what);
        wgpuBufferRelease(b);
      }
      /* Offset alignment. */
      for (int f = 0; f < (op == IB ? 2 : 1); f++) {
        WGPUIndexFormat fmt = f ? WGPUIndexFormat_Uint16 : WGPUIndexFormat_Uint32;
        uint32_t align = op == IB ? (f ? 2 : 4) : 4;
        const uint64_t offs[] = {0, 1, 2, 3, 4, 8};
        for (int i = 0; i < 6; i++) {
          WGPUBuffer b = make_buffer(ctx.device, 64, USAGE[op], 0);
          snprintf(what, sizeof what, "%s%s at offset %llu", OP[op], op == IB ? (f ? " uint16" : " uint32") : "",
                   (unsigned long long)offs[i]);
          run(&ctx, bundle, (Op)op, 0, b, fmt, offs[i], op < 2 ? WGPU_WHOLE_SIZE : 0, offs[i] % align == 0, what);
          wgpuBufferRelease(b);
        }
      }
      if (op < 2) {
        /* Offset and size against a 256-byte buffer. */
        const struct {
          uint64_t off, size;
          int valid;
        } oc[] = {{0, 0, 1},   {0, 1, 1},   {0, 4, 1},   {0, 5, 1},   {0, 256, 1},
                  {0, 260, 0}, {4, 256, 0}, {4, 252, 1}, {252, 4, 1}, {256, 1, 0},
                  {0, WGPU_WHOLE_SIZE, 1}, {4, WGPU_WHOLE_SIZE, 1}, {252, WGPU_WHOLE_SIZE, 1},
                  {256, WGPU_WHOLE_SIZE, 1}, {260, WGPU_WHOLE_SIZE, 0}};
        for (size_t i = 0; i < sizeof oc / sizeof oc[0]; i++) {
          WGPUBuffer b = make_buffer(ctx.device, 256, USAGE[op], 0);
          snprintf(what, sizeof what, "%s offset %llu size %lld of 256 bytes", OP[op], (unsigned long long)oc[i].off,
                   oc[i].size == WGPU_WHOLE_SIZE ? -1LL : (long long)oc[i].size);
          run(&ctx, bundle, (Op)op, 0, b, WGPUIndexFormat_Uint32, oc[i].off, oc[i].size, oc[i].valid, what);
          wgpuBufferRelease(b);
        }
      } else {
        /* Indirect offset + args size against the buffer. */
        const uint64_t sizes[] = {need, need + 4, need - 4, 64};
        for (int si = 0; si < 4; si++)
          for (uint64_t off = 0; off <= 48; off += 4) {
            WGPUBuffer b = make_buffer(ctx.device, sizes[si], USAGE[op], 0);
            snprintf(what, sizeof what, "%s at offset %llu of a %llu-byte buffer", OP[op], (unsigned long long)off,
                     (unsigned long long)sizes[si]);
            run(&ctx, bundle, (Op)op, 0, b, 0, off, 0, off + need <= sizes[si], what);
            wgpuBufferRelease(b);
          }
        /* Offset beyond u64 wrap. */
        WGPUBuffer b = make_buffer(ctx.device, 64, USAGE[op], 0);
        snprintf(what, sizeof what, "%s at offset 2^64 - 4", OP[op]);
        run(&ctx, bundle, (Op)op, 0, b, 0, UINT64_MAX - 3, 0, 0, what);
        wgpuBufferRelease(b);
      }
    }
  }

  pu_report(&ctx, du_bad_cases);
  wgpuRenderPipelineRelease(pipe_);
  du_fini();
  wgpuDeviceRelease(device2);
  wgpuAdapterRelease(adapter2);
  ctx_release(&other);
  ctx_release(&ctx);
  return test_finish();
}
