/* What the GL fence's design rests on, measured on an EGL driver with no
 * library in between (engine/gl_fence.rs; BENCHMARKS.md, "OpenGL on the
 * NVIDIA H100"):
 *   - how soon a thread sees a fence signalled: spinning on
 *     eglGetSyncAttribKHR, sleeping in eglClientWaitSyncKHR (in the context's
 *     thread, and in a thread with no context current), glClientWaitSync;
 *   - what making the context current costs on one thread, and when two
 *     threads take turns with it (as a progress thread and an application
 *     thread do through wgpu-hal's context lock).
 * The job is N clears of a 4096x4096 RGBA8 renderbuffer.
 *
 *   cc -O2 -o egl_wait benches/egl_wait.c -ldl -lpthread
 *   ./egl_wait [gl|es] [N]          (EGL_PLATFORM surfaceless display) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
typedef void *EGLDisplay, *EGLContext, *EGLConfig, *EGLSync;
typedef int32_t EGLint;
#define P(t, n, a) typedef t(*n##_t) a; static n##_t n;
P(EGLDisplay, eglGetPlatformDisplay, (unsigned, void *, const intptr_t *))
P(unsigned, eglInitialize, (EGLDisplay, EGLint *, EGLint *))
P(unsigned, eglBindAPI, (unsigned))
P(unsigned, eglChooseConfig, (EGLDisplay, const EGLint *, EGLConfig *, EGLint, EGLint *))
P(EGLContext, eglCreateContext, (EGLDisplay, EGLConfig, EGLContext, const EGLint *))
P(unsigned, eglMakeCurrent, (EGLDisplay, void *, void *, EGLContext))
P(void *, eglGetProcAddress, (const char *))
P(EGLSync, eglCreateSyncKHR, (EGLDisplay, unsigned, const EGLint *))
P(unsigned, eglDestroySyncKHR, (EGLDisplay, EGLSync))
P(EGLint, eglClientWaitSyncKHR, (EGLDisplay, EGLSync, EGLint, uint64_t))
P(unsigned, eglGetSyncAttribKHR, (EGLDisplay, EGLSync, EGLint, EGLint *))
P(void, glClear, (unsigned))
P(void, glFlush, (void))
P(void *, glFenceSync, (unsigned, unsigned))
P(unsigned, glClientWaitSync, (void *, unsigned, uint64_t))
P(void, glDeleteSync, (void *))
P(void, glGenFramebuffers, (int, unsigned *))
P(void, glBindFramebuffer, (unsigned, unsigned))
P(void, glGenRenderbuffers, (int, unsigned *))
P(void, glBindRenderbuffer, (unsigned, unsigned))
P(void, glRenderbufferStorage, (unsigned, unsigned, int, int))
P(void, glFramebufferRenderbuffer, (unsigned, unsigned, unsigned, unsigned))
P(void, glClearColor, (float, float, float, float))
static int clears = 10;
static EGLDisplay dpy;
static double now_us(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }
static double med(double *v, int n) { qsort(v, n, sizeof *v, cmp); return v[n / 2]; }
static void job(void) { for (int i = 0; i < clears; i++) { glClearColor(i * 0.1f, 0, 0, 1); glClear(0x4000); } }
static EGLSync fence(void) { job(); EGLSync s = eglCreateSyncKHR(dpy, 0x30F9, NULL); glFlush(); return s; }
static EGLContext g_ctx;
static volatile int turn;
/* Ping-pong between two threads; with `mc`, each turn makes the context
 * current, flushes and unmakes it (as wgpu-hal's lock does). */
static int mc_mode; static double pp_end;
static void *pingpong(void *arg) {
  int me = (int)(intptr_t)arg;
  for (int i = 0; i < 400; i++) {
    while (turn != me) ;
    if (mc_mode) { eglMakeCurrent(dpy, NULL, NULL, g_ctx); glFlush(); eglMakeCurrent(dpy, NULL, NULL, NULL); }
    turn = 1 - me;
  }
  pp_end = now_us();
  return NULL;
}
static double pp(int with_mc) {
  mc_mode = with_mc; turn = 0; pthread_t a, b; double t0 = now_us();
  pthread_create(&a, NULL, pingpong, (void *)0); pthread_create(&b, NULL, pingpong, (void *)1);
  pthread_join(a, NULL); pthread_join(b, NULL); return (now_us() - t0) / 800;
}
static EGLSync shared; static volatile int go, done; static double t_woke;
static void *waiter(void *arg) { (void)arg; for (;;) { while (!go) ; go = 0; if (done) return NULL; eglClientWaitSyncKHR(dpy, shared, 0, 1000000000ull); t_woke = now_us(); __atomic_store_n(&done, 2, 5); } }
int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  alarm(25);
  int api = argc > 1 && argv[1][0] == 'e' ? 0x30A0 /* ES */ : 0x30A2 /* GL */;
  void *lib = dlopen("libEGL.so.1", RTLD_NOW);
