/* Rule (issue 35; WGPU_SHIM_STALE_MAPPINGS=fault): an access to a stale view
 * (an address that wgpuBufferGetMappedRange or wgpuBufferGetConstMappedRange
 * returned for a mapping that has ended) that nothing handles ends the
 * process with SIGSEGV (or SIGBUS), as a sanitizer would: a forked child,
 * with the default action for both signals, reads (or writes) one byte of
 * the view and must die by the signal; a child that reads a live view exits
 * normally. Every path (MapWrite, MapRead, mappedAtCreation), ended by
 * unmap, destroy and last release, 4 KiB and 1 MiB buffers. (fork and POSIX
 * signals: not on Windows, ffi-tests/CMakeLists.txt.) */
#include "stale_fault.h"

#include <sys/resource.h>
#include <sys/wait.h>

/* Runs a child that reads (or writes) the byte at p with SIGSEGV and SIGBUS
 * at their default action and no core dump, then exits 0. Returns its wait
 * status, or -1 when it did not end within 10 s (it is killed then). */
static int child_touch(volatile uint8_t *p, int write) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    signal(SIGSEGV, SIG_DFL);
    signal(SIGBUS, SIG_DFL);
    if (write) {
      *p = SU_STALE_BYTE;
    } else {
      volatile uint8_t v = *p;
      (void)v;
    }
    _exit(0);
  }
  double deadline = now_s() + 10.0 * harness_time_scale();
  int status = 0;
  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return status;
    if (r < 0 || now_s() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    sleep_ms(2);
  }
}

static int died_of_fault(int status) {
  return status != -1 && WIFSIGNALED(status) && (WTERMSIG(status) == SIGSEGV || WTERMSIG(status) == SIGBUS);
}

int main(void) {
  su_set_mode("fault");
  start_watchdog(120);
  Ctx ctx;
  REQUIRE(ctx_init(&ctx) == 0);

  for (int s = 0; s < 2; s++) {
    size_t size = s ? (size_t)1 << 20 : 4096;
    for (int e = SU_UNMAP; e <= SU_RELEASE; e++) {
      SuMapped a[SU_PATHS];
      for (int p = 0; p < SU_PATHS; p++) REQUIRE(su_open(&ctx, (SuPath)p, size, SU_A, &a[p]));
      /* The control: a child reading a live view exits normally. */
      int st = child_touch((volatile uint8_t *)a[SU_MAP_READ].view[0], 0);
      CHECK(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0);
      for (int p = 0; p < SU_PATHS; p++) su_end(&a[p], (SuEnd)e);
      for (int p = 0; p < SU_PATHS; p++) {
        for (int w = 0; w < 2; w++) {
          volatile uint8_t *at = (volatile uint8_t *)a[p].view[w] + (w ? a[p].len[1] - 1 : 0);
          st = child_touch(at, w);
          if (!died_of_fault(st))
            fprintf(stderr, "a child's %s of a stale view (%s, ended by %s, %zu bytes) ended with status 0x%x\n",
                    w ? "write" : "read", su_path_name((SuPath)p), su_end_name((SuEnd)e), size, (unsigned)st);
          CHECK(died_of_fault(st));
        }
      }
      for (int p = 0; p < SU_PATHS; p++) su_close(&a[p]);
    }
  }

  CHECK_EQ(ctx.uncaptured_errors, 0);
  ctx_release(&ctx);
  return test_finish();
}
