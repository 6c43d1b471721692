"""wgpu-py (the Python binding written for wgpu-native) runs on wgpu-shim.

wgpu-py dlopens the library named by WGPU_LIB_PATH, resolves every function
of webgpu.h and wgpu.h at load time, sets its log callback (which turns on
wgpu-shim's wgpu-native compatibility: docs/DECISIONS.md), maps buffers in
AllowProcessEvents mode and waits for them in wgpuDevicePoll. Each check
below is one thing wgpu-py users do, through wgpu-py's own API:

- compute, read back through queue.read_buffer and map_sync + read_mapped;
- write_mapped with unaligned sizes and overlapping writes;
- a view of mapped memory kept past unmap (read_mapped(copy=False), and
  _experimental_get_mapped_range for a write) reads zeros and takes writes
  that reach no buffer (WGPU_SHIM_STALE_MAPPINGS' default, issue 35);
- a texture round trip;
- an offscreen render through a render pipeline with wgpu-py's default
  chains (PrimitiveStateExtras), with integer inter-stage values without
  @interpolate(flat), compared with reference/triangle.png (rendered by
  wgpu-native v29.0.1.1 on lavapipe: run this script with --write-reference
  and WGPU_LIB_PATH naming wgpu-native's library to make it again); on an
  OpenGL adapter, with reference/triangle_gl.png (wgpu-native's render on
  llvmpipe's OpenGL: the same with WGPU_BACKEND_TYPE=OpenGL and
  EGL_PLATFORM=surfaceless);
- occlusion and timestamp queries;
- GLSL and SPIR-V shader modules;
- the error messages wgpu-py raises (wgpu-native's form, which it tests);
- a second device from one adapter, and device release without a
  device-lost report.

Exit 0: passed; 1: failed; 77: skipped (wgpu-py 0.32 cannot be imported or
installed here; the reason is printed; under CI=true that is a failure:
venv_util.py).
"""

import os
import struct
import sys
import traceback
from pathlib import Path

WGPU_PY = "wgpu==0.32.0"


def ensure_wgpu_py() -> None:
    """Re-runs this script in a venv with wgpu-py when it cannot be imported."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import venv_util

    venv_util.ensure([WGPU_PY], "wgpu", "WGPU_PY_VENV", Path(__file__).resolve().parent / ".wgpu-py-venv")


HERE = Path(__file__).resolve().parent
REFERENCES = {"OpenGL": HERE / "reference" / "triangle_gl.png"}
DEFAULT_REFERENCE = HERE / "reference" / "triangle.png"
SIZE = 64

# fill.comp, compiled with `glslangValidator -V --target-env vulkan1.0`:
#   #version 450
#   layout(local_size_x = 64) in;
#   layout(set = 0, binding = 0) buffer Data { uint v[]; } data;
#   void main() { uint i = gl_GlobalInvocationID.x; data.v[i] = i * 7u + 5u; }
FILL_SPIRV_B64 = (
    "AwIjBwAAAQALAAgAIQAAAAAAAAARAAIAAQAAAAsABgABAAAAR0xTTC5zdGQuNDUwAAAAAA4AAwAAAAAAAQAAAA8ABgAFAAAABAAA"
    "AG1haW4AAAAACwAAABAABgAEAAAAEQAAAEAAAAABAAAAAQAAAAMAAwACAAAAwgEAAAUABAAEAAAAbWFpbgAAAAAFAAMACAAAAGkA"
    "AAAFAAgACwAAAGdsX0dsb2JhbEludm9jYXRpb25JRAAAAAUABAARAAAARGF0YQAAAAAGAAQAEQAAAAAAAAB2AAAABQAEABMAAABk"
    "YXRhAAAAAEcABAALAAAACwAAABwAAABHAAQAEAAAAAYAAAAEAAAASAAFABEAAAAAAAAAIwAAAAAAAABHAAMAEQAAAAMAAABHAAQA"
    "EwAAACIAAAAAAAAARwAEABMAAAAhAAAAAAAAAEcABAAgAAAACwAAABkAAAATAAIAAgAAACEAAwADAAAAAgAAABUABAAGAAAAIAAA"
    "AAAAAAAgAAQABwAAAAcAAAAGAAAAFwAEAAkAAAAGAAAAAwAAACAABAAKAAAAAQAAAAkAAAA7AAQACgAAAAsAAAABAAAAKwAEAAYA"
    "AAAMAAAAAAAAACAABAANAAAAAQAAAAYAAAAdAAMAEAAAAAYAAAAeAAMAEQAAABAAAAAgAAQAEgAAAAIAAAARAAAAOwAEABIAAAAT"
    "AAAAAgAAABUABAAUAAAAIAAAAAEAAAArAAQAFAAAABUAAAAAAAAAKwAEAAYAAAAYAAAABwAAACsABAAGAAAAGgAAAAUAAAAgAAQA"
    "HAAAAAIAAAAGAAAAKwAEAAYAAAAeAAAAQAAAACsABAAGAAAAHwAAAAEAAAAsAAYACQAAACAAAAAeAAAAHwAAAB8AAAA2AAUAAgAA"
    "AAQAAAAAAAAAAwAAAPgAAgAFAAAAOwAEAAcAAAAIAAAABwAAAEEABQANAAAADgAAAAsAAAAMAAAAPQAEAAYAAAAPAAAADgAAAD4A"
    "AwAIAAAADwAAAD0ABAAGAAAAFgAAAAgAAAA9AAQABgAAABcAAAAIAAAAhAAFAAYAAAAZAAAAFwAAABgAAACAAAUABgAAABsAAAAZ"
    "AAAAGgAAAEEABgAcAAAAHQAAABMAAAAVAAAAFgAAAD4AAwAdAAAAGwAAAP0AAQA4AAEA"
)

FILL_GLSL = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint v[]; } data;
void main() { uint i = gl_GlobalInvocationID.x; data.v[i] = i * 7u + 5u; }
"""

