#!/usr/bin/env bash
# Instructions per call of the library's exported functions (issue 34's goal
# 4): runs `bench --scenario api_overhead` with a small count under
# `valgrind --tool=callgrind` on lavapipe, collecting only while the scenario
# runs (--toggle-collect=scenario_api_overhead: instance, adapter and device
# setup and the teardown are left out), then reads each exported function's
# inclusive instruction count (the function and everything it calls on the
# calling thread) and its number of calls from `callgrind_annotate
# --inclusive=yes --tree=caller`, and writes inclusive Ir / calls per
# function into a JSON file that benches/report.py renders ("Instructions
# per call (callgrind, lavapipe)"). Each library is one entry of that file:
# run the script once per library, the entries are merged.
#
#   benches/callgrind.sh --lib LIB [--bench BIN] [--iterations N] [--out FILE]
#                        [--commit C] [--source TEXT] [--keep DIR] [--reuse DIR]
#                        [--icd JSON]
#
#   --lib        libwgpu_shim.so or libwgpu_native-release.so
#   --bench      the bench program (default build/benches/bench, built with
#                CMake when missing)
#   --iterations operations of each kind (default 200; the bench adds
#                N/10 + 10 untimed ones first, which are counted here too)
#   --out        default benches/results/callgrind-lavapipe.json
#   --commit     the commit the library was built from (default: this
#                checkout's HEAD, "+dirty" when src/ has changes)
#   --source     a note on where the library came from (recorded)
#   --keep DIR   keep callgrind's output, the annotation and the bench's
#                JSON lines in DIR
#   --reuse DIR  no valgrind run: read what an earlier --keep DIR holds
#   --icd        Vulkan driver manifest (default lavapipe's,
#                /usr/share/vulkan/icd.d/lvp_icd.x86_64.json)
#
# The default count keeps the run short under valgrind (wgpu-native v29:
# 5 s on a 2-CPU host, 9.5 M instructions collected). The figures are
# instruction counts, not times, so they do not depend on the host's load;
# they leave out cache misses and time spent waiting.
# Exit status: 0 when the bench verified every result and the JSON was
# written, 1 otherwise, 2 for a usage problem.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
lib="" bench="" iterations=200 out="$root/benches/results/callgrind-lavapipe.json" commit="" source_note=""
keep="" reuse="" icd="/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
while [ $# -gt 0 ]; do
  case "$1" in
    --lib) lib="$2"; shift 2 ;;
    --bench) bench="$2"; shift 2 ;;
    --iterations) iterations="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --commit) commit="$2"; shift 2 ;;
    --source) source_note="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --reuse) reuse="$2"; shift 2 ;;
    --icd) icd="$2"; shift 2 ;;
    -h|--help) sed -n '2,38p' "$0"; exit 0 ;;
    *) echo "callgrind.sh: unknown argument $1 (--help)" >&2; exit 2 ;;
  esac
done
fail() { echo "callgrind.sh: $*" >&2; exit 1; }
if [ -z "$lib" ] && [ -z "$reuse" ]; then
  echo "callgrind.sh: --lib is needed (--help)" >&2
  exit 2
fi
case "$iterations" in ''|*[!0-9]*) echo "callgrind.sh: --iterations takes a number" >&2; exit 2 ;; esac

if [ -z "$commit" ]; then
  commit="$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
  if [ -n "$(git -C "$root" status --porcelain -- src Cargo.toml Cargo.lock 2>/dev/null)" ]; then
    commit="$commit+dirty"
  fi
fi

if [ -n "$reuse" ]; then
  dir="$reuse"
  [ -f "$dir/callgrind.out" ] && [ -f "$dir/bench.jsonl" ] || fail "$dir holds no callgrind.out and bench.jsonl"
  [ -n "$lib" ] || lib="$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    if d.get("scenario") == "info": print(d.get("lib_path", "")); break' "$dir/bench.jsonl")"
else
  [ -f "$lib" ] || fail "--lib $lib: no such file"
  command -v valgrind >/dev/null || fail "valgrind is not installed"
  command -v callgrind_annotate >/dev/null || fail "callgrind_annotate is not installed"
  [ -f "$icd" ] || fail "no Vulkan driver manifest $icd (lavapipe: mesa-vulkan-drivers)"
  if [ -z "$bench" ]; then
    bench="$root/build/benches/bench"
    if [ ! -x "$bench" ]; then
      cmake -S "$root/benches" -B "$root/build/benches" -DCMAKE_BUILD_TYPE=Release >/dev/null &&
        cmake --build "$root/build/benches" || fail "building the bench program failed"
    fi
  fi
  [ -x "$bench" ] || fail "--bench $bench: not an executable"
  # The collection toggles on the scenario's function: it must be in the symbol table.
  if command -v nm >/dev/null && ! nm "$bench" 2>/dev/null | grep -q ' scenario_api_overhead$'; then
    fail "$bench has no symbol scenario_api_overhead (stripped?)"
  fi
  if [ -n "$keep" ]; then
    dir="$keep"
    mkdir -p "$dir"
  else
    dir="$(mktemp -d)"
    trap 'rm -rf "$dir"' EXIT
  fi
  # lavapipe wants a private runtime folder; LP_NUM_THREADS=1 as in run.py.
  xdg="$(mktemp -d)"
  chmod 700 "$xdg"
  echo "callgrind.sh: valgrind --tool=callgrind $bench --lib $lib --scenario api_overhead --iterations $iterations" >&2
  t0=$(date +%s)
  env -u VK_DRIVER_FILES VK_ICD_FILENAMES="$icd" XDG_RUNTIME_DIR="$xdg" LP_NUM_THREADS=1 \
    valgrind --tool=callgrind --callgrind-out-file="$dir/callgrind.out" \
    --toggle-collect=scenario_api_overhead \
    "$bench" --lib "$lib" --scenario api_overhead --iterations "$iterations" --timeout 7200 \
    >"$dir/bench.jsonl" 2>"$dir/valgrind.log"
  rc=$?
  rm -rf "$xdg"
  echo "callgrind.sh: valgrind exited with $rc after $(( $(date +%s) - t0 )) s" >&2
  if grep -q '"error"' "$dir/bench.jsonl" || ! grep -q '"scenario":"done"' "$dir/bench.jsonl"; then
    tail -20 "$dir/valgrind.log" >&2
    fail "the bench did not verify every result (exit $rc); see above"
  fi
  [ "$rc" = 0 ] || echo "callgrind.sh: WARNING: exit status $rc after a clean teardown (kept the results)" >&2
