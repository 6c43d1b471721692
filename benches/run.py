#!/usr/bin/env python3
"""Runs the wgpu-shim benchmarks against wgpu-shim and wgpu-native.

  benches/run.py --label lavapipe                 # build everything, run, write results
  benches/run.py --quick                          # smoke pass (< 60 s on lavapipe)
  benches/run.py --label h200 --bench-bin B --shim-lib S --native-lib N   # prebuilt, offline

What it does:
  1. wgpu-native: --native-lib, else the cached .so, else `pip download` of
     the wheel wgpu==0.32.0 (wgpu-native v29.0.1.1) into the cache folder and
     extraction of wgpu/resources/libwgpu_native-release.so;
  2. wgpu-shim: --shim-lib, else `cargo build --release`;
  3. the bench program: --bench-bin, else cmake -S benches -B build/benches;
  4. calibrates the long GPU job once (the same job for both libraries);
  5. per scenario, runs the libraries alternately (A B A B ...) for --rounds
     rounds, one process each, and merges the rounds (median of each figure);
  6. writes benches/results/<label>.json (benches/report.py turns it into
     BENCHMARKS.md and benches/chart.png).

Exit status: 0 when every run verified its data, 1 when any run failed,
2 for a setup problem (nothing to run). Standard library only.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHES = ROOT / "benches"
NATIVE_WHEEL = "wgpu==0.32.0"  # ships wgpu-native v29.0.1.1
NATIVE_MEMBER = "wgpu/resources/libwgpu_native-release.so"
SCENARIOS = [
    "map_roundtrip",
    "wait_cpu_cost",
    "wakeup_latency",
    "futures_throughput",
    "readback_bandwidth",
    "api_overhead",
    "scaling",
]
# Fields that identify one result (everything else is a measured figure).
KEY_FIELDS = ("library", "scenario", "strategy", "variant", "count", "bytes", "job_ms")
# job_ms identifies a result only where it is the job length asked for (wakeup_latency: one record per --wake-ms
# length and strategy); wait_cpu_cost's job_ms is the measured wall time of its waits, a figure like any other.
JOB_MS_KEY_SCENARIOS = {"wakeup_latency"}
TEXT_FIELDS = {"library", "scenario", "strategy", "variant", "throughput_unit", "skipped", "error"}


def _no_core_dumps() -> None:
    """A crashing bench process leaves no core file in the working folder."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ImportError, ValueError, OSError):
        pass


def log(msg: str) -> None:
    print(f"[run.py] {msg}", file=sys.stderr, flush=True)


# ---- locating / building the pieces ------------------------------------


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "wgpu-shim-bench"


def obtain_native(args) -> Path | None:
    """The wgpu-native shared library, or None when it cannot be had."""
    if args.native_lib:
        p = Path(args.native_lib).resolve()
        if not p.is_file():
            raise SystemExit(f"--native-lib {p}: no such file")
        return p
    cache = Path(args.cache_dir)
    target = cache / "wgpu-native-v29.0.1.1" / "libwgpu_native-release.so"
    if target.is_file():
        return target
    wheel_dir = cache / "wheel"
    wheel_dir.mkdir(parents=True, exist_ok=True)
    wheels = sorted(wheel_dir.glob("wgpu-0.32.0-*.whl"))
    if not wheels:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
               "--timeout", "15", "--retries", "1", NATIVE_WHEEL, "-d", str(wheel_dir)]
        log("downloading wgpu-native: " + " ".join(cmd))
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.download_timeout)
        except (OSError, subprocess.TimeoutExpired) as e:
            log(f"pip download failed: {e}")
            return None
        if r.returncode != 0:
            log("pip download failed:\n" + (r.stderr or r.stdout)[-2000:])
            return None
        wheels = sorted(wheel_dir.glob("wgpu-0.32.0-*.whl"))
        if not wheels:
            log("pip download produced no wgpu-0.32.0 wheel")
            return None
    target.parent.mkdir(parents=True, exist_ok=True)
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as z:
            if NATIVE_MEMBER not in z.namelist():
                continue
            tmp = target.with_suffix(".tmp")
            with z.open(NATIVE_MEMBER) as src, open(tmp, "wb") as dst:
                shutil.copyfileobj(src, dst)
            tmp.chmod(0o755)
            tmp.replace(target)
            # The extension header, for reference (wgpuDevicePoll etc.).
            if "wgpu/resources/wgpu.h" in z.namelist():
                (target.parent / "wgpu.h").write_bytes(z.read("wgpu/resources/wgpu.h"))
            log(f"wgpu-native extracted from {wheel.name} to {target}")
            return target
    log(f"no {NATIVE_MEMBER} in {', '.join(w.name for w in wheels)} (wrong platform?)")
    return None


