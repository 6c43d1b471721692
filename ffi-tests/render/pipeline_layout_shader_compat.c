/* Rule (WebGPU create{Render,Compute}Pipeline with an explicit layout):
 * each binding a stage statically uses must be in the layout with the same
 * binding type (a NonFiltering layout sampler serves a WGSL `sampler`; a
 * ReadWrite storage texture serves a write-only one) and with that stage in
 * its visibility; a declared but unused binding is not checked. Violations
 * are a validation error at pipeline creation with a non-NULL pipeline; the
 * valid neighbours raise nothing. Swept over 11 layout types x 10 shader
 * types x 4 visibilities x 3 stages x used / unused (storage buffers and
 * writable storage textures are left out of the vertex stage). */
#include "pipeline_util.h"

enum { UNIFORM, STORAGE, RO_STORAGE, FILT, NONFILT, COMPARE, TEX, TEX_MS, RO_ST, WO_ST, RW_ST, N_RES };
static const char *const NAMES[N_RES] = {"uniform", "storage", "read-only storage", "filtering sampler",
                                         "non-filtering sampler", "comparison sampler", "texture_2d",
                                         "texture_multisampled_2d", "read storage texture",
                                         "write storage texture", "read_write storage texture"};
static const char *const DECL[N_RES] = {
    "var<uniform> tmp: vec4u",
    "var<storage, read_write> tmp: vec4u",
    "var<storage, read> tmp: vec4u",
    "var tmp: sampler",
    "var tmp: sampler",
    "var tmp: sampler_comparison",
    "var tmp: texture_2d<f32>",
    "var tmp: texture_multisampled_2d<f32>",
    "var tmp: texture_storage_2d<r32float, read>",
    "var tmp: texture_storage_2d<r32float, write>",
    "var tmp: texture_storage_2d<r32float, read_write>",
};

static WGPUPipelineLayout make_layout(Ctx *ctx, int res, WGPUShaderStage vis) {
  WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  e.binding = 0;
  e.visibility = vis;
  switch (res) {
    case UNIFORM: e.buffer.type = WGPUBufferBindingType_Uniform; break;
    case STORAGE: e.buffer.type = WGPUBufferBindingType_Storage; break;
    case RO_STORAGE: e.buffer.type = WGPUBufferBindingType_ReadOnlyStorage; break;
    case FILT: e.sampler.type = WGPUSamplerBindingType_Filtering; break;
    case NONFILT: e.sampler.type = WGPUSamplerBindingType_NonFiltering; break;
    case COMPARE: e.sampler.type = WGPUSamplerBindingType_Comparison; break;
    case TEX:
    case TEX_MS:
      e.texture.sampleType = WGPUTextureSampleType_UnfilterableFloat;
      e.texture.viewDimension = WGPUTextureViewDimension_2D;
      e.texture.multisampled = res == TEX_MS ? WGPU_TRUE : WGPU_FALSE;
      break;
    default:
      e.storageTexture.format = WGPUTextureFormat_R32Float;
      e.storageTexture.viewDimension = WGPUTextureViewDimension_2D;
      e.storageTexture.access = res == RO_ST   ? WGPUStorageTextureAccess_ReadOnly
                                : res == WO_ST ? WGPUStorageTextureAccess_WriteOnly
                                               : WGPUStorageTextureAccess_ReadWrite;
  }
  WGPUBindGroupLayoutDescriptor bd = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  bd.entryCount = 1;
  bd.entries = &e;
  WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(ctx->device, &bd);
  WGPUPipelineLayoutDescriptor pd = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
  pd.bindGroupLayoutCount = 1;
  pd.bindGroupLayouts = &bgl;
  WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(ctx->device, &pd);
  wgpuBindGroupLayoutRelease(bgl);
  return pl;
}

/* Whether `res` may be visible to (or used by) the vertex stage. */
static int vertex_ok(int res) { return res != STORAGE && res != WO_ST && res != RW_ST; }

