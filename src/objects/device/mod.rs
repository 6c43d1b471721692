//! `WGPUDevice`: creation, loss and destruction, error reporting, queries.

pub(crate) mod direct_wait;

use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::id::{DeviceId, QueueId};
use wgpu_types as wgt;

use crate::abi::*;
use crate::engine::progress::{DeviceLocks, Progress};
use crate::engine::tracking::Tracker;
use crate::ffi::boundary::{self, call, refcounted, set_label};
use crate::ffi::callback::{SendFn, UserData};
use crate::ffi::handle::{Handle, Object};
use crate::futures::{Completer, Mode, Outcome, Source};
use crate::objects::adapter::Adapter;
use crate::objects::buffer::Buffer;
use crate::objects::device::direct_wait::FenceWake;
use crate::objects::instance::Instance;
use crate::objects::queue::work_done::WorkDone;

type LostResult = (WGPUDeviceLostReason, String);

/// State the device-lost callback reads when it runs, kept apart from the
/// device so a pending callback does not keep the device alive.
struct LostShared {
    /// The application's handle while it holds one; NULL after the last
    /// release (the lost callback then sees a NULL device).
    handle: AtomicPtr<WGPUDeviceImpl>,
    /// The last release destroyed the device under wgpu-native
    /// compatibility: the `Destroyed` loss it causes calls no callback
    /// (`compat::Rule::SilentDeviceRelease`).
    silent: AtomicBool,
}

/// A `WGPUDevice` (and its one queue's wgpu-core id).
#[repr(C)]
pub(crate) struct Device {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) instance: Arc<Instance>,
    pub(crate) adapter: Arc<Adapter>,
    pub(crate) id: DeviceId,
    pub(crate) queue_id: QueueId,
    /// Identifies this device's queue as a future source.
    pub(crate) serial: u64,
    pub(crate) label: Mutex<String>,
    pub(crate) features: wgt::Features,
    pub(crate) limits: wgt::Limits,
    pub(crate) progress: Arc<Progress>,
    /// Work-done futures of the queue, batched.
    pub(crate) work_done: Arc<WorkDone>,
    /// The fence and wake semaphore WaitAny sleeps on, where the driver
    /// allows (`direct_wait.rs`). Owned here alone (a sleeper reaches it
    /// through its reference to the device), so it is destroyed in
    /// [`Device::drop`], before the wgpu-core device.
    pub(crate) fence_wake: Option<FenceWake>,
    /// Its maintenance and poll locks (see [`DeviceLocks`]).
    pub(crate) locks: Arc<DeviceLocks>,
    lost: AtomicBool,
    /// Set by the application's last release. The instance's device list
    /// reads it without upgrading its weak reference (see
    /// `Instance::polled_devices`).
    pub(crate) released: Arc<AtomicBool>,
    shared: Arc<LostShared>,
    lost_completer: Mutex<Option<Completer<LostResult>>>,
    lost_future: WGPUFuture,
    uncaptured: Option<(SendFn<WGPUUncapturedErrorCallback>, UserData)>,
    /// The queue object `wgpuDeviceGetQueue` hands out, while it lives.
    queue: Mutex<std::sync::Weak<crate::objects::queue::Queue>>,
    /// The live buffers of this device that were ever mapped or asked to
    /// be: destroy must unmap them and abort their maps. (wgpu-core itself
    /// frees the memory of every buffer and texture of a destroyed device.)
    pub(crate) mappable_buffers: Tracker<Buffer>,
}

impl Object for Device {
    type Raw = WGPUDeviceImpl;
    const NAME: &'static str = "WGPUDevice";
    const HEADER_OFFSET: usize = std::mem::offset_of!(Device, header);

    /// The last release destroys the device; its lost callback sees NULL.
    fn last_release(this: &Arc<Self>, _handle: *mut WGPUDeviceImpl) {
        this.released.store(true, Ordering::Release);
        this.shared.handle.store(std::ptr::null_mut(), Ordering::Release);
        // wgpu-native drops a released device without calling its lost
        // callback (wgpu-py logs an error for every lost callback).
        if !this.is_lost() && crate::compat::allows(crate::compat::Rule::SilentDeviceRelease) {
            this.shared.silent.store(true, Ordering::Release);
        }
        this.destroy();
    }
}

