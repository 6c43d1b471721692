#!/usr/bin/env bash
# Builds wgpu-native's own C examples the way a user switching from
# wgpu-native has them (compiled against wgpu-native's header, linked with
# -lwgpu_native, no rpath), runs them with LIB standing in for
# libwgpu_native.so, and checks the results; optionally runs them against a
# reference library too (wgpu-native itself) and compares the outputs.
#
#   scripts/wgpu-native-examples.sh [options] SRC_DIR [LIB]
#
#   SRC_DIR  a folder laid out like wgpu-native's examples/ (v29 API):
#              framework/framework.c, framework/framework.h
#              compute/main.c + shader.wgsl       prints "times: [...]"
#              capture/main.c + stb_image_write.h writes red.png
#              immediates/main.c + shader.wgsl    prints "times: [...]"
#              triangle/main.c + shader.wgsl      GLFW window, loops forever
#            A missing example is reported as skipped.
#   LIB      the library the examples run against, under the name
#            libwgpu_native.so in a folder of its own (default: this
#            repository's target/release/libwgpu_shim.so)
#
# Options:
#   --reference REF     also run every example against REF (e.g. wgpu-native's
#                       libwgpu_native.so) and compare stdout, red.png and the
#                       triangle's screenshot with LIB's byte for byte
#   --headers DIR       the folder holding webgpu.h and wgpu.h (default: this
#                       repository's include/webgpu); the examples' includes
#                       "webgpu-headers/webgpu.h", "wgpu.h" and <webgpu/...>
#                       are all mapped onto it
#   -o, --out DIR       keep builds, outputs and logs in DIR (default: a
#                       temporary folder, removed at exit)
#   -t, --timeout SECS  time limit for each run of compute, capture and
#                       immediates (default 120)
#   --frames-secs SECS  how long the triangle runs before it is stopped
#                       (default 3; it passes if it is still running then)
#
# The triangle needs GLFW (pkg-config glfw3: apt-get install -y libglfw3-dev
# libxrandr-dev) and xvfb-run (apt-get install -y xvfb); without them it is
# skipped. Its screenshot needs xwd (x11-apps). GLFW older than 3.4 lacks
# glfwGetPlatform(), which the example calls: a small shim providing it (X11
# only) is linked in, the example itself is not changed.
#
# WGPU_SHIM_COMPAT is unset for the runs: a program built for wgpu-native
# must work with no setting. The Vulkan driver and XDG_RUNTIME_DIR come from
# scripts/env.sh (lavapipe unless WGPU_SHIM_ICD / VK_ICD_FILENAMES say
# otherwise).
#
# Results per check: "PASS name", "FAIL name: why" or "SKIP name: why"; the
# last line is "N passed, N failed, N skipped". Exit status: 0 when nothing
# failed, 1 otherwise, 2 for usage or setup errors.
set -uo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"

usage() {
  sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

die() {
  echo "error: $*" >&2
  exit 2
}

reference=""
headers="$WGPU_SHIM_ROOT/include/webgpu"
out=""
run_timeout=120
frames_secs=3
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    --reference)
      [ $# -ge 2 ] || die "--reference needs a library"
      reference="$2"
      shift 2
      ;;
    --headers)
      [ $# -ge 2 ] || die "--headers needs a folder"
      headers="$2"
      shift 2
      ;;
    -o | --out)
      [ $# -ge 2 ] || die "$1 needs a folder"
      out="$2"
      shift 2
      ;;
    -t | --timeout)
      [ $# -ge 2 ] || die "$1 needs a number of seconds"
      run_timeout="$2"
      shift 2
      ;;
    --frames-secs)
      [ $# -ge 2 ] || die "--frames-secs needs a number of seconds"
      frames_secs="$2"
      shift 2
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    --)
      shift
      positional+=("$@")
      break
      ;;
    -*) die "unknown option: $1 (try --help)" ;;
    *)
      positional+=("$1")
      shift
      ;;
  esac
