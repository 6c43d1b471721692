/* Helpers for the stale-mapping tests (mapping/stale_*.c; header-only).
 *
 * The rule they check (issue 35): once a mapping ends (wgpuBufferUnmap,
 * wgpuBufferDestroy, the buffer's last wgpuBufferRelease, wgpuDeviceDestroy),
 * no address that wgpuBufferGetMappedRange or wgpuBufferGetConstMappedRange
 * returned for it ever shows another buffer's bytes. With
 * WGPU_SHIM_STALE_MAPPINGS=zero (the default) such a *stale view* reads as
 * zeros and takes writes that reach no buffer; with `fault` any access to it
 * raises SIGSEGV (or SIGBUS). The library reads the variable once, at its
 * first use: a test sets it (su_set_mode) first thing in main.
 *
 * A retired address stays quarantined (not reused) for at least the next
 * 4096 mappings, so a test checks a kept view only while fewer than
 * SU_CHECK_WINDOW mappings (counted by su_open) followed its end.
 *
 * Include this header first, as mapping_util.h (which it includes). Every
 * helper is `static inline`; every wait is bounded (MU_WAIT_NS). The fault
 * probe, with POSIX signals, is stale_fault.h. */
#ifndef WGPU_SHIM_STALE_UTIL_H
#define WGPU_SHIM_STALE_UTIL_H

#include "mapping_util.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <windows.h>
#endif

/* Every word of a buffer whose views are kept past its end. */
#define SU_A 0xA1A1A1A1u
/* Every word of the buffers made after it ended: a stale view showing this
 * shows another buffer's bytes. */
#define SU_B 0xB2B2B2B2u
/* The byte written through stale views. */
#define SU_STALE_BYTE 0xABu
/* su_open's `word` for a buffer left as created (all zeros), not filled. */
#define SU_NO_FILL 0u

/* Mappings after its end during which a kept view is checked: far below the
 * 4096 of the quarantine (su_open counts each buffer it maps as one, and
 * a view's second range as another). */
#define SU_CHECK_WINDOW 1024ul

/* ------------------------------------------------------------------------ */
/* The mode */

/* Sets WGPU_SHIM_STALE_MAPPINGS to `mode`, or removes it (NULL): call it
 * before any wgpu call, as the library reads it once. */
static inline void su_set_mode(const char *mode) {
#ifdef _WIN32
  if (mode) {
    setenv("WGPU_SHIM_STALE_MAPPINGS", mode, 1);
  } else {
    SetEnvironmentVariableA("WGPU_SHIM_STALE_MAPPINGS", NULL);
    _putenv("WGPU_SHIM_STALE_MAPPINGS=");
  }
#else
  if (mode)
    setenv("WGPU_SHIM_STALE_MAPPINGS", mode, 1);
  else
    unsetenv("WGPU_SHIM_STALE_MAPPINGS");
#endif
}

/* ------------------------------------------------------------------------ */
/* Buffers mapped along one path, filled with one word */

/* How a mapping and its views are made. */
typedef enum {
  SU_MAP_WRITE,   /* MapWrite | CopySrc, MapAsync(Write), GetMappedRange */
  SU_MAP_READ,    /* MapRead | CopyDst, MapAsync(Read), GetConstMappedRange */
  SU_AT_CREATION, /* CopySrc | CopyDst, mappedAtCreation, GetMappedRange */
  SU_PATHS
} SuPath;

/* How a mapping ends. */
typedef enum { SU_UNMAP, SU_DESTROY, SU_RELEASE, SU_DEVICE_DESTROY, SU_ENDS } SuEnd;

static inline const char *su_path_name(SuPath p) {
  return p == SU_MAP_WRITE ? "MapWrite + GetMappedRange"
         : p == SU_MAP_READ ? "MapRead + GetConstMappedRange"
                            : "mappedAtCreation + GetMappedRange";
}

static inline const char *su_end_name(SuEnd e) {
  return e == SU_UNMAP ? "wgpuBufferUnmap"
         : e == SU_DESTROY ? "wgpuBufferDestroy"
         : e == SU_RELEASE ? "last wgpuBufferRelease"
                           : "wgpuDeviceDestroy";
}

