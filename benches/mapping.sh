#!/usr/bin/env bash
# The mapping benchmarks of the issue on mapped ranges that never go stale
# (docs/MAPPING.md): the bench program's readback_bandwidth (a MAP_READ
# buffer read through GetConstMappedRange + memcpy and ReadMappedRange, 4 KiB
# to 1 GiB, first touch and steady state, map and unmap times) and its 4 KiB
# map_roundtrip, for wgpu-shim in each WGPU_SHIM_STALE_MAPPINGS setting
# (zero, fault, driver) and for wgpu-native, the four taking turns, for
# several rounds. Writes benches/results/<label>.json, which benches/report.py
# turns into BENCHMARKS.md's mapping section.
#
#   benches/mapping.sh --bench BIN --shim LIB --native LIB --label NAME \
#                      [--rounds N] [--device TEXT] [--commit C] [--out FILE]
#
# --commit names the commit the binaries were built from (default: git's
# HEAD where the script runs, when it can tell).
#
# Run it on the machine being measured (the lent GPU: build here, carry the
# binaries). Exit status: 0 when every run verified its data.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bench="" shim="" native="" label="" rounds=3 device="" out="" commit=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bench) bench="$2"; shift 2 ;;
    --shim) shim="$2"; shift 2 ;;
    --native) native="$2"; shift 2 ;;
    --label) label="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --device) device="$2"; shift 2 ;;
    --commit) commit="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "mapping.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ -z "$bench" ] || [ -z "$shim" ] || [ -z "$native" ] || [ -z "$label" ]; then
  echo "mapping.sh: --bench, --shim, --native and --label are needed (--help)" >&2
  exit 2
fi
out="${out:-$root/benches/results/$label.json}"
raw="$(mktemp -d)"
trap 'rm -rf "$raw"' EXIT
status=0
scenarios=info,readback_bandwidth,map_roundtrip
for round in $(seq 1 "$rounds"); do
  for config in zero fault driver native; do
    lib="$shim" strategies=waitany,spin
    if [ "$config" = native ]; then lib="$native" strategies=spin,poll; fi
    if ! env WGPU_SHIM_STALE_MAPPINGS="$config" "$bench" --lib "$lib" --backend vulkan --scenario "$scenarios" \
        --strategy "$strategies" > "$raw/$config-$round.jsonl" 2> "$raw/$config-$round.err"; then
      echo "mapping.sh: $config, round $round failed:" >&2
      tail -n 5 "$raw/$config-$round.err" >&2
      status=1
    fi
  done
done
python3 - "$raw" "$out" "$label" "$device" "$rounds" "$commit" <<'EOF'
import glob, json, os, subprocess, sys, datetime
raw, out, label, device, rounds, commit = sys.argv[1:]
results = []
for path in sorted(glob.glob(os.path.join(raw, "*.jsonl"))):
    config, rnd = os.path.basename(path)[:-6].rsplit("-", 1)
    for line in open(path):
        line = line.strip()
        if line:
            r = json.loads(line)
            r["config"], r["round"] = config, int(rnd)
            results.append(r)
if not commit:
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = ""
data = {"platform": "mapping-device", "label": label, "created": datetime.date.today().isoformat(),
        "git": {"commit": commit or "?"}, "device": device, "rounds": int(rounds), "results": results}
with open(out, "w") as f:
    json.dump(data, f, indent=1)
print(f"mapping.sh: wrote {out} ({len(results)} records)", file=sys.stderr)
EOF
exit $status
