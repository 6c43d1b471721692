"""Runs a binding test inside a virtual environment that has its client
(wgpu-py, pygfx) installed from PyPI, creating it on first use.

When the venv cannot be made (Debian's python3 without the python3-venv
package) or its packages cannot be installed (no network), the test reports
SKIP (exit 77) with the reason; under CI (the environment variable CI set to
true, 1 or yes: .ci/run installs python3-venv and has PyPI) it fails instead
(exit 1), with the same reason, so that a CI run never counts a client test
that did not run as passed."""

import os
import subprocess
import sys
import venv
from pathlib import Path

SKIP = 77
FAIL = 1


def in_ci():
    """CI is set to true, 1 or yes (as scripts/test.sh reads it)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def cannot_run(reason):
    """Exits: SKIP with `reason`, or under CI a failure with it."""
    if in_ci():
        print(f"FAIL: {reason}\n(CI is set: a test that a missing package keeps from running fails there)")
        sys.stdout.flush()
        sys.exit(FAIL)
    print(f"SKIP: {reason}")
    sys.stdout.flush()
    sys.exit(SKIP)


def has_pip(py):
    """The venv's python has pip (a venv made without ensurepip has not)."""
    return subprocess.run([str(py), "-m", "pip", "--version"], capture_output=True).returncode == 0


def ensure(requirements, module, venv_var, default_dir):
    """Returns when `module` imports here; otherwise re-runs the calling
    script in the venv named by the environment variable `venv_var` (default
    `default_dir`), installing `requirements` there first, and exits with its
    status. When the venv cannot be made or the packages cannot be installed,
    exits through cannot_run: SKIP (77), or a failure under CI."""
    try:
        __import__(module)
        return
    except ImportError as e:
        why = str(e)  # e.g. a shared library the package loads is missing from the system
    wanted = " ".join(requirements)
    if os.environ.get("WGPU_SHIM_IN_VENV"):
        cannot_run(f"{module} is not importable in the venv {sys.prefix} ({why}; pip install {wanted})")
    env_dir = Path(os.environ.get(venv_var, default_dir))
    py = env_dir / "bin" / "python"
    if not py.exists() or subprocess.run([str(py), "-c", f"import {module}"], capture_output=True).returncode != 0:
        # Made again (into the same folder) when an earlier try left it without
        # pip, as a venv made where ensurepip is missing is.
        if not py.exists() or not has_pip(py):
            try:
                venv.create(env_dir, with_pip=True)
            except (Exception, SystemExit) as e:  # noqa: BLE001 - Debian's venv exits when ensurepip is missing
                cannot_run(
                    f"cannot create a venv with pip for {wanted} ({sys.executable} -m venv {env_dir} failed: "
                    f"{e!r}); on Debian install the python3-venv package (apt-get install python3-venv)"
                )
        pip = subprocess.run(
            [str(py), "-m", "pip", "install", "--quiet", *requirements], capture_output=True, text=True
        )
        if pip.returncode != 0:
            cannot_run(
                f"pip install {wanted} into {env_dir} failed (it needs PyPI: no network?):\n{pip.stderr[-800:]}"
            )
    env = dict(os.environ, WGPU_SHIM_IN_VENV="1")
    sys.exit(subprocess.run([str(py), sys.argv[0], *sys.argv[1:]], env=env).returncode)
