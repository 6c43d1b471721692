"""python -m wgpu_shim [--path]: prints the shell line that points wgpu-py at
this package's library (`export WGPU_LIB_PATH=...`), or with --path the
library's path alone. Exits 1 when the library is missing."""

import shlex
import sys
from pathlib import Path

from . import lib_path


def main(argv) -> int:
    if any(a not in ("--path",) for a in argv):
        print(__doc__, file=sys.stderr)
        return 2
    path = lib_path()
    if not Path(path).is_file():
        print(f"wgpu_shim: {path} is missing (a broken install?)", file=sys.stderr)
        return 1
    print(path if "--path" in argv else f"export WGPU_LIB_PATH={shlex.quote(path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