fi

callgrind_annotate --inclusive=yes --tree=caller --threshold=100 "$dir/callgrind.out" >"$dir/annotate.txt" ||
  fail "callgrind_annotate failed"

python3 - "$dir/annotate.txt" "$dir/bench.jsonl" "$out" "$commit" "$source_note" "$lib" <<'EOF' || exit 1
"""Inclusive instructions per call from callgrind_annotate's caller tree, merged into the results file."""
import datetime, hashlib, json, re, sys
from pathlib import Path

annotate, bench_lines, out, commit, source, lib = sys.argv[1:7]
# The exported functions of the api_overhead scenario (issue 34's goal 4), then its waits, for reference.
FUNCTIONS = ["wgpuDeviceCreateBuffer", "wgpuBufferRelease", "wgpuDeviceCreateCommandEncoder",
             "wgpuCommandEncoderFinish", "wgpuQueueSubmit", "wgpuCommandBufferRelease", "wgpuCommandEncoderRelease",
             "wgpuBufferMapAsync", "wgpuBufferGetConstMappedRange", "wgpuBufferGetMappedRange", "wgpuBufferUnmap",
             "wgpuQueueWriteBuffer", "wgpuInstanceWaitAny", "wgpuDevicePoll", "wgpuInstanceProcessEvents",
             "wgpuQueueOnSubmittedWorkDone", "wgpuCommandEncoderCopyBufferToBuffer"]

recs = [json.loads(l) for l in Path(bench_lines).read_text().splitlines() if l.startswith("{")]
info = next((r for r in recs if r.get("scenario") == "info"), {})
api = [r for r in recs if r.get("scenario") == "api_overhead"]
library = info.get("library") or "unknown"

# callgrind_annotate --tree=caller: per function, one line per caller ("IR (P%)  < file:caller (Nx) [object]"),
# then the function's own line ("IR (P%)  *  file:function [object]") with its inclusive cost.
num = r"([\d,]+)(?:\s+\(\s*[\d.]+%\))?"
caller_re = re.compile(r"^\s*" + num + r"\s+<\s+.*\((\d+)x\)(?:\s+\[.*\])?\s*$")
self_re = re.compile(r"^\s*" + num + r"\s+\*\s+(.*?)(?:\s+\[(.*)\])?\s*$")
total_re = re.compile(r"^\s*" + num + r"\s+PROGRAM TOTALS")
found = {}
total = None
calls = 0
for line in Path(annotate).read_text().splitlines():
    if not line.strip():
        calls = 0
        continue
    m = total_re.match(line)
    if m:
        total = int(m.group(1).replace(",", ""))
        continue
    m = caller_re.match(line)
    if m:
        calls += int(m.group(2))
        continue
    m = self_re.match(line)
    if m:
        name = m.group(2).rsplit(":", 1)[-1]
        ir = int(m.group(1).replace(",", ""))
        # Inlining splits a function into several entries, one per source
        # file its code came from; the outermost one (the largest) includes
        # the others, so it alone counts (adding them counted calls twice).
        if name in FUNCTIONS and ir > found.get(name, {}).get("inclusive_ir", -1) and calls > 0:
            found[name] = {"calls": calls, "inclusive_ir": ir}
        calls = 0
for f in found.values():
    f["ir_per_call"] = round(f["inclusive_ir"] / f["calls"], 1) if f["calls"] else None
missing = [f for f in FUNCTIONS[:12] if f not in found]

p = Path(out)
data = json.loads(p.read_text()) if p.is_file() else {}
data.update({"platform": "callgrind", "label": "callgrind-lavapipe", "driver": "lavapipe (LP_NUM_THREADS=1)"})
lib_path = info.get("lib_path") or lib
try:
    sha = hashlib.sha256(Path(lib_path).read_bytes()).hexdigest()
except OSError:
    sha = None
n = next((r.get("n") for r in api), None)
data.setdefault("libraries", {})[library] = {
    "lib_path": lib_path, "lib_sha256": sha, "version": info.get("version"), "source": source or None,
    "commit": commit, "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    "adapter": info.get("adapter_device"), "iterations": n, "warmup": n // 10 + 10 if n else None,
    "total_ir": total, "functions": {k: found[k] for k in FUNCTIONS if k in found},
    "api_overhead_ns_per_op": {r.get("variant"): r.get("ns_per_op") for r in api},
}
p.parent.mkdir(parents=True, exist_ok=True)
p.write_text(json.dumps(data, indent=1) + "\n")
print(f"callgrind.sh: {library}: {len(found)} functions, {total or 0:,} instructions collected -> {p}", file=sys.stderr)
for k in FUNCTIONS:
    if k in found:
        f = found[k]
        print(f"  {k:40s} {f['calls']:6d} calls  {f['ir_per_call']:>12,.1f} Ir/call", file=sys.stderr)
if missing:
    print(f"callgrind.sh: not found in the profile: {', '.join(missing)}", file=sys.stderr)
EOF
