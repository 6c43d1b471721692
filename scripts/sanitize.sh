#!/usr/bin/env bash
# Runs every C test (ffi-tests/, CTest) under AddressSanitizer and
# UndefinedBehaviorSanitizer.
#
#   scripts/sanitize.sh [CTEST_ARGS...]
#
# The library is built with the nightly toolchain and -Zsanitizer=address
# (into target-asan/, so the normal build is left alone), with the test-only
# feature fault-injection (inert unless WGPU_SHIM_FAULT is set), so the
# fault.* tests (label `fault`) run here too; the C tests are built with gcc
# -fsanitize=address,undefined against it (build/ffi-tests-asan) and run with
# LeakSanitizer on. Any report fails the run. UBSan covers the C side (Rust
# has no UBSan); ASan covers both.
#
# Suppressions (scripts/sanitizers/asan.supp): only for frames of the Vulkan
# driver and loader, never for wgpu-shim or wgpu-core; each says why. No leak
# suppression is needed. Three tests run with their own options:
#   teardown.exit_without_releasing   detect_leaks=0: it exits holding its
#                                     objects on purpose (what it tests)
#   teardown.release_in_static_destructor
#                                     the lavapipe suppressions of asan.supp:
#                                     lavapipe frees its own state in an exit
#                                     handler, then reads it when a device is
#                                     created in a later C++ static destructor;
#                                     and detect_leaks=0: after the library's
#                                     exit barrier its releases leave the
#                                     driver's objects to the OS on purpose
#                                     (docs/DECISIONS.md)
#   Python-hosted tests (eventloop.python_*, bindings.*):
#                                     python3 is not built with ASan, so the
#                                     runtime is LD_PRELOADed into it, with
#                                     detect_leaks=0 (CPython does not free
#                                     its heap at exit); address errors are
#                                     still reported
# CTEST_ARGS (for example -R '^mapping') select tests of the main run; the two
# teardown tests above run only when no CTEST_ARGS are given.
set -uo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$WGPU_SHIM_ROOT" || exit 1

triple=x86_64-unknown-linux-gnu
jobs="$(nproc 2>/dev/null || echo 2)"
supp="$WGPU_SHIM_ROOT/scripts/sanitizers"
lib_dir="$WGPU_SHIM_ROOT/target-asan/$triple/release"
build="$WGPU_SHIM_ROOT/build/ffi-tests-asan"

section "sanitize: toolchain"
if ! cargo +nightly --version 2>/dev/null; then
  echo "error: the nightly toolchain is missing (rustup toolchain install nightly --profile minimal)" >&2
  exit 1
fi
libasan="$(gcc -print-file-name=libasan.so)"
if [ ! -e "$libasan" ]; then
  echo "error: gcc's libasan.so is missing (apt-get install libgcc-12-dev)" >&2
  exit 1
fi
echo "ASan runtime: $libasan"

section "sanitize: library (cargo +nightly, -Zsanitizer=address)"
# Without the release profile's link-time optimisation: the sanitized library
# finds bugs, its speed does not matter, and LTO would double its build time.
RUSTFLAGS="-Zsanitizer=address -Cforce-frame-pointers=yes" \
  CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
  cargo +nightly build --release --features fault-injection --target "$triple" --target-dir target-asan || exit 1

section "sanitize: C tests (-fsanitize=address,undefined)"
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
python_env="LD_PRELOAD=$libasan;ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=0:halt_on_error=1"
# The binding and event-loop Python tests reuse the venvs of the normal C
# tests when those exist.
for v in wgpu-py-venv:WGPU_PY_VENV pygfx-venv:WGPU_PYGFX_VENV trio-venv:WGPU_SHIM_TRIO_VENV qt-venv:WGPU_SHIM_QT_VENV; do
  if [ -d "build/ffi-tests/${v%%:*}" ]; then
    python_env="$python_env;${v##*:}=$WGPU_SHIM_ROOT/build/ffi-tests/${v%%:*}"
  fi
done
cmake -S ffi-tests -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWGPU_SHIM_LIB_DIR="$lib_dir" \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DWGPU_SHIM_TEST_PYTHON_ENV="$python_env" -DWGPU_SHIM_TEST_TIMEOUT=300 -DWGPU_SHIM_FAULT_TESTS=ON >/dev/null &&
  cmake --build "$build" -j "$jobs" >/dev/null || exit 1

section "sanitize: CTest under ASan + UBSan"
# allocator_may_return_null: as in scripts/fuzz.sh, a refused allocation
# returns NULL (the library allocates fallibly where the API says what
# happens then), as glibc's malloc does. max_free_fill_size: freed memory is
# overwritten, so that the Vulkan driver (not instrumented) crashes when the
# library makes it use a freed object, instead of reading stale values that
# still work (futures.device_released_during_waitany).
common="allocator_may_return_null=1:halt_on_error=1:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1:max_free_fill_size=4096"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
special='^teardown[.](exit_without_releasing|release_in_static_destructor)$'
ASAN_OPTIONS="detect_leaks=1:$common" \
  ctest --test-dir "$build" --output-on-failure --no-tests=error -j2 -E "$special" "$@" || status=1
if [ "$#" -eq 0 ]; then
  ASAN_OPTIONS="detect_leaks=0:$common" \
    ctest --test-dir "$build" --output-on-failure --no-tests=error -R '^teardown[.]exit_without_releasing$' ||
    status=1
  ASAN_OPTIONS="detect_leaks=0:$common:suppressions=$supp/asan.supp" \
    ctest --test-dir "$build" --output-on-failure --no-tests=error -R '^teardown[.]release_in_static_destructor$' ||
    status=1
fi
[ "$status" -eq 0 ] && echo "sanitize: every test passed under ASan + UBSan"
exit "$status"
