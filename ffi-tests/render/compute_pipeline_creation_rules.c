/* Rule (WebGPU createComputePipeline): the module must be valid and its
 * entry point a compute one; the module and the layout must come from the
 * same device; the workgroup size must be within maxComputeWorkgroupSizeX/
 * Y/Z and maxComputeInvocationsPerWorkgroup; workgroup storage must fit
 * maxComputeWorkgroupStorageSize; with an explicit layout each resource the
 * shader uses must match the layout entry (buffer type, sampler kind,
 * texture sample type / dimension / multisampling, storage texture access /
 * format / dimension); a storage texture format must support the access.
 * Each violation is a validation error at creation with a non-NULL
 * pipeline; the valid neighbours raise nothing.
 * wgpu-core 30 does not enforce maxComputeWorkgroupStorageSize, and a
 * module or layout of another instance makes it panic (the call then gives
 * NULL and no error).
 * On OpenGL the storage-texture cases of a format the adapter has no
 * storage textures of (rg32uint) are left out, counted (probe: a texture
 * with StorageBinding usage, made on OpenGL only). The read_write cases of
 * rgba8unorm / rgba16float stay: wgpu-core's GL backend accepts them
 * (downlevel format features), which is ours to refuse.
 */
#include "pipeline_util.h"

static void expect_desc(Ctx *ctx, const WGPUComputePipelineDescriptor *d, int want_error, const char *what) {
  pl_expect_compute(ctx, d, want_error, what);
}

static void expect_code(Ctx *ctx, const char *code, WGPUPipelineLayout layout, int want_error, const char *what) {
  WGPUShaderModule m = make_wgsl(ctx->device, code);
  CHECK(m != NULL);
  WGPUComputePipelineDescriptor d = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  d.layout = layout;
  d.compute.module = m;
  d.compute.entryPoint = sv("main");
  expect_desc(ctx, &d, want_error, what);
  if (m) wgpuShaderModuleRelease(m);
}

/* A layout with one compute-visible entry at group 0 binding 0. */
static WGPUPipelineLayout layout_for(Ctx *ctx, const WGPUBindGroupLayoutEntry *e) {
  WGPUBindGroupLayoutDescriptor bd = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  bd.entryCount = 1;
  bd.entries = e;
  WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(ctx->device, &bd);
  WGPUPipelineLayoutDescriptor pd = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
  pd.bindGroupLayoutCount = 1;
  pd.bindGroupLayouts = &bgl;
  WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(ctx->device, &pd);
  wgpuBindGroupLayoutRelease(bgl);
  return pl;
}

typedef struct {
  const char *name;
  const char *wgsl; /* declaration of `res`, and its use */
  const char *use;
  int kind;         /* 0 buffer, 1 sampler, 2 texture, 3 storage texture */
  int type;         /* buffer / sampler / sample type, or storage access */
  WGPUTextureViewDimension dim;
  int ms;
  WGPUTextureFormat fmt;
} Res;

