# shellcheck shell=bash
# Shared setup for scripts/demo.sh and scripts/test.sh; source it, don't run it.
#
# Sets (and exports):
#   WGPU_SHIM_ROOT     the repository root
#   WGPU_SHIM_LIB_DIR  where cargo puts the release libraries
#                      (${CARGO_TARGET_DIR:-target}/release; a relative
#                      CARGO_TARGET_DIR is taken from WGPU_SHIM_ROOT, where the
#                      scripts run cargo)
#   VK_ICD_FILENAMES   the Vulkan driver: $WGPU_SHIM_ICD if that is set (set but
#                      empty: leave the Vulkan loader's default), else an
#                      existing VK_ICD_FILENAMES / VK_DRIVER_FILES, else lavapipe
#                      (Mesa's CPU Vulkan driver, package mesa-vulkan-drivers)
#   XDG_RUNTIME_DIR    a private 0700 folder under /tmp when it is unset, not an
#                      absolute path, or not a folder of this user's with mode
#                      0700 (the XDG spec's rule); said on stderr when it
#                      replaces one that was set
#   RUST_BACKTRACE     1 unless set
# Defines: section TITLE (prints a step header), require_cmd CMD HINT.

WGPU_SHIM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export WGPU_SHIM_ROOT

_wgpu_shim_target_dir="${CARGO_TARGET_DIR:-target}"
case "$_wgpu_shim_target_dir" in
  /*) ;;
  *) _wgpu_shim_target_dir="$WGPU_SHIM_ROOT/$_wgpu_shim_target_dir" ;;
esac
WGPU_SHIM_LIB_DIR="$_wgpu_shim_target_dir/release"
export WGPU_SHIM_LIB_DIR
unset _wgpu_shim_target_dir

# The Vulkan driver.
if [ -n "${WGPU_SHIM_ICD+set}" ]; then
  if [ -n "$WGPU_SHIM_ICD" ]; then
    export VK_ICD_FILENAMES="$WGPU_SHIM_ICD"
    unset VK_DRIVER_FILES
  fi
elif [ -z "${VK_ICD_FILENAMES:-}" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then
  VK_ICD_FILENAMES="/usr/share/vulkan/icd.d/lvp_icd.$(uname -m).json"
  export VK_ICD_FILENAMES
fi
if [ -n "${VK_ICD_FILENAMES:-}" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then
  _wgpu_shim_icd_ok=0
  _wgpu_shim_ifs="$IFS"
  IFS=:
  for _wgpu_shim_icd in $VK_ICD_FILENAMES; do
    [ -e "$_wgpu_shim_icd" ] && _wgpu_shim_icd_ok=1
  done
  IFS="$_wgpu_shim_ifs"
  if [ "$_wgpu_shim_icd_ok" = 0 ]; then
    echo "warning: Vulkan driver manifest $VK_ICD_FILENAMES not found" >&2
    echo "         (lavapipe: apt-get install -y mesa-vulkan-drivers libvulkan1;" >&2
    echo "          or set WGPU_SHIM_ICD to a driver's .json, or to '' for the loader's default)" >&2
  fi
  unset _wgpu_shim_icd _wgpu_shim_icd_ok _wgpu_shim_ifs
fi

# A runtime folder. Without one (unset, or not an absolute path) lavapipe
# prints "error: XDG_RUNTIME_DIR is invalid or not set in the environment."
# twice per process (libwayland-client, looking for a Wayland display: a
# harmless message, but a confusing one). The XDG spec wants it owned by the
# user with mode 0700; one that is not is replaced as well.
_wgpu_shim_private_dir() {
  [ -d "$1" ] && [ ! -L "$1" ] && [ -O "$1" ] && [ "$(stat -c %a "$1" 2>/dev/null)" = 700 ]
}
_wgpu_shim_xdg_why=""
case "${XDG_RUNTIME_DIR:-}" in
  /*) _wgpu_shim_private_dir "$XDG_RUNTIME_DIR" || _wgpu_shim_xdg_why="not a folder of this user's with mode 0700" ;;
  "") _wgpu_shim_xdg_why="unset" ;;
  *) _wgpu_shim_xdg_why="not an absolute path" ;;
esac
if [ -n "$_wgpu_shim_xdg_why" ]; then
  _wgpu_shim_xdg_was="${XDG_RUNTIME_DIR:-}"
  _wgpu_shim_xdg="/tmp/wgpu-shim-xdg-$(id -u)"
  [ -e "$_wgpu_shim_xdg" ] || mkdir -m 0700 "$_wgpu_shim_xdg" 2>/dev/null || true
  # Reuse it only if it is ours, a real folder, and private; else make a new one.
  if _wgpu_shim_private_dir "$_wgpu_shim_xdg"; then
    export XDG_RUNTIME_DIR="$_wgpu_shim_xdg"
  else
    XDG_RUNTIME_DIR="$(mktemp -d /tmp/wgpu-shim-xdg.XXXXXX)"
    chmod 0700 "$XDG_RUNTIME_DIR"
    export XDG_RUNTIME_DIR
  fi
  if [ "$_wgpu_shim_xdg_why" != unset ]; then
    echo "note: XDG_RUNTIME_DIR=$_wgpu_shim_xdg_was is $_wgpu_shim_xdg_why; using $XDG_RUNTIME_DIR" >&2
  fi
  unset _wgpu_shim_xdg _wgpu_shim_xdg_was
fi
unset _wgpu_shim_xdg_why
unset -f _wgpu_shim_private_dir

export RUST_BACKTRACE="${RUST_BACKTRACE:-1}"

# A visible header for each step.
section() {
  printf '\n==== %s ====\n' "$*"
}

# require_cmd CMD HINT: fail with HINT when CMD is not on PATH.
require_cmd() {
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "error: '$1' not found: $2" >&2
    return 1
  fi
}
