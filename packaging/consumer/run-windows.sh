#!/usr/bin/env bash
# The Windows counterpart of run.sh: builds the consumer programs against the
# Windows archive (scripts/package.sh --target x86_64-pc-windows-gnu) with
# MinGW-w64, from a copy of this folder outside the repository, the way a
# Windows user of the archive would, and runs them under Wine:
#
#   packaging/consumer/run-windows.sh ARCHIVE    (the .zip, or its unpacked folder)
#
#   0. the archive: lib/wgpu_shim.def lists exactly the DLL's exports, which
#      are exactly the functions the headers declare on Windows; the DLL
#      imports no MinGW runtime DLL; no bcryptprimitives.dll in it;
#   1. consumer.c, a plain gcc command line against the import library
#      (lib/libwgpu_shim.dll.a), bin/wgpu_shim.dll copied beside it;
#   2. consumer.c, static: libwgpu_shim.a with pkg-config --static's
#      system libraries (lib/pkgconfig/wgpu-shim.pc);
#   3. consumer.cpp with CMake's find_package(wgpu-shim) (CMAKE_PREFIX_PATH
#      the archive), against wgpu_shim::wgpu_shim and wgpu_shim::wgpu_shim_static;
#   4. consumer.c as a program built for wgpu-native records it: linked
#      against an import library for wgpu_native.dll (dlltool, from the
#      .def), run beside a copy of the DLL named wgpu_native.dll; and a
#      program that leaves an adapter request's callback mode at 0, which
#      only wgpu-native's rules answer: they must be on under that name and
#      off under wgpu_shim.dll;
#   4b. with WGPU_NATIVE_DLL set (wgpu-native's own DLL), native_style.c, a
#      program written the wgpu-native way (mode-0 callbacks,
#      wgpuDevicePoll), linked against wgpu_native.dll and run on that DLL
#      and on wgpu-shim's under its name: the outputs must be the same;
#   5. MSVC's import library (lib/wgpu_shim.dll.lib), linked by lld-link
#      (LLVM's link.exe) into a program that creates an instance; skipped
#      when no lld-link is installed (Debian: lld).
# Each program is checked for the DLLs it imports (objdump -p: the shim's
# under its name or none, no MinGW runtime DLL), then run under Wine; each
# must print OK (5: exit 0). Exits non-zero on the first failure.
#
# Environment: WINE64 (Wine's 64-bit loader; default /usr/lib/wine/wine64,
# else wine64 on PATH), WINEPREFIX (a Wine prefix to make or reuse; default
# a fresh one in the work folder, about 20 s to make), VK_ICD_FILENAMES
# (default lavapipe's, as scripts/env.sh), WGPU_BACKEND (default vulkan:
# Wine has no Direct3D 12 driver to offer). Wine runs with WINEDEBUG=-all
# unless that is set. Without DISPLAY the script runs itself under
# xvfb-run -a (winevulkan makes its instances through X11).
#
# Wine before 9 lacks bcryptprimitives.dll, whose ProcessPrng every Rust
# program and DLL imports: when the prefix has none, a stand-in (ProcessPrng
# on RtlGenRandom) is built and put beside each program, for this test only.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
[ $# -eq 1 ] || {
  echo "usage: $0 ARCHIVE (wgpu-shim-X.Y.Z-windows-x86_64.zip, or the folder it unpacks to)" >&2
  exit 2
}

fail() {
  echo "consumer-windows: FAIL: $*" >&2
  exit 1
}
run() {
  printf '+ %s\n' "$*"
  "$@"
}

if [ -z "${DISPLAY:-}" ] && [ -z "${WGPU_SHIM_CONSUMER_XVFB:-}" ]; then
  command -v xvfb-run >/dev/null || fail "no DISPLAY and no xvfb-run (Debian: apt-get install -y xvfb)"
  WGPU_SHIM_CONSUMER_XVFB=1 exec xvfb-run -a "$0" "$@"
fi

mingw=x86_64-w64-mingw32
for tool in "$mingw-gcc" "$mingw-g++" "$mingw-objdump" "$mingw-dlltool" cmake pkg-config python3; do
  command -v "$tool" >/dev/null || fail "$tool is missing (Debian: gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 cmake pkg-config python3)"