FILL_WGSL = """
@group(0) @binding(0) var<storage, read_write> v: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) i: vec3<u32>) { v[i.x] = i.x * 7u + 5u; }
"""

TRIANGLE_WGSL = """
struct V {
    @builtin(position) pos: vec4<f32>,
    @location(0) color: vec4<f32>,
    @location(1) corner: u32,
};
@vertex fn vs(@builtin(vertex_index) i: u32) -> V {
    var p = array<vec2<f32>, 3>(vec2<f32>(0.0, 0.8), vec2<f32>(-0.8, -0.7), vec2<f32>(0.8, -0.6));
    var c = array<vec4<f32>, 3>(vec4<f32>(1.0, 0.0, 0.0, 1.0), vec4<f32>(0.0, 1.0, 0.0, 1.0), vec4<f32>(0.0, 0.0, 1.0, 1.0));
    var v: V;
    v.pos = vec4<f32>(p[i], 0.0, 1.0);
    v.color = c[i];
    v.corner = i;
    return v;
}
@fragment fn fs(in: V) -> @location(0) vec4<f32> {
    // `corner` is an integer without @interpolate(flat): naga 29 made it
    // flat (the provoking vertex's), and wgpu-native accepts it.
    return in.color * (0.5 + 0.25 * f32(in.corner));
}
"""


def dispatch(device, wgpu, module, storage, n, entry_point="main"):
    """Runs `module` over the n-word storage buffer `storage` (binding 0)."""
    pipeline = device.create_compute_pipeline(layout="auto", compute={"module": module, "entry_point": entry_point})
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


def compute_with(device, wgpu, module, n, entry_point="main"):
    """Runs `module` over a new n-word storage buffer; returns the words."""
    storage = device.create_buffer(size=n * 4, usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC)
    dispatch(device, wgpu, module, storage, n, entry_point)
    return list(struct.unpack(f"<{n}I", device.queue.read_buffer(storage)))


