#!/usr/bin/env python3
"""wgpu-shim from Python's asyncio, through ctypes only.

The instance is created with wgpu-shim's ShimReadinessHandle feature
(include/webgpu/wgpu_shim.h): wgpuShimInstanceGetReadinessFd then gives a file
descriptor that is readable exactly while wgpuInstanceProcessEvents has
callbacks to run. asyncio watches it with loop.add_reader(); the handler calls
ProcessEvents, whose AllowProcessEvents callbacks resolve asyncio Futures. So a
coroutine can `await` GPU work while the event loop sleeps in epoll: no polling
timer, no helper thread.

What it does:
  1. instance (TimedWaitAny + ShimReadinessHandle), adapter, device: WaitAnyOnly
     callbacks and wgpuInstanceWaitAny;
  2. a compute shader running an LCG for 60000 steps on 64 seeds; a short run
     calibrates the number of dispatches for a job of ~200 ms on this device;
  3. one submission: seeds written with wgpuQueueWriteBuffer, the compute pass,
     a copy of the results into a MAP_READ buffer;
  4. in a coroutine: MapAsync and OnSubmittedWorkDone (AllowProcessEvents),
     awaited through the readiness fd; the main thread's CPU time
     (time.thread_time) and the wall time of the await are measured;
  5. the mapped values are checked against the same LCG computed here.

Prints the data summary and the CPU/wall ratio of the wait. Exit status 0 when
everything succeeded, the data matched and the ratio is at most 0.05; 1
otherwise.

The library: <repo>/target/release/libwgpu_shim.so (relative to this file), or
the path in the environment variable WGPU_SHIM_LIBRARY. The Vulkan driver is
whatever the environment selects (e.g. VK_ICD_FILENAMES).
"""

import asyncio
import ctypes
import os
import select
import sys
import time
from ctypes import (CFUNCTYPE, POINTER, Structure, byref, c_size_t, c_uint32, c_uint64, c_void_p, sizeof)
from pathlib import Path

VALUES = 64              # one workgroup of 64 invocations
ITERATIONS = 60000       # below 65535: llvmpipe ends any shader loop after 65535 iterations
TARGET_S = 0.2           # length of the awaited job
CALIBRATION_DISPATCHES = 20
MAX_DISPATCHES = 20000
MAX_CPU_RATIO = 0.05
SAFETY_CAP_S = 30.0

SHADER = """
struct Params { iterations: u32 }
@group(0) @binding(0) var<storage, read> seeds: array<u32>;
@group(0) @binding(1) var<storage, read_write> results: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  var x = seeds[id.x];
  for (var i = 0u; i < params.iterations; i = i + 1u) { x = x * 1664525u + 1013904223u; }
  results[id.x] = x;
}
"""

# ---- webgpu.h constants (the values of include/webgpu/webgpu.h) ------------
SIZE_MAX = c_size_t(-1).value
WGPU_STRLEN = SIZE_MAX
WGPU_WHOLE_SIZE = 0xFFFFFFFFFFFFFFFF
CALLBACK_MODE_WAIT_ANY_ONLY = 1
CALLBACK_MODE_ALLOW_PROCESS_EVENTS = 2
INSTANCE_FEATURE_TIMED_WAIT_ANY = 0x00000001
INSTANCE_FEATURE_SHIM_READINESS_HANDLE = 0x00070001  # wgpu_shim.h
STYPE_SHADER_SOURCE_WGSL = 0x00000002
BUFFER_USAGE_MAP_READ = 0x01
BUFFER_USAGE_COPY_SRC = 0x04
BUFFER_USAGE_COPY_DST = 0x08
BUFFER_USAGE_UNIFORM = 0x40
BUFFER_USAGE_STORAGE = 0x80
MAP_MODE_READ = 0x01
WAIT_STATUS_SUCCESS = 1
STATUS_SUCCESS = 1  # Success of every callback status enum and of WGPUStatus
UINT64_MAX = 0xFFFFFFFFFFFFFFFF