def build_shim(args) -> Path:
    if args.shim_lib:
        p = Path(args.shim_lib).resolve()
        if not p.is_file():
            raise SystemExit(f"--shim-lib {p}: no such file")
        return p
    log("cargo build --release")
    r = subprocess.run(["cargo", "build", "--release"], cwd=ROOT)
    if r.returncode != 0:
        raise SystemExit("cargo build --release failed")
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    if not target.is_absolute():
        target = ROOT / target
    p = target / "release" / "libwgpu_shim.so"
    if not p.is_file():
        raise SystemExit(f"{p} not found after cargo build")
    return p


def build_bench(args) -> Path:
    if args.bench_bin:
        p = Path(args.bench_bin).resolve()
        if not p.is_file():
            raise SystemExit(f"--bench-bin {p}: no such file")
        return p
    build = ROOT / "build" / "benches"
    log(f"cmake -S benches -B {build}")
    r = subprocess.run(["cmake", "-S", str(BENCHES), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release"],
                       stdout=subprocess.DEVNULL)
    if r.returncode != 0:
        raise SystemExit("cmake configure failed")
    r = subprocess.run(["cmake", "--build", str(build)])
    if r.returncode != 0:
        raise SystemExit("cmake --build failed")
    return build / "bench"


# ---- running ------------------------------------------------------------


class Runner:
    def __init__(self, args, bench: Path, env: dict):
        self.args = args
        self.bench = bench
        self.env = env
        self.records: list[dict] = []
        self.failures: list[dict] = []
        self.infos: dict[str, dict] = {}
        self.exit_crashes: list[dict] = []
        self.runs = 0

    def run(self, lib: Path, scenario: str, extra: list[str], round_no: int) -> list[dict]:
        cmd = [str(self.bench), "--lib", str(lib), "--scenario", scenario,
               "--timeout", str(self.args.timeout)] + extra
        if self.args.cpus:
            # Every thread of the process (the library's too) on these CPUs.
            cmd = ["taskset", "-c", self.args.cpus] + cmd
        if self.args.quick:
            cmd.append("--quick")
        env = self.env
        if self.args.wait_trace:
            trace_dir = Path(self.args.wait_trace)
            trace_dir.mkdir(parents=True, exist_ok=True)
            env = dict(env, WGPU_SHIM_WAIT_TRACE=str(trace_dir / f"{lib.stem}-{scenario}-r{round_no}.tsv"))
        t0 = time.monotonic()
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=self.args.timeout + 30,
                               preexec_fn=_no_core_dumps)
            out, err, rc = r.stdout, r.stderr, r.returncode
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
            err = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
            rc = -9
        secs = time.monotonic() - t0
        self.runs += 1
        recs, errors, done = [], [], False
        for line in out.splitlines():
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                d = json.loads(line)
            except json.JSONDecodeError:
                errors.append(f"unparsable line: {line[:200]}")
                continue
            if "error" in d or d.get("verified") is False:
                errors.append(d.get("error", "verified=false"))
                continue
            if d.get("scenario") == "done":
                done = True
                continue
            d["round"] = round_no
            recs.append(d)
        lib_name = next((d["library"] for d in recs if "library" in d), lib.name)
        if rc != 0 and done and not errors:
            # Every scenario ran and verified and every object was released;
            # the process died afterwards, in its exit handlers.
            tail = "\n".join(err.strip().splitlines()[-15:])
            crash = {"library": lib_name, "scenario": scenario, "round": round_no, "rc": rc,
                     "stderr_tail": tail, "command": " ".join(cmd)}
            self.exit_crashes.append(crash)
            log(f"WARNING: {lib_name} {scenario} (round {round_no}): every result verified, but the process "
                f"died at exit (status {rc}) after releasing every object")
            if self.args.strict_exit:
                self.failures.append(dict(crash, errors=["crashed at exit after a clean teardown"],
                                          lib_path=str(lib)))
        elif rc != 0 or errors or not done:
            if not errors and rc == 0:
                errors.append("the run ended without its final 'done' line")
            tail = "\n".join(err.strip().splitlines()[-15:])
            self.failures.append({"library": lib_name, "lib_path": str(lib), "scenario": scenario,
                                  "round": round_no, "rc": rc, "errors": errors, "stderr_tail": tail,
                                  "command": " ".join(cmd)})
            log(f"FAILED: {lib_name} {scenario} (round {round_no}, exit {rc}): {'; '.join(errors) or tail}")
        else:
            log(f"{lib_name:12s} {scenario:20s} round {round_no}: {len(recs)} results in {secs:.1f} s")
        for d in recs:
            if d.get("scenario") == "info":
                self.infos.setdefault(d["library"], d)
            else:
                self.records.append(d)
        return recs


