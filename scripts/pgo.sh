#!/usr/bin/env bash
# Builds the release libraries with profile-guided optimisation (PGO): the
# build that scripts/install.sh --pgo, scripts/package.sh --pgo and
# scripts/wheel.sh --pgo ship.
#
#   scripts/pgo.sh [--keep]
#
#   --keep   keep the instrumented build and the profiles (target/pgo)
#
# 1. builds an instrumented library (target/pgo/gen, the release profile);
# 2. trains it on lavapipe (or the driver scripts/env.sh picks): the
#    benchmark program (benches/bench.c) through every scenario, once as a CPU
#    adapter runs and once with the GPU's wait ladder forced on
#    (WGPU_SHIM_FENCE_WAIT=1 WGPU_SHIM_SPIN_US=50), then the C tests of the
#    objects, mapping, render, texture and surface groups;
# 3. merges the profiles with llvm-profdata (rustup component llvm-tools;
#    installed when missing and rustup can), builds the release libraries
#    with them (RUSTFLAGS=-Cprofile-use=..., in target/pgo/use) and copies
#    libwgpu_shim.so and libwgpu_shim.a into target/release.
#
# Why: on a CPU adapter the driver's threads evict the layer's code and data
# from the caches between calls, and a profile-guided layout (hot code
# together, cold paths out of line) takes the 256-byte map round trip from
# about 1.07x wgpu-native's blocking poll to 0.96-1.02x (BENCHMARKS.md,
# lavapipe). A later plain `cargo build --release` puts the plain libraries
# back into target/release: its own build stays apart from the profile-guided
# one (a cdylib's file in deps/ is shared by every RUSTFLAGS, so the final
# build has a folder of its own).
#
# Needs what scripts/demo.sh needs, plus cmake for the training programs.
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$WGPU_SHIM_ROOT"

keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) keep=1 && shift ;;
    -h | --help)
      sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
      exit 0
      ;;
    *)
      echo "pgo.sh: unknown argument: $1 (try --help)" >&2
      exit 2
      ;;
  esac
done

require_cmd cargo "install the Rust toolchain (https://rustup.rs)"
require_cmd cmake "apt-get install -y cmake"
if [ -n "${RUSTFLAGS:-}" ] || [ -n "${CARGO_ENCODED_RUSTFLAGS:-}" ]; then
  echo "pgo.sh: RUSTFLAGS is set; unset it (the script sets its own)" >&2
  exit 2
fi

# llvm-profdata of the toolchain's own LLVM (a system one may read another
# profile format version).
profdata="$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin/llvm-profdata"
if [ ! -x "$profdata" ] && command -v rustup >/dev/null; then
  echo "+ rustup component add llvm-tools"
  rustup component add llvm-tools || true
fi
if [ ! -x "$profdata" ]; then
  echo "pgo.sh: $profdata is missing: rustup component add llvm-tools" >&2
  exit 1
fi

# Beside target/release (or $CARGO_TARGET_DIR/release).
work="$(dirname "$WGPU_SHIM_LIB_DIR")/pgo"
profiles="$work/profiles"
rm -rf "$profiles"
mkdir -p "$profiles"

section "1/3: instrumented build (target/pgo/gen)"
# One file per binary (default_%m.profraw), merged on write by every
# process that loads it. The release profile as it is: with other LTO or
# codegen-unit settings the functions' control flow differs where the
# profile is taken, and the final build discards their counts.
RUSTFLAGS="-Cprofile-generate=$profiles" cargo build --release --lib --target-dir "$work/gen"
gen_lib="$work/gen/release"

section "2/3: training on ${VK_DRIVER_FILES:-${VK_ICD_FILENAMES:-the Vulkan loader default}}"
cmake -S benches -B "$work/benches" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/benches" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
bench="$work/benches/bench"
# Only the library's profile is kept: build scripts that the instrumented
# build ran wrote their own files meanwhile.
rm -f "$profiles"/*.profraw
train() {
  echo "+ $*"
  "$@" >/dev/null
}
export LP_NUM_THREADS="${LP_NUM_THREADS:-1}"
train "$bench" --lib "$gen_lib/libwgpu_shim.so" --scenario all --quick
train "$bench" --lib "$gen_lib/libwgpu_shim.so" --scenario map_roundtrip,api_overhead \
  --strategy waitany,poll,spontaneous,spin --size 256 --iterations 2000
train env WGPU_SHIM_FENCE_WAIT=1 WGPU_SHIM_SPIN_US=50 \
  "$bench" --lib "$gen_lib/libwgpu_shim.so" --scenario map_roundtrip,futures_throughput,wakeup_latency \
  --strategy waitany,poll,spontaneous --quick
cmake -S ffi-tests -B "$work/ffi-tests" -DWGPU_SHIM_LIB_DIR="$gen_lib" >/dev/null
cmake --build "$work/ffi-tests" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
echo "+ ctest -R '^(objects|mapping|render|textures|surface)[.]'"
# Training only: a test that fails under instrumentation still gave its
# profile, and the tests proper run on the final build.
ctest --test-dir "$work/ffi-tests" -j "$(nproc 2>/dev/null || echo 2)" \
  -R '^(objects|mapping|render|textures|surface)[.]' --timeout 300 >/dev/null ||
  echo "pgo.sh: some training tests failed under instrumentation (their profile is kept)"
shopt -s nullglob
raw=("$profiles"/*.profraw)
if [ ${#raw[@]} -eq 0 ]; then
  echo "pgo.sh: the training wrote no profile" >&2
  exit 1
fi
"$profdata" merge -o "$work/merged.profdata" "${raw[@]}"

section "3/3: release build with the profile (target/pgo/use, copied to target/release)"
# A profile that does not fit the code (a function whose control flow
# changed since it was taken) is discarded by LLVM with a warning: fail then,
# rather than ship a build that is profile-guided in name only.
log="$work/use.log"
RUSTFLAGS="-Cprofile-use=$work/merged.profdata" cargo build --release --lib --target-dir "$work/use" 2>&1 | tee "$log"
stale="$(grep -c 'hash mismatch\|profile data may be out of date\|no profile data available' "$log" || true)"
if [ "$stale" -gt 0 ]; then
  echo "pgo.sh: $stale functions did not match the profile ($log): the build is not profile-guided" >&2
  exit 1
fi
mkdir -p "$WGPU_SHIM_LIB_DIR"
for f in libwgpu_shim.so libwgpu_shim.a; do
  # Removed first: cargo's file there is a hard link to its deps/ copy.
  rm -f "$WGPU_SHIM_LIB_DIR/$f"
  cp "$work/use/release/$f" "$WGPU_SHIM_LIB_DIR/$f"
done
if [ "$keep" = 0 ]; then
  rm -rf "$work/gen" "$profiles" "$log"
fi
echo "pgo.sh: $WGPU_SHIM_LIB_DIR/libwgpu_shim.so (profile: $work/merged.profdata)"
