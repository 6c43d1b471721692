/* Rule (webgpu.h §3 strings, §4.1): input WGPUStringViews are honoured by
 * length: WGSL code and entry points / override keys / labels / markers given
 * with an explicit length that is followed by other bytes use exactly `length`
 * bytes; a cut-short code is a compile error; the null string for a non-null
 * input (ShaderSourceWGSL.code, labels) is the empty string; for the nullable
 * entryPoint, null means "the only entry point" while the empty string {p, 0}
 * is a name that does not exist (validation error), and null with two compute
 * entry points is ambiguous (validation error). */
#include "../mapping/mapping_util.h"

static const char *const TWO_ENTRIES =
    "@group(0) @binding(0) var<storage, read_write> d: array<u32>;\n"
    "override k: u32 = 1u;\n"
    "@compute @workgroup_size(1) fn first() { d[0] = k; }\n"
    "@compute @workgroup_size(1) fn second() { d[1] = k; }\n";

static WGPUShaderModule wgsl_sv(Ctx *ctx, WGPUStringView code) {
  WGPUShaderSourceWGSL src = WGPU_SHADER_SOURCE_WGSL_INIT;
  src.code = code;
  WGPUShaderModuleDescriptor d = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
  d.nextInChain = &src.chain;
  d.label = mu_svn("module-label-and-junk", 12);
  return wgpuDeviceCreateShaderModule(ctx->device, &d);
}

static WGPUComputePipeline make_pipe(Ctx *ctx, WGPUShaderModule m, WGPUStringView entry, const WGPUConstantEntry *c) {
  WGPUComputePipelineDescriptor pd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  pd.label = mu_svn("pipeline label", 8);
  pd.compute.module = m;
  pd.compute.entryPoint = entry;
  pd.compute.constantCount = c ? 1 : 0;
  pd.compute.constants = c;
  return wgpuDeviceCreateComputePipeline(ctx->device, &pd);
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPUShaderModule mods[8];
  int nm = 0;
  WGPUComputePipeline ps[16];
  int np = 0;

  /* Code with an explicit length, followed by bytes that are not WGSL. */
  size_t len = strlen(MU_DOUBLE_WGSL);
  char *buf = (char *)malloc(len + 16);
  memcpy(buf, MU_DOUBLE_WGSL, len);
  memcpy(buf + len, "@@@ not wgsl {{", 16);
  WGPUShaderModule m = NULL;
  EXPECT_NO_VALIDATION(&ctx, m = wgsl_sv(&ctx, mu_svn(buf, len)));
  mods[nm++] = m;
  EXPECT_NO_VALIDATION(&ctx, ps[np++] = make_pipe(&ctx, m, sv("main"), NULL));
  /* ... and cut short: a compile error. */
  EXPECT_VALIDATION(&ctx, mods[nm++] = wgsl_sv(&ctx, mu_svn(buf, len - 10)));
  /* NUL-terminated (WGPU_STRLEN) of the same text: fine. */
  EXPECT_NO_VALIDATION(&ctx, mods[nm++] = wgsl_sv(&ctx, sv(MU_DOUBLE_WGSL)));

  /* Null code = empty code: a valid module with no entry point. */
  WGPUShaderModule empty = NULL;
  EXPECT_NO_VALIDATION(&ctx, empty = wgsl_sv(&ctx, (WGPUStringView)WGPU_STRING_VIEW_INIT));
  mods[nm++] = empty;
  EXPECT_VALIDATION(&ctx, ps[np++] = make_pipe(&ctx, empty, sv("main"), NULL));
  EXPECT_NO_VALIDATION(&ctx, mods[nm++] = wgsl_sv(&ctx, mu_svn(NULL, 0)));

  /* Entry points. */
  EXPECT_NO_VALIDATION(&ctx, ps[np++] = make_pipe(&ctx, m, mu_svn("mainXYZ", 4), NULL));
  EXPECT_NO_VALIDATION(&ctx, ps[np++] = make_pipe(&ctx, m, (WGPUStringView)WGPU_STRING_VIEW_INIT, NULL));
  EXPECT_VALIDATION(&ctx, ps[np++] = make_pipe(&ctx, m, mu_svn("main", 0), NULL));  /* "" is not null */
  EXPECT_VALIDATION(&ctx, ps[np++] = make_pipe(&ctx, m, mu_svn("main", 3), NULL));  /* "mai" */
  WGPUShaderModule two = NULL;
  EXPECT_NO_VALIDATION(&ctx, two = wgsl_sv(&ctx, sv(TWO_ENTRIES)));
  mods[nm++] = two;
  EXPECT_VALIDATION(&ctx, ps[np++] = make_pipe(&ctx, two, (WGPUStringView)WGPU_STRING_VIEW_INIT, NULL));
  EXPECT_NO_VALIDATION(&ctx, ps[np++] = make_pipe(&ctx, two, mu_svn("secondary", 6), NULL));

  /* Override key with an explicit length. */
  WGPUConstantEntry ce = WGPU_CONSTANT_ENTRY_INIT;
  ce.key = mu_svn("kXYZ", 1);
  ce.value = 7;
  EXPECT_NO_VALIDATION(&ctx, ps[np++] = make_pipe(&ctx, two, sv("first"), &ce));
  ce.key = mu_svn("kXYZ", 2); /* "kX" */
  EXPECT_VALIDATION(&ctx, ps[np++] = make_pipe(&ctx, two, sv("first"), &ce));

  /* Labels and markers: any form, no error. */
  EXPECT_NO_VALIDATION(&ctx, {
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.size = 16;
    bd.usage = WGPUBufferUsage_CopyDst;
    WGPUStringView labels[5] = {sv("a"), mu_svn("abc", 2), mu_svn(NULL, 0), mu_svn("x", 0), WGPU_STRING_VIEW_INIT};
    for (int i = 0; i < 5; i++) {
      bd.label = labels[i];
      WGPUBuffer b = wgpuDeviceCreateBuffer(ctx.device, &bd);
      wgpuBufferSetLabel(b, labels[(i + 1) % 5]);
      wgpuBufferRelease(b);
      WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device, NULL);
      wgpuCommandEncoderPushDebugGroup(enc, labels[i]);
      wgpuCommandEncoderInsertDebugMarker(enc, labels[(i + 2) % 5]);
      wgpuCommandEncoderPopDebugGroup(enc);
      WGPUCommandBuffer cb = wgpuCommandEncoderFinish(enc, NULL);
      wgpuCommandBufferRelease(cb);
      wgpuCommandEncoderRelease(enc);
    }
  });

  CHECK_EQ(ctx.uncaptured_errors, 0);
  for (int i = 0; i < np; i++)
    if (ps[i]) wgpuComputePipelineRelease(ps[i]);
  for (int i = 0; i < nm; i++)
    if (mods[i]) wgpuShaderModuleRelease(mods[i]);
  free(buf);
  ctx_release(&ctx);
  return test_finish();
}
