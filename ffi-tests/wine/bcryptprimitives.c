/* A stand-in for Windows' bcryptprimitives.dll, for running the C tests
 * under Wine: a test fixture, never shipped with the library.
 *
 * Rust's standard library on Windows imports ProcessPrng from
 * bcryptprimitives.dll for its random numbers (the keys of HashMap), so
 * every Rust DLL, wgpu_shim.dll among them, names that DLL, which Windows 10
 * and later have. Wine 8 (Debian 12's) does not: there the loader
 * fails to load wgpu_shim.dll, and a test program dies before main with
 * STATUS_DLL_NOT_FOUND. ffi-tests/CMakeLists.txt builds this file and puts
 * it beside the test programs when it cross-builds them for Wine.
 *
 * ProcessPrng(data, len) fills data with len random bytes and always
 * returns TRUE on Windows; RtlGenRandom (SystemFunction036 of advapi32,
 * which Wine has) does the same, from the same kind of source. */
#include <windows.h>
#include <ntsecapi.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
  /* RtlGenRandom takes a ULONG: fill larger requests in pieces. */
  while (len > 0) {
    ULONG n = len > 0x40000000u ? 0x40000000u : (ULONG)len;
    if (!RtlGenRandom(data, n)) return FALSE;
    data += n;
    len -= n;
  }
  return TRUE;
}