/* 256 B and 4 KiB (views copied into the library's small-view slots), and
 * 1 MiB and 8 MiB (views of their own pages), by cycle. */
static inline size_t su_small_size(int cycle) { return cycle % 2 ? 4096 : 256; }
static inline size_t su_large_size(int cycle) { return cycle % 2 ? (size_t)8 << 20 : (size_t)1 << 20; }

/* One buffer's mapping and the two views taken of it: for the write paths
 * its two halves, for MapRead the whole buffer and, overlapping it (const
 * ranges may), [8, size - 8). */
typedef struct {
  WGPUBuffer buffer;
  SuPath path;
  size_t size;
  uint32_t *view[2];
  size_t offset[2];
  size_t len[2];
} SuMapped;

/* How many mappings su_open has made (in all threads). */
static inline atomic_ulong *su_map_counter(void) {
  static atomic_ulong n;
  return &n;
}

static inline unsigned long su_maps(void) { return atomic_load(su_map_counter()); }

static inline void su_fill_words(void *p, size_t bytes, uint32_t word) {
  uint32_t *w = (uint32_t *)p;
  for (size_t i = 0; i < bytes / 4; i++) w[i] = word;
}

/* The index of the first word of p[0, bytes) that differs from `word`,
 * looking at every `stride`-th word from `start` (and at the last one);
 * SIZE_MAX when none does. stride 1: every word. */
static inline size_t su_find_not(const volatile uint32_t *p, size_t bytes, uint32_t word, size_t stride,
                                 size_t start) {
  size_t n = bytes / 4;
  if (n == 0) return SIZE_MAX;
  for (size_t i = stride > 1 ? start % stride : 0; i < n; i += stride)
    if (p[i] != word) return i;
  return p[n - 1] != word ? n - 1 : SIZE_MAX;
}

/* Makes a buffer of `size` bytes (a multiple of 16, >= 32) on ctx's device
 * whose every word is `word` (SU_NO_FILL: left as created, zeros), mapped
 * along `path` over its whole size, and takes its two views; for MapRead
 * the words are written with QueueWriteBuffer before the map, and both views
 * must show them. Returns 1 when done; otherwise 0, saying why on stderr
 * (m->buffer, when made, is for su_close to release). Thread-safe. */
static inline int su_open(Ctx *ctx, SuPath path, size_t size, uint32_t word, SuMapped *m) {
  memset(m, 0, sizeof *m);
  m->path = path;
  m->size = size;
  WGPUBufferUsage usage = path == SU_MAP_WRITE  ? WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc
                          : path == SU_MAP_READ ? WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst
                                                : WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst;
  m->buffer = make_buffer(ctx->device, size, usage, path == SU_AT_CREATION);
  if (!m->buffer) {
    fprintf(stderr, "su_open: no buffer of %zu bytes (%s)\n", size, su_path_name(path));
    return 0;
  }
  if (path == SU_MAP_READ && word != SU_NO_FILL) {
    uint32_t *tmp = (uint32_t *)malloc(size);
    if (!tmp) return 0;
    su_fill_words(tmp, size, word);
    wgpuQueueWriteBuffer(ctx->queue, m->buffer, 0, tmp, size);
    free(tmp);
    submit_empty(ctx);
  }
  if (path != SU_AT_CREATION) {
    WGPUMapMode mode = path == SU_MAP_READ ? WGPUMapMode_Read : WGPUMapMode_Write;
    WGPUMapAsyncStatus s = mu_map_wait(ctx->instance, m->buffer, mode, 0, size);
    if (s != WGPUMapAsyncStatus_Success) {
      fprintf(stderr, "su_open: map of %zu bytes (%s): status %d\n", size, su_path_name(path), (int)s);
      return 0;
    }
  }
  atomic_fetch_add(su_map_counter(), 2);
  if (path == SU_MAP_READ) {
    m->offset[0] = 0, m->len[0] = size;
    m->offset[1] = 8, m->len[1] = size - 16;
  } else {
    m->offset[0] = 0, m->len[0] = size / 2;
    m->offset[1] = size / 2, m->len[1] = size / 2;
  }
  for (int r = 0; r < 2; r++) {
    m->view[r] = path == SU_MAP_READ
                     ? (uint32_t *)(uintptr_t)wgpuBufferGetConstMappedRange(m->buffer, m->offset[r], m->len[r])
                     : (uint32_t *)wgpuBufferGetMappedRange(m->buffer, m->offset[r], m->len[r]);
    if (!m->view[r]) {
      fprintf(stderr, "su_open: range %d of %zu bytes (%s) is NULL\n", r, size, su_path_name(path));
      return 0;
    }
    if (path != SU_MAP_READ && word != SU_NO_FILL) su_fill_words(m->view[r], m->len[r], word);
  }
  if (path == SU_MAP_READ) {
    for (int r = 0; r < 2; r++) {
      size_t i = su_find_not(m->view[r], m->len[r], word, 1, 0);
      if (i != SIZE_MAX) {
        fprintf(stderr, "su_open: live MapRead view %d of %zu bytes has 0x%08X at word %zu, not 0x%08X\n", r, size,
                (unsigned)m->view[r][i], i, (unsigned)word);
        return 0;
      }
    }
  }
  return 1;
}