done
if [ ${#positional[@]} -lt 1 ] || [ ${#positional[@]} -gt 2 ]; then
  usage >&2
  exit 2
fi
case "$run_timeout$frames_secs" in
  *[!0-9]*) die "--timeout and --frames-secs take whole seconds" ;;
esac

src="${positional[0]}"
lib="${positional[1]:-$WGPU_SHIM_LIB_DIR/libwgpu_shim.so}"

# abspath PATH: PATH made absolute (the file need not exist).
abspath() {
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$PWD" "$1" ;;
  esac
}

[ -d "$src" ] || die "SRC_DIR $src is not a folder"
src="$(cd "$src" && pwd)"
if [ ! -f "$src/framework/framework.c" ] || [ ! -f "$src/framework/framework.h" ]; then
  die "$src has no framework/framework.c and framework/framework.h (is it wgpu-native's examples/?)"
fi
[ -f "$lib" ] || die "library $lib not found (cargo build --release, or pass LIB)"
lib="$(abspath "$lib")"
if [ -n "$reference" ]; then
  [ -f "$reference" ] || die "reference library $reference not found"
  reference="$(abspath "$reference")"
fi
if [ ! -f "$headers/webgpu.h" ] || [ ! -f "$headers/wgpu.h" ]; then
  die "no webgpu.h and wgpu.h in $headers"
fi
headers="$(cd "$headers" && pwd)"
cc="${CC:-cc}"
require_cmd "$cc" "apt-get install -y gcc (or set CC)" || exit 2
require_cmd timeout "coreutils' timeout is needed" || exit 2

keep_out="$out"
if [ -n "$out" ]; then
  mkdir -p "$out" || die "cannot create $out"
  out="$(cd "$out" && pwd)"
  rm -rf "${out:?}/build" "${out:?}/run" "${out:?}/libs"
else
  out="$(mktemp -d "${TMPDIR:-/tmp}/wgpu-native-examples.XXXXXX")" || die "mktemp failed"
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out/build" "$out/run" "$out/libs" "$out/inc/webgpu-headers" "$out/inc/webgpu"
for h in webgpu.h wgpu.h; do
  ln -sf "$headers/$h" "$out/inc/webgpu-headers/$h"
  ln -sf "$headers/$h" "$out/inc/webgpu/$h"
done

# libdir NAME PATH: a folder holding PATH as libwgpu_native.so (and under its
# SONAME, if it has another one); prints the folder.
libdir() {
  local dir="$out/libs/$1" soname
  mkdir -p "$dir"
  ln -sf "$2" "$dir/libwgpu_native.so"
  soname="$(readelf -d "$2" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')"
  if [ -n "$soname" ] && [ "$soname" != libwgpu_native.so ]; then
    ln -sf "$2" "$dir/$soname"
  fi
  printf '%s\n' "$dir"
}

libs=(lib)
declare -A lib_dir lib_path
lib_path[lib]="$lib"
lib_dir[lib]="$(libdir lib "$lib")"
if [ -n "$reference" ]; then
  libs+=(reference)
  lib_path[reference]="$reference"
  lib_dir[reference]="$(libdir reference "$reference")"
fi

passed=0
failed=0
skipped=0
pass() {
  echo "PASS $1"
  passed=$((passed + 1))
}
fail() {
  echo "FAIL $1: $2"
  failed=$((failed + 1))
}
skip_check() {
  echo "SKIP $1: $2"
  skipped=$((skipped + 1))
}

# show_log FILE: the last lines of FILE, indented.
show_log() {
  [ -s "$1" ] && tail -n 15 "$1" | sed 's/^/    | /'
  return 0
}

section "environment"
echo "examples:        $src"
echo "headers:         $headers"
for name in "${libs[@]}"; do
  printf '%-16s %s\n' "$name:" "${lib_path[$name]}"
done
echo "work folder:     $out"
echo "Vulkan driver:   ${VK_DRIVER_FILES:-${VK_ICD_FILENAMES:-the Vulkan loader default}}"
if [ -n "${WGPU_SHIM_COMPAT+set}" ]; then
  echo "WGPU_SHIM_COMPAT=${WGPU_SHIM_COMPAT} is unset for the runs"
fi
unset WGPU_SHIM_COMPAT

cflags=(-std=gnu99 -O2 -Wall -Wextra -Wpedantic -I "$out/inc" -I "$out/inc/webgpu-headers"
  -I "$src/framework")
# The examples are linked as against wgpu-native, whose library has no
# SONAME: they record libwgpu_native.so and load LIB under that name. A LIB
# with another SONAME (wgpu-shim's is libwgpu_shim.so.0) is linked through a
# copy whose SONAME patchelf sets to libwgpu_native.so. Without patchelf the
# examples are linked against LIB itself; they then record LIB's SONAME and
# load it under that name (libdir put a link of that name beside it).
link_dir="${lib_dir[lib]}"
lib_soname="$(readelf -d "$lib" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')"
if [ -n "$lib_soname" ] && [ "$lib_soname" != libwgpu_native.so ]; then
  if command -v patchelf >/dev/null 2>&1; then
    link_dir="$out/libs/link"
    mkdir -p "$link_dir"
    cp "$lib" "$link_dir/libwgpu_native.so"
    patchelf --set-soname libwgpu_native.so "$link_dir/libwgpu_native.so" ||
      die "patchelf --set-soname failed on a copy of $lib"
    echo "linking:         against a copy of LIB with SONAME libwgpu_native.so (LIB's is $lib_soname)"
  else
    echo "linking:         against LIB (SONAME $lib_soname; no patchelf): the examples load it as $lib_soname"
  fi
fi
ldflags=(-L "$link_dir" -lwgpu_native -lm -ldl)

# build NAME [EXTRA CC ARGS...]: compiles NAME/main.c with the framework into
# $out/build/NAME; the compiler's output goes to $out/build/NAME.log.
build() {
  local name="$1"
  shift
  "$cc" "${cflags[@]}" -o "$out/build/$name" "$src/$name/main.c" "$src/framework/framework.c" \
    "$@" "${ldflags[@]}" >"$out/build/$name.log" 2>&1
}

# log_problem FILE: the first line of an example's stderr that reports an
# error the library logged and went on from (an uncaptured error, an
# error-level log line, a Rust panic); nothing, failing, when there is none.
# wgpu-native aborts on an uncaptured error; a library that only logs it must
# not pass because the program then exits 0.
log_problem() {
  grep -m 1 -E 'uncaptured [a-z-]+ error|^\[wgpu\] \[error\]|panicked at' "$1" 2>/dev/null
}

# prepare_run NAME LIBNAME: an empty folder for one run, holding the
# example's shaders (the examples load them from the current folder).
prepare_run() {
  local dir="$out/run/$2/$1"
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$src/$1/"*.wgsl "$dir/" 2>/dev/null
  printf '%s\n' "$dir"
}

# run_plain NAME LIBNAME: runs a terminating example; checks exit 0 (and
# red.png for capture).
run_plain() {
  local name="$1" which="$2" dir status problem
  dir="$(prepare_run "$name" "$which")"
  (cd "$dir" && LD_LIBRARY_PATH="${lib_dir[$which]}" timeout -k 5 "$run_timeout" \
    "$out/build/$name" >stdout 2>stderr)
  status=$?
  echo "$status" >"$dir/status"
  echo "---- $name [$which] exit $status"
  sed 's/^/    > /' "$dir/stdout"
  show_log "$dir/stderr"
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    fail "$name [$which]" "timed out after ${run_timeout}s"
  elif [ "$status" -ne 0 ]; then
    fail "$name [$which]" "exit status $status$([ "$status" -gt 128 ] && echo " (signal $((status - 128)))")"
  elif [ "$name" = capture ] && [ ! -s "$dir/red.png" ]; then
    fail "$name [$which]" "exit 0 but no red.png written"
  elif problem="$(log_problem "$dir/stderr")"; then
    fail "$name [$which]" "exit 0 but stderr reports: $problem"
  else
    pass "$name [$which]"
  fi
}

# clear_xwd_padding FILE: zeroes the padding byte of each colour-map entry of
# an xwd screenshot, which xwd leaves uninitialised (it came out 0 or 128 at
# random, on either library), so that two screenshots of the same pixels are
# the same file.
clear_xwd_padding() {
  python3 - "$1" <<'PY'
import struct, sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
if len(data) >= 100:
    header_size, ncolors = struct.unpack(">I", data[0:4])[0], struct.unpack(">I", data[76:80])[0]
    for i in range(ncolors):
        pad = header_size + 12 * i + 11  # XWDColor: pixel, r, g, b, flags, pad
        if pad < len(data):
            data[pad] = 0
    open(path, "wb").write(data)
PY
}

# run_triangle LIBNAME: runs the triangle under xvfb-run for $frames_secs
# seconds, takes a screenshot (xwd), and stops it; it passes if it was still
# running by then.
run_triangle() {
  local which="$1" dir status problem
  dir="$(prepare_run triangle "$which")"
  local unbuffer=()
  command -v stdbuf >/dev/null 2>&1 && unbuffer=(stdbuf -oL -eL)
  # The inner script: start the example, wait, screenshot, stop it.
  # shellcheck disable=SC2016 # expanded by the inner bash
  local inner='
    "$@" >stdout 2>stderr &
    pid=$!
    sleep "$FRAMES_SECS"
    if command -v xwd >/dev/null 2>&1; then xwd -root -silent >shot.xwd 2>/dev/null || rm -f shot.xwd; fi
    if kill -0 "$pid" 2>/dev/null; then
      echo running >state
      kill "$pid"
    fi
    wait "$pid"
    echo $? >status'
  (cd "$dir" && FRAMES_SECS="$frames_secs" timeout -k 5 $((frames_secs + 60)) \
    xvfb-run -a -s "-screen 0 800x600x24" bash -c "$inner" triangle \
    env LD_LIBRARY_PATH="${lib_dir[$which]}" "${unbuffer[@]}" "$out/build/triangle" >xvfb.log 2>&1)
  status=$?
  [ -f "$dir/shot.xwd" ] && clear_xwd_padding "$dir/shot.xwd"
  local state="exited" exit_status="?"
  [ -f "$dir/state" ] && state="$(cat "$dir/state")"
  [ -f "$dir/status" ] && exit_status="$(cat "$dir/status")"
  echo "---- triangle [$which] after ${frames_secs}s: $state (exit status $exit_status)"
  sed 's/^/    > /' "$dir/stdout" 2>/dev/null
  show_log "$dir/stderr"
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    show_log "$dir/xvfb.log"
    fail "triangle [$which]" "xvfb-run did not finish"
  elif [ "$state" != running ]; then
    show_log "$dir/xvfb.log"
    fail "triangle [$which]" "stopped before ${frames_secs}s, exit status $exit_status$(
      [ "$exit_status" != "?" ] && [ "$exit_status" -gt 128 ] && echo " (signal $((exit_status - 128)))"
    )"
  elif problem="$(log_problem "$dir/stderr")"; then
    fail "triangle [$which]" "running, but stderr reports: $problem"
  else
    pass "triangle [$which]"
  fi
}

