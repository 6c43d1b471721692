/* Rule (webgpu.h §1 "Extension detection", §3 strings): wgpuGetProcAddress
 * returns, for the name of every webgpu.h function (given NUL-terminated or
 * with an explicit length that is not NUL-terminated), the address of that
 * very function; and NULL for unknown names, prefixes, wrong case, a name
 * with a trailing NUL inside the length, the empty string and the null
 * string view. */
#include "../mapping/mapping_util.h"

typedef struct {
  const char *name;
  WGPUProc fn;
} Entry;

/* Every webgpu.h function as P(function), for a macro P. The table is filled
 * at run time, one assignment each, not by an initializer: on Windows the
 * functions are the DLL's (dllimport), whose addresses the program reads at
 * run time, and GCC turns a large initializer into a constant template
 * holding the addresses of the program's jump stubs instead. */
#define ENTRIES(P) \
    P(wgpuCreateInstance), P(wgpuGetInstanceFeatures), P(wgpuGetInstanceLimits), P(wgpuHasInstanceFeature),        \
    P(wgpuGetProcAddress),                                                                                         \
    P(wgpuAdapterGetFeatures), P(wgpuAdapterGetInfo), P(wgpuAdapterGetLimits), P(wgpuAdapterHasFeature),           \
    P(wgpuAdapterRequestDevice), P(wgpuAdapterAddRef), P(wgpuAdapterRelease), P(wgpuAdapterInfoFreeMembers),       \
    P(wgpuBindGroupSetLabel), P(wgpuBindGroupAddRef), P(wgpuBindGroupRelease),                                     \
    P(wgpuBindGroupLayoutSetLabel), P(wgpuBindGroupLayoutAddRef), P(wgpuBindGroupLayoutRelease),                   \
    P(wgpuBufferDestroy), P(wgpuBufferGetConstMappedRange), P(wgpuBufferGetMappedRange), P(wgpuBufferGetMapState), \
    P(wgpuBufferGetSize), P(wgpuBufferGetUsage), P(wgpuBufferMapAsync), P(wgpuBufferReadMappedRange),              \
    P(wgpuBufferSetLabel), P(wgpuBufferUnmap), P(wgpuBufferWriteMappedRange), P(wgpuBufferAddRef),                 \
    P(wgpuBufferRelease),                                                                                          \
    P(wgpuCommandBufferSetLabel), P(wgpuCommandBufferAddRef), P(wgpuCommandBufferRelease),                         \
    P(wgpuCommandEncoderBeginComputePass), P(wgpuCommandEncoderClearBuffer),                                       \
    P(wgpuCommandEncoderCopyBufferToBuffer), P(wgpuCommandEncoderFinish), P(wgpuCommandEncoderInsertDebugMarker),  \
    P(wgpuCommandEncoderPopDebugGroup), P(wgpuCommandEncoderPushDebugGroup), P(wgpuCommandEncoderSetLabel),        \
    P(wgpuCommandEncoderAddRef), P(wgpuCommandEncoderRelease),                                                     \
    P(wgpuComputePassEncoderDispatchWorkgroups), P(wgpuComputePassEncoderDispatchWorkgroupsIndirect),              \
    P(wgpuComputePassEncoderEnd), P(wgpuComputePassEncoderInsertDebugMarker),                                      \
    P(wgpuComputePassEncoderPopDebugGroup), P(wgpuComputePassEncoderPushDebugGroup),                               \
    P(wgpuComputePassEncoderSetBindGroup), P(wgpuComputePassEncoderSetImmediates),                                 \
    P(wgpuComputePassEncoderSetLabel), P(wgpuComputePassEncoderSetPipeline), P(wgpuComputePassEncoderAddRef),      \
    P(wgpuComputePassEncoderRelease),                                                                              \
    P(wgpuComputePipelineGetBindGroupLayout), P(wgpuComputePipelineSetLabel), P(wgpuComputePipelineAddRef),        \
    P(wgpuComputePipelineRelease),                                                                                 \
    P(wgpuDeviceCreateBindGroup), P(wgpuDeviceCreateBindGroupLayout), P(wgpuDeviceCreateBuffer),                   \
    P(wgpuDeviceCreateCommandEncoder), P(wgpuDeviceCreateComputePipeline),                                         \
    P(wgpuDeviceCreateComputePipelineAsync), P(wgpuDeviceCreatePipelineLayout), P(wgpuDeviceCreateShaderModule),   \
    P(wgpuDeviceDestroy), P(wgpuDeviceGetAdapterInfo), P(wgpuDeviceGetFeatures), P(wgpuDeviceGetLimits),           \
    P(wgpuDeviceGetLostFuture), P(wgpuDeviceGetQueue), P(wgpuDeviceHasFeature), P(wgpuDevicePopErrorScope),        \
    P(wgpuDevicePushErrorScope), P(wgpuDeviceSetLabel), P(wgpuDeviceAddRef), P(wgpuDeviceRelease),                 \
    P(wgpuInstanceGetWGSLLanguageFeatures), P(wgpuInstanceHasWGSLLanguageFeature), P(wgpuInstanceProcessEvents),   \
    P(wgpuInstanceRequestAdapter), P(wgpuInstanceWaitAny), P(wgpuInstanceAddRef), P(wgpuInstanceRelease),          \
    P(wgpuPipelineLayoutSetLabel), P(wgpuPipelineLayoutAddRef), P(wgpuPipelineLayoutRelease),                      \
    P(wgpuQueueOnSubmittedWorkDone), P(wgpuQueueSetLabel), P(wgpuQueueSubmit), P(wgpuQueueWriteBuffer),            \
    P(wgpuQueueAddRef), P(wgpuQueueRelease),                                                                       \
    P(wgpuShaderModuleGetCompilationInfo), P(wgpuShaderModuleSetLabel), P(wgpuShaderModuleAddRef),                 \
    P(wgpuShaderModuleRelease),                                                                                    \
    P(wgpuSupportedFeaturesFreeMembers), P(wgpuSupportedInstanceFeaturesFreeMembers),                              \
    P(wgpuSupportedWGSLLanguageFeaturesFreeMembers)

