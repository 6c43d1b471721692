/* Rule (spec §8.2, §8.6 "never delivers WaitAnyOnly futures", §12): many
 * WaitAnyOnly futures of every kind (work-done, map, pop error scope,
 * compilation info, pipeline async, request adapter), all complete, are never
 * delivered by ProcessEvents, however often it is called and from however many
 * threads (4 threads pumping for 300 ms after the work finished). WaitAny then
 * delivers each exactly once, on the waiting thread. */
#define _GNU_SOURCE
#include "futures_util.h"

enum { NWD = 64, NMAP = 16, NPOP = 16, NCOMP = 8, NPIPE = 4, NADAPTER = 2 };
enum { TOTAL = NWD + NMAP + NPOP + NCOMP + NPIPE + NADAPTER };
static FuRec recs[TOTAL], probe;
static Ctx ctx;
static atomic_int stop;

static void *pumper(void *arg) {
  (void)arg;
  while (!atomic_load(&stop)) {
    wgpuInstanceProcessEvents(ctx.instance);
    sleep_s(0.001);
  }
  return NULL;
}

int main(void) {
  fu_begin(60);
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  WGPUShaderModule module = make_wgsl(ctx.device, HARNESS_SPIN_WGSL);
  WGPUFuture fs[TOTAL];
  FuRec *rp[TOTAL];
  WGPUBuffer bufs[NMAP];
  int n = 0;
  for (int i = 0; i < TOTAL; i++) {
    fu_rec_init(&recs[i], "WaitAnyOnly future");
    rp[i] = &recs[i];
  }
  WGPUBuffer src = make_buffer(ctx.device, FU_MAP_SIZE, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 0);
  for (int i = 0; i < NWD; i++) {
    if (i % 4 == 0) {
      WGPUBuffer out = submit_spin_job(&ctx, 1u << 12, 1);
      wgpuBufferRelease(out);
    }
    if (i < NMAP) {
      bufs[i] = fu_copy_to_map_buffer(&ctx, src);
      recs[n].name = "WaitAnyOnly map";
      fs[n] = fu_map_read(bufs[i], WGPUCallbackMode_WaitAnyOnly, &recs[n]);
      n++;
    }
    recs[n].name = "WaitAnyOnly work-done";
    fs[n] = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &recs[n]);
    n++;
  }
  for (int i = 0; i < NPOP; i++) {
    recs[n].name = "WaitAnyOnly pop error scope";
    fs[n] = fu_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &recs[n]);
    n++;
  }
  for (int i = 0; i < NCOMP; i++) {
    recs[n].name = "WaitAnyOnly compilation info";
    fs[n] = fu_compinfo(module, WGPUCallbackMode_WaitAnyOnly, &recs[n]);
    n++;
  }
  for (int i = 0; i < NPIPE; i++) {
    recs[n].name = "WaitAnyOnly pipeline async";
    fs[n] = fu_pipeline_async(ctx.device, module, WGPUCallbackMode_WaitAnyOnly, &recs[n]);
    n++;
  }
  for (int i = 0; i < NADAPTER; i++) {
    recs[n].name = "WaitAnyOnly request adapter";
    fs[n] = fu_request_adapter(ctx.instance, WGPUCallbackMode_WaitAnyOnly, &recs[n]);
    n++;
  }
  REQUIRE(n == TOTAL);

  /* The work is done once this AllowProcessEvents probe is delivered. */
  fu_rec_init(&probe, "AllowProcessEvents probe");
  fu_workdone(ctx.queue, WGPUCallbackMode_AllowProcessEvents, &probe);
  pthread_t th[3];
  atomic_store(&stop, 0);
  for (int i = 0; i < 3; i++) pthread_create(&th[i], NULL, pumper, NULL);
  CHECK(fu_pump_until1(ctx.instance, &probe, FU_WAIT_S));
  double until = now_s() + 0.3;
  while (now_s() < until) {
    fu_process_events(ctx.instance);
    sleep_s(0.001);
  }
  atomic_store(&stop, 1);
  for (int i = 0; i < 3; i++) pthread_join(th[i], NULL);

  int fired = 0;
  for (int i = 0; i < TOTAL; i++) {
    if (fu_calls(&recs[i]) != 0) {
      fprintf(stderr, "'%s' (#%d) fired without WaitAny\n", recs[i].name, i);
      fired++;
    }
  }
  CHECK_EQ(fired, 0);
  for (int i = 0; i < NMAP; i++) CHECK_EQ(wgpuBufferGetMapState(bufs[i]), WGPUBufferMapState_Pending);

  CHECK(fu_wait_all(ctx.instance, fs, rp, TOTAL, 0 /* mixed sources: polls */, FU_WAIT_S));
  int not_once = 0, off_main = 0, not_completed = 0;
  for (int i = 0; i < TOTAL; i++) {
    not_once += fu_calls(&recs[i]) != 1;
    off_main += !recs[i].on_main;
    not_completed += recs[i].completed_seen != 1;
    CHECK_EQ(recs[i].status, 1); /* Success */
  }
  CHECK_EQ(not_once, 0);
  CHECK_EQ(off_main, 0);
  CHECK_EQ(not_completed, 0);

  for (int i = 0; i < TOTAL; i++) {
    if (recs[i].obj && i >= TOTAL - NADAPTER) wgpuAdapterRelease((WGPUAdapter)recs[i].obj);
    else if (recs[i].obj) wgpuComputePipelineRelease((WGPUComputePipeline)recs[i].obj);
  }
  for (int i = 0; i < NMAP; i++) wgpuBufferRelease(bufs[i]);
  wgpuBufferRelease(src);
  wgpuShaderModuleRelease(module);
  ctx_release(&ctx);
  return test_finish();
}
