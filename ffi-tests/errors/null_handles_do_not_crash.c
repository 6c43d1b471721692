/* Rule (webgpu.h §4.1, §6 "Synchronous errors"): NULL handles and NULL
 * descriptors where the header says non-nullable must not crash the process:
 * calls with a NULL object do nothing (implementation-defined logging);
 * getters return 0 / NULL / WGPUStatus_Error (GetMapState: Unmapped or 0);
 * creations on a NULL device return NULL; creations with a NULL descriptor
 * return NULL or an error object. Afterwards the device still works. A crash
 * names the last call made. */
#include "../mapping/mapping_util.h"

#include <signal.h>

static const char *volatile g_last = "(none)";

static void on_signal(int sig) {
  const char *msg = "FAIL crashed (signal) during: ";
  if (write(2, msg, strlen(msg)) < 0) {
  }
  if (write(2, (const char *)g_last, strlen((const char *)g_last)) < 0) {
  }
  if (write(2, "\n", 1) < 0) {
  }
  (void)sig;
  _exit(4);
}

/* Records the call text, then runs it. */
#define CALL(...)          \
  do {                     \
    g_last = #__VA_ARGS__; \
    __VA_ARGS__;           \
  } while (0)

static void noop_map(WGPUMapAsyncStatus s, WGPUStringView m, void *u1, void *u2) {
  (void)s, (void)m, (void)u1, (void)u2;
}
static void noop_adapter(WGPURequestAdapterStatus s, WGPUAdapter a, WGPUStringView m, void *u1, void *u2) {
  (void)s, (void)m, (void)u1, (void)u2;
  if (a) wgpuAdapterRelease(a);
}
static void noop_device(WGPURequestDeviceStatus s, WGPUDevice d, WGPUStringView m, void *u1, void *u2) {
  (void)s, (void)m, (void)u1, (void)u2;
  if (d) wgpuDeviceRelease(d);
}
static void noop_pop(WGPUPopErrorScopeStatus s, WGPUErrorType t, WGPUStringView m, void *u1, void *u2) {
  (void)s, (void)t, (void)m, (void)u1, (void)u2;
}
static void noop_done(WGPUQueueWorkDoneStatus s, WGPUStringView m, void *u1, void *u2) {
  (void)s, (void)m, (void)u1, (void)u2;
}
static void noop_info(WGPUCompilationInfoRequestStatus s, WGPUCompilationInfo const *i, void *u1, void *u2) {
  (void)s, (void)i, (void)u1, (void)u2;
}
static void noop_cpa(WGPUCreatePipelineAsyncStatus s, WGPUComputePipeline p, WGPUStringView m, void *u1, void *u2) {
  (void)s, (void)m, (void)u1, (void)u2;
  if (p) wgpuComputePipelineRelease(p);
}