def check_compute_and_reads(wgpu, device, ctx):
    n = 4096
    data = struct.pack(f"<{n}I", *range(n))
    storage = device.create_buffer_with_data(data=data, usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC)
    shader = device.create_shader_module(
        code="""
        @group(0) @binding(0) var<storage, read_write> d: array<u32>;
        @compute @workgroup_size(64)
        fn main(@builtin(global_invocation_id) i: vec3<u32>) { d[i.x] = d[i.x] * 3u + 1u; }
        """
    )
    dispatch(device, wgpu, shader, storage, n)
    want = [i * 3 + 1 for i in range(n)]
    got = list(struct.unpack(f"<{n}I", device.queue.read_buffer(storage)))
    assert got == want, ("read_buffer", got[:8])
    readback = device.create_buffer(size=n * 4, usage=wgpu.BufferUsage.MAP_READ | wgpu.BufferUsage.COPY_DST)
    encoder = device.create_command_encoder()
    encoder.copy_buffer_to_buffer(storage, 0, readback, 0, n * 4)
    device.queue.submit([encoder.finish()])
    for _ in range(3):  # map, read, unmap more than once
        readback.map_sync(wgpu.MapMode.READ)
        got = list(struct.unpack(f"<{n}I", readback.read_mapped()))
        readback.unmap()
        assert got == want, ("map_sync + read_mapped", got[:8])


def check_write_mapped(wgpu, device, ctx):
    upload = device.create_buffer(size=64, usage=wgpu.BufferUsage.MAP_WRITE | wgpu.BufferUsage.COPY_SRC)
    upload.map_sync(wgpu.MapMode.WRITE)
    upload.write_mapped(bytes([1] * 64), 0)
    upload.write_mapped(bytes([2] * 6), 8)  # 6 bytes: a range of 8, overlapping the first
    upload.write_mapped(bytes([3] * 4), 8)  # the same bytes again
    upload.write_mapped(bytes([4] * 10), 40)
    upload.unmap()
    readback = device.create_buffer(size=64, usage=wgpu.BufferUsage.MAP_READ | wgpu.BufferUsage.COPY_DST)
    encoder = device.create_command_encoder()
    encoder.copy_buffer_to_buffer(upload, 0, readback, 0, 64)
    device.queue.submit([encoder.finish()])
    readback.map_sync(wgpu.MapMode.READ)
    got = bytes(readback.read_mapped())
    readback.unmap()
    want = bytes([1] * 8 + [3] * 4 + [2] * 2 + [1] * 26 + [4] * 10 + [1] * 14)
    assert got == want, got


STALE_A = 0x11111111
STALE_B = 0x22222222


def stale_checks_apply():
    """The stale-view checks need WGPU_SHIM_STALE_MAPPINGS' default, `zero`
    (under `fault` reading a stale view kills the process, as it should)."""
    mode = os.environ.get("WGPU_SHIM_STALE_MAPPINGS", "")
    if mode in ("", "zero"):
        return True
    print(f"  skipped: WGPU_SHIM_STALE_MAPPINGS={mode!r}, the check needs its default `zero`")
    return False


def describe_words(view):
    """What a stale view that should read zeros shows instead."""
    nonzero = [i for i, w in enumerate(view) if w]
    if not nonzero:
        return "all zeros"
    first = nonzero[0]
    others = sum(1 for w in view if w == STALE_B)
    return (
        f"{len(nonzero)} of {len(view)} words are not zero; word {first} is {view[first]:#010x}; "
        f"{others} words are {STALE_B:#010x}, another buffer's bytes"
    )


