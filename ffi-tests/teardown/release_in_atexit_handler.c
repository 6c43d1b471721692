/* Rule (webgpu.h §2, §8.2; DECISIONS "Calls during process exit"): API calls
 * made from an atexit handler, after the main thread's thread-local storage
 * was destroyed (glibc runs thread_local destructors before atexit
 * handlers), do their work and deliver what they owe: a spontaneous
 * work-done and PopErrorScope run their callbacks by the call's return,
 * WaitAny and ProcessEvents deliver, and the last wgpuDeviceRelease runs the
 * device-lost callback (Destroyed, NULL device). Nothing aborts. */
#include "teardown_util.h"

static Ctx ctx;

static void at_exit(void) {
  td_exit_work(&ctx);
  td_finish_at_exit();
}

int main(void) {
  start_watchdog(60);
  if (ctx_init(&ctx) != 0) {
    CHECK(!"ctx_init");
    return test_finish();
  }
  td_warm(&ctx);
  if (atexit(at_exit) != 0) {
    CHECK(!"atexit");
    return test_finish();
  }
  /* Checks pass or fail in the handler; main's part is done. */
  CHECK(1);
  return 0;
}
