"""What the Python-hosted event-loop tests share: running one example program
(examples/python/) against the library under test and checking its output.

Each test (python_trio_example.py, python_qt_example.py) first re-runs itself
in a venv of the build folder that has its loop's packages from PyPI
(bindings/venv_util.py: SKIP, exit 77, when the venv or the packages cannot be
had; under CI=true a failure), then runs the example once per case, each in a
fresh python3 of that venv, and checks:

- exit status 0 and the closing `OK` line;
- the data line this file computes independently (the LCG of the examples,
  step by step, over the same seeds);
- the loop thread's CPU/wall ratio the example reports, at most 0.05;
- the bad-input case's line (what the loop saw when the instance was
  released while it watched the readiness descriptor).

It prints one line per check and the closing `N passed, N failed`.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "python"
MAX_CPU_RATIO = 0.05
CASE_LIMIT_S = 120


def ensure_venv(requirements, module, venv_var, default_name):
    """Re-runs the calling test in a venv with `requirements` unless `module` imports."""
    sys.path.insert(0, str(ROOT / "ffi-tests" / "bindings"))
    import venv_util

    venv_util.ensure(requirements, module, venv_var, Path.cwd() / default_name)


def expected_data_line():
    """The examples' data line, computed the slow way (64 seeds, 60000 LCG steps each)."""
    values = []
    for i in range(4):
        x = (0x9E3779B9 * (i + 1)) & 0xFFFFFFFF
        for _ in range(60000):
            x = (x * 1664525 + 1013904223) & 0xFFFFFFFF
        values.append(x)
    return "data: 64 values OK, first: " + " ".join(f"{v:08x}" for v in values)


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what):
        print(f"{'ok  ' if ok else 'FAIL'} {what}")
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        return ok

    def finish(self):
        print(f"{self.passed} passed, {self.failed} failed")
        sys.stdout.flush()
        return 0 if self.failed == 0 and self.passed > 0 else 1


def run_case(checks, label, argv, extra_env=None):
    """Runs one example case; checks its exit status and `OK` line; returns its stdout."""
    env = dict(os.environ, **(extra_env or {}))
    try:
        proc = subprocess.run([sys.executable, *argv], capture_output=True, text=True, timeout=CASE_LIMIT_S, env=env)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        print(f"---- {label}: stdout so far ----\n{out}")
        checks.check(False, f"{label}: finished within {CASE_LIMIT_S} s (it hung)")
        return ""
    print(f"---- {label} ----\n{proc.stdout}{proc.stderr}", end="")
    checks.check(proc.returncode == 0 and "\nOK\n" in "\n" + proc.stdout,
                 f"{label}: exit status {proc.returncode}, OK printed")
    return proc.stdout


def check_await(checks, label, out, data_line):
    checks.check(data_line in out, f"{label}: the mapped data match the CPU's ({data_line})")
    checks.check("callbacks: map and work-done once each, in that order, on the loop thread" in out,
                 f"{label}: each callback ran once, in order, on the loop thread")
    m = re.search(r"CPU/wall ratio ([0-9.]+)", out)
    ratio = float(m.group(1)) if m else None
    checks.check(ratio is not None and ratio <= MAX_CPU_RATIO,
                 f"{label}: loop thread CPU/wall during the await {ratio} <= {MAX_CPU_RATIO}")
