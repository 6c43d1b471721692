#!/usr/bin/env bash
# Makes the release archive wgpu-shim-<version>-linux-<arch>.tar.gz: the tree
# scripts/install.sh installs (relocatable, libraries stripped of debugging
# information), with the documentation and the licence files (put there by
# tools/archive_docs.py): README.md, CHANGELOG.md, BENCHMARKS.md, docs/*.md,
# an INSTALL.md note (packaging/archive/INSTALL.md). Their links are made to
# point inside the archive (a link to a file it does not hold becomes plain
# text), and it fails when one of them does not resolve there.
#
# Needs python3 (tools/archive_docs.py; for Windows, the zip too).
#
#   scripts/package.sh [--out DIR] [--no-build | --pgo]
#                      [--target x86_64-pc-windows-gnu]
#
#   --out DIR    where the archive goes (default: build/dist)
#   --no-build   package the libraries already in target/release
#   --pgo        build them with profile-guided optimisation (scripts/pgo.sh)
#   --target x86_64-pc-windows-gnu
#                make wgpu-shim-<version>-windows-x86_64.zip instead, from the
#                MinGW-w64 cross build (target/x86_64-pc-windows-gnu/release;
#                scripts/install.sh --target says what it holds): a zip, as
#                Windows users expect, written by python3's zipfile
#
# The archive is reproducible for one build of the libraries: its files are
# sorted, owned by 0:0 (a zip records no owner) and dated SOURCE_DATE_EPOCH
# (default: the last commit's time). Prints the archive's path and SHA-256.
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$WGPU_SHIM_ROOT"

out="$WGPU_SHIM_ROOT/build/dist"
install_args=()
target=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out)
      [ $# -ge 2 ] || {
        echo "package.sh: --out needs a folder" >&2
        exit 2
      }
      out="$2"
      shift 2
      ;;
    --no-build) install_args+=(--no-build) && shift ;;
    --pgo) install_args+=(--pgo) && shift ;;
    --target)
      [ $# -ge 2 ] || {
        echo "package.sh: --target needs a target triple" >&2
        exit 2
      }
      target="$2"
      shift 2
      ;;
    -h | --help)
      sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
      exit 0
      ;;
    *)
      echo "package.sh: unknown argument: $1 (try --help)" >&2
      exit 2
      ;;
  esac
done

[ "$(uname -s)" = Linux ] || {
  echo "package.sh: the archive is made on Linux only" >&2
  exit 1
}
version="$(sed -n 's/^#define WGPU_SHIM_VERSION_STRING "\(.*\)"$/\1/p' include/webgpu/wgpu_shim.h)"
case "$target" in
  "") name="wgpu-shim-$version-linux-$(uname -m)" ;;
  x86_64-pc-windows-gnu)
    name="wgpu-shim-$version-windows-x86_64"
    install_args+=(--target "$target")
    ;;
  *)
    echo "package.sh: --target: only x86_64-pc-windows-gnu is supported, not '$target'" >&2
    exit 2
    ;;
esac
command -v python3 >/dev/null || {
  echo "package.sh: python3 is missing: it puts the documentation into the archive (and writes the zip)" >&2
  exit 1
}
mkdir -p "$out"
out="$(cd "$out" && pwd)"
stage="$(mktemp -d "${TMPDIR:-/tmp}/wgpu-shim-package.XXXXXX")"
trap 'rm -rf "$stage"' EXIT

# The prefix is a placeholder: the pkg-config file is written relative to
# itself (--relocatable) and the CMake package is relative always.
scripts/install.sh --prefix "/$name" --destdir "$stage" --relocatable --strip "${install_args[@]}"
tree="$stage/$name"
# The documentation and the licences, every link resolving in the archive.
python3 tools/archive_docs.py "$tree"
if ! compgen -G "$tree/LICEN[CS]E*" >/dev/null && ! compgen -G "$tree/COPYING*" >/dev/null; then
  echo "package.sh: warning: the repository has no licence file (LICENSE*, COPYING*): the archive has none" >&2
fi
if grep -rq "$stage" "$tree"; then
  echo "package.sh: the staging folder's path is written into the tree:" >&2
  grep -rl "$stage" "$tree" >&2
  exit 1
fi

epoch="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
if [ -n "$target" ]; then
  archive="$out/$name.zip"
  # The zip: entries in the order tar --sort=name gives (each folder, then
  # its entries by name), each dated the epoch (a zip's DOS time has no
  # time zone: the epoch's UTC fields, 1980 at the earliest), made on Unix
  # with the staged modes (Windows ignores them, unzip restores them), files
  # deflated at zlib's level 6 as the tar.gz is.
  python3 - "$stage" "$name" "$epoch" "$archive.tmp" <<'PY'
import os, stat, sys, time, zipfile

stage, name, epoch, archive = sys.argv[1:5]
date_time = time.gmtime(max(int(epoch), 315532800))[:6]

def walk(rel):
    yield rel
    path = os.path.join(stage, rel)
    if os.path.isdir(path) and not os.path.islink(path):
        for entry in sorted(os.listdir(path)):
            yield from walk(rel + "/" + entry)

with zipfile.ZipFile(archive, "w") as z:
    for rel in walk(name):
        path = os.path.join(stage, rel)
        st = os.lstat(path)
        if stat.S_ISDIR(st.st_mode):
            info = zipfile.ZipInfo(rel + "/", date_time)
            info.external_attr = (st.st_mode & 0xFFFF) << 16 | 0x10  # MS-DOS: a folder
            data = b""
            info.compress_type = zipfile.ZIP_STORED
        elif stat.S_ISREG(st.st_mode):
            info = zipfile.ZipInfo(rel, date_time)
            info.external_attr = (st.st_mode & 0xFFFF) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(path, "rb") as f:
                data = f.read()
        else:
            sys.exit(f"package.sh: {rel} is neither a file nor a folder: a zip for Windows holds only those")
        info.create_system = 3  # Unix: the modes above are read
        z.writestr(info, data, compresslevel=6)
PY
  mv "$archive.tmp" "$archive"
  echo "archive: $archive ($(du -h "$archive" | cut -f1))"
  python3 - "$archive" <<'PY'
import sys, zipfile

for i in zipfile.ZipFile(sys.argv[1]).infolist():
    print("  %s %10d %04d-%02d-%02d %02d:%02d %s" % ((oct(i.external_attr >> 16)[-4:], i.file_size) + i.date_time[:5] + (i.filename,)))
PY
else
  archive="$out/$name.tar.gz"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" --format=gnu \
    -C "$stage" -cf - "$name" | gzip -n -6 >"$archive.tmp"
  mv "$archive.tmp" "$archive"
  echo "archive: $archive ($(du -h "$archive" | cut -f1))"
  tar -tzvf "$archive" | awk '{ print "  " $0 }'
fi
sha256sum "$archive"
