#!/usr/bin/env bash
# Smoke test of the benchmarks, for CI: builds benches/bench.c with CMake
# and runs `benches/run.py --quick` (tiny counts, every scenario, every
# result verified) against wgpu-shim and, when it can be obtained (cached or
# downloaded from PyPI), wgpu-native; without network, wgpu-shim only.
#
#   benches/smoke.sh
#
# Uses the library in $WGPU_SHIM_LIB_DIR (scripts/env.sh: target/release),
# building it with `cargo build --release` if it is missing. Exits 0 when
# every run verified its data and callback counts, non-zero otherwise.
# Results go to build/benches/smoke.json (not benches/results/).
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/env.sh"
cd "$WGPU_SHIM_ROOT"

build="$WGPU_SHIM_ROOT/build/benches"
echo "+ cmake -S benches -B $build"
cmake -S benches -B "$build" -DCMAKE_BUILD_TYPE=Release -DWGPU_SHIM_BENCH_WERROR=ON >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)"

shim="$WGPU_SHIM_LIB_DIR/libwgpu_shim.so"
if [ ! -f "$shim" ]; then
  echo "+ cargo build --release"
  cargo build --release
fi

args=(--quick --bench-bin "$build/bench" --shim-lib "$shim" --out "$build/smoke.json"
  --download-timeout "${WGPU_SHIM_BENCH_DOWNLOAD_TIMEOUT:-60}")
if [ -n "${WGPU_NATIVE_LIB:-}" ]; then
  args+=(--native-lib "$WGPU_NATIVE_LIB")
fi
echo "+ python3 benches/run.py ${args[*]}"
python3 benches/run.py "${args[@]}"