def check_stale_read_mapped_view(wgpu, device, ctx):
    """A view that read_mapped(copy=False) gave (GetMappedRange's memory
    itself) reads zeros once the buffer is unmapped, and destroyed, and never
    shows the bytes of the buffers made and mapped after it (issue 35)."""
    if not stale_checks_apply():
        return
    usage = wgpu.BufferUsage.MAP_READ | wgpu.BufferUsage.COPY_DST
    for size in (256, 4096, 1 << 20):
        n = size // 4
        a = device.create_buffer(size=size, usage=usage)
        device.queue.write_buffer(a, 0, struct.pack("<I", STALE_A) * n)
        a.map_sync(wgpu.MapMode.READ)
        view = a.read_mapped(copy=False)
        # wgpu-py releases `view` itself at unmap; a view cast from it keeps
        # the address.
        kept = view.cast("I")
        assert all(w == STALE_A for w in kept), ("live view", size, describe_words(kept))
        a.unmap()
        assert not any(kept), ("after unmap", size, describe_words(kept))
        a.destroy()
        del a, view
        assert not any(kept), ("after destroy", size, describe_words(kept))
        mapped = []
        for cycle in range(40):
            b = device.create_buffer_with_data(data=struct.pack("<I", STALE_B) * n, usage=usage)
            b.map_sync(wgpu.MapMode.READ)
            assert all(w == STALE_B for w in b.read_mapped(copy=False).cast("I")), ("a new buffer", size, cycle)
            mapped.append(b)
            if len(mapped) > 4:
                mapped.pop(0).unmap()
            assert not any(kept), (f"cycle {cycle}", size, describe_words(kept))
        for b in mapped:
            b.unmap()
        assert not any(kept), ("at the end", size, describe_words(kept))


def read_back(wgpu, device, src, size):
    """src's bytes (COPY_SRC), by a copy into a MAP_READ buffer."""
    readback = device.create_buffer(size=size, usage=wgpu.BufferUsage.MAP_READ | wgpu.BufferUsage.COPY_DST)
    encoder = device.create_command_encoder()
    encoder.copy_buffer_to_buffer(src, 0, readback, 0, size)
    device.queue.submit([encoder.finish()])
    readback.map_sync(wgpu.MapMode.READ)
    data = bytes(readback.read_mapped())
    readback.unmap()
    return data


