/* Rule (webgpu.h §2: the implementation keeps the references it needs;
 * §8.9: releasing the instance cancels every outstanding callback): after
 * wgpuInstanceRelease, the other objects (adapter, device, queue, buffers
 * mapped, mapping or in use by GPU work in flight, texture, view, sampler,
 * layouts, bind group, module, pipeline, encoder, command buffer, query set)
 * can be used for getters and released in any order; nothing crashes or
 * hangs, and every outstanding callback (a map, a work-done, a PopErrorScope,
 * the device-lost callback) ran exactly once. Also with the instance
 * released in the middle of the others. */
#include "teardown_util.h"

/* A permutation of 1..n-1 (objs[0] is the instance), from a fixed seed. */
static void shuffle(int *order, int n, unsigned seed) {
  for (int i = 0; i < n; i++) order[i] = i;
  for (int i = n - 1; i > 1; i--) {
    seed = seed * 1103515245u + 12345u;
    int j = 1 + (int)((seed >> 16) % (unsigned)i);
    int t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

static void one_round(int round) {
  TdWorld w;
  if (td_world(&w) != 0) {
    CHECK(!"td_world");
    return;
  }
  int order[TD_MAX_OBJS] = {0};
  int n = w.count;
  if (round == 0) {
    for (int i = 0; i < n; i++) order[i] = i; /* instance, then creation order */
  } else if (round == 1) {
    order[0] = 0; /* instance, then reverse */
    for (int i = 1; i < n; i++) order[i] = n - i;
  } else {
    shuffle(order, n, (unsigned)round * 7919u);
  }
  if (round >= 5) {
    /* The instance somewhere in the middle. */
    int at = 1 + round % (n - 1);
    int t = order[0];
    order[0] = order[at];
    order[at] = t;
  }
  int mapped_at = -1;
  for (int i = 0; i < n; i++)
    if (w.objs[i].handle == (void *)w.mapped) mapped_at = i;
  for (int k = 0; k < n; k++) {
    TdObj *o = &w.objs[order[k]];
    TdKind kind = o->kind;
    td_release_obj(o);
    /* Objects not released yet still answer. */
    if (kind == TD_INSTANCE && mapped_at >= 0 && w.objs[mapped_at].handle) {
      CHECK_EQ(wgpuBufferGetSize(w.mapped), 64);
      CHECK(wgpuBufferGetMapState(w.mapped) != 0);
    }
  }
  td_world_check(&w);
}

int main(void) {
  start_watchdog(120);
  for (int round = 0; round < 7; round++) one_round(round);
  return test_finish();
}
