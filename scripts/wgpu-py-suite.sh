#!/usr/bin/env bash
# Runs wgpu-py's upstream test suite against a webgpu.h library: one pytest
# process per test file (a crash loses only that file), each under a time
# limit, and writes per-test results that two libraries' runs can be diffed by.
#
#   scripts/wgpu-py-suite.sh [options] DIR [LIB]
#   scripts/wgpu-py-suite.sh --compare BASE_OUT OTHER_OUT
#
#   DIR   a wgpu-py checkout: the folder holding tests/, tests_mem/,
#         examples/ and conftest.py (tag v0.32.0 matches wgpu-native v29.0.1.1)
#   LIB   the library wgpu-py loads, passed as WGPU_LIB_PATH (the only switch);
#         default: this repository's target/release/libwgpu_shim.so
#
# Options:
#   -o, --out OUT        results folder (env WGPU_PY_SUITE_OUT;
#                        default ./wgpu-py-suite-out); emptied of old results
#   -t, --timeout SECS   time limit per test file (env WGPU_PY_SUITE_TIMEOUT;
#                        default 600)
#   -s, --select TEXT    run only test files whose path contains TEXT
#                        (repeatable)
#   -i, --isolate        after a file crashes or times out, run each test it
#                        did not reach in a pytest process of its own (their
#                        logs are logs/FILE.isolated-N.log)
#   --no-install         use the venv as it is; do not create or update it
#   --compare A B        print the tests that pass in results folder A but not
#                        in B (and the reverse), then exit
#
# Environment:
#   WGPU_PY_SUITE_VENV   the virtual environment (default DIR/.venv); created
#                        when missing, with wgpu==0.32.0 and the test deps
#   WGPU_PY_SUITE_PYTHON the Python (>= 3.11) that creates it (default python3)
#   The Vulkan driver and XDG_RUNTIME_DIR come from scripts/env.sh (lavapipe
#   unless WGPU_SHIM_ICD / VK_ICD_FILENAMES say otherwise).
#
# Results in OUT:
#   results.tsv   nodeid<TAB>outcome for every test; outcome is one of
#                 passed failed error skipped xfailed xpassed, or crashed (the
#                 test running when its process died or timed out) / not-run
#                 (collected, never reached because of that)
#   files.tsv     file<TAB>exit status<TAB>status<TAB>per-file counts
#   summary.txt   the printed totals
#   junit/*.xml   pytest's junit report per file (absent for crashed files)
#   logs/*.log    pytest -v -rA output per file
#   failures/*.txt  traceback and captured output of each failed/error test
#
# The last two printed lines are
#   N passed, N failed, N skipped
#   errors: N, crashed files: N (names), tests lost to crashes: N
# Exit status: 0 when nothing failed, errored or crashed; 1 otherwise;
# 2 for usage or setup errors.
set -uo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"

WGPU_PY_VERSION=0.32.0
# What wgpu-py's [tests] extra names, plus what the examples import.
TEST_DEPS=(pytest numpy imageio psutil anyio trio "rendercanvas>=2.4.0" pypng imgui-bundle glfw)
TEST_IMPORTS="pytest, numpy, imageio, psutil, anyio, trio, rendercanvas, png, imgui_bundle, glfw"

