/* The fault probe of the stale-mapping tests (header-only): whether an
 * access to an address raises SIGSEGV or SIGBUS, caught by a handler that
 * is in place for that one access only, and the checks built on it for
 * WGPU_SHIM_STALE_MAPPINGS=fault (stale_util.h says what stale views are).
 * POSIX signals and sigsetjmp/siglongjmp: empty on Windows.
 *
 * Include it first, in place of stale_util.h (which it includes). */
#ifndef WGPU_SHIM_STALE_FAULT_H
#define WGPU_SHIM_STALE_FAULT_H

#include "stale_util.h"

#ifndef _WIN32
#include <setjmp.h>
#include <signal.h>

typedef struct {
  sigjmp_buf jump;
  volatile sig_atomic_t armed;
  volatile sig_atomic_t signo;
  void *volatile addr;
} SuProbe;

static inline SuProbe *su_probe(void) {
  static SuProbe p;
  return &p;
}

static inline void su_on_fault(int signo, siginfo_t *info, void *uc) {
  (void)uc;
  SuProbe *p = su_probe();
  if (!p->armed) { /* not a probe's access: the default action */
    signal(signo, SIG_DFL);
    raise(signo);
    return;
  }
  p->armed = 0;
  p->signo = signo;
  p->addr = info->si_addr;
  siglongjmp(p->jump, 1);
}

/* Reads the byte at p, or writes SU_STALE_BYTE there, with a SIGSEGV and
 * SIGBUS handler of its own in place for that access only. Returns the
 * signal the access raised (0: none, it completed); *addr gets the address
 * the signal reported. */
static inline int su_access(volatile uint8_t *p, int write, void **addr) {
  struct sigaction sa, old_segv, old_bus;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = su_on_fault;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &old_segv);
  sigaction(SIGBUS, &sa, &old_bus);
  SuProbe *probe = su_probe();
  probe->signo = 0;
  probe->addr = NULL;
  if (sigsetjmp(probe->jump, 1) == 0) {
    probe->armed = 1;
    if (write) {
      *p = SU_STALE_BYTE;
    } else {
      volatile uint8_t v = *p;
      (void)v;
    }
    probe->armed = 0;
  }
  sigaction(SIGSEGV, &old_segv, NULL);
  sigaction(SIGBUS, &old_bus, NULL);
  *addr = probe->addr;
  return (int)probe->signo;
}

/* CHECKs that reading (and, with `write`, writing) the byte at p faults:
 * SIGSEGV or SIGBUS, reported at p's page. `what` names the view. Returns 1
 * when every access faulted. */
static inline int su_check_faults(const volatile void *p, int write, const char *what) {
  int ok = 1;
  for (int w = 0; w <= write; w++) {
    void *addr = NULL;
    int sig = su_access((volatile uint8_t *)(uintptr_t)p, w, &addr);
    uintptr_t page = ~(uintptr_t)4095;
    int good = (sig == SIGSEGV || sig == SIGBUS) && ((uintptr_t)addr & page) == ((uintptr_t)p & page);
    if (!good) {
      char msg[512];
      snprintf(msg, sizeof msg, "a %s of stale view (%s) at %p faults: %s (signal %d, reported at %p)",
               w ? "write" : "read", what, (const void *)p, sig ? "wrong signal or address" : "it completed", sig,
               addr);
      harness_check(0, msg, __FILE__, __LINE__);
      ok = 0;
    } else {
      harness_check(1, "stale access faults", __FILE__, __LINE__);
    }
  }
  return ok;
}

/* su_check_faults on the first, a middle and the last byte of every kept
 * view still in its window (reads; with `write`, writes too), each view
 * reported once. */
static inline void su_check_kept_fault(SuKeptList *l, int write) {
  su_kept_expire(l);
  for (size_t i = 0; i < l->n; i++) {
    SuKept *k = &l->v[i];
    if (k->failed) continue;
    const volatile uint8_t *b = (const volatile uint8_t *)k->view;
    size_t at[3] = {0, k->len / 2, k->len - 1};
    for (int j = 0; j < 3 && !k->failed; j++)
      if (!su_check_faults(b + at[j], write, k->what)) k->failed = 1;
  }
}
#endif

#endif
