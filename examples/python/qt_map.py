#!/usr/bin/env python3
"""wgpu-shim in a Qt event loop (PySide6), through ctypes.

The instance has wgpu-shim's ShimReadinessHandle feature: the descriptor from
wgpuShimInstanceGetReadinessFd is readable exactly while
wgpuInstanceProcessEvents has callbacks to run. A QSocketNotifier watches it:

    notifier = QSocketNotifier(fd, QSocketNotifier.Type.Read)
    notifier.activated.connect(lambda: lib.wgpuInstanceProcessEvents(instance))

and every AllowProcessEvents callback then runs inside ProcessEvents, in the
Qt loop's thread. A ~200 ms GPU job (a buffer map and a queue work-done) ends
while the loop runs the application's own 16 ms timer (a frame timer: it
never calls ProcessEvents); the callbacks arrive through the notifier alone.

    qt_map.py [--release-while-watched]

With --release-while-watched it instead releases the instance from a timer
slot while the job runs and the notifier is still enabled, and checks what
the application sees (docs/ASYNC.md, "Releasing the instance while a loop
watches"):
  - the pending callbacks run inside wgpuInstanceRelease, in that slot, with
    status CallbackCancelled;
  - the notifier never fires again while the instance's adapter or device
    is alive (the descriptor stays open and unreadable);
  - the last release of those closes the descriptor: Qt's poll then reports
    it invalid, and Qt disables the notifier itself with the warning
    "QSocketNotifier: Invalid socket"; the loop goes on, without spinning.
    (Disable the notifier before that release: a descriptor number the
    process reuses later would otherwise be watched in its place.)

Run with QT_QPA_PLATFORM=offscreen where there is no display (it makes a
QGuiApplication, as a rendering application does). Exit status 0 when every
check held; 1 otherwise. The ctypes declarations, the device and the GPU job
are those of asyncio_map.py beside this file; the library is found as there
(WGPU_SHIM_LIBRARY, else <repo>/target/release/libwgpu_shim.so).
"""

import ctypes
import select
import sys
import threading
import time
from pathlib import Path

from PySide6.QtCore import QSocketNotifier, QTimer, qInstallMessageHandler
from PySide6.QtGui import QGuiApplication

sys.path.insert(0, str(Path(__file__).resolve().parent))
from asyncio_map import (  # noqa: E402 - the ctypes plumbing of the asyncio example
    CALLBACK_MODE_ALLOW_PROCESS_EVENTS, MAP_MODE_READ, MAX_CPU_RATIO, SAFETY_CAP_S, STATUS_SUCCESS, VALUES,
    BufferMapCallback, BufferMapCallbackInfo, Failure, Gpu, QueueWorkDoneCallback, QueueWorkDoneCallbackInfo,
    check_abi, expected_values, load_library)

STATUS_CALLBACK_CANCELLED = 2  # CallbackCancelled of WGPUMapAsyncStatus and WGPUQueueWorkDoneStatus
FRAME_MS = 16


