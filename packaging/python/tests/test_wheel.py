"""The installed wgpu-shim wheel under wgpu-py 0.32: run by scripts/test.sh
(step `wheel`) with the python of a fresh venv that has only the wheel and
wgpu==0.32.0 installed, and WGPU_LIB_PATH unset.

    python test_wheel.py PATH/TO/ffi-tests/bindings

Checks that `import wgpu_shim` points wgpu-py at the library inside the
wheel, that `python -m wgpu_shim` prints the export line, and then runs a
compute round trip (dispatch, read_buffer, map_sync + read_mapped) and a
render round trip (an offscreen triangle compared with
ffi-tests/bindings/reference/triangle.png) through wgpu-py, with the checks
of ffi-tests/bindings/wgpu_py.py. Exit 0: passed; 1: failed.
"""

import os
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path


def main() -> int:
    assert len(sys.argv) == 2, __doc__
    bindings = Path(sys.argv[1]).resolve()
    assert "WGPU_LIB_PATH" not in os.environ, "run with WGPU_LIB_PATH unset"

    import wgpu_shim  # before wgpu: sets WGPU_LIB_PATH

    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    lib = Path(wgpu_shim.lib_path())
    assert lib.parent == site / "wgpu_shim", f"the library {lib} is not the installed wheel's ({site})"
    assert lib.is_file(), lib
    assert os.environ.get("WGPU_LIB_PATH") == str(lib), os.environ.get("WGPU_LIB_PATH")
    print(f"wgpu_shim {wgpu_shim.__version__}: {lib}")

    shown = subprocess.run([sys.executable, "-m", "wgpu_shim"], capture_output=True, text=True, check=True).stdout
    assert shown == f"export WGPU_LIB_PATH={shlex.quote(str(lib))}\n", shown
    alone = subprocess.run([sys.executable, "-m", "wgpu_shim", "--path"], capture_output=True, text=True, check=True)
    assert alone.stdout == f"{lib}\n", alone.stdout
    bad = subprocess.run([sys.executable, "-m", "wgpu_shim", "--nonsense"], capture_output=True, text=True)
    assert bad.returncode == 2, bad

    import wgpu
    import wgpu.backends.wgpu_native as wn

    sys.path.insert(0, str(bindings))
    import wgpu_py  # the checks of ffi-tests/bindings/wgpu_py.py

    adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    assert Path(wn._ffi.lib_path).resolve() == lib.resolve(), f"wgpu-py loaded {wn._ffi.lib_path}"
    print("wgpu-py", wgpu.__version__, "on", wn._ffi.lib_path)
    print("adapter:", adapter.info["vendor"], "/", adapter.info["device"])
    device = adapter.request_device_sync()
    ctx = {"adapter": adapter, "log": [], "write_reference": False}
    for check in (wgpu_py.check_compute_and_reads, wgpu_py.check_render_matches_reference):
        check(wgpu, device, ctx)
        print("ok  ", check.__name__[len("check_") :])
    return 0


if __name__ == "__main__":
    sys.exit(main())
