#!/usr/bin/env bash
# Installs wgpu-shim into a prefix, as a C library is installed: headers,
# shared library with its SONAME and links, static library, pkg-config file
# and CMake package.
#
#   scripts/install.sh [--prefix DIR] [--libdir DIR] [--destdir DIR]
#                      [--relocatable] [--strip] [--no-build | --pgo]
#
#   --prefix DIR    where the files go (default /usr/local); absolute
#   --libdir DIR    the library folder (default PREFIX/lib; a relative DIR is
#                   taken below PREFIX, e.g. lib/x86_64-linux-gnu)
#   --destdir DIR   stage the files under DIR (DIR/PREFIX/...) for packaging;
#                   the installed files still name PREFIX. Default: $DESTDIR.
#   --relocatable   write the pkg-config file relative to its own place
#                   (${pcfiledir}), so the tree can be moved (the CMake package
#                   is relative always); scripts/package.sh uses it
#   --strip         strip debugging information from the libraries
#   --no-build      install the libraries already in target/release (else it
#                   runs `cargo build --release` first, a no-op when current)
#   --pgo           build them with profile-guided optimisation first
#                   (scripts/pgo.sh: two builds and a training run on the
#                   Vulkan driver, about 7 minutes)
#
# Installs:
#   PREFIX/include/webgpu/{webgpu.h,wgpu.h,wgpu_shim.h}
#   LIBDIR/libwgpu_shim.so.X.Y.Z, libwgpu_shim.so.X -> .so.X.Y.Z (the SONAME),
#     libwgpu_shim.so -> .so.X (for -lwgpu_shim)
#   LIBDIR/libwgpu_shim.a
#   LIBDIR/pkgconfig/wgpu-shim.pc
#   LIBDIR/cmake/wgpu-shim/wgpu-shimConfig.cmake, wgpu-shimConfigVersion.cmake,
#     wgpu-shimInstall.cmake (the installed layout, relative to that folder)
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$WGPU_SHIM_ROOT"

die() {
  echo "install.sh: $*" >&2
  exit 1
}

prefix=/usr/local
libdir=""
destdir="${DESTDIR:-}"
relocatable=0
strip=0
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix | --libdir | --destdir)
      [ $# -ge 2 ] || die "$1 needs a value"
      case "$1" in
        --prefix) prefix="$2" ;;
        --libdir) libdir="$2" ;;
        --destdir) destdir="$2" ;;
      esac
      shift 2
      ;;
    --prefix=*) prefix="${1#*=}" && shift ;;
    --libdir=*) libdir="${1#*=}" && shift ;;
    --destdir=*) destdir="${1#*=}" && shift ;;
    --relocatable) relocatable=1 && shift ;;
    --strip) strip=1 && shift ;;
    --no-build) build=0 && shift ;;
    --pgo) build=pgo && shift ;;
    -h | --help)
      sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
      exit 0
      ;;
    *) die "unknown argument: $1 (try --help)" ;;
  esac
done