done
wine="${WINE64:-/usr/lib/wine/wine64}"
[ -x "$wine" ] || wine="$(command -v wine64 || true)"
[ -n "$wine" ] || fail "Wine's 64-bit loader is missing (Debian: apt-get install -y wine wine64)"
wineserver="$(dirname "$wine")/wineserver"
[ -x "$wineserver" ] || wineserver=wineserver

work="$(mktemp -d "${TMPDIR:-/tmp}/wgpu-shim-consumer-windows.XXXXXX")"
case "$work/" in
  "$repo"/*) fail "the work folder $work is inside the repository" ;;
esac
export WINEPREFIX="${WINEPREFIX:-$work/wine-prefix}"
export WINEDEBUG="${WINEDEBUG:--all}"
export WGPU_BACKEND="${WGPU_BACKEND:-vulkan}"
if [ -z "${VK_ICD_FILENAMES:-}" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then
  export VK_ICD_FILENAMES="/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
fi
cleanup() {
  # Wine's server outlives the programs for a few seconds; it goes first.
  [ ! -d "$WINEPREFIX" ] || "$wineserver" -k 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The archive, unpacked (python3's zipfile: unzip may be missing).
if [ -f "$1" ]; then
  python3 -m zipfile -e "$1" "$work/archive"
  set -- "$work/archive"/*/
  if [ $# -ne 1 ] || [ ! -d "$1" ]; then
    fail "the zip does not hold one top folder"
  fi
fi
[ -d "$1" ] || fail "no archive at $1"
prefix="$(realpath "$1")"
for f in bin/wgpu_shim.dll lib/libwgpu_shim.dll.a lib/libwgpu_shim.a lib/wgpu_shim.def \
  include/webgpu/webgpu.h include/webgpu/wgpu.h include/webgpu/wgpu_shim.h \
  lib/cmake/wgpu-shim/wgpu-shimConfig.cmake lib/pkgconfig/wgpu-shim.pc; do
  [ -f "$prefix/$f" ] || fail "the archive lacks $f"
done
cp "$here/consumer.c" "$here/consumer.cpp" "$here/CMakeLists.txt" "$work/"
cd "$work"
echo "consumer-windows: archive $prefix, building in $work"

# imports PROGRAM: the DLLs it imports, one a line, in lower case.
imports() { "$mingw-objdump" -p "$1" | sed -n 's/^[[:space:]]*DLL Name: //p' | tr '[:upper:]' '[:lower:]' | sort -u; }
# needs PROGRAM DLL / lacks PROGRAM DLL: whether it imports DLL.
needs() { imports "$1" | grep -qx "$2" || fail "$1 does not import $2: $(imports "$1" | tr '\n' ' ')"; }
lacks() { ! imports "$1" | grep -qx "$2" || fail "$1 imports $2"; }
# no_runtime PROGRAM: it runs without MinGW's DLLs, which Windows lacks.
no_runtime() {
  ! imports "$1" | grep -E '^lib(gcc_s|stdc\+\+|winpthread)' ||
    fail "$1 imports MinGW runtime DLLs (link them statically: -static-libgcc -static-libstdc++)"
}

# 0. The archive itself.
echo "consumer-windows: the archive's exports, .def and headers"
exports="$("$mingw-objdump" -p "$prefix/bin/wgpu_shim.dll" |
  sed -n '/^\[Ordinal\/Name Pointer\] Table/,/^$/s/^[[:space:]]*\[ *[0-9]*\] \(.*\)$/\1/p' | LC_ALL=C sort)"
def="$(sed -n '3,$s/^[[:space:]]*\([^[:space:]]*\).*/\1/p' "$prefix/lib/wgpu_shim.def" | LC_ALL=C sort)"
declared="$(printf '#include <webgpu/%s>\n' webgpu.h wgpu.h wgpu_shim.h |
  "$mingw-gcc" -E -P -I"$prefix/include" -x c - | grep -o '\bwgpu[A-Za-z0-9_]*[[:space:]]*(' | tr -d '( ' | LC_ALL=C sort -u)"
[ "$(sed -n 1,2p "$prefix/lib/wgpu_shim.def")" = "$(printf 'LIBRARY wgpu_shim.dll\nEXPORTS')" ] ||
  fail "lib/wgpu_shim.def does not start with LIBRARY wgpu_shim.dll, EXPORTS"
