#!/bin/sh
# with_weston.sh PROGRAM [ARGS...]: runs a Wayland surface test against a
# Wayland compositor of its own.
#
# It makes a private runtime folder (mode 0700, as XDG_RUNTIME_DIR must be),
# starts weston there with its headless backend and the pixman renderer
# (Debian 12's weston 10: `--backend=headless-backend.so`, `--use-pixman`;
# no GPU, no seat; a config file of its own, below; `--debug`, under which
# any client may take a screenshot through weston_screenshooter, as the tests
# do to see what the compositor shows), waits until weston listens on its
# socket, runs PROGRAM with WAYLAND_DISPLAY and XDG_RUNTIME_DIR set to it (and DISPLAY
# unset, so that nothing reaches an X server instead), then stops weston.
# Each test has its own folder and socket, so tests running in parallel never
# collide.
#
# Without weston it reports SKIP (exit 77, which CTest shows as skipped)
# naming the package to install; under CI (CI set to true, 1 or yes) that is
# a failure instead, as for every test a missing package keeps from running
# (ffi-tests/CMakeLists.txt). A weston that is there but does not start is a
# failure everywhere. When PROGRAM fails, weston's log follows its output.
set -u

skip_or_fail() {
  ci="$(printf '%s' "${CI:-}" | tr '[:upper:]' '[:lower:]')"
  if [ "$ci" = true ] || [ "$ci" = 1 ] || [ "$ci" = yes ]; then
    echo "FAIL: $*"
    echo "(CI is set: a test that a missing package keeps from running fails there)"
    exit 1
  fi
  echo "SKIP: $*"
  exit 77
}

command -v weston >/dev/null 2>&1 ||
  skip_or_fail "no Wayland compositor: weston is not installed (Debian package weston: apt-get install -y weston)"

dir="$(mktemp -d "${TMPDIR:-/tmp}/with_weston.XXXXXX")" || {
  echo "FAIL: cannot make a temporary folder"
  exit 1
}
chmod 0700 "$dir"
socket=wayland-test
log="$dir/weston.log"

# No animations (desktop-shell's default fades the whole output in from
# black after start-up, which would dim what the tests' screenshots see) and
# no panel (whose icons could have the colours the tests count).
printf '[shell]\nstartup-animation=none\nanimation=none\nclose-animation=none\nfocus-animation=none\npanel-position=none\n' \
  >"$dir/weston.ini"
XDG_RUNTIME_DIR="$dir" weston --backend=headless-backend.so --use-pixman --width=1024 --height=768 --debug \
  --socket="$socket" --idle-time=0 --config="$dir/weston.ini" --log="$log" >"$dir/weston.out" 2>&1 </dev/null &
weston=$!

cleanup() {
  kill "$weston" 2>/dev/null
  wait "$weston" 2>/dev/null
  rm -rf "$dir"
}

# weston makes the socket once its compositor, backend and shell are up.
tries=0
until [ -S "$dir/$socket" ]; do
  if ! kill -0 "$weston" 2>/dev/null || [ "$tries" -ge 200 ]; then
    echo "FAIL: weston did not start (headless backend, socket $dir/$socket):"
    tail -n 20 "$log" "$dir/weston.out" 2>/dev/null
    cleanup
    exit 1
  fi
  tries=$((tries + 1))
  sleep 0.05
done

echo "with_weston.sh: weston $(weston --version 2>/dev/null | sed 's/^weston //'), headless, WAYLAND_DISPLAY=$socket"
unset DISPLAY
XDG_RUNTIME_DIR="$dir" WAYLAND_DISPLAY="$socket" "$@"
status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 77 ]; then
  echo "---- weston's log (the last 30 lines) ----"
  tail -n 30 "$log" 2>/dev/null
fi
cleanup
exit "$status"
