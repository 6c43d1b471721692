#!/usr/bin/env bash
# Makes the release archive wgpu-shim-<version>-linux-<arch>.tar.gz: the tree
# scripts/install.sh installs (relocatable, libraries stripped of debugging
# information), with README.md, CHANGELOG.md, an INSTALL.md note
# (packaging/archive/INSTALL.md) and the licence files of the repository.
#
#   scripts/package.sh [--out DIR] [--no-build | --pgo]
#
#   --out DIR    where the archive goes (default: build/dist)
#   --no-build   package the libraries already in target/release
#   --pgo        build them with profile-guided optimisation (scripts/pgo.sh)
#
# The archive is reproducible for one build of the libraries: its files are
# sorted, owned by 0:0 and dated SOURCE_DATE_EPOCH (default: the last
# commit's time). Prints the archive's path and SHA-256.
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$WGPU_SHIM_ROOT"

out="$WGPU_SHIM_ROOT/build/dist"
install_args=()
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
name="wgpu-shim-$version-linux-$(uname -m)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
stage="$(mktemp -d "${TMPDIR:-/tmp}/wgpu-shim-package.XXXXXX")"
trap 'rm -rf "$stage"' EXIT

# The prefix is a placeholder: the pkg-config file is written relative to
# itself (--relocatable) and the CMake package is relative always.
scripts/install.sh --prefix "/$name" --destdir "$stage" --relocatable --strip "${install_args[@]}"
tree="$stage/$name"
install -m 0644 README.md CHANGELOG.md "$tree/"
install -m 0644 packaging/archive/INSTALL.md "$tree/INSTALL.md"
licences=()
for f in LICENSE* LICENCE* COPYING*; do
  [ -f "$f" ] && licences+=("$f")
done
if [ "${#licences[@]}" -gt 0 ]; then
  install -m 0644 "${licences[@]}" "$tree/"
else
  echo "package.sh: warning: the repository has no licence file (LICENSE*, COPYING*): the archive has none" >&2
fi
if grep -rq "$stage" "$tree"; then
  echo "package.sh: the staging folder's path is written into the tree:" >&2
  grep -rl "$stage" "$tree" >&2
  exit 1
fi

epoch="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
archive="$out/$name.tar.gz"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" --format=gnu \
  -C "$stage" -cf - "$name" | gzip -n -6 >"$archive.tmp"
mv "$archive.tmp" "$archive"
echo "archive: $archive ($(du -h "$archive" | cut -f1))"
tar -tzvf "$archive" | awk '{ print "  " $0 }'
sha256sum "$archive"
