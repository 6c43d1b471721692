/* Rule (spec §8.3 "Re-entrancy", §8.7 rule 1, §12): non-spontaneous callbacks
 * run with no internal lock held, so inside them any API call works: a nested
 * WaitAny on another future (which delivers that future, nested again), a
 * nested ProcessEvents, creating / writing / releasing a buffer, submitting.
 * WaitAny on the callback's own future, from inside that callback, returns
 * Success with completed = true and does not run the callback again.
 * A deadlock here ends in the watchdog. */
#define _GNU_SOURCE
#include "futures_util.h"

static Ctx ctx;
static FuRec A, B, C, D, E, F, G;
static WGPUFuture fA, fB, fD, fE, fF, fG;

static struct {
  int reentered_a, reentered_f;
  WGPUWaitStatus wait_b;
  WGPUBool wait_b_completed;
  int b_calls_after;
  int pe_delivered_c;
  int buffer_ok;
  WGPUWaitStatus self_poll, self_timed;
  WGPUBool self_poll_completed, self_timed_completed;
  WGPUWaitStatus b_wait_d;
  int d_calls_in_b;
  WGPUWaitStatus c_wait_e;
  int e_calls_in_c;
  WGPUWaitStatus f_wait_g, f_self;
  WGPUBool f_self_completed;
  int g_calls_in_f;
} got;

/* A: WaitAnyOnly work-done, delivered by the top-level WaitAny. */
static void hook_a(FuRec *r) {
  if (fu_entries(r) > 1) {
    got.reentered_a = 1;
    return;
  }
  got.wait_b = fu_wait1(ctx.instance, fB, FU_WAIT_S, &B, &got.wait_b_completed);
  got.b_calls_after = fu_calls(&B);
  got.pe_delivered_c = fu_pump_until1(ctx.instance, &C, 5.0);
  WGPUBuffer b = make_buffer(ctx.device, 64, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 0);
  got.buffer_ok = b != NULL;
  uint32_t data[16] = {1, 2, 3};
  wgpuQueueWriteBuffer(ctx.queue, b, 0, data, sizeof data);
  submit_empty(&ctx);
  wgpuBufferRelease(b);
  got.self_poll = fu_wait1(ctx.instance, fA, 0, NULL, &got.self_poll_completed);
  got.self_timed = fu_wait1(ctx.instance, fA, FU_WAIT_S, NULL, &got.self_timed_completed);
}

/* B: WaitAnyOnly map, delivered by A's nested WaitAny; waits on D (nested twice). */
static void hook_b(FuRec *r) {
  (void)r;
  got.b_wait_d = fu_wait1(ctx.instance, fD, FU_WAIT_S, &D, NULL);
  got.d_calls_in_b = fu_calls(&D);
  fu_process_events(ctx.instance);
}

/* C: AllowProcessEvents work-done, delivered by A's nested ProcessEvents. */
static void hook_c(FuRec *r) {
  (void)r;
  got.c_wait_e = fu_wait1(ctx.instance, fE, FU_WAIT_S, &E, NULL);
  got.e_calls_in_c = fu_calls(&E);
}

/* F: AllowProcessEvents work-done delivered by a top-level ProcessEvents. */
static void hook_f(FuRec *r) {
  if (fu_entries(r) > 1) {
    got.reentered_f = 1;
    return;
  }
  fu_process_events(ctx.instance);
  got.f_wait_g = fu_wait1(ctx.instance, fG, FU_WAIT_S, &G, NULL);
  got.g_calls_in_f = fu_calls(&G);
  got.f_self = fu_wait1(ctx.instance, fF, 0, NULL, &got.f_self_completed);
  fu_process_events(ctx.instance);
}

