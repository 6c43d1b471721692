"""The test `eventloop.python_qt_example`: examples/python/qt_map.py, a
QSocketNotifier on the readiness descriptor in a PySide6 (Qt 6) event loop,
against the library under test (WGPU_SHIM_LIBRARY), with
QT_QPA_PLATFORM=offscreen.

The await: a ~200 ms job's map and work-done arrive inside the notifier's
slot while the loop runs a 16 ms frame timer (which never calls
ProcessEvents): the data are right, each callback ran once on the loop's
thread, and the loop thread's CPU/wall is at most 0.05. The bad input,
--release-while-watched: the instance released from a timer slot while the
job runs and the notifier is enabled; the callbacks come back
CallbackCancelled inside the release, the notifier stays quiet, and when the
last object goes (and the descriptor with it) Qt disables the notifier
("QSocketNotifier: Invalid socket") and the loop runs on without spinning.

PySide6-Essentials (the PyPI distribution of PySide6's QtCore, QtGui and
QtWidgets) is installed into the venv WGPU_SHIM_QT_VENV (CMake sets it in the
build folder); without python3-venv or PyPI, or when PySide6.QtGui cannot
load (its shared libraries: .ci/run installs them), the test reports SKIP
(exit 77), or fails under CI=true (bindings/venv_util.py).
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import loop_example_util as util  # noqa: E402

REQUIREMENTS = ["PySide6-Essentials==6.12.0"]


def main():
    util.ensure_venv(REQUIREMENTS, "PySide6.QtGui", "WGPU_SHIM_QT_VENV", "qt-venv")
    example = str(util.EXAMPLES / "qt_map.py")
    env = {"QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    checks = util.Checks()
    out = util.run_case(checks, "qt", [example], env)
    util.check_await(checks, "qt", out, util.expected_data_line())
    checks.check("(inside the notifier's slot," in out,
                 "qt: the callbacks arrived inside the notifier's slot (no polling timer)")
    label = "qt --release-while-watched"
    out = util.run_case(checks, label, [example, "--release-while-watched"], env)
    checks.check("release while watched: map and work-done CallbackCancelled inside wgpuInstanceRelease" in out
                 and "Qt disabled it" in out,
                 f"{label}: callbacks cancelled in the release, the notifier quiet, then disabled by Qt")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