case "$prefix" in
  /*) ;;
  *) die "--prefix must be an absolute path, not '$prefix'" ;;
esac
prefix="$(realpath -m "$prefix")"
case "$libdir" in
  "") libdir="$prefix/lib" ;;
  /*) libdir="$(realpath -m "$libdir")" ;;
  *) libdir="$(realpath -m "$prefix/$libdir")" ;;
esac
includedir="$prefix/include"
if [ -n "$destdir" ]; then
  destdir="$(realpath -m "$destdir")"
fi

version="$(awk -F'"' '/^\[/ { in_package = ($0 == "[package]") }
  in_package && /^version *=/ { print $2; exit }' Cargo.toml)"
[[ "$version" =~ ^([0-9]+)\.[0-9]+\.[0-9]+$ ]] || die "no X.Y.Z version in Cargo.toml's [package] (found '$version')"
major="${BASH_REMATCH[1]}"
soname="libwgpu_shim.so.$major"

if [ "$build" = pgo ]; then
  echo "+ scripts/pgo.sh"
  "$WGPU_SHIM_ROOT/scripts/pgo.sh"
elif [ "$build" = 1 ]; then
  echo "+ cargo build --release"
  cargo build --release
fi
src_so="$WGPU_SHIM_LIB_DIR/libwgpu_shim.so"
src_a="$WGPU_SHIM_LIB_DIR/libwgpu_shim.a"
for f in "$src_so" "$src_a"; do
  [ -f "$f" ] || die "$f is missing: run cargo build --release"
done
for h in webgpu.h wgpu.h wgpu_shim.h; do
  [ -f "include/webgpu/$h" ] || die "include/webgpu/$h is missing"
done
got_soname="$(readelf -d "$src_so" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')"
[ "$got_soname" = "$soname" ] ||
  die "$src_so has SONAME '${got_soname:-none}', expected $soname: rebuild it (cargo build --release)"
header_version="$(sed -n 's/^#define WGPU_SHIM_VERSION_STRING "\(.*\)"$/\1/p' include/webgpu/wgpu_shim.h)"
[ "$header_version" = "$version" ] ||
  die "include/webgpu/wgpu_shim.h says version '$header_version', Cargo.toml $version"

# Installed files, each printed once it is in place.
put() { # put MODE SRC DEST
  install -D -m "$1" "$2" "$3"
  echo "  $3"
}
link() { # link TARGET NAME
  ln -sfn "$1" "$2"
  echo "  $2 -> $1"
}

echo "installing wgpu-shim $version into ${destdir:+$destdir (staging) for }$prefix"
d_inc="$destdir$includedir"
d_lib="$destdir$libdir"
for h in webgpu.h wgpu.h wgpu_shim.h; do
  put 0644 "include/webgpu/$h" "$d_inc/webgpu/$h"
done
put 0755 "$src_so" "$d_lib/libwgpu_shim.so.$version"
link "libwgpu_shim.so.$version" "$d_lib/$soname"
link "$soname" "$d_lib/libwgpu_shim.so"
put 0644 "$src_a" "$d_lib/libwgpu_shim.a"
if [ "$strip" -eq 1 ]; then
  strip --strip-debug "$d_lib/libwgpu_shim.so.$version" "$d_lib/libwgpu_shim.a"
  echo "  (debugging information stripped)"
fi

# pkg-config. Libs.private: what `cargo rustc --release --lib -- --print
# native-static-libs` reports for the static library on x86_64 Linux.
if [ "$relocatable" -eq 1 ]; then
  case "$libdir/" in
    "$prefix"/*) ;;
    *) die "--relocatable needs the libdir ($libdir) inside the prefix ($prefix)" ;;
  esac
  pc_prefix="\${pcfiledir}/$(realpath -m --relative-to="$libdir/pkgconfig" "$prefix")"
else
  pc_prefix="$prefix"
fi
case "$libdir/" in
  "$prefix"/*) pc_libdir="\${prefix}${libdir#"$prefix"}" ;;
  *) pc_libdir="$libdir" ;;
esac
pc="$(mktemp)"
trap 'rm -f "$pc"' EXIT
cat >"$pc" <<PC
prefix=$pc_prefix
libdir=$pc_libdir
includedir=\${prefix}/include

Name: wgpu-shim
Description: The standard webgpu.h C API on wgpu-core, standing in for wgpu-native
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -lwgpu_shim
Libs.private: -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
PC
put 0644 "$pc" "$d_lib/pkgconfig/wgpu-shim.pc"

# CMake: the source tree's package files, and the installed layout beside
# them (paths relative to the package folder, so the tree can move).
cmake_dir="$libdir/cmake/wgpu-shim"
cat >"$pc" <<CMAKE
# Written by scripts/install.sh: this is an installed wgpu-shim (read by
# wgpu-shimConfig.cmake and wgpu-shimConfigVersion.cmake beside it).
set(_wgpu_shim_installed_version "$version")
set(_wgpu_shim_installed_soname "$soname")
set(_wgpu_shim_installed_library "libwgpu_shim.so.$version")
set(_wgpu_shim_installed_lib_dir "$(realpath -m --relative-to="$cmake_dir" "$libdir")")
set(_wgpu_shim_installed_include_dir "$(realpath -m --relative-to="$cmake_dir" "$includedir")")
CMAKE
put 0644 "$pc" "$destdir$cmake_dir/wgpu-shimInstall.cmake"
put 0644 cmake/wgpu-shimConfig.cmake "$destdir$cmake_dir/wgpu-shimConfig.cmake"
put 0644 cmake/wgpu-shimConfigVersion.cmake "$destdir$cmake_dir/wgpu-shimConfigVersion.cmake"
echo "installed wgpu-shim $version"
