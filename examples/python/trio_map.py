#!/usr/bin/env python3
"""wgpu-shim from trio, and from anyio on either of its backends, through ctypes.

The instance has wgpu-shim's ShimReadinessHandle feature: the descriptor from
wgpuShimInstanceGetReadinessFd is readable exactly while
wgpuInstanceProcessEvents has callbacks to run. One task of the loop does

    while True:
        await trio.lowlevel.wait_readable(fd)     # or anyio.wait_readable(fd)
        lib.wgpuInstanceProcessEvents(instance)

and every AllowProcessEvents callback then runs inside ProcessEvents, on the
loop's thread, where it may set a trio.Event (or an anyio.Event). A coroutine
awaits a buffer map and a queue work-done of a ~200 ms GPU job while the loop
sleeps in the kernel: no polling timer, no helper thread.

    trio_map.py [trio | anyio-asyncio | anyio-trio] [--release-while-watched]

The first argument picks the loop: trio itself (the default), or anyio's API
run on its asyncio or its trio backend; the code is the same for all three
(the LOOPS table below). With --release-while-watched it instead releases the
instance while the job runs and the loop still waits on the descriptor, and
checks what a binding sees then (docs/ASYNC.md, "Releasing the instance while
a loop watches"):
  - the pending callbacks run inside wgpuInstanceRelease, on the thread that
    called it, with status CallbackCancelled;
  - the descriptor stays open but never becomes readable again (the waiting
    task stays asleep) while the instance's adapter or device is alive;
  - the last release of those closes it: call trio.lowlevel.notify_closing(fd)
    (anyio.notify_closing) before that release, and the waiting task gets
    ClosedResourceError instead of waiting on a closed descriptor forever.

Exit status 0 when every check held (the data matched, each callback ran once
on the loop's thread, the loop thread's CPU/wall during the await was at most
0.05); 1 otherwise. The ctypes declarations, the device and the GPU job are
those of asyncio_map.py beside this file; the library is found as there
(WGPU_SHIM_LIBRARY, else <repo>/target/release/libwgpu_shim.so).
"""

import ctypes
import select
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent))
from asyncio_map import (  # noqa: E402 - the ctypes plumbing of the asyncio example
    CALLBACK_MODE_ALLOW_PROCESS_EVENTS, MAP_MODE_READ, MAX_CPU_RATIO, SAFETY_CAP_S, STATUS_SUCCESS, VALUES,
    BufferMapCallback, BufferMapCallbackInfo, Failure, Gpu, QueueWorkDoneCallback, QueueWorkDoneCallbackInfo,
    check_abi, expected_values, load_library)

STATUS_CALLBACK_CANCELLED = 2  # CallbackCancelled of WGPUMapAsyncStatus and WGPUQueueWorkDoneStatus


def trio_loop():
    import trio
    return SimpleNamespace(
        run=trio.run, Event=trio.Event, task_group=trio.open_nursery, sleep=trio.sleep, fail_after=trio.fail_after,
        wait_readable=trio.lowlevel.wait_readable, notify_closing=trio.lowlevel.notify_closing,
        ClosedResourceError=trio.ClosedResourceError)


def anyio_loop(backend):
    import anyio
    return SimpleNamespace(
        run=lambda fn, *args: anyio.run(fn, *args, backend=backend), Event=anyio.Event,
        task_group=anyio.create_task_group, sleep=anyio.sleep, fail_after=anyio.fail_after,
        wait_readable=anyio.wait_readable, notify_closing=anyio.notify_closing,
        ClosedResourceError=anyio.ClosedResourceError)


LOOPS = {
    "trio": trio_loop,
    "anyio-asyncio": lambda: anyio_loop("asyncio"),
    "anyio-trio": lambda: anyio_loop("trio"),
}


class GpuFuture:
    """The result of one webgpu.h callback, awaitable on the loop."""

    def __init__(self, aio, name, log):
        self.event = aio.Event()
        self.name = name
        self.log = log            # shared list: (name, thread id) per call, in call order
        self.status = None

    def settle(self, status, message, userdata1, userdata2):
        self.log.append((self.name, threading.get_ident()))
        self.status = status
        self.event.set()          # we are on the loop thread (inside ProcessEvents)

    async def wait(self):
        await self.event.wait()
        return self.status


