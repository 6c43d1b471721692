#!/usr/bin/env bash
# Runs every test of wgpu-shim, each step under its own header, and prints a
# summary with timings. Exits non-zero if any step fails.
#
#   scripts/test.sh [--quick] [--fail-fast]
#
#   --quick      the loop for a change: fmt, the generator and docs checks,
#                clippy, build, unit and C tests on lavapipe, the demo
#                (docs/TESTING.md); every other step is left out, and the
#                summary says how many
#   --fail-fast  stop at the first step that fails
#
# Steps:
#   fmt         cargo fmt --check
#   generator   python3 tools/gen_webgpu.py --check   (only when ../shared/spec/webgpu.yml exists)
#   native-generator  python3 tools/gen_wgpu_native.py --check
#   docs        python3 tools/check_docs.py: links and anchors in README.md,
#               *.md and docs/*.md resolve (also as the release archive
#               ships them), the tests they name exist, every environment
#               variable the code reads is in docs/ENVIRONMENT.md's table, the counts
#               of tests they state are the tree's (or name their commit),
#               the minimum Rust is Cargo.toml's and the PGO build's time is
#               stated one way with its commit (and --self-test: the checks
#               catch each kind of fault)
#   clippy      cargo clippy --release --all-targets -- -D warnings
#   macos       cargo clippy --target aarch64-apple-darwin --lib -- -D warnings,
#               and the same for x86_64-apple-darwin: the macOS code (Metal)
#               compiles and is clippy-clean; a target rustup lacks is added
#   msrv        cargo +<rust-version> check --lib --locked, with the toolchain
#               of Cargo.toml's rust-version (the minimum supported Rust,
#               installed with rustup --profile minimal when missing) and its
#               own target folder, target/msrv: the locked dependencies and
#               the library build with it
#   build       cargo build --release --all-targets: the library, its unit
#               tests and the benchmarks' Rust programs in one build, so that
#               their link-time optimisations run side by side
#   unit        cargo test --release (built by the build step)
#   ffi-tests   CMake + CTest of ffi-tests/ in build/ffi-tests, then the
#               futures, mapping and event-loop tests again with
#               WGPU_SHIM_FENCE_WAIT=1; the event-loop tests include the
#               trio/anyio and Qt (PySide6) examples, whose packages the tests
#               pip-install into venvs of build/ffi-tests (trio-venv, qt-venv),
#               and the libuv example (Debian's libuv1-dev, found by CMake)
#   demo        examples/ built through the CMake package (wgpu_shim::wgpu_shim) and run
#   demo-static the same against wgpu_shim::wgpu_shim_static, and run
#   bench-smoke benches/smoke.sh: the benchmark program's smoke pass (it
#               downloads wgpu-native from PyPI the first time; without
#               network it runs wgpu-shim alone)
#   headers     tools/check_headers.sh: the public headers under C99..C23 and
#               C++11..C++23, -Wall -Wextra -Werror -pedantic, gcc and clang
#   install     scripts/install.sh into a temporary prefix (and with DESTDIR),
#               then packaging/consumer/run.sh: C with pkg-config (shared and
#               static) and C++ with find_package, built outside the repository
#   archive     scripts/package.sh, the archive unpacked elsewhere, and the same
#               consumers built against it
#   wheel       scripts/wheel.sh (hatchling + auditwheel), the wheel installed
#               into a fresh venv with wgpu==0.32.0, and a compute and a render
#               round trip through wgpu-py (packaging/python/tests/test_wheel.py;
#               needs PyPI)
#   soak        stress.soak for 25 s with 16 threads (the long run: docs/RELIABILITY.md)
#   sanitize    scripts/sanitize.sh: every C test and the fault-injection tests
#               under ASan + UBSan (nightly toolchain)
#   valgrind    scripts/valgrind.sh: the CI subset of the C tests under memcheck
#   fuzz        scripts/fuzz.sh 15: each fuzz target for 15 s over the committed
#               corpus (nightly toolchain, cargo-fuzz)
#   windows     cargo clippy for x86_64-pc-windows-gnu (-D warnings), then
#               scripts/windows-tests.sh: the library built for
#               x86_64-pc-windows-gnu, the C tests cross-built with MinGW-w64
#               (cmake/mingw-w64-x86_64.cmake) into build/ffi-tests-windows and
#               run under Wine and Xvfb through CTest, on each Windows backend
#               (WGPU_BACKEND=vulkan, then dx12), with the counts of each;
#               then the Windows archive (scripts/package.sh --target
#               x86_64-pc-windows-gnu) and packaging/consumer/run-windows.sh:
#               programs built against it with MinGW (and lld-link for the
#               MSVC import library) run under Wine
#   pgo         scripts/pgo.sh: the profile-guided build that install.sh,
#               package.sh and wheel.sh --pgo ship (it fails if the profile
#               does not fit the code), then the C tests of the futures,
#               mapping and render groups and the benchmarks' smoke pass
#               against it; target/release holds that build afterwards
#               (needs rustup's llvm-tools component, which it adds)
#
# The sanitize, valgrind, fuzz and windows steps need tools that
# scripts/test.sh does not install (the nightly toolchain, cargo-fuzz,
# valgrind; MinGW-w64, Wine and rustup's x86_64-pc-windows-gnu target; .ci/run
# installs them): without them the step is reported SKIP, with the reason, in
# the summary.
#
# Under CI=true (the CI machine, .ci/run; also CI=1 or yes) a step that would
# be SKIP because a tool or package is missing FAILS instead, naming what to
# install: .ci/run installs everything, so there a skip would hide a step that
# never ran. The C tests follow the same rule (ffi-tests/CMakeLists.txt,
# ffi-tests/bindings/venv_util.py). What cannot run on a machine for other
# reasons stays SKIP with its reason everywhere (the generator check without
# ../shared/spec/webgpu.yml; a C test without an X server or an adapter
# feature). The summary counts the skipped steps.
#
# The GPU steps run on lavapipe unless WGPU_SHIM_ICD / VK_ICD_FILENAMES /
# VK_DRIVER_FILES say otherwise (scripts/env.sh).
set -uo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$WGPU_SHIM_ROOT" || exit 1

