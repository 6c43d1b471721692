/* Rule (WebGPU createPipelineLayout):
 * - at most maxBindGroups bind group layouts (exactly the maximum is valid,
 *   one more is a validation error);
 * - a bindGroupLayouts slot may be NULL (or an empty layout), anywhere in
 *   the list: valid;
 * - the dynamic uniform / storage buffers of all the layouts together may
 *   not exceed maxDynamicUniformBuffersPerPipelineLayout /
 *   maxDynamicStorageBuffersPerPipelineLayout (a layout at the maximum plus
 *   one with a non-dynamic buffer is valid, plus one with a dynamic buffer
 *   is not), for each visibility (none, Fragment, Compute, both);
 * - immediateSize must be a multiple of 4 and at most maxImmediateSize;
 * - every bind group layout must come from the same device;
 * - a pipeline made with a layout whose slot i is NULL is valid if its
 *   shader uses no @group(i), and a validation error if it does; setting
 *   such a pipeline with bind groups in the other slots (and NULL, or
 *   nothing, in slot i) and drawing / dispatching gives a command buffer
 *   that submits without error.
 * Each error still returns a (invalid) object. Ports CTS createPipelineLayout
 * number_of_bind_group_layouts_exceeds_the_maximum_value,
 * bind_group_layouts,null_bind_group_layouts,
 * number_of_dynamic_buffers_exceeds_the_maximum_value, immediate_data_size,
 * bind_group_layouts,device_mismatch,
 * bind_group_layouts,create_pipeline_with_null_bind_group_layouts and
 * bind_group_layouts,set_pipeline_with_null_bind_group_layouts. */
#include "../render/set_bind_group_util.h"

/* Creates a pipeline layout for the case (expecting a validation error or
 * not), checks it is not NULL and releases it. */
static void pl_case_desc(Ctx *ctx, int want_error, const WGPUPipelineLayoutDescriptor *d) {
  WGPUPipelineLayout pl = NULL;
  BG_EXPECT(ctx, want_error, pl = wgpuDeviceCreatePipelineLayout(ctx->device, d));
  CHECK(pl != NULL);
  if (pl) wgpuPipelineLayoutRelease(pl);
}

static WGPUPipelineLayoutDescriptor pl_desc(const WGPUBindGroupLayout *l, size_t n) {
  WGPUPipelineLayoutDescriptor d = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
  d.bindGroupLayoutCount = n;
  d.bindGroupLayouts = l;
  return d;
}

static void pl_case(Ctx *ctx, int want_error, const WGPUBindGroupLayout *l, size_t n) {
  WGPUPipelineLayoutDescriptor d = pl_desc(l, n);
  pl_case_desc(ctx, want_error, &d);
}

/* WGSL with @group(i) @binding(0) var<uniform> u32 for i in 0..3 except
 * `skip` (-1: none), read in the fragment / compute entry point. */
static WGPUShaderModule null_slot_module(Ctx *ctx, int compute, int skip) {
  char src[2048], decl[512] = "", use[256] = "  _ = 1u";
  for (int i = 0; i < 4; i++) {
    if (i == skip) continue;
    char line[128];
    snprintf(line, sizeof line, "@group(%d) @binding(0) var<uniform> in%d : u32;\n", i, i);
    strcat(decl, line);
    snprintf(line, sizeof line, " + in%d", i);
    strcat(use, line);
  }
  if (compute)
    snprintf(src, sizeof src, "%s@compute @workgroup_size(1) fn cs() {\n%s;\n}\n", decl, use);
  else
    snprintf(src, sizeof src,
             "%s@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0, 0, 0, 1); }\n"
             "@fragment fn fs() -> @location(0) vec4f {\n%s;\n  return vec4f(0, 0, 0, 1);\n}\n",
             decl, use);
  return make_wgsl(ctx->device, src);
}

/* render_util.h's pipeline (entry points vs and fs, one RGBA8Unorm target:
 * SBG_TARGET_FORMAT) without its vertex buffer, on layout pl. */
static WGPURenderPipeline render_pipeline(Ctx *ctx, WGPUPipelineLayout pl, WGPUShaderModule m) {
  RuPipeline p;
  ru_pipeline_init(&p, m);
  p.desc.layout = pl;
  p.desc.vertex.bufferCount = 0;
  p.desc.vertex.buffers = NULL;
  return wgpuDeviceCreateRenderPipeline(ctx->device, &p.desc);
}

static WGPUComputePipeline compute_pipeline(Ctx *ctx, WGPUPipelineLayout pl, WGPUShaderModule m) {
  WGPUComputePipelineDescriptor d = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  d.layout = pl;
  d.compute.module = m;
  d.compute.entryPoint = sv("cs");
  return wgpuDeviceCreateComputePipeline(ctx->device, &d);
}