def calibrate(runner: Runner, lib: Path, quick: bool) -> int | None:
    """Job size (units) for a ~100 ms job (20 ms with --quick), from the
    median of three calibrations with `lib`."""
    units = []
    for i in range(1 if quick else 3):
        recs = runner.run(lib, "calibrate", [], 0)
        runner.records = [r for r in runner.records if r.get("scenario") != "calibrate"]
        for d in recs:
            if d.get("scenario") == "calibrate":
                units.append(int(d["units"]))
                log(f"calibration: {d['units']} units -> {d['job_ms']:.1f} ms (target {d['target_ms']} ms)")
    return int(statistics.median(units)) if units else None


def result_key(r: dict) -> tuple:
    """The values of KEY_FIELDS that identify `r` (None where a field is absent or, for job_ms, a figure)."""
    return tuple(None if k == "job_ms" and r.get("scenario") not in JOB_MS_KEY_SCENARIOS else r.get(k)
                 for k in KEY_FIELDS)


def merge(records: list[dict]) -> list[dict]:
    """One record per result key: the median of each figure over rounds."""
    groups: dict[tuple, list[dict]] = {}
    for r in records:
        groups.setdefault(result_key(r), []).append(r)
    merged = []
    for key, rs in groups.items():
        m: dict = {k: v for k, v in zip(KEY_FIELDS, key) if v is not None}
        keyed = set(m)
        m["rounds"] = len(rs)
        fields = []
        for r in rs:
            for k in r:
                if k not in fields:
                    fields.append(k)
        for k in fields:
            if k in keyed or k == "round":
                continue
            vals = [r[k] for r in rs if k in r]
            if k in TEXT_FIELDS or all(isinstance(v, str) for v in vals):
                m[k] = vals[0]
            elif all(isinstance(v, bool) for v in vals):
                m[k] = all(vals)
            elif all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
                if k == "callbacks" or k == "n":
                    m[k] = sum(vals)  # counted over every round
                else:
                    m[k] = statistics.median(vals)
                if k == "median_us":
                    m["round_median_us"] = vals
                    # The least disturbed round (api_overhead's targets on a shared host).
                    m["best_round_median_us"] = min(vals)
            elif all(isinstance(v, list) for v in vals):
                m[k] = [x for v in vals for x in v]  # samples: all rounds
            elif all(isinstance(v, dict) for v in vals):
                sub = {}
                for v in vals:
                    for kk, vv in v.items():
                        sub.setdefault(kk, []).append(vv)
                m[k] = {kk: statistics.median(vv) for kk, vv in sub.items()}
            else:
                m[k] = vals[0]
        merged.append(m)
    order = {s: i for i, s in enumerate(["calibrate"] + SCENARIOS)}
    merged.sort(key=lambda m: (order.get(m.get("scenario"), 99), m.get("variant") or "", m.get("bytes") or 0,
                               m.get("count") or 0, m.get("job_ms") if m.get("scenario") in JOB_MS_KEY_SCENARIOS
                               else 0, m.get("strategy") or "", m.get("library") or ""))
    return merged


