#!/usr/bin/env python3
"""Runs CTest's tests under valgrind memcheck (called by scripts/valgrind.sh).

    valgrind_ctest.py BUILD_DIR SUPPRESSIONS [--jobs N] [--select REGEX]
                      [--exclude REGEX] [--log-dir DIR]

Reads each test's command and environment from `ctest --show-only=json-v1`,
runs the command under `valgrind --tool=memcheck` with the given suppression
file, and fails when valgrind reports any error (invalid read, write or free,
use of uninitialised memory, a definite leak) or when the test itself fails.
Prints one line per test with its time, and the totals.
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

VALGRIND_ERROR = 99

# Options of single tests: exit_without_releasing exits holding its objects
# on purpose (what it tests), so its leaks are not checked; the static
# destructor test gets lavapipe's exit-order suppressions (see that file).
PER_TEST = {
    "teardown.exit_without_releasing": ["--leak-check=no"],
    "teardown.release_in_static_destructor": ["--suppressions={supp_dir}/valgrind-static-destructor.supp"],
}


def tests_of(build_dir):
    out = subprocess.run(
        ["ctest", "--test-dir", build_dir, "--show-only=json-v1"], check=True, capture_output=True, text=True
    ).stdout
    tests = []
    for t in json.loads(out)["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        env = {}
        for entry in props.get("ENVIRONMENT", []):
            key, _, value = entry.partition("=")
            env[key] = value
        tests.append(
            {
                "name": t["name"],
                "command": t["command"],
                "env": env,
                "will_fail": bool(props.get("WILL_FAIL", False)),
                "skip_code": props.get("SKIP_RETURN_CODE"),
                "cwd": props.get("WORKING_DIRECTORY", build_dir),
            }
        )
    return tests


def run_one(test, supp, log_dir):
    log = os.path.join(log_dir, test["name"] + ".log")
    cmd = [
        "valgrind",
        "--tool=memcheck",
        f"--error-exitcode={VALGRIND_ERROR}",
        "--leak-check=full",
        "--show-leak-kinds=definite",
        "--errors-for-leak-kinds=definite",
        "--track-origins=yes",
        "--smc-check=all-non-file",
        "--num-callers=40",
        f"--suppressions={supp}",
        f"--log-file={log}",
        *(o.format(supp_dir=os.path.dirname(supp)) for o in PER_TEST.get(test["name"], [])),
    ]
    command = test["command"]
    # The surface tests run as `sh with_xvfb.sh EXE` or `sh with_weston.sh
    # EXE`: valgrind goes on EXE.
    wrappers = ("with_xvfb.sh", "with_weston.sh")
    if len(command) > 2 and os.path.basename(command[0]) == "sh" and command[1].endswith(wrappers):
        cmd = command[:2] + cmd + command[2:]
    else:
        cmd = cmd + command
    env = dict(os.environ)
    env.update(test["env"])
    # The tests' hang watchdogs wait this many times longer under memcheck.
    env.setdefault("WGPU_SHIM_TEST_TIME_SCALE", "20")
    t0 = time.monotonic()
    with open(os.path.join(log_dir, test["name"] + ".out"), "w") as out:
        rc = subprocess.run(cmd, env=env, cwd=test["cwd"], stdout=out, stderr=subprocess.STDOUT).returncode
    secs = time.monotonic() - t0
    with open(log, errors="replace") as f:
        text = f.read()
    summary = re.findall(r"ERROR SUMMARY: (\d+) errors", text)
    errors = int(summary[-1]) if summary else -1
    if rc == VALGRIND_ERROR or errors != 0:
        verdict = "VALGRIND-ERRORS"
    elif test["skip_code"] is not None and rc == test["skip_code"]:
        verdict = "SKIP"
    elif (rc != 0) != test["will_fail"]:
        verdict = "TEST-FAILED"
    else:
        verdict = "PASS"
    return test["name"], verdict, secs, errors, log


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build_dir")
    ap.add_argument("supp")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--select", default="")
    ap.add_argument("--exclude", default="")
    ap.add_argument("--log-dir", default=None)
    a = ap.parse_args()
    log_dir = os.path.abspath(a.log_dir or os.path.join(a.build_dir, "valgrind"))
    a.supp = os.path.abspath(a.supp)
    os.makedirs(log_dir, exist_ok=True)
    tests = [
        t
        for t in tests_of(a.build_dir)
        if (not a.select or re.search(a.select, t["name"])) and not (a.exclude and re.search(a.exclude, t["name"]))
    ]
    if not tests:
        print("no tests selected", file=sys.stderr)
        return 1
    t0 = time.monotonic()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for name, verdict, secs, errors, log in pool.map(lambda t: run_one(t, a.supp, log_dir), tests):
            results.append((name, verdict))
            print(f"{verdict:16} {secs:7.1f}s  {name}" + (f"  ({errors} errors, {log})" if errors else ""), flush=True)
            if verdict == "VALGRIND-ERRORS":
                with open(log, errors="replace") as f:
                    print(f.read()[-6000:])
            elif verdict == "TEST-FAILED":
                with open(log[: -len(".log")] + ".out", errors="replace") as f:
                    print(f.read()[-3000:])
    bad = [n for n, v in results if v not in ("PASS", "SKIP")]
    memory = [n for n, v in results if v == "VALGRIND-ERRORS"]
    print(
        f"valgrind: {len(results)} tests, {len(results) - len(bad)} passed clean, "
        f"{len(memory)} with memcheck errors, {len(bad) - len(memory)} failed their own checks, "
        f"{time.monotonic() - t0:.0f}s wall"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
