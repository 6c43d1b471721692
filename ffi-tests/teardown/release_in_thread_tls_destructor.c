/* Rule (webgpu.h §2, §7, §8.2; DECISIONS "Calls during process exit"): API
 * calls from a pthread key destructor, which glibc runs after the thread's
 * thread_local destructors (the library's per-thread state is gone by
 * then), do their work and deliver what they owe: spontaneous callbacks by
 * the call's return, WaitAny, ProcessEvents, the device-lost callback of the
 * last wgpuDeviceRelease. Nothing aborts. */
#include "teardown_util.h"

static pthread_key_t key;
static int destructor_ran;

static void destructor(void *value) {
  td_exit_work((Ctx *)value);
  destructor_ran = 1;
}

static void *thread_main(void *arg) {
  Ctx *ctx = (Ctx *)arg;
  if (ctx_init(ctx) != 0) {
    CHECK(!"ctx_init");
    return NULL;
  }
  td_warm(ctx);
  pthread_setspecific(key, ctx);
  return NULL;
}

int main(void) {
  start_watchdog(60);
  static Ctx ctx;
  REQUIRE(pthread_key_create(&key, destructor) == 0);
  pthread_t t;
  REQUIRE(pthread_create(&t, NULL, thread_main, &ctx) == 0);
  pthread_join(t, NULL);
  CHECK(destructor_ran);
  return test_finish();
}