/* Ends the mapping of m as `end` says (not SU_DEVICE_DESTROY, which the test
 * does on its device); after SU_RELEASE m->buffer is NULL. */
static inline void su_end(SuMapped *m, SuEnd end) {
  if (!m->buffer) return;
  if (end == SU_UNMAP) wgpuBufferUnmap(m->buffer);
  if (end == SU_DESTROY) wgpuBufferDestroy(m->buffer);
  if (end == SU_RELEASE) {
    wgpuBufferRelease(m->buffer);
    m->buffer = NULL;
  }
}

/* Unmaps (when still mapped) and releases m's buffer. */
static inline void su_close(SuMapped *m) {
  if (!m->buffer) return;
  if (wgpuBufferGetMapState(m->buffer) == WGPUBufferMapState_Mapped) wgpuBufferUnmap(m->buffer);
  wgpuBufferRelease(m->buffer);
  m->buffer = NULL;
}

/* Whether every word of both of m's views is `word` (a live view). */
static inline int su_views_are(const SuMapped *m, uint32_t word) {
  return su_find_not(m->view[0], m->len[0], word, 1, 0) == SIZE_MAX &&
         su_find_not(m->view[1], m->len[1], word, 1, 0) == SIZE_MAX;
}

/* ------------------------------------------------------------------------ */
/* Kept views */

typedef struct {
  const volatile uint32_t *view;
  size_t len;
  char what[128];         /* path, end, size, range, cycle */
  unsigned long ended_at; /* su_maps() when its mapping ended */
  int failed;             /* what was reported: 1 its own words, 2 SU_B, 4 others */
} SuKept;

typedef struct {
  SuKept *v;
  size_t n;
  size_t cap;
} SuKeptList;

static inline void su_kept_free(SuKeptList *l) {
  free(l->v);
  memset(l, 0, sizeof *l);
}

/* Keeps both views of m, whose mapping has just ended by `end`. */
static inline void su_keep(SuKeptList *l, const SuMapped *m, SuEnd end, int cycle) {
  for (int r = 0; r < 2; r++) {
    if (!m->view[r]) continue;
    if (l->n == l->cap) {
      size_t cap = l->cap ? l->cap * 2 : 64;
      SuKept *v = (SuKept *)realloc(l->v, cap * sizeof *v);
      if (!v) return;
      l->v = v;
      l->cap = cap;
    }
    SuKept *k = &l->v[l->n++];
    k->view = m->view[r];
    k->len = m->len[r];
    k->ended_at = su_maps();
    k->failed = 0;
    snprintf(k->what, sizeof k->what, "%s, ended by %s, %zu-byte buffer, range [%zu, +%zu), cycle %d",
             su_path_name(m->path), su_end_name(end), m->size, m->offset[r], m->len[r], cycle);
  }
}

/* Drops the kept views that SU_CHECK_WINDOW mappings followed. */
static inline void su_kept_expire(SuKeptList *l) {
  size_t j = 0;
  unsigned long now = su_maps();
  for (size_t i = 0; i < l->n; i++)
    if (now - l->v[i].ended_at < SU_CHECK_WINDOW) l->v[j++] = l->v[i];
  l->n = j;
}

