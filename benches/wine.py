#!/usr/bin/env python3
"""Measures the Windows build under Wine, beside the Linux build on the same machine.

  benches/wine.py [--rounds N] [--out benches/results/wine.json] [--cpus LIST]
  benches/wine.py --print-native-dll     # fetch wgpu-native's DLL (cached), print its path

The bench program (benches/bench.c) is built for Windows with mingw-w64 and run
under Wine (inside Xvfb: Wine's Vulkan needs an X display) against the Windows
DLLs of wgpu-shim and wgpu-native, on both Windows backends: Vulkan (Wine's
winevulkan on the host's driver) and D3D12 (Wine's Direct3D 12, itself on
Vulkan). The same scenarios then run natively on Linux against both .so files,
so every Windows figure has the same machine's Linux figure beside it.

Scenarios: map_roundtrip (the 4 KiB map round trip, every strategy the
library has) and wait_cpu_cost (one long GPU job, the waiting thread's CPU).
wait_cpu_cost needs a compute shader, which Wine 8's d3dcompiler cannot
compile (FXC: "Not implemented"), so on D3D12 it is reported as not run.
Under Wine, D3D12 devices also need WGPU_VALIDATION_INDIRECT_CALL=0 (wgpu's
indirect-call validation compiles a compute shader at device creation);
wgpu-native does not read that variable, so it gets no D3D12 device there.

Inputs (built or fetched when missing): target/x86_64-pc-windows-gnu/release/
wgpu_shim.dll, target/release/libwgpu_shim.so, wgpu-native's DLL and .so from
the PyPI wheels of wgpu 0.32.0 (cached in ~/.cache/wgpu-shim-bench), and the
bcryptprimitives.dll stand-in that Wine 8 lacks (ffi-tests/wine/, test only).
Needs: gcc-mingw-w64-x86-64, wine, wine64, xvfb. Standard library only.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# cargo's build folder: $CARGO_TARGET_DIR (a relative one from ROOT, where cargo runs), else target/.
TARGET = ROOT / (os.environ.get("CARGO_TARGET_DIR") or "target")
WINE = "/usr/lib/wine/wine64"
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "wgpu-shim-bench"
SCENARIOS = "map_roundtrip,wait_cpu_cost"
LVP = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
KEEP = ("median_us", "p99_us", "cpu_over_wall", "process_cpu_over_wall", "job_ms", "wait_median_us")


def log(msg: str) -> None:
    print(f"[wine.py] {msg}", file=sys.stderr, flush=True)


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, check=True, text=True, **kw)


def native_lib(platform: str, member: str) -> Path:
    """wgpu-native's library from the wgpu 0.32.0 wheel for `platform` (cached)."""
    target = CACHE / f"wgpu-native-v29.0.1.1-{platform}" / Path(member).name
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d", tmp, "wgpu==0.32.0"]
        if platform != "linux":
            cmd[-1:-1] = ["--platform", platform]
        log("downloading wgpu-native: " + " ".join(cmd))
        run(cmd, capture_output=True)
        wheel = next(Path(tmp).glob("*.whl"))
        with zipfile.ZipFile(wheel) as z:
            target.write_bytes(z.read(member))
    return target


def build_windows(work: Path) -> None:
    """The DLL (cargo), the bench program and the Wine stand-in (mingw), into `work`."""
    run(["cargo", "build", "--release", "--target", "x86_64-pc-windows-gnu", "--lib"], cwd=ROOT)
    shutil.copy(TARGET / "x86_64-pc-windows-gnu/release/wgpu_shim.dll", work)
    shutil.copy(native_lib("win_amd64", "wgpu/resources/wgpu_native-release.dll"), work / "wgpu_native.dll")
    cc = "x86_64-w64-mingw32-gcc"
    run([cc, "-std=gnu11", "-O2", "-I", str(ROOT / "include"), str(ROOT / "benches/bench.c"),
         "-o", str(work / "bench.exe"), "-static", "-lpthread", "-lm"])
    fixture = ROOT / "ffi-tests/wine"
    run([cc, "-shared", "-o", str(work / "bcryptprimitives.dll"), str(fixture / "bcryptprimitives.c"),
         str(fixture / "bcryptprimitives.def"), "-ladvapi32"])


def build_linux(work: Path) -> tuple[Path, Path, Path]:
    """The bench program and both .so files for the Linux figures."""
    run(["cargo", "build", "--release", "--lib"], cwd=ROOT)
    exe = work / "bench-linux"
    run(["cc", "-std=gnu11", "-O2", "-I", str(ROOT / "include"), str(ROOT / "benches/bench.c"), "-o", str(exe),
         "-lpthread", "-lm", "-ldl"])
    native = native_lib("linux", "wgpu/resources/libwgpu_native-release.so")
    return exe, TARGET / "release/libwgpu_shim.so", native


def records(out: str) -> list[dict]:
    recs = []
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                recs.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    return recs


