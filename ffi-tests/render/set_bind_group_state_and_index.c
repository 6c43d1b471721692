/* Rule (WebGPU setBindGroup, bind group state and index), for a compute
 * pass, a render pass and a render bundle encoder:
 * - SetBindGroup with an index >= maxBindGroups makes the encoder invalid:
 *   Finish is a validation error (index 1 and maxBindGroups - 1 are fine);
 * - SetBindGroup with an invalid bind group (its layout had a duplicate
 *   binding) makes Finish a validation error;
 * - a bind group from another device makes Finish a validation error;
 * - a bind group whose buffer or texture was destroyed BEFORE the group was
 *   made is still created without error, encodes and finishes without
 *   error, and only the Submit of the command buffer is a validation error.
 * Ports CTS setBindGroup state_and_binding_index and
 * bind_group,device_mismatch. */
#include "set_bind_group_util.h"

typedef enum { ST_VALID, ST_INVALID, ST_DESTROYED } State;
static const char *state_names[] = {"valid", "invalid", "destroyed"};

typedef struct {
  WGPUBindGroupLayout layout;
  WGPUBindGroup group;
  WGPUBuffer buffer[2];
  WGPUTexture texture[2];
  WGPUTextureView view[2];
} Group;

/* A bind group with one uniform buffer (or float texture) at `binding`;
 * ST_INVALID gives its layout two entries at binding 0 (creation errors are
 * expected), ST_DESTROYED destroys the resource before creating the group
 * (no error is expected, per the CTS). */
static Group make_group(Ctx *ctx, State st, int texture, SbgKind kind, uint32_t binding) {
  Group g;
  memset(&g, 0, sizeof g);
  size_t n = st == ST_INVALID ? 2 : 1;
  WGPUBindGroupLayoutEntry le[2];
  WGPUBindGroupEntry ge[2];
  for (size_t i = 0; i < n; i++) {
    uint32_t b = st == ST_INVALID ? 0 : binding;
    if (texture) {
      le[i] = bg_texture_entry(b, sbg_stage(kind), WGPUTextureSampleType_Float, WGPUTextureViewDimension_2D, 0);
      g.texture[i] = tu_texture(ctx, 1, 1, WGPUTextureFormat_RGBA8Unorm, WGPUTextureUsage_TextureBinding);
      g.view[i] = wgpuTextureCreateView(g.texture[i], NULL);
      if (st == ST_DESTROYED) wgpuTextureDestroy(g.texture[i]);
      ge[i] = bg_view(b, g.view[i]);
    } else {
      le[i] = bg_buffer_entry(b, sbg_stage(kind), WGPUBufferBindingType_Uniform, 0);
      g.buffer[i] = make_buffer(ctx->device, 16, WGPUBufferUsage_Uniform, 0);
      if (st == ST_DESTROYED) wgpuBufferDestroy(g.buffer[i]);
      ge[i] = bg_buf(b, g.buffer[i], 0, WGPU_WHOLE_SIZE);
    }
  }
  char name[256];
  snprintf(name, sizeof name, "%s", bg_case_);
  bg_case("%s [creating the layout]", name);
  BG_EXPECT(ctx, st == ST_INVALID, g.layout = bg_layout(ctx, le, n));
  bg_case("%s [creating the bind group]", name);
  BG_EXPECT(ctx, st == ST_INVALID, g.group = bg_group(ctx, g.layout, ge, n));
  bg_case("%s", name);
  return g;
}

static void free_group(Group *g) {
  if (g->group) wgpuBindGroupRelease(g->group);
  if (g->layout) wgpuBindGroupLayoutRelease(g->layout);
  for (int i = 0; i < 2; i++) {
    if (g->view[i]) wgpuTextureViewRelease(g->view[i]);
    if (g->texture[i]) wgpuTextureRelease(g->texture[i]);
    if (g->buffer[i]) wgpuBufferRelease(g->buffer[i]);
  }
}

int main(void) {
  Ctx ctx;
  if (!bg_start(&ctx, 60)) return test_finish();
  WGPULimits lim = bg_limits(&ctx);

  /* state_and_binding_index */
  const uint32_t indices[] = {1, lim.maxBindGroups - 1, lim.maxBindGroups};
  for (SbgKind k = 0; k < SBG_KINDS; k++)
    for (State st = ST_VALID; st <= ST_DESTROYED; st++)
      for (int tex = 0; tex <= 1; tex++)
        for (size_t i = 0; i < 3; i++) {
          bg_case("%s, %s %s bind group at index %u (maxBindGroups %u)", SBG_KIND_NAMES[k], state_names[st],
                  tex ? "texture" : "buffer", indices[i], lim.maxBindGroups);
          Group g = make_group(&ctx, st, tex, k, indices[i]);
          SbgEncoder e;
          sbg_begin(&ctx, &e, k);
          sbg_set(&e, indices[i], g.group, 0, NULL);
          sbg_validate(&ctx, &e, st != ST_INVALID && indices[i] < lim.maxBindGroups, st != ST_DESTROYED);
          free_group(&g);
        }

  /* bind_group,device_mismatch */
  BgOther other;
  BG_REQUIRE(&ctx, bg_other_open(&ctx, &other));
  for (SbgKind k = 0; k < SBG_KINDS; k++)
    for (int dynamic = 0; dynamic <= 1; dynamic++)
      for (int mism = 0; mism <= 1; mism++) {
        WGPUDevice dev = mism ? other.device : ctx.device;
        WGPUBindGroupLayoutEntry le = bg_buffer_entry(0, sbg_stage(k), WGPUBufferBindingType_Uniform, dynamic);
        WGPUBindGroupLayout l = bg_layout_on(dev, &le, 1);
        WGPUBuffer b = make_buffer(dev, 4, WGPUBufferUsage_Uniform, 0);
        WGPUBindGroupEntry ge = bg_buf(0, b, 0, WGPU_WHOLE_SIZE);
        WGPUBindGroup g = bg_group_on(dev, l, &ge, 1);
        CHECK(g != NULL);
        if (g) {
          SbgEncoder e;
          sbg_begin(&ctx, &e, k);
          const uint32_t zero = 0;
          sbg_set(&e, 0, g, dynamic ? 1 : 0, dynamic ? &zero : NULL);
          bg_case("%s, bind group from %s device%s", SBG_KIND_NAMES[k], mism ? "another" : "the same",
                  dynamic ? ", one dynamic offset" : "");
          sbg_validate(&ctx, &e, !mism, 1);
          wgpuBindGroupRelease(g);
        }
        wgpuBufferRelease(b);
        wgpuBindGroupLayoutRelease(l);
      }
  bg_other_close(&other);

  return bg_finish(&ctx);
}