refcounted!(Device, WGPUDevice, wgpuDeviceAddRef, wgpuDeviceRelease);
set_label!(Device, WGPUDevice, wgpuDeviceSetLabel);

impl Device {
    /// Creates the device described by `desc` from `adapter`.
    ///
    /// # Safety
    /// The descriptor's pointers are valid.
    pub(crate) unsafe fn create(
        adapter: &Arc<Adapter>,
        desc: &WGPUDeviceDescriptor,
        lost_mode: Mode,
    ) -> Result<Arc<Device>, String> {
        if crate::ffi::exit::detached() {
            return Err(crate::objects::adapter::EXITING.to_owned());
        }
        // SAFETY: the descriptor's pointers are valid (caller).
        let (label, features, req_limits) = unsafe {
            crate::conv::native_chain::device_extras(desc.nextInChain).map_err(|r| r.0)?;
            crate::ffi::chain_walk::expect_none(desc.defaultQueue.nextInChain, "WGPUQueueDescriptor")
                .map_err(|r| r.0)?;
            (
                boundary::label_arg(desc.label, "label").map_err(|r| r.0)?,
                boundary::slice_arg(desc.requiredFeatures, desc.requiredFeatureCount, "requiredFeatures")
                    .map_err(|r| r.0)?,
                desc.requiredLimits.as_ref(),
            )
        };
        let features = crate::conv::device::required_features(features, adapter.features())?;
        let limits = crate::conv::device::required_limits(req_limits, &adapter.limits())?;
        let wgt_desc = wgt::DeviceDescriptor {
            label: crate::conv::label(&label).map(|l| std::borrow::Cow::Owned(l.into_owned())),
            required_features: features,
            required_limits: limits.clone(),
            ..Default::default()
        };
        let instance = adapter.instance.clone();
        let (id, queue_id) = crate::engine::drivers::pinning(|| open_device(&instance.global, adapter.id, &wgt_desc))?;

        let serial = instance.next_device_serial();
        let shared =
            Arc::new(LostShared { handle: AtomicPtr::new(std::ptr::null_mut()), silent: AtomicBool::new(false) });
        let (lost_future, lost_completer) = register_lost(&instance, &desc.deviceLostCallbackInfo, lost_mode, &shared);
        let global = instance.global.clone();
        let locks = DeviceLocks::new();
        let cpu_adapter = instance.global.adapter_get_info(adapter.id).device_type == wgt::DeviceType::Cpu;
        let spin = Arc::new(crate::engine::spin::Spin::new(cpu_adapter, instance.spin_cap_ns.clone()));
        let progress = Progress::start(
            global.clone(),
            id,
            locks.clone(),
            spin,
            label.clone(),
            Box::new(move || {
                global.queue_drop(queue_id);
                global.device_drop(id);
            }),
        );
        let fence_wake = FenceWake::new(&instance.global, id, cpu_adapter);
        let cb = &desc.uncapturedErrorCallbackInfo;
        let uncaptured = cb.callback.map(|f| (SendFn(Some(f)), UserData(cb.userdata1, cb.userdata2)));
        let device = Arc::new(Device {
            header: Default::default(),
            instance,
            adapter: adapter.clone(),
            id,
            queue_id,
            serial,
            label: Mutex::new(label),
            features,
            limits,
            progress,
            work_done: WorkDone::new(),
            fence_wake,
            locks,
            lost: AtomicBool::new(false),
            released: Arc::new(AtomicBool::new(false)),
            shared,
            lost_completer: Mutex::new(Some(lost_completer)),
            lost_future,
            uncaptured,
            queue: Mutex::new(std::sync::Weak::new()),
            mappable_buffers: Tracker::default(),
        });
        device.instance.track_device(&device);
        // Loss that wgpu-core detects (driver failure) reaches us here.
        let weak = Arc::downgrade(&device);
        device.global().device_set_device_lost_closure(
            id,
            Box::new(move |reason, message| {
                if let Some(device) = weak.upgrade() {
                    let reason = match reason {
                        wgt::DeviceLostReason::Destroyed => WGPUDeviceLostReason::Destroyed,
                        _ => WGPUDeviceLostReason::Unknown,
                    };
                    device.lose(reason, message);
                }
            }),
        );
        Ok(device)
    }

