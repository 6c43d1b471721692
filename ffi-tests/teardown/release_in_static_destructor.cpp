/* Rule (webgpu.h §2, §8.2; DECISIONS "Calls during process exit"): a C++
 * object with static storage whose destructor releases the queue and device
 * (the usual RAII wrapper) works: the destructor runs after the main
 * thread's thread-local storage was destroyed, and every call still does its
 * work and delivers its callbacks (spontaneous work-done and PopErrorScope by
 * the call's return, WaitAny, ProcessEvents, the device-lost callback of the
 * last wgpuDeviceRelease). Nothing aborts. */
#include "teardown_util.h"

namespace {

struct Gpu {
  Ctx ctx;
  bool ready = false;
  ~Gpu() {
    if (!ready) return;
    td_exit_work(&ctx);
    td_finish_at_exit();
  }
};

// Constructed on first use, destroyed by the exit machinery.
Gpu gpu;

}  // namespace

int main() {
  td_start_watchdog(60);
  if (ctx_init(&gpu.ctx) != 0) {
    CHECK(!"ctx_init");
    return test_finish();
  }
  td_warm(&gpu.ctx);
  gpu.ready = true;
  CHECK(1);
  return 0;
}
