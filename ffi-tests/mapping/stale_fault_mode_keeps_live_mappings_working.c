/* Rule (issue 35; WGPU_SHIM_STALE_MAPPINGS=fault): the fault mode changes
 * only what stale views do; live mappings work as ever (stale_live.h), and
 * on POSIX the view of each mapping before faults once it ended. */
#include "stale_fault.h"
#include "stale_live.h"

int main(void) {
  su_set_mode("fault");
  start_watchdog(120);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
#ifndef _WIN32
  if (su_live_mappings_work(&ctx, su_check_faults)) return test_finish();
#else
  if (su_live_mappings_work(&ctx, NULL)) return test_finish();
#endif
  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
