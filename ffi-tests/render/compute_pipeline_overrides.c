/* Rule (WebGPU createComputePipeline, pipeline-overridable constants): each
 * constant key must name an override of the module by its WGSL name
 * (compared as exact UTF-8 bytes, no Unicode normalisation, no trailing NUL)
 * or by its decimal @id, and an override with an @id is named by the id
 * only; every override without an initializer that the entry point uses
 * needs a value; a value must be finite and representable in the
 * override's type (u32, i32, f32; any value for bool); an override
 * expression that fails (1u / 0u) is an error only for an entry point that
 * uses it; workgroup_size from overrides must be >= 1 and within the
 * limits; workgroup arrays sized by overrides must fit
 * maxComputeWorkgroupStorageSize. Each violation is a validation error at
 * creation with a non-NULL pipeline; the valid neighbours raise nothing.
 * wgpu-core 30 checks workgroup sizes and workgroup storage only before
 * the overrides are applied.
 */
#include "pipeline_util.h"

#include <math.h>

static void expect_compute(Ctx *ctx, const char *code, const char *entry, const WGPUConstantEntry *c, size_t n,
                           int want_error, const char *what) {
  WGPUShaderModule m = make_wgsl(ctx->device, code);
  CHECK(m != NULL);
  WGPUComputePipelineDescriptor d = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  d.compute.module = m;
  d.compute.entryPoint = sv(entry);
  d.compute.constantCount = n;
  d.compute.constants = c;
  pl_expect_compute(ctx, &d, want_error, what);
  if (m) wgpuShaderModuleRelease(m);
}

/* U+00E9 precomposed in the shader; the key spells it e + U+0301. */
static const char *const IDENT_WGSL =
    "override c0: bool = true;\n"
    "override c1: u32 = 0u;\n"
    "override \xe6\x95\xb0: u32 = 0u;\n"
    "override s\xc3\xa9quence: u32 = 0u;\n"
    "@id(1000) override c2: u32 = 10u;\n"
    "@id(1) override c3: u32 = 11u;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  _ = u32(c0); _ = u32(c1); _ = u32(c2 + s\xc3\xa9quence); _ = u32(c3 + \xe6\x95\xb0);\n"
    "}\n";

static const char *const UNINIT_WGSL =
    "override c0: bool;\n override c1: bool = false;\n override c2: f32;\n override c3: f32 = 0.0;\n"
    "override c5: i32;\n override c6: i32 = 0;\n override c8: u32;\n @id(1000) override c10: u32 = 10u;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  _ = u32(c0); _ = u32(c1); _ = u32(c2); _ = u32(c3); _ = u32(c5); _ = u32(c6); _ = u32(c8); _ = u32(c10);\n"
    "}\n";

static const char *const VALUE_WGSL =
    "override cb: bool = false;\n override cu: u32 = 0u;\n override ci: i32 = 0;\n override cf: f32 = 0.0;\n"
    "@compute @workgroup_size(1) fn main() { _ = cb; _ = cu; _ = ci; _ = cf; }\n";

static const char *const ENTRY_WGSL =
    "override cu: u32 = 0u;\n"
    "override cx: u32 = 1u / cu;\n"
    "@compute @workgroup_size(1) fn main_ok() { _ = cu; }\n"
    "@compute @workgroup_size(1) fn main_bad() { _ = cx; }\n";

