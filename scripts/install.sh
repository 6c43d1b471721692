#!/usr/bin/env bash
# Installs wgpu-shim into a prefix, as a C library is installed: headers,
# shared library with its SONAME and links, static library, pkg-config file
# and CMake package.
#
#   scripts/install.sh [--prefix DIR] [--libdir DIR] [--destdir DIR]
#                      [--relocatable] [--strip] [--no-build | --pgo]
#                      [--target x86_64-pc-windows-gnu]
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
#                   Vulkan driver; on 2 cores the pgo step of scripts/test.sh,
#                   this build with three C test groups and the benchmarks'
#                   smoke pass, took 291 s on commit d233f20)
#   --target x86_64-pc-windows-gnu
#                   install the Windows build instead, laid out for Windows
#                   (below): the MinGW-w64 cross build, `cargo build
#                   --release --target x86_64-pc-windows-gnu --lib`; needs
#                   x86_64-w64-mingw32-gcc, -objdump, -ar, -strip, -dlltool
#
# Installs:
#   PREFIX/include/webgpu/{webgpu.h,wgpu.h,wgpu_shim.h}
#   LIBDIR/libwgpu_shim.so.X.Y.Z, libwgpu_shim.so.X -> .so.X.Y.Z (the SONAME),
#     libwgpu_shim.so -> .so.X (for -lwgpu_shim)
#   LIBDIR/libwgpu_shim.a
#   LIBDIR/pkgconfig/wgpu-shim.pc
#   LIBDIR/cmake/wgpu-shim/wgpu-shimConfig.cmake, wgpu-shimConfigVersion.cmake,
#     wgpu-shimInstall.cmake (the installed layout, relative to that folder)
#
# Installs, with --target x86_64-pc-windows-gnu:
#   PREFIX/include/webgpu/{webgpu.h,wgpu.h,wgpu_shim.h}
#   PREFIX/bin/wgpu_shim.dll (a program finds it beside itself or on PATH,
#     never in lib/)
#   LIBDIR/libwgpu_shim.dll.a (MinGW's import library), wgpu_shim.dll.lib
#     (MSVC's, made by dlltool from the .def), libwgpu_shim.a (MinGW only),
#     wgpu_shim.def (the DLL's export list)
#   LIBDIR/pkgconfig/wgpu-shim.pc (for MinGW: -lwgpu_shim finds the import
#     library, with -static the static one)
#   LIBDIR/cmake/wgpu-shim/: the same package, with
#     packaging/archive/windows/wgpu-shimConfig.cmake in front of it
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
target=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix | --libdir | --destdir | --target)
      [ $# -ge 2 ] || die "$1 needs a value"
      case "$1" in
        --prefix) prefix="$2" ;;
        --libdir) libdir="$2" ;;
        --destdir) destdir="$2" ;;
        --target) target="$2" ;;
      esac
      shift 2
      ;;
    --prefix=*) prefix="${1#*=}" && shift ;;
    --libdir=*) libdir="${1#*=}" && shift ;;
    --destdir=*) destdir="${1#*=}" && shift ;;
    --target=*) target="${1#*=}" && shift ;;
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
# The one cross target: Windows through MinGW-w64, whose tools read and
# write the DLL here (the host's own build is the default).
case "$target" in
  "") ;;
  x86_64-pc-windows-gnu)
    mingw=x86_64-w64-mingw32
    for tool in gcc objdump ar strip dlltool; do
      command -v "$mingw-$tool" >/dev/null ||
        die "$mingw-$tool is missing (Debian: apt-get install -y gcc-mingw-w64-x86-64 binutils-mingw-w64-x86-64)"
    done
    [ "$build" != pgo ] || die "--pgo builds for this machine only, not --target $target"
    ;;
  *) die "--target: only x86_64-pc-windows-gnu is supported, not '$target'" ;;