def host_info() -> dict:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem_gib = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem_gib = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    try:
        load = os.getloadavg()
    except OSError:
        load = None
    return {"cpu_model": cpu, "cpus": os.cpu_count(), "memory_gib": mem_gib, "kernel": platform.release(),
            "machine": platform.machine(), "python": platform.python_version(), "loadavg_at_start": load}


def git_info() -> dict:
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "src", "Cargo.toml", "Cargo.lock"],
                               cwd=ROOT, capture_output=True, text=True, timeout=10)
        if head.returncode == 0:
            return {"commit": head.stdout.strip(), "src_dirty": bool(dirty.stdout.strip())}
    except (OSError, subprocess.TimeoutExpired):
        pass
    return {}


def example_exe(args, name: str, prebuilt: str | None) -> Path | None:
    """The benches/<name>.rs program: `prebuilt`, else built with cargo when run.py builds the library,
    else target/release/examples/<name> if present; None (with a log line) when there is none."""
    exe = Path(prebuilt).resolve() if prebuilt else None
    if exe is None and not args.quick and not args.shim_lib and shutil.which("cargo"):
        log(f"cargo build --release --example {name}")
        if subprocess.run(["cargo", "build", "--release", "--example", name], cwd=ROOT).returncode == 0:
            target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
            exe = (target if target.is_absolute() else ROOT / target) / "release" / "examples" / name
    if exe is None:
        exe = ROOT / (os.environ.get("CARGO_TARGET_DIR") or "target") / "release" / "examples" / name
    if args.quick or not exe.is_file():
        if not args.quick:
            log(f"{name}: {exe} not built (cargo build --release --example {name}): skipped")
        return None
    return exe


