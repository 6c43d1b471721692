"""The test `eventloop.python_trio_example`: examples/python/trio_map.py on
trio, on anyio's asyncio backend and on anyio's trio backend, against the
library under test (WGPU_SHIM_LIBRARY).

For each loop: a coroutine awaits a map and a work-done of a ~200 ms job
through trio.lowlevel.wait_readable / anyio.wait_readable on the readiness
descriptor: the data are right, each callback ran once on the loop's thread,
and the loop thread's CPU/wall during the await is at most 0.05. Then the bad
input, --release-while-watched: the instance released while the job runs and
the loop waits on the descriptor; the callbacks come back CallbackCancelled
inside the release, the descriptor never fires again, and notify_closing
before the last release ends the waiting task with ClosedResourceError.

trio and anyio come from PyPI into the venv WGPU_SHIM_TRIO_VENV (CMake sets it
in the build folder); without python3-venv or PyPI the test reports SKIP
(exit 77), or fails under CI=true (bindings/venv_util.py).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import loop_example_util as util  # noqa: E402

REQUIREMENTS = ["trio==0.35.0", "anyio==4.16.0"]
LOOPS = ["trio", "anyio-asyncio", "anyio-trio"]


def main():
    util.ensure_venv(REQUIREMENTS, "anyio", "WGPU_SHIM_TRIO_VENV", "trio-venv")
    import anyio  # noqa: F401 - importable here: the venv has it
    import trio  # noqa: F401

    example = str(util.EXAMPLES / "trio_map.py")
    data_line = util.expected_data_line()
    checks = util.Checks()
    for loop in LOOPS:
        out = util.run_case(checks, loop, [example, loop])
        util.check_await(checks, loop, out, data_line)
        label = f"{loop} --release-while-watched"
        out = util.run_case(checks, label, [example, loop, "--release-while-watched"])
        checks.check("release while watched: map and work-done CallbackCancelled inside wgpuInstanceRelease" in out
                     and "0 wakeups" in out and "the pump got ClosedResourceError" in out,
                     f"{label}: callbacks cancelled in the release, no wake-up after it, ClosedResourceError "
                     f"after notify_closing")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
