/* Runs examples/python/asyncio_map.py (ctypes + asyncio add_reader on the
 * readiness fd) against the library this test is linked with, as the test
 * `eventloop.python_asyncio_example`: the script must exit 0 (its map and
 * work-done arrived through the event loop, the waiting thread's CPU/wall
 * ratio was at most 0.05) and print the data line this program computes
 * independently (the same LCG over the same seeds). */
#define _GNU_SOURCE
#include "harness.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define VALUES 64u
#define ITERATIONS 60000u /* as in asyncio_map.py */
#define CHILD_LIMIT_S 90.0

static uint32_t expected(uint32_t i) {
  uint32_t x = 0x9E3779B9u * (i + 1u);
  for (uint32_t k = 0; k < ITERATIONS; k++) x = x * 1664525u + 1013904223u;
  return x;
}

/* The repository root: from this file's path (CMake compiles it by its
 * absolute path), else from the library's (<root>/target/release/lib...). */
static int repo_root(const char *lib_path, char *out, size_t n) {
  const char *file = __FILE__;
  const char *tail = "/ffi-tests/eventloop/python_asyncio_example.c";
  size_t fl = strlen(file), tl = strlen(tail);
  if (file[0] == '/' && fl > tl && strcmp(file + fl - tl, tail) == 0 && fl - tl < n) {
    memcpy(out, file, fl - tl);
    out[fl - tl] = 0;
    return 0;
  }
  snprintf(out, n, "%s", lib_path);
  for (int up = 0; up < 3; up++) {
    char *slash = strrchr(out, '/');
    if (!slash) return -1;
    *slash = 0;
  }
  return 0;
}

int main(void) {
  /* The library this program is linked with. */
  Dl_info info;
  memset(&info, 0, sizeof info);
  REQUIRE(dladdr((void *)wgpuCreateInstance, &info) != 0 && info.dli_fname != NULL);
  char lib_path[PATH_MAX];
  REQUIRE(realpath(info.dli_fname, lib_path) != NULL);
  char root[PATH_MAX];
  REQUIRE(repo_root(lib_path, root, sizeof root) == 0);
  char script[PATH_MAX + 64];
  snprintf(script, sizeof script, "%s/examples/python/asyncio_map.py", root);
  fprintf(stderr, "library: %s\nscript: %s\n", lib_path, script);
  REQUIRE(access(script, R_OK) == 0);
  REQUIRE(setenv("WGPU_SHIM_LIBRARY", lib_path, 1) == 0);

  char want[128];
  snprintf(want, sizeof want, "data: %u values OK, first: %08x %08x %08x %08x\n", VALUES, expected(0), expected(1),
           expected(2), expected(3));

  /* python3 <script>, its stdout into a pipe (stderr passes through). */
  int pipefd[2];
  REQUIRE(pipe(pipefd) == 0);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&fa, pipefd[0]);
  posix_spawn_file_actions_addclose(&fa, pipefd[1]);
  char *argv[] = {(char *)"python3", script, NULL};
  pid_t pid;
  int rc = posix_spawnp(&pid, "python3", &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(pipefd[1]);
  if (rc != 0) fprintf(stderr, "posix_spawnp(python3): %s\n", strerror(rc));
  REQUIRE(rc == 0);

  char out[16384];
  size_t len = 0;
  double deadline = now_s() + CHILD_LIMIT_S;
  int killed = 0;
  for (;;) {
    double left = deadline - now_s();
    if (left <= 0) {
      fprintf(stderr, "python3 still running after %.0f s: killed\n", CHILD_LIMIT_S);
      kill(pid, SIGKILL);
      killed = 1;
      break;
    }
    struct pollfd p = {pipefd[0], POLLIN, 0};
    int n = poll(&p, 1, (int)(left * 1000) + 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) continue;
    ssize_t got = read(pipefd[0], out + len, sizeof out - 1 - len);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break; /* EOF (or the buffer is full) */
    len += (size_t)got;
    if (len >= sizeof out - 1) break;
  }
  out[len] = 0;
  close(pipefd[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  printf("---- asyncio_map.py stdout ----\n%s-------------------------------\n", out);

  CHECK(!killed);
  CHECK(WIFEXITED(status));
  CHECK_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
  CHECK(strstr(out, want) != NULL);
  if (!strstr(out, want)) fprintf(stderr, "expected the line: %s", want);
  CHECK(strstr(out, "\nOK\n") != NULL);
  const char *ratio = strstr(out, "CPU/wall ratio ");
  CHECK(ratio != NULL);
  if (ratio) {
    double r = atof(ratio + strlen("CPU/wall ratio "));
    fprintf(stderr, "waiting thread CPU/wall ratio reported by the script: %.4f\n", r);
    CHECK(r <= 0.05);
  }
  return test_finish();
}
