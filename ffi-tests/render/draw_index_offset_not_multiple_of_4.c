/* Rule (WebGPU setIndexBuffer): with indexFormat Uint16 the offset only
 * needs to be a multiple of 2, so setIndexBuffer(Uint16, offset 2) on a
 * never-written buffer, followed by a drawIndexed, is valid: Finish and
 * Submit raise nothing and the command buffer runs (its render pass clears
 * the target to red, which a read-back sees). wgpu-core 30 panics inside Submit
 * (its lazy zero-initialisation of the bound index range asserts a start
 * aligned to 4); the library catches the panic and the submit does nothing,
 * raising no error. Checked in a render pass and through a render bundle,
 * and with offset 6 and an explicit size. */
#include "draw_util.h"

static void run(Ctx *ctx, WGPURenderPipeline p, int bundle, uint64_t off, uint64_t size) {
  WGPUTexture t = pu_texture(ctx, WGPUTextureFormat_RGBA8Unorm, WGPUTextureDimension_2D, 4, 4, 1, 1, 1,
                             WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
  WGPUBuffer ix = make_buffer(ctx->device, 64, WGPUBufferUsage_Index, 0);
  char what[128];
  snprintf(what, sizeof what, "setIndexBuffer(Uint16, offset %llu, size %lld) + drawIndexed",
           (unsigned long long)off, size == WGPU_WHOLE_SIZE ? -1LL : (long long)size);
  /* Valid: Finish and Submit raise nothing, no internal error. */
  DuEnc e;
  du_begin_view(&e, ctx, bundle, NULL, pu_view(t, NULL));
  du_pipeline_set(&e, p);
  du_ib(&e, ix, WGPUIndexFormat_Uint16, off, size);
  du_draw_indexed(&e, 3, 1, 0, 0, 0);
  du_end_expect(&e, 1, what);
  uint8_t px[4] = {0};
  CHECK(read_texel_00(ctx, t, px));
  /* The pass cleared the target to red: the command buffer ran. */
  CHECK(px[0] == 255 && px[1] == 0 && px[2] == 0 && px[3] == 255);
  wgpuBufferRelease(ix);
}

int main(void) {
  Ctx ctx;
  REQUIRE(du_start(&ctx, 60) == 0);
  WGPURenderPipeline p = du_pipeline(&ctx, NULL, 0, WGPUPrimitiveTopology_TriangleList, WGPUIndexFormat_Undefined);
  for (int bundle = 0; bundle < 2; bundle++) {
    run(&ctx, p, bundle, 2, WGPU_WHOLE_SIZE);
    run(&ctx, p, bundle, 6, 6);
    /* Control: offset 4 is fine in wgpu-core too. */
    run(&ctx, p, bundle, 4, WGPU_WHOLE_SIZE);
  }
  pu_report(&ctx, du_bad_cases);
  wgpuRenderPipelineRelease(p);
  du_fini();
  ctx_release(&ctx);
  return test_finish();
}