usage() {
  sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

die() {
  echo "error: $*" >&2
  exit 2
}

# compare A B: the tests passing in A but not in B, and the reverse.
compare() {
  local a="$1/results.tsv" b="$2/results.tsv"
  [ -f "$a" ] || die "$a not found"
  [ -f "$b" ] || die "$b not found"
  awk -F'\t' -v an="$1" -v bn="$2" '
    FNR == NR { base[$1] = $2; next }
    { other[$1] = $2 }
    END {
      n = 0
      for (id in base) {
        o = (id in other) ? other[id] : "missing"
        if (base[id] == "passed" && o != "passed") lost[n++] = id "\t" o
      }
      printf "passing in %s but not in %s: %d\n", an, bn, n
      for (i = 0; i < n; i++) print "  " lost[i] | "LC_ALL=C sort"
      close("LC_ALL=C sort")
      m = 0
      for (id in other) {
        o = (id in base) ? base[id] : "missing"
        if (other[id] == "passed" && o != "passed") won[m++] = id "\t" o
      }
      printf "passing in %s but not in %s: %d\n", bn, an, m
      for (i = 0; i < m; i++) print "  " won[i] | "LC_ALL=C sort"
      close("LC_ALL=C sort")
    }' "$a" "$b"
}

out="${WGPU_PY_SUITE_OUT:-wgpu-py-suite-out}"
timeout_s="${WGPU_PY_SUITE_TIMEOUT:-600}"
install=1
isolate=0
selects=()
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help)
      usage
      exit 0
      ;;
    -o | --out)
      [ $# -ge 2 ] || die "$1 needs a folder"
      out="$2"
      shift 2
      ;;
    -t | --timeout)
      [ $# -ge 2 ] || die "$1 needs seconds"
      timeout_s="$2"
      shift 2
      ;;
    -s | --select)
      [ $# -ge 2 ] || die "$1 needs text"
      selects+=("$2")
      shift 2
      ;;
    -i | --isolate)
      isolate=1
      shift
      ;;
    --no-install)
      install=0
      shift
      ;;
    --compare)
      [ $# -eq 3 ] || die "--compare needs two results folders"
      compare "$2" "$3"
      exit 0
      ;;
    --)
      shift
      positional+=("$@")
      break
      ;;
    -*) die "unknown option: $1 (try --help)" ;;
    *)
      positional+=("$1")
      shift
      ;;
  esac
done
if [ "${#positional[@]}" -lt 1 ] || [ "${#positional[@]}" -gt 2 ]; then
  usage >&2
  exit 2
fi
case "$timeout_s" in
  '' | *[!0-9]*) die "the timeout must be a whole number of seconds" ;;
esac

suite_dir="$(cd "${positional[0]}" 2>/dev/null && pwd)" || die "no folder ${positional[0]}"
for sub in tests tests_mem examples conftest.py; do
  [ -e "$suite_dir/$sub" ] || die "$suite_dir has no $sub: not a wgpu-py checkout"
done
lib="${positional[1]:-$WGPU_SHIM_LIB_DIR/libwgpu_shim.so}"
[ -f "$lib" ] || die "library $lib not found (build it: cargo build --release)"
lib="$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")"

venv="${WGPU_PY_SUITE_VENV:-$suite_dir/.venv}"
py="$venv/bin/python"
require_cmd timeout "install coreutils" || exit 2

# The venv: wgpu-py from PyPI (its own wgpu-native is not used: WGPU_LIB_PATH
# points elsewhere) and what the tests import.
venv_ok() {
  [ -x "$py" ] && "$py" -c "import wgpu, $TEST_IMPORTS
assert wgpu.__version__ == '$WGPU_PY_VERSION', wgpu.__version__" >/dev/null 2>&1
}
if ! venv_ok; then
  [ "$install" -eq 1 ] || die "venv $venv lacks wgpu==$WGPU_PY_VERSION or test deps (drop --no-install)"
  section "venv $venv"
  if [ ! -x "$py" ]; then
    base_py="${WGPU_PY_SUITE_PYTHON:-python3}"
    require_cmd "$base_py" "set WGPU_PY_SUITE_PYTHON to a Python >= 3.11" || exit 2
    "$base_py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
      die "$base_py is older than 3.11 (wgpu $WGPU_PY_VERSION needs 3.11+)"
    "$base_py" -m venv "$venv" || die "could not create $venv"
  fi
  "$py" -m pip install --quiet --disable-pip-version-check \
    "wgpu==$WGPU_PY_VERSION" "${TEST_DEPS[@]}" || die "pip install failed"
  venv_ok || die "the venv still cannot import wgpu==$WGPU_PY_VERSION and the test deps"
