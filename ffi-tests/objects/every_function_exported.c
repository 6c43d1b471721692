/* Every function that webgpu.h, wgpu.h and wgpu_shim.h declare is exported
 * by the library and found by wgpuGetProcAddress: a binding that resolves
 * the whole header at load time (wgpu-py does) must not meet a missing
 * symbol. The names are read from the installed headers themselves, so a
 * function added to a header without an implementation fails here. */
#define _GNU_SOURCE
#include "harness.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef WGPU_SHIM_INCLUDE_DIR
#error "WGPU_SHIM_INCLUDE_DIR must name the include folder"
#endif

#ifdef _WIN32
#include <windows.h>

/* Declared only on another platform (wgpu_shim.h: Unix). */
static const char *const OTHER_PLATFORM[] = {"wgpuShimInstanceGetReadinessFd"};

/* Whether wgpu_shim.dll, which the program loaded as it started, exports name. */
static int exported(const char *name) {
  HMODULE dll = GetModuleHandleA("wgpu_shim.dll");
  return dll != NULL && GetProcAddress(dll, name) != NULL;
}
#else
#include <dlfcn.h>

/* Declared only on another platform (wgpu_shim.h: Windows). */
static const char *const OTHER_PLATFORM[] = {"wgpuShimInstanceGetReadinessEvent"};

/* Whether a loaded library (this one) exports name. */
static int exported(const char *name) { return dlsym(RTLD_DEFAULT, name) != NULL; }
#endif

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  if (buf) buf[n] = 0;
  fclose(f);
  return buf;
}

static int other_platform(const char *name) {
  for (size_t i = 0; i < sizeof OTHER_PLATFORM / sizeof OTHER_PLATFORM[0]; i++)
    if (strcmp(name, OTHER_PLATFORM[i]) == 0) return 1;
  return 0;
}

/* Checks every `WGPU_EXPORT ... wgpuName(` in the header; returns how many. */
static int check_header(const char *file) {
  char path[1024];
  snprintf(path, sizeof path, "%s/webgpu/%s", WGPU_SHIM_INCLUDE_DIR, file);
  char *text = read_file(path);
  if (!text) {
    printf("FAIL cannot read %s\n", path);
    CHECK(0);
    return 0;
  }
  int found = 0;
  for (char *p = strstr(text, "WGPU_EXPORT"); p; p = strstr(p + 1, "WGPU_EXPORT")) {
    /* The declared name: the first `wgpu` identifier followed by `(`. */
    char *q = p + strlen("WGPU_EXPORT");
    char *end = strchr(q, ';');
    if (!end) break;
    char name[128] = {0};
    for (char *s = q; s < end; s++) {
      if (strncmp(s, "wgpu", 4) == 0 && (s == q || !(isalnum((unsigned char)s[-1]) || s[-1] == '_'))) {
        size_t n = 0;
        while (n + 1 < sizeof name && (isalnum((unsigned char)s[n]) || s[n] == '_')) {
          name[n] = s[n];
          n++;
        }
        name[n] = 0;
        char *after = s + n;
        while (*after == ' ') after++;
        if (*after == '(') break;
        name[0] = 0;
      }
    }
    if (!name[0] || other_platform(name)) continue;
    found++;
    if (!exported(name)) {
      printf("FAIL %s: %s is declared but not exported\n", file, name);
      CHECK(0);
    } else if (!wgpuGetProcAddress((WGPUStringView){name, WGPU_STRLEN})) {
      printf("FAIL %s: wgpuGetProcAddress(\"%s\") is NULL\n", file, name);
      CHECK(0);
    }
  }
  free(text);
  printf("%s: %d functions\n", file, found);
  return found;
}

int main(void) {
  CHECK(check_header("webgpu.h") >= 200);
  CHECK(check_header("wgpu.h") >= 20);
  CHECK(check_header("wgpu_shim.h") >= 4);
  return test_finish();
}