int main(void) {
  Ctx ctx;
  if (!bg_start(&ctx, 60)) return test_finish();
  WGPULimits lim = bg_limits(&ctx);

  /* number_of_bind_group_layouts_exceeds_the_maximum_value */
  {
    BG_REQUIRE(&ctx, lim.maxBindGroups < 64);
    WGPUBindGroupLayout empty = bg_layout(&ctx, NULL, 0);
    CHECK(empty != NULL);
    WGPUBindGroupLayout l[64];
    for (int i = 0; i < 64; i++) l[i] = empty;
    bg_case("%u layouts (maxBindGroups)", lim.maxBindGroups);
    pl_case(&ctx, 0, l, lim.maxBindGroups);
    bg_case("%u layouts (maxBindGroups + 1)", lim.maxBindGroups + 1);
    pl_case(&ctx, 1, l, lim.maxBindGroups + 1);
    wgpuBindGroupLayoutRelease(empty);
  }

  /* bind_group_layouts,null_bind_group_layouts */
  {
    WGPUBindGroupLayout empty = bg_layout(&ctx, NULL, 0);
    WGPUBindGroupLayoutEntry te = bg_texture_entry(0, WGPUShaderStage_Compute, WGPUTextureSampleType_Float,
                                                   WGPUTextureViewDimension_2D, 0);
    WGPUBindGroupLayout full = bg_layout(&ctx, &te, 1);
    for (size_t count = 1; count <= 4; count++)
      for (size_t pos = 0; pos < count; pos++)
        for (int as_empty = 0; as_empty <= 1; as_empty++) {
          WGPUBindGroupLayout l[4];
          for (size_t i = 0; i < count; i++) l[i] = i == pos ? (as_empty ? empty : NULL) : full;
          bg_case("%llu layouts, slot %llu %s", (unsigned long long)count, (unsigned long long)pos, as_empty ? "an empty layout" : "NULL");
          pl_case(&ctx, 0, l, count);
        }
    /* More than one NULL slot, and all slots NULL. */
    WGPUBindGroupLayout l2[4] = {NULL, full, NULL, NULL};
    bg_case("slots 0, 2 and 3 NULL");
    pl_case(&ctx, 0, l2, 4);
    wgpuBindGroupLayoutRelease(empty);
    wgpuBindGroupLayoutRelease(full);
  }

  /* number_of_dynamic_buffers_exceeds_the_maximum_value */
  {
    const WGPUShaderStage vis[] = {WGPUShaderStage_None, WGPUShaderStage_Fragment, WGPUShaderStage_Compute,
                                   WGPUShaderStage_Fragment | WGPUShaderStage_Compute};
    for (size_t v = 0; v < 4; v++)
      for (size_t t = 0; t < BG_BUFFER_TYPE_COUNT; t++) {
        const WGPUBufferBindingType type = BG_BUFFER_TYPES[t];
        uint32_t max_dyn = bg_max_dynamic(&lim, type), per_stage = bg_max_per_stage(&lim, type);
        uint32_t n = max_dyn < per_stage ? max_dyn : per_stage;
        WGPUBindGroupLayoutEntry e[64];
        BG_REQUIRE(&ctx, n <= 64);
        for (uint32_t i = 0; i < n; i++) e[i] = bg_buffer_entry(i, vis[v], type, 1);
        WGPUBindGroupLayout bgl0 = bg_layout(&ctx, e, n);
        WGPUBindGroupLayoutEntry se = bg_buffer_entry(0, vis[v], type, 0);
        WGPUBindGroupLayoutEntry de = bg_buffer_entry(0, vis[v], type, 1);
        WGPUBindGroupLayout good = bg_layout(&ctx, &se, 1);
        WGPUBindGroupLayout bad = bg_layout(&ctx, &de, 1);
        if (per_stage > n) {
          WGPUBindGroupLayout l[2] = {bgl0, good};
          bg_case("%u dynamic %s buffers + 1 static one, visibility 0x%x", n, BG_BUFFER_TYPE_NAMES[t],
                  (unsigned)vis[v]);
          pl_case(&ctx, 0, l, 2);
        }
        WGPUBindGroupLayout l[2] = {bgl0, bad};
        bg_case("%u dynamic %s buffers + 1 more dynamic one in another layout, visibility 0x%x", n,
                BG_BUFFER_TYPE_NAMES[t], (unsigned)vis[v]);
        pl_case(&ctx, 1, l, 2);
        wgpuBindGroupLayoutRelease(bgl0);
        wgpuBindGroupLayoutRelease(good);
        wgpuBindGroupLayoutRelease(bad);
      }
  }

  /* immediate_data_size */
  {
    uint32_t max = lim.maxImmediateSize;
    uint32_t sizes[] = {0, 1, 2, 3, 4, 5, max, max + 4};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
      WGPUPipelineLayoutDescriptor d = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
      d.immediateSize = sizes[i];
      int ok = sizes[i] % 4 == 0 && sizes[i] <= max;
      bg_case("immediateSize %u (maxImmediateSize %u)", sizes[i], max);
      pl_case_desc(&ctx, !ok, &d);
    }
  }

  /* bind_group_layouts,device_mismatch */
  {
    BgOther other;
    BG_REQUIRE(&ctx, bg_other_open(&ctx, &other));
    WGPUBindGroupLayout mine = bg_layout(&ctx, NULL, 0);
    WGPUBindGroupLayout theirs = bg_layout_on(other.device, NULL, 0);
    WGPUBindGroupLayout l[3][2] = {{mine, mine}, {theirs, mine}, {mine, theirs}};
    for (int i = 0; i < 3; i++) {
      bg_case("layouts %s, %s", l[i][0] == mine ? "same device" : "other device",
              l[i][1] == mine ? "same device" : "other device");
      pl_case(&ctx, i != 0, l[i], 2);
    }
    wgpuBindGroupLayoutRelease(mine);
    wgpuBindGroupLayoutRelease(theirs);
    bg_other_close(&other);
  }

  /* create / set pipeline with a NULL slot */
  {
    WGPUBindGroupLayoutEntry ue =
        bg_buffer_entry(0, WGPUShaderStage_Compute | WGPUShaderStage_Fragment, WGPUBufferBindingType_Uniform, 0);
    WGPUBindGroupLayout u = bg_layout(&ctx, &ue, 1);
    WGPUBuffer ub = make_buffer(ctx.device, 4, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, 0);
    WGPUBindGroupEntry be = bg_buf(0, ub, 0, 4);
    WGPUBindGroup g = bg_group(&ctx, u, &be, 1);
    for (int compute = 0; compute <= 1; compute++)
      for (int empty = 0; empty < 4; empty++) {
        WGPUBindGroupLayout l[4];
        for (int i = 0; i < 4; i++) l[i] = i == empty ? NULL : u;
        WGPUPipelineLayoutDescriptor pld = pl_desc(l, 4);
        WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(ctx.device, &pld);
        for (int missed = 0; missed <= 1; missed++) {
          WGPUShaderModule m = null_slot_module(&ctx, compute, missed ? empty : -1);
          bg_case("%s pipeline, slot %d NULL, shader %s @group(%d)", compute ? "compute" : "render", empty,
                  missed ? "without" : "with", empty);
          void *p = NULL;
          BG_EXPECT(&ctx, !missed,
                    p = compute ? (void *)compute_pipeline(&ctx, pl, m) : (void *)render_pipeline(&ctx, pl, m));
          CHECK(p != NULL);
          if (!missed) {
            if (p) compute ? wgpuComputePipelineRelease(p) : wgpuRenderPipelineRelease(p);
            wgpuShaderModuleRelease(m);
            continue;
          }
          /* set_pipeline_with_null_bind_group_layouts */
          for (int set_empty = 0; set_empty <= 1; set_empty++) {
            SbgEncoder e;
            sbg_begin(&ctx, &e, compute ? SBG_COMPUTE_PASS : SBG_RENDER_PASS);
            for (int i = 0; i < 4; i++)
              if (i != empty || set_empty) sbg_set(&e, (uint32_t)i, i == empty ? NULL : g, 0, NULL);
            if (compute) {
              wgpuComputePassEncoderSetPipeline(e.cpass, p);
              wgpuComputePassEncoderDispatchWorkgroups(e.cpass, 1, 1, 1);
            } else {
              wgpuRenderPassEncoderSetPipeline(e.rpass, p);
              wgpuRenderPassEncoderDraw(e.rpass, 1, 1, 0, 0);
            }
            bg_case("%s pass with slot %d NULL in the layout, %s", compute ? "compute" : "render", empty,
                    set_empty ? "SetBindGroup(NULL) there" : "nothing set there");
            sbg_validate(&ctx, &e, 1, 1);
          }
          if (p) compute ? wgpuComputePipelineRelease(p) : wgpuRenderPipelineRelease(p);
          wgpuShaderModuleRelease(m);
        }
        wgpuPipelineLayoutRelease(pl);
      }
    wgpuBindGroupRelease(g);
    wgpuBufferRelease(ub);
    wgpuBindGroupLayoutRelease(u);
  }

  return bg_finish(&ctx);
}
