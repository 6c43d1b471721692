/* Rule (wgpu_shim.h): wgpuBufferMapAsync2(buffer, mode, offset, size,
 * callbackInfo) behaves exactly like wgpuBufferMapAsync: it maps and reads
 * the same data, goes Pending then Mapped, fails validation the same way
 * (Error + validation error, Unmapped), is Aborted by Unmap while Pending, and
 * is reachable through wgpuGetProcAddress("wgpuBufferMapAsync2") at the same
 * address as the exported symbol. */
#include "mapping_util.h"

#if defined(__has_include)
#if __has_include(<webgpu/wgpu_shim.h>)
#include <webgpu/wgpu_shim.h>
#define HAVE_WGPU_SHIM_H 1
#endif
#endif
#ifndef HAVE_WGPU_SHIM_H
WGPU_EXPORT WGPUFuture wgpuBufferMapAsync2(WGPUBuffer buffer, WGPUMapMode mode, size_t offset, size_t size,
                                           WGPUBufferMapCallbackInfo callbackInfo);
#endif
/* Weak, so that a library without the symbol still links (and this test
 * fails) instead of breaking the build of every test. */
#pragma weak wgpuBufferMapAsync2

typedef WGPUFuture (*MapFn)(WGPUBuffer, WGPUMapMode, size_t, size_t, WGPUBufferMapCallbackInfo);

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  MapFn direct = wgpuBufferMapAsync2;
  volatile uintptr_t direct_addr = (uintptr_t)direct;
  REQUIRE(direct_addr != 0); /* the library exports wgpuBufferMapAsync2 */

  /* Reachable through wgpuGetProcAddress, same address. */
  WGPUProc proc = wgpuGetProcAddress(sv("wgpuBufferMapAsync2"));
  CHECK(proc != NULL);
  CHECK((uintptr_t)proc == direct_addr);
  WGPUProc proc_n = wgpuGetProcAddress(mu_svn("wgpuBufferMapAsync2", 19));
  CHECK((uintptr_t)proc_n == direct_addr);
  /* ... and is not the same name as MapAsync. */
  CHECK((uintptr_t)wgpuGetProcAddress(sv("wgpuBufferMapAsync")) == (uintptr_t)(MapFn)wgpuBufferMapAsync);

  uint8_t expect[128];
  mu_fill(expect, sizeof expect, 9);
  WGPUBuffer buf = mu_buffer_with_data(&ctx, 128, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, 9);
  REQUIRE(buf != NULL);

  /* Pass 0: wgpuBufferMapAsync; 1: wgpuBufferMapAsync2; 2: the same
   * through the pointer from wgpuGetProcAddress. */
  MapFn fns[3] = {wgpuBufferMapAsync, direct, proc ? (MapFn)proc : direct};
  uint8_t via[3][64];
  memset(via, 0, sizeof via);
  for (int k = 0; k < 3; k++) {
    MapFn fn = fns[k];
    /* Success path, sub-range [64, 128). */
    MapResult r;
    mu_map_result_init(&r);
    WGPUFuture f = fn(buf, WGPUMapMode_Read, 64, 64, mu_map_info(WGPUCallbackMode_WaitAnyOnly, &r));
    CHECK(f.id != 0);
    CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Pending);
    CHECK_EQ(mu_wait(ctx.instance, f), WGPUWaitStatus_Success);
    CHECK_EQ(atomic_load(&r.calls), 1);
    CHECK_EQ(atomic_load(&r.status), WGPUMapAsyncStatus_Success);
    CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Mapped);
    CHECK(wgpuBufferGetConstMappedRange(buf, 0, 8) == NULL); /* the map offset is honoured */
    const uint8_t *p = (const uint8_t *)wgpuBufferGetConstMappedRange(buf, 64, 64);
    CHECK(p != NULL);
    if (p) {
      memcpy(via[k], p, 64);
      CHECK(memcmp(p, expect + 64, 64) == 0);
      CHECK_EQ((uintptr_t)p % 16, 0);
    }
    wgpuBufferUnmap(buf);

    /* Validation failure: offset % 8. */
    MapResult e;
    mu_map_result_init(&e);
    wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
    WGPUFuture fe = fn(buf, WGPUMapMode_Read, 4, 8, mu_map_info(WGPUCallbackMode_WaitAnyOnly, &e));
    CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_Validation);
    CHECK_EQ(mu_wait(ctx.instance, fe), WGPUWaitStatus_Success);
    CHECK_EQ(atomic_load(&e.status), WGPUMapAsyncStatus_Error);
    CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);

    /* Abort: Unmap while Pending. */
    MapResult a;
    mu_map_result_init(&a);
    WGPUFuture fa = fn(buf, WGPUMapMode_Read, 0, WGPU_WHOLE_MAP_SIZE, mu_map_info(WGPUCallbackMode_WaitAnyOnly, &a));
    CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Pending);
    wgpuBufferUnmap(buf);
    CHECK_EQ(wgpuBufferGetMapState(buf), WGPUBufferMapState_Unmapped);
    CHECK_EQ(mu_wait(ctx.instance, fa), WGPUWaitStatus_Success);
    CHECK_EQ(atomic_load(&a.status), WGPUMapAsyncStatus_Aborted);

    /* Mode 0 (invalid callback mode): the callback runs once inside the
     * call with Error, and the future is the null future (DECISIONS "A
     * rejected asynchronous call"); the buffer is not left Pending. */
    MapResult z;
    mu_map_result_init(&z);
    WGPUFuture fz = fn(buf, WGPUMapMode_Read, 0, 64, mu_map_info((WGPUCallbackMode)0, &z));
    CHECK(fz.id == 0);
    CHECK_EQ(atomic_load(&z.calls), 1);
    CHECK_EQ(atomic_load(&z.status), WGPUMapAsyncStatus_Error);
    wgpuInstanceProcessEvents(ctx.instance);
    CHECK_EQ(atomic_load(&z.calls), 1);
    CHECK(wgpuBufferGetMapState(buf) != WGPUBufferMapState_Mapped);
    wgpuBufferUnmap(buf);
  }
  CHECK(memcmp(via[0], via[1], 64) == 0);
  CHECK(memcmp(via[0], via[2], 64) == 0);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuBufferRelease(buf);
  ctx_release(&ctx);
  return test_finish();
}
