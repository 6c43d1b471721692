/* Rule (DECISIONS "Calls during process exit"): a C++ object with static
 * storage whose destructor releases the queue and device (the usual RAII
 * wrapper) does not crash the process.
 *
 * `first` is constructed before main, so its destructor runs after
 * everything registered later: after the library's exit barrier (registered
 * when the first instance loaded the driver) and after the driver's own
 * static destructors, which NVIDIA's driver uses to tear itself down. There
 * the library is detached from the driver (td_exit_work_detached: every call
 * completes, with CallbackCancelled, and nothing reaches the driver).
 *
 * `later` is a function-local static constructed after the instance: its
 * destructor runs before the barrier, so its calls do their work and
 * deliver their callbacks as anywhere else (td_exit_work), on a thread
 * whose thread-local storage is gone. Nothing aborts.
 *
 * On Windows the barrier runs at the unload of wgpu_shim.dll, after the
 * program's static destructors: there both work as `later` does. */
#include "teardown_util.h"

namespace {

int destructors_run = 0;

struct Gpu {
  Ctx ctx;
  bool ready = false;
  bool detached = false;
  ~Gpu() {
    if (!ready) return;
    if (detached) {
      td_exit_work_detached(&ctx);
    } else {
      td_exit_work(&ctx);
    }
    // The object constructed first is destroyed last.
    if (++destructors_run == 2) td_finish_at_exit();
  }
};

// Constructed before main: destroyed after the exit barrier.
Gpu gpu;

// Constructed after the first instance: destroyed before the barrier.
Gpu &later_gpu() {
  static Gpu later;
  return later;
}

}  // namespace

int main() {
  start_watchdog(60);
  if (ctx_init(&gpu.ctx) != 0) {
    CHECK(!"ctx_init");
    return test_finish();
  }
  td_warm(&gpu.ctx);
  gpu.ready = true;
#ifdef _WIN32
  // On Windows the barrier runs when wgpu_shim.dll is unloaded at process
  // exit (src/engine/exit.rs), after every static destructor and exit
  // handler of the program: `first` too sees the library attached.
  gpu.detached = false;
#else
  gpu.detached = true;
#endif
  Gpu &later = later_gpu();
  if (ctx_init(&later.ctx) != 0) {
    CHECK(!"ctx_init (later)");
    return test_finish();
  }
  td_warm(&later.ctx);
  later.ready = true;
  CHECK(1);
  return 0;
}