fi

mkdir -p "$out" || die "cannot create $out"
out="$(cd "$out" && pwd)"
rm -rf "$out/junit" "$out/logs" "$out/failures" "$out/raw"
rm -f "$out/results.tsv" "$out/files.tsv" "$out/summary.txt"
mkdir -p "$out/junit" "$out/logs" "$out/failures" "$out/raw"

cd "$suite_dir" || exit 2

files=()
while IFS= read -r f; do
  if [ "${#selects[@]}" -gt 0 ]; then
    keep=0
    for s in "${selects[@]}"; do
      case "$f" in *"$s"*) keep=1 ;; esac
    done
    [ "$keep" -eq 1 ] || continue
  fi
  files+=("$f")
done < <(find tests tests_mem examples/tests -maxdepth 1 -name 'test_*.py' -type f 2>/dev/null | LC_ALL=C sort)
[ "${#files[@]}" -gt 0 ] || die "no test files found in $suite_dir"

# A pytest plugin, run through pytest.main so that nothing but WGPU_LIB_PATH
# differs between libraries. It writes, line by line and flushed, what was
# collected, which test started, and each test's outcome, so a crash still
# leaves a record.
# shellcheck disable=SC2016
runner='
import sys, pytest

raw_path, fail_path = sys.argv[1], sys.argv[2]
args = sys.argv[3:]


class Recorder:
    def __init__(self):
        self.raw = open(raw_path, "w", buffering=1)
        self.fail = open(fail_path, "w", buffering=1)
        self.phases = {}

    def write(self, *fields):
        self.raw.write("\t".join(f.replace("\t", " ").replace("\n", " ") for f in fields) + "\n")
        self.raw.flush()

    def failure(self, nodeid, what, report):
        self.fail.write(f"=== {nodeid} [{what}]\n{report.longreprtext}\n")
        for title, text in getattr(report, "sections", []):
            self.fail.write(f"--- {title}\n{text[-4000:]}\n")
        self.fail.write("\n")
        self.fail.flush()

    def pytest_collection_finish(self, session):
        for item in session.items:
            self.write("collected", item.nodeid)

    def pytest_collectreport(self, report):
        nodeid = report.nodeid
        if not nodeid or report.passed:
            return
        if report.failed:
            self.write("result", nodeid, "error")
            self.failure(nodeid, "collection error", report)
        elif report.skipped:
            self.write("result", nodeid, "skipped")

    def pytest_runtest_logstart(self, nodeid, location):
        self.phases[nodeid] = None
        self.write("start", nodeid)

    def pytest_runtest_logreport(self, report):
        nodeid, when, cur = report.nodeid, report.when, self.phases.get(report.nodeid)
        xfail = hasattr(report, "wasxfail")
        if when in ("setup", "call"):
            if report.failed:
                outcome = "error" if when == "setup" else "failed"
            elif report.skipped:
                outcome = "xfailed" if xfail else "skipped"
            elif when == "call":
                outcome = "xpassed" if xfail else "passed"
            else:
                outcome = cur
            if report.failed:
                self.failure(nodeid, f"{when} {outcome}", report)
            self.phases[nodeid] = outcome
        elif report.failed:
            self.failure(nodeid, "teardown error", report)
            if cur in (None, "passed", "skipped", "xfailed", "xpassed"):
                self.phases[nodeid] = "error"

    def pytest_runtest_logfinish(self, nodeid, location):
        self.write("result", nodeid, self.phases.pop(nodeid, None) or "error")

    def pytest_sessionfinish(self, session, exitstatus):
        self.write("finished", str(int(exitstatus)))


sys.exit(pytest.main(args, plugins=[Recorder()]))
'

export WGPU_LIB_PATH="$lib"