# ---- the structs this program uses (layouts as in webgpu.h, LP64) ---------


class StringView(Structure):
    _fields_ = [("data", c_void_p), ("length", c_size_t)]


class ChainedStruct(Structure):
    _fields_ = [("next", c_void_p), ("sType", c_uint32)]


class Future(Structure):
    _fields_ = [("id", c_uint64)]


class FutureWaitInfo(Structure):
    _fields_ = [("future", Future), ("completed", c_uint32)]


class InstanceDescriptor(Structure):
    _fields_ = [("nextInChain", c_void_p), ("requiredFeatureCount", c_size_t),
                ("requiredFeatures", POINTER(c_uint32)), ("requiredLimits", c_void_p)]


RequestAdapterCallback = CFUNCTYPE(None, c_uint32, c_void_p, StringView, c_void_p, c_void_p)
RequestDeviceCallback = CFUNCTYPE(None, c_uint32, c_void_p, StringView, c_void_p, c_void_p)
BufferMapCallback = CFUNCTYPE(None, c_uint32, StringView, c_void_p, c_void_p)
QueueWorkDoneCallback = CFUNCTYPE(None, c_uint32, StringView, c_void_p, c_void_p)


def callback_info(callback_type):
    class CallbackInfo(Structure):
        _fields_ = [("nextInChain", c_void_p), ("mode", c_uint32), ("callback", callback_type),
                    ("userdata1", c_void_p), ("userdata2", c_void_p)]
    return CallbackInfo


RequestAdapterCallbackInfo = callback_info(RequestAdapterCallback)
RequestDeviceCallbackInfo = callback_info(RequestDeviceCallback)
BufferMapCallbackInfo = callback_info(BufferMapCallback)
QueueWorkDoneCallbackInfo = callback_info(QueueWorkDoneCallback)


class BufferDescriptor(Structure):
    _fields_ = [("nextInChain", c_void_p), ("label", StringView), ("usage", c_uint64), ("size", c_uint64),
                ("mappedAtCreation", c_uint32)]


class ShaderSourceWGSL(Structure):
    _fields_ = [("chain", ChainedStruct), ("code", StringView)]


class ShaderModuleDescriptor(Structure):
    _fields_ = [("nextInChain", c_void_p), ("label", StringView)]


class ComputeState(Structure):
    _fields_ = [("nextInChain", c_void_p), ("module", c_void_p), ("entryPoint", StringView),
                ("constantCount", c_size_t), ("constants", c_void_p)]


class ComputePipelineDescriptor(Structure):
    _fields_ = [("nextInChain", c_void_p), ("label", StringView), ("layout", c_void_p),
                ("compute", ComputeState)]


class BindGroupEntry(Structure):
    _fields_ = [("nextInChain", c_void_p), ("binding", c_uint32), ("buffer", c_void_p), ("offset", c_uint64),
                ("size", c_uint64), ("sampler", c_void_p), ("textureView", c_void_p)]


class BindGroupDescriptor(Structure):
    _fields_ = [("nextInChain", c_void_p), ("label", StringView), ("layout", c_void_p),
                ("entryCount", c_size_t), ("entries", POINTER(BindGroupEntry))]


