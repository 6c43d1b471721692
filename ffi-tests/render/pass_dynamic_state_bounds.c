/* Rule (WebGPU GPURenderPassEncoder setViewport / setScissorRect /
 * setBlendConstant / setStencilReference): setViewport needs width and
 * height >= 0 and <= maxTextureDimension2D, x and y >= -2 x max, x + width
 * and y + height <= 2 x max - 1, and 0 <= minDepth <= maxDepth <= 1; the
 * viewport may exceed the attachment. setScissorRect needs x + width and
 * y + height within the attachment (an empty scissor is fine; a huge u32,
 * the C form of a negative JS value, is not). Any blend constant and any
 * stencil reference are valid. A bad call invalidates the pass: Finish
 * raises a validation error (the call itself raises nothing); valid calls
 * finish cleanly. */
#include "pass_util.h"

#include <math.h>

static WGPUTextureView attachment(Ctx *ctx, uint32_t w, uint32_t h) {
  return pu_view(pu_texture(ctx, WGPUTextureFormat_RGBA8Unorm, WGPUTextureDimension_2D, w, h, 1, 1, 1, 0), NULL);
}

typedef enum { VIEWPORT, SCISSOR, BLEND, STENCIL } Kind;

static void try_call(Ctx *ctx, uint32_t aw, uint32_t ah, Kind k, const double *a, int valid, const char *what) {
  WGPURenderPassColorAttachment c = pu_color(attachment(ctx, aw, ah));
  c.loadOp = WGPULoadOp_Load;
  WGPURenderPassDescriptor d = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
  d.colorAttachmentCount = 1;
  d.colorAttachments = &c;
  WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx->device, NULL);
  PopResult r;
  RU_CAPTURE(ctx, &r, {
    WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &d);
    if (k == VIEWPORT)
      wgpuRenderPassEncoderSetViewport(pass, (float)a[0], (float)a[1], (float)a[2], (float)a[3], (float)a[4],
                                       (float)a[5]);
    else if (k == SCISSOR)
      wgpuRenderPassEncoderSetScissorRect(pass, (uint32_t)a[0], (uint32_t)a[1], (uint32_t)a[2], (uint32_t)a[3]);
    else if (k == BLEND) {
      WGPUColor col = {a[0], a[1], a[2], a[3]};
      wgpuRenderPassEncoderSetBlendConstant(pass, &col);
    } else
      wgpuRenderPassEncoderSetStencilReference(pass, (uint32_t)a[0]);
    wgpuRenderPassEncoderEnd(pass);
    wgpuRenderPassEncoderRelease(pass);
  });
  char buf[1400];
  snprintf(buf, sizeof buf, "%s: the call raises nothing (got type %d: %s)", what, (int)r.type, r.msg);
  harness_check(r.type == WGPUErrorType_NoError, buf, __FILE__, __LINE__);
  pu_finish_expect(ctx, enc, valid, what);
  pu_release_all();
}

static void viewport(Ctx *ctx, float x, float y, float w, float h, float mn, float mx, uint32_t aw, uint32_t ah,
                     int valid) {
  double a[6] = {x, y, w, h, mn, mx};
  char what[256];
  snprintf(what, sizeof what, "setViewport(%.9g, %.9g, %.9g, %.9g, %.9g, %.9g) on %ux%u", x, y, w, h, mn, mx, aw,
           ah);
  try_call(ctx, aw, ah, VIEWPORT, a, valid, what);
}

static void scissor(Ctx *ctx, uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint32_t aw, uint32_t ah, int valid) {
  double a[4] = {x, y, w, h};
  char what[256];
  snprintf(what, sizeof what, "setScissorRect(%u, %u, %u, %u) on %ux%u", x, y, w, h, aw, ah);
  try_call(ctx, aw, ah, SCISSOR, a, valid, what);
}