    /// The wgpu-core hub this device lives in.
    pub(crate) fn global(&self) -> &wgpu_core::global::Global {
        &self.instance.global
    }

    /// Records the application's handle (for callbacks' device pointer).
    pub(crate) fn set_handle(&self, raw: *mut WGPUDeviceImpl) {
        self.shared.handle.store(raw, Ordering::Release);
    }

    /// The handle to pass to callbacks (NULL once the application released
    /// the device).
    pub(crate) fn handle(&self) -> *mut WGPUDeviceImpl {
        self.shared.handle.load(Ordering::Acquire)
    }

    pub(crate) fn is_lost(&self) -> bool {
        self.lost.load(Ordering::Acquire)
    }

    /// Marks the device lost and completes its lost future, once. After
    /// this no uncaptured error is reported.
    pub(crate) fn lose(&self, reason: WGPUDeviceLostReason, message: String) {
        if self.lost.swap(true, Ordering::AcqRel) {
            return;
        }
        log::debug!(target: "wgpu_shim", "device {:?} lost: {message}", self.label.lock());
        if let Some(completer) = self.lost_completer.lock().take() {
            completer.complete((reason, message));
        }
    }

    /// `wgpuDeviceDestroy`: destroys every buffer (unmapping it and
    /// aborting a pending map) and texture, destroys the wgpu-core device,
    /// and loses the device (`Destroyed`).
    ///
    /// Only buffers that were ever mapped hold state of ours; they are
    /// destroyed here. wgpu-core destroys every buffer and texture of a
    /// destroyed device (frees their memory) at the first maintenance that
    /// finds its queue empty; if work is still in flight, the progress thread
    /// keeps polling until then.
    pub(crate) fn destroy(&self) {
        let buffers = self.mappable_buffers.live();
        for buffer in buffers {
            buffer.destroy();
        }
        if !self.is_lost() {
            self.global().device_destroy(self.id);
        }
        self.lose(WGPUDeviceLostReason::Destroyed, "the device was destroyed".into());
        match self.locks.poll(self.global(), self.id) {
            Ok(wgt::PollStatus::QueueEmpty) => {}
            status => {
                log::trace!(target: "wgpu_shim", "device destroyed with work in flight ({status:?})");
                /// Ends the progress operation when wgpu-core runs or drops
                /// the closure.
                struct EndOp(Arc<Progress>);
                impl Drop for EndOp {
                    fn drop(&mut self) {
                        self.0.end_op();
                    }
                }
                self.progress.begin_op(true);
                let end = EndOp(self.progress.clone());
                self.global().queue_on_submitted_work_done(self.queue_id, Box::new(move || drop(end)));
            }
        }
    }

    /// Whether an operation whose callback has `mode` needs the progress
    /// thread to move the device on: a spontaneous callback must arrive
    /// without polling, and an event loop waits on the readiness handle.
    /// Otherwise only the application's own calls can deliver the callback
    /// and they move the device themselves: ProcessEvents and
    /// `wgpuDevicePoll` poll it, WaitAny sleeps on the fence and polls, and a
    /// WaitAny that cannot (a device without direct waits, such as a CPU
    /// adapter, or a wait across several queues) kicks the thread once and
    /// sleeps on the registry while it polls.
    pub(crate) fn wants_progress(&self, mode: Mode) -> bool {
        mode == Mode::AllowSpontaneous || self.instance.registry.has_readiness()
    }

    /// Runs wgpu-core's maintenance once without waiting: completes work
    /// that needs no GPU progress (a map of an idle buffer, a work-done with
    /// nothing in flight) right away, in the calling thread.
    /// Moves the device on for a waiter: wakes its progress thread, or,
    /// where none polls (`Progress::kick`), polls here; whether the thread
    /// will.
    pub(crate) fn kick_or_poll(&self) -> bool {
        if self.progress.take_unpolled() {
            // Work that needs no GPU progress completes here, on the
            // waiter's thread, without a thread hop.
            self.poll_now_taken();
        }
        if self.progress.kick() {
            return true;
        }
        self.poll_now();
        false
    }

