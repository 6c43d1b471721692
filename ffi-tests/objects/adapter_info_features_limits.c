/* Rule (webgpu.h §2 FreeMembers, §3 output strings, §5 out-struct chains):
 * wgpuAdapterGetInfo returns Success and four output strings with explicit
 * lengths (never WGPU_STRLEN; data non-NULL when non-empty), backendType
 * Vulkan, adapterType CPU on lavapipe (a valid AdapterType elsewhere), and is
 * freed with wgpuAdapterInfoFreeMembers; with an unknown chained struct it
 * returns Error and leaves the output untouched (GetLimits too). GetFeatures
 * lists distinct features, each reported by HasFeature (unknown -> false),
 * freed with FreeMembers. GetLimits gives sane values (no UNDEFINED
 * sentinels, at least the WebGPU defaults). */
#include "../mapping/mapping_util.h"

static int sv_ok(WGPUStringView v) {
  return v.length != WGPU_STRLEN && (v.length == 0 || v.data != NULL);
}

int main(void) {
  start_watchdog(60);
  WGPUInstance inst = mu_create_instance(0);
  REQUIRE(inst != NULL);
  WGPUAdapter adapter = mu_request_adapter(inst);
  REQUIRE(adapter != NULL);

  /* --- Info --- */
  WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
  CHECK_EQ(wgpuAdapterGetInfo(adapter, &info), WGPUStatus_Success);
  CHECK(sv_ok(info.vendor));
  CHECK(sv_ok(info.architecture));
  CHECK(sv_ok(info.device));
  CHECK(sv_ok(info.description));
  CHECK(info.device.length > 0); /* lavapipe: "llvmpipe (LLVM ...)" */
  /* The backend WGPU_BACKEND asks for (the library honours it), else Vulkan. */
  const char *backend = getenv("WGPU_BACKEND");
  WGPUBackendType want_backend = WGPUBackendType_Vulkan;
  if (backend && strcmp(backend, "dx12") == 0) want_backend = WGPUBackendType_D3D12;
  if (backend && strcmp(backend, "metal") == 0) want_backend = WGPUBackendType_Metal;
  if (backend && (strcmp(backend, "gl") == 0 || strcmp(backend, "opengl") == 0)) want_backend = WGPUBackendType_OpenGL;
  CHECK_EQ(info.backendType, want_backend);
  const char *icd = getenv("VK_ICD_FILENAMES");
  if (icd && strstr(icd, "lvp")) {
    CHECK_EQ(info.adapterType, WGPUAdapterType_CPU);
    CHECK(sv_contains(info.device, "llvmpipe"));
  } else {
    CHECK(info.adapterType >= WGPUAdapterType_DiscreteGPU && info.adapterType <= WGPUAdapterType_Unknown);
  }
  CHECK(info.nextInChain == NULL);
  WGPUAdapterInfo info_again = WGPU_ADAPTER_INFO_INIT;
  CHECK_EQ(wgpuAdapterGetInfo(adapter, &info_again), WGPUStatus_Success);
  CHECK_EQ(info_again.vendorID, info.vendorID);
  CHECK_EQ(info_again.deviceID, info.deviceID);
  CHECK(info_again.device.length == info.device.length &&
        (info.device.length == 0 || memcmp(info_again.device.data, info.device.data, info.device.length) == 0));
  wgpuAdapterInfoFreeMembers(info_again);
  wgpuAdapterInfoFreeMembers(info);

  /* Unknown sType in the out-struct chain: Error, output untouched. */
  {
    WGPUChainedStruct bogus = {NULL, (WGPUSType)0x0000FFF6};
    WGPUAdapterInfo o = WGPU_ADAPTER_INFO_INIT;
    o.nextInChain = &bogus;
    o.vendor = mu_svn("keep", 4);
    o.backendType = (WGPUBackendType)0x55;
    o.adapterType = (WGPUAdapterType)0x66;
    o.vendorID = 0xDEADBEEFu;
    o.subgroupMaxSize = 777;
    CHECK_EQ(wgpuAdapterGetInfo(adapter, &o), WGPUStatus_Error);
    CHECK(o.nextInChain == &bogus);
    CHECK(o.vendor.data != NULL && o.vendor.length == 4 && memcmp(o.vendor.data, "keep", 4) == 0);
    CHECK_EQ(o.backendType, 0x55);
    CHECK_EQ(o.adapterType, 0x66);
    CHECK_EQ(o.vendorID, 0xDEADBEEFu);
    CHECK_EQ(o.subgroupMaxSize, 777);
    CHECK(o.device.data == NULL && o.device.length == WGPU_STRLEN);

    WGPULimits l;
    memset(&l, 0xAB, sizeof l);
    l.nextInChain = &bogus;
    WGPULimits copy = l;
    CHECK_EQ(wgpuAdapterGetLimits(adapter, &l), WGPUStatus_Error);
    CHECK(memcmp(&l, &copy, sizeof l) == 0);
  }

  /* --- Features --- */
  WGPUSupportedFeatures sf = WGPU_SUPPORTED_FEATURES_INIT;
  wgpuAdapterGetFeatures(adapter, &sf);
  CHECK(sf.featureCount == 0 || sf.features != NULL);
  int distinct = 1, reported = 1;
  for (size_t i = 0; i < sf.featureCount; i++) {
    if (!wgpuAdapterHasFeature(adapter, sf.features[i])) reported = 0;
    for (size_t j = 0; j < i; j++)
      if (sf.features[i] == sf.features[j]) distinct = 0;
  }
  CHECK(distinct);
  CHECK(reported);
  /* wgpu-core adapters are full WebGPU core. */
  CHECK(wgpuAdapterHasFeature(adapter, WGPUFeatureName_CoreFeaturesAndLimits));
  CHECK(!wgpuAdapterHasFeature(adapter, (WGPUFeatureName)0x0000FFF7));
  CHECK(!wgpuAdapterHasFeature(adapter, (WGPUFeatureName)0));
  wgpuSupportedFeaturesFreeMembers(sf);

  /* --- Limits --- */
  WGPULimits l = WGPU_LIMITS_INIT;
  CHECK_EQ(wgpuAdapterGetLimits(adapter, &l), WGPUStatus_Success);
  CHECK(l.nextInChain == NULL);
  CHECK(l.maxTextureDimension2D >= 8192 && l.maxTextureDimension2D != WGPU_LIMIT_U32_UNDEFINED);
  CHECK(l.maxBindGroups >= 4 && l.maxBindGroups != WGPU_LIMIT_U32_UNDEFINED);
  CHECK(l.maxBindingsPerBindGroup >= 1000 && l.maxBindingsPerBindGroup != WGPU_LIMIT_U32_UNDEFINED);
  CHECK(l.maxStorageBuffersPerShaderStage >= 8 && l.maxStorageBuffersPerShaderStage != WGPU_LIMIT_U32_UNDEFINED);
  CHECK(l.maxUniformBufferBindingSize >= 65536 && l.maxUniformBufferBindingSize != WGPU_LIMIT_U64_UNDEFINED);
  CHECK(l.maxStorageBufferBindingSize >= 134217728 && l.maxStorageBufferBindingSize != WGPU_LIMIT_U64_UNDEFINED);
  CHECK(l.maxBufferSize >= 268435456 && l.maxBufferSize != WGPU_LIMIT_U64_UNDEFINED);
  CHECK(l.minUniformBufferOffsetAlignment >= 1 && l.minUniformBufferOffsetAlignment <= 256 &&
        (l.minUniformBufferOffsetAlignment & (l.minUniformBufferOffsetAlignment - 1)) == 0);
  CHECK(l.minStorageBufferOffsetAlignment >= 1 && l.minStorageBufferOffsetAlignment <= 256 &&
        (l.minStorageBufferOffsetAlignment & (l.minStorageBufferOffsetAlignment - 1)) == 0);
  CHECK(l.maxComputeWorkgroupStorageSize >= 16384 && l.maxComputeWorkgroupStorageSize != WGPU_LIMIT_U32_UNDEFINED);
  CHECK(l.maxComputeInvocationsPerWorkgroup >= 256 &&
        l.maxComputeInvocationsPerWorkgroup != WGPU_LIMIT_U32_UNDEFINED);
  CHECK(l.maxComputeWorkgroupSizeX >= 256 && l.maxComputeWorkgroupSizeX != WGPU_LIMIT_U32_UNDEFINED);
  CHECK(l.maxComputeWorkgroupSizeY >= 256 && l.maxComputeWorkgroupSizeY != WGPU_LIMIT_U32_UNDEFINED);
  CHECK(l.maxComputeWorkgroupSizeZ >= 64 && l.maxComputeWorkgroupSizeZ != WGPU_LIMIT_U32_UNDEFINED);
  CHECK(l.maxComputeWorkgroupsPerDimension >= 65535 &&
        l.maxComputeWorkgroupsPerDimension != WGPU_LIMIT_U32_UNDEFINED);
  CHECK(l.maxVertexBuffers >= 8 && l.maxVertexBuffers != WGPU_LIMIT_U32_UNDEFINED);
  CHECK(l.maxColorAttachments >= 8 && l.maxColorAttachments != WGPU_LIMIT_U32_UNDEFINED);
  CHECK(l.maxImmediateSize != WGPU_LIMIT_U32_UNDEFINED);
  CHECK(l.maxBindGroupsPlusVertexBuffers >= 24 && l.maxBindGroupsPlusVertexBuffers != WGPU_LIMIT_U32_UNDEFINED);

  /* AddRef/Release balance: still usable. */
  wgpuAdapterAddRef(adapter);
  wgpuAdapterRelease(adapter);
  WGPULimits l2 = WGPU_LIMITS_INIT;
  CHECK_EQ(wgpuAdapterGetLimits(adapter, &l2), WGPUStatus_Success);
  CHECK_EQ(l2.maxBindGroups, l.maxBindGroups);

  wgpuAdapterRelease(adapter);
  wgpuInstanceRelease(inst);
  return test_finish();
}