/* CHECKs that kept view k reads as zeros (every `stride`-th word from
 * `start`; stride 1: all), naming what it shows otherwise: another buffer's
 * words (SU_B, the bytes this rule is about: looked for among the words
 * read, whatever the first non-zero one is), the old buffer's own (SU_A), or
 * others. Each of the three is reported once per view. Returns 1 when
 * zero. */
static inline int su_check_zero(SuKept *k, size_t stride, size_t start, const char *when) {
  size_t i = su_find_not(k->view, k->len, 0, stride, start);
  if (i == SIZE_MAX) {
    harness_check(1, "stale view reads zeros", __FILE__, __LINE__);
    return 1;
  }
  size_t n = k->len / 4;
  for (size_t j = i; j < n; j += stride > 1 ? stride : 1)
    if (k->view[j] == SU_B) {
      i = j;
      break;
    }
  uint32_t v = k->view[i];
  int kind = v == SU_B ? 2 : v == SU_A ? 1 : 4;
  if (k->failed & kind) {
    harness_failed++;
    return 0;
  }
  k->failed |= kind;
  char msg[512];
  snprintf(msg, sizeof msg,
           "stale view (%s) reads zeros %s: word %zu is 0x%08X%s, %lu mappings after its end", k->what, when, i,
           (unsigned)v,
           kind == 2   ? " = pattern B, bytes written after its end (another buffer's or a later mapping's)"
           : kind == 1 ? " = pattern A, the old buffer's own bytes"
                       : "",
           su_maps() - k->ended_at);
  harness_check(0, msg, __FILE__, __LINE__);
  return 0;
}

/* su_check_zero on every kept view still in its window. */
static inline void su_check_kept(SuKeptList *l, size_t stride, size_t start, const char *when) {
  su_kept_expire(l);
  for (size_t i = 0; i < l->n; i++) su_check_zero(&l->v[i], stride, start, when);
}

/* Makes `count` buffers of `size` bytes along every path, each with every
 * word SU_B (filling memory that ended mappings had), checks the kept views
 * while they are mapped (sampled, every 1021st word from `start`: pass the
 * cycle, so that over the cycles every word is read) and again once they
 * are unmapped and released. */
static inline void su_others_and_check(Ctx *ctx, size_t size, int count, SuKeptList *l, size_t start) {
  SuMapped b[SU_PATHS][4];
  if (count > 4) count = 4;
  for (int p = 0; p < SU_PATHS; p++)
    for (int k = 0; k < count; k++) CHECK(su_open(ctx, (SuPath)p, size, SU_B, &b[p][k]));
  su_check_kept(l, 1021, start, "while buffers of pattern B are mapped");
  for (int p = 0; p < SU_PATHS; p++)
    for (int k = 0; k < count; k++) su_close(&b[p][k]);
  su_check_kept(l, 1021, start + 509, "after buffers of pattern B were unmapped and released");
}

/* ------------------------------------------------------------------------ */
/* Devices of the test's own */

/* A device of a new adapter of `instance`, with the uncaptured-error
 * callback counting into *out (no device-lost callback); *out is a Ctx
 * sharing the instance: end it with su_device_release. Returns 1 when made. */
static inline int su_device(WGPUInstance instance, Ctx *out) {
  memset(out, 0, sizeof *out);
  out->instance = instance;
  out->adapter = mu_request_adapter(instance);
  if (!out->adapter) return 0;
  WGPUDeviceDescriptor desc = WGPU_DEVICE_DESCRIPTOR_INIT;
  desc.uncapturedErrorCallbackInfo.callback = ctx_on_uncaptured;
  desc.uncapturedErrorCallbackInfo.userdata1 = out;
  DeviceRequest req;
  out->device = mu_request_device(instance, out->adapter, &desc, &req);
  if (!out->device) return 0;
  out->queue = wgpuDeviceGetQueue(out->device);
  return out->queue != NULL;
}

/* Releases what su_device made (not the instance). */
static inline void su_device_release(Ctx *d) {
  if (d->queue) wgpuQueueRelease(d->queue);
  if (d->device) wgpuDeviceRelease(d->device);
  if (d->adapter) wgpuAdapterRelease(d->adapter);
  d->queue = NULL;
  d->device = NULL;
  d->adapter = NULL;
}

#endif