def run_json_lines(exe: Path, extra: list[str], args, env: dict, what: str) -> list[dict] | None:
    """Runs `exe extra...` (pinned like the bench) and parses its JSON lines; None on failure."""
    cmd = [str(exe)] + extra
    if args.cpus:
        cmd = ["taskset", "-c", args.cpus] + cmd
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        log(f"{what}: timed out")
        return None
    if p.returncode != 0:
        log(f"{what}: exit status {p.returncode}: {p.stderr.strip()[-300:]}")
        return None
    out = []
    for line in p.stdout.splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def median_of(recs: list[dict], key: str):
    vals = sorted(x[key] for x in recs if isinstance(x.get(key), (int, float)))
    return vals[len(vals) // 2] if vals else None


class CoreFloor:
    """benches/core_floor.rs: wgpu-core's own cost of the api_overhead operations, run once per
    api_overhead round right after the libraries (A B floor, A B floor, ...)."""

    def __init__(self, args, env: dict):
        self.args, self.env = args, env
        self.exe = example_exe(args, "core_floor", args.core_floor_bin)
        self.runs: dict[str, list[dict]] = {}
        self.trips: list[dict] = []

    def run_roundtrip(self, r: int, size: int):
        """The map round trip on wgpu-core alone, its blocking poll as the wait: run once per
        map_roundtrip round, right after the libraries."""
        if self.exe is None:
            return
        recs = run_json_lines(self.exe, ["--iterations", "0", "--roundtrip-trips", "2000", "--size", str(size)],
                              self.args, self.env, f"core_floor map_roundtrip round {r}")
        self.trips += [x for x in recs or [] if x.get("scenario") == "map_roundtrip"]

    def roundtrip_result(self) -> dict | None:
        """The round trips' figures, each the median over the rounds (as `merge` does for the bench)."""
        if not self.trips:
            return None
        out = {"scenario": "map_roundtrip", "strategy": "poll", "library": "wgpu-core", "rounds": len(self.trips),
               "bytes": self.trips[0].get("bytes")}
        for key in ("median_us", "p99_us", "mean_us", "wait_median_us", "submit_median_us", "cpu_over_wall",
                    "cpu_us_per_wait"):
            out[key] = median_of(self.trips, key)
        out["round_median_us"] = [x.get("median_us") for x in self.trips]
        return out

    def run(self, r: int, iterations: int):
        if self.exe is None:
            return
        recs = run_json_lines(self.exe, ["--iterations", str(iterations)], self.args, self.env, f"core_floor round {r}")
        for rec in recs or []:
            self.runs.setdefault(rec.get("variant"), []).append(rec)

    def results(self) -> list[dict]:
        out = []
        for variant, recs in self.runs.items():
            merged = {"scenario": "api_overhead", "variant": variant, "rounds": len(recs)}
            for key in ("median_ns", "p99_ns", "mean_ns"):
                merged[key] = median_of(recs, key)
            rounds = [x["median_ns"] for x in recs if isinstance(x.get("median_ns"), (int, float))]
            merged["round_median_ns"] = rounds
            merged["best_round_median_ns"] = min(rounds) if rounds else None
            out.append(merged)
        return out


def run_driver_wait(args, env: dict, rounds: int) -> list[dict]:
    """Runs benches/driver_wait.rs `rounds` times; medians per (scenario, how)."""
    exe = example_exe(args, "driver_wait", args.driver_wait_bin)
    if exe is None:
        return []
    runs: dict[tuple, list[dict]] = {}
    for r in range(1, rounds + 1):
        recs = run_json_lines(exe, ["--iterations", "3000"], args, env, f"driver_wait round {r}")
        if recs is None:
            continue
        for rec in recs:
            # `timed` records differ by timer slack and timeout as well,
            # `host_wake` ones by how long the waiter slept.
            key = (rec.get("scenario"), rec.get("how"), rec.get("slack_ns"), rec.get("timeout_us"), rec.get("sleep_ms"))
            runs.setdefault(key, []).append(rec)
        log(f"driver_wait round {r}: done")
    out = []
    for (scenario, how, slack_ns, timeout_us, sleep_ms), recs in runs.items():
        merged = {"scenario": scenario, "how": how, "rounds": len(recs)}
        if timeout_us is not None:
            merged.update(slack_ns=slack_ns, timeout_us=timeout_us)
        if sleep_ms is not None:
            merged.update(sleep_ms=sleep_ms)
        for key in ("median_us", "p99_us", "cpu_over_wall", "late_median_us", "late_p99_us", "signal_late_median_us",
                    "wake_after_signal_median_us", "wake_after_signal_p99_us", "wake_late_median_us",
                    "wake_late_p99_us", "timer_cpu_over_wall"):
            value = median_of(recs, key)
            if value is not None:
                merged[key] = value
        if scenario == "info":
            merged["device"] = recs[0].get("device")
            if recs[0].get("sync_fd") is not None:
                merged["sync_fd"] = recs[0].get("sync_fd")
        out.append(merged)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--label", default=None, help="results name: benches/results/<label>.json "
                    "(default: lavapipe on a CPU adapter, else gpu; quick-<...> with --quick)")
    ap.add_argument("--icd", help="Vulkan driver manifest (sets VK_ICD_FILENAMES)")
    ap.add_argument("--rounds", type=int, default=None, help="rounds per scenario (default 3; 1 with --quick)")
    ap.add_argument("--quick", action="store_true", help="smoke pass: tiny counts, every scenario, verifying")
    ap.add_argument("--scenarios", default=",".join(SCENARIOS), help="comma-separated subset")
    ap.add_argument("--bench-bin", help="prebuilt bench program (skips cmake)")
    ap.add_argument("--shim-lib", help="prebuilt libwgpu_shim.so (skips cargo)")
    ap.add_argument("--native-lib", help="libwgpu_native-release.so (skips pip download)")
    ap.add_argument("--no-native", action="store_true", help="measure wgpu-shim only")
    ap.add_argument("--require-native", action="store_true",
                    help="fail when wgpu-native cannot be obtained (default: go on with wgpu-shim only)")
    ap.add_argument("--cache-dir", default=str(default_cache_dir()), help="where the wheel and .so are kept")
    ap.add_argument("--download-timeout", type=int, default=120)
    ap.add_argument("--timeout", type=int, default=300, help="seconds per bench process")
    ap.add_argument("--lp-threads", default="1",
                    help="LP_NUM_THREADS for lavapipe (default 1: leaves a core for the application and "
                         "library threads on small machines; '' leaves it unset)")
    ap.add_argument("--out", help="results file (default benches/results/<label>.json)")
    ap.add_argument("--driver-wait-bin", default=None,
                    help="prebuilt benches/driver_wait.rs (the driver's own wait cost, without wgpu); by default "
                         "built with cargo when run.py builds the library, else target/release/examples/driver_wait "
                         "if present; skipped when missing")
    ap.add_argument("--roundtrip-size", type=int, default=0,
                    help="bytes per map round trip (default: 256 on a CPU adapter, 4096 on a GPU)")
    ap.add_argument("--core-floor-bin", default=None,
                    help="prebuilt benches/core_floor.rs (wgpu-core's own cost of the api_overhead operations); "
                         "found like --driver-wait-bin")
    ap.add_argument("--cpus", default="",
                    help="run every bench process under 'taskset -c CPUS' (e.g. 2-5): steadier microbenchmarks")
    ap.add_argument("--overhead-rounds", type=int, default=None,
                    help="rounds for api_overhead (default: 3x --rounds; it is short and the noisiest)")
    ap.add_argument("--bench-args", default="", help="extra arguments for every bench run (e.g. '--max-size 64M')")
    ap.add_argument("--strict-exit", action="store_true",
                    help="count a process that dies at exit, after every result verified and every object was "
                         "released, as a failure (default: a warning, recorded in the results)")
    ap.add_argument("--shim-note", default="",
                    help="where the wgpu-shim library came from (recorded; default: this checkout's commit)")
    ap.add_argument("--wait-trace", default="",
                    help="a folder: each bench process writes WGPU_SHIM_WAIT_TRACE's per-wait records of its long "
                         "waits to LIB-SCENARIO-rROUND.tsv there (wgpu-shim only; a record costs its wait a "
                         "write, so a traced run is for diagnosis, not for published figures)")
    args = ap.parse_args()
    rounds = args.rounds if args.rounds is not None else (1 if args.quick else 3)
    scenarios = [s for s in args.scenarios.split(",") if s]
    for s in scenarios:
        if s not in SCENARIOS:
            ap.error(f"unknown scenario {s} (known: {', '.join(SCENARIOS)})")

    env = dict(os.environ)
    if args.icd:
        env["VK_ICD_FILENAMES"] = str(Path(args.icd).resolve())
        env.pop("VK_DRIVER_FILES", None)
    if not env.get("XDG_RUNTIME_DIR", "").startswith("/"):  # unset or relative: lavapipe complains
        d = tempfile.mkdtemp(prefix="wgpu-shim-bench-xdg-")
        os.chmod(d, 0o700)
        env["XDG_RUNTIME_DIR"] = d
    icd = env.get("VK_ICD_FILENAMES") or env.get("VK_DRIVER_FILES") or ""
    if args.cpus and shutil.which("taskset") is None:
        log("--cpus needs taskset (util-linux)")
        return 2
    if args.lp_threads and "LP_NUM_THREADS" not in env:
        env["LP_NUM_THREADS"] = args.lp_threads  # only lavapipe reads it
    env.setdefault("RUST_BACKTRACE", "1")

    started = time.monotonic()
    bench = build_bench(args)
    shim = build_shim(args)
    native = None
    if not args.no_native:
        native = obtain_native(args)
        if native is None:
            if args.require_native:
                log("wgpu-native is required but could not be obtained")
                return 2
            log("wgpu-native not available: measuring wgpu-shim only")
    libs = [shim] + ([native] if native else [])

    runner = Runner(args, bench, env)
    # Adapter information (and a first check that each library starts).
    for lib in libs:
        runner.run(lib, "info", [], 0)
    if runner.failures:
        log("a library failed to start; see above")
    ref = native or shim
    units, units_args = None, []
    if {"wait_cpu_cost", "wakeup_latency"} & set(scenarios):
        units = calibrate(runner, ref, args.quick)
        if units is None:
            log("calibration failed")
        else:
            units_args = ["--job-units", str(units)]
    extra_common = units_args + (args.bench_args.split() if args.bench_args else [])

    core_floor = CoreFloor(args, env)
    adapter_type = next((i.get("adapter_type") for i in runner.infos.values()), None)
    # The map round trip's size: the issue-16 targets are set for 256 bytes on CPU adapters.
    rt_size = args.roundtrip_size or (256 if adapter_type == "CPU" else 4096)
    if args.quick:
        # One process per library with every scenario: the smoke pass.
        for r in range(1, rounds + 1):
            for lib in libs:
                runner.run(lib, ",".join(scenarios), extra_common + ["--samples"], r)
    else:
        for scenario in scenarios:
            extra = extra_common + (["--samples", "--size", str(rt_size)] if scenario == "map_roundtrip" else [])
            n = rounds
            if scenario == "api_overhead":
                n = args.overhead_rounds or 3 * rounds
            for r in range(1, n + 1):
                for lib in libs:  # A B A B ...
                    runner.run(lib, scenario, extra, r)
                if scenario == "api_overhead":
                    core_floor.run(r, 20000)
                if scenario == "map_roundtrip":
                    core_floor.run_roundtrip(r, rt_size)

    driver_wait = run_driver_wait(args, env, rounds)

    label = args.label or ("lavapipe" if adapter_type == "CPU" else "gpu")
    if args.quick and not args.label:
        label = "quick-" + label
    out = Path(args.out) if args.out else BENCHES / "results" / f"{label}.json"
    results = {
        "label": label,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "quick": args.quick,
        "rounds": rounds,
        "job_units": units,
        "host": host_info(),
        "env": {"VK_ICD_FILENAMES": icd, "LP_NUM_THREADS": env.get("LP_NUM_THREADS", ""), "cpus": args.cpus,
                "wait_trace": args.wait_trace},
        "git": git_info(),
        "shim_note": args.shim_note,
        "libraries": {name: info for name, info in runner.infos.items()},
        "command": " ".join([Path(sys.argv[0]).name] + sys.argv[1:]),
        "wall_s": round(time.monotonic() - started, 1),
        "process_runs": runner.runs,
        "results": merge(runner.records),
        "driver_wait": driver_wait,
        "core_floor": core_floor.results(),
        "core_floor_roundtrip": core_floor.roundtrip_result(),
        "failures": runner.failures,
        "exit_crashes": runner.exit_crashes,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1) + "\n")
    log(f"wrote {out} ({len(results['results'])} results, {len(runner.failures)} failures, "
        f"{len(runner.exit_crashes)} crashes at exit, {results['wall_s']} s)")
    for c in runner.exit_crashes:
        log(f"WARNING: {c['library']} {c['scenario']} round {c['round']}: died at exit (status {c['rc']}) "
            "after a clean teardown")
    if runner.failures:
        for f in runner.failures:
            log(f"FAILED: {f['library']} {f['scenario']} round {f['round']}: {'; '.join(f['errors']) or f['rc']}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