int main(void) {
  fu_begin(60);
  REQUIRE(fu_ctx_init(&ctx, 1, WGPUCallbackMode_AllowSpontaneous, NULL) == 0);
  fu_rec_init(&A, "A work-done WaitAnyOnly (outer)");
  fu_rec_init(&B, "B map WaitAnyOnly (nested WaitAny in A)");
  fu_rec_init(&C, "C work-done APE (nested ProcessEvents in A)");
  fu_rec_init(&D, "D pop WaitAnyOnly (nested WaitAny in B)");
  fu_rec_init(&E, "E work-done WaitAnyOnly (nested WaitAny in C)");
  fu_rec_init(&F, "F work-done APE (outer ProcessEvents)");
  fu_rec_init(&G, "G work-done WaitAnyOnly (nested WaitAny in F)");
  A.hook = hook_a;
  B.hook = hook_b;
  C.hook = hook_c;
  F.hook = hook_f;
  B.probe_state = 1;

  WGPUBuffer buf = fu_busy_map_buffer(&ctx, 1u << 16, 4);
  fB = fu_map_read(buf, WGPUCallbackMode_WaitAnyOnly, &B);
  fu_workdone(ctx.queue, WGPUCallbackMode_AllowProcessEvents, &C);
  fD = fu_push_pop(ctx.device, WGPUCallbackMode_WaitAnyOnly, &D);
  fE = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &E);
  fA = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &A);

  WGPUBool completed = WGPU_FALSE;
  CHECK_EQ(fu_wait1(ctx.instance, fA, FU_WAIT_S, &A, &completed), WGPUWaitStatus_Success);
  CHECK(completed);
  FU_CHECK_ONCE(&A);
  CHECK(!got.reentered_a);
  CHECK_EQ(got.wait_b, WGPUWaitStatus_Success);
  CHECK(got.wait_b_completed);
  CHECK_EQ(got.b_calls_after, 1);
  FU_CHECK_ONCE(&B);
  FU_CHECK_STATUS(&B, WGPUMapAsyncStatus_Success);
  CHECK_EQ(B.state_in_cb, WGPUBufferMapState_Mapped);
  CHECK(B.on_main);
  CHECK_EQ(got.b_wait_d, WGPUWaitStatus_Success);
  CHECK_EQ(got.d_calls_in_b, 1);
  FU_CHECK_ONCE(&D);
  CHECK(got.pe_delivered_c);
  FU_CHECK_ONCE(&C);
  CHECK_EQ(C.phase, FU_PHASE_PROCESS_EVENTS);
  CHECK_EQ(got.c_wait_e, WGPUWaitStatus_Success);
  CHECK_EQ(got.e_calls_in_c, 1);
  FU_CHECK_ONCE(&E);
  CHECK(got.buffer_ok);
  CHECK_EQ(got.self_poll, WGPUWaitStatus_Success);
  CHECK(got.self_poll_completed);
  CHECK_EQ(got.self_timed, WGPUWaitStatus_Success);
  CHECK(got.self_timed_completed);

  /* Nested calls inside an AllowProcessEvents callback run by ProcessEvents. */
  fu_rec_init(&F, "F work-done APE (outer ProcessEvents)");
  F.hook = hook_f;
  fu_rec_init(&G, "G work-done WaitAnyOnly (nested WaitAny in F)");
  submit_empty(&ctx);
  fG = fu_workdone(ctx.queue, WGPUCallbackMode_WaitAnyOnly, &G);
  fF = fu_workdone(ctx.queue, WGPUCallbackMode_AllowProcessEvents, &F);
  CHECK(fu_pump_until1(ctx.instance, &F, FU_WAIT_S));
  FU_CHECK_ONCE(&F);
  CHECK(!got.reentered_f);
  CHECK_EQ(got.f_wait_g, WGPUWaitStatus_Success);
  CHECK_EQ(got.g_calls_in_f, 1);
  FU_CHECK_ONCE(&G);
  CHECK_EQ(got.f_self, WGPUWaitStatus_Success);
  CHECK(got.f_self_completed);

  /* The outer callbacks' own futures report completed, without a re-run. */
  CHECK_EQ(fu_wait1(ctx.instance, fA, 0, NULL, &completed), WGPUWaitStatus_Success);
  CHECK_EQ(fu_wait1(ctx.instance, fF, 0, NULL, &completed), WGPUWaitStatus_Success);
  fu_process_events(ctx.instance);
  FU_CHECK_ONCE(&A);
  FU_CHECK_ONCE(&F);

  wgpuBufferUnmap(buf);
  wgpuBufferRelease(buf);
  ctx_release(&ctx);
  return test_finish();
}
