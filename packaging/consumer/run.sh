#!/usr/bin/env bash
# Builds and runs the consumer programs against an installed wgpu-shim, from a
# copy of this folder outside the repository, the way a user of the
# installed library would:
#
#   packaging/consumer/run.sh PREFIX [LIBDIR]     (LIBDIR default: PREFIX/lib)
#
#   1. consumer.c with pkg-config, against the shared library (rpath LIBDIR);
#   2. consumer.c with pkg-config --static, against libwgpu_shim.a;
#   3. consumer.cpp with CMake's find_package(wgpu-shim) (CMAKE_PREFIX_PATH
#      PREFIX), against wgpu_shim::wgpu_shim and wgpu_shim::wgpu_shim_static.
# Each program is checked for what it links (readelf: DT_NEEDED, RUNPATH),
# then run; each must print OK. Exits non-zero on the first failure.
# (The Windows archive has run-windows.sh beside this script.)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 PREFIX [LIBDIR]" >&2
  exit 2
fi
prefix="$(realpath "$1")"
libdir="$(realpath "${2:-$prefix/lib}")"
cc="${CC:-cc}"

fail() {
  echo "consumer: FAIL: $*" >&2
  exit 1
}
run() {
  printf '+ %s\n' "$*"
  "$@"
}
# needs PROGRAM PATTERN / lacks PROGRAM PATTERN: its dynamic section.
needs() { readelf -d "$1" | grep -Eq "$2" || fail "$1 lacks $2: $(readelf -d "$1" | grep -E 'NEEDED|RUNPATH')"; }
lacks() { ! readelf -d "$1" | grep -Eq "$2" || fail "$1 has $2: $(readelf -d "$1" | grep -E 'NEEDED|RUNPATH')"; }
# resolves PROGRAM: the loader finds libwgpu_shim.so.0 in LIBDIR.
resolves() {
  local found
  found="$(ldd "$1" | sed -n 's/^[[:space:]]*libwgpu_shim\.so\.[0-9]* => \([^ ]*\) .*/\1/p')"
  [ "$(realpath "$found")" = "$(realpath "$libdir/libwgpu_shim.so.0")" ] ||
    fail "$1 loads libwgpu_shim.so.0 from '${found:-nowhere}', not $libdir"
}

work="$(mktemp -d "${TMPDIR:-/tmp}/wgpu-shim-consumer.XXXXXX")"
trap 'rm -rf "$work"' EXIT
case "$work/" in
  "$repo"/*) fail "the work folder $work is inside the repository" ;;
esac
cp "$here/consumer.c" "$here/consumer.cpp" "$here/CMakeLists.txt" "$work/"
cd "$work"
echo "consumer: prefix $prefix, libdir $libdir, building in $work"

export PKG_CONFIG_PATH="$libdir/pkgconfig"
unset PKG_CONFIG_LIBDIR
version="$(pkg-config --modversion wgpu-shim)" || fail "pkg-config finds no wgpu-shim in $PKG_CONFIG_PATH"
header="$(pkg-config --variable=includedir wgpu-shim)/webgpu/wgpu_shim.h"
grep -q "^#define WGPU_SHIM_VERSION_STRING \"$version\"$" "$header" ||
  fail "$header does not say version $version"
pc_libdir="$(pkg-config --variable=libdir wgpu-shim)"
[ "$(realpath "$pc_libdir")" = "$libdir" ] || fail "pkg-config's libdir $pc_libdir is not $libdir"
echo "consumer: pkg-config: wgpu-shim $version; cflags $(pkg-config --cflags wgpu-shim); libs $(pkg-config --libs wgpu-shim)"

# 1. C, shared, pkg-config.
# shellcheck disable=SC2046 # pkg-config's output is a list of words
run "$cc" -std=c11 -Wall -Wextra -Werror -pedantic consumer.c -o consumer_c \
  $(pkg-config --cflags --libs wgpu-shim) -Wl,-rpath,"$pc_libdir"
needs consumer_c 'NEEDED.*\[libwgpu_shim\.so\.0\]'
needs consumer_c "RUNPATH.*\\[$pc_libdir\\]"
resolves consumer_c
run ./consumer_c

# 2. C, static, pkg-config --static: the archive, then Libs and Libs.private
# (--as-needed drops the -lwgpu_shim they start with, which nothing needs).
# shellcheck disable=SC2046
run "$cc" -std=c11 -Wall -Wextra -Werror -pedantic consumer.c -o consumer_c_static \
  $(pkg-config --cflags wgpu-shim) "$pc_libdir/libwgpu_shim.a" -Wl,--as-needed $(pkg-config --static --libs wgpu-shim)
lacks consumer_c_static 'libwgpu_shim'
run ./consumer_c_static

# 3. C++, CMake find_package, shared and static.
run cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >cmake.log || {
  cat cmake.log
  fail "cmake could not configure the C++ consumer"
}
grep '^-- consumer:' cmake.log
found_dir="$(sed -n 's/^wgpu-shim_DIR:PATH=//p' build/CMakeCache.txt)"
[ "$(realpath "$found_dir")" = "$(realpath "$libdir/cmake/wgpu-shim")" ] ||
  fail "find_package found $found_dir, not $libdir/cmake/wgpu-shim"
echo "+ cmake --build build"
cmake --build build -j "$(nproc 2>/dev/null || echo 2)" >build.log || {
  cat build.log
  fail "the C++ consumer did not build"
}
needs build/consumer_shared 'NEEDED.*\[libwgpu_shim\.so\.0\]'
resolves build/consumer_shared
lacks build/consumer_static 'libwgpu_shim'
run build/consumer_shared
run build/consumer_static
echo "consumer: all four programs built outside the repository and ran"
