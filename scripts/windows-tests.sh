#!/usr/bin/env bash
# The C tests of ffi-tests/ on Windows: the library built for
# x86_64-pc-windows-gnu, the tests cross-built with MinGW-w64
# (cmake/mingw-w64-x86_64.cmake) and run under Wine through CTest, once per
# Windows backend (WGPU_BACKEND=vulkan, then dx12), each run under one Xvfb
# display (Wine's Vulkan needs an X server). scripts/test.sh runs it as its
# windows step.
#
#   scripts/windows-tests.sh [--no-build] [--backend NAME]... [-- CTEST-ARGS...]
#
#   --no-build      use the DLL in target/x86_64-pc-windows-gnu/release as it
#                   is (default: cargo build --release --target
#                   x86_64-pc-windows-gnu --lib first, which is incremental)
#   --backend NAME  run the tests on NAME only (vulkan or dx12; repeatable;
#                   default: both)
#   CTEST-ARGS      passed to each ctest run (-R '^futures[.]', say)
#
# The tests build into build/ffi-tests-windows, and Wine keeps its prefix
# there too (wine-prefix/, made on first use). Each backend's run prints its
# counts (passed, failed, skipped: the tests about what Windows lacks, and
# under Wine the DX12 tests that need a device, ffi-tests/CMakeLists.txt says
# why). Exits non-zero if a test failed on either backend.
#
# Needs (Debian packages): gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 wine
# wine64 xvfb, cmake, and rustup's target x86_64-pc-windows-gnu; .ci/run
# installs them.
set -uo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$WGPU_SHIM_ROOT" || exit 1

build=1
backends=()
ctest_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=0 ;;
    --backend)
      [ $# -ge 2 ] || {
        echo "--backend needs a name" >&2
        exit 2
      }
      backends+=("$2")
      shift
      ;;
    --)
      shift
      ctest_args=("$@")
      break
      ;;
    -h | --help)
      sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
      exit 0
      ;;
    *)
      echo "unknown argument: $1 (try --help)" >&2
      exit 2
      ;;
  esac
  shift
