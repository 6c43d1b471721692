/* Rule (issue 35): WGPU_SHIM_STALE_MAPPINGS set to none of `zero`,
 * `fault` and `driver` makes the library log an error naming the variable (on stderr,
 * at the default log level) and use `zero`: stale views (addresses that
 * wgpuBufferGetMappedRange or wgpuBufferGetConstMappedRange returned for a
 * mapping that has ended) read as zeros and take writes without faulting,
 * while live mappings work. Every path (MapWrite, MapRead,
 * mappedAtCreation), ended by unmap, destroy and last release, 4 KiB and
 * 1 MiB buffers. (The log is read from file descriptor 2, which the library
 * writes on POSIX; on Windows only the behaviour is checked.) */
#include "stale_util.h"

int main(void) {
  su_set_mode("sanitizer");
  setenv("WGPU_SHIM_LOG", "warn", 0);
  start_watchdog(60);
#ifndef _WIN32
  /* The library's log, from its first use on, into a file. */
  const char *log_level = getenv("WGPU_SHIM_LOG");
  int check_log = !log_level || strcmp(log_level, "off") != 0;
  fflush(stderr);
  FILE *log = tmpfile();
  REQUIRE(log != NULL);
  int saved_stderr = dup(2);
  REQUIRE(saved_stderr >= 0 && dup2(fileno(log), 2) == 2);
#endif
  Ctx ctx;
  int init = ctx_init(&ctx);
  SuMapped a[SU_PATHS];
  int opened = 0;
  if (init == 0) {
    for (int s = 0; s < 2; s++) {
      size_t size = s ? (size_t)1 << 20 : 4096;
      for (int e = SU_UNMAP; e <= SU_RELEASE; e++) {
        for (int p = 0; p < SU_PATHS; p++) opened += su_open(&ctx, (SuPath)p, size, SU_A, &a[p]);
        for (int p = 0; p < SU_PATHS; p++) su_end(&a[p], (SuEnd)e);
        for (int p = 0; p < SU_PATHS; p++)
          for (int r = 0; r < 2; r++)
            if (a[p].view[r]) CHECK(su_find_not(a[p].view[r], a[p].len[r], 0, 1, 0) == SIZE_MAX);
        /* Written after every read: a MapRead mapping's two views overlap. */
        for (int p = 0; p < SU_PATHS; p++) {
          for (int r = 0; r < 2; r++)
            if (a[p].view[r]) memset(a[p].view[r], SU_STALE_BYTE, a[p].len[r]); /* no fault */
          su_close(&a[p]);
        }
      }
    }
  }
#ifndef _WIN32
  fflush(stderr);
  dup2(saved_stderr, 2);
  close(saved_stderr);
  static char text[1 << 16];
  rewind(log);
  size_t n = fread(text, 1, sizeof text - 1, log);
  text[n] = 0;
  fclose(log);
  if (harness_failed || (check_log && !strstr(text, "WGPU_SHIM_STALE_MAPPINGS")))
    fprintf(stderr, "what went to stderr meanwhile:\n%s\n", text);
  if (check_log) {
    CHECK(strstr(text, "WGPU_SHIM_STALE_MAPPINGS") != NULL);
    CHECK(strstr(text, "sanitizer") != NULL);
  }
#endif
  REQUIRE(init == 0);
  CHECK_EQ(opened, 2 * 3 * SU_PATHS);
  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