def bench(cmd: list[str], env: dict, system: str, backend: str, library: str, scenarios: str) -> list[dict]:
    """One bench process: its measured records, tagged with where they ran."""
    p = subprocess.run(cmd + ["--scenario", "info," + scenarios, "--iterations", "300"], env=env,
                       capture_output=True, text=True, timeout=900)
    recs = records(p.stdout)
    info = next((r for r in recs if r.get("scenario") == "info"), {})
    out = []
    for r in recs:
        if r.get("scenario") in ("info", "done"):
            continue
        row = {"system": system, "backend": backend, "library": library, "scenario": r.get("scenario"),
               "strategy": r.get("strategy"), "adapter": info.get("adapter_device")}
        if r.get("error"):
            row["error"] = r["error"]
        row.update({k: r[k] for k in KEEP if k in r})
        out.append(row)
    if p.returncode != 0 and not any("error" in r for r in out):
        err = [line for line in p.stderr.splitlines() if "FAILED" in line or "failed" in line]
        out.append({"system": system, "backend": backend, "library": library, "scenario": "setup",
                    "error": (err[-1] if err else f"exit {p.returncode}")[:200]})
    return out


def merge(rows: list[dict]) -> list[dict]:
    """Median of each figure over the rounds of one (system, backend, library, scenario, strategy)."""
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        key = (r["system"], r["backend"], r["library"], r["scenario"], r.get("strategy"))
        groups.setdefault(key, []).append(r)
    merged = []
    for key, rs in groups.items():
        m = {k: v for k, v in rs[0].items() if k not in KEEP}
        m["rounds"] = len(rs)
        for k in KEEP:
            vals = [r[k] for r in rs if isinstance(r.get(k), (int, float))]
            if vals:
                m[k] = statistics.median(vals)
        merged.append(m)
    return merged


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3, help="bench processes per configuration, alternating")
    ap.add_argument("--out", default=str(ROOT / "benches/results/wine.json"))
    ap.add_argument("--print-native-dll", action="store_true",
                    help="only fetch wgpu-native's Windows DLL (cached) and print its path")
    ap.add_argument("--cpus", default="1",
                    help="taskset CPU list for every bench process, as run.py's lavapipe runs use ('' for none)")
    args = ap.parse_args()
    if args.print_native_dll:
        print(native_lib("win_amd64", "wgpu/resources/wgpu_native-release.dll"))
        return 0
    for tool in ("x86_64-w64-mingw32-gcc", "xvfb-run"):
        if not shutil.which(tool):
            log(f"{tool} is missing (apt-get install gcc-mingw-w64-x86-64 xvfb)")
            return 2
    if not Path(WINE).exists():
        log(f"{WINE} is missing (apt-get install wine wine64)")
        return 2
    started = _dt.datetime.now(_dt.timezone.utc)
    # The commit the libraries are built from (the build comes first).
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "src", "Cargo.toml", "Cargo.lock"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip() != ""
    with tempfile.TemporaryDirectory(prefix="wgpu-shim-wine-") as tmp:
        work = Path(tmp)
        build_windows(work)
        linux_exe, shim_so, native_so = build_linux(work)
        base = {k: v for k, v in os.environ.items() if k not in ("VK_DRIVER_FILES",)}
        base.update({"VK_ICD_FILENAMES": LVP, "LP_NUM_THREADS": "1", "WINEDEBUG": "-all",
                     "WINEPREFIX": str(work / "prefix"), "WGPU_VALIDATION_INDIRECT_CALL": "0"})
        # One Xvfb for every Wine process (xvfb-run around this script's own runs).
        rows: list[dict] = []
        pin = ["taskset", "-c", args.cpus] if args.cpus and shutil.which("taskset") else []
        wine_cmd = pin + ["xvfb-run", "-a", WINE, str(work / "bench.exe")]
        configs = []
        for backend in ("vulkan", "d3d12"):
            scen = SCENARIOS if backend == "vulkan" else "map_roundtrip"
            for lib, dll in (("wgpu-shim", "wgpu_shim.dll"), ("wgpu-native", "wgpu_native.dll")):
                configs.append(("windows (Wine 8)", backend, lib,
                                wine_cmd + ["--lib", str(work / dll), "--backend", backend], scen))
        for lib, so in (("wgpu-shim", shim_so), ("wgpu-native", native_so)):
            configs.append(("linux", "vulkan", lib, pin + [str(linux_exe), "--lib", str(so), "--backend", "vulkan"],
                            SCENARIOS))
        for rnd in range(args.rounds):
            for system, backend, lib, cmd, scen in configs:
                log(f"round {rnd + 1}: {system} {backend} {lib}")
                rows += bench(cmd, dict(base, PWD=str(work)), system, backend, lib, scen)
        wine_version = subprocess.run([WINE, "--version"], capture_output=True, text=True).stdout.strip()
    data = {"label": "wine", "platform": "windows-wine", "created": started.isoformat(timespec="seconds"),
            "git": {"commit": commit, "src_dirty": dirty}, "wine": wine_version, "rounds": args.rounds,
            "env": {"VK_ICD_FILENAMES": LVP, "LP_NUM_THREADS": "1", "cpus": args.cpus if pin else ""},
            "results": merge(rows)}
    Path(args.out).write_text(json.dumps(data, indent=1) + "\n")
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