async def pump(lib, instance, fd, aio, stats):
    """The whole integration: ProcessEvents whenever the descriptor is readable."""
    try:
        while True:
            await aio.wait_readable(fd)
            stats["wakeups"] += 1
            lib.wgpuInstanceProcessEvents(instance)   # runs the ready callbacks, clears the fd
    except aio.ClosedResourceError:
        stats["closed"] = True                       # notify_closing(fd): the instance is going away


def start_job(gpu, aio, dispatches, log):
    """Submits the job, then MapAsync and OnSubmittedWorkDone in AllowProcessEvents mode."""
    lib = gpu.lib
    mapped, done = GpuFuture(aio, "map", log), GpuFuture(aio, "work-done", log)
    map_cb, done_cb = BufferMapCallback(mapped.settle), QueueWorkDoneCallback(done.settle)
    gpu.keep += [map_cb, done_cb]    # ctypes callbacks must outlive the calls
    gpu.submit_job(dispatches)
    f1 = lib.wgpuBufferMapAsync(gpu.readback, MAP_MODE_READ, 0, VALUES * 4,
                                BufferMapCallbackInfo(None, CALLBACK_MODE_ALLOW_PROCESS_EVENTS, map_cb, None, None))
    f2 = lib.wgpuQueueOnSubmittedWorkDone(
        gpu.queue, QueueWorkDoneCallbackInfo(None, CALLBACK_MODE_ALLOW_PROCESS_EVENTS, done_cb, None, None))
    if not f1.id or not f2.id:
        raise Failure("MapAsync or OnSubmittedWorkDone returned the null future")
    return mapped, done


def readiness_fd(gpu):
    fd = gpu.lib.wgpuShimInstanceGetReadinessFd(gpu.instance)
    if fd < 0:
        raise Failure(f"wgpuShimInstanceGetReadinessFd returned {fd}")
    return fd


def readable(fd):
    return bool(select.select([fd], [], [], 0)[0])


def check_calls(log, loop_thread, want=("map", "work-done")):
    names = [name for name, _ in log]
    if names != list(want):
        raise Failure(f"callbacks ran as {names}, expected each of {list(want)} once, in that order")
    others = [name for name, thread in log if thread != loop_thread]
    if others:
        raise Failure(f"callbacks {others} ran off the loop's thread")


async def await_gpu(gpu, dispatches, aio):
    """The GPU job awaited by a coroutine; returns (cpu, wall, wakeups)."""
    loop_thread = threading.get_ident()
    fd = readiness_fd(gpu)
    log, stats = [], {"wakeups": 0, "closed": False}
    async with aio.task_group() as tasks:
        tasks.start_soon(pump, gpu.lib, gpu.instance, fd, aio, stats)
        mapped, done = start_job(gpu, aio, dispatches, log)
        cpu0, wall0 = time.thread_time(), time.perf_counter()
        with aio.fail_after(SAFETY_CAP_S):
            map_status = await mapped.wait()
            work_status = await done.wait()
        cpu, wall = time.thread_time() - cpu0, time.perf_counter() - wall0
        tasks.cancel_scope.cancel()     # stops the pump
    if readable(fd):
        raise Failure("the readiness fd is still readable after both callbacks ran")
    check_calls(log, loop_thread)
    if map_status != STATUS_SUCCESS or work_status != STATUS_SUCCESS:
        raise Failure(f"map status {map_status}, work-done status {work_status}")
    return cpu, wall, stats["wakeups"]