    /// The exit barrier's part (`engine::exit`): waits, bounded, for the
    /// submitted work, so that none is in flight when the driver goes. The
    /// callbacks it completes are not run here: the instance's close hands
    /// them to the next API call.
    #[cfg_attr(windows, allow(dead_code))] // The exit barrier's work, which Windows skips (exit.rs).
    pub(crate) fn drain_at_exit(&self) {
        if !self.is_lost() && !self.locks.drain(self.global(), self.id, DRAIN_AT_EXIT) {
            log::warn!(target: "wgpu_shim", "exit: device {:?} still had work in flight after {DRAIN_AT_EXIT:?}", self.label.lock());
        }
        // From here wgpu-core refuses new work on the device before reaching
        // the driver, and reports nothing: the device counts as lost (its
        // lost callback runs with CallbackCancelled when the instance
        // closes).
        self.global().device_destroy(self.id);
        self.lost.store(true, Ordering::Release);
    }

    /// Polls the device once, without waiting.
    pub(crate) fn poll_now(&self) {
        self.progress.poll_device(self.global(), self.id, &self.locks);
    }

    /// [`Device::poll_now`] once the unpolled mark is taken.
    fn poll_now_taken(&self) {
        self.locks.poll_or_log(self.global(), self.id);
    }

    /// Loses the device as a driver failure would (injected faults,
    /// `engine::fault`): it is marked lost with reason Unknown (its lost
    /// callback), wgpu-core's device is destroyed, and so is every buffer
    /// (pending maps abort).
    pub(crate) fn lose_as_driver_would(&self) {
        self.lose(WGPUDeviceLostReason::Unknown, "the device was lost (injected fault)".into());
        self.global().device_destroy(self.id);
        self.destroy();
    }

    /// Reports a wgpu-core error on this device (error scopes, else the
    /// uncaptured-error callback). Silent once the device is lost.
    pub(crate) fn report<E: wgt::error::WebGpuError>(&self, err: E) {
        let kind = match err.webgpu_error_type() {
            wgt::error::ErrorType::Validation => WGPUErrorType::Validation,
            wgt::error::ErrorType::OutOfMemory => WGPUErrorType::OutOfMemory,
            wgt::error::ErrorType::Internal => WGPUErrorType::Internal,
            // Device loss is reported through the lost callback.
            wgt::error::ErrorType::DeviceLost => return,
        };
        let text = if crate::compat::active() {
            crate::compat::native_error_text(&err, crate::ffi::frame::context().as_ref())
        } else {
            crate::conv::describe(&err)
        };
        self.report_error(kind, text);
    }

    /// Reports a validation error found by this library.
    pub(crate) fn report_validation(&self, message: impl Into<String>) {
        let message = message.into();
        let text = if crate::compat::active() {
            crate::compat::native_message_text(&message, crate::ffi::frame::context().as_ref())
        } else {
            message
        };
        self.report_error(WGPUErrorType::Validation, text);
    }

    /// Routes an error: the innermost matching error scope of this thread
    /// captures it; otherwise the uncaptured-error callback gets it.
    pub(crate) fn report_error(&self, kind: WGPUErrorType, message: String) {
        if self.is_lost() {
            log::debug!(target: "wgpu_shim", "error on a lost device (discarded): {message}");
            return;
        }
        log::debug!(target: "wgpu_shim", "{} error: {message}", error_type_name(kind));
        if crate::objects::error_scope::capture(self.serial, kind, &message) {
            return;
        }
        match &self.uncaptured {
            Some((cb, ud)) => {
                if let Some(f) = cb.get() {
                    let handle = self.handle();
                    // SAFETY: the application's callback, with a pointer to
                    // its device handle valid for the call.
                    unsafe { f(&handle, kind, boundary::out_str(&message), ud.u1(), ud.u2()) };
                }
            }
            None => log::warn!(target: "wgpu_shim", "uncaptured {} error: {message}", error_type_name(kind)),
        }
    }

