/* WGPUShaderSourceGLSL (wgpu.h) chained to a shader module descriptor, as
 * a wgpu-native program writes it: a GLSL compute shader whose constants
 * come from the descriptor's defines writes a storage buffer that is read
 * back; a GLSL vertex + fragment pair draws a triangle whose colour is a
 * define. A GLSL syntax error is a validation error whose compilation
 * message points at the line; a stage that is not exactly one stage, two
 * sources in one chain, and a GLSL source chained to another struct are
 * validation errors too. */
#include "extras_util.h"

static const char *const COMPUTE =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(std430, set = 0, binding = 0) buffer Out { uint data[]; } result;\n"
    "void main() {\n"
    "  uint i = gl_GlobalInvocationID.x;\n"
    "  result.data[i] = i * SCALE + OFFSET;\n"
    "}\n";

static const char *const VERTEX =
    "#version 450\n"
    "void main() {\n"
    "  vec2 p[3] = vec2[3](vec2(-0.8, -0.8), vec2(0.8, -0.8), vec2(0.0, 0.8));\n"
    "  gl_Position = vec4(p[gl_VertexIndex], 0.0, 1.0);\n"
    "}\n";

static const char *const FRAGMENT =
    "#version 450\n"
    "layout(location = 0) out vec4 color;\n"
    "void main() { color = COLOR; }\n";

static const char *const BROKEN =
    "#version 450\n"
    "void main() {\n"
    "  int x = ;\n"
    "}\n";

static WGPUShaderSourceGLSL glsl_of(WGPUShaderStage stage, const char *code, const WGPUShaderDefine *defines,
                                    uint32_t count) {
  WGPUShaderSourceGLSL g;
  memset(&g, 0, sizeof g);
  g.chain.sType = (WGPUSType)WGPUSType_ShaderSourceGLSL;
  g.stage = stage;
  g.code = sv(code);
  g.defineCount = count;
  g.defines = defines;
  return g;
}

static WGPUShaderModule module_of(Ctx *ctx, WGPUShaderSourceGLSL *glsl, const char *label) {
  WGPUShaderModuleDescriptor d = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
  d.label = sv(label);
  d.nextInChain = &glsl->chain;
  return wgpuDeviceCreateShaderModule(ctx->device, &d);
}

typedef struct {
  int calls;
  WGPUCompilationInfoRequestStatus status;
  size_t count;
  WGPUCompilationMessageType type;
  uint64_t line;
} Info;