static const Res RES[] = {
    {"uniform", "var<uniform> res: array<vec4u, 16>", "res[0]", 0, WGPUBufferBindingType_Uniform, 0, 0, 0},
    {"storage", "var<storage, read_write> res: array<vec4u>", "res[0]", 0, WGPUBufferBindingType_Storage, 0, 0, 0},
    {"read-only storage", "var<storage> res: array<vec4u>", "res[0]", 0, WGPUBufferBindingType_ReadOnlyStorage, 0,
     0, 0},
    {"filtering sampler", "var res: sampler", "res", 1, WGPUSamplerBindingType_Filtering, 0, 0, 0},
    {"non-filtering sampler", "var res: sampler", "res", 1, WGPUSamplerBindingType_NonFiltering, 0, 0, 0},
    {"comparison sampler", "var res: sampler_comparison", "res", 1, WGPUSamplerBindingType_Comparison, 0, 0, 0},
    {"texture_2d<f32>", "var res: texture_2d<f32>", "res", 2, WGPUTextureSampleType_Float,
     WGPUTextureViewDimension_2D, 0, 0},
    {"unfilterable texture_2d<f32>", "var res: texture_2d<f32>", "res", 2, WGPUTextureSampleType_UnfilterableFloat,
     WGPUTextureViewDimension_2D, 0, 0},
    {"texture_2d<u32>", "var res: texture_2d<u32>", "res", 2, WGPUTextureSampleType_Uint,
     WGPUTextureViewDimension_2D, 0, 0},
    {"texture_2d<i32>", "var res: texture_2d<i32>", "res", 2, WGPUTextureSampleType_Sint,
     WGPUTextureViewDimension_2D, 0, 0},
    {"texture_2d_array<f32>", "var res: texture_2d_array<f32>", "res", 2, WGPUTextureSampleType_Float,
     WGPUTextureViewDimension_2DArray, 0, 0},
    {"texture_cube<f32>", "var res: texture_cube<f32>", "res", 2, WGPUTextureSampleType_Float,
     WGPUTextureViewDimension_Cube, 0, 0},
    {"texture_3d<f32>", "var res: texture_3d<f32>", "res", 2, WGPUTextureSampleType_Float,
     WGPUTextureViewDimension_3D, 0, 0},
    {"texture_multisampled_2d<f32>", "var res: texture_multisampled_2d<f32>", "res", 2,
     WGPUTextureSampleType_UnfilterableFloat, WGPUTextureViewDimension_2D, 1, 0},
    {"texture_depth_2d", "var res: texture_depth_2d", "res", 2, WGPUTextureSampleType_Depth,
     WGPUTextureViewDimension_2D, 0, 0},
    {"texture_depth_multisampled_2d", "var res: texture_depth_multisampled_2d", "res", 2,
     WGPUTextureSampleType_Depth, WGPUTextureViewDimension_2D, 1, 0},
    {"storage r32float write", "var res: texture_storage_2d<r32float, write>", "res", 3,
     WGPUStorageTextureAccess_WriteOnly, WGPUTextureViewDimension_2D, 0, WGPUTextureFormat_R32Float},
    {"storage r32float read", "var res: texture_storage_2d<r32float, read>", "res", 3,
     WGPUStorageTextureAccess_ReadOnly, WGPUTextureViewDimension_2D, 0, WGPUTextureFormat_R32Float},
    {"storage r32float read_write", "var res: texture_storage_2d<r32float, read_write>", "res", 3,
     WGPUStorageTextureAccess_ReadWrite, WGPUTextureViewDimension_2D, 0, WGPUTextureFormat_R32Float},
    {"storage r32uint write", "var res: texture_storage_2d<r32uint, write>", "res", 3,
     WGPUStorageTextureAccess_WriteOnly, WGPUTextureViewDimension_2D, 0, WGPUTextureFormat_R32Uint},
    {"storage 3d r32float write", "var res: texture_storage_3d<r32float, write>", "res", 3,
     WGPUStorageTextureAccess_WriteOnly, WGPUTextureViewDimension_3D, 0, WGPUTextureFormat_R32Float},
};
#define N_RES (sizeof RES / sizeof RES[0])

static WGPUBindGroupLayoutEntry entry_for(const Res *r) {
  WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  e.binding = 0;
  e.visibility = WGPUShaderStage_Compute;
  if (r->kind == 0) e.buffer.type = (WGPUBufferBindingType)r->type;
  if (r->kind == 1) e.sampler.type = (WGPUSamplerBindingType)r->type;
  if (r->kind == 2) {
    e.texture.sampleType = (WGPUTextureSampleType)r->type;
    e.texture.viewDimension = r->dim;
    e.texture.multisampled = r->ms ? WGPU_TRUE : WGPU_FALSE;
  }
  if (r->kind == 3) {
    e.storageTexture.access = (WGPUStorageTextureAccess)r->type;
    e.storageTexture.format = r->fmt;
    e.storageTexture.viewDimension = r->dim;
  }
  return e;
}

static int is_float(int t) { return t == WGPUTextureSampleType_Float || t == WGPUTextureSampleType_UnfilterableFloat; }