int main(void) {
  Ctx ctx;
  REQUIRE(pu_start(&ctx, 60) == 0);
  WGPULimits lim = WGPU_LIMITS_INIT;
  REQUIRE(wgpuDeviceGetLimits(ctx.device, &lim) == WGPUStatus_Success);
  const float M = (float)lim.maxTextureDimension2D;

  /* Width and height non-negative. */
  viewport(&ctx, 0, 0, 0, 0, 0, 1, 1, 1, 1);
  viewport(&ctx, 0, 0, -1, 0, 0, 1, 1, 1, 0);
  viewport(&ctx, 0, 0, 0, -1, 0, 1, 1, 1, 0);
  viewport(&ctx, 1, 0, -1, 0, 0, 1, 1, 1, 0);
  viewport(&ctx, 0, 1, 0, -1, 0, 1, 1, 1, 0);

  /* May exceed the attachment. */
  viewport(&ctx, 0, 0, 4, 4, 0, 1, 3, 3, 1);
  viewport(&ctx, 0, 0, 1025, 1025, 0, 1, 1024, 1024, 1);

  /* Rectangle within the maximum viewport bounds, for x and for y. */
  typedef struct {
    float om;
    int od; /* 0 zero, -1 minus one, +1 plus one, -2 next float down */
    int sd; /* 0 zero, -1 minus one, +1 plus one, +2 next float up */
    int valid;
  } VCase;
  const VCase vc[] = {{0, 0, 0, 1},  {-1, 0, 0, 1}, {-2, 0, 0, 1}, {1, -1, 0, 1},  {0, -1, 0, 1},
                      {0, 1, 0, 1},  {1, 0, -1, 1}, {-2, -1, 0, 0}, {1, 0, 0, 0},  {1, 1, -1, 0},
                      {1, -2, 0, 0}, {0, 0, 1, 0},  {0, 0, 2, 0}};
  for (int dim = 0; dim < 2; dim++)
    for (size_t i = 0; i < sizeof vc / sizeof vc[0]; i++) {
      float xy[2] = {0, 0}, wh[2] = {M, M};
      xy[dim] = M * vc[i].om;
      if (vc[i].od == -2) xy[dim] = nextafterf(xy[dim], -INFINITY);
      else xy[dim] += (float)vc[i].od;
      if (vc[i].sd == 2) wh[dim] = nextafterf(wh[dim], INFINITY);
      else wh[dim] += (float)vc[i].sd;
      viewport(&ctx, xy[0], xy[1], wh[0], wh[1], 0, 1, 1, 1, vc[i].valid);
    }

  /* Depth range and order. */
  const float depths[][3] = {{0, 1, 1},       {-0.0f, -0.0f, 1}, {1, 1, 1},    {0.3f, 0.7f, 1}, {0.7f, 0.7f, 1},
                             {0.3f, 0.3f, 1}, {-0.1f, 1, 0},     {0, 1.1f, 0}, {0.5f, 0.49999f, 0}};
  for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++)
    viewport(&ctx, 0, 0, 1, 1, depths[i][0], depths[i][1], 1, 1, (int)depths[i][2]);

  /* Scissor: "negative" (u32 wrap) values. */
  scissor(&ctx, 0, 0, 0, 0, 1, 1, 1);
  scissor(&ctx, UINT32_MAX, 0, 0, 0, 1, 1, 0);
  scissor(&ctx, 0, UINT32_MAX, 0, 0, 1, 1, 0);
  scissor(&ctx, 0, 0, UINT32_MAX, 0, 1, 1, 0);
  scissor(&ctx, 0, 0, 0, UINT32_MAX, 1, 1, 0);
  /* x + width near u32 overflow must not wrap into range. */
  scissor(&ctx, 1, 0, UINT32_MAX, 1, 1, 1, 0);

  /* Scissor contained in the attachment. */
  const uint32_t sizes[4][2] = {{3, 5}, {5, 3}, {1024, 1}, {1, 1024}};
  const int deltas[9][4] = {{0, 0, 0, 0}, {1, 0, -1, 0}, {0, 1, 0, -1}, {0, 0, -1, 0}, {0, 0, 0, -1},
                            {1, 0, 0, 0}, {0, 1, 0, 0},  {0, 0, 1, 0},  {0, 0, 0, 1}};
  for (int s = 0; s < 4; s++)
    for (int i = 0; i < 9; i++) {
      uint32_t aw = sizes[s][0], ah = sizes[s][1];
      /* As the CTS: width and height both start from the attachment's
       * width. */
      int64_t x = deltas[i][0], y = deltas[i][1], w = (int64_t)aw + deltas[i][2], h = (int64_t)aw + deltas[i][3];
      int valid = x + w <= (int64_t)aw && y + h <= (int64_t)ah;
      scissor(&ctx, (uint32_t)x, (uint32_t)y, (uint32_t)w, (uint32_t)h, aw, ah, valid);
    }

  /* Any blend constant and stencil reference. */
  const double blends[3][4] = {{1, 1, 1, 1}, {-1, -1, -1, -1}, {9007199254740991.0, -9007199254740991.0, -0.0, 100000}};
  for (int i = 0; i < 3; i++) {
    char what[128];
    snprintf(what, sizeof what, "setBlendConstant(%g, %g, %g, %g)", blends[i][0], blends[i][1], blends[i][2],
             blends[i][3]);
    try_call(&ctx, 1, 1, BLEND, blends[i], 1, what);
  }
  const double refs[4] = {1, 0, 1000, 4294967295.0};
  for (int i = 0; i < 4; i++) {
    char what[128];
    snprintf(what, sizeof what, "setStencilReference(%.0f)", refs[i]);
    try_call(&ctx, 1, 1, STENCIL, &refs[i], 1, what);
  }

  pu_report(&ctx, pu_bad_cases);
  ctx_release(&ctx);
  return test_finish();
}
