"""wgpu-shim's shared library, for wgpu-py.

Importing this module before wgpu points wgpu-py at the library in this
package: it sets the environment variable WGPU_LIB_PATH, which wgpu-py reads
when it loads its backend, unless WGPU_LIB_PATH is set already (an explicit
choice wins). `lib_path()` gives the library's path; `python -m wgpu_shim`
prints what to export.
"""

import os
import sys
import warnings
from pathlib import Path

__all__ = ["lib_path", "__version__"]

_LIBRARY = Path(__file__).resolve().parent / "libwgpu_shim.so"


def lib_path() -> str:
    """The absolute path of the libwgpu_shim.so in this package."""
    return str(_LIBRARY)


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("wgpu-shim")
    except Exception:  # noqa: BLE001 - not installed as a distribution (a source tree)
        return "unknown"


__version__ = _version()


def _point_wgpu_py_here() -> None:
    if os.environ.get("WGPU_LIB_PATH"):
        return
    os.environ["WGPU_LIB_PATH"] = lib_path()
    if "wgpu.backends.wgpu_native" in sys.modules:
        warnings.warn(
            "wgpu_shim was imported after wgpu-py loaded its library: import wgpu_shim before wgpu "
            "(or export WGPU_LIB_PATH, see `python -m wgpu_shim`)",
            stacklevel=3,
        )


_point_wgpu_py_here()
