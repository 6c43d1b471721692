/* Helpers of the fault-injection tests (ffi-tests/fault/): they run only on
 * a library built with `--features fault-injection` (scripts/sanitize.sh,
 * CMake option WGPU_SHIM_FAULT_TESTS). Each test sets WGPU_SHIM_FAULT before
 * its first call into the library. */
#ifndef WGPU_SHIM_FAULT_UTIL_H
#define WGPU_SHIM_FAULT_UTIL_H
#include "../mapping/mapping_util.h"

#include <stdlib.h>

/* Sets the faults to inject; call before anything else. */
static inline void fault_plan(const char *spec) { setenv("WGPU_SHIM_FAULT", spec, 1); }

/* Waits (up to 5 s, pumping events) for the device-lost callback. */
static inline int fault_wait_lost(Ctx *ctx) {
  for (int i = 0; i < 5000 && ctx->lost_calls == 0; i++) {
    wgpuInstanceProcessEvents(ctx->instance);
    sleep_ms(1);
  }
  return ctx->lost_calls;
}
#endif