static void on_info(WGPUCompilationInfoRequestStatus status, const WGPUCompilationInfo *info, void *u1, void *u2) {
  (void)u2;
  Info *r = (Info *)u1;
  r->calls++;
  r->status = status;
  if (info) {
    r->count = info->messageCount;
    if (info->messageCount) {
      r->type = info->messages[0].type;
      r->line = info->messages[0].lineNum;
    }
  }
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(eu_ctx(&ctx, NULL, 0) == 0);

  /* Compute: out[i] = i * SCALE + OFFSET, both from defines. */
  enum { N = 128 };
  WGPUShaderDefine defines[2] = {{sv("SCALE"), sv("3u")}, {sv("OFFSET"), sv("7u")}};
  WGPUShaderSourceGLSL compute = glsl_of(WGPUShaderStage_Compute, COMPUTE, defines, 2);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  WGPUShaderModule cm = module_of(&ctx, &compute, "glsl compute");
  REQUIRE(cm != NULL);
  uint32_t out[N];
  memset(out, 0, sizeof out);
  CHECK(eu_compute(&ctx, cm, N / 64, out, sizeof out));
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
  int same = 1;
  for (uint32_t i = 0; i < N; i++) same &= out[i] == i * 3u + 7u;
  CHECK(same);
  printf("compute out[0..2] = %u %u %u\n", out[0], out[1], out[2]);

  /* Vertex + fragment, the colour a define. */
  WGPUShaderDefine color = {sv("COLOR"), sv("vec4(0.0, 1.0, 0.0, 1.0)")};
  WGPUShaderSourceGLSL vs = glsl_of(WGPUShaderStage_Vertex, VERTEX, NULL, 0);
  WGPUShaderSourceGLSL fs = glsl_of(WGPUShaderStage_Fragment, FRAGMENT, &color, 1);
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  WGPUShaderModule vm = module_of(&ctx, &vs, "glsl vs");
  WGPUShaderModule fm = module_of(&ctx, &fs, "glsl fs");
  WGPURenderPipeline p = eu_pipeline(&ctx, vm, "main", fm, "main", NULL);
  uint8_t px[EU_SIZE * EU_SIZE * 4];
  memset(px, 0, sizeof px);
  CHECK(eu_draw(&ctx, p, px));
  CHECK_EQ(mu_pop_type(&ctx), WGPUErrorType_NoError);
  CHECK(eu_lit(px, EU_SIZE / 2, EU_SIZE / 2, 1));
  CHECK(!eu_lit(px, EU_SIZE / 2, EU_SIZE / 2, 0));
  CHECK(!eu_lit(px, 1, 1, 1));
  printf("render: %d green pixels\n", eu_count(px, 1));
  CHECK(eu_count(px, 1) > (int)(EU_SIZE * EU_SIZE / 4));
  wgpuRenderPipelineRelease(p);

  /* A syntax error: a validation error, and the compilation message points
   * at line 3. */
  WGPUShaderSourceGLSL broken = glsl_of(WGPUShaderStage_Compute, BROKEN, NULL, 0);
  WGPUShaderModule bm = NULL;
  EXPECT_VALIDATION(&ctx, bm = module_of(&ctx, &broken, "broken"));
  REQUIRE(bm != NULL);
  Info info;
  memset(&info, 0, sizeof info);
  WGPUCompilationInfoCallbackInfo icb = WGPU_COMPILATION_INFO_CALLBACK_INFO_INIT;
  icb.mode = WGPUCallbackMode_WaitAnyOnly;
  icb.callback = on_info;
  icb.userdata1 = &info;
  CHECK(wait_one(ctx.instance, wgpuShaderModuleGetCompilationInfo(bm, icb)) == WGPUWaitStatus_Success);
  CHECK_EQ(info.calls, 1);
  CHECK_EQ(info.status, WGPUCompilationInfoRequestStatus_Success);
  CHECK(info.count >= 1);
  CHECK_EQ(info.type, WGPUCompilationMessageType_Error);
  CHECK_EQ(info.line, 3);
  wgpuShaderModuleRelease(bm);

  /* Not exactly one stage. */
  WGPUShaderSourceGLSL two_stages = glsl_of(WGPUShaderStage_Vertex | WGPUShaderStage_Fragment, VERTEX, NULL, 0);
  bm = NULL;
  EXPECT_VALIDATION(&ctx, bm = module_of(&ctx, &two_stages, "two stages"));
  if (bm) wgpuShaderModuleRelease(bm);
  WGPUShaderSourceGLSL no_stage = glsl_of(WGPUShaderStage_None, VERTEX, NULL, 0);
  bm = NULL;
  EXPECT_VALIDATION(&ctx, bm = module_of(&ctx, &no_stage, "no stage"));
  if (bm) wgpuShaderModuleRelease(bm);

  /* GLSL and WGSL in one chain. */
  WGPUShaderSourceWGSL wgsl = WGPU_SHADER_SOURCE_WGSL_INIT;
  wgsl.code = sv("@compute @workgroup_size(1) fn main() {}");
  WGPUShaderSourceGLSL both = glsl_of(WGPUShaderStage_Compute, COMPUTE, defines, 2);
  both.chain.next = &wgsl.chain;
  PopResult r;
  wgpuDevicePushErrorScope(ctx.device, WGPUErrorFilter_Validation);
  bm = module_of(&ctx, &both, "both");
  CHECK(mu_pop_full(ctx.instance, ctx.device, &r));
  CHECK_EQ(r.type, WGPUErrorType_Validation);
  CHECK(strstr(r.msg, "more than one source") != NULL);
  if (bm) wgpuShaderModuleRelease(bm);

  /* A GLSL source chained to a struct it does not extend. */
  WGPUShaderSourceGLSL stray = glsl_of(WGPUShaderStage_Compute, COMPUTE, defines, 2);
  WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
  bd.nextInChain = &stray.chain;
  bd.size = 16;
  bd.usage = WGPUBufferUsage_CopyDst;
  WGPUBuffer b = NULL;
  EXPECT_VALIDATION(&ctx, b = wgpuDeviceCreateBuffer(ctx.device, &bd));
  if (b) wgpuBufferRelease(b);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  wgpuShaderModuleRelease(fm);
  wgpuShaderModuleRelease(vm);
  wgpuShaderModuleRelease(cm);
  ctx_release(&ctx);
  return test_finish();
}
