#!/usr/bin/env bash
# Runs a Windows program under Wine's 64-bit loader: the CMake
# CROSSCOMPILING_EMULATOR of cmake/mingw-w64-x86_64.cmake, through which
# CTest runs each C test of a Windows build (scripts/test.sh, step windows).
#
#   scripts/wine-run.sh --prefix DIR PROGRAM.exe [ARGS...]
#   scripts/wine-run.sh --prefix DIR --init
#   scripts/wine-run.sh --prefix DIR --kill
#
# DIR is the Wine prefix (Wine's C: drive and registry), made on first use;
# the toolchain file gives each build folder its own, so that no run touches
# ~/.wine. The program's exit status is this script's (77 for a test's SKIP).
# --init only makes the prefix (when it is not there yet). --kill ends the
# prefix's wineserver and the Wine processes it still runs (a test run's end:
# the next run may have another X display).
#
# Environment: WINEDEBUG (default -all: Wine's own messages off; set it to
# see them), WINE64 (the loader, default /usr/lib/wine/wine64, else wine64 on
# PATH: Debian's wine64 package keeps it off PATH). The program needs an X
# display for Vulkan (winevulkan makes its surfaces through X11), which the
# caller provides once for the whole run (xvfb-run -a ctest ...), not per test.
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2
  exit 2
}

prefix="${WINEPREFIX:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix)
      [ $# -ge 2 ] || usage
      prefix="$2"
      shift 2
      ;;
    --prefix=*)
      prefix="${1#--prefix=}"
      shift
      ;;
    -h | --help) usage ;;
    *) break ;;
  esac
done
if [ $# -lt 1 ] || [ -z "$prefix" ]; then
  usage
fi
case "$prefix" in
  /*) ;;
  *) prefix="$PWD/$prefix" ;;
esac

loader="${WINE64:-/usr/lib/wine/wine64}"
if [ ! -x "$loader" ]; then
  loader="$(command -v wine64 || true)"
fi
if [ -z "$loader" ]; then
  echo "wine-run.sh: Wine's 64-bit loader is missing (Debian packages wine wine64: apt-get install -y wine wine64)" >&2
  exit 1
fi
# The wineserver beside the loader (Debian: /usr/lib/wine/wineserver), else
# the one on PATH.
wineserver="$(dirname "$loader")/wineserver"
[ -x "$wineserver" ] || wineserver=wineserver

export WINEPREFIX="$prefix"
export WINEDEBUG="${WINEDEBUG:--all}"

if [ "$1" = --kill ]; then
  [ -d "$prefix" ] || exit 0
  "$wineserver" -k 2>/dev/null || true
  exit 0
fi

# The prefix, made once (under a lock: CTest -j starts tests side by side):
# without Mono and Gecko (mscoree, mshtml), which Wine would offer to download
# in a dialog, and with WineDbg's crash dialog off, so that a crashing test
# prints its backtrace and ends instead of waiting for a click until its
# timeout.
if [ ! -f "$prefix/system.reg" ]; then
  mkdir -p "$(dirname "$prefix")"
  (
    flock 9
    if [ ! -f "$prefix/system.reg" ]; then
      echo "wine-run.sh: making the Wine prefix $prefix" >&2
      if ! WINEDLLOVERRIDES="mscoree,mshtml=" "$loader" wineboot.exe --init >/dev/null 2>&1 ||
        ! "$loader" reg.exe add 'HKCU\Software\Wine\WineDbg' /v ShowCrashDialog /t REG_DWORD /d 0 /f \
          >/dev/null 2>&1; then
        echo "wine-run.sh: could not make the Wine prefix $prefix" >&2
        rm -f "$prefix/system.reg"
        exit 1
      fi
      "$wineserver" -w
    fi
  ) 9>"$prefix.lock"
fi

[ "$1" = --init ] && exit 0

# The program's output goes through a file, not straight to our stdout: the
# first Wine program of a session starts Wine's own processes (wineserver,
# services.exe, explorer.exe...), which inherit its stdout and stderr and
# outlive it. CTest reads a test's output until every process holding it has
# closed it, so that first test would last as long as the session and run
# into its timeout. tail streams the file while the program runs and ends
# with it (--pid), after printing the rest.
out="$(mktemp "${TMPDIR:-/tmp}/wine-run.XXXXXX")"
trap 'rm -f "$out"' EXIT
"$loader" "$@" >"$out" 2>&1 &
program=$!
tail -n +1 -s 0.1 -f --pid="$program" "$out" &
streamer=$!
status=0
wait "$program" || status=$?
wait "$streamer" || true
exit "$status"
