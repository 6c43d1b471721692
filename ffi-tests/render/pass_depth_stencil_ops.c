/* Rule (WebGPU beginRenderPass, GPURenderPassDepthStencilAttachment): for
 * each aspect (depth, stencil) of the view's format that is not read-only,
 * both its loadOp and storeOp must be given; for an aspect that is
 * read-only, or that the format lacks, neither may be given. With
 * depthLoadOp Clear, depthClearValue must be given and lie in [0, 1]. A
 * TransientAttachment texture must be cleared and discarded (colour
 * attachments and each aspect of a depth-stencil one). Violations make
 * Finish raise a validation error; every other combination finishes
 * cleanly. The CTS sweeps every format x readOnly x load x store
 * combination; so does this test (5 core depth/stencil formats). On
 * OpenGL the r32float colour cases are left out (wgpu-core's GL backend
 * cannot render to r32float), as are the transient ones where
 * TransientAttachment textures cannot be made there. */
#include "pass_util.h"

#include <math.h>

typedef struct {
  WGPUTextureFormat f;
  const char *name;
  int depth, stencil;
} DsFmt;

static const DsFmt DS_FORMATS[] = {
    {WGPUTextureFormat_Depth16Unorm, "depth16unorm", 1, 0},
    {WGPUTextureFormat_Depth24Plus, "depth24plus", 1, 0},
    {WGPUTextureFormat_Depth24PlusStencil8, "depth24plus-stencil8", 1, 1},
    {WGPUTextureFormat_Depth32Float, "depth32float", 1, 0},
    {WGPUTextureFormat_Stencil8, "stencil8", 0, 1},
};

static const WGPULoadOp LOADS[3] = {WGPULoadOp_Undefined, WGPULoadOp_Clear, WGPULoadOp_Load};
static const WGPUStoreOp STORES[3] = {WGPUStoreOp_Undefined, WGPUStoreOp_Discard, WGPUStoreOp_Store};
static const char *LOAD_NAMES[3] = {"-", "clear", "load"};
static const char *STORE_NAMES[3] = {"-", "discard", "store"};

/* Whether one aspect's settings are valid. */
static int aspect_ok(int present, int ro, int l, int s, int transient) {
  int has_l = l != 0, has_s = s != 0;
  if (!present) return !has_l && !has_s;
  if (ro) return !has_l && !has_s && !transient;
  if (!(has_l && has_s)) return 0;
  if (transient) return LOADS[l] == WGPULoadOp_Clear && STORES[s] == WGPUStoreOp_Discard;
  return 1;
}

/* Whether TransientAttachment textures can be made (core WebGPU: a
 * failure on any backend but OpenGL, where the transient cases are left
 * out). */
static int transient_supported(Ctx *ctx) {
  wgpuDevicePushErrorScope(ctx->device, WGPUErrorFilter_Validation);
  pu_texture(ctx, WGPUTextureFormat_RGBA8Unorm, WGPUTextureDimension_2D, 4, 4, 1, 1, 1,
             WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TransientAttachment);
  int ok = mu_pop_type(ctx) == WGPUErrorType_NoError;
  pu_release_all();
  return pu_case_supported(ctx, ok, "GL has no TransientAttachment textures", "TransientAttachment usage");
}

