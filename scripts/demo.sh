#!/usr/bin/env bash
# Builds wgpu-shim (release), builds examples/compute.c against it through the
# CMake package, and runs it (on lavapipe unless WGPU_SHIM_ICD or
# VK_ICD_FILENAMES says otherwise; see scripts/env.sh).
#
#   scripts/demo.sh [N]    N: how many numbers the demo checks (default 100000)
#
# Needs: cargo, cmake, a C compiler, the Vulkan loader and a Vulkan driver
# (apt-get install -y mesa-vulkan-drivers libvulkan1 cmake).
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$WGPU_SHIM_ROOT"

require_cmd cargo "install the Rust toolchain (https://rustup.rs)"
require_cmd cmake "apt-get install -y cmake"

section "cargo build --release"
cargo build --release

section "build the demo (examples/ -> build/examples)"
cmake -S examples -B build/examples -DCMAKE_BUILD_TYPE=Release \
  -DWGPU_SHIM_LIB_DIR="$WGPU_SHIM_LIB_DIR" -DWGPU_SHIM_EXAMPLES_STATIC=OFF
cmake --build build/examples -j "$(nproc 2>/dev/null || echo 2)"

section "run the demo (Vulkan driver: ${VK_DRIVER_FILES:-${VK_ICD_FILENAMES:-the Vulkan loader default}})"
exec build/examples/compute "$@"