section "wgpu-py $WGPU_PY_VERSION suite"
echo "checkout: $suite_dir"
echo "library:  $WGPU_LIB_PATH"
echo "venv:     $venv"
echo "results:  $out"
echo "driver:   ${VK_ICD_FILENAMES:-${VK_DRIVER_FILES:-loader default}}"
timeout 120 "$py" -c '
import wgpu
from wgpu.backends import wgpu_native
print("wgpu-py: ", wgpu.__version__, "from", wgpu.__file__)
print("lib:     ", ".".join(map(str, wgpu_native.lib_version_info)))
print("adapter: ", wgpu.gpu.request_adapter_sync().summary)
' 2>&1 | sed 's/^/  /'
[ -d "$suite_dir/wgpu" ] && echo "  note: $suite_dir/wgpu shadows the venv's wgpu (it is first on sys.path)"

faulthandler_opt=()
[ "$timeout_s" -gt 30 ] && faulthandler_opt=(-o "faulthandler_timeout=$((timeout_s - 20))")

# The GUI tests (tests_mem/test_gui_glfw.py) need a display: without one,
# each file runs under a private Xvfb server when xvfb-run exists.
display=()
if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null 2>&1; then
  display=(xvfb-run -a)
fi

# run_pytest NAME TARGET: one pytest process on TARGET (a file or a nodeid)
# under the time limit; its records go to raw/NAME.tsv, logs/NAME.log,
# junit/NAME.xml and failures/NAME.txt. Returns pytest's exit status (124 or
# 137 for a timeout, 128+N when killed by signal N).
run_pytest() {
  local name="$1" target="$2" rc
  # The redirected group keeps bash's "Segmentation fault" notice out of the
  # output; the exit status still says it.
  {
    timeout -k 30 "$timeout_s" "${display[@]}" "$py" -c "$runner" "$out/raw/$name.tsv" "$out/failures/$name.txt" \
      -p no:cacheprovider -v -rA "${faulthandler_opt[@]}" \
      --junitxml="$out/junit/$name.xml" "$target" </dev/null >"$out/logs/$name.log" 2>&1
  } 2>/dev/null
  rc=$?
  [ -s "$out/failures/$name.txt" ] || rm -f "$out/failures/$name.txt"
  [ -f "$out/raw/$name.tsv" ] || : >"$out/raw/$name.tsv"
  return "$rc"
}

# is_crashed RC RAW: true when the process died or timed out before pytest
# finished its session.
is_crashed() {
  [ "$1" -ge 124 ] || ! grep -q '^finished' "$2"
}

# results_of RAW CRASHED TARGET: one "nodeid<TAB>outcome" line per collected
# test; what a crash cut off is crashed (the test running then) or not-run.
results_of() {
  awk -F'\t' -v crashed="$2" -v target="$3" '
    $1 == "collected" { if (!($2 in seen)) { order[n++] = $2; seen[$2] = 1 } }
    $1 == "start" { last = $2 }
    $1 == "result" {
      if (!($2 in seen)) { order[n++] = $2; seen[$2] = 1 }
      res[$2] = $3
    }
    END {
      if (n == 0 && crashed) { order[n++] = target; seen[target] = 1 }
      for (i = 0; i < n; i++) {
        id = order[i]
        if (id in res) o = res[id]
        else if (crashed && (id == last || last == "" && i == 0)) o = "crashed"
        else o = "not-run"
        print id "\t" o
      }
    }' "$1"
}

