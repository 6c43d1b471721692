#!/bin/sh
# with_xvfb.sh PROGRAM [ARGS...]: runs a surface test against an X server of
# its own.
#
# It starts `Xvfb -displayfd`, which picks a free display number itself (so
# tests running in parallel never collide), waits until the server is ready,
# runs PROGRAM with DISPLAY set to it, then stops the server. Without Xvfb it
# uses the X server in $DISPLAY if there is one. When no X server can be had
# it prints why and exits 77, which CTest reports as a skipped test
# (SKIP_RETURN_CODE), never as a pass.
set -u

skip() {
  echo "SKIP: $*"
  exit 77
}

if ! command -v Xvfb >/dev/null 2>&1; then
  [ -n "${DISPLAY:-}" ] || skip "no X server: Xvfb is not installed (apt-get install xvfb) and DISPLAY is not set"
  echo "with_xvfb.sh: Xvfb is not installed; using DISPLAY=$DISPLAY"
  exec "$@"
fi

dir="$(mktemp -d "${TMPDIR:-/tmp}/with_xvfb.XXXXXX")" || skip "cannot make a temporary folder"
displayfile="$dir/display"
: >"$displayfile"
Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp -noreset -fp built-ins 3>"$displayfile" 2>"$dir/xvfb.log" &
xvfb=$!

cleanup() {
  kill "$xvfb" 2>/dev/null
  wait "$xvfb" 2>/dev/null
  rm -rf "$dir"
}

# Xvfb writes the display number and a newline once it accepts clients.
tries=0
while :; do
  if grep -q '^[0-9][0-9]*$' "$displayfile" 2>/dev/null; then
    break
  fi
  if ! kill -0 "$xvfb" 2>/dev/null || [ "$tries" -ge 200 ]; then
    log="$(tail -n 5 "$dir/xvfb.log" 2>/dev/null)"
    cleanup
    skip "Xvfb did not start: $log"
  fi
  tries=$((tries + 1))
  sleep 0.05
done

DISPLAY=":$(head -n 1 "$displayfile")"
export DISPLAY
"$@"
status=$?
cleanup
exit "$status"