    /// Returns a handle to the device's queue: the same object (and pointer)
    /// while it lives.
    pub(crate) fn queue_handle(self: &Arc<Self>) -> *mut WGPUQueueImpl {
        let mut slot = self.queue.lock();
        let queue = match slot.upgrade() {
            Some(queue) => queue,
            None => {
                let queue = Arc::new(crate::objects::queue::Queue::new(self.clone()));
                *slot = Arc::downgrade(&queue);
                queue
            }
        };
        Handle::into_raw(queue)
    }
}

/// How long the exit barrier waits for a device's submitted work.
#[cfg_attr(windows, allow(dead_code))] // The exit barrier's work, which Windows skips (exit.rs).
const DRAIN_AT_EXIT: std::time::Duration = std::time::Duration::from_secs(1);

impl Drop for Device {
    fn drop(&mut self) {
        // The wake semaphore goes first (no WaitAny sleeps on it: a sleeper
        // holds the device, and only the device holds the semaphore). Then
        // the progress thread is joined, which drops the wgpu-core queue and
        // device: when the last reference goes, the device is really gone.
        crate::ffi::boundary::in_drop("a device", || {
            drop(self.fence_wake.take());
            self.progress.stop();
        });
    }
}

fn error_type_name(kind: WGPUErrorType) -> &'static str {
    match kind {
        WGPUErrorType::Validation => "validation",
        WGPUErrorType::OutOfMemory => "out-of-memory",
        WGPUErrorType::Internal => "internal",
        _ => "unknown",
    }
}

/// Opens the device: on Vulkan (Linux) with host memory of this library's
/// behind mapped buffers when the driver can import it
/// (`engine/vk_memory.rs`), else as wgpu-core opens it.
fn open_device(
    global: &wgpu_core::global::Global,
    adapter: wgpu_core::id::AdapterId,
    desc: &wgt::DeviceDescriptor<wgpu_core::Label<'_>>,
) -> Result<(wgpu_core::id::DeviceId, wgpu_core::id::QueueId), String> {
    #[cfg(target_os = "linux")]
    if let Some(made) = crate::engine::vk_memory::request_device(global, adapter, desc) {
        return made.map_err(|e| format!("device creation failed: {e}"));
    }
    global
        .adapter_request_device(adapter, desc, None, None)
        .map_err(|e| format!("device creation failed: {}", crate::conv::describe(&e)))
}

/// Registers the device-lost event. Its callback reads the device handle
/// when it runs.
fn register_lost(
    instance: &Arc<Instance>,
    info: &WGPUDeviceLostCallbackInfo,
    mode: Mode,
    shared: &Arc<LostShared>,
) -> (WGPUFuture, Completer<LostResult>) {
    instance.registry.register::<LostResult>(mode, Source::Cpu, lost_callback(info, shared))
}

/// The device-lost callback of `info`, as an event's callback.
fn lost_callback(
    info: &WGPUDeviceLostCallbackInfo,
    shared: &Arc<LostShared>,
) -> impl FnOnce(Outcome<LostResult>) + Send + 'static {
    let cb = SendFn(info.callback);
    let ud = UserData(info.userdata1, info.userdata2);
    let shared = shared.clone();
    move |out| {
        let Some(f) = cb.get() else { return };
        let (reason, message) = match out {
            Outcome::Done(r) => r,
            Outcome::Cancelled => (
                WGPUDeviceLostReason::CallbackCancelled,
                "the instance was released before the device-lost callback was delivered".into(),
            ),
        };
        if reason == WGPUDeviceLostReason::Destroyed && shared.silent.load(Ordering::Acquire) {
            return;
        }
        let handle = shared.handle.load(Ordering::Acquire);
        // SAFETY: the application's callback, with a pointer to a device
        // handle (or NULL) valid for the call.
        unsafe { f(&handle, reason, boundary::out_str(&message), ud.u1(), ud.u2()) };
    }
}