[ "$def" = "$exports" ] || fail "lib/wgpu_shim.def is not the DLL's export list: $(LC_ALL=C comm -3 <(echo "$def") <(echo "$exports") | tr '\n' ' ')"
[ "$exports" = "$declared" ] || fail "the DLL's exports are not the headers' functions: $(LC_ALL=C comm -3 <(echo "$declared") <(echo "$exports") | tr '\n' ' ')"
echo "consumer-windows: $(echo "$exports" | wc -l) exports, all in the .def and the headers"
no_runtime "$prefix/bin/wgpu_shim.dll"
! find "$prefix" -iname 'bcryptprimitives*' | grep . || fail "the archive holds a bcryptprimitives stand-in"

# The Wine prefix, and the stand-in for bcryptprimitives.dll where it lacks
# one. Made without Mono and Gecko, which Wine would offer to download.
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  echo "consumer-windows: making the Wine prefix $WINEPREFIX"
  WINEDLLOVERRIDES="mscoree,mshtml=" "$wine" wineboot.exe --init >/dev/null 2>&1 || fail "wineboot could not make $WINEPREFIX"
  "$wineserver" -w
fi
standin=""
if [ ! -f "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" ]; then
  echo "consumer-windows: this Wine lacks bcryptprimitives.dll: a test-only stand-in goes beside each program"
  mkdir -p standin
  cat >standin/bcryptprimitives.c <<'C'
#include <windows.h>
#include <ntsecapi.h>
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) { return RtlGenRandom(data, (ULONG)len); }
C
  printf 'LIBRARY bcryptprimitives.dll\nEXPORTS\nProcessPrng\n' >standin/bcryptprimitives.def
  "$mingw-gcc" -shared -o standin/bcryptprimitives.dll standin/bcryptprimitives.c standin/bcryptprimitives.def -ladvapi32
  standin="$work/standin/bcryptprimitives.dll"
fi

# wine_run DIR PROGRAM [WANT]: runs DIR/PROGRAM.exe, which must exit 0 and
# print WANT at a line's start (default OK). DIR holds the program and the
# DLLs it loads, as a Windows user's program folder.
wine_run() {
  local dir="$1" program="$2" want="${3-OK}" out
  [ -z "$standin" ] || cp "$standin" "$dir/"
  printf '+ wine %s\n' "$dir/$program.exe"
  out="$(cd "$dir" && "$wine" "./$program.exe" 2>&1)" || {
    printf '%s\n' "$out"
    fail "$program.exe exited non-zero under Wine"
  }
  [ -z "$out" ] || printf '%s\n' "$out" | tr -d '\r'
  [ -z "$want" ] || printf '%s\n' "$out" | tr -d '\r' | grep -q "^$want" || fail "$program.exe did not print $want"
}
# beside DIR: a program folder with the archive's DLL in it.
beside() {
  mkdir -p "$1"
  cp "$prefix/bin/wgpu_shim.dll" "$1/"
}

cflags=(-std=c11 -Wall -Wextra -Werror -pedantic -O2)

# 1. C, shared, a plain gcc command line against the import library.
beside c_shared
run "$mingw-gcc" "${cflags[@]}" consumer.c -o c_shared/consumer_c.exe -I"$prefix/include" \
  -L"$prefix/lib" -lwgpu_shim
needs c_shared/consumer_c.exe wgpu_shim.dll
no_runtime c_shared/consumer_c.exe
wine_run c_shared consumer_c

# 2. C, static, with pkg-config --static's system libraries: -static makes
# -lwgpu_shim take libwgpu_shim.a over the import library.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
unset PKG_CONFIG_LIBDIR
[ "$(realpath "$(pkg-config --variable=libdir wgpu-shim)")" = "$prefix/lib" ] ||
  fail "pkg-config's libdir is not $prefix/lib"
mkdir -p c_static
# shellcheck disable=SC2046 # pkg-config's output is a list of words
run "$mingw-gcc" "${cflags[@]}" consumer.c -o c_static/consumer_c_static.exe \
  $(pkg-config --cflags wgpu-shim) -static $(pkg-config --static --libs wgpu-shim)
lacks c_static/consumer_c_static.exe wgpu_shim.dll
no_runtime c_static/consumer_c_static.exe
wine_run c_static consumer_c_static

