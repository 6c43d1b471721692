/* Rule (issue 35; WGPU_SHIM_STALE_MAPPINGS=zero): stale views (addresses
 * that wgpuBufferGetMappedRange or wgpuBufferGetConstMappedRange returned for
 * a mapping that has ended: unmap, destroy, last release) read as zeros
 * while 3 other threads make, fill with another pattern, map, unmap and
 * release buffers of the same sizes on the same device along every path
 * (MapWrite, MapRead, mappedAtCreation). The main thread ends 3 mappings of
 * 256 B, 4 KiB or 1 MiB per round for 24 rounds and reads their views again
 * and again for about 150 ms each (every 61st word, from a start that moves
 * by one each pass), and every word of them at the end. */
#include "stale_util.h"

#define WORKERS 3
#define ROUNDS 24

typedef struct {
  Ctx *ctx;
  int index;
  atomic_int *stop;
  atomic_int maps;   /* buffers this worker mapped */
  atomic_int errors; /* su_open failures */
} Worker;

static void *worker_main(void *arg) {
  Worker *w = (Worker *)arg;
  for (int i = 0; !atomic_load(w->stop); i++) {
    SuMapped b;
    size_t size = i % 3 == 2 ? (size_t)1 << 20 : su_small_size(i + w->index);
    if (su_open(w->ctx, (SuPath)((i + w->index) % SU_PATHS), size, SU_B, &b))
      atomic_fetch_add(&w->maps, 1);
    else
      atomic_fetch_add(&w->errors, 1);
    su_close(&b);
    /* Paced, so that a kept view stays checked (SU_CHECK_WINDOW) through
     * most of its round. */
    sleep_ms(2);
  }
  return NULL;
}

int main(void) {
  su_set_mode("zero");
  start_watchdog(120);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  atomic_int stop;
  atomic_init(&stop, 0);
  Worker w[WORKERS];
  pthread_t t[WORKERS];
  for (int i = 0; i < WORKERS; i++) {
    w[i].ctx = &ctx;
    w[i].index = i;
    w[i].stop = &stop;
    atomic_init(&w[i].maps, 0);
    atomic_init(&w[i].errors, 0);
    REQUIRE(pthread_create(&t[i], NULL, worker_main, &w[i]) == 0);
  }

  SuKeptList kept = {0};
  int checks = 0;
  for (int round = 0; round < ROUNDS; round++) {
    size_t size = round % 3 == 2 ? (size_t)1 << 20 : su_small_size(round);
    SuEnd end = (SuEnd)(round % 3); /* unmap, destroy, last release */
    SuMapped a[SU_PATHS];
    for (int p = 0; p < SU_PATHS; p++) REQUIRE(su_open(&ctx, (SuPath)p, size, SU_A, &a[p]));
    for (int p = 0; p < SU_PATHS; p++) {
      su_end(&a[p], end);
      su_keep(&kept, &a[p], end, round);
    }
    double until = now_s() + 0.15;
    for (int pass = 0; now_s() < until; pass++, checks++) {
      su_check_kept(&kept, 61, (size_t)pass, "while other threads map buffers of pattern B");
      sleep_ms(1);
    }
    for (int p = 0; p < SU_PATHS; p++) su_close(&a[p]);
  }
  su_check_kept(&kept, 1, 0, "at the end");
  atomic_store(&stop, 1);
  int maps = 0;
  for (int i = 0; i < WORKERS; i++) {
    pthread_join(t[i], NULL);
    CHECK_EQ(atomic_load(&w[i].errors), 0);
    CHECK(atomic_load(&w[i].maps) >= 10);
    maps += atomic_load(&w[i].maps);
  }
  printf("%d passes over the kept views while the workers mapped %d buffers\n", checks, maps);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  su_kept_free(&kept);
  ctx_release(&ctx);
  return test_finish();
}