class Watch:
    """The notifier on the readiness descriptor, and what happened in the loop."""

    def __init__(self, app, gpu):
        self.app, self.gpu = app, gpu
        self.loop_thread = threading.get_ident()
        self.fd = gpu.lib.wgpuShimInstanceGetReadinessFd(gpu.instance)
        if self.fd < 0:
            raise Failure(f"wgpuShimInstanceGetReadinessFd returned {self.fd}")
        self.calls = []           # (name, status, thread, inside the notifier's slot)
        self.activations = 0
        self.in_slot = False
        self.ticks = 0
        self.warnings = []
        self.notifier = QSocketNotifier(self.fd, QSocketNotifier.Type.Read)
        self.notifier.activated.connect(self.on_readable)
        self.frames = QTimer()    # the application's frame timer
        self.frames.timeout.connect(self.on_frame)
        self.frames.start(FRAME_MS)
        qInstallMessageHandler(lambda mode, context, message: self.warnings.append(message))

    def on_readable(self):
        self.activations += 1
        self.in_slot = True
        self.gpu.lib.wgpuInstanceProcessEvents(self.gpu.instance)   # runs the ready callbacks
        self.in_slot = False

    def on_frame(self):
        self.ticks += 1

    def callback(self, name):
        def settle(status, message, userdata1, userdata2):
            self.calls.append((name, status, threading.get_ident(), self.in_slot))
            if len(self.calls) == 2:
                self.app.quit()
        return settle

    def start_job(self, dispatches):
        gpu, lib = self.gpu, self.gpu.lib
        map_cb, done_cb = BufferMapCallback(self.callback("map")), QueueWorkDoneCallback(self.callback("work-done"))
        gpu.keep += [map_cb, done_cb]    # ctypes callbacks must outlive the calls
        gpu.submit_job(dispatches)
        f1 = lib.wgpuBufferMapAsync(gpu.readback, MAP_MODE_READ, 0, VALUES * 4,
                                    BufferMapCallbackInfo(None, CALLBACK_MODE_ALLOW_PROCESS_EVENTS, map_cb, None, None))
        f2 = lib.wgpuQueueOnSubmittedWorkDone(
            gpu.queue, QueueWorkDoneCallbackInfo(None, CALLBACK_MODE_ALLOW_PROCESS_EVENTS, done_cb, None, None))
        if not f1.id or not f2.id:
            raise Failure("MapAsync or OnSubmittedWorkDone returned the null future")

    def run_loop(self, limit_s):
        """app.exec() until quit or `limit_s`; returns (loop thread CPU, wall) in seconds."""
        cap = QTimer.singleShot(int(limit_s * 1000), self.app.quit)
        del cap
        cpu0, wall0 = time.thread_time(), time.perf_counter()
        self.app.exec()
        return time.thread_time() - cpu0, time.perf_counter() - wall0

    def check_calls(self, status, inside_notifier):
        names = [c[0] for c in self.calls]
        if names != ["map", "work-done"]:
            raise Failure(f"callbacks ran as {names}, expected map and work-done once each, in that order")
        for name, got, thread, in_slot in self.calls:
            if got != status:
                raise Failure(f"{name} callback status {got}, expected {status}")
            if thread != self.loop_thread:
                raise Failure(f"the {name} callback ran off the loop's thread")
            if in_slot != inside_notifier:
                raise Failure(f"the {name} callback ran {'outside' if inside_notifier else 'inside'} "
                              f"the notifier's slot")


def readable(fd):
    return bool(select.select([fd], [], [], 0)[0])


def await_job(app, gpu, dispatches, job_s):
    watch = Watch(app, gpu)
    watch.start_job(dispatches)
    cpu, wall = watch.run_loop(SAFETY_CAP_S)
    if len(watch.calls) < 2:
        raise Failure(f"no completion within {SAFETY_CAP_S} s: {watch.calls}")
    watch.check_calls(STATUS_SUCCESS, inside_notifier=True)
    if readable(watch.fd):
        raise Failure("the readiness fd is still readable after both callbacks ran")
    watch.notifier.setEnabled(False)    # before the instance goes (see the docstring)
    watch.frames.stop()

    ptr = gpu.lib.wgpuBufferGetConstMappedRange(gpu.readback, 0, VALUES * 4)
    if not ptr:
        raise Failure("wgpuBufferGetConstMappedRange returned NULL")
    data = list((ctypes.c_uint32 * VALUES).from_address(ptr))
    bad = sum(a != b for a, b in zip(data, expected_values()))
    print(f"data: {VALUES} values {'WRONG' if bad else 'OK'}, first: {' '.join(f'{v:08x}' for v in data[:4])}")
    gpu.lib.wgpuBufferUnmap(gpu.readback)
    ratio = cpu / wall if wall > 0 else 1.0
    print("callbacks: map and work-done once each, in that order, on the loop thread "
          f"(inside the notifier's slot, {watch.activations} activation(s); {watch.ticks} frame timer ticks meanwhile)")
    if watch.activations != 1:
        print(f"note: {watch.activations} notifier activations for two callbacks (the job's two completions were "
              f"apart)", file=sys.stderr)
    print(f"wait: {wall * 1e3:.1f} ms wall (the same job under a blocking wgpuInstanceWaitAny: {job_s * 1e3:.1f} ms), "
          f"{cpu * 1e3:.3f} ms CPU on the loop thread, CPU/wall ratio {ratio:.4f}")
    if bad:
        raise Failure(f"{bad} of {VALUES} values differ from the CPU's")
    if watch.ticks < 2:
        raise Failure(f"the frame timer ticked {watch.ticks} time(s) during the job: the loop was not running")
    if ratio > MAX_CPU_RATIO:
        raise Failure(f"the loop thread's CPU/wall ratio {ratio:.4f} is above {MAX_CPU_RATIO}")