/// RequestDevice failed: the lost callback runs once, with
/// `FailedCreation` and a NULL device. In `mode` when the request's
/// instance is known and the lost callback's mode is valid; otherwise
/// before the call returns, as for any rejected call
/// (`ffi::callback::call_async`).
pub(crate) fn lost_on_failed_creation(
    instance: Option<&Arc<Instance>>,
    desc: &WGPUDeviceDescriptor,
    mode: Option<Mode>,
    message: &str,
) {
    let shared = Arc::new(LostShared { handle: AtomicPtr::new(std::ptr::null_mut()), silent: AtomicBool::new(false) });
    let result = (WGPUDeviceLostReason::FailedCreation, message.to_string());
    let callback = lost_callback(&desc.deviceLostCallbackInfo, &shared);
    match instance {
        Some(instance) => {
            match mode {
                Some(mode) => instance.registry.register_done(mode, Source::Cpu, result, callback),
                None => instance.registry.register_rejected_mode(Source::Cpu, result, callback),
            };
        }
        None => crate::futures::run_untracked(result, callback),
    }
}

/// Destroys the device: buffers are destroyed (pending maps abort), the
/// lost callback reports `Destroyed`. Calling it again does nothing.
///
/// # Safety
/// `device` is a live device.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceDestroy(device: WGPUDevice) {
    call("wgpuDeviceDestroy", (), || {
        // SAFETY: the C caller passes a live handle.
        unsafe { boundary::arg::<Device>(device, "device") }?.destroy();
        Ok(())
    })
}

/// The device-lost future: the same one on every call.
///
/// # Safety
/// `device` is a live device.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceGetLostFuture(device: WGPUDevice) -> WGPUFuture {
    call("wgpuDeviceGetLostFuture", WGPUFuture { id: 0 }, || {
        // SAFETY: the C caller passes a live handle.
        Ok(unsafe { boundary::arg::<Device>(device, "device") }?.lost_future)
    })
}

/// Writes the device's limits.
///
/// # Safety
/// `device` is a live device; `limits` is NULL or writable with a valid chain.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceGetLimits(device: WGPUDevice, limits: *mut WGPULimits) -> WGPUStatus {
    call("wgpuDeviceGetLimits", WGPUStatus::Error, || {
        // SAFETY: the C caller passes a live handle and NULL or a writable struct.
        let (device, out) =
            unsafe { (boundary::arg::<Device>(device, "device")?, boundary::out_arg(limits, "limits")?) };
        crate::conv::device::write_limits(out, &device.limits)?;
        Ok(WGPUStatus::Success)
    })
}

/// Writes the device's standard features; free with
/// `wgpuSupportedFeaturesFreeMembers`.
///
/// # Safety
/// `device` is a live device; `features` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceGetFeatures(device: WGPUDevice, features: *mut WGPUSupportedFeatures) {
    call("wgpuDeviceGetFeatures", (), || {
        // SAFETY: the C caller passes a live handle and NULL or a writable struct.
        let (device, out) =
            unsafe { (boundary::arg::<Device>(device, "device")?, boundary::out_arg(features, "features")?) };
        crate::objects::adapter::write_features(out, device.features);
        Ok(())
    })
}

/// Whether the device has a standard feature enabled.
///
/// # Safety
/// `device` is a live device.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceHasFeature(device: WGPUDevice, feature: WGPUFeatureName) -> WGPUBool {
    call("wgpuDeviceHasFeature", 0, || {
        // SAFETY: the C caller passes a live handle.
        let device = unsafe { boundary::arg::<Device>(device, "device") }?;
        Ok(crate::conv::device::has_feature(device.features, feature) as WGPUBool)
    })
}

/// Writes the info of the adapter the device was made from.
///
/// # Safety
/// `device` is a live device; `info` is NULL or writable with a valid chain.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceGetAdapterInfo(device: WGPUDevice, info: *mut WGPUAdapterInfo) -> WGPUStatus {
    call("wgpuDeviceGetAdapterInfo", WGPUStatus::Error, || {
        // SAFETY: the C caller passes a live handle and NULL or a writable struct.
        let (device, out) = unsafe { (boundary::arg::<Device>(device, "device")?, boundary::out_arg(info, "info")?) };
        crate::conv::device::write_adapter_info(out, &device.adapter.info())?;
        Ok(WGPUStatus::Success)
    })
}

/// The device's queue (one more reference to the same handle while the
/// application holds one).
///
/// # Safety
/// `device` is a live device.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceGetQueue(device: WGPUDevice) -> WGPUQueue {
    call("wgpuDeviceGetQueue", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle.
        Ok(unsafe { boundary::arg::<Device>(device, "device") }?.arc().queue_handle())
    })
}
