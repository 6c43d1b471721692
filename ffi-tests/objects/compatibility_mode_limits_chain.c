/* Rule (webgpu.h: WGPUCompatibilityModeLimits "is required to be supported
 * (for both queries and requests)"; WebGPU spec limits): the struct chained
 * into WGPULimits is accepted wherever WGPULimits is read or written.
 * - wgpuAdapterGetLimits / wgpuDeviceGetLimits return Success and fill it;
 *   on a core device each compat limit equals its core limit
 *   (maxStorage{Buffers,Textures}In{Vertex,Fragment}Stage =
 *   maxStorage{Buffers,Textures}PerShaderStage).
 * - RequestDevice honours it in requiredLimits: undefined values and the
 *   adapter's values succeed, and the device reports at least the requested
 *   value; a value above the adapter's fails with Error. */
#include "../mapping/mapping_util.h"

static WGPUStatus limits_with_compat(WGPUAdapter adapter, WGPUDevice device, WGPULimits *l,
                                     WGPUCompatibilityModeLimits *c) {
  *l = (WGPULimits)WGPU_LIMITS_INIT;
  *c = (WGPUCompatibilityModeLimits)WGPU_COMPATIBILITY_MODE_LIMITS_INIT;
  l->nextInChain = &c->chain;
  return adapter ? wgpuAdapterGetLimits(adapter, l) : wgpuDeviceGetLimits(device, l);
}

static void check_core_equal(const WGPULimits *l, const WGPUCompatibilityModeLimits *c) {
  CHECK(l->maxStorageBuffersPerShaderStage != WGPU_LIMIT_U32_UNDEFINED);
  CHECK_EQ(c->maxStorageBuffersInVertexStage, l->maxStorageBuffersPerShaderStage);
  CHECK_EQ(c->maxStorageBuffersInFragmentStage, l->maxStorageBuffersPerShaderStage);
  CHECK_EQ(c->maxStorageTexturesInVertexStage, l->maxStorageTexturesPerShaderStage);
  CHECK_EQ(c->maxStorageTexturesInFragmentStage, l->maxStorageTexturesPerShaderStage);
}

int main(void) {
  start_watchdog(60);
  WGPUInstance inst = mu_create_instance(1);
  REQUIRE(inst != NULL);
  WGPUAdapter a = mu_request_adapter(inst);
  REQUIRE(a != NULL);

  /* Queries. */
  WGPULimits al;
  WGPUCompatibilityModeLimits ac;
  CHECK_EQ(limits_with_compat(a, NULL, &al, &ac), WGPUStatus_Success);
  check_core_equal(&al, &ac);

  /* A request with the chain, values undefined. */
  DeviceRequest req;
  WGPULimits rl = WGPU_LIMITS_INIT;
  WGPUCompatibilityModeLimits rc = WGPU_COMPATIBILITY_MODE_LIMITS_INIT;
  rl.nextInChain = &rc.chain;
  WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
  dd.requiredLimits = &rl;
  WGPUDevice d = mu_request_device(inst, a, &dd, &req);
  CHECK_EQ(req.status, WGPURequestDeviceStatus_Success);
  CHECK(d != NULL);
  if (d) {
    WGPULimits dl;
    WGPUCompatibilityModeLimits dc;
    CHECK_EQ(limits_with_compat(NULL, d, &dl, &dc), WGPUStatus_Success);
    check_core_equal(&dl, &dc);
    wgpuDeviceRelease(d);
  }

  /* The adapter's values: the device offers them. */
  rc.maxStorageBuffersInVertexStage = ac.maxStorageBuffersInVertexStage;
  rc.maxStorageTexturesInFragmentStage = ac.maxStorageTexturesInFragmentStage;
  d = mu_request_device(inst, a, &dd, &req);
  CHECK_EQ(req.status, WGPURequestDeviceStatus_Success);
  CHECK(d != NULL);
  if (d) {
    WGPULimits dl;
    WGPUCompatibilityModeLimits dc;
    CHECK_EQ(limits_with_compat(NULL, d, &dl, &dc), WGPUStatus_Success);
    check_core_equal(&dl, &dc);
    CHECK(dc.maxStorageBuffersInVertexStage >= rc.maxStorageBuffersInVertexStage);
    CHECK(dc.maxStorageTexturesInFragmentStage >= rc.maxStorageTexturesInFragmentStage);
    wgpuDeviceRelease(d);
  }

  /* Above the adapter's: Error. */
  rc.maxStorageBuffersInFragmentStage = ac.maxStorageBuffersInFragmentStage + 1;
  d = mu_request_device(inst, a, &dd, &req);
  CHECK(d == NULL);
  CHECK_EQ(req.calls, 1);
  CHECK_EQ(req.status, WGPURequestDeviceStatus_Error);
  CHECK(req.msg_nonempty);

  wgpuAdapterRelease(a);
  wgpuInstanceRelease(inst);
  return test_finish();
}
