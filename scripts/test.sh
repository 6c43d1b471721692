#!/usr/bin/env bash
# Runs every test of wgpu-shim, each step under its own header, and prints a
# summary with timings. Exits non-zero if any step fails.
#
#   scripts/test.sh [--fail-fast]
#
# Steps:
#   fmt         cargo fmt --check
#   generator   python3 tools/gen_webgpu.py --check   (only when ../shared/spec/webgpu.yml exists)
#   native-generator  python3 tools/gen_wgpu_native.py --check
#   clippy      cargo clippy --release --all-targets -- -D warnings
#   build       cargo build --release
#   unit        cargo test --release
#   ffi-tests   CMake + CTest of ffi-tests/ in build/ffi-tests
#   demo        examples/ built through the CMake package (wgpu_shim::wgpu_shim) and run
#   demo-static the same against wgpu_shim::wgpu_shim_static, and run
#   bench-smoke benches/smoke.sh: the benchmark program's smoke pass
#   soak        stress.soak for 25 s with 16 threads (the long run: docs/RELIABILITY.md)
#   sanitize    scripts/sanitize.sh: every C test and the fault-injection tests
#               under ASan + UBSan (nightly toolchain)
#   valgrind    scripts/valgrind.sh: the CI subset of the C tests under memcheck
#   fuzz        scripts/fuzz.sh 30: each fuzz target for 30 s over the committed
#               corpus (nightly toolchain, cargo-fuzz)
#
# The last three need tools that scripts/test.sh does not install (the nightly
# toolchain, cargo-fuzz, valgrind; .ci/run installs them): without them the
# step is reported SKIP, except under CI=true, where it fails.
#
# The GPU steps run on lavapipe unless WGPU_SHIM_ICD / VK_ICD_FILENAMES say
# otherwise (scripts/env.sh).
set -uo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$WGPU_SHIM_ROOT" || exit 1

fail_fast=0
for arg in "$@"; do
  case "$arg" in
    --fail-fast) fail_fast=1 ;;
    -h | --help)
      sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
      exit 0
      ;;
    *)
      echo "unknown argument: $arg (try --help)" >&2
      exit 2
      ;;
  esac
done

jobs="$(nproc 2>/dev/null || echo 2)"
spec_yml="$WGPU_SHIM_ROOT/../shared/spec/webgpu.yml"
summary=()
failed=0
library_built=0
started=$SECONDS

print_summary() {
  section "summary"
  local line
  for line in "${summary[@]}"; do
    printf '  %s\n' "$line"
  done
  printf '  total %ds\n' $((SECONDS - started))
  if [ "$failed" -ne 0 ]; then
    echo "FAILED"
  else
    echo "ALL PASSED"
  fi
}

# step NAME DESCRIPTION COMMAND...: runs COMMAND under a header and records
# the result.
step() {
  local name="$1" description="$2"
  shift 2
  section "$name: $description"
  local t0=$SECONDS status
  if "$@"; then
    status=PASS
  else
    status=FAIL
    failed=1
  fi
  local secs=$((SECONDS - t0))
  printf -- '---- %s: %s (%ds)\n' "$name" "$status" "$secs"
  summary+=("$(printf '%-4s %5ds  %s' "$status" "$secs" "$name")")
  if [ "$status" = FAIL ] && [ "$fail_fast" -eq 1 ]; then
    print_summary
    exit 1
  fi
  [ "$status" = PASS ]
}

# run COMMAND...: prints COMMAND, then runs it.
# shellcheck disable=SC2317 # called from the step functions
run() {
  printf '+ %s\n' "$*"
  "$@"
}

# skip NAME REASON: records a step that did not run. A skip is not a failure
# by itself (a step that cannot run because an earlier one failed is counted
# by that earlier failure).
skip() {
  section "$1: skipped"
  echo "skipped: $2"
  summary+=("$(printf '%-4s %5s   %s (%s)' SKIP - "$1" "$2")")
}

# shellcheck disable=SC2317 # called through step "$@"
generator_check() {
  run python3 tools/gen_webgpu.py --yml "$spec_yml" --check
}

# shellcheck disable=SC2317 # called through step "$@"
native_generator_check() {
  run python3 tools/gen_wgpu_native.py --check
}

# shellcheck disable=SC2317 # called through step "$@"
ffi_tests() {
  [ -f ffi-tests/CMakeLists.txt ] || {
    echo "ffi-tests/CMakeLists.txt is missing" >&2
    return 1
  }
  run cmake -S ffi-tests -B build/ffi-tests -DWGPU_SHIM_LIB_DIR="$WGPU_SHIM_LIB_DIR" &&
    run cmake --build build/ffi-tests -j "$jobs" &&
    run ctest --test-dir build/ffi-tests --output-on-failure --no-tests=error -j2 &&
    # The futures, mapping and event-loop tests again with WaitAny sleeping
    # on the device fence (the default on GPUs; lavapipe busy-waits there,
    # so the test that measures a long wait's CPU is left out).
    run env WGPU_SHIM_FENCE_WAIT=1 ctest --test-dir build/ffi-tests --output-on-failure --no-tests=error -j2 \
      -R '^(futures|mapping|eventloop)[.]' -E 'long_wait_sleeps_in_os'
}

