"""Runs a binding test inside a virtual environment that has its client
(wgpu-py, pygfx) installed from PyPI, creating it on first use."""

import os
import subprocess
import sys
import venv
from pathlib import Path

SKIP = 77


def ensure(requirements, module, venv_var, default_dir):
    """Returns when `module` imports here; otherwise re-runs the calling
    script in the venv named by the environment variable `venv_var` (default
    `default_dir`), installing `requirements` there first, and exits with its
    status. Exits with 77 (CTest's skip) when the venv cannot be made or the
    packages cannot be installed (no network)."""
    try:
        __import__(module)
        return
    except ImportError:
        pass
    if os.environ.get("WGPU_SHIM_IN_VENV"):
        print(f"SKIP: {module} is not importable in the venv")
        sys.exit(SKIP)
    env_dir = Path(os.environ.get(venv_var, default_dir))
    py = env_dir / "bin" / "python"
    if not py.exists():
        try:
            venv.create(env_dir, with_pip=True)
        except Exception as e:  # noqa: BLE001 - any failure means: cannot run here
            print(f"SKIP: cannot create a venv for {' '.join(requirements)}: {e}")
            sys.exit(SKIP)
    check = subprocess.run([str(py), "-c", f"import {module}"], capture_output=True)
    if check.returncode != 0:
        pip = subprocess.run(
            [str(py), "-m", "pip", "install", "--quiet", *requirements], capture_output=True, text=True
        )
        if pip.returncode != 0:
            print(f"SKIP: pip install {' '.join(requirements)} failed (no network?):\n{pip.stderr[-800:]}")
            sys.exit(SKIP)
    env = dict(os.environ, WGPU_SHIM_IN_VENV="1")
    sys.exit(subprocess.run([str(py), sys.argv[0], *sys.argv[1:]], env=env).returncode)