def release_while_watched(app, gpu, dispatches, job_s):
    lib = gpu.lib
    watch = Watch(app, gpu)
    seen = {}

    def release_instance():             # a slot of the loop, while the job runs
        seen["before"] = list(watch.calls)
        gpu.objects = [o for o in gpu.objects if o[1] != gpu.instance]
        lib.wgpuInstanceRelease(gpu.instance)
        seen["activations"] = watch.activations
        app.quit()

    watch.start_job(dispatches)
    QTimer.singleShot(50, release_instance)
    watch.run_loop(SAFETY_CAP_S)
    if seen.get("before") != []:
        raise Failure(f"callbacks before the release: {seen.get('before')}")
    watch.check_calls(STATUS_CALLBACK_CANCELLED, inside_notifier=False)

    # The job ends meanwhile: the notifier stays quiet.
    cpu, wall = watch.run_loop(3 * job_s + 0.1)
    if watch.activations != seen["activations"] or readable(watch.fd):
        raise Failure(f"the notifier fired {watch.activations - seen['activations']} time(s) after the release")

    # The last objects go with the notifier still enabled: the descriptor closes under it.
    gpu.release()
    ticks = watch.ticks
    cpu2, wall2 = watch.run_loop(0.2)
    invalid = [w for w in watch.warnings if "Invalid socket" in w]
    if len(watch.calls) != 2:
        raise Failure(f"callbacks ran again after the release: {watch.calls}")
    if watch.notifier.isEnabled() or not invalid:
        raise Failure(f"after the descriptor closed: notifier enabled {watch.notifier.isEnabled()}, "
                      f"Qt's messages {watch.warnings}")
    if watch.ticks - ticks < 2 or cpu2 / wall2 > MAX_CPU_RATIO:
        raise Failure(f"the loop after the close: {watch.ticks - ticks} ticks, CPU/wall {cpu2 / wall2:.4f}")
    print(f"release while watched: map and work-done CallbackCancelled inside wgpuInstanceRelease on the loop "
          f"thread; the notifier stayed quiet for {wall * 1e3:.0f} ms ({cpu * 1e3:.3f} ms loop CPU); after the last "
          f"release Qt disabled it ({invalid[0]!r}) and the loop ran on (CPU/wall {cpu2 / wall2:.4f})")


def main(argv):
    if set(argv) - {"--release-while-watched"}:
        print(__doc__.split("\n\n")[3], file=sys.stderr)
        return 2
    check_abi()
    app = QGuiApplication(["qt_map"])
    gpu = None
    try:
        lib, path = load_library()
        print(f"library: {path}\nQt platform: {app.platformName()}")
        gpu = Gpu(lib)
        gpu.open()
        gpu.build()
        dispatches = gpu.calibrate()
        job_s = gpu.time_job(dispatches)
        if "--release-while-watched" in argv:
            release_while_watched(app, gpu, dispatches, job_s)
        else:
            await_job(app, gpu, dispatches, job_s)
    except Exception as e:  # noqa: BLE001 - Failure, or a library that will not load
        print(f"qt_map: FAILED: {type(e).__name__}: {e}", file=sys.stderr)
        print("FAILED")
        return 1
    finally:
        if gpu:
            gpu.release()
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