async def release_while_watched(gpu, dispatches, job_s, aio):
    """Bad input: the instance released while the job runs and the pump waits on its fd."""
    loop_thread = threading.get_ident()
    lib = gpu.lib
    fd = readiness_fd(gpu)
    log, stats = [], {"wakeups": 0, "closed": False}
    async with aio.task_group() as tasks:
        tasks.start_soon(pump, lib, gpu.instance, fd, aio, stats)
        mapped, done = start_job(gpu, aio, dispatches, log)
        await aio.sleep(0.05)                        # the job is running; the pump is asleep
        if log:
            raise Failure(f"callbacks ran before the job could have ended: {log}")
        gpu.objects = [o for o in gpu.objects if o[1] != gpu.instance]
        lib.wgpuInstanceRelease(gpu.instance)        # the last reference of the instance
        # 1. The pending callbacks ran inside the release, here, cancelled.
        check_calls(log, loop_thread)
        if (mapped.status, done.status) != (STATUS_CALLBACK_CANCELLED, STATUS_CALLBACK_CANCELLED):
            raise Failure(f"statuses after the release: map {mapped.status}, work-done {done.status}; "
                          f"expected CallbackCancelled ({STATUS_CALLBACK_CANCELLED})")
        # 2. The job ends meanwhile; the fd stays quiet and the pump asleep.
        wakeups = stats["wakeups"]
        cpu0, wall0 = time.thread_time(), time.perf_counter()
        await aio.sleep(3 * job_s + 0.1)
        cpu, wall = time.thread_time() - cpu0, time.perf_counter() - wall0
        if readable(fd) or stats["wakeups"] != wakeups:
            raise Failure(f"the fd became readable after the release ({stats['wakeups'] - wakeups} wakeups)")
        # 3. The last objects go, and the fd with them: the pump is told first.
        aio.notify_closing(fd)
        gpu.release()
        await aio.sleep(0.05)
        if not stats["closed"]:
            raise Failure("the pump did not get ClosedResourceError after notify_closing")
        tasks.cancel_scope.cancel()
    if log != [("map", loop_thread), ("work-done", loop_thread)]:
        raise Failure(f"callbacks ran again after the release: {log}")
    print(f"release while watched: map and work-done CallbackCancelled inside wgpuInstanceRelease on the loop "
          f"thread; the fd stayed unreadable for {wall * 1e3:.0f} ms ({cpu * 1e3:.3f} ms loop CPU, 0 wakeups); "
          f"after notify_closing and the last release the pump got ClosedResourceError")


def run(loop_name, bad_input):
    aio = LOOPS[loop_name]()
    lib, path = load_library()
    print(f"library: {path}\nloop: {loop_name}")
    gpu = Gpu(lib)
    try:
        gpu.open()
        gpu.build()
        dispatches = gpu.calibrate()
        job_s = gpu.time_job(dispatches)
        if bad_input:
            aio.run(release_while_watched, gpu, dispatches, job_s, aio)
            return
        cpu, wall, wakeups = aio.run(await_gpu, gpu, dispatches, aio)
        ptr = lib.wgpuBufferGetConstMappedRange(gpu.readback, 0, VALUES * 4)
        if not ptr:
            raise Failure("wgpuBufferGetConstMappedRange returned NULL")
        data = list((ctypes.c_uint32 * VALUES).from_address(ptr))
        bad = sum(a != b for a, b in zip(data, expected_values()))
        print(f"data: {VALUES} values {'WRONG' if bad else 'OK'}, first: {' '.join(f'{v:08x}' for v in data[:4])}")
        lib.wgpuBufferUnmap(gpu.readback)
        ratio = cpu / wall if wall > 0 else 1.0
        print("callbacks: map and work-done once each, in that order, on the loop thread")
        print(f"wait: {wall * 1e3:.1f} ms wall (the same job under a blocking wgpuInstanceWaitAny: "
              f"{job_s * 1e3:.1f} ms), {cpu * 1e3:.3f} ms CPU on the loop thread, "
              f"CPU/wall ratio {ratio:.4f}, {wakeups} wakeup(s)")
        if bad:
            raise Failure(f"{bad} of {VALUES} values differ from the CPU's")
        if ratio > MAX_CPU_RATIO:
            raise Failure(f"the loop thread's CPU/wall ratio {ratio:.4f} is above {MAX_CPU_RATIO}")
    finally:
        gpu.release()


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    loop_name = args[0] if args else "trio"
    if loop_name not in LOOPS or set(argv) - set(args) - {"--release-while-watched"}:
        print(__doc__.split("\n\n")[2], file=sys.stderr)
        return 2
    check_abi()
    try:
        run(loop_name, "--release-while-watched" in argv)
    except Exception as e:  # noqa: BLE001 - Failure, a library that will not load, a loop's TimeoutError
        print(f"trio_map: FAILED: {type(e).__name__}: {e}", file=sys.stderr)
        print("FAILED")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