# 3. C++, CMake find_package, shared and static. The MinGW runtime is linked
# statically, so that each program needs no DLL but the shim's.
run cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_SYSTEM_NAME=Windows \
  -DCMAKE_CXX_COMPILER="$mingw-g++" \
  -DCMAKE_EXE_LINKER_FLAGS="-static-libgcc -static-libstdc++" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >cmake.log 2>&1 || {
  cat cmake.log
  fail "cmake could not configure the C++ consumer"
}
grep '^-- consumer:' cmake.log
found_dir="$(sed -n 's/^wgpu-shim_DIR:PATH=//p' build/CMakeCache.txt)"
[ "$(realpath "$found_dir")" = "$prefix/lib/cmake/wgpu-shim" ] ||
  fail "find_package found $found_dir, not $prefix/lib/cmake/wgpu-shim"
echo "+ cmake --build build"
cmake --build build -v -j "$(nproc 2>/dev/null || echo 2)" >build.log 2>&1 || {
  cat build.log
  fail "the C++ consumer did not build"
}
# The link line, or the response file it names (CMake's MinGW makefiles).
grep -rq 'libwgpu_shim\.dll\.a' build.log build/CMakeFiles/consumer_shared.dir ||
  fail "consumer_shared was not linked through lib/libwgpu_shim.dll.a (IMPORTED_IMPLIB)"
beside cxx_shared
cp build/consumer_shared.exe cxx_shared/
needs cxx_shared/consumer_shared.exe wgpu_shim.dll
no_runtime cxx_shared/consumer_shared.exe
mkdir -p cxx_static
cp build/consumer_static.exe cxx_static/
lacks cxx_static/consumer_static.exe wgpu_shim.dll
no_runtime cxx_static/consumer_static.exe
wine_run cxx_shared consumer_shared
wine_run cxx_static consumer_static

# 4. Programs built for wgpu-native: they record wgpu_native.dll, and load
# wgpu-shim's DLL under that name, which turns wgpu-native's rules on (the
# same program linked to wgpu_shim.dll keeps the standard's).
unset WGPU_SHIM_COMPAT
cat >compat.c <<'C'
#include <webgpu/webgpu.h>
#include <stdio.h>
static void on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message, void *answered,
                       void *unused) {
  (void)adapter, (void)message, (void)unused;
  *(int *)answered = status == WGPURequestAdapterStatus_Success ? 1 : 2;
}
/* The callback mode left at 0, as code written for wgpu-native leaves it:
 * wgpu-native answers inside the call; the standard gives an error status. */
int main(void) {
  WGPUInstance instance = wgpuCreateInstance(NULL);
  if (!instance) return 1;
  int answered = 0;
  WGPURequestAdapterCallbackInfo callback = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  callback.callback = on_adapter;
  callback.userdata1 = &answered;
  wgpuInstanceRequestAdapter(instance, NULL, callback);
  printf("%s\n", answered == 1 ? "wgpu-native rules" : "standard rules");
  return 0;
}
C
mkdir -p native
(cd native && "$mingw-dlltool" -d "$prefix/lib/wgpu_shim.def" -D wgpu_native.dll -l libwgpu_native.dll.a)
for program in consumer compat; do
  run "$mingw-gcc" "${cflags[@]}" "$program.c" -o "native/${program}_native.exe" -I"$prefix/include" native/libwgpu_native.dll.a
  needs "native/${program}_native.exe" wgpu_native.dll
  lacks "native/${program}_native.exe" wgpu_shim.dll
done
rm native/libwgpu_native.dll.a
cp "$prefix/bin/wgpu_shim.dll" native/wgpu_native.dll
wine_run native consumer_native
wine_run native compat_native "wgpu-native rules"
run "$mingw-gcc" "${cflags[@]}" compat.c -o c_shared/compat_shim.exe -I"$prefix/include" -L"$prefix/lib" -lwgpu_shim
wine_run c_shared compat_shim "standard rules"

