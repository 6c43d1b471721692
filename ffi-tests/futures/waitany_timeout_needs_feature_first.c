/* Rule (spec §8.4; DECISIONS "count == 0"; issue "three deviations", 2): on
 * an instance without TimedWaitAny, a WaitAny with a timeout is an Error even
 * when it lists no future (the timed-wait rule comes first, as in Dawn);
 * with timeout 0 and no future it is Success. With the feature, count 0 is
 * Success whatever the timeout. */
#define _GNU_SOURCE
#include "futures_util.h"

int main(void) {
  fu_begin(30);
  WGPUInstance plain = create_instance(0);
  REQUIRE(plain != NULL);
  CHECK_EQ(wgpuInstanceWaitAny(plain, 0, NULL, 1), WGPUWaitStatus_Error);
  CHECK_EQ(wgpuInstanceWaitAny(plain, 0, NULL, UINT64_MAX), WGPUWaitStatus_Error);
  CHECK_EQ(wgpuInstanceWaitAny(plain, 0, NULL, 0), WGPUWaitStatus_Success);
  WGPUInstance timed = create_instance(1);
  REQUIRE(timed != NULL);
  CHECK_EQ(wgpuInstanceWaitAny(timed, 0, NULL, 1), WGPUWaitStatus_Success);
  CHECK_EQ(wgpuInstanceWaitAny(timed, 0, NULL, UINT64_MAX), WGPUWaitStatus_Success);
  wgpuInstanceRelease(timed);
  wgpuInstanceRelease(plain);
  return test_finish();
}