# Sizes and offsets from ffi-tests/abi/webgpu_abi_table.inc (LP64).
ABI = {
    StringView: (16, {"data": 0, "length": 8}),
    ChainedStruct: (16, {"next": 0, "sType": 8}),
    Future: (8, {"id": 0}),
    FutureWaitInfo: (16, {"future": 0, "completed": 8}),
    InstanceDescriptor: (32, {"nextInChain": 0, "requiredFeatureCount": 8, "requiredFeatures": 16,
                              "requiredLimits": 24}),
    RequestAdapterCallbackInfo: (40, {"mode": 8, "callback": 16, "userdata1": 24, "userdata2": 32}),
    RequestDeviceCallbackInfo: (40, {"mode": 8, "callback": 16, "userdata1": 24, "userdata2": 32}),
    BufferMapCallbackInfo: (40, {"mode": 8, "callback": 16, "userdata1": 24, "userdata2": 32}),
    QueueWorkDoneCallbackInfo: (40, {"mode": 8, "callback": 16, "userdata1": 24, "userdata2": 32}),
    BufferDescriptor: (48, {"label": 8, "usage": 24, "size": 32, "mappedAtCreation": 40}),
    ShaderSourceWGSL: (32, {"chain": 0, "code": 16}),
    ShaderModuleDescriptor: (24, {"label": 8}),
    ComputeState: (48, {"module": 8, "entryPoint": 16, "constantCount": 32, "constants": 40}),
    ComputePipelineDescriptor: (80, {"label": 8, "layout": 24, "compute": 32}),
    BindGroupEntry: (56, {"binding": 8, "buffer": 16, "offset": 24, "size": 32, "sampler": 40,
                          "textureView": 48}),
    BindGroupDescriptor: (48, {"label": 8, "layout": 24, "entryCount": 32, "entries": 40}),
}


def check_abi():
    if sizeof(c_void_p) != 8:
        raise SystemExit("asyncio_map: these struct layouts are for 64-bit (LP64) platforms")
    for struct, (size, offsets) in ABI.items():
        if sizeof(struct) != size:
            raise SystemExit(f"asyncio_map: sizeof({struct.__name__}) = {sizeof(struct)}, webgpu.h says {size}")
        for name, offset in offsets.items():
            if getattr(struct, name).offset != offset:
                raise SystemExit(f"asyncio_map: {struct.__name__}.{name} at {getattr(struct, name).offset}, "
                                 f"webgpu.h says {offset}")


def load_library():
    path = os.environ.get("WGPU_SHIM_LIBRARY")
    if not path:
        path = str(Path(__file__).resolve().parents[2] / "target" / "release" / "libwgpu_shim.so")
    lib = ctypes.CDLL(path)
    p = c_void_p
    signatures = {
        "wgpuCreateInstance": (p, [POINTER(InstanceDescriptor)]),
        "wgpuHasInstanceFeature": (c_uint32, [c_uint32]),
        "wgpuInstanceRequestAdapter": (Future, [p, p, RequestAdapterCallbackInfo]),
        "wgpuAdapterRequestDevice": (Future, [p, p, RequestDeviceCallbackInfo]),
        "wgpuInstanceWaitAny": (c_uint32, [p, c_size_t, POINTER(FutureWaitInfo), c_uint64]),
        "wgpuInstanceProcessEvents": (None, [p]),
        "wgpuShimInstanceGetReadinessFd": (ctypes.c_int, [p]),
        "wgpuDeviceGetQueue": (p, [p]),
        "wgpuDeviceCreateBuffer": (p, [p, POINTER(BufferDescriptor)]),
        "wgpuDeviceCreateShaderModule": (p, [p, POINTER(ShaderModuleDescriptor)]),
        "wgpuDeviceCreateComputePipeline": (p, [p, POINTER(ComputePipelineDescriptor)]),
        "wgpuComputePipelineGetBindGroupLayout": (p, [p, c_uint32]),
        "wgpuDeviceCreateBindGroup": (p, [p, POINTER(BindGroupDescriptor)]),
        "wgpuDeviceCreateCommandEncoder": (p, [p, p]),
        "wgpuCommandEncoderBeginComputePass": (p, [p, p]),
        "wgpuComputePassEncoderSetPipeline": (None, [p, p]),
        "wgpuComputePassEncoderSetBindGroup": (None, [p, c_uint32, p, c_size_t, p]),
        "wgpuComputePassEncoderDispatchWorkgroups": (None, [p, c_uint32, c_uint32, c_uint32]),
        "wgpuComputePassEncoderEnd": (None, [p]),
        "wgpuCommandEncoderCopyBufferToBuffer": (None, [p, p, c_uint64, p, c_uint64, c_uint64]),
        "wgpuCommandEncoderFinish": (p, [p, p]),
        "wgpuQueueSubmit": (None, [p, c_size_t, POINTER(c_void_p)]),
        "wgpuQueueWriteBuffer": (None, [p, p, c_uint64, p, c_size_t]),
        "wgpuQueueOnSubmittedWorkDone": (Future, [p, QueueWorkDoneCallbackInfo]),
        "wgpuBufferMapAsync": (Future, [p, c_uint64, c_size_t, c_size_t, BufferMapCallbackInfo]),
        "wgpuBufferGetConstMappedRange": (p, [p, c_size_t, c_size_t]),
        "wgpuBufferUnmap": (None, [p]),
    }
    for release in ("Instance", "Adapter", "Device", "Queue", "Buffer", "ShaderModule", "ComputePipeline",
                    "BindGroupLayout", "BindGroup", "CommandEncoder", "ComputePassEncoder", "CommandBuffer"):
        signatures[f"wgpu{release}Release"] = (None, [p])
    for name, (restype, argtypes) in signatures.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib, path