# 4b. With WGPU_NATIVE_DLL (wgpu-native's own Windows DLL), a program written
# the wgpu-native way (native_style.c: mode-0 callbacks, wgpuDevicePoll) is
# linked against it under the name wgpu_native.dll, run with it and then with
# wgpu-shim's DLL in its place: the two outputs must be the same.
if [ -n "${WGPU_NATIVE_DLL:-}" ]; then
  mkdir -p native-style
  cp "$WGPU_NATIVE_DLL" native-style/wgpu_native.dll
  run "$mingw-gcc" "${cflags[@]}" "$here/native_style.c" -o native-style/native_style.exe -I"$prefix/include" \
    native-style/wgpu_native.dll
  [ -z "$standin" ] || cp "$standin" native-style/
  printf '+ wine %s (on wgpu-native'"'"'s DLL)\n' native-style/native_style.exe
  reference() { (cd native-style && "$wine" ./native_style.exe 2>/dev/null) | tr -d '\r' >native-style/wgpu-native.out; }
  # Only this reference run, on wgpu-native's own DLL, gets a second try,
  # and only when a signal ended it: in CI on 2026-12-07 Wine 8 killed it
  # once (SIGKILL, no OOM) and it passed on every rerun. wgpu-shim's run
  # below is never retried.
  if ! reference; then
    status=${PIPESTATUS[0]}
    [ "$status" -gt 128 ] || fail "native_style.exe failed on wgpu-native's own DLL (exit status $status)"
    echo "consumer-windows: the reference run on wgpu-native's DLL ended by signal $((status - 128)); running it once more"
    reference || fail "native_style.exe failed twice on wgpu-native's own DLL (exit status ${PIPESTATUS[0]})"
  fi
  cp "$prefix/bin/wgpu_shim.dll" native-style/wgpu_native.dll
  printf '+ wine %s (on wgpu-shim'"'"'s DLL as wgpu_native.dll)\n' native-style/native_style.exe
  (cd native-style && "$wine" ./native_style.exe 2>/dev/null) | tr -d '\r' >native-style/wgpu-shim.out ||
    fail "native_style.exe failed on wgpu-shim's DLL as wgpu_native.dll"
  cat native-style/wgpu-shim.out
  diff native-style/wgpu-native.out native-style/wgpu-shim.out ||
    fail "a program built for wgpu-native printed something else on wgpu-shim's DLL"
  echo "consumer-windows: native_style.exe prints the same on wgpu-native's DLL and on wgpu-shim's"
else
  echo "consumer-windows: WGPU_NATIVE_DLL not set: the comparison with wgpu-native's own DLL is left out"
fi

# 5. MSVC's import library, read by an MSVC-style linker: lld-link takes
# link.exe's options and libraries. The program has no C runtime (there is
# no MSVC one here): its entry point creates an instance and exits 0 when it
# got one.
lld_link="$(command -v lld-link || compgen -c lld-link- | sort -V | tail -1 || true)"
if [ ! -f "$prefix/lib/wgpu_shim.dll.lib" ]; then
  echo "consumer-windows: the archive has no lib/wgpu_shim.dll.lib (MSVC): step 5 skipped"
elif [ -z "$lld_link" ]; then
  # Under CI a missing tool is a failure (docs/TESTING.md, "What SKIP means").
  case "${CI:-}" in
    true | 1 | yes)
      echo "consumer-windows: FAIL: no lld-link (Debian package lld) to link with lib/wgpu_shim.dll.lib" >&2
      exit 1
      ;;
  esac
  echo "consumer-windows: SKIP: no lld-link (Debian: apt-get install -y lld) to link with lib/wgpu_shim.dll.lib"
else
  beside msvc
  cat >msvc/entry.c <<'C'
#include <webgpu/webgpu.h>
__declspec(dllimport) void __stdcall ExitProcess(unsigned int code);
void entry(void) { ExitProcess(wgpuCreateInstance(NULL) ? 0 : 3); }
C
  # Called through the import library's stub, and (WGPU_SHARED_LIBRARY:
  # __declspec(dllimport)) through its __imp_ pointer.
  for variant in stub dllimport; do
    defines=()
    [ "$variant" = stub ] || defines=(-DWGPU_SHARED_LIBRARY)
    run "$mingw-gcc" -std=c11 -Wall -Werror -O2 "${defines[@]}" -c msvc/entry.c -o "msvc/entry_$variant.obj" -I"$prefix/include"
    run "$lld_link" /nologo /entry:entry /subsystem:console "/out:msvc/msvc_$variant.exe" "msvc/entry_$variant.obj" \
      "$prefix/lib/wgpu_shim.dll.lib" "$("$mingw-gcc" -print-file-name=libkernel32.a)"
    needs "msvc/msvc_$variant.exe" wgpu_shim.dll
    wine_run msvc "msvc_$variant" ""
  done
fi
echo "consumer-windows: every program built outside the repository and ran under Wine"