# run_ok NAME LIBNAME: whether NAME's run on LIBNAME passed (exit 0; for the
# triangle, still running when stopped).
run_ok() {
  local dir="$out/run/$2/$1"
  if [ "$1" = triangle ]; then
    [ "$(cat "$dir/state" 2>/dev/null)" = running ]
  else
    [ "$(cat "$dir/status" 2>/dev/null)" = 0 ]
  fi
}

# compare NAME FILE...: with a reference, compares each FILE of NAME's two
# runs byte for byte (a FILE neither run wrote is left out).
compare() {
  local name="$1" file compared=() diffs=()
  shift
  [ -n "$reference" ] || return 0
  if ! run_ok "$name" lib || ! run_ok "$name" reference; then
    skip_check "$name [same output as reference]" "a run failed"
    return 0
  fi
  for file in "$@"; do
    [ -f "$out/run/lib/$name/$file" ] || [ -f "$out/run/reference/$name/$file" ] || continue
    compared+=("$file")
    if ! cmp -s "$out/run/lib/$name/$file" "$out/run/reference/$name/$file"; then
      diffs+=("$file")
      if [ "$file" = stdout ]; then
        diff -u "$out/run/reference/$name/stdout" "$out/run/lib/$name/stdout" |
          sed 's/^/    /' | head -n 20
      fi
    fi
  done
  if [ ${#compared[@]} -eq 0 ]; then
    skip_check "$name [same output as reference]" "no output to compare ($*)"
  elif [ ${#diffs[@]} -eq 0 ]; then
    pass "$name [same output as reference: ${compared[*]}]"
  else
    fail "$name [same output as reference]" "differs: ${diffs[*]}"
  fi
}

for name in compute capture immediates; do
  section "$name"
  if [ ! -f "$src/$name/main.c" ]; then
    skip_check "$name" "no $name/main.c in $src"
    continue
  fi
  extra=()
  [ "$name" = capture ] && extra=(-DSTB_IMAGE_WRITE_IMPLEMENTATION)
  if ! build "$name" "${extra[@]}"; then
    show_log "$out/build/$name.log"
    fail "$name [build]" "compile/link failed (its log is above)"
    continue
  fi
  warnings="$(grep -c 'warning:' "$out/build/$name.log")"
  echo "built $name ($warnings compiler warnings)"
  for which in "${libs[@]}"; do
    run_plain "$name" "$which"
  done
  if [ "$name" = capture ]; then
    compare "$name" stdout red.png
  else
    compare "$name" stdout
  fi
done

section "triangle"
glfw_version="$(pkg-config --modversion glfw3 2>/dev/null)"
if [ ! -f "$src/triangle/main.c" ]; then
  skip_check triangle "no triangle/main.c in $src"
elif [ -z "$glfw_version" ]; then
  skip_check triangle "GLFW not found (pkg-config glfw3; apt-get install -y libglfw3-dev libxrandr-dev)"
elif ! command -v xvfb-run >/dev/null 2>&1; then
  skip_check triangle "xvfb-run not found (apt-get install -y xvfb)"
else
  extra=(-DGLFW_EXPOSE_NATIVE_X11 -DGLFW_EXPOSE_NATIVE_WAYLAND)
  case "$glfw_version" in
    3.[0-3] | 3.[0-3].*)
      cat >"$out/build/glfw_compat.h" <<'EOF'
/* GLFW < 3.4 has no glfwGetPlatform(), which the triangle example calls. */
#include <GLFW/glfw3.h>
#define GLFW_PLATFORM_WAYLAND 0x00060003
#define GLFW_PLATFORM_X11 0x00060004
int glfwGetPlatform(void);
EOF
      cat >"$out/build/glfw_compat.c" <<'EOF'
/* X11 only: GLFW < 3.4 builds have one platform, and no Wayland getters. */
#include <stddef.h>
struct wl_display;
struct wl_surface;
struct GLFWwindow;
int glfwGetPlatform(void) { return 0x00060004; /* GLFW_PLATFORM_X11 */ }
struct wl_display *glfwGetWaylandDisplay(void) { return NULL; }
struct wl_surface *glfwGetWaylandWindow(struct GLFWwindow *window) {
  (void)window;
  return NULL;
}
EOF
      extra+=(-include "$out/build/glfw_compat.h" "$out/build/glfw_compat.c")
      echo "GLFW $glfw_version < 3.4: linking a glfwGetPlatform() shim (X11 only)"
      ;;
  esac
  read -r -a glfw_flags <<<"$(pkg-config --cflags --libs glfw3)"
  if ! build triangle "${extra[@]}" "${glfw_flags[@]}"; then
    show_log "$out/build/triangle.log"
    fail "triangle [build]" "compile/link failed (its log is above)"
  else
    warnings="$(grep -c 'warning:' "$out/build/triangle.log")"
    echo "built triangle ($warnings compiler warnings)"
    for which in "${libs[@]}"; do
      run_triangle "$which"
    done
    command -v xwd >/dev/null 2>&1 || echo "(no xwd: no screenshots to compare; apt-get install -y x11-apps)"
    compare triangle stdout shot.xwd
  fi
fi

section "summary"
if [ -n "$keep_out" ]; then
  echo "outputs: $out/run/<lib|reference>/<example>/ (stdout, stderr, status, red.png, shot.xwd)"
fi
if [ $skipped -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