tot_passed=0 tot_failed=0 tot_skipped=0 tot_errors=0 tot_other=0 tot_lost=0
crashed_files=()
: >"$out/results.tsv"
: >"$out/files.tsv"
started=$SECONDS
section "per-file results"
for f in "${files[@]}"; do
  name="${f//\//__}"
  name="${name%.py}"
  t0=$SECONDS
  run_pytest "$name" "$f"
  rc=$?
  crashed=0
  is_crashed "$rc" "$out/raw/$name.tsv" && crashed=1
  results_of "$out/raw/$name.tsv" "$crashed" "$f" >"$out/raw/$name.results"

  # --isolate: each test a crash cut off, again in a process of its own.
  if [ "$crashed" -eq 1 ] && [ "$isolate" -eq 1 ]; then
    i=0
    : >"$out/raw/$name.isolated"
    while IFS=$'\t' read -r id outcome; do
      if [ "$outcome" = not-run ]; then
        i=$((i + 1))
        run_pytest "$name.isolated-$i" "$id"
        r=$?
        c=0
        is_crashed "$r" "$out/raw/$name.isolated-$i.tsv" && c=1
        results_of "$out/raw/$name.isolated-$i.tsv" "$c" "$id" | awk -F'\t' -v id="$id" '$1 == id' >>"$out/raw/$name.isolated"
      else
        printf '%s\t%s\n' "$id" "$outcome" >>"$out/raw/$name.isolated"
      fi
    done <"$out/raw/$name.results"
    mv "$out/raw/$name.isolated" "$out/raw/$name.results"
  fi
  secs=$((SECONDS - t0))
  cat "$out/raw/$name.results" >>"$out/results.tsv"

  read -r p fl sk er ot lost < <(awk -F'\t' '
    { c[$2]++ }
    END {
      other = c["xfailed"] + c["xpassed"]
      printf "%d %d %d %d %d %d\n", c["passed"], c["failed"], c["skipped"], c["error"], other, c["crashed"] + c["not-run"]
    }' "$out/raw/$name.results")
  tot_passed=$((tot_passed + p)) tot_failed=$((tot_failed + fl)) tot_skipped=$((tot_skipped + sk))
  tot_errors=$((tot_errors + er)) tot_other=$((tot_other + ot)) tot_lost=$((tot_lost + lost))

  if [ "$crashed" -eq 1 ]; then
    case "$rc" in
      124 | 137) status="TIMEOUT" ;;
      *) if [ "$rc" -gt 128 ]; then status="CRASH(signal $((rc - 128)))"; else status="CRASH(rc $rc)"; fi ;;
    esac
    crashed_files+=("$f")
  elif [ "$fl" -gt 0 ] || [ "$er" -gt 0 ]; then
    status=FAIL
  else
    status=ok
  fi
  counts="$p passed, $fl failed, $sk skipped, $er errors"
  [ "$ot" -gt 0 ] && counts="$counts, $ot xfail/xpass"
  [ "$lost" -gt 0 ] && counts="$counts, $lost lost"
  printf '%-14s %-45s %s (%ds)\n' "$status" "$f" "$counts" "$secs"
  printf '%s\t%s\t%s\t%s\n' "$f" "$rc" "$status" "$counts" >>"$out/files.tsv"
done

{
  printf '\nlibrary: %s\n' "$WGPU_LIB_PATH"
  printf 'files: %d, time: %ds\n' "${#files[@]}" $((SECONDS - started))
  [ "$tot_other" -gt 0 ] && printf 'xfailed/xpassed: %d\n' "$tot_other"
  printf '%d passed, %d failed, %d skipped\n' "$tot_passed" "$tot_failed" "$tot_skipped"
  if [ "${#crashed_files[@]}" -gt 0 ]; then
    printf 'errors: %d, crashed files: %d (%s), tests lost to crashes: %d\n' \
      "$tot_errors" "${#crashed_files[@]}" "${crashed_files[*]}" "$tot_lost"
  else
    printf 'errors: %d, crashed files: 0, tests lost to crashes: 0\n' "$tot_errors"
  fi
} | tee "$out/summary.txt"

if [ "$tot_failed" -gt 0 ] || [ "$tot_errors" -gt 0 ] || [ "${#crashed_files[@]}" -gt 0 ]; then
  exit 1
fi
exit 0