int main(void) {
  start_watchdog(30);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPULimits lim = WGPU_LIMITS_INIT;
  REQUIRE(wgpuDeviceGetLimits(ctx.device, &lim) == WGPUStatus_Success);
  char what[256];

  /* overrides,identifier. */
  struct { const char *key; size_t len; int bad; } ids[] = {
      {"c0", WGPU_STRLEN, 0},     {"c0\0", 3, 1},         {"c9", WGPU_STRLEN, 1},
      {"1", WGPU_STRLEN, 0},      {"c3", WGPU_STRLEN, 1}, {"2", WGPU_STRLEN, 1},
      {"1000", WGPU_STRLEN, 0},   {"9999", WGPU_STRLEN, 1}, {"c2", WGPU_STRLEN, 1},
      {"\xe6\x95\xb0", WGPU_STRLEN, 0}, {"se\xcc\x81quence", WGPU_STRLEN, 1},
      {"s\xc3\xa9quence", WGPU_STRLEN, 0},
  };
  expect_compute(&ctx, IDENT_WGSL, "main", NULL, 0, 0, "no constants");
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    WGPUStringView k = {ids[i].key, ids[i].len};
    WGPUConstantEntry e = pl_constant(k, 0);
    snprintf(what, sizeof what, "constant key #%llu (\"%s\"%s)", (unsigned long long)i, ids[i].key, ids[i].len == 3 ? " + NUL" : "");
    expect_compute(&ctx, IDENT_WGSL, "main", &e, 1, ids[i].bad, what);
  }
  {
    WGPUConstantEntry two[] = {pl_constant(sv("c0"), 0), pl_constant(sv("c1"), 1)};
    expect_compute(&ctx, IDENT_WGSL, "main", two, 2, 0, "keys c0 and c1");
    WGPUConstantEntry id_and_name[] = {pl_constant(sv("1000"), 0), pl_constant(sv("c2"), 0)};
    expect_compute(&ctx, IDENT_WGSL, "main", id_and_name, 2, 1, "keys 1000 and c2 (c2 has an @id)");
  }

  /* overrides,uninitialized. */
  {
    WGPUConstantEntry c[] = {pl_constant(sv("c0"), 0), pl_constant(sv("c2"), 0), pl_constant(sv("c8"), 0),
                             pl_constant(sv("c5"), 0), pl_constant(sv("c1"), 0)};
    expect_compute(&ctx, UNINIT_WGSL, "main", NULL, 0, 1, "no values for c0, c2, c5, c8");
    expect_compute(&ctx, UNINIT_WGSL, "main", c, 3, 1, "no value for c5");
    expect_compute(&ctx, UNINIT_WGSL, "main", c, 4, 0, "values for c0, c2, c5, c8");
    expect_compute(&ctx, UNINIT_WGSL, "main", c, 5, 0, "values for c0, c2, c5, c8 and c1");
  }

  /* overrides,value,type_error: NaN and infinities. */
  {
    const double v[] = {1.0, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < 4; i++) {
      WGPUConstantEntry e = pl_constant(sv("cf"), v[i]);
      snprintf(what, sizeof what, "f32 override = %g", v[i]);
      expect_compute(&ctx, VALUE_WGSL, "main", &e, 1, i != 0, what);
    }
    WGPUConstantEntry e = pl_constant(sv("cu"), NAN);
    expect_compute(&ctx, VALUE_WGSL, "main", &e, 1, 1, "u32 override = NaN");
  }

  /* overrides,value,validation_error: representability. */
  {
    const double f32max = 3.4028234663852886e+38, f32over = 3.4028235677973366e+38;
    struct { const char *k; double v; int ok; } vc[] = {
        {"cu", 0.0, 1},           {"cu", -1.0, 0},          {"cu", 4294967295.0, 1}, {"cu", 4294967296.0, 0},
        {"ci", -2147483648.0, 1}, {"ci", -2147483649.0, 0}, {"ci", 2147483647.0, 1}, {"ci", 2147483648.0, 0},
        {"cf", -f32max, 1},       {"cf", -f32over, 0},      {"cf", f32max, 1},       {"cf", f32over, 0},
        {"cb", 1.7976931348623157e308, 1}, {"cb", -2147483649.0, 1},
    };
    for (size_t i = 0; i < sizeof vc / sizeof vc[0]; i++) {
      WGPUConstantEntry e = pl_constant(sv(vc[i].k), vc[i].v);
      snprintf(what, sizeof what, "%s = %.17g", vc[i].k, vc[i].v);
      expect_compute(&ctx, VALUE_WGSL, "main", &e, 1, !vc[i].ok, what);
    }
  }

  /* overrides,entry_point,validation_error. */
  expect_compute(&ctx, ENTRY_WGSL, "main_ok", NULL, 0, 0, "entry point not using 1u / 0u");
  expect_compute(&ctx, ENTRY_WGSL, "main_bad", NULL, 0, 1, "entry point using 1u / 0u");

  /* overrides,workgroup_size. */
  for (int t = 0; t < 2; t++) {
    char code[512];
    const char *ty = t ? "i32" : "u32";
    snprintf(code, sizeof code,
             "override x: %s = 1;\noverride y: %s = 1;\noverride z: %s = 1;\n"
             "@compute @workgroup_size(x, y, z) fn main() { _ = 0u; }\n",
             ty, ty, ty);
    struct { double x, y, z; int ok; } ws[] = {
        {0, 0, 0, 0}, {1, -1, 1, 0}, {1, 0, 0, 0}, {16, 1, 1, 1},
        {lim.maxComputeWorkgroupSizeX, 1, 1, 1}, {lim.maxComputeWorkgroupSizeX + 1, 1, 1, 0},
        {1, lim.maxComputeWorkgroupSizeY, 1, 1}, {1, lim.maxComputeWorkgroupSizeY + 1, 1, 0},
        {1, 1, lim.maxComputeWorkgroupSizeZ, 1}, {1, 1, lim.maxComputeWorkgroupSizeZ + 1, 0},
        {lim.maxComputeWorkgroupSizeX, lim.maxComputeWorkgroupSizeY, lim.maxComputeWorkgroupSizeZ,
         (uint64_t)lim.maxComputeWorkgroupSizeX * lim.maxComputeWorkgroupSizeY * lim.maxComputeWorkgroupSizeZ <=
             lim.maxComputeInvocationsPerWorkgroup},
    };
    for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++) {
      if (t == 0 && ws[i].y < 0) continue; /* -1 is a u32 representability error, tested above */
      WGPUConstantEntry c[] = {pl_constant(sv("x"), ws[i].x), pl_constant(sv("y"), ws[i].y),
                               pl_constant(sv("z"), ws[i].z)};
      snprintf(what, sizeof what, "%s workgroup_size from overrides (%g, %g, %g)", ty, ws[i].x, ws[i].y, ws[i].z);
      expect_compute(&ctx, code, "main", c, 3, !ws[i].ok, what);
    }
  }

  /* overrides,workgroup_size,limits,workgroup_storage_size. */
  {
    const char *code =
        "override a: u32;\noverride b: u32;\n"
        "var<workgroup> v4: array<vec4f, a>;\nvar<workgroup> m4: array<mat4x4f, b>;\n"
        "@compute @workgroup_size(1) fn main() { _ = v4[0]; _ = m4[0]; }\n";
    uint32_t max_v4 = lim.maxComputeWorkgroupStorageSize / 16, max_m4 = lim.maxComputeWorkgroupStorageSize / 64;
    WGPUConstantEntry c[] = {pl_constant(sv("a"), 1), pl_constant(sv("b"), 1)};
    expect_compute(&ctx, code, "main", c, 2, 0, "override-sized workgroup arrays of 1 and 1");
    c[0].value = max_v4 + 1;
    expect_compute(&ctx, code, "main", c, 2, 1, "override-sized vec4f array of limit/16 + 1");
    c[0].value = 1;
    c[1].value = max_m4 + 1;
    expect_compute(&ctx, code, "main", c, 2, 1, "override-sized mat4x4f array of limit/64 + 1");
    c[0].value = max_v4 - 4;
    c[1].value = 1;
    expect_compute(&ctx, code, "main", c, 2, 0, "override-sized arrays exactly at the limit");
    c[0].value = max_v4 - 3;
    expect_compute(&ctx, code, "main", c, 2, 1, "override-sized arrays 16 bytes over the limit");
  }

  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