# consumer DIR STATIC: configures examples/ from scratch through the CMake
# package, builds it with -Werror, runs the demo and checks how it is linked.
# shellcheck disable=SC2317 # called through step "$@"
consumer() {
  local dir="$1" static="$2"
  rm -f "$dir/CMakeCache.txt"
  run cmake -S examples -B "$dir" -DCMAKE_BUILD_TYPE=Release \
    -Dwgpu-shim_DIR="$WGPU_SHIM_ROOT/cmake" -DWGPU_SHIM_LIB_DIR="$WGPU_SHIM_LIB_DIR" \
    -DWGPU_SHIM_EXAMPLES_STATIC="$static" -DWGPU_SHIM_EXAMPLES_WERROR=ON &&
    run cmake --build "$dir" -j "$jobs" || return 1
  local needed
  needed="$(readelf -d "$dir/compute" 2>/dev/null | grep NEEDED || true)"
  if [ "$static" = ON ] && grep -q 'libwgpu_shim' <<<"$needed"; then
    echo "the static demo depends on libwgpu_shim.so:" >&2
    echo "$needed" >&2
    return 1
  fi
  if [ "$static" = OFF ] && command -v readelf >/dev/null 2>&1 && ! grep -q 'libwgpu_shim' <<<"$needed"; then
    echo "the shared demo does not depend on libwgpu_shim.so:" >&2
    echo "$needed" >&2
    return 1
  fi
  run "$dir/compute"
}

section "environment"
echo "repository:        $WGPU_SHIM_ROOT"
echo "libraries:         $WGPU_SHIM_LIB_DIR"
echo "Vulkan driver:     ${VK_DRIVER_FILES:-${VK_ICD_FILENAMES:-the Vulkan loader default}}"
echo "XDG_RUNTIME_DIR:   $XDG_RUNTIME_DIR"
echo "cores:             $jobs"
for tool in cargo rustc cmake cc python3; do
  printf '%-18s %s\n' "$tool:" "$("$tool" --version 2>/dev/null | head -n 1 || echo missing)"
done

step fmt "cargo fmt --check" cargo fmt --check

if [ -f "$spec_yml" ]; then
  step generator "header/ABI generator is up to date (gen_webgpu.py --check)" generator_check
else
  skip generator "$spec_yml not found"
fi

step native-generator "wgpu.h mirror is up to date (gen_wgpu_native.py --check)" native_generator_check

step clippy "cargo clippy --release --all-targets -- -D warnings" \
  cargo clippy --release --all-targets -- -D warnings

step build "cargo build --release" cargo build --release && library_built=1

step unit "Rust unit tests (cargo test --release)" cargo test --release

if [ "$library_built" -eq 1 ]; then
  step ffi-tests "C tests (ffi-tests/, CTest)" ffi_tests
  step demo "demo through the CMake package, shared library (wgpu_shim::wgpu_shim)" \
    consumer build/examples OFF
  step demo-static "demo through the CMake package, static library (wgpu_shim::wgpu_shim_static)" \
    consumer build/examples-static ON
  step bench-smoke "benchmarks, smoke pass (benches/smoke.sh: every scenario, tiny counts, verified)" \
    benches/smoke.sh
else
  for name in ffi-tests demo demo-static bench-smoke; do
    skip "$name" "cargo build --release failed"
  done
fi

# tool_step NAME DESCRIPTION CHECK HINT COMMAND...: a step that needs a tool
# (CHECK is a command that succeeds when it is there): SKIP without it, FAIL
# under CI=true.
tool_step() {
  local name="$1" description="$2" check="$3" hint="$4"
  shift 4
  if bash -c "$check" >/dev/null 2>&1; then
    step "$name" "$description" "$@"
  elif [ "${CI:-}" = true ]; then
    step "$name" "$description" sh -c "echo 'missing: $hint' >&2; exit 1"
  else
    skip "$name" "missing: $hint"
  fi
}

# shellcheck disable=SC2317 # called through step "$@"
soak_short() {
  run build/ffi-tests/stress.soak 25 16
}

if [ "$library_built" -eq 1 ]; then
  step soak "soak test, short (stress.soak: 25 s, 16 threads)" soak_short
else
  skip soak "cargo build --release failed"
fi
tool_step sanitize "C tests and fault-injection tests under ASan + UBSan (scripts/sanitize.sh)" \
  "cargo +nightly --version" "the nightly toolchain (rustup toolchain install nightly)" scripts/sanitize.sh
if [ "$library_built" -eq 1 ]; then
  tool_step valgrind "C tests under valgrind memcheck, CI subset (scripts/valgrind.sh)" \
    "command -v valgrind" "valgrind (apt-get install valgrind)" scripts/valgrind.sh
else
  skip valgrind "cargo build --release failed"
fi
tool_step fuzz "fuzz targets, 30 s each over the committed corpus (scripts/fuzz.sh 30)" \
  "cargo +nightly fuzz --version" "cargo-fuzz on nightly (cargo install cargo-fuzz)" scripts/fuzz.sh 30

print_summary
exit "$failed"