class Failure(Exception):
    pass


def string_view(keep, text):
    """A StringView of `text`; the bytes are kept alive in the list `keep`."""
    data = ctypes.create_string_buffer(text.encode())
    keep.append(data)
    return StringView(ctypes.addressof(data), len(text.encode()))


def seed(i):
    return (0x9E3779B9 * (i + 1)) & 0xFFFFFFFF


def lcg_power(steps):
    """(a, c) with x -> a*x + c (mod 2^32) equal to `steps` LCG steps."""
    a, c = 1, 0                      # identity
    ma, mc = 1664525, 1013904223     # one step
    while steps:
        if steps & 1:
            a, c = (ma * a) & 0xFFFFFFFF, (ma * c + mc) & 0xFFFFFFFF
        ma, mc = (ma * ma) & 0xFFFFFFFF, (ma * mc + mc) & 0xFFFFFFFF
        steps >>= 1
    return a, c


def expected_values():
    a, c = lcg_power(ITERATIONS)
    return [(a * seed(i) + c) & 0xFFFFFFFF for i in range(VALUES)]


class Gpu:
    """The objects of this program; release() releases those created."""

    def __init__(self, lib):
        self.lib = lib
        self.keep = []        # bytes and ctypes callbacks that must outlive the calls
        self.objects = []     # (release function name, handle), released in reverse order
        self.instance = None

    def own(self, kind, handle, what):
        if not handle:
            raise Failure(f"{what} returned NULL")
        self.objects.append((f"wgpu{kind}Release", handle))
        return handle

    def wait(self, future, what):
        info = FutureWaitInfo(future, 0)
        status = self.lib.wgpuInstanceWaitAny(self.instance, 1, byref(info), UINT64_MAX)
        if status != WAIT_STATUS_SUCCESS or not info.completed:
            raise Failure(f"wgpuInstanceWaitAny({what}): status {status}, completed {info.completed}")

    def open(self):
        lib = self.lib
        if not lib.wgpuHasInstanceFeature(INSTANCE_FEATURE_SHIM_READINESS_HANDLE):
            raise Failure("the library lacks WGPUInstanceFeatureName_ShimReadinessHandle")
        features = (c_uint32 * 2)(INSTANCE_FEATURE_TIMED_WAIT_ANY, INSTANCE_FEATURE_SHIM_READINESS_HANDLE)
        desc = InstanceDescriptor(None, 2, features, None)
        self.instance = self.own("Instance", lib.wgpuCreateInstance(byref(desc)), "wgpuCreateInstance")

        got = {}

        def on_adapter(status, adapter, message, u1, u2):
            got["adapter"] = (status, adapter, ctypes.string_at(message.data, message.length) if message.data else b"")

        cb = RequestAdapterCallback(on_adapter)
        self.keep.append(cb)
        self.wait(lib.wgpuInstanceRequestAdapter(
            self.instance, None, RequestAdapterCallbackInfo(None, CALLBACK_MODE_WAIT_ANY_ONLY, cb, None, None)),
            "RequestAdapter")
        status, adapter, message = got.get("adapter", (0, None, b"no callback"))
        if status != STATUS_SUCCESS:
            raise Failure(f"adapter request: status {status}: {message.decode(errors='replace')}")
        self.adapter = self.own("Adapter", adapter, "RequestAdapter")

        def on_device(status, device, message, u1, u2):
            got["device"] = (status, device, ctypes.string_at(message.data, message.length) if message.data else b"")

        cb = RequestDeviceCallback(on_device)
        self.keep.append(cb)
        self.wait(lib.wgpuAdapterRequestDevice(
            self.adapter, None, RequestDeviceCallbackInfo(None, CALLBACK_MODE_WAIT_ANY_ONLY, cb, None, None)),
            "RequestDevice")
        status, device, message = got.get("device", (0, None, b"no callback"))
        if status != STATUS_SUCCESS:
            raise Failure(f"device request: status {status}: {message.decode(errors='replace')}")
        self.device = self.own("Device", device, "RequestDevice")
        self.queue = self.own("Queue", lib.wgpuDeviceGetQueue(self.device), "wgpuDeviceGetQueue")

    def buffer(self, label, size, usage):
        desc = BufferDescriptor(None, string_view(self.keep, label), usage, size, 0)
        return self.own("Buffer", self.lib.wgpuDeviceCreateBuffer(self.device, byref(desc)), f"buffer {label}")

    def build(self):
        lib = self.lib
        wgsl = ShaderSourceWGSL(ChainedStruct(None, STYPE_SHADER_SOURCE_WGSL), string_view(self.keep, SHADER))
        sdesc = ShaderModuleDescriptor(ctypes.cast(ctypes.pointer(wgsl), c_void_p), string_view(self.keep, "lcg"))
        shader = self.own("ShaderModule", lib.wgpuDeviceCreateShaderModule(self.device, byref(sdesc)),
                          "wgpuDeviceCreateShaderModule")
        pdesc = ComputePipelineDescriptor(
            None, string_view(self.keep, "lcg pipeline"), None,
            ComputeState(None, shader, string_view(self.keep, "main"), 0, None))
        self.pipeline = self.own("ComputePipeline", lib.wgpuDeviceCreateComputePipeline(self.device, byref(pdesc)),
                                 "wgpuDeviceCreateComputePipeline")
        layout = self.own("BindGroupLayout", lib.wgpuComputePipelineGetBindGroupLayout(self.pipeline, 0),
                          "wgpuComputePipelineGetBindGroupLayout")
        self.seeds = self.buffer("seeds", VALUES * 4, BUFFER_USAGE_STORAGE | BUFFER_USAGE_COPY_DST)
        self.results = self.buffer("results", VALUES * 4, BUFFER_USAGE_STORAGE | BUFFER_USAGE_COPY_SRC)
        self.params = self.buffer("params", 16, BUFFER_USAGE_UNIFORM | BUFFER_USAGE_COPY_DST)
        self.readback = self.buffer("readback", VALUES * 4, BUFFER_USAGE_MAP_READ | BUFFER_USAGE_COPY_DST)
        params = (c_uint32 * 4)(ITERATIONS, 0, 0, 0)
        lib.wgpuQueueWriteBuffer(self.queue, self.params, 0, params, sizeof(params))
        entries = (BindGroupEntry * 3)(
            BindGroupEntry(None, 0, self.seeds, 0, WGPU_WHOLE_SIZE, None, None),
            BindGroupEntry(None, 1, self.results, 0, WGPU_WHOLE_SIZE, None, None),
            BindGroupEntry(None, 2, self.params, 0, WGPU_WHOLE_SIZE, None, None))
        bdesc = BindGroupDescriptor(None, StringView(None, WGPU_STRLEN), layout, 3, entries)
        self.group = self.own("BindGroup", lib.wgpuDeviceCreateBindGroup(self.device, byref(bdesc)),
                              "wgpuDeviceCreateBindGroup")

    def submit_job(self, dispatches):
        """Seeds, `dispatches` dispatches and the copy into the read-back buffer: one submission."""
        lib = self.lib
        seeds = (c_uint32 * VALUES)(*[seed(i) for i in range(VALUES)])
        lib.wgpuQueueWriteBuffer(self.queue, self.seeds, 0, seeds, sizeof(seeds))
        enc = lib.wgpuDeviceCreateCommandEncoder(self.device, None)
        pass_ = lib.wgpuCommandEncoderBeginComputePass(enc, None)
        lib.wgpuComputePassEncoderSetPipeline(pass_, self.pipeline)
        lib.wgpuComputePassEncoderSetBindGroup(pass_, 0, self.group, 0, None)
        for _ in range(dispatches):
            lib.wgpuComputePassEncoderDispatchWorkgroups(pass_, 1, 1, 1)
        lib.wgpuComputePassEncoderEnd(pass_)
        lib.wgpuCommandEncoderCopyBufferToBuffer(enc, self.results, 0, self.readback, 0, VALUES * 4)
        cmd = lib.wgpuCommandEncoderFinish(enc, None)
        if not enc or not pass_ or not cmd:
            raise Failure("encoding the job returned NULL")
        lib.wgpuQueueSubmit(self.queue, 1, byref(c_void_p(cmd)))
        lib.wgpuCommandBufferRelease(cmd)
        lib.wgpuComputePassEncoderRelease(pass_)
        lib.wgpuCommandEncoderRelease(enc)

    def time_job(self, dispatches):
        got = []
        cb = QueueWorkDoneCallback(lambda status, message, u1, u2: got.append(status))
        self.keep.append(cb)
        self.submit_job(dispatches)
        t0 = time.perf_counter()
        self.wait(self.lib.wgpuQueueOnSubmittedWorkDone(
            self.queue, QueueWorkDoneCallbackInfo(None, CALLBACK_MODE_WAIT_ANY_ONLY, cb, None, None)),
            "calibration work-done")
        if got != [STATUS_SUCCESS]:
            raise Failure(f"calibration work-done callback: {got}")
        return time.perf_counter() - t0

    def calibrate(self):
        self.time_job(1)  # lets the driver compile the shader
        t = self.time_job(CALIBRATION_DISPATCHES)
        n = int(CALIBRATION_DISPATCHES * TARGET_S / max(t, 1e-4))
        n = max(1, min(MAX_DISPATCHES, n))
        print(f"calibration: {CALIBRATION_DISPATCHES} dispatches took {t * 1e3:.1f} ms; "
              f"using {n} dispatches for ~{TARGET_S * 1e3:.0f} ms")
        return n

    def release(self):
        for name, handle in reversed(self.objects):
            getattr(self.lib, name)(handle)
        self.objects = []