/* Whether a layout entry for `api` serves the shader's `wgsl` resource. */
static int matches(const Res *api, const Res *wgsl) {
  if (api->kind != wgsl->kind) return 0;
  switch (api->kind) {
    case 0: return api->type == wgsl->type;
    case 1:
      return api->type == wgsl->type ||
             (api->type != WGPUSamplerBindingType_Comparison && wgsl->type != WGPUSamplerBindingType_Comparison);
    case 2:
      return (api->type == wgsl->type || (is_float(api->type) && is_float(wgsl->type))) && api->dim == wgsl->dim &&
             api->ms == wgsl->ms;
    default:
      return (api->type == wgsl->type ||
              (api->type == WGPUStorageTextureAccess_ReadWrite && wgsl->type == WGPUStorageTextureAccess_WriteOnly)) &&
             api->fmt == wgsl->fmt && api->dim == wgsl->dim;
  }
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  WGPULimits lim = WGPU_LIMITS_INIT;
  REQUIRE(wgpuDeviceGetLimits(ctx.device, &lim) == WGPUStatus_Success);
  char what[512], code[1024];

  /* basic. */
  expect_code(&ctx, "@compute @workgroup_size(1) fn main() {}\n", NULL, 0, "a compute entry point");

  /* shader_module,invalid. */
  {
    WGPUShaderModule bad = NULL;
    EXPECT_VALIDATION(&ctx, bad = make_wgsl(ctx.device, "deadbeaf"));
    CHECK(bad != NULL);
    WGPUComputePipelineDescriptor d = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    d.compute.module = bad;
    d.compute.entryPoint = sv("main");
    expect_desc(&ctx, &d, 1, "an invalid shader module");
    if (bad) wgpuShaderModuleRelease(bad);
  }

  /* shader_module,compute: an entry point of another stage. */
  expect_code(&ctx, "@vertex fn main() -> @builtin(position) vec4f { return vec4f(); }\n", NULL, 1,
              "a vertex entry point named main");
  expect_code(&ctx, "@fragment fn main() -> @location(0) vec4f { return vec4f(); }\n", NULL, 1,
              "a fragment entry point named main");

  /* shader_module,device_mismatch and pipeline_layout,device_mismatch:
   * with a second device of the same instance, then of another instance. */
  for (int other_instance = 0; other_instance < 2; other_instance++) {
    WGPUInstance inst = other_instance ? create_instance(1) : ctx.instance;
    REQUIRE(inst != NULL);
    WGPUAdapter adapter = request_adapter(inst, UINT64_MAX);
    REQUIRE(adapter != NULL);
    WGPUDevice dev = request_device(inst, adapter, NULL, UINT64_MAX);
    REQUIRE(dev != NULL);
    const char *where = other_instance ? "another instance" : "the same instance";
    const char *cs = "@compute @workgroup_size(1) fn main() {}\n";
    WGPUShaderModule foreign = make_wgsl(dev, cs);
    WGPUShaderModule own = make_wgsl(ctx.device, cs);
    REQUIRE(foreign && own);
    WGPUComputePipelineDescriptor d = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    d.compute.module = foreign;
    d.compute.entryPoint = sv("main");
    snprintf(what, sizeof what, "a shader module of another device of %s", where);
    expect_desc(&ctx, &d, 1, what);
    WGPUPipelineLayoutDescriptor pd = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    WGPUPipelineLayout foreign_pl = wgpuDeviceCreatePipelineLayout(dev, &pd);
    WGPUPipelineLayout own_pl = wgpuDeviceCreatePipelineLayout(ctx.device, &pd);
    d.compute.module = own;
    d.layout = foreign_pl;
    snprintf(what, sizeof what, "a pipeline layout of another device of %s", where);
    expect_desc(&ctx, &d, 1, what);
    d.layout = own_pl;
    expect_desc(&ctx, &d, 0, "module and layout of this device");
    wgpuPipelineLayoutRelease(foreign_pl);
    wgpuPipelineLayoutRelease(own_pl);
    wgpuShaderModuleRelease(foreign);
    wgpuShaderModuleRelease(own);
    wgpuDeviceRelease(dev);
    wgpuAdapterRelease(adapter);
    if (other_instance) wgpuInstanceRelease(inst);
  }

  /* limits,workgroup_storage_size. */
  {
    const struct { const char *type; uint32_t size; } ty[] = {{"vec4f", 16}, {"mat4x4f", 64}};
    for (size_t t = 0; t < 2; t++) {
      for (uint32_t delta = 0; delta < 2; delta++) {
        uint32_t count = lim.maxComputeWorkgroupStorageSize / ty[t].size + delta;
        snprintf(code, sizeof code,
                 "var<workgroup> data: array<%s, %u>;\n@compute @workgroup_size(64) fn main() { _ = data; }\n",
                 ty[t].type, count);
        snprintf(what, sizeof what, "workgroup array<%s, %u>", ty[t].type, count);
        expect_code(&ctx, code, NULL, delta != 0, what);
      }
    }
  }

  /* limits,invocations_per_workgroup and each component. */
  {
    const uint32_t sz[][3] = {{128, 1, 2}, {129, 1, 2}, {2, 128, 1}, {2, 129, 1}, {1, 8, 32}, {1, 8, 33},
                              {64, 1, 1},  {256, 1, 1}, {257, 1, 1}, {1, 256, 1}, {1, 257, 1}, {1, 1, 63},
                              {1, 1, 64},  {1, 1, 65}};
    for (size_t i = 0; i < sizeof sz / sizeof sz[0]; i++) {
      snprintf(code, sizeof code, "@compute @workgroup_size(%u, %u, %u) fn main() {}\n", sz[i][0], sz[i][1],
               sz[i][2]);
      int ok = sz[i][0] <= lim.maxComputeWorkgroupSizeX && sz[i][1] <= lim.maxComputeWorkgroupSizeY &&
               sz[i][2] <= lim.maxComputeWorkgroupSizeZ &&
               (uint64_t)sz[i][0] * sz[i][1] * sz[i][2] <= lim.maxComputeInvocationsPerWorkgroup;
      snprintf(what, sizeof what, "workgroup_size(%u, %u, %u)", sz[i][0], sz[i][1], sz[i][2]);
      expect_code(&ctx, code, NULL, !ok, what);
    }
  }

  /* resource_compatibility: every layout entry against every shader use. */
  for (size_t a = 0; a < N_RES; a++) {
    WGPUBindGroupLayoutEntry e = entry_for(&RES[a]);
    WGPUPipelineLayout pl = layout_for(&ctx, &e);
    REQUIRE(pl != NULL);
    for (size_t w = 0; w < N_RES; w++) {
      snprintf(code, sizeof code, "@group(0) @binding(0) %s;\n@compute @workgroup_size(1) fn main() { _ = %s; }\n",
               RES[w].wgsl, RES[w].use);
      snprintf(what, sizeof what, "layout %s, shader %s", RES[a].name, RES[w].name);
      expect_code(&ctx, code, pl, !matches(&RES[a], &RES[w]), what);
    }
    wgpuPipelineLayoutRelease(pl);
  }

  /* storage_texture,format (auto layout): access must be supported. */
  {
    const struct { const char *fmt; WGPUTextureFormat f; const char *access; int ok; } st[] = {
        {"r32float", WGPUTextureFormat_R32Float, "write", 1},
        {"r32float", WGPUTextureFormat_R32Float, "read", 1},
        {"r32float", WGPUTextureFormat_R32Float, "read_write", 1},
        {"rgba8unorm", WGPUTextureFormat_RGBA8Unorm, "write", 1},
        {"rgba8unorm", WGPUTextureFormat_RGBA8Unorm, "read", 1},
        {"rgba8unorm", WGPUTextureFormat_RGBA8Unorm, "read_write", 0},
        {"rgba16float", WGPUTextureFormat_RGBA16Float, "read_write", 0},
        {"rg32uint", WGPUTextureFormat_RG32Uint, "write", 1},
        {"rg32uint", WGPUTextureFormat_RG32Uint, "read_write", 0},
    };
    int left_out = 0;
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++) {
      /* A format this (OpenGL) adapter has no storage textures of at all. */
      if (pl_gl_lacks_usage(&ctx, st[i].f, WGPUTextureUsage_StorageBinding)) {
        left_out++;
        continue;
      }
      snprintf(code, sizeof code,
               "@group(0) @binding(0) var tex: texture_storage_2d<%s, %s>;\n"
               "@compute @workgroup_size(1) fn main() { _ = tex; }\n",
               st[i].fmt, st[i].access);
      snprintf(what, sizeof what, "storage texture %s, %s", st[i].fmt, st[i].access);
      /* A bad format/access pair may be caught when the module is made; a
       * validation error is what matters, so module and pipeline share the
       * scope. */
      PopResult r;
      WGPUComputePipeline pipe = NULL;
      RU_CAPTURE(&ctx, &r, {
        WGPUShaderModule m = make_wgsl(ctx.device, code);
        WGPUComputePipelineDescriptor d = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
        d.compute.module = m;
        d.compute.entryPoint = sv("main");
        pipe = wgpuDeviceCreateComputePipeline(ctx.device, &d);
        if (m) wgpuShaderModuleRelease(m);
      });
      pl_check_outcome(&r, !st[i].ok, what);
      CHECK(pipe != NULL);
      if (pipe) wgpuComputePipelineRelease(pipe);
    }
    pl_report_left_out(left_out, "OpenGL has no storage textures of these formats (wgpu-core's downlevel "
                                 "format features: no rg32uint image format in GLES 3.1)");
  }

  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