int main(void) {
  Ctx ctx;
  REQUIRE(pu_start(&ctx, 120) == 0);
  char what[320];
  int transient_ok = transient_supported(&ctx);

  for (size_t fi = 0; fi < sizeof DS_FORMATS / sizeof DS_FORMATS[0]; fi++) {
    const DsFmt *F = &DS_FORMATS[fi];
    for (int transient = 0; transient <= transient_ok; transient++) {
      WGPUTextureUsage usage = WGPUTextureUsage_RenderAttachment;
      if (transient) usage |= WGPUTextureUsage_TransientAttachment;
      WGPUTextureView v = pu_view(pu_texture(&ctx, F->f, WGPUTextureDimension_2D, 1, 1, 1, 1, 1, usage), NULL);
      for (int dro = 0; dro < 2; dro++)
        for (int dl = 0; dl < 3; dl++)
          for (int dst = 0; dst < 3; dst++)
            for (int sro = 0; sro < 2; sro++)
              for (int sl = 0; sl < 3; sl++)
                for (int sst = 0; sst < 3; sst++) {
                  WGPURenderPassDepthStencilAttachment a = WGPU_RENDER_PASS_DEPTH_STENCIL_ATTACHMENT_INIT;
                  a.view = v;
                  a.depthReadOnly = dro;
                  a.stencilReadOnly = sro;
                  a.depthLoadOp = LOADS[dl];
                  a.depthStoreOp = STORES[dst];
                  a.stencilLoadOp = LOADS[sl];
                  a.stencilStoreOp = STORES[sst];
                  if (LOADS[dl] == WGPULoadOp_Clear) a.depthClearValue = 0.0f;
                  int valid = aspect_ok(F->depth, dro, dl, dst, transient) &&
                              aspect_ok(F->stencil, sro, sl, sst, transient);
                  snprintf(what, sizeof what,
                           "%s%s depth(ro=%d load=%s store=%s) stencil(ro=%d load=%s store=%s)", F->name,
                           transient ? " transient" : "", dro, LOAD_NAMES[dl], STORE_NAMES[dst], sro,
                           LOAD_NAMES[sl], STORE_NAMES[sst]);
                  pu_try(&ctx, NULL, 0, &a, valid, what);
                }
      pu_release_all();
    }
  }

  /* depthClearValue with depthLoadOp load / clear / undefined (stencil8). */
  const float clears[] = {NAN /* undefined */, -1.0f, 0.0f, 0.5f, 1.0f, 1.5f};
  for (int op = 0; op < 3; op++)
    for (int ci = 0; ci < 6; ci++) {
      WGPUTextureFormat f = op == 2 ? WGPUTextureFormat_Stencil8 : WGPUTextureFormat_Depth24PlusStencil8;
      WGPURenderPassColorAttachment c = pu_color(pu_view(pu_tex2d(&ctx, WGPUTextureFormat_RGBA8Unorm), NULL));
      WGPURenderPassDepthStencilAttachment a = WGPU_RENDER_PASS_DEPTH_STENCIL_ATTACHMENT_INIT;
      a.view = pu_view(pu_tex2d(&ctx, f), NULL);
      a.stencilLoadOp = WGPULoadOp_Clear;
      a.stencilStoreOp = WGPUStoreOp_Store;
      if (ci > 0) a.depthClearValue = clears[ci];
      if (op < 2) {
        a.depthLoadOp = op == 0 ? WGPULoadOp_Load : WGPULoadOp_Clear;
        a.depthStoreOp = WGPUStoreOp_Store;
      }
      int in_range = ci > 0 && clears[ci] >= 0.0f && clears[ci] <= 1.0f;
      int valid = !(op == 1 && !in_range);
      snprintf(what, sizeof what, "depthLoadOp %s, depthClearValue %s%g", op == 0 ? "load" : op == 1 ? "clear" : "-",
               ci == 0 ? "undefined " : "", ci == 0 ? 0.0 : (double)clears[ci]);
      pu_try(&ctx, &c, 1, &a, valid, what);
    }

  /* Transient colour attachments: only clear + discard. */
  if (transient_ok) {
    const WGPUTextureFormat cf[] = {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_R32Float,
                                    WGPUTextureFormat_RGBA16Float, WGPUTextureFormat_RG8Uint};
    const char *cf_names[] = {"rgba8unorm", "r32float", "rgba16float", "rg8uint"};
    for (int f = 0; f < 4; f++)
      for (int transient = 0; transient < 2; transient++)
        for (int l = 1; l < 3; l++)
          for (int s = 1; s < 3; s++) {
            snprintf(what, sizeof what, "colour format %s%s load=%s store=%s", cf_names[f],
                     transient ? " transient" : "", LOAD_NAMES[l], STORE_NAMES[s]);
            if (!pu_format_case(&ctx, cf[f], cf_names[f], 1, what)) continue;
            WGPUTextureUsage usage = WGPUTextureUsage_RenderAttachment;
            if (transient) usage |= WGPUTextureUsage_TransientAttachment;
            WGPURenderPassColorAttachment c =
                pu_color(pu_view(pu_texture(&ctx, cf[f], WGPUTextureDimension_2D, 4, 4, 1, 1, 1, usage), NULL));
            c.loadOp = LOADS[l];
            c.storeOp = STORES[s];
            int valid = !transient || (LOADS[l] == WGPULoadOp_Clear && STORES[s] == WGPUStoreOp_Discard);
            pu_try(&ctx, &c, 1, NULL, valid, what);
          }
  }

  pu_report(&ctx, pu_bad_cases);
  pu_release_all();
  ctx_release(&ctx);
  return test_finish();
}