async def await_gpu(gpu, dispatches):
    """Submits the job, then awaits its map and work-done through the readiness fd."""
    lib = gpu.lib
    loop = asyncio.get_running_loop()
    map_done = loop.create_future()
    work_done = loop.create_future()
    calls = {"map": 0, "work-done": 0, "order": []}

    def settle(name, fut, status):
        calls[name] += 1
        calls["order"].append(name)
        if not fut.done():
            fut.set_result(status)

    # The ctypes callback objects must live until the callbacks ran: kept in gpu.keep.
    map_cb = BufferMapCallback(lambda status, message, u1, u2: settle("map", map_done, status))
    work_cb = QueueWorkDoneCallback(lambda status, message, u1, u2: settle("work-done", work_done, status))
    gpu.keep += [map_cb, work_cb]

    fd = lib.wgpuShimInstanceGetReadinessFd(gpu.instance)
    if fd < 0:
        raise Failure(f"wgpuShimInstanceGetReadinessFd returned {fd}")

    gpu.submit_job(dispatches)
    f1 = lib.wgpuBufferMapAsync(gpu.readback, MAP_MODE_READ, 0, VALUES * 4,
                                BufferMapCallbackInfo(None, CALLBACK_MODE_ALLOW_PROCESS_EVENTS, map_cb, None, None))
    f2 = lib.wgpuQueueOnSubmittedWorkDone(
        gpu.queue, QueueWorkDoneCallbackInfo(None, CALLBACK_MODE_ALLOW_PROCESS_EVENTS, work_cb, None, None))
    if not f1.id or not f2.id:
        raise Failure("MapAsync or OnSubmittedWorkDone returned the null future")

    wakeups = {"n": 0}

    def on_readable():
        wakeups["n"] += 1
        lib.wgpuInstanceProcessEvents(gpu.instance)  # runs the callbacks: they resolve the futures

    loop.add_reader(fd, on_readable)
    cpu0 = time.thread_time()
    wall0 = time.perf_counter()
    try:
        map_status, work_status = await asyncio.wait_for(asyncio.gather(map_done, work_done), SAFETY_CAP_S)
    except asyncio.TimeoutError:
        raise Failure(f"no completion within {SAFETY_CAP_S} s: {calls}")
    finally:
        loop.remove_reader(fd)
    cpu = time.thread_time() - cpu0
    wall = time.perf_counter() - wall0

    if select.select([fd], [], [], 0)[0]:
        raise Failure("the readiness fd is still readable after both callbacks ran")
    if calls["map"] != 1 or calls["work-done"] != 1:
        raise Failure(f"callback calls: {calls}")
    if calls["order"] != ["map", "work-done"]:
        raise Failure(f"the work-done callback ran before the earlier map's: {calls['order']}")
    if map_status != STATUS_SUCCESS or work_status != STATUS_SUCCESS:
        raise Failure(f"map status {map_status}, work-done status {work_status}")
    return cpu, wall, wakeups["n"]