fail_fast=0
quick=0
for arg in "$@"; do
  case "$arg" in
    --fail-fast) fail_fast=1 ;;
    --quick) quick=1 ;;
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
failed_steps=()
passed=0
skipped=0
library_built=0
started=$SECONDS

# Each step's output is also kept in a file of its own, so that the summary
# can end with the lines that say why a step failed: CI's report shows only
# the end of the output.
step_logs="$(mktemp -d "${TMPDIR:-/tmp}/wgpu-shim-steps.XXXXXX")" || step_logs=""
trap 'rm -rf "$step_logs"' EXIT

print_summary() {
  section "summary"
  local line
  for line in "${summary[@]}"; do
    printf '  %s\n' "$line"
  done
  if [ "${#left_out[@]}" -gt 0 ]; then
    printf '  --quick: %d steps of the full run left out (%s)\n' "${#left_out[@]}" "${left_out[*]}"
  fi
  local failures=$((${#summary[@]} - passed - skipped)) name
  for name in "${failed_steps[@]}"; do
    printf '  why %s failed:\n' "$name"
    failure_recap "$name"
  done
  printf '  disk: %s\n' "$(disk_space)"
  printf '  total %ds: %d passed, %d failed, %d skipped\n' $((SECONDS - started)) \
    "$passed" "$failures" "$skipped"
  if [ "$failed" -ne 0 ]; then
    echo "FAILED"
  elif [ "$skipped" -ne 0 ]; then
    echo "ALL PASSED ($skipped skipped)"
  else
    echo "ALL PASSED"
  fi
}

# The steps of --quick (docs/TESTING.md).
quick_steps=" fmt generator native-generator docs clippy build unit ffi-tests demo "
left_out=()

# in_run NAME: the step NAME runs in this mode (every step, or --quick's).
in_run() {
  [ "$quick" -eq 0 ] || [[ "$quick_steps" == *" $1 "* ]]
}

# in_ci: CI is set to true (or 1, yes): the CI machine, where a missing tool
# is a failure, not a skip.
in_ci() {
  case "${CI:-}" in
    [Tt][Rr][Uu][Ee] | 1 | [Yy][Ee][Ss]) return 0 ;;
  esac
  return 1
}

# step NAME DESCRIPTION COMMAND...: runs COMMAND under a header and records
# the result.
step() {
  local name="$1" description="$2"
  shift 2
  if ! in_run "$name"; then
    left_out+=("$name")
    return 0
  fi
  section "$name: $description"
  local t0=$SECONDS status
  if run_logged "$name" "$@"; then
    status=PASS
    passed=$((passed + 1))
  else
    status=FAIL
    failed=1
    failed_steps+=("$name")
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

# run_logged NAME COMMAND...: runs COMMAND in this shell (a step function
# sets variables that later steps read), its output and errors going both to
# standard output and to the step's log, $step_logs/NAME.log; returns
# COMMAND's status.
run_logged() {
  local name="$1" rc=0 tee_fd tee_pid
  shift
  if [ -z "$step_logs" ] || ! : >"$step_logs/$name.log" 2>/dev/null; then
    "$@"
    return
  fi
  exec {tee_fd}> >(tee "$step_logs/$name.log")
  tee_pid=$!
  "$@" >&"$tee_fd" 2>&1 || rc=$?
  exec {tee_fd}>&-
  # The tee ends when the last writer closes the pipe. A process the step
  # left running (a server it started) would hold it open: it is not waited
  # for longer than 10 s.
  local tries=0
  while kill -0 "$tee_pid" 2>/dev/null && [ "$tries" -lt 100 ]; do
    sleep 0.1
    tries=$((tries + 1))
  done
  if kill "$tee_pid" 2>/dev/null; then
    echo "test.sh: a process that step $name started still holds its output open; its log ends here" >&2
  fi
  wait "$tee_pid" 2>/dev/null
  return "$rc"
}

# failure_recap NAME: the lines of step NAME's log that most likely say why it
# failed, at most 160 characters each: its last lines that report a failure
# (a test's FAILED line, CTest's failed tests, a compiler error, a panic, a
# full disk), else its last lines that name an error in any words, else its
# last lines. CTest's lists of skipped tests are left out (a skipped test's
# name may hold "error").
failure_recap() {
  local log="$step_logs/$1.log" lines
  if [ -z "$step_logs" ] || [ ! -s "$log" ]; then
    echo "    (no output was recorded)"
    return
  fi
  local strong='FAILED|\(Failed\)|\*\*\*(Failed|Timeout|Exception)|error(\[E[0-9]+\])?:|panicked|No space left|Permission denied|command not found|Killed'
  local weak='error|fail|panic|abort|no space|denied|not found|missing|cannot|timed out|timeout'
  local noise='Passed|\((Skipped|Not Run|Disabled)\)|^ *(Compiling|Checking|Fresh) '
  lines="$(grep -a -E "$strong" "$log" | grep -a -v -E "$noise" | tail -n 8)"
  [ -n "$lines" ] || lines="$(grep -a -i -E "$weak" "$log" | grep -a -v -E "$noise" | tail -n 6)"
  [ -n "$lines" ] || lines="$(tail -n 6 "$log")"
  printf '%s\n' "$lines" | cut -c1-160 | sed 's/^/    /'
  printf '    last line: %s\n' "$(tail -n 1 "$log" | cut -c1-148)"
}

# disk_space: the free space where the tests write (the tree, TMPDIR), one
# line; a full disk makes any step fail.
disk_space() {
  df -Ph "$WGPU_SHIM_ROOT" "${TMPDIR:-/tmp}" 2>/dev/null |
    awk 'NR > 1 && !seen[$1]++ { printf "%s%s %s free of %s", sep, $6, $4, $2; sep = "; " } END { print "" }'
}

# ci_tidy PATH...: under CI, removes build folders of a finished step that
# no later step reads. A CI machine's disk may be small, and the last steps
# (windows, pgo) add about 2.7 GB; this frees 3.1 GB before them (both
# measured in a fresh-clone CI run of 65a5fcc).
ci_tidy() {
  in_ci || return 0
  local path
  for path in "$@"; do
    [ -e "$path" ] || continue
    echo "ci: removing $path ($(du -sh "$path" 2>/dev/null | cut -f1)): no later step reads it"
    rm -rf "$path"
  done
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
  if ! in_run "$1"; then
    left_out+=("$1")
    return 0
  fi
  section "$1: skipped"
  echo "skipped: $2"
  skipped=$((skipped + 1))
  summary+=("$(printf '%-4s %5s   %s (%s)' SKIP - "$1" "$2")")
}

# missing_tool NAME HINT: the step NAME that needs HINT's tool: SKIP with
# "missing: HINT", or under CI a failure that says so.
missing_tool() {
  if in_ci; then
    step "$1" "needs $2" ci_missing "$2"
  else
    skip "$1" "missing: $2"
  fi
}

# shellcheck disable=SC2317 # called through step "$@"
ci_missing() {
  echo "missing: $1" >&2
  echo "CI=true: a step that cannot run for want of a tool fails (.ci/run installs it)" >&2
  return 1
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
docs_check() {
  run python3 tools/check_docs.py --self-test >/dev/null && run python3 tools/check_docs.py
}

# shellcheck disable=SC2317 # called through step "$@"
ffi_tests() {
  [ -f ffi-tests/CMakeLists.txt ] || {
    echo "ffi-tests/CMakeLists.txt is missing" >&2
    return 1
  }
  # The driver env.sh chose (empty: the Vulkan loader's default), not the
  # CMake cache's lavapipe default.
  run cmake -S ffi-tests -B build/ffi-tests -DWGPU_SHIM_LIB_DIR="$WGPU_SHIM_LIB_DIR" \
    -DWGPU_SHIM_TEST_ICD="${VK_ICD_FILENAMES:-}" &&
    run cmake --build build/ffi-tests -j "$jobs" &&
    run ctest --test-dir build/ffi-tests --output-on-failure --no-tests=error -j2 &&
    # The futures, mapping and event-loop tests again with WaitAny sleeping
    # on the device fence (the default on GPUs; lavapipe busy-waits there,
    # so the test that measures a long wait's CPU is left out).
    run env WGPU_SHIM_FENCE_WAIT=1 ctest --test-dir build/ffi-tests --output-on-failure --no-tests=error -j2 \
      -R '^(futures|mapping|eventloop)[.]' -E 'long_wait_sleeps_in_os'
}

# The C tests that do not run in the GL pass, each with why
# (docs/PLATFORMS.md, "OpenGL", lists them): pattern<TAB>reason.
gl_excluded=(
  $'^eventloop[.](example_|python_)\tthe examples\' ~200 ms GPU job runs inside wgpuQueueSubmit on llvmpipe\'s OpenGL, so the loop has nothing to wait for (the harness tests say the same in their SKIP line)'
  $'^bindings[.]pygfx$\tpygfx 0.17 asks for the float32-filterable feature, which llvmpipe\'s OpenGL lacks: its device request fails there on wgpu-native as here'
)

# shellcheck disable=SC2317 # called through step "$@"
gl_tests() {
  [ -d build/ffi-tests ] || {
    echo "build/ffi-tests is missing: the ffi-tests step configures it" >&2
    return 1
  }
  local patterns=() entry
  for entry in "${gl_excluded[@]}"; do
    printf 'not on GL: %s: %s\n' "${entry%%$'\t'*}" "${entry#*$'\t'}"
    patterns+=("${entry%%$'\t'*}")
  done
  local exclude
  exclude=$(IFS='|'; echo "${patterns[*]}")
  # llvmpipe through EGL with no display (Mesa's surfaceless platform).
  run env WGPU_BACKEND=gl EGL_PLATFORM=surfaceless ctest --test-dir build/ffi-tests --output-on-failure \
    --no-tests=error -j2 -E "$exclude"
}

# Mesa's EGL (libegl-mesa0), which the GL step drives llvmpipe through.
have_mesa_egl() {
  ldconfig -p 2>/dev/null | grep -q 'libEGL_mesa[.]so[.]0'
}

# The minimum supported Rust: Cargo.toml's rust-version.
rust_version() {
  sed -n 's/^rust-version *= *"\([0-9.]*\)".*/\1/p' Cargo.toml | head -n 1
}

# msrv_toolchain VERSION: succeeds when rustup has the toolchain VERSION
# (installing it, --profile minimal, when missing).
msrv_toolchain() {
  local ver="$1"
  command -v rustup >/dev/null 2>&1 || return 1
  if ! rustup toolchain list | grep "^$ver-" >/dev/null; then
    section "msrv: toolchain"
    run rustup toolchain install "$ver" --profile minimal || return 1
  fi
  cargo "+$ver" --version >/dev/null
}

# shellcheck disable=SC2317 # called through step "$@"
msrv_check() {
  run cargo "+$1" check --lib --locked --target-dir target/msrv
}

# shellcheck disable=SC2317 # called through step "$@"
bench_smoke() {
  run benches/smoke.sh || return 1
  # Without network or pip, run.py measures wgpu-shim alone and passes: under
  # CI that would hide that wgpu-native never ran.
  if in_ci && ! python3 -c 'import json, sys; sys.exit("wgpu-native" not in json.load(open(sys.argv[1]))["libraries"])' \
    build/benches/smoke.json; then
    echo "the smoke pass ran without wgpu-native: its download failed (python3 -m pip download wgpu==0.32.0;" \
      "Debian package python3-pip, and PyPI); CI=true makes that a failure" >&2
    return 1
  fi
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

# The temporary folders of the packaging steps (install, archive, wheel).
pkg_tmp="$(mktemp -d "${TMPDIR:-/tmp}/wgpu-shim-test.XXXXXX")" || exit 1
trap 'rm -rf "$pkg_tmp" "$step_logs"' EXIT

# lib_dir_check: a relative CARGO_TARGET_DIR is taken from the repository
# root, as the scripts run cargo there, whatever folder the caller is in: by
# scripts/env.sh (WGPU_SHIM_LIB_DIR) and by the CMake package from the source
# tree (its default WGPU_SHIM_LIB_DIR). Configures a project that finds the
# package, run from another folder, against a stand-in library file.
# shellcheck disable=SC2317 # called through step "$@"
lib_dir_check() {
  local dir="$pkg_tmp/lib-dir" rel want got
  mkdir -p "$dir/target/release" "$dir/project" && : >"$dir/target/release/libwgpu_shim.so" || return 1
  want="$(realpath "$dir/target/release")"
  rel="$(realpath --relative-to="$WGPU_SHIM_ROOT" "$dir/target")"
  got="$(cd "$dir/project" && CARGO_TARGET_DIR="$rel" bash -c '. "$1/scripts/env.sh" && echo "$WGPU_SHIM_LIB_DIR"' \
    sh "$WGPU_SHIM_ROOT")"
  if [ "$(realpath -m "$got")" != "$want" ]; then
    echo "scripts/env.sh with CARGO_TARGET_DIR=$rel: WGPU_SHIM_LIB_DIR=$got, not $want" >&2
    return 1
  fi
  # shellcheck disable=SC2016 # CMake's ${...}, not the shell's
  printf '%s\n' 'cmake_minimum_required(VERSION 3.16)' 'project(lib_dir_check LANGUAGES NONE)' \
    'find_package(wgpu-shim REQUIRED)' 'message(STATUS "lib dir: ${WGPU_SHIM_LIB_DIR}")' \
    >"$dir/project/CMakeLists.txt"
  got="$(cd "$dir/project" && CARGO_TARGET_DIR="$rel" cmake -S . -B build -Dwgpu-shim_DIR="$WGPU_SHIM_ROOT/cmake" 2>&1)" || {
    echo "$got" >&2
    return 1
  }
  got="$(sed -n 's/^-- lib dir: //p' <<<"$got")"
  if [ "$(realpath -m "$got")" != "$want" ]; then
    echo "the CMake package with CARGO_TARGET_DIR=$rel: WGPU_SHIM_LIB_DIR=$got, not $want" >&2
    return 1
  fi
  echo "CARGO_TARGET_DIR=$rel (relative): scripts/env.sh and the CMake package both use $want"
}

# xdg_check: scripts/env.sh replaces an XDG_RUNTIME_DIR that is relative or
# not private with a private one (lavapipe complains of a relative one).
# shellcheck disable=SC2317 # called through step "$@"
xdg_check() {
  local v got
  for v in relative-folder /; do
    got="$(XDG_RUNTIME_DIR="$v" bash -c '. "$1/scripts/env.sh" 2>/dev/null && echo "$XDG_RUNTIME_DIR"' \
      sh "$WGPU_SHIM_ROOT")"
    case "$got" in
      /*) [ -d "$got" ] && [ -O "$got" ] && [ "$(stat -c %a "$got")" = 700 ] && continue ;;
    esac
    echo "scripts/env.sh with XDG_RUNTIME_DIR=$v: XDG_RUNTIME_DIR=$got, not a private folder" >&2
    return 1
  done
  echo "XDG_RUNTIME_DIR relative or not private: scripts/env.sh uses a private one"
}

# shellcheck disable=SC2317 # called through step "$@"
demo_check() {
  lib_dir_check && xdg_check && consumer build/examples OFF
}

# shellcheck disable=SC2317 # called through step "$@"
install_check() {
  local stage="$pkg_tmp/stage" prefix="$pkg_tmp/prefix" want got
  # Staged (DESTDIR) for /usr: the files land under the stage, named for /usr.
  run env DESTDIR="$stage" scripts/install.sh --prefix /usr --no-build >/dev/null || return 1
  want="include/webgpu/webgpu.h include/webgpu/wgpu.h include/webgpu/wgpu_shim.h lib/cmake/wgpu-shim/wgpu-shimConfig.cmake"
  want+=" lib/cmake/wgpu-shim/wgpu-shimConfigVersion.cmake lib/cmake/wgpu-shim/wgpu-shimInstall.cmake lib/libwgpu_shim.a"
  want+=" lib/libwgpu_shim.so lib/libwgpu_shim.so.0 lib/libwgpu_shim.so.$(crate_version) lib/pkgconfig/wgpu-shim.pc"
  got="$(cd "$stage/usr" && find . \( -type f -o -type l \) | sed 's|^\./||' | LC_ALL=C sort | xargs)"
  if [ "$got" != "$want" ]; then
    printf 'DESTDIR install: got\n  %s\nwanted\n  %s\n' "$got" "$want" >&2
    return 1
  fi
  grep -qx 'prefix=/usr' "$stage/usr/lib/pkgconfig/wgpu-shim.pc" || {
    echo "the staged wgpu-shim.pc does not name prefix=/usr" >&2
    return 1
  }
  [ "$(readlink "$stage/usr/lib/libwgpu_shim.so")" = libwgpu_shim.so.0 ] &&
    [ "$(readlink "$stage/usr/lib/libwgpu_shim.so.0")" = "libwgpu_shim.so.$(crate_version)" ] &&
    readelf -d "$stage/usr/lib/libwgpu_shim.so.0" | grep -q 'SONAME.*\[libwgpu_shim\.so\.0\]' || {
    echo "the staged links or the SONAME are wrong:" >&2
    ls -l "$stage/usr/lib" >&2
    return 1
  }
  echo "DESTDIR install: the $(wc -w <<<"$want") files, links and SONAME are right"
  run scripts/install.sh --prefix "$prefix" --no-build >/dev/null &&
    run packaging/consumer/run.sh "$prefix"
}

# shellcheck disable=SC2317 # called through step "$@"
archive_check() {
  local unpacked="$pkg_tmp/unpacked" name
  name="wgpu-shim-$(crate_version)-linux-$(uname -m)"
  run scripts/package.sh --no-build --out "$pkg_tmp/dist" | grep -E '^(archive|[0-9a-f]{64}) ' || return 1
  mkdir -p "$unpacked" &&
    run tar -xzf "$pkg_tmp/dist/$name.tar.gz" -C "$unpacked" || return 1
  local f
  for f in README.md INSTALL.md CHANGELOG.md docs/INSTALL.md; do
    [ -f "$unpacked/$name/$f" ] || {
      echo "the archive lacks $f" >&2
      return 1
    }
  done
  # Every link of its documentation resolves inside the unpacked archive.
  run python3 tools/check_docs.py --links-only --root "$unpacked/$name" &&
    run packaging/consumer/run.sh "$unpacked/$name"
}

# shellcheck disable=SC2317 # called through step "$@"
wheel_check() {
  local venv="$pkg_tmp/wheel-venv" wheel
  run scripts/wheel.sh --no-build --out "$pkg_tmp/dist" || return 1
  wheel="$(ls "$pkg_tmp"/dist/wgpu_shim-*.whl)"
  run python3 -m venv "$venv" &&
    run "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel" wgpu==0.32.0 || return 1
  # From a folder outside the repository, so that only the installed wgpu_shim imports.
  (cd "$pkg_tmp" && run env -u WGPU_LIB_PATH "$venv/bin/python" \
    "$WGPU_SHIM_ROOT/packaging/python/tests/test_wheel.py" "$WGPU_SHIM_ROOT/ffi-tests/bindings")
}

# crate_version: Cargo.toml's version, as the header states it.
crate_version() {
  sed -n 's/^#define WGPU_SHIM_VERSION_STRING "\(.*\)"$/\1/p' include/webgpu/wgpu_shim.h
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

step docs "documentation: links, tests named, variables, counts, figures (tools/check_docs.py)" docs_check

step headers "headers under every C and C++ standard, gcc and clang (tools/check_headers.sh)" \
  tools/check_headers.sh gcc clang

step clippy "cargo clippy --release --all-targets -- -D warnings" \
  cargo clippy --release --all-targets -- -D warnings

# has_target TRIPLE: the Rust standard library for TRIPLE is installed (with
# rustup or not).
has_target() {
  [ -d "$(rustc --print sysroot 2>/dev/null)/lib/rustlib/$1/lib" ]
}

# The macOS targets: the library's code for Apple systems (Metal, the
# CAMetalLayer surfaces) is checked by clippy, which needs no macOS SDK.
macos_targets=(aarch64-apple-darwin x86_64-apple-darwin)

# shellcheck disable=SC2317 # called through step "$@"
macos_check() {
  local target status=0
  for target in "${macos_targets[@]}"; do
    if ! has_target "$target"; then
      run rustup target add "$target" || return 1
    fi
    run cargo clippy --target "$target" --lib -- -D warnings || status=1
  done
  return "$status"
}

macos_missing=0
for target in "${macos_targets[@]}"; do
  has_target "$target" || macos_missing=1
done
if [ "$macos_missing" -eq 0 ] || command -v rustup >/dev/null 2>&1; then
  step macos "the library for macOS: cargo clippy --target {aarch64,x86_64}-apple-darwin --lib -- -D warnings" \
    macos_check
else
  missing_tool macos "rustup, for the targets ${macos_targets[*]} (https://rustup.rs)"
fi

msrv="$(rust_version)"
if ! in_run msrv; then
  left_out+=(msrv)
elif [ -z "$msrv" ]; then
  step msrv "Cargo.toml's rust-version" false
elif msrv_toolchain "$msrv"; then
  step msrv "the library checks with Rust $msrv, Cargo.toml's rust-version (cargo +$msrv check --lib --locked)" \
    msrv_check "$msrv"
elif command -v rustup >/dev/null 2>&1; then
  missing_tool msrv "the Rust $msrv toolchain (rustup toolchain install $msrv --profile minimal failed)"
else
  missing_tool msrv "rustup, for the Rust $msrv toolchain (https://rustup.rs)"
fi
ci_tidy target/msrv

# One cargo run for the library, the unit tests and the examples: each of them
# is a fat-LTO link of one codegen unit, so built one after another they
# leave all but one core idle for minutes.
step build "cargo build --release --all-targets" cargo build --release --all-targets && library_built=1

step unit "Rust unit tests (cargo test --release)" cargo test --release

if [ "$library_built" -eq 1 ]; then
  step ffi-tests "C tests (ffi-tests/, CTest)" ffi_tests
  if have_mesa_egl; then
    step gl "the C tests again on OpenGL (llvmpipe through EGL, WGPU_BACKEND=gl)" gl_tests
  else
    missing_tool gl "Mesa's EGL (Debian: libegl-mesa0)"
  fi
  step demo "demo through the CMake package, shared library (wgpu_shim::wgpu_shim); the package and env.sh with a relative CARGO_TARGET_DIR; env.sh's XDG_RUNTIME_DIR" \
    demo_check
  step demo-static "demo through the CMake package, static library (wgpu_shim::wgpu_shim_static)" \
    consumer build/examples-static ON
  step bench-smoke "benchmarks, smoke pass (benches/smoke.sh: every scenario, tiny counts, verified)" \
    bench_smoke
  step install "scripts/install.sh into a prefix; C (pkg-config) and C++ (find_package) consumers" install_check
  step archive "scripts/package.sh; the consumers against the unpacked archive" archive_check
  step wheel "scripts/wheel.sh; compute and render through wgpu-py from the wheel in a fresh venv" wheel_check
else
  for name in ffi-tests demo demo-static bench-smoke install archive wheel; do
    skip "$name" "the build step failed"
  done
fi

# tool_step NAME DESCRIPTION CHECK HINT COMMAND...: a step that needs a tool
# (CHECK is a command that succeeds when it is there): SKIP without it, with
# the reason in the summary; under CI (where .ci/run installs the tools) a
# FAIL that names what to install.
tool_step() {
  local name="$1" description="$2" check="$3" hint="$4"
  shift 4
  if bash -c "$check" >/dev/null 2>&1; then
    step "$name" "$description" "$@"
  else
    missing_tool "$name" "$hint"
  fi
}

# shellcheck disable=SC2317 # called through step "$@"
soak_short() {
  run build/ffi-tests/stress.soak 25 16
}

if [ "$library_built" -eq 1 ]; then
  step soak "soak test, short (stress.soak: 25 s, 16 threads)" soak_short
else
  skip soak "the build step failed"
fi
tool_step sanitize "C tests and fault-injection tests under ASan + UBSan (scripts/sanitize.sh)" \
  "cargo +nightly --version" "the nightly toolchain (rustup toolchain install nightly --profile minimal)" scripts/sanitize.sh
ci_tidy target-asan build/ffi-tests-asan
if [ "$library_built" -eq 1 ]; then
  tool_step valgrind "C tests under valgrind memcheck, CI subset (scripts/valgrind.sh)" \
    "command -v valgrind" "valgrind (Debian package valgrind: apt-get install valgrind)" scripts/valgrind.sh
else
  skip valgrind "the build step failed"
fi
tool_step fuzz "fuzz targets, 15 s each over the committed corpus (scripts/fuzz.sh 15)" \
  "cargo +nightly fuzz --version" "cargo-fuzz on nightly (cargo install cargo-fuzz)" scripts/fuzz.sh 15
ci_tidy fuzz/target

# windows_missing: what the windows step needs that this machine lacks, as
# what to install (nothing when it has everything).
windows_missing() {
  local packages=() what=()
  command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || packages+=(gcc-mingw-w64-x86-64)
  command -v x86_64-w64-mingw32-g++ >/dev/null 2>&1 || packages+=(g++-mingw-w64-x86-64)
  if [ ! -x /usr/lib/wine/wine64 ] && ! command -v wine64 >/dev/null 2>&1; then
    packages+=(wine wine64)
  fi
  command -v xvfb-run >/dev/null 2>&1 || packages+=(xvfb)
  if [ ${#packages[@]} -gt 0 ]; then
    what+=("Debian packages ${packages[*]} (apt-get install -y ${packages[*]})")
  fi
  has_target x86_64-pc-windows-gnu ||
    what+=("the Rust target x86_64-pc-windows-gnu (rustup target add x86_64-pc-windows-gnu)")
  local IFS=';'
  printf '%s' "${what[*]}"
}

# shellcheck disable=SC2317 # called through step "$@"
windows_check() {
  run cargo clippy --target x86_64-pc-windows-gnu --lib -- -D warnings || return 1
  run scripts/windows-tests.sh || return 1
  # The Windows archive, and programs built against it the way a user of
  # the archive builds them, run under Wine (packaging/consumer/run-windows.sh).
  run scripts/package.sh --target x86_64-pc-windows-gnu --no-build --out "$pkg_tmp/dist-windows" || return 1
  local zip native_dll
  zip="$(ls "$pkg_tmp"/dist-windows/wgpu-shim-*-windows-x86_64.zip)" || return 1
  # wgpu-native's own DLL (PyPI's wgpu 0.32.0 wheel, cached), for the
  # program built for wgpu-native that must print the same on both DLLs.
  if native_dll="$(python3 benches/wine.py --print-native-dll)"; then
    run env WGPU_NATIVE_DLL="$native_dll" packaging/consumer/run-windows.sh "$zip"
  elif in_ci; then
    echo "wgpu-native's Windows DLL could not be downloaded (python3-pip, PyPI)" >&2
    return 1
  else
    echo "wgpu-native's Windows DLL could not be downloaded: the comparison with it is left out"
    run packaging/consumer/run-windows.sh "$zip"
  fi
}

windows_needs="$(windows_missing)"
if [ -z "$windows_needs" ]; then
  step windows "Windows under Wine: the C tests on Vulkan and DX12 (scripts/windows-tests.sh), the archive and its consumers" \
    windows_check
else
  missing_tool windows "${windows_needs//;/, and }"
fi

# shellcheck disable=SC2317 # called through step "$@"
pgo_check() {
  run scripts/pgo.sh >"$pkg_tmp/pgo.log" 2>&1 || {
    tail -n 40 "$pkg_tmp/pgo.log"
    return 1
  }
  grep '^pgo.sh:\|^+ ' "$pkg_tmp/pgo.log"
  run ctest --test-dir build/ffi-tests --output-on-failure --no-tests=error -j2 \
    -R '^(futures|mapping|render)[.]' &&
    run benches/smoke.sh >/dev/null
}

# Last: it leaves the profile-guided build in target/release.
if [ "$library_built" -eq 1 ]; then
  step pgo "profile-guided build (scripts/pgo.sh); C tests and benchmark smoke pass against it" pgo_check
else
  skip pgo "the build step failed"
fi

print_summary
exit "$failed"
