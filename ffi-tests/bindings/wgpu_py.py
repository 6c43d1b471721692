"""wgpu-py (the Python binding written for wgpu-native) runs on wgpu-shim.

wgpu-py dlopens the library named by WGPU_LIB_PATH, resolves every function
of webgpu.h and wgpu.h at load time, maps buffers in AllowProcessEvents mode
and waits for them in wgpuDevicePoll from its own poll thread. This runs a
compute shader, reads results back three ways (queue.read_buffer, map_sync +
read_mapped, a texture round trip), draws a triangle with a render pipeline
(wgpu-py chains wgpu.h's WGPUPrimitiveStateExtras into every one) whose
fragment stage is GLSL, and checks that a validation error reaches Python as
an exception.

Exit 0: passed; 1: failed; 77: skipped (wgpu-py 0.32 cannot be imported or
installed here; the reason is printed).
"""

import os
import struct
import subprocess
import sys
import venv
from pathlib import Path

SKIP = 77
WGPU_PY = "wgpu==0.32.0"


def ensure_wgpu_py() -> None:
    """Re-runs this script in a venv with wgpu-py when it cannot be imported."""
    try:
        import wgpu  # noqa: F401

        return
    except ImportError:
        pass
    if os.environ.get("WGPU_SHIM_IN_VENV"):
        print(f"SKIP: {WGPU_PY} is not importable in the venv")
        sys.exit(SKIP)
    env_dir = Path(os.environ.get("WGPU_PY_VENV", Path(__file__).resolve().parent / ".wgpu-py-venv"))
    py = env_dir / "bin" / "python"
    if not py.exists():
        try:
            venv.create(env_dir, with_pip=True)
        except Exception as e:  # noqa: BLE001 - any failure means: cannot run here
            print(f"SKIP: cannot create a venv for {WGPU_PY}: {e}")
            sys.exit(SKIP)
    check = subprocess.run([str(py), "-c", "import wgpu"], capture_output=True)
    if check.returncode != 0:
        pip = subprocess.run([str(py), "-m", "pip", "install", "--quiet", WGPU_PY], capture_output=True, text=True)
        if pip.returncode != 0:
            print(f"SKIP: pip install {WGPU_PY} failed (no network?):\n{pip.stderr[-800:]}")
            sys.exit(SKIP)
    env = dict(os.environ, WGPU_SHIM_IN_VENV="1")
    sys.exit(subprocess.run([str(py), __file__], env=env).returncode)


