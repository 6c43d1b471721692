/* Rule (issue 35; WGPU_SHIM_STALE_MAPPINGS=driver, docs/MAPPING.md): the
 * opt-out that hands out the driver's pointers, as other implementations
 * do (no guarantee after unmap; for measuring what views cost), keeps
 * every live mapping working (stale_live.h). What a pointer shows after
 * unmap is not checked: that is the driver's. */
#include "stale_live.h"

int main(void) {
  su_set_mode("driver");
  start_watchdog(120);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  if (su_live_mappings_work(&ctx, NULL)) return test_finish();
  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
