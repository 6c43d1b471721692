#!/usr/bin/env bash
# Builds the Python wheel wgpu-shim (packaging/python): libwgpu_shim.so,
# stripped of debugging information, and the wgpu_shim module, built with the
# hatchling build backend; auditwheel then says which manylinux tag the
# library's symbol versions allow, and the wheel is given that tag.
#
#   scripts/wheel.sh [--out DIR] [--no-build | --pgo]
#
#   --out DIR    where the wheel goes (default: build/dist)
#   --no-build   use the library already in target/release
#   --pgo        build it with profile-guided optimisation (scripts/pgo.sh)
#
# The build tools (hatchling, auditwheel, wheel; pinned below) are installed
# from PyPI into a venv, build/wheel-tools, the first time (network needed
# then). Prints the wheel's path and auditwheel's report of it.
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$WGPU_SHIM_ROOT"

TOOLS=(hatchling==1.33.0 auditwheel==6.8.2 wheel==0.45.1)

out="$WGPU_SHIM_ROOT/build/dist"
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --out)
      [ $# -ge 2 ] || {
        echo "wheel.sh: --out needs a folder" >&2
        exit 2
      }
      out="$2"
      shift 2
      ;;
    --no-build) build=0 && shift ;;
    --pgo) build=pgo && shift ;;
    -h | --help)
      sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
      exit 0
      ;;
    *)
      echo "wheel.sh: unknown argument: $1 (try --help)" >&2
      exit 2
      ;;
  esac
done

if [ "$build" = pgo ]; then
  echo "+ scripts/pgo.sh"
  "$WGPU_SHIM_ROOT/scripts/pgo.sh"
elif [ "$build" = 1 ]; then
  echo "+ cargo build --release"
  cargo build --release
fi
lib="$WGPU_SHIM_LIB_DIR/libwgpu_shim.so"
[ -f "$lib" ] || {
  echo "wheel.sh: $lib is missing: run cargo build --release" >&2
  exit 1
}

tools="$WGPU_SHIM_ROOT/build/wheel-tools"
want="$(printf '%s\n' "${TOOLS[@]}")"
if [ "$(cat "$tools/.installed" 2>/dev/null)" != "$want" ]; then
  echo "+ python3 -m venv $tools && pip install ${TOOLS[*]}"
  rm -rf "$tools"
  python3 -m venv "$tools"
  "$tools/bin/python" -m pip install --quiet --disable-pip-version-check "${TOOLS[@]}"
  printf '%s\n' "$want" >"$tools/.installed"
fi

stage="$(mktemp -d "${TMPDIR:-/tmp}/wgpu-shim-wheel.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
strip --strip-debug -o "$stage/libwgpu_shim.so" "$lib"

echo "+ pip wheel --no-build-isolation packaging/python (WGPU_SHIM_LIBRARY=$stage/libwgpu_shim.so)"
WGPU_SHIM_LIBRARY="$stage/libwgpu_shim.so" "$tools/bin/python" -m pip wheel --quiet --disable-pip-version-check \
  --no-deps --no-build-isolation -w "$stage/raw" packaging/python
raw=("$stage"/raw/wgpu_shim-*-py3-none-linux_*.whl)
[ -f "${raw[0]}" ] || {
  echo "wheel.sh: no wheel was built" >&2
  exit 1
}

# The tag auditwheel gives: the oldest manylinux policy whose glibc (and
# whitelisted libraries) the library's versioned symbols fit.
report="$("$tools/bin/auditwheel" show "${raw[0]}" 2>&1)" || {
  echo "$report" >&2
  exit 1
}
plat="$(tr -s '\n ' '  ' <<<"$report" | sed -n 's/.* is consistent with the following platform tag: "\([^"]*\)".*/\1/p')"
case "$plat" in
  manylinux_*) ;;
  *)
    echo "$report" >&2
    echo "wheel.sh: auditwheel gives no manylinux tag (got '${plat}')" >&2
    exit 1
    ;;
esac
"$tools/bin/python" -m wheel tags --remove --platform-tag "$plat" "${raw[0]}" >/dev/null
wheel=("$stage"/raw/wgpu_shim-*-py3-none-"$plat".whl)
[ -f "${wheel[0]}" ] || {
  echo "wheel.sh: retagging to $plat failed" >&2
  exit 1
}
final="$("$tools/bin/auditwheel" show "${wheel[0]}" 2>&1)"
# One line, single spaces: auditwheel wraps its report.
joined="$(tr -s '\n ' '  ' <<<"$final")"
grep -qF "$(basename "${wheel[0]}") is consistent with the following platform tag: \"$plat\"" <<<"$joined" || {
  echo "$final" >&2
  echo "wheel.sh: auditwheel does not accept $(basename "${wheel[0]}")" >&2
  exit 1
}
mkdir -p "$out"
rm -f "$out"/wgpu_shim-*.whl
cp "${wheel[0]}" "$out/"
echo "wheel: $out/$(basename "${wheel[0]}") ($(du -h "${wheel[0]}" | cut -f1))"
echo "auditwheel show:"
sed 's/^/  /' <<<"$final"