def main() -> int:
    ensure_wgpu_py()
    import wgpu
    import wgpu.backends.wgpu_native as wn

    lib = os.environ.get("WGPU_LIB_PATH", "")
    assert "wgpu_shim" in lib, f"WGPU_LIB_PATH must name libwgpu_shim, not {lib!r}"
    print("wgpu-py", wgpu.__version__, "on", wn._ffi.lib_path)

    adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    print("adapter:", adapter.info["device"], adapter.info["adapter_type"])
    device = adapter.request_device_sync()

    n = 4096
    data = struct.pack(f"<{n}I", *range(n))
    storage = device.create_buffer_with_data(
        data=data, usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC
    )
    shader = device.create_shader_module(
        code="""
        @group(0) @binding(0) var<storage, read_write> d: array<u32>;
        @compute @workgroup_size(64)
        fn main(@builtin(global_invocation_id) i: vec3<u32>) { d[i.x] = d[i.x] * 3u + 1u; }
        """
    )
    pipeline = device.create_compute_pipeline(layout="auto", compute={"module": shader, "entry_point": "main"})
    bind_group = device.create_bind_group(
        layout=pipeline.get_bind_group_layout(0), entries=[{"binding": 0, "resource": {"buffer": storage}}]
    )
    encoder = device.create_command_encoder()
    compute = encoder.begin_compute_pass()
    compute.set_pipeline(pipeline)
    compute.set_bind_group(0, bind_group)
    compute.dispatch_workgroups(n // 64)
    compute.end()
    device.queue.submit([encoder.finish()])
    want = [i * 3 + 1 for i in range(n)]

    # 1. queue.read_buffer (a staging buffer, map and poll inside wgpu-py).
    got = list(struct.unpack(f"<{n}I", device.queue.read_buffer(storage)))
    assert got == want, ("read_buffer", got[:8])

    # 2. An explicit MAP_READ buffer: map_sync waits in wgpuDevicePoll.
    readback = device.create_buffer(size=n * 4, usage=wgpu.BufferUsage.MAP_READ | wgpu.BufferUsage.COPY_DST)
    encoder = device.create_command_encoder()
    encoder.copy_buffer_to_buffer(storage, 0, readback, 0, n * 4)
    device.queue.submit([encoder.finish()])
    for _ in range(3):  # map, read, unmap more than once
        readback.map_sync(wgpu.MapMode.READ)
        got = list(struct.unpack(f"<{n}I", readback.read_mapped()))
        readback.unmap()
        assert got == want, ("map_sync", got[:8])

    # 3. A texture round trip.
    size = (16, 8, 1)
    texels = bytes(range(256)) * 2  # 16 x 8 RGBA8
    texture = device.create_texture(
        size=size,
        format=wgpu.TextureFormat.rgba8unorm,
        usage=wgpu.TextureUsage.COPY_DST | wgpu.TextureUsage.COPY_SRC,
    )
    device.queue.write_texture({"texture": texture}, texels, {"bytes_per_row": 64, "rows_per_image": 8}, size)
    back = device.queue.read_texture({"texture": texture}, {"bytes_per_row": 64, "rows_per_image": 8}, size)
    assert bytes(back) == texels, "texture round trip"

    # 4. A render pipeline (wgpu-py chains WGPUPrimitiveStateExtras to every
    # primitive state) of a WGSL vertex stage and a GLSL fragment stage
    # (WGPUShaderSourceGLSL) draws a triangle; the centre texel is green,
    # a corner stays clear.
    vs = device.create_shader_module(
        code="""
        @vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
            var p = array(vec2f(-0.8, -0.8), vec2f(0.8, -0.8), vec2f(0.0, 0.8));
            return vec4f(p[i], 0.0, 1.0);
        }
        """
    )
    fs = device.create_shader_module(
        label="triangle frag",
        code="#version 450\nlayout(location = 0) out vec4 c;\nvoid main() { c = vec4(0.0, 1.0, 0.0, 1.0); }\n",
    )
    render_pipeline = device.create_render_pipeline(
        layout="auto",
        vertex={"module": vs, "entry_point": "vs"},
        primitive={"topology": wgpu.PrimitiveTopology.triangle_list},
        fragment={"module": fs, "entry_point": "main", "targets": [{"format": wgpu.TextureFormat.rgba8unorm}]},
    )
    side = 32
    target = device.create_texture(
        size=(side, side, 1),
        format=wgpu.TextureFormat.rgba8unorm,
        usage=wgpu.TextureUsage.RENDER_ATTACHMENT | wgpu.TextureUsage.COPY_SRC,
    )
    encoder = device.create_command_encoder()
    render = encoder.begin_render_pass(
        color_attachments=[
            {"view": target.create_view(), "clear_value": (0, 0, 0, 0), "load_op": "clear", "store_op": "store"}
        ]
    )
    render.set_pipeline(render_pipeline)
    render.draw(3)
    render.end()
    device.queue.submit([encoder.finish()])
    pixels = bytes(device.queue.read_texture({"texture": target}, {"bytes_per_row": side * 4}, (side, side, 1)))
    centre = (side // 2 * side + side // 2) * 4
    assert pixels[centre : centre + 4] == b"\x00\xff\x00\xff", ("centre", pixels[centre : centre + 4])
    assert pixels[0:4] == b"\x00\x00\x00\x00", ("corner", pixels[0:4])

    # 5. A validation error surfaces in Python.
    raised = False
    try:
        device.create_buffer(size=256, usage=wgpu.BufferUsage.MAP_READ | wgpu.BufferUsage.STORAGE)
    except Exception as e:  # noqa: BLE001 - wgpu-py raises GPUValidationError
        raised = "Validation" in type(e).__name__ or "usage" in str(e).lower()
        print("validation error raised:", type(e).__name__)
    assert raised, "an invalid buffer usage did not raise"

    device.destroy()
    print("wgpu-py on wgpu-shim: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