def main():
    check_abi()
    try:
        lib, path = load_library()
    except (OSError, AttributeError) as e:
        print(f"asyncio_map: FAILED: cannot use the library: {e}", file=sys.stderr)
        print("FAILED")
        return 1
    print(f"library: {path}")
    gpu = Gpu(lib)
    try:
        gpu.open()
        gpu.build()
        dispatches = gpu.calibrate()
        cpu, wall, wakeups = asyncio.run(await_gpu(gpu, dispatches))

        ptr = lib.wgpuBufferGetConstMappedRange(gpu.readback, 0, VALUES * 4)
        if not ptr:
            raise Failure("wgpuBufferGetConstMappedRange returned NULL")
        data = list((c_uint32 * VALUES).from_address(ptr))
        want = expected_values()
        bad = [i for i in range(VALUES) if data[i] != want[i]]
        for i in bad[:4]:
            print(f"asyncio_map: value {i}: got {data[i]:08x}, expected {want[i]:08x}", file=sys.stderr)
        first = " ".join(f"{v:08x}" for v in data[:4])
        print(f"data: {VALUES} values {'WRONG' if bad else 'OK'}, first: {first}")
        lib.wgpuBufferUnmap(gpu.readback)

        ratio = cpu / wall if wall > 0 else 1.0
        print(f"wait: {wall * 1e3:.1f} ms wall, {cpu * 1e3:.3f} ms CPU on the waiting (main) thread, "
              f"CPU/wall ratio {ratio:.4f}, {wakeups} wakeup(s)")
        if bad:
            raise Failure(f"{len(bad)} of {VALUES} values differ from the CPU's")
        if ratio > MAX_CPU_RATIO:
            raise Failure(f"the waiting thread's CPU/wall ratio {ratio:.4f} is above {MAX_CPU_RATIO}")
    except Failure as e:
        print(f"asyncio_map: FAILED: {e}", file=sys.stderr)
        print("FAILED")
        return 1
    finally:
        gpu.release()
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
