/* Rule (wgpu_shim.h, readiness fd): one readiness fd covers every device of
 * the instance. Hundreds of AllowProcessEvents maps and work-dones on two
 * devices (two adapters), driven only by poll(fd) + ProcessEvents (no
 * WaitAny, no ProcessEvents while the fd is unreadable), are all delivered,
 * each exactly once, on the polling thread, with the right data in every
 * mapped buffer, work-dones of one queue in call order and every map settled
 * before a later work-done of its device. Then the fd is unreadable. (On
 * Windows the readiness event, waited on: eventloop_util.h.) */
#include "eventloop_util.h"

#define DEVICES 2
#define ROUNDS 6
#define MAPS 24    /* per device and round */
#define WORKDONES 8 /* per device and round: one after every 3 maps */
#define PER_ROUND (MAPS + WORKDONES)
#define TOTAL (DEVICES * ROUNDS * PER_ROUND)

typedef struct {
  ElRec rec;
  int device;
  int is_map;
  int order; /* issue order on its device */
} Op;

static Op ops[TOTAL];
static WGPUBuffer bufs[DEVICES][ROUNDS][MAPS];
static atomic_int delivered;

static void count_hook(ElRec *r) {
  (void)r;
  atomic_fetch_add(&delivered, 1);
}

int main(void) {
  el_begin(120);
  Ctx dev[DEVICES];
  REQUIRE(el_ctx_init(&dev[0], EL_READINESS) == 0);
  REQUIRE(el_add_device(&dev[0], &dev[1]) == 0);
  CHECK(dev[0].device != dev[1].device);
  WGPUInstance instance = dev[0].instance;
  ElHandle fd = el_readiness(instance);
  REQUIRE(fd != EL_NO_HANDLE);
  EL_CHECK_READABLE(fd, 0, "start");

  SpinJob job = el_calibrate(&dev[0], 0.05);
  REQUIRE(job.ok);

  int n = 0;
  int order[DEVICES] = {0, 0};
  int wakeups = 0, spurious = 0;
  for (int r = 0; r < ROUNDS; r++) {
    for (int d = 0; d < DEVICES; d++) {
      uint32_t base = (uint32_t)(d * 1000000 + r * 10000);
      el_data_maps(&dev[d], job.iterations, job.dispatches, base, bufs[d][r], MAPS);
      for (int m = 0; m < MAPS; m++) {
        Op *op = &ops[n++];
        el_rec_init(&op->rec, "APE map");
        op->rec.hook = count_hook;
        op->device = d;
        op->is_map = 1;
        op->order = order[d]++;
        el_map_checked(bufs[d][r][m], base + (uint32_t)m * EL_MAP_WORDS, WGPUCallbackMode_AllowProcessEvents,
                       &op->rec);
        if (m % 3 == 2) {
          Op *w = &ops[n++];
          el_rec_init(&w->rec, "APE work-done");
          w->rec.hook = count_hook;
          w->device = d;
          w->is_map = 0;
          w->order = order[d]++;
          el_workdone(dev[d].queue, WGPUCallbackMode_AllowProcessEvents, &w->rec);
        }
      }
      /* Drain what is ready now, if anything (fd first). */
      if (el_readable(fd, 0) == 1) {
        wakeups++;
        int before = atomic_load(&delivered);
        wgpuInstanceProcessEvents(instance);
        if (atomic_load(&delivered) == before) spurious++;
      }
    }
  }
  REQUIRE(n == TOTAL);
  fprintf(stderr, "%d futures issued, %d delivered while issuing\n", n, atomic_load(&delivered));

  double deadline = now_s() + 30.0;
  int timeouts = 0;
  while (atomic_load(&delivered) < TOTAL && now_s() < deadline) {
    int r = el_readable(fd, 5.0);
    if (r != 1) {
      timeouts++;
      fprintf(stderr, "fd unreadable for 5 s with %d of %d delivered\n", atomic_load(&delivered), TOTAL);
      break;
    }
    wakeups++;
    int before = atomic_load(&delivered);
    wgpuInstanceProcessEvents(instance);
    if (atomic_load(&delivered) == before) spurious++;
  }
  fprintf(stderr, "%d delivered, %d wakeups, %d spurious\n", atomic_load(&delivered), wakeups, spurious);
  CHECK_EQ(timeouts, 0);
  CHECK_EQ(atomic_load(&delivered), TOTAL);
  CHECK(spurious <= 2 || spurious * 10 <= wakeups);

  int bad_calls = 0, bad_status = 0, bad_data = 0, off_main = 0, bad_order = 0;
  int per_device[DEVICES] = {0, 0};
  for (int i = 0; i < TOTAL; i++) {
    Op *op = &ops[i];
    int calls = el_calls(&op->rec);
    if (calls != 1) bad_calls++;
    if (calls >= 1) per_device[op->device]++;
    if (op->rec.status != 1) bad_status++;
    if (op->is_map && !(op->rec.data_checked && op->rec.data_ok)) bad_data++;
    if (calls >= 1 && !op->rec.on_main) off_main++;
    if (!op->is_map) {
      /* every earlier op of its device (maps and work-dones) settled first */
      for (int j = 0; j < TOTAL; j++) {
        Op *o = &ops[j];
        if (o->device == op->device && o->order < op->order && o->rec.seq > op->rec.seq) {
          if (bad_order < 5) fprintf(stderr, "device %d: op %d settled after the later work-done %d\n", op->device, o->order, op->order);
          bad_order++;
        }
      }
    }
  }
  CHECK_EQ(bad_calls, 0);
  CHECK_EQ(bad_status, 0);
  CHECK_EQ(bad_data, 0);
  CHECK_EQ(off_main, 0);
  CHECK_EQ(bad_order, 0);
  CHECK_EQ(per_device[0], TOTAL / 2);
  CHECK_EQ(per_device[1], TOTAL / 2);

  EL_CHECK_READABLE(fd, 0, "all delivered");
  CHECK_EQ(el_readable(fd, 0.2), 0);
  wgpuInstanceProcessEvents(instance);
  CHECK_EQ(atomic_load(&delivered), TOTAL);

  int not_mapped = 0;
  for (int d = 0; d < DEVICES; d++) {
    for (int r = 0; r < ROUNDS; r++) {
      for (int m = 0; m < MAPS; m++) {
        if (wgpuBufferGetMapState(bufs[d][r][m]) != WGPUBufferMapState_Mapped) not_mapped++;
        wgpuBufferUnmap(bufs[d][r][m]);
        wgpuBufferRelease(bufs[d][r][m]);
      }
    }
  }
  CHECK_EQ(not_mapped, 0);
  CHECK_EQ(dev[0].uncaptured_errors + dev[1].uncaptured_errors, 0);
  el_ctx2_release(&dev[1]);
  ctx_release(&dev[0]);
  return test_finish();
}