def check_stale_write_mapped_view(wgpu, device, ctx):
    """write_mapped of 4 KiB and 1 MiB round-trips through unmap and a copy;
    a write through a view of GetMappedRange's memory kept past unmap (wgpu-py
    0.32's _experimental_get_mapped_range) reaches neither that buffer nor
    one made after it (issue 35)."""
    usage = wgpu.BufferUsage.MAP_WRITE | wgpu.BufferUsage.COPY_SRC
    for size in (4096, 1 << 20):
        data = struct.pack("<I", 0x33333333) * (size // 4)
        upload = device.create_buffer(size=size, usage=usage)
        upload.map_sync(wgpu.MapMode.WRITE)
        upload.write_mapped(data)
        upload.unmap()
        assert read_back(wgpu, device, upload, size) == data, ("write_mapped round trip", size)
        if not stale_checks_apply():
            continue
        w = device.create_buffer(size=size, usage=usage)
        if not hasattr(w, "_experimental_get_mapped_range"):
            print("  (this wgpu-py has no _experimental_get_mapped_range: no stale write tried)")
            continue
        w.map_sync(wgpu.MapMode.WRITE)
        raw = w._experimental_get_mapped_range()  # the only range of this mapping
        raw[:] = data
        w.unmap()
        raw[:] = b"\xab" * size  # stale: must reach nothing
        assert read_back(wgpu, device, w, size) == data, ("the old buffer after a stale write", size)
        fresh = device.create_buffer(size=size, usage=usage)
        fresh.map_sync(wgpu.MapMode.WRITE)
        raw[:] = b"\xab" * size  # again, while a new buffer is mapped
        fresh.unmap()
        got = read_back(wgpu, device, fresh, size)
        assert got == bytes(size), ("a new buffer after a stale write", size, got.count(0xAB), "bytes 0xab")


def check_texture_round_trip(wgpu, device, ctx):
    size = (16, 8, 1)
    texels = bytes(range(256)) * 2  # 16 x 8 RGBA8
    texture = device.create_texture(
        size=size, format=wgpu.TextureFormat.rgba8unorm, usage=wgpu.TextureUsage.COPY_DST | wgpu.TextureUsage.COPY_SRC
    )
    device.queue.write_texture({"texture": texture}, texels, {"bytes_per_row": 64, "rows_per_image": 8}, size)
    back = device.queue.read_texture({"texture": texture}, {"bytes_per_row": 64, "rows_per_image": 8}, size)
    assert bytes(back) == texels, "texture round trip"


def render_triangle(wgpu, device, occlusion=None):
    """The triangle, rendered offscreen; returns its RGBA bytes."""
    texture = device.create_texture(
        size=(SIZE, SIZE, 1),
        format=wgpu.TextureFormat.rgba8unorm,
        usage=wgpu.TextureUsage.RENDER_ATTACHMENT | wgpu.TextureUsage.COPY_SRC,
    )
    module = device.create_shader_module(code=TRIANGLE_WGSL)
    pipeline = device.create_render_pipeline(
        layout="auto",
        vertex={"module": module, "entry_point": "vs"},
        primitive={"topology": wgpu.PrimitiveTopology.triangle_list, "cull_mode": wgpu.CullMode.none},
        fragment={"module": module, "entry_point": "fs", "targets": [{"format": wgpu.TextureFormat.rgba8unorm}]},
    )
    encoder = device.create_command_encoder()
    pass_args = {}
    if occlusion is not None:
        pass_args["occlusion_query_set"] = occlusion
    rp = encoder.begin_render_pass(
        color_attachments=[
            {
                "view": texture.create_view(),
                "clear_value": (0.1, 0.2, 0.3, 1.0),
                "load_op": wgpu.LoadOp.clear,
                "store_op": wgpu.StoreOp.store,
            }
        ],
        **pass_args,
    )
    rp.set_pipeline(pipeline)
    if occlusion is not None:
        rp.begin_occlusion_query(0)
    rp.draw(3)
    if occlusion is not None:
        rp.end_occlusion_query()
    rp.end()
    device.queue.submit([encoder.finish()])
    data = device.queue.read_texture(
        {"texture": texture}, {"bytes_per_row": SIZE * 4, "rows_per_image": SIZE}, (SIZE, SIZE, 1)
    )
    return bytes(data)


def check_render_matches_reference(wgpu, device, ctx):
    sys.path.insert(0, str(HERE))
    import png_rgba

    image = render_triangle(wgpu, device)
    reference_file = REFERENCES.get(device.adapter.info["backend_type"], DEFAULT_REFERENCE)
    if ctx["write_reference"]:
        reference_file.parent.mkdir(exist_ok=True)
        png_rgba.write(reference_file, SIZE, SIZE, image)
        print(f"  wrote {reference_file}")
        return
    width, height, reference = png_rgba.read(reference_file)
    assert (width, height) == (SIZE, SIZE)
    differ = png_rgba.compare(image, reference)
    print(f"  {differ:.2%} of the pixels differ from {reference_file.name}")
    assert differ <= 0.01, f"{differ:.2%} of the pixels differ from {reference_file.name}"
    background = image[:4]
    assert background == bytes([26, 51, 76, 255]), background  # the clear colour
    center = image[(SIZE // 2 * SIZE + SIZE // 2) * 4 : (SIZE // 2 * SIZE + SIZE // 2) * 4 + 4]
    assert center != background, "nothing was drawn"


def check_queries(wgpu, device, ctx):
    occlusion = device.create_query_set(type=wgpu.QueryType.occlusion, count=1)
    render_triangle(wgpu, device, occlusion)
    resolved = device.create_buffer(size=256, usage=wgpu.BufferUsage.QUERY_RESOLVE | wgpu.BufferUsage.COPY_SRC)
    encoder = device.create_command_encoder()
    encoder.resolve_query_set(occlusion, 0, 1, resolved, 0)
    device.queue.submit([encoder.finish()])
    (samples,) = struct.unpack("<Q", device.queue.read_buffer(resolved)[:8])
    assert samples > 0, "the occlusion query counted no sample"
    if "timestamp-query" in device.features:
        stamps = device.create_query_set(type=wgpu.QueryType.timestamp, count=2)
        encoder = device.create_command_encoder()
        cp = encoder.begin_compute_pass(
            timestamp_writes={"query_set": stamps, "beginning_of_pass_write_index": 0, "end_of_pass_write_index": 1}
        )
        cp.end()
        encoder.resolve_query_set(stamps, 0, 2, resolved, 0)
        device.queue.submit([encoder.finish()])
        t0, t1 = struct.unpack("<QQ", device.queue.read_buffer(resolved)[:16])
        assert t1 >= t0, (t0, t1)


def check_glsl_and_spirv(wgpu, device, ctx):
    import base64

    n = 256
    want = [i * 7 + 5 for i in range(n)]
    glsl = device.create_shader_module(label="fill comp", code=FILL_GLSL)  # the label names the stage
    assert compute_with(device, wgpu, glsl, n) == want, "GLSL compute"
    spirv = device.create_shader_module(code=base64.b64decode(FILL_SPIRV_B64))
    assert compute_with(device, wgpu, spirv, n) == want, "SPIR-V compute"


def check_error_messages(wgpu, device, ctx):
    try:
        device.create_shader_module(code="fn main( {")
    except wgpu.GPUValidationError as e:
        message = e.message
    else:
        raise AssertionError("a WGSL syntax error did not raise")
    head = "Validation Error\n\nCaused by:\n  In wgpuDeviceCreateShaderModule\n\nShader '' parsing error: "
    assert message.startswith(head), repr(message[:160])
    assert "wgsl:1:10" in message, repr(message)
    try:
        device.create_buffer(label="bad", size=256, usage=wgpu.BufferUsage.MAP_READ | wgpu.BufferUsage.STORAGE)
    except wgpu.GPUValidationError as e:
        message = e.message
    else:
        raise AssertionError("an invalid buffer usage did not raise")
    head = "Validation Error\n\nCaused by:\n  In wgpuDeviceCreateBuffer, label = 'bad'\n    "
    assert message.startswith(head), repr(message[:160])


def check_devices(wgpu, device, ctx):
    adapter = ctx["adapter"]
    extra = [adapter.request_device_sync() for _ in range(2)]  # one adapter, more devices
    for d in extra:
        assert compute_with(d, wgpu, d.create_shader_module(code=FILL_WGSL), 64) == [i * 7 + 5 for i in range(64)]
        d.destroy()
    del extra
    dropped = adapter.request_device_sync()
    del dropped
    import gc

    gc.collect()
    lost = [r for r in ctx["log"] if "DEVICE LOST" in r.getMessage()]
    # destroy() reports the loss (the standard's `Destroyed`; wgpu-native
    # v29 never calls the callback of a destroyed device); a device that is
    # only released does not (as on wgpu-native).
    assert len(lost) == 2, [r.getMessage() for r in lost]


CHECKS = [
    check_compute_and_reads,
    check_write_mapped,
    check_stale_read_mapped_view,
    check_stale_write_mapped_view,
    check_texture_round_trip,
    check_render_matches_reference,
    check_queries,
    check_glsl_and_spirv,
    check_error_messages,
    check_devices,
]


def main() -> int:
    ensure_wgpu_py()
    import logging

    import wgpu
    import wgpu.backends.wgpu_native as wn

    write_reference = "--write-reference" in sys.argv
    lib = os.environ.get("WGPU_LIB_PATH", "")
    if not write_reference:
        assert "wgpu_shim" in lib, f"WGPU_LIB_PATH must name libwgpu_shim, not {lib!r}"
    print("wgpu-py", wgpu.__version__, "on", wn._ffi.lib_path)

    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    logging.getLogger("wgpu").addHandler(Keep())
    adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    print("adapter:", adapter.info["vendor"], "/", adapter.info["device"], adapter.info["adapter_type"])
    device = adapter.request_device_sync()
    ctx = {"adapter": adapter, "log": records, "write_reference": write_reference}
    checks = [check_render_matches_reference] if write_reference else CHECKS
    passed = failed = 0
    for check in checks:
        name = check.__name__[len("check_") :]
        try:
            check(wgpu, device, ctx)
        except Exception:  # noqa: BLE001 - every failure is reported, then the next check runs
            failed += 1
            print(f"FAIL {name}")
            traceback.print_exc()
        else:
            passed += 1
            print(f"ok   {name}")
    device.destroy()
    print(f"wgpu-py: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