done
[ ${#backends[@]} -gt 0 ] || backends=(vulkan dx12)

jobs="$(nproc 2>/dev/null || echo 2)"
# Where cargo puts the Windows build: beside target/release.
lib_dir="$(dirname "$WGPU_SHIM_LIB_DIR")/x86_64-pc-windows-gnu/release"
build_dir="$WGPU_SHIM_ROOT/build/ffi-tests-windows"
prefix="$build_dir/wine-prefix"

# run COMMAND...: prints COMMAND, then runs it.
run() {
  printf '+ %s\n' "$*"
  "$@"
}

# quiet LOG COMMAND...: prints COMMAND, then runs it with its output appended
# to LOG.
quiet() {
  local log="$1"
  shift
  printf '+ %s >>%s\n' "$*" "$log"
  "$@" >>"$log" 2>&1
}

for tool in x86_64-w64-mingw32-gcc:gcc-mingw-w64-x86-64 x86_64-w64-mingw32-g++:g++-mingw-w64-x86-64 \
  xvfb-run:xvfb cmake:cmake; do
  require_cmd "${tool%%:*}" "Debian package ${tool#*:}" || exit 1
done
if [ ! -x /usr/lib/wine/wine64 ] && ! command -v wine64 >/dev/null 2>&1; then
  echo "error: Wine's 64-bit loader is missing: Debian packages wine wine64" >&2
  exit 1
fi

if [ "$build" -eq 1 ]; then
  run cargo build --release --target x86_64-pc-windows-gnu --lib || exit 1
fi

# The test programs, against that DLL (-DWGPU_SHIM_TEST_ICD: the driver that
# env.sh chose, as the Linux step passes it).
build_log="$build_dir.log"
mkdir -p "$(dirname "$build_log")" && : >"$build_log"
if ! quiet "$build_log" cmake -S ffi-tests -B "$build_dir" \
  -DCMAKE_TOOLCHAIN_FILE="$WGPU_SHIM_ROOT/cmake/mingw-w64-x86_64.cmake" \
  -DWGPU_SHIM_LIB_DIR="$lib_dir" -DWGPU_SHIM_TEST_ICD="${VK_ICD_FILENAMES:-}" ||
  ! quiet "$build_log" cmake --build "$build_dir" -j "$jobs"; then
  tail -n 40 "$build_log"
  echo "the Windows build of the C tests failed ($build_log)" >&2
  exit 1
fi

# The Wine prefix, made once before the first test, so that no test's time
# holds the ten seconds or so that takes.
run xvfb-run -a scripts/wine-run.sh --prefix "$prefix" --init || exit 1

# Tests that fail on D3D12 under Wine 8 for what Wine (or wgpu's HLSL
# backend) cannot do, each with the error it gives. Most tests that compile a
# shader there are reported SKIP by CTest itself (the harness prints the
# uncaptured error, whose text names Wine's FXC: CMakeLists.txt,
# wgpu_shim_wine_limits); these receive the error in a callback of their own.
# wgpu-native v29.0.1.1's DLL gets no D3D12 device under Wine at all (it
# does not read WGPU_VALIDATION_INDIRECT_CALL). On Vulkan every test runs.
dx12_wine_known=(
  "compat.wgpu_native_program_runs_unchanged: one more uncaptured error than expected (FXC D3DCompile: Not implemented)"
  "errors.compute_pipeline_async: the async pipelines' status InternalError (FXC D3DCompile: Not implemented)"
  "futures.every_callback_fires_exactly_once: CreateComputePipelineAsync's status InternalError (FXC)"
  "futures.spontaneous_cpu_ops_fire_inline: CreateComputePipelineAsync's status InternalError (FXC)"
  "render.pipeline_async: the async pipelines' status InternalError (FXC D3DCompile: Not implemented)"
  "native.immediates_reach_compute_shader: naga's HLSL backend: push-constant 'k' has non-struct type (wgpu issue 5683; real D3D12 too)"
  "textures.buffer_texture_texture_roundtrip: 37 bytes outside the copied region are not zero after the texture-to-texture copy (Wine's D3D12 on Vulkan; not seen on Vulkan)"
)
dx12_wine_exclude="$(printf '%s\n' "${dx12_wine_known[@]}" | sed 's/:.*//' | paste -sd'|')"
dx12_wine_exclude="^(${dx12_wine_exclude//./\\.})\$"

status=0
summary=()
for backend in "${backends[@]}"; do
  section "windows: C tests under Wine, WGPU_BACKEND=$backend"
  log="$build_dir/ctest-$backend.log"
  t0=$SECONDS
  rc=0
  # One X display for the whole run; Wine's processes of the run are ended
  # afterwards, so that the next run starts on its own display.
  # Under Wine, a D3D12 device is only made without wgpu-core's indirect-call
  # validation: it compiles a compute shader at device creation, which Wine
  # 8's FXC refuses ("Not implemented"). The tests that need no shader then
  # run; those that compile one are reported SKIP (CMakeLists.txt,
  # wgpu_shim_wine_limits).
  backend_env=(WGPU_BACKEND="$backend")
  exclude=()
  if [ "$backend" = dx12 ]; then
    backend_env+=(WGPU_VALIDATION_INDIRECT_CALL=0)
    exclude=(-E "$dx12_wine_exclude")
    printf 'not run on D3D12 under Wine (%s):\n' "what each gives instead"
    printf '  %s\n' "${dx12_wine_known[@]}"
  fi
  run env "${backend_env[@]}" xvfb-run -a ctest --test-dir "$build_dir" --output-on-failure \
    --no-tests=error -j2 "${exclude[@]}" "${ctest_args[@]}" 2>&1 | tee "$log" || rc=$?
  scripts/wine-run.sh --prefix "$prefix" --kill
  [ "$rc" -eq 0 ] || status=1
  # CTest's summary line and its list of the tests that did not run.
  total="$(sed -n 's/.* tests failed out of \([0-9]*\)$/\1/p' "$log" | tail -n 1)"
  failed="$(sed -n 's/.* \([0-9]*\) tests failed out of [0-9]*$/\1/p' "$log" | tail -n 1)"
  skipped="$(grep -c '^[[:space:]]*[0-9]* - .* (Skipped)$' "$log")"
  total="${total:-0}" failed="${failed:-0}"
  summary+=("$(printf '%-6s %3d passed, %d failed, %d skipped (of %d), %ds' "$backend" \
    $((total - failed - skipped)) "$failed" "$skipped" "$total" $((SECONDS - t0)))")
done

section "windows: summary"
for line in "${summary[@]}"; do
  printf '  %s\n' "$line"
done
exit "$status"
