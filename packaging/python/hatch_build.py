"""Hatchling build hook of the wgpu-shim wheel: puts libwgpu_shim.so into the
package and marks the wheel as platform-specific.

The library is the file named by WGPU_SHIM_LIBRARY (scripts/wheel.sh passes a
copy stripped of debugging information), else the repository's
target/release/libwgpu_shim.so. The tag is py3-none-linux_<arch>: the library
is no Python extension, so any Python 3 can load it, but it is a Linux binary.
scripts/wheel.sh then lets auditwheel give the manylinux tag the library's
symbol versions allow.
"""

import os
import platform
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class LibraryHook(BuildHookInterface):
    """Adds the shared library and the platform tag."""

    def initialize(self, version, build_data):
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        lib = Path(os.environ.get("WGPU_SHIM_LIBRARY") or root / "../../target/release/libwgpu_shim.so")
        if not lib.is_file():
            raise RuntimeError(
                f"{lib} is missing: run `cargo build --release` (or set WGPU_SHIM_LIBRARY to libwgpu_shim.so)"
            )
        if platform.system() != "Linux":
            raise RuntimeError("the wgpu-shim wheel is built on Linux only")
        build_data["force_include"][str(lib.resolve())] = "wgpu_shim/libwgpu_shim.so"
        build_data["pure_python"] = False
        build_data["tag"] = f"py3-none-linux_{platform.machine()}"
