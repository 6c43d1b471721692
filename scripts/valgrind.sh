#!/usr/bin/env bash
# Runs C tests (ffi-tests/, the normal release build) under valgrind memcheck.
#
#   scripts/valgrind.sh [--all] [--jobs N]
#
# Without --all, the CI subset below (a few minutes on lavapipe); with --all,
# every C test except those that cannot run under it (see EXCLUDE). Fails
# when memcheck reports an invalid read, write or free, a use of
# uninitialised memory or a definite leak outside the suppressions of
# scripts/sanitizers/valgrind.supp (the Vulkan loader's dlopen and lavapipe's
# own allocations; each says why), or when a test fails. Logs go to
# build/ffi-tests/valgrind-ci/ (--all: valgrind/; NAME.log: memcheck,
# NAME.out: the test).
set -uo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$WGPU_SHIM_ROOT" || exit 1

# The CI subset: descriptors and chains that are invalid, NULL handles,
# string views, reference counting and command encoding, buffer mapping
# (validation, mapped-at-creation, ranges, map on a mapped or pending buffer),
# exactly-once delivery in every callback mode, and release in an atexit
# handler; chosen among the tests that take under a minute under memcheck
# here and do not measure time (about 3 minutes with 2 jobs).
SUBSET='^(objects[.](command_encoder_ops|string_view_inputs|refcounting)|mapping[.](mapasync_validation|mapped_at_creation|mapped_range_rules|read_write_mapped_range_roundtrip|mapasync_on_mapped_or_pending_is_error|bufferMapAsync2_matches|stale_mode_unknown_value_means_zero)|futures[.]every_callback_fires_exactly_once|errors[.](bad_enums_and_chains|null_handles_do_not_crash)|teardown[.]release_in_atexit_handler)$'
# Not under valgrind: the ABI compile checks (they run the compiler, not the
# library), the Python-hosted tests (CPython under memcheck), the soak
# test (its own long run), and futures.device_released_during_waitany: it
# sets WGPU_SHIM_FENCE_WAIT=1, where lavapipe busy-waits, and memcheck runs
# one thread at a time, so the test takes about 10 minutes (memcheck does
# report the bug it guards against; the ASan run covers it).
EXCLUDE='^(abi|bindings|stress|fault)[.]|python_(asyncio|trio|qt)|^futures[.]device_released_during_waitany$'

all=0
jobs=2
while [ "$#" -gt 0 ]; do
  case "$1" in
    --all) all=1 ;;
    --jobs)
      jobs="$2"
      shift
      ;;
    *)
      echo "unknown argument: $1" >&2
      exit 2
      ;;
  esac
  shift
done

require_cmd valgrind "apt-get install valgrind" || exit 1
[ -f build/ffi-tests/CTestTestfile.cmake ] || {
  cmake -S ffi-tests -B build/ffi-tests -DWGPU_SHIM_LIB_DIR="$WGPU_SHIM_LIB_DIR" >/dev/null || exit 1
}
cmake --build build/ffi-tests -j "$jobs" >/dev/null || exit 1

select=(--log-dir build/ffi-tests/valgrind)
[ "$all" -eq 1 ] || select=(--select "$SUBSET" --log-dir build/ffi-tests/valgrind-ci)
python3 scripts/valgrind_ctest.py build/ffi-tests scripts/sanitizers/valgrind.supp --jobs "$jobs" \
  --exclude "$EXCLUDE" "${select[@]}"
