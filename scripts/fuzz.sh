#!/usr/bin/env bash
# Runs the fuzz targets of fuzz/ (cargo fuzz, libFuzzer, ASan) on lavapipe.
#
#   scripts/fuzz.sh [--runs N] [SECONDS] [TARGET...]
#
# SECONDS per target (default 60); TARGETs: conv, conv_device, api_seq,
# api_seq_lost (default all four).
# With --runs N each target stops after N inputs instead (SECONDS is then
# only an upper bound). Each run starts from the committed corpus
# (fuzz/corpus/TARGET, read only) plus what earlier runs here found
# (build/fuzz/TARGET/corpus, where new inputs go); a crash, a broken
# invariant (a panic in the target), a leak (conv and conv_device check
# after every input) or an input running past 30 s (a hang) fails the run
# and leaves the input in build/fuzz/TARGET/.
# Prints each target's executions and rate (libFuzzer's final stats).
#
# Needs the nightly toolchain and cargo-fuzz (cargo install cargo-fuzz).
set -uo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$WGPU_SHIM_ROOT" || exit 1

runs=""
if [ "${1:-}" = "--runs" ]; then
  runs="$2"
  shift 2
fi
seconds="${1:-60}"
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(conv conv_device api_seq api_seq_lost)

if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "error: cargo-fuzz or the nightly toolchain is missing (cargo install cargo-fuzz)" >&2
  exit 1
fi

section "fuzz: build (cargo +nightly fuzz build -O)"
(cd fuzz && cargo +nightly fuzz build -O) || exit 1

# Leaks are checked after every input; lavapipe's own are suppressed.
export LSAN_OPTIONS="suppressions=$WGPU_SHIM_ROOT/scripts/sanitizers/lsan.supp:print_suppressions=0"
# An allocation the allocator cannot satisfy returns NULL, as glibc's does,
# instead of ending the run: the library asks fallibly where the API has an
# answer for it (a buffer mapped at creation too large to hold returns
# NULL); an infallible one still aborts, as Rust's allocation error does.
export ASAN_OPTIONS="allocator_may_return_null=1"

status=0
for t in "${targets[@]}"; do
  section "fuzz: $t for ${seconds}s${runs:+ or $runs inputs}"
  work="$WGPU_SHIM_ROOT/build/fuzz/$t"
  mkdir -p "$work/corpus" "fuzz/corpus/$t"
  log="$work/last-run.log"
  # The memory limit is on what is resident (4 GiB), not on the size of one
  # allocation: libFuzzer's default single-allocation limit equals the RSS
  # limit, and a buffer mapped at creation asks for its whole size in zeroed
  # memory that is never touched unless written (an invalid 16 GiB buffer
  # costs nothing resident). Allocations over ASan's own maximum (1 TiB)
  # return NULL (above), which the library turns into a NULL buffer.
  args=(-max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -malloc_limit_mb=1048576 -print_final_stats=1
    -artifact_prefix="$work/")
  [ -n "$runs" ] && args+=(-runs="$runs")
  # api_seq_lost creates and destroys devices, and with them threads (the
  # progress thread's, lavapipe's), all the time. Its leak check after an
  # input reported, about once in 5,000 inputs, a thread's closure or
  # thread-local destructor list while LeakSanitizer logged "Thread N not
  # found in registry" for threads of a device being created at that moment
  # (LSAN_OPTIONS=log_threads=1): it cannot see their stacks or thread-local
  # storage then. valgrind finds no definite leak in a device churn loop, and
  # every C test runs under LeakSanitizer (scripts/sanitize.sh), so this
  # target runs without the per-input check (docs/RELIABILITY.md).
  [ "$t" = api_seq_lost ] && args+=(-detect_leaks=0)
  (cd fuzz && cargo +nightly fuzz run -O "$t" "$work/corpus" "$WGPU_SHIM_ROOT/fuzz/corpus/$t" -- "${args[@]}") \
    >"$log" 2>&1
  rc=$?
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|^#[0-9]+ +DONE' "$log" || true
  grep -E '^fuzz: panic' "$log" | sort -u | head -n 20 || true
  if [ "$rc" -ne 0 ]; then
    echo "fuzz: $t FAILED (exit $rc); the end of its log:" >&2
    tail -n 60 "$log" >&2
    status=1
  else
    echo "fuzz: $t: no finding"
  fi
done
exit "$status"