#define L(n) n = (n##_t)dlsym(lib, #n); if (!n) n = (n##_t)eglGetProcAddress(#n);
  eglGetProcAddress = (eglGetProcAddress_t)dlsym(lib, "eglGetProcAddress");
  L(eglGetPlatformDisplay) L(eglInitialize) L(eglBindAPI) L(eglChooseConfig) L(eglCreateContext) L(eglMakeCurrent)
  L(eglCreateSyncKHR) L(eglDestroySyncKHR) L(eglClientWaitSyncKHR) L(eglGetSyncAttribKHR)
  dpy = eglGetPlatformDisplay(0x31DD, NULL, NULL);
  EGLint ma, mi; if (!eglInitialize(dpy, &ma, &mi)) { puts("no EGL"); return 1; }
  eglBindAPI(api);
  EGLint attrs[] = {0x3040 /* RENDERABLE_TYPE */, api == 0x30A0 ? 0x40 : 0x8, 0x3033 /* SURFACE_TYPE */, 0, 0x3038}; EGLConfig cfg; EGLint n;
  eglChooseConfig(dpy, attrs, &cfg, 1, &n);
  EGLContext ctx = eglCreateContext(dpy, cfg, NULL, (EGLint[]){0x3038});
  printf("config %d, context %p\n", n, ctx);
  if (!eglMakeCurrent(dpy, NULL, NULL, ctx)) { puts("no context"); return 1; }
  L(glClear) L(glFlush) L(glFenceSync) L(glClientWaitSync) L(glDeleteSync)
  L(glGenFramebuffers) L(glBindFramebuffer) L(glGenRenderbuffers) L(glBindRenderbuffer) L(glRenderbufferStorage)
  L(glFramebufferRenderbuffer) L(glClearColor)
  if (argc > 2) clears = atoi(argv[2]);
  unsigned fb, rb; glGenFramebuffers(1, &fb); glBindFramebuffer(0x8D40, fb); glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(0x8D41, rb); glRenderbufferStorage(0x8D41, 0x8058 /* RGBA8 */, 4096, 4096);
  glFramebufferRenderbuffer(0x8D40, 0x8CE0, 0x8D41, rb);
  { EGLSync s = fence(); printf("sync %p\n", s); double t0 = now_us(); EGLint r = eglClientWaitSyncKHR(dpy, s, 0, 1000000000ull); printf("one job: %.0f µs (%#x)\n", now_us() - t0, r); }
  enum { N = 300 }; static double a[N], b[N], c[N], d[N];
  for (int i = 0; i < N; i++) {
    EGLSync s = fence(); double t0 = now_us(); EGLint st = 0;
    unsigned ok = 0;
    do ok = eglGetSyncAttribKHR(dpy, s, 0x30F1, &st); while (ok && st != 0x30F2 && now_us() - t0 < 1e6);
    if (!ok || st != 0x30F2) { printf("spin: status %#x ok %u\n", st, ok); return 1; }
    a[i] = now_us() - t0; eglDestroySyncKHR(dpy, s);
    s = fence(); t0 = now_us(); if (eglClientWaitSyncKHR(dpy, s, 0, 1000000000ull) != 0x30F6) { puts("egl wait failed"); return 1; } b[i] = now_us() - t0; eglDestroySyncKHR(dpy, s);
    job(); void *g = glFenceSync(0x9117, 0); glFlush(); t0 = now_us();
    glClientWaitSync(g, 0, 1000000000ull); c[i] = now_us() - t0; glDeleteSync(g);
  }
  g_ctx = ctx;
  { double t0 = now_us(); for (int i = 0; i < 200; i++) { eglMakeCurrent(dpy, NULL, NULL, NULL); eglMakeCurrent(dpy, NULL, NULL, ctx); }
    printf("same thread: unmake + make current %.1f µs\n", (now_us() - t0) / 200); }
  eglMakeCurrent(dpy, NULL, NULL, NULL);
  printf("two threads taking turns: %.1f µs a turn without the context, %.1f µs with make current + glFlush + unmake\n", pp(0), pp(1));
  eglMakeCurrent(dpy, NULL, NULL, ctx);
  pthread_t th; pthread_create(&th, NULL, waiter, NULL);
  for (int i = 0; i < N; i++) {
    shared = fence(); double t0 = now_us(); done = 0; go = 1;
    while (__atomic_load_n(&done, 5) != 2) ;
    d[i] = t_woke - t0; eglDestroySyncKHR(dpy, shared);
  }
  done = 1; go = 1;
  printf("%s, %d clears of 4096x4096: EGL %d.%d; median µs after the fence: spin on eglGetSyncAttribKHR %.1f, eglClientWaitSyncKHR %.1f, "
         "glClientWaitSync %.1f, eglClientWaitSyncKHR on a thread with no context %.1f\n",
         api == 0x30A0 ? "OpenGL ES" : "OpenGL", clears, ma, mi, med(a, N), med(b, N), med(c, N), med(d, N));
  return 0;
}