int main(void) {
  start_watchdog(60);
  static Entry k_entries[256];
  size_t n = 0;
#define ADD(f) (k_entries[n].name = #f, k_entries[n].fn = (WGPUProc)(f), n++)
  ENTRIES(ADD);
#undef ADD
  size_t wrong = 0;
  for (size_t i = 0; i < n; i++) {
    WGPUProc got = wgpuGetProcAddress(sv(k_entries[i].name));
    if (got != k_entries[i].fn) {
      fprintf(stderr, "  %s: got %p, want %p\n", k_entries[i].name, (void *)(uintptr_t)got,
              (void *)(uintptr_t)k_entries[i].fn);
      wrong++;
    }
    /* Explicit length, not NUL-terminated: the name followed by junk. */
    char buf[128];
    size_t len = strlen(k_entries[i].name);
    memcpy(buf, k_entries[i].name, len);
    memcpy(buf + len, "XYZ", 4);
    if (wgpuGetProcAddress(mu_svn(buf, len)) != k_entries[i].fn) {
      fprintf(stderr, "  %s (explicit length): wrong\n", k_entries[i].name);
      wrong++;
    }
  }
  CHECK_EQ(wrong, 0);
  CHECK(n >= 100);

  /* The three named in the rule, explicitly. */
  CHECK(wgpuGetProcAddress(sv("wgpuCreateInstance")) == (WGPUProc)wgpuCreateInstance);
  CHECK(wgpuGetProcAddress(sv("wgpuBufferMapAsync")) == (WGPUProc)wgpuBufferMapAsync);
  CHECK(wgpuGetProcAddress(sv("wgpuInstanceWaitAny")) == (WGPUProc)wgpuInstanceWaitAny);

  /* Unknown names. */
  CHECK(wgpuGetProcAddress(sv("wgpuNoSuchThing")) == NULL);
  CHECK(wgpuGetProcAddress(sv("wgpuCreate")) == NULL);                   /* prefix */
  CHECK(wgpuGetProcAddress(sv("wgpuCreateInstanceX")) == NULL);          /* longer */
  CHECK(wgpuGetProcAddress(sv("WGPUCreateInstance")) == NULL);           /* case */
  CHECK(wgpuGetProcAddress(sv("wgpucreateinstance")) == NULL);
  CHECK(wgpuGetProcAddress(sv(" wgpuCreateInstance")) == NULL);
  CHECK(wgpuGetProcAddress(sv("malloc")) == NULL);                       /* not ours */
  CHECK(wgpuGetProcAddress(sv("wgpuTextureGetWidthX")) == NULL);
  CHECK(wgpuGetProcAddress(mu_svn("wgpuCreateInstance\0", 19)) == NULL); /* NUL inside */
  CHECK(wgpuGetProcAddress(mu_svn("wgpuCreateInstance", 10)) == NULL);   /* "wgpuCreate" */
  /* Empty and null string views. */
  CHECK(wgpuGetProcAddress(sv("")) == NULL);
  CHECK(wgpuGetProcAddress(mu_svn("wgpuCreateInstance", 0)) == NULL);
  CHECK(wgpuGetProcAddress(mu_svn(NULL, 0)) == NULL);
  CHECK(wgpuGetProcAddress(mu_svn(NULL, WGPU_STRLEN)) == NULL);
  return test_finish();
}
