/* Rule (issue 35; DECISIONS.md "Last external release of a buffer with a
 * pending map" for the buffer's life): the last wgpuBufferRelease of a
 * buffer that is still mapped unmaps it, and what was written into the
 * mapping (through wgpuBufferGetMappedRange or wgpuBufferWriteMappedRange)
 * is kept: a command buffer recorded before the release that copies from
 * the buffer submits afterwards without a validation error and copies those
 * bytes. A MapWrite map and a mapping at creation, 256 B, 4 KiB, 1 MiB and
 * 8 MiB buffers. */
#include "stale_util.h"

/* Records a copy of src into a new MapRead buffer, releases src (its last
 * reference, still mapped), submits the copy and checks that it brought
 * `word` in every word, with no validation error. */
static void release_then_copy(Ctx *ctx, WGPUBuffer src, size_t size, uint32_t word, const char *what) {
  WGPUBuffer dst = make_buffer(ctx->device, size, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 0);
  if (!dst) {
    CHECK(dst != NULL);
    return;
  }
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  wgpuCommandEncoderCopyBufferToBuffer(enc, src, 0, dst, 0, size);
  WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
  wgpuCommandEncoderRelease(enc);
  wgpuBufferRelease(src);
  EXPECT_NO_VALIDATION(ctx, wgpuQueueSubmit(ctx->queue, 1, &cmd));
  wgpuCommandBufferRelease(cmd);
  CHECK_EQ(mu_map_wait(ctx->instance, dst, WGPUMapMode_Read, 0, size), WGPUMapAsyncStatus_Success);
  const uint32_t *got = (const uint32_t *)wgpuBufferGetConstMappedRange(dst, 0, size);
  size_t i = got ? su_find_not(got, size, word, 1, 0) : 0;
  if (i != SIZE_MAX)
    fprintf(stderr, "%s, %zu bytes: word %zu of the copy is 0x%08X, not 0x%08X\n", what, size, i,
            got ? (unsigned)got[i] : 0u, (unsigned)word);
  CHECK(i == SIZE_MAX);
  wgpuBufferUnmap(dst);
  wgpuBufferRelease(dst);
}

int main(void) {
  su_set_mode("zero");
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  for (int s = 0; s < 4; s++) {
    size_t size = s < 2 ? su_small_size(s) : su_large_size(s);
    SuMapped m;
    /* Through GetMappedRange (su_open's two ranges). */
    REQUIRE(su_open(&ctx, SU_MAP_WRITE, size, SU_A, &m));
    release_then_copy(&ctx, m.buffer, size, SU_A, "MapWrite, GetMappedRange");
    REQUIRE(su_open(&ctx, SU_AT_CREATION, size, SU_B, &m));
    release_then_copy(&ctx, m.buffer, size, SU_B, "mappedAtCreation, GetMappedRange");

    /* Through WriteMappedRange. */
    uint32_t *words = (uint32_t *)malloc(size);
    REQUIRE(words != NULL);
    su_fill_words(words, size, 0x5A5A5A5Au);
    WGPUBuffer wb = make_buffer(ctx.device, size, WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc, 0);
    REQUIRE(wb != NULL);
    CHECK_EQ(mu_map_wait(ctx.instance, wb, WGPUMapMode_Write, 0, size), WGPUMapAsyncStatus_Success);
    CHECK_EQ(wgpuBufferWriteMappedRange(wb, 0, words, size), WGPUStatus_Success);
    release_then_copy(&ctx, wb, size, 0x5A5A5A5Au, "MapWrite, WriteMappedRange");
    WGPUBuffer cb = make_buffer(ctx.device, size, WGPUBufferUsage_CopySrc, 1);
    REQUIRE(cb != NULL);
    CHECK_EQ(wgpuBufferWriteMappedRange(cb, 0, words, size), WGPUStatus_Success);
    release_then_copy(&ctx, cb, size, 0x5A5A5A5Au, "mappedAtCreation, WriteMappedRange");
    free(words);
  }

  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