int main(void) {
  start_watchdog(60);
  signal(SIGSEGV, on_signal);
#ifdef SIGBUS /* not on Windows */
  signal(SIGBUS, on_signal);
#endif
  signal(SIGABRT, on_signal);
  signal(SIGILL, on_signal);
  signal(SIGFPE, on_signal);

  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUBuffer buf = make_buffer(ctx.device, 64, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 0);
  REQUIRE(buf != NULL);
  uint8_t data[64] = {0};

  /* ---- Global ---- */
  CALL(wgpuGetInstanceFeatures(NULL));
  CALL(CHECK_EQ(wgpuGetInstanceLimits(NULL), WGPUStatus_Error));
  CALL(wgpuSupportedInstanceFeaturesFreeMembers(WGPU_SUPPORTED_INSTANCE_FEATURES_INIT));
  CALL(wgpuSupportedFeaturesFreeMembers(WGPU_SUPPORTED_FEATURES_INIT));
  CALL(wgpuSupportedWGSLLanguageFeaturesFreeMembers(WGPU_SUPPORTED_WGSL_LANGUAGE_FEATURES_INIT));
  CALL(wgpuAdapterInfoFreeMembers(WGPU_ADAPTER_INFO_INIT));
  {
    WGPUInstance i2 = NULL;
    CALL(i2 = wgpuCreateInstance(NULL)); /* nullable descriptor: a real instance */
    CHECK(i2 != NULL);
    if (i2) wgpuInstanceRelease(i2);
  }

  /* ---- Instance ---- */
  CALL(wgpuInstanceAddRef(NULL));
  CALL(wgpuInstanceRelease(NULL));
  CALL(wgpuInstanceProcessEvents(NULL));
  {
    WGPUFutureWaitInfo wi = {{1}, 0};
    CALL(CHECK(wgpuInstanceWaitAny(NULL, 1, &wi, 0) != WGPUWaitStatus_Success));
    CHECK(!wi.completed);
    WGPURequestAdapterCallbackInfo ai = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
    ai.mode = WGPUCallbackMode_AllowSpontaneous;
    ai.callback = noop_adapter;
    CALL(wgpuInstanceRequestAdapter(NULL, NULL, ai));
    WGPUSupportedWGSLLanguageFeatures wf = WGPU_SUPPORTED_WGSL_LANGUAGE_FEATURES_INIT;
    CALL(wgpuInstanceGetWGSLLanguageFeatures(NULL, &wf));
    CHECK_EQ(wf.featureCount, 0);
    CALL(CHECK(!wgpuInstanceHasWGSLLanguageFeature(NULL, WGPUWGSLLanguageFeatureName_PointerCompositeAccess)));
  }

  /* ---- Adapter ---- */
  {
    WGPULimits l = WGPU_LIMITS_INIT;
    WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
    WGPUSupportedFeatures f = WGPU_SUPPORTED_FEATURES_INIT;
    CALL(CHECK_EQ(wgpuAdapterGetLimits(NULL, &l), WGPUStatus_Error));
    CALL(CHECK_EQ(wgpuAdapterGetLimits(ctx.adapter, NULL), WGPUStatus_Error));
    CALL(CHECK_EQ(wgpuAdapterGetInfo(NULL, &info), WGPUStatus_Error));
    CALL(CHECK_EQ(wgpuAdapterGetInfo(ctx.adapter, NULL), WGPUStatus_Error));
    CALL(wgpuAdapterGetFeatures(NULL, &f));
    CHECK_EQ(f.featureCount, 0);
    CALL(wgpuAdapterGetFeatures(ctx.adapter, NULL));
    CALL(CHECK(!wgpuAdapterHasFeature(NULL, WGPUFeatureName_ShaderF16)));
    WGPURequestDeviceCallbackInfo di = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
    di.mode = WGPUCallbackMode_AllowSpontaneous;
    di.callback = noop_device;
    CALL(wgpuAdapterRequestDevice(NULL, NULL, di));
    CALL(wgpuAdapterAddRef(NULL));
    CALL(wgpuAdapterRelease(NULL));
  }

  /* ---- Device with NULL handle ---- */
  {
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.size = 16;
    bd.usage = WGPUBufferUsage_CopyDst;
    CALL(CHECK(wgpuDeviceCreateBuffer(NULL, &bd) == NULL));
    CALL(CHECK(wgpuDeviceCreateCommandEncoder(NULL, NULL) == NULL));
    CALL(CHECK(wgpuDeviceGetQueue(NULL) == NULL));
    WGPUShaderSourceWGSL src = WGPU_SHADER_SOURCE_WGSL_INIT;
    src.code = sv(MU_DOUBLE_WGSL);
    WGPUShaderModuleDescriptor smd = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    smd.nextInChain = &src.chain;
    CALL(CHECK(wgpuDeviceCreateShaderModule(NULL, &smd) == NULL));
    WGPUBindGroupLayoutDescriptor bgld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    CALL(CHECK(wgpuDeviceCreateBindGroupLayout(NULL, &bgld) == NULL));
    WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    CALL(CHECK(wgpuDeviceCreatePipelineLayout(NULL, &pld) == NULL));
    WGPULimits l = WGPU_LIMITS_INIT;
    CALL(CHECK_EQ(wgpuDeviceGetLimits(NULL, &l), WGPUStatus_Error));
    CALL(CHECK_EQ(wgpuDeviceGetLimits(ctx.device, NULL), WGPUStatus_Error));
    WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
    CALL(CHECK_EQ(wgpuDeviceGetAdapterInfo(NULL, &info), WGPUStatus_Error));
    WGPUSupportedFeatures f = WGPU_SUPPORTED_FEATURES_INIT;
    CALL(wgpuDeviceGetFeatures(NULL, &f));
    CHECK_EQ(f.featureCount, 0);
    CALL(CHECK(!wgpuDeviceHasFeature(NULL, WGPUFeatureName_ShaderF16)));
    CALL(CHECK_EQ(wgpuDeviceGetLostFuture(NULL).id, 0));
    CALL(wgpuDevicePushErrorScope(NULL, WGPUErrorFilter_Validation));
    WGPUPopErrorScopeCallbackInfo pi = WGPU_POP_ERROR_SCOPE_CALLBACK_INFO_INIT;
    pi.mode = WGPUCallbackMode_AllowSpontaneous;
    pi.callback = noop_pop;
    CALL(wgpuDevicePopErrorScope(NULL, pi));
    CALL(wgpuDeviceSetLabel(NULL, sv("x")));
    CALL(wgpuDeviceDestroy(NULL));
    CALL(wgpuDeviceAddRef(NULL));
    CALL(wgpuDeviceRelease(NULL));
  }

  /* ---- Device with NULL (non-nullable) descriptors ---- */
  {
    WGPUBuffer b = NULL;
    CALL(b = wgpuDeviceCreateBuffer(ctx.device, NULL));
    if (b) wgpuBufferRelease(b);
    WGPUShaderModule sm = NULL;
    CALL(sm = wgpuDeviceCreateShaderModule(ctx.device, NULL));
    if (sm) wgpuShaderModuleRelease(sm);
    WGPUBindGroupLayout bgl = NULL;
    CALL(bgl = wgpuDeviceCreateBindGroupLayout(ctx.device, NULL));
    if (bgl) wgpuBindGroupLayoutRelease(bgl);
    WGPUBindGroup bg = NULL;
    CALL(bg = wgpuDeviceCreateBindGroup(ctx.device, NULL));
    if (bg) wgpuBindGroupRelease(bg);
    WGPUPipelineLayout pl = NULL;
    CALL(pl = wgpuDeviceCreatePipelineLayout(ctx.device, NULL));
    if (pl) wgpuPipelineLayoutRelease(pl);
    WGPUComputePipeline cp = NULL;
    CALL(cp = wgpuDeviceCreateComputePipeline(ctx.device, NULL));
    if (cp) wgpuComputePipelineRelease(cp);
    WGPUCreateComputePipelineAsyncCallbackInfo ci = WGPU_CREATE_COMPUTE_PIPELINE_ASYNC_CALLBACK_INFO_INIT;
    ci.mode = WGPUCallbackMode_AllowSpontaneous;
    ci.callback = noop_cpa;
    CALL(wgpuDeviceCreateComputePipelineAsync(ctx.device, NULL, ci));
    CALL(wgpuDeviceCreateComputePipelineAsync(NULL, NULL, ci));
    /* Descriptors with NULL members that are not nullable. */
    WGPUBindGroupDescriptor bgd = WGPU_BIND_GROUP_DESCRIPTOR_INIT; /* layout NULL */
    CALL(bg = wgpuDeviceCreateBindGroup(ctx.device, &bgd));
    if (bg) wgpuBindGroupRelease(bg);
    WGPUComputePipelineDescriptor cpd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT; /* module NULL */
    CALL(cp = wgpuDeviceCreateComputePipeline(ctx.device, &cpd));
    if (cp) wgpuComputePipelineRelease(cp);
    WGPUBindGroupLayoutDescriptor bgld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    bgld.entryCount = 2; /* entries NULL with a count */
    CALL(bgl = wgpuDeviceCreateBindGroupLayout(ctx.device, &bgld));
    if (bgl) wgpuBindGroupLayoutRelease(bgl);
  }

  /* ---- Queue ---- */
  {
    CALL(wgpuQueueSubmit(ctx.queue, 1, NULL));
    CALL(wgpuQueueSubmit(ctx.queue, 0, NULL));
    WGPUCommandBuffer cmds[2] = {NULL, NULL};
    CALL(wgpuQueueSubmit(ctx.queue, 2, cmds));
    CALL(wgpuQueueSubmit(NULL, 0, NULL));
    CALL(wgpuQueueSubmit(NULL, 2, cmds));
    CALL(wgpuQueueWriteBuffer(ctx.queue, NULL, 0, data, 4));
    CALL(wgpuQueueWriteBuffer(ctx.queue, buf, 0, NULL, 4));
    CALL(wgpuQueueWriteBuffer(NULL, buf, 0, data, 4));
    WGPUQueueWorkDoneCallbackInfo wi = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
    wi.mode = WGPUCallbackMode_AllowSpontaneous;
    wi.callback = noop_done;
    CALL(wgpuQueueOnSubmittedWorkDone(NULL, wi));
    CALL(wgpuQueueSetLabel(NULL, sv("q")));
    CALL(wgpuQueueAddRef(NULL));
    CALL(wgpuQueueRelease(NULL));
  }

  /* ---- Buffer ---- */
  {
    CALL(CHECK_EQ(wgpuBufferGetSize(NULL), 0));
    CALL(CHECK_EQ(wgpuBufferGetUsage(NULL), 0));
    WGPUBufferMapState st = (WGPUBufferMapState)0;
    CALL(st = wgpuBufferGetMapState(NULL));
    CHECK(st == (WGPUBufferMapState)0 || st == WGPUBufferMapState_Unmapped);
    CALL(CHECK(wgpuBufferGetMappedRange(NULL, 0, 4) == NULL));
    CALL(CHECK(wgpuBufferGetConstMappedRange(NULL, 0, 4) == NULL));
    CALL(CHECK_EQ(wgpuBufferReadMappedRange(NULL, 0, data, 4), WGPUStatus_Error));
    CALL(CHECK_EQ(wgpuBufferWriteMappedRange(NULL, 0, data, 4), WGPUStatus_Error));
    WGPUBufferMapCallbackInfo mi = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
    mi.mode = WGPUCallbackMode_AllowSpontaneous;
    mi.callback = noop_map;
    CALL(wgpuBufferMapAsync(NULL, WGPUMapMode_Read, 0, 4, mi));
    CALL(wgpuBufferUnmap(NULL));
    CALL(wgpuBufferDestroy(NULL));
    CALL(wgpuBufferSetLabel(NULL, sv("b")));
    CALL(wgpuBufferAddRef(NULL));
    CALL(wgpuBufferRelease(NULL));
  }

  /* ---- Other objects ---- */
  {
    WGPUCompilationInfoCallbackInfo ii = WGPU_COMPILATION_INFO_CALLBACK_INFO_INIT;
    ii.mode = WGPUCallbackMode_AllowSpontaneous;
    ii.callback = noop_info;
    CALL(wgpuShaderModuleGetCompilationInfo(NULL, ii));
    CALL(wgpuShaderModuleSetLabel(NULL, sv("s")));
    CALL(wgpuShaderModuleAddRef(NULL));
    CALL(wgpuShaderModuleRelease(NULL));
    CALL(CHECK(wgpuComputePipelineGetBindGroupLayout(NULL, 0) == NULL));
    CALL(wgpuComputePipelineSetLabel(NULL, sv("p")));
    CALL(wgpuComputePipelineAddRef(NULL));
    CALL(wgpuComputePipelineRelease(NULL));
    CALL(wgpuBindGroupLayoutSetLabel(NULL, sv("l")));
    CALL(wgpuBindGroupLayoutAddRef(NULL));
    CALL(wgpuBindGroupLayoutRelease(NULL));
    CALL(wgpuBindGroupSetLabel(NULL, sv("g")));
    CALL(wgpuBindGroupAddRef(NULL));
    CALL(wgpuBindGroupRelease(NULL));
    CALL(wgpuPipelineLayoutSetLabel(NULL, sv("pl")));
    CALL(wgpuPipelineLayoutAddRef(NULL));
    CALL(wgpuPipelineLayoutRelease(NULL));
    CALL(wgpuCommandBufferSetLabel(NULL, sv("c")));
    CALL(wgpuCommandBufferAddRef(NULL));
    CALL(wgpuCommandBufferRelease(NULL));
  }

  /* ---- Encoders ---- */
  {
    CALL(CHECK(wgpuCommandEncoderFinish(NULL, NULL) == NULL));
    CALL(CHECK(wgpuCommandEncoderBeginComputePass(NULL, NULL) == NULL));
    CALL(wgpuCommandEncoderCopyBufferToBuffer(NULL, buf, 0, buf, 0, 4));
    CALL(wgpuCommandEncoderClearBuffer(NULL, buf, 0, 4));
    CALL(wgpuCommandEncoderPushDebugGroup(NULL, sv("g")));
    CALL(wgpuCommandEncoderPopDebugGroup(NULL));
    CALL(wgpuCommandEncoderInsertDebugMarker(NULL, sv("m")));
    CALL(wgpuCommandEncoderSetLabel(NULL, sv("e")));
    CALL(wgpuCommandEncoderAddRef(NULL));
    CALL(wgpuCommandEncoderRelease(NULL));
    CALL(wgpuComputePassEncoderSetPipeline(NULL, NULL));
    CALL(wgpuComputePassEncoderSetBindGroup(NULL, 0, NULL, 0, NULL));
    CALL(wgpuComputePassEncoderDispatchWorkgroups(NULL, 1, 1, 1));
    CALL(wgpuComputePassEncoderDispatchWorkgroupsIndirect(NULL, NULL, 0));
    CALL(wgpuComputePassEncoderPushDebugGroup(NULL, sv("g")));
    CALL(wgpuComputePassEncoderPopDebugGroup(NULL));
    CALL(wgpuComputePassEncoderInsertDebugMarker(NULL, sv("m")));
    CALL(wgpuComputePassEncoderEnd(NULL));
    CALL(wgpuComputePassEncoderSetLabel(NULL, sv("p")));
    CALL(wgpuComputePassEncoderAddRef(NULL));
    CALL(wgpuComputePassEncoderRelease(NULL));

    /* Real encoder, NULL arguments inside. */
    WGPUCommandEncoder enc = NULL;
    CALL(enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL));
    CHECK(enc != NULL);
    CALL(wgpuCommandEncoderCopyBufferToBuffer(enc, NULL, 0, buf, 0, 4));
    CALL(wgpuCommandEncoderCopyBufferToBuffer(enc, buf, 0, NULL, 0, 4));
    CALL(wgpuCommandEncoderClearBuffer(enc, NULL, 0, 4));
    WGPUComputePassEncoder pass = NULL;
    CALL(pass = wgpuCommandEncoderBeginComputePass(enc, NULL));
    CHECK(pass != NULL);
    CALL(wgpuComputePassEncoderSetPipeline(pass, NULL));
    CALL(wgpuComputePassEncoderSetBindGroup(pass, 0, NULL, 0, NULL)); /* nullable: unbinds */
    CALL(wgpuComputePassEncoderSetBindGroup(pass, 0, NULL, 2, NULL)); /* offsets NULL, count 2 */
    CALL(wgpuComputePassEncoderDispatchWorkgroupsIndirect(pass, NULL, 0));
    CALL(wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1));
    CALL(wgpuComputePassEncoderEnd(pass));
    WGPUCommandBuffer cmd = NULL;
    wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
    CALL(cmd = wgpuCommandEncoderFinish(enc, NULL));
    CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_Validation); /* the encoder recorded errors */
    CHECK(cmd != NULL); /* an error command buffer, not NULL */
    CALL(wgpuQueueSubmit(ctx.queue, 1, &cmd));
    if (cmd) wgpuCommandBufferRelease(cmd);
    if (pass) wgpuComputePassEncoderRelease(pass);
    if (enc) wgpuCommandEncoderRelease(enc);
  }
  g_last = "(after the NULL calls)";

  /* The device still works. */
  wgpuQueueWriteBuffer(ctx.queue, buf, 0, "0123456789abcdef", 16);
  uint8_t got[16];
  CHECK(mu_read_buffer(&ctx, buf, 0, got, 16));
  CHECK(memcmp(got, "0123456789abcdef", 16) == 0);

  wgpuBufferRelease(buf);
  ctx_release(&ctx);
  return test_finish();
}