int main(void) {
  start_watchdog(120);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);
  const WGPUShaderStage vis[] = {WGPUShaderStage_Vertex, WGPUShaderStage_Fragment, WGPUShaderStage_Compute,
                                 WGPUShaderStage_Vertex | WGPUShaderStage_Fragment | WGPUShaderStage_Compute};
  const WGPUShaderStage stages[] = {WGPUShaderStage_Vertex, WGPUShaderStage_Fragment, WGPUShaderStage_Compute};
  WGPUShaderModule plain_vs =
      make_wgsl(ctx.device, "@vertex fn main() -> @builtin(position) vec4f { return vec4f(); }\n");
  REQUIRE(plain_vs != NULL);
  int failures_before = harness_failed;
  int cases = 0;
  char code[1024], what[512];

  for (int lr = 0; lr < N_RES; lr++) {
    for (size_t v = 0; v < sizeof vis / sizeof vis[0]; v++) {
      if ((vis[v] & WGPUShaderStage_Vertex) && !vertex_ok(lr)) continue;
      WGPUPipelineLayout pl = make_layout(&ctx, lr, vis[v]);
      REQUIRE(pl != NULL);
      for (int sr = 0; sr < N_RES; sr++) {
        if (sr == NONFILT) continue; /* same WGSL as FILT */
        for (size_t s = 0; s < 3; s++) {
          if (stages[s] == WGPUShaderStage_Vertex && !vertex_ok(sr)) continue;
          for (int used = 0; used < 2; used++) {
            const char *use = used ? "_ = tmp;" : "";
            int ok = 1;
            if (used) {
              ok = lr == sr || (lr == NONFILT && sr == FILT) || (lr == RW_ST && sr == WO_ST);
              ok = ok && (vis[v] & stages[s]) != 0;
            }
            PopResult r;
            int is_null = 0;
            RU_CAPTURE(&ctx, &r, {
              if (stages[s] == WGPUShaderStage_Compute) {
                snprintf(code, sizeof code, "@group(0) @binding(0) %s;\n@compute @workgroup_size(1) fn main() { %s }\n",
                         DECL[sr], use);
                WGPUShaderModule m = make_wgsl(ctx.device, code);
                WGPUComputePipelineDescriptor d = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
                d.layout = pl;
                d.compute.module = m;
                d.compute.entryPoint = sv("main");
                WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(ctx.device, &d);
                is_null = p == NULL;
                if (p) wgpuComputePipelineRelease(p);
                if (m) wgpuShaderModuleRelease(m);
              } else {
                int vertex = stages[s] == WGPUShaderStage_Vertex;
                if (vertex)
                  snprintf(code, sizeof code,
                           "@group(0) @binding(0) %s;\n"
                           "@vertex fn main() -> @builtin(position) vec4f { %s return vec4f(); }\n",
                           DECL[sr], use);
                else
                  snprintf(code, sizeof code,
                           "@group(0) @binding(0) %s;\n"
                           "@fragment fn main() -> @location(0) vec4f { %s return vec4f(); }\n",
                           DECL[sr], use);
                WGPUShaderModule m = make_wgsl(ctx.device, code);
                WGPUColorTargetState target;
                WGPUFragmentState frag;
                WGPURenderPipelineDescriptor d;
                pl_render_init(&d, &frag, &target, m);
                frag.entryPoint = sv("main");
                WGPUDepthStencilState ds =
                    pl_depth_state(WGPUTextureFormat_Depth32Float, WGPUOptionalBool_True, WGPUCompareFunction_Always);
                d.layout = pl;
                d.vertex.module = vertex ? m : plain_vs;
                d.vertex.entryPoint = sv("main");
                if (vertex) {
                  d.depthStencil = &ds;
                  d.fragment = NULL;
                }
                WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(ctx.device, &d);
                is_null = p == NULL;
                if (p) wgpuRenderPipelineRelease(p);
                if (m) wgpuShaderModuleRelease(m);
              }
            });
            cases++;
            snprintf(what, sizeof what, "layout %s (visibility %d), %s shader %s %s: expected %s (got type %d: %.300s)",
                     NAMES[lr], (int)vis[v], stages[s] == WGPUShaderStage_Vertex ? "vertex"
                                            : stages[s] == WGPUShaderStage_Fragment ? "fragment" : "compute",
                     used ? "using" : "declaring", NAMES[sr], ok ? "no error" : "a validation error", (int)r.type,
                     r.msg);
            harness_check(ok ? r.type == WGPUErrorType_NoError : r.type == WGPUErrorType_Validation, what, __FILE__,
                          __LINE__);
            harness_check(!is_null, "pipeline is not NULL", __FILE__, __LINE__);
          }
        }
      }
      wgpuPipelineLayoutRelease(pl);
    }
  }
  printf("%d cases, %d failed checks\n", cases, harness_failed - failures_before);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuShaderModuleRelease(plain_vs);
  ctx_release(&ctx);
  return test_finish();
}
