/* Rule (webgpu.h §2 "Struct chains ... CompilationInfo", §8.1): GetCompilationInfo
 * completes with status Success for any module; for WGSL with a syntax or a
 * type error it lists >= 1 message of type Error with a non-empty explicit
 * message, lineNum/linePos >= 1 pointing at the faulty line (1-based), and
 * offset/length inside the source and consistent with lineNum/linePos; for a
 * valid module it lists no Error message. The info is only borrowed for the
 * duration of the callback (copied here inside it). */
#include "../mapping/mapping_util.h"

typedef struct {
  int calls;
  WGPUCompilationInfoRequestStatus status;
  size_t count;
  size_t errors;
  int first_error_ok_text; /* non-empty, explicit length */
  uint64_t line, pos, offset, length;
} InfoResult;

static void on_info(WGPUCompilationInfoRequestStatus status, WGPUCompilationInfo const *info, void *u1, void *u2) {
  (void)u2;
  InfoResult *r = (InfoResult *)u1;
  r->calls++;
  r->status = status;
  if (!info) return;
  r->count = info->messageCount;
  for (size_t i = 0; i < info->messageCount; i++) {
    const WGPUCompilationMessage *m = &info->messages[i];
    if (m->type != WGPUCompilationMessageType_Error) continue;
    if (r->errors++ == 0) {
      r->first_error_ok_text = mu_msg_nonempty(m->message);
      r->line = m->lineNum;
      r->pos = m->linePos;
      r->offset = m->offset;
      r->length = m->length;
    }
  }
}

static InfoResult get_info(Ctx *ctx, WGPUShaderModule m, WGPUCallbackMode mode) {
  InfoResult r;
  memset(&r, 0, sizeof r);
  WGPUCompilationInfoCallbackInfo ci = WGPU_COMPILATION_INFO_CALLBACK_INFO_INIT;
  ci.mode = mode;
  ci.callback = on_info;
  ci.userdata1 = &r;
  WGPUFuture f = wgpuShaderModuleGetCompilationInfo(m, ci);
  CHECK_EQ(mu_wait(ctx->instance, f), WGPUWaitStatus_Success);
  CHECK_EQ(r.calls, 1);
  return r;
}

/* Byte offset of the start of 1-based line `line` in `code`. */
static size_t line_start(const char *code, uint64_t line) {
  size_t off = 0;
  for (uint64_t l = 1; l < line && code[off]; off++)
    if (code[off] == '\n') l++;
  return off;
}

static void check_bad(Ctx *ctx, const char *code, uint64_t want_line, const char *what) {
  WGPUShaderModule m = NULL;
  EXPECT_VALIDATION(ctx, m = make_wgsl(ctx->device, code));
  if (!m) {
    CHECK(m != NULL);
    return;
  }
  InfoResult r = get_info(ctx, m, WGPUCallbackMode_WaitAnyOnly);
  size_t len = strlen(code);
  int ok = r.status == WGPUCompilationInfoRequestStatus_Success && r.errors >= 1 && r.first_error_ok_text &&
           r.line == want_line && r.pos >= 1 && r.offset < len && r.offset + r.length <= len &&
           r.offset == line_start(code, r.line) + (r.pos - 1);
  if (!ok) {
    fprintf(stderr,
            "  %s: status=%d messages=%zu errors=%zu text_ok=%d line=%llu (want %llu) pos=%llu offset=%llu "
            "length=%llu (source %zu bytes, line starts at %zu)\n",
            what, (int)r.status, r.count, r.errors, r.first_error_ok_text, (unsigned long long)r.line,
            (unsigned long long)want_line, (unsigned long long)r.pos, (unsigned long long)r.offset,
            (unsigned long long)r.length, len, line_start(code, r.line ? r.line : 1));
  }
  harness_check(ok, what, __FILE__, __LINE__);
  /* Asking twice gives the same answer (AllowSpontaneous this time). */
  InfoResult r2 = get_info(ctx, m, WGPUCallbackMode_AllowSpontaneous);
  CHECK_EQ(r2.status, WGPUCompilationInfoRequestStatus_Success);
  CHECK_EQ(r2.errors, r.errors);
  CHECK_EQ(r2.line, r.line);
  wgpuShaderModuleRelease(m);
}

int main(void) {
  start_watchdog(60);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  /* Syntax error on line 3. */
  check_bad(&ctx,
            "@compute @workgroup_size(1)\n"
            "fn main() {\n"
            "  let x: u32 = 1u +;\n"
            "}\n",
            3, "syntax error");

  /* Type error on line 4. */
  check_bad(&ctx,
            "// comment line\n"
            "@compute @workgroup_size(1)\n"
            "fn main() {\n"
            "    let x: u32 = 1.5f;\n"
            "}\n",
            4, "type error");

  /* Unknown identifier on line 2. */
  check_bad(&ctx,
            "@compute @workgroup_size(1)\n"
            "fn main() { let y = undefined_thing; }\n",
            2, "unknown identifier");

  /* A good module: no Error messages (warnings/infos are allowed). */
  WGPUShaderModule good = NULL;
  EXPECT_NO_VALIDATION(&ctx, good = make_wgsl(ctx.device, MU_DOUBLE_WGSL));
  REQUIRE(good != NULL);
  InfoResult r = get_info(&ctx, good, WGPUCallbackMode_WaitAnyOnly);
  CHECK_EQ(r.status, WGPUCompilationInfoRequestStatus_Success);
  CHECK_EQ(r.errors, 0);
  r = get_info(&ctx, good, WGPUCallbackMode_AllowProcessEvents);
  CHECK_EQ(r.status, WGPUCompilationInfoRequestStatus_Success);
  CHECK_EQ(r.errors, 0);
  wgpuShaderModuleRelease(good);

  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
