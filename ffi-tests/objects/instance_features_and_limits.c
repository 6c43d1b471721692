/* Rule (webgpu.h §8.4, §2 FreeMembers, §5 out-struct chains; DECISIONS
 * "timedWaitAnyMaxCount"): wgpuGetInstanceFeatures lists TimedWaitAny,
 * ShaderSourceSPIRV and MultipleDevicesPerAdapter (each once; no other value
 * of the standard block, values of an implementation's own block allowed;
 * every listed one reported by wgpuHasInstanceFeature), is freed with wgpuSupportedInstanceFeaturesFreeMembers;
 * wgpuHasInstanceFeature agrees (false for unknown values); wgpuGetInstanceLimits
 * reports timedWaitAnyMaxCount = 1,048,576 and, with an unknown chained
 * struct, returns Error leaving the output untouched; wgpuCreateInstance
 * accepts all three features and a limit up to the maximum and returns NULL
 * above it; the WGSL language features of an instance are each reported by
 * wgpuInstanceHasWGSLLanguageFeature and freed with FreeMembers. */
#include "../mapping/mapping_util.h"

int main(void) {
  start_watchdog(60);

  WGPUSupportedInstanceFeatures sf = WGPU_SUPPORTED_INSTANCE_FEATURES_INIT;
  wgpuGetInstanceFeatures(&sf);
  int has[4] = {0, 0, 0, 0};
  int unknown = 0;
  CHECK(sf.featureCount >= 3);
  CHECK(sf.features != NULL);
  int listed_reported = 1;
  for (size_t i = 0; sf.features && i < sf.featureCount; i++) {
    WGPUInstanceFeatureName f = sf.features[i];
    if (f >= 1 && f <= 3)
      has[f]++;
    else if ((uint32_t)f < 0x00010000u)
      unknown++; /* standard block, but not a standard value */
    /* (values in an implementation's own block are allowed) */
    if (!wgpuHasInstanceFeature(f)) listed_reported = 0;
  }
  CHECK(listed_reported);
  CHECK_EQ(has[WGPUInstanceFeatureName_TimedWaitAny], 1);
  CHECK_EQ(has[WGPUInstanceFeatureName_ShaderSourceSPIRV], 1);
  CHECK_EQ(has[WGPUInstanceFeatureName_MultipleDevicesPerAdapter], 1);
  CHECK_EQ(unknown, 0);
  wgpuSupportedInstanceFeaturesFreeMembers(sf);

  CHECK(wgpuHasInstanceFeature(WGPUInstanceFeatureName_TimedWaitAny));
  CHECK(wgpuHasInstanceFeature(WGPUInstanceFeatureName_ShaderSourceSPIRV));
  CHECK(wgpuHasInstanceFeature(WGPUInstanceFeatureName_MultipleDevicesPerAdapter));
  CHECK(!wgpuHasInstanceFeature((WGPUInstanceFeatureName)0));
  CHECK(!wgpuHasInstanceFeature((WGPUInstanceFeatureName)4));
  CHECK(!wgpuHasInstanceFeature((WGPUInstanceFeatureName)0x0003FFF1));
  CHECK(!wgpuHasInstanceFeature(WGPUInstanceFeatureName_Force32));

  /* Calling again gives the same list (and a separate allocation). */
  WGPUSupportedInstanceFeatures sf2 = WGPU_SUPPORTED_INSTANCE_FEATURES_INIT;
  wgpuGetInstanceFeatures(&sf2);
  CHECK(sf2.featureCount >= 3);
  wgpuSupportedInstanceFeaturesFreeMembers(sf2);

  /* Limits. */
  WGPUInstanceLimits lim = WGPU_INSTANCE_LIMITS_INIT;
  CHECK_EQ(wgpuGetInstanceLimits(&lim), WGPUStatus_Success);
  CHECK_EQ(lim.timedWaitAnyMaxCount, 1048576);
  CHECK(lim.nextInChain == NULL);
  /* Unknown chained struct: Error, output unchanged. */
  WGPUChainedStruct bogus = {NULL, (WGPUSType)0x0000FFF3};
  WGPUInstanceLimits lim2 = WGPU_INSTANCE_LIMITS_INIT;
  lim2.nextInChain = &bogus;
  lim2.timedWaitAnyMaxCount = 12345;
  CHECK_EQ(wgpuGetInstanceLimits(&lim2), WGPUStatus_Error);
  CHECK_EQ(lim2.timedWaitAnyMaxCount, 12345);
  CHECK(lim2.nextInChain == &bogus);
  CHECK(bogus.next == NULL);
  CHECK_EQ(bogus.sType, 0x0000FFF3);

  /* Creating instances: all features; limit at the max; above the max. */
  WGPUInstanceFeatureName all[3] = {WGPUInstanceFeatureName_TimedWaitAny, WGPUInstanceFeatureName_ShaderSourceSPIRV,
                                    WGPUInstanceFeatureName_MultipleDevicesPerAdapter};
  WGPUInstanceDescriptor d = WGPU_INSTANCE_DESCRIPTOR_INIT;
  d.requiredFeatureCount = 3;
  d.requiredFeatures = all;
  WGPUInstanceLimits req = WGPU_INSTANCE_LIMITS_INIT;
  req.timedWaitAnyMaxCount = 1048576;
  d.requiredLimits = &req;
  WGPUInstance inst = wgpuCreateInstance(&d);
  CHECK(inst != NULL);
  req.timedWaitAnyMaxCount = 1048577;
  WGPUInstance too_many = wgpuCreateInstance(&d);
  CHECK(too_many == NULL);
  if (too_many) wgpuInstanceRelease(too_many);
  /* An unknown required instance feature: NULL. */
  WGPUInstanceFeatureName bad_feature = (WGPUInstanceFeatureName)0x0000FFF4;
  WGPUInstanceDescriptor d2 = WGPU_INSTANCE_DESCRIPTOR_INIT;
  d2.requiredFeatureCount = 1;
  d2.requiredFeatures = &bad_feature;
  WGPUInstance bad = wgpuCreateInstance(&d2);
  CHECK(bad == NULL);
  if (bad) wgpuInstanceRelease(bad);
  /* No descriptor at all: fine. */
  WGPUInstance plain = wgpuCreateInstance(NULL);
  CHECK(plain != NULL);

  /* WGSL language features. */
  if (inst) {
    WGPUSupportedWGSLLanguageFeatures wf = WGPU_SUPPORTED_WGSL_LANGUAGE_FEATURES_INIT;
    wgpuInstanceGetWGSLLanguageFeatures(inst, &wf);
    CHECK(wf.featureCount == 0 || wf.features != NULL);
    int all_reported = 1, distinct = 1;
    for (size_t i = 0; i < wf.featureCount; i++) {
      if (!wgpuInstanceHasWGSLLanguageFeature(inst, wf.features[i])) all_reported = 0;
      for (size_t j = 0; j < i; j++)
        if (wf.features[j] == wf.features[i]) distinct = 0;
    }
    CHECK(all_reported);
    CHECK(distinct);
    CHECK(!wgpuInstanceHasWGSLLanguageFeature(inst, (WGPUWGSLLanguageFeatureName)0x0000FFF5));
    CHECK(!wgpuInstanceHasWGSLLanguageFeature(inst, (WGPUWGSLLanguageFeatureName)0));
    /* naga 30 (wgpu-core 30) implements these three WGSL extensions. */
    CHECK(wgpuInstanceHasWGSLLanguageFeature(inst, WGPUWGSLLanguageFeatureName_ReadonlyAndReadwriteStorageTextures));
    CHECK(wgpuInstanceHasWGSLLanguageFeature(inst, WGPUWGSLLanguageFeatureName_Packed4x8IntegerDotProduct));
    CHECK(wgpuInstanceHasWGSLLanguageFeature(inst, WGPUWGSLLanguageFeatureName_PointerCompositeAccess));
    CHECK(wf.featureCount >= 3);
    wgpuSupportedWGSLLanguageFeaturesFreeMembers(wf);
    wgpuInstanceRelease(inst);
  }
  if (plain) wgpuInstanceRelease(plain);
  return test_finish();
}