esac
prefix="$(realpath -m "$prefix")"
case "$libdir" in
  "") libdir="$prefix/lib" ;;
  /*) libdir="$(realpath -m "$libdir")" ;;
  *) libdir="$(realpath -m "$prefix/$libdir")" ;;
esac
includedir="$prefix/include"
bindir="$prefix/bin"
if [ -n "$destdir" ]; then
  destdir="$(realpath -m "$destdir")"
fi

version="$(awk -F'"' '/^\[/ { in_package = ($0 == "[package]") }
  in_package && /^version *=/ { print $2; exit }' Cargo.toml)"
[[ "$version" =~ ^([0-9]+)\.[0-9]+\.[0-9]+$ ]] || die "no X.Y.Z version in Cargo.toml's [package] (found '$version')"
major="${BASH_REMATCH[1]}"
soname="libwgpu_shim.so.$major"

if [ -n "$target" ]; then
  build_cmd=(cargo build --release --target "$target" --lib)
  # cargo's folder for the target, beside target/release.
  src_dir="$(dirname "$WGPU_SHIM_LIB_DIR")/$target/release"
  src_dll="$src_dir/wgpu_shim.dll"
  src_implib="$src_dir/libwgpu_shim.dll.a"
  src_a="$src_dir/libwgpu_shim.a"
  src_libs=("$src_dll" "$src_implib" "$src_a")
else
  build_cmd=(cargo build --release)
  src_so="$WGPU_SHIM_LIB_DIR/libwgpu_shim.so"
  src_a="$WGPU_SHIM_LIB_DIR/libwgpu_shim.a"
  src_libs=("$src_so" "$src_a")
fi
if [ "$build" = pgo ]; then
  echo "+ scripts/pgo.sh"
  "$WGPU_SHIM_ROOT/scripts/pgo.sh"
elif [ "$build" = 1 ]; then
  echo "+ ${build_cmd[*]}"
  "${build_cmd[@]}"
fi
for f in "${src_libs[@]}"; do
  [ -f "$f" ] || die "$f is missing: run ${build_cmd[*]}"
done
for h in webgpu.h wgpu.h wgpu_shim.h; do
  [ -f "include/webgpu/$h" ] || die "include/webgpu/$h is missing"
done
if [ -n "$target" ]; then
  # The DLL's export table (objdump -p: the names under "[Ordinal/Name
  # Pointer] Table") must be exactly the functions the headers declare on
  # Windows (preprocessed as a MinGW program sees them: wgpu_shim.h's
  # Unix-only functions drop out), so that the .def made from it, and the
  # import libraries, match the headers in the same install.
  exports="$("$mingw-objdump" -p "$src_dll" |
    sed -n '/^\[Ordinal\/Name Pointer\] Table/,/^$/s/^[[:space:]]*\[ *[0-9]*\] \(.*\)$/\1/p' | LC_ALL=C sort)"
  [ -n "$exports" ] || die "$src_dll exports no functions: rebuild it (${build_cmd[*]})"
  mapfile -t export_names <<<"$exports"
  declared="$(printf '#include <webgpu/%s>\n' webgpu.h wgpu.h wgpu_shim.h |
    "$mingw-gcc" -E -P -Iinclude -x c - | grep -o '\bwgpu[A-Za-z0-9_]*[[:space:]]*(' | tr -d '( ' | LC_ALL=C sort -u)"
  differ="$(LC_ALL=C comm -3 <(echo "$declared") <(echo "$exports"))"
  [ -z "$differ" ] || die "$src_dll's exports are not the headers' functions (headers' only | exports' only):
$differ
rebuild it (${build_cmd[*]})"
  dll_name="$("$mingw-objdump" -p "$src_dll" | sed -n 's/^Name[[:space:]]*[0-9a-f]* \(.*\)$/\1/p')"
  [ "$dll_name" = wgpu_shim.dll ] || die "$src_dll names itself '$dll_name' in its export table, not wgpu_shim.dll"
else
  got_soname="$(readelf -d "$src_so" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')"
  [ "$got_soname" = "$soname" ] ||
    die "$src_so has SONAME '${got_soname:-none}', expected $soname: rebuild it (cargo build --release)"
fi
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
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ -n "$target" ]; then
  put 0755 "$src_dll" "$destdir$bindir/wgpu_shim.dll"
  put 0644 "$src_implib" "$d_lib/libwgpu_shim.dll.a"
  put 0644 "$src_a" "$d_lib/libwgpu_shim.a"
  if [ "$strip" -eq 1 ]; then
    # The Rust standard library's split debugging information comes in the
    # archive as .dwo members of debug sections only, which strip would
    # leave empty and refuse ("has no sections"): they go first. ar and
    # strip load the linker plugins in /usr/lib/bfd-plugins, which may
    # complain (on stdout) about the LLVM bitcode in Rust's objects; their
    # output is shown only if a step fails.
    quietly() {
      "$@" >"$tmp/output" 2>&1 || {
        cat "$tmp/output" >&2
        die "failed: $*"
      }
    }
    dwo=()
    while IFS= read -r member; do
      case "$member" in *.dwo) dwo+=("$member") ;; esac
    done < <("$mingw-ar" t "$d_lib/libwgpu_shim.a")
    if [ "${#dwo[@]}" -gt 0 ]; then
      quietly "$mingw-ar" d "$d_lib/libwgpu_shim.a" "${dwo[@]}"
    fi
    # strip writes a new PE time stamp into the DLL, the current time unless
    # SOURCE_DATE_EPOCH says otherwise: it keeps the linker's (the 32-bit
    # TimeDateStamp of the COFF header, which follows the "PE\0\0" at the
    # offset in the DOS header's e_lfanew, byte 60), for the same bytes on
    # every run.
    pe_offset="$(od -An -tu4 -j60 -N4 "$src_dll" | tr -d ' ')"
    pe_stamp="$(od -An -tu4 -j$((pe_offset + 8)) -N4 "$src_dll" | tr -d ' ')"
    SOURCE_DATE_EPOCH="$pe_stamp" quietly "$mingw-strip" --strip-debug "$destdir$bindir/wgpu_shim.dll" "$d_lib/libwgpu_shim.a"
    echo "  (debugging information stripped)"
  fi
  # The export list, for tools that make import libraries (MSVC's lib /def,
  # dlltool) and for a look at what the DLL offers.
  {
    echo "LIBRARY wgpu_shim.dll"
    echo "EXPORTS"
    printf '    %s\n' "${export_names[@]}"
  } >"$tmp/wgpu_shim.def"
  put 0644 "$tmp/wgpu_shim.def" "$d_lib/wgpu_shim.def"
  # MSVC's import library, made from the .def. Named wgpu_shim.dll.lib, as
  # rustc names it for MSVC (and wgpu-native's archive does): wgpu_shim.lib
  # is what MSVC, and CMake's package, take for a static library. dlltool
  # names its symbols after the output file (so it is made under its final
  # name, for the same bytes each time) and writes temporary files into the
  # current folder (so it runs in one of its own).
  (cd "$tmp" && "$mingw-dlltool" -d wgpu_shim.def -D wgpu_shim.dll -l wgpu_shim.dll.lib)
  put 0644 "$tmp/wgpu_shim.dll.lib" "$d_lib/wgpu_shim.dll.lib"
else
  put 0755 "$src_so" "$d_lib/libwgpu_shim.so.$version"
  link "libwgpu_shim.so.$version" "$d_lib/$soname"
  link "$soname" "$d_lib/libwgpu_shim.so"
  put 0644 "$src_a" "$d_lib/libwgpu_shim.a"
  if [ "$strip" -eq 1 ]; then
    strip --strip-debug "$d_lib/libwgpu_shim.so.$version" "$d_lib/libwgpu_shim.a"
    echo "  (debugging information stripped)"
  fi
fi

# pkg-config. Libs.private: what `cargo rustc --release --lib -- --print
# native-static-libs` reports for the static library on x86_64 Linux; on
# Windows, what rustc reports for its standard library (the system DLLs the
# dependencies call come inside libwgpu_shim.a, as raw-dylib imports).
if [ -n "$target" ]; then
  pc_private="-lkernel32 -lntdll -luserenv -lws2_32 -ldbghelp"
else
  pc_private="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"
fi
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
pc="$tmp/file"
cat >"$pc" <<PC
prefix=$pc_prefix
libdir=$pc_libdir
includedir=\${prefix}/include

Name: wgpu-shim
Description: The standard webgpu.h C API on wgpu-core, standing in for wgpu-native
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -lwgpu_shim
Libs.private: $pc_private
PC
put 0644 "$pc" "$d_lib/pkgconfig/wgpu-shim.pc"

# CMake: the source tree's package files, and the installed layout beside
# them (paths relative to the package folder, so the tree can move).
cmake_dir="$libdir/cmake/wgpu-shim"
if [ -n "$target" ]; then
  # No SONAME; the library is the DLL, named relative to the library folder.
  soname=""
  cmake_library="$(realpath -m --relative-to="$libdir" "$bindir/wgpu_shim.dll")"
else
  cmake_library="libwgpu_shim.so.$version"
fi
cat >"$pc" <<CMAKE
# Written by scripts/install.sh: this is an installed wgpu-shim (read by
# wgpu-shimConfig.cmake and wgpu-shimConfigVersion.cmake beside it).
set(_wgpu_shim_installed_version "$version")
set(_wgpu_shim_installed_soname "$soname")
set(_wgpu_shim_installed_library "$cmake_library")
set(_wgpu_shim_installed_lib_dir "$(realpath -m --relative-to="$cmake_dir" "$libdir")")
set(_wgpu_shim_installed_include_dir "$(realpath -m --relative-to="$cmake_dir" "$includedir")")
CMAKE
put 0644 "$pc" "$destdir$cmake_dir/wgpu-shimInstall.cmake"
if [ -n "$target" ]; then
  # Windows: the same package, read through a front that adds the import
  # libraries and Windows' system libraries to its targets.
  put 0644 cmake/wgpu-shimConfig.cmake "$destdir$cmake_dir/wgpu-shimCommon.cmake"
  put 0644 packaging/archive/windows/wgpu-shimConfig.cmake "$destdir$cmake_dir/wgpu-shimConfig.cmake"
else
  put 0644 cmake/wgpu-shimConfig.cmake "$destdir$cmake_dir/wgpu-shimConfig.cmake"
fi
put 0644 cmake/wgpu-shimConfigVersion.cmake "$destdir$cmake_dir/wgpu-shimConfigVersion.cmake"
echo "installed wgpu-shim $version"
