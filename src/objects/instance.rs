//! `WGPUInstance` and the global functions: instance creation, instance
//! features and limits, adapter requests, and the two entry points that
//! deliver callbacks (`WaitAny`, `ProcessEvents`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};

use parking_lot::Mutex;

use wgpu_core::global::Global;
use wgpu_core::naga::front::wgsl::ImplementedLanguageExtension;

use crate::abi::*;
use crate::engine::fault::{self, Fault};
use crate::ffi::boundary::{self, call, refcounted, reject};
use crate::ffi::callback::{call_async, SendFn, UserData};
use crate::ffi::handle::{Handle, Object};
use crate::futures::{Completer, DirectSleep, Outcome, Readiness, Registry, Source, WaitRules};
use crate::objects::adapter::Adapter;
use crate::objects::device::Device;

/// The most futures a timed `wgpuInstanceWaitAny` accepts.
pub(crate) const TIMED_WAIT_ANY_MAX_COUNT: usize = 1 << 20;

/// Instance feature `WGPUInstanceFeatureName_ShimReadinessHandle`
/// (`wgpu_shim.h`).
pub(crate) const FEATURE_READINESS_HANDLE: WGPUInstanceFeatureName = WGPUInstanceFeatureName(0x0007_0001);
/// Instance feature `WGPUInstanceFeatureName_ShimMixedSourceWaitAny`
/// (`wgpu_shim.h`).
pub(crate) const FEATURE_MIXED_SOURCE_WAIT_ANY: WGPUInstanceFeatureName = WGPUInstanceFeatureName(0x0007_0002);

/// The instance features this library supports, in the order reported:
/// the standard ones, then wgpu-shim's (`wgpu_shim.h`).
const SUPPORTED_FEATURES: [WGPUInstanceFeatureName; 5] = [
    WGPUInstanceFeatureName::TimedWaitAny,
    WGPUInstanceFeatureName::ShaderSourceSPIRV,
    WGPUInstanceFeatureName::MultipleDevicesPerAdapter,
    FEATURE_READINESS_HANDLE,
    FEATURE_MIXED_SOURCE_WAIT_ANY,
];

/// A `WGPUInstance`: one wgpu-core `Global` and one futures registry.
#[repr(C)]
pub(crate) struct Instance {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) global: Arc<Global>,
    pub(crate) registry: Arc<Registry>,
    pub(crate) rules: WaitRules,
    /// `ShaderSourceSPIRV` was enabled.
    pub(crate) spirv: bool,
    /// `MultipleDevicesPerAdapter` was enabled.
    pub(crate) multiple_devices_per_adapter: bool,
    /// User events not signalled yet, by future id (`wgpu_shim.h`).
    pub(crate) user_events: Mutex<HashMap<u64, Completer<()>>>,
    /// The spin cap of this instance's fence waits
    /// (`wgpuShimInstanceSetSpinWait`; `engine::spin::UNSET`: the default).
    pub(crate) spin_cap_ns: Arc<AtomicU64>,
    /// The devices made from this instance, for ProcessEvents' polls, with
    /// their queue serials (so that a lookup upgrades only the one it
    /// finds). Never held where a device can be dropped: `Device::drop`
    /// joins its progress thread (docs/ARCHITECTURE.md, "Lock discipline").
    devices: Mutex<Vec<TrackedDevice>>,
    next_device_serial: AtomicU64,
    /// The instance's one GL adapter once enumerated (`None` inside: it has
    /// none), shared by every GL `WGPUAdapter` (`gl_adapter.rs`).
    pub(crate) gl_adapter: Mutex<Option<Option<wgpu_core::id::AdapterId>>>,
    /// The `WGPUAdapter`s alive that hold the shared GL adapter (for
    /// `wgpuGenerateReport`).
    pub(crate) gl_adapters_alive: std::sync::atomic::AtomicUsize,
}

/// An entry of the instance's device list: the queue's serial, the device,
/// and its `released` flag (readable without upgrading the reference).
type TrackedDevice = (u64, Weak<Device>, Arc<std::sync::atomic::AtomicBool>);

impl Object for Instance {
    type Raw = WGPUInstanceImpl;
    const NAME: &'static str = "WGPUInstance";
    const HEADER_OFFSET: usize = std::mem::offset_of!(Instance, header);

    /// Every callback not yet delivered runs now with `CallbackCancelled`.
    fn last_release(this: &Arc<Self>, _handle: *mut WGPUInstanceImpl) {
        this.registry.close();
    }
}

impl crate::engine::exit::AtExit for Instance {
    /// The exit barrier: each device's submitted work is waited for, then
    /// the instance closes as by its last release, except that the
    /// cancelled callbacks run at the end of the next API call, not in the
    /// exit handler (the application's runtime may be finalized by then).
    fn at_exit(&self) {
        for device in self.live_devices() {
            device.drain_at_exit();
        }
        self.registry.close_at_exit();
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        if crate::ffi::exit::detached() {
            // wgpu-core's instance would be destroyed in the driver, which
            // may be torn down: it goes with the process.
            std::mem::forget(self.global.clone());
        }
    }
}

impl Instance {
    /// A serial number for a new device (identifies its queue as a source).
    pub(crate) fn next_device_serial(&self) -> u64 {
        self.next_device_serial.fetch_add(1, Ordering::Relaxed)
    }

    /// Remembers a device for [`Instance::poll_devices`].
    pub(crate) fn track_device(&self, device: &Arc<Device>) {
        let mut list = self.devices.lock();
        list.retain(|(_, d, _)| d.strong_count() > 0);
        list.push((device.serial, Arc::downgrade(device), device.released.clone()));
    }

    /// The live devices made from this instance.
    /// The list's lock is released before the caller can drop any of them.
    pub(crate) fn live_devices(&self) -> Vec<Arc<Device>> {
        self.devices.lock().iter().filter_map(|(_, d, _)| d.upgrade()).collect()
    }

    /// The live devices the application has not released: those
    /// [`Instance::poll_devices`] polls. A released one is not upgraded at
    /// all. Upgrading it would keep it alive for the length of the poll,
    /// and with polls overlapping on several threads (ProcessEvents in
    /// loops) each one upgraded it while another still held it: a released
    /// device then lived as long as the polls kept overlapping. A 16-thread
    /// soak had hundreds of released devices alive at once (docs/RELIABILITY.md).
    /// Its own progress thread still completes its work.
    fn polled_devices(&self) -> Vec<Arc<Device>> {
        let list = self.devices.lock();
        list.iter()
            .filter(|(_, _, released)| !released.load(Ordering::Acquire))
            .filter_map(|(_, d, _)| d.upgrade())
            .collect()
    }

    /// The live device whose queue has this serial number.
    fn device_by_serial(&self, serial: u64) -> Option<Arc<Device>> {
        let list = self.devices.lock();
        let found = list.iter().find(|(s, _, _)| *s == serial)?;
        found.1.upgrade()
    }

    /// Polls (without waiting) every device that has queue work pending, so
    /// that an application polling with ProcessEvents or a zero-timeout
    /// WaitAny sees completions as soon as the GPU signals them, without
    /// waiting for the progress thread to be scheduled.
    fn poll_devices(&self) {
        // Filtered once the list's lock is released: dropping the last
        // reference to an idle device there would join its progress thread.
        for device in self.polled_devices() {
            if device.progress.busy() {
                device.poll_now();
            }
        }
    }
}

refcounted!(Instance, WGPUInstance, wgpuInstanceAddRef, wgpuInstanceRelease);

/// Creates an instance. `descriptor` may be NULL. Returns NULL (logged) when
/// a required feature is unknown or a required limit is above what is
/// supported.
///
/// # Safety
/// `descriptor` is NULL or points at a valid descriptor.
#[no_mangle]
pub unsafe extern "C" fn wgpuCreateInstance(descriptor: *const WGPUInstanceDescriptor) -> WGPUInstance {
    call("wgpuCreateInstance", std::ptr::null_mut(), || {
        crate::ffi::log::init();
        if crate::ffi::exit::detached() {
            return Err(reject!("{}", crate::objects::adapter::EXITING));
        }
        // SAFETY: the C caller passes NULL or a valid descriptor.
        let desc = unsafe { descriptor.as_ref() };
        let mut timed = false;
        let mut spirv = false;
        let mut multiple = false;
        let mut readiness = false;
        let mut mixed = false;
        let mut max_count = TIMED_WAIT_ANY_MAX_COUNT;
        let mut wgt_desc = wgpu_types::InstanceDescriptor::new_without_display_handle_from_env();
        // `WGPU_BACKEND` (read above, as wgpu reads it) narrows the default;
        // wgpu.h's `WGPUInstanceExtras.backends` replaces it.
        wgt_desc.backends &= crate::conv::device::BUILT_BACKENDS;
        if let Some(desc) = desc {
            // SAFETY: the descriptor's pointers are valid (caller).
            unsafe { crate::conv::native_chain::instance_extras(desc.nextInChain, &mut wgt_desc) }?;
            // SAFETY: as above.
            let features =
                unsafe { boundary::slice_arg(desc.requiredFeatures, desc.requiredFeatureCount, "requiredFeatures") }?;
            for &f in features {
                match f {
                    WGPUInstanceFeatureName::TimedWaitAny => timed = true,
                    WGPUInstanceFeatureName::ShaderSourceSPIRV => spirv = true,
                    WGPUInstanceFeatureName::MultipleDevicesPerAdapter => multiple = true,
                    FEATURE_READINESS_HANDLE => readiness = true,
                    FEATURE_MIXED_SOURCE_WAIT_ANY => mixed = true,
                    other => return Err(reject!("instance feature {:#x} is not supported", other.0)),
                }
            }
            // SAFETY: as above.
            if let Some(limits) = unsafe { desc.requiredLimits.as_ref() } {
                // SAFETY: as above.
                unsafe { crate::ffi::chain_walk::expect_none(limits.nextInChain, "WGPUInstanceLimits") }?;
                if limits.timedWaitAnyMaxCount > TIMED_WAIT_ANY_MAX_COUNT {
                    return Err(reject!(
                        "requiredLimits.timedWaitAnyMaxCount is {}, above the supported {TIMED_WAIT_ANY_MAX_COUNT}",
                        limits.timedWaitAnyMaxCount
                    ));
                }
                max_count = TIMED_WAIT_ANY_MAX_COUNT;
            }
        }
        let readiness = match readiness {
            true => Some(Readiness::new().map_err(|e| reject!("cannot create the readiness handle: {e}"))?),
            false => None,
        };
        let global = crate::engine::drivers::pinning(|| Global::new("wgpu-shim", wgt_desc, None));
        let instance = Arc::new(Instance {
            header: Default::default(),
            global: Arc::new(global),
            registry: Registry::with_readiness(readiness),
            rules: WaitRules { timed, max_count, mixed_sources: mixed },
            spirv,
            multiple_devices_per_adapter: multiple,
            user_events: Mutex::new(HashMap::new()),
            spin_cap_ns: Arc::new(AtomicU64::new(crate::engine::spin::UNSET)),
            devices: Mutex::new(Vec::new()),
            next_device_serial: AtomicU64::new(1),
            gl_adapter: Mutex::new(None),
            gl_adapters_alive: Default::default(),
        });
        let at_exit: Arc<dyn crate::engine::exit::AtExit> = instance.clone();
        crate::engine::exit::finish_at_exit(Arc::downgrade(&at_exit));
        Ok(Handle::into_raw(instance))
    })
}

/// Lists the instance features this library supports. Free the list with
/// `wgpuSupportedInstanceFeaturesFreeMembers`.
///
/// # Safety
/// `features` is NULL or points at a writable struct.
#[no_mangle]
pub unsafe extern "C" fn wgpuGetInstanceFeatures(features: *mut WGPUSupportedInstanceFeatures) {
    call("wgpuGetInstanceFeatures", (), || {
        // SAFETY: the C caller passes NULL or a writable struct.
        let out = unsafe { boundary::out_arg(features, "features") }?;
        let (count, ptr) = crate::ffi::array::into_raw(SUPPORTED_FEATURES.to_vec());
        out.featureCount = count;
        out.features = ptr;
        Ok(())
    })
}

/// Frees the list `wgpuGetInstanceFeatures` or `wgpuInstanceGetFeatures`
/// wrote.
///
/// # Safety
/// `features` holds exactly what this library wrote (or zero and NULL).
#[no_mangle]
pub unsafe extern "C" fn wgpuSupportedInstanceFeaturesFreeMembers(features: WGPUSupportedInstanceFeatures) {
    call("wgpuSupportedInstanceFeaturesFreeMembers", (), || {
        // SAFETY: the list was allocated by `array::into_raw` (caller).
        unsafe { crate::ffi::array::free(features.features, features.featureCount) };
        Ok(())
    })
}

/// Whether the library supports an instance feature.
#[no_mangle]
pub extern "C" fn wgpuHasInstanceFeature(feature: WGPUInstanceFeatureName) -> WGPUBool {
    call("wgpuHasInstanceFeature", 0, || Ok(SUPPORTED_FEATURES.contains(&feature) as WGPUBool))
}

/// Writes the instance limits this library supports.
///
/// # Safety
/// `limits` is NULL or points at a writable struct with a valid chain.
#[no_mangle]
pub unsafe extern "C" fn wgpuGetInstanceLimits(limits: *mut WGPUInstanceLimits) -> WGPUStatus {
    call("wgpuGetInstanceLimits", WGPUStatus::Error, || {
        // SAFETY: the C caller passes NULL or a writable struct.
        let out = unsafe { boundary::out_arg(limits, "limits") }?;
        // SAFETY: the chain is valid (caller); an unknown link leaves the
        // output untouched.
        unsafe { crate::ffi::chain_walk::expect_none_out(out.nextInChain, "WGPUInstanceLimits") }?;
        out.timedWaitAnyMaxCount = TIMED_WAIT_ANY_MAX_COUNT;
        Ok(WGPUStatus::Success)
    })
}

/// Requests an adapter. Completes at once (CPU timeline); the callback runs
/// as its mode allows.
///
/// # Safety
/// `instance` is a live instance; `options` is NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn wgpuInstanceRequestAdapter(
    instance: WGPUInstance,
    options: *const WGPURequestAdapterOptions,
    callback_info: WGPURequestAdapterCallbackInfo,
) -> WGPUFuture {
    call_async(
        "wgpuInstanceRequestAdapter",
        || {
            let (cb, ud) = (SendFn(callback_info.callback), UserData(callback_info.userdata1, callback_info.userdata2));
            move |why: Option<String>| {
                let Some(f) = cb.get() else { return };
                let status = if why.is_some() {
                    WGPURequestAdapterStatus::Error
                } else {
                    WGPURequestAdapterStatus::CallbackCancelled
                };
                let message =
                    why.unwrap_or_else(|| "the instance was released before the adapter request was delivered".into());
                // SAFETY: calling the application's callback with its userdata.
                unsafe { f(status, std::ptr::null_mut(), boundary::out_str(&message), ud.u1(), ud.u2()) };
            }
        },
        |on_reject| {
            let cb = SendFn(callback_info.callback);
            let ud = UserData(callback_info.userdata1, callback_info.userdata2);
            // SAFETY: the C caller passes a live handle.
            let handle = unsafe { boundary::arg::<Instance>(instance, "instance")? };
            on_reject.registry(&handle.registry, Source::Cpu);
            let instance = handle.arc();
            // SAFETY: the C caller passes a valid chain.
            let mode = unsafe {
                on_reject.mode(
                    callback_info.mode,
                    callback_info.nextInChain,
                    "WGPURequestAdapterCallbackInfo",
                    Some(crate::futures::Mode::AllowSpontaneous),
                )?
            };
            type AdapterResult = Result<Arc<Adapter>, (WGPURequestAdapterStatus, String)>;
            let (future, completer) = instance.registry.register::<AdapterResult>(mode, Source::Cpu, move |out| {
                let Some(f) = cb.get() else { return };
                let (status, adapter, message) = match out {
                    Outcome::Done(Ok(adapter)) => {
                        (WGPURequestAdapterStatus::Success, Handle::into_raw(adapter), String::new())
                    }
                    Outcome::Done(Err((status, message))) => (status, std::ptr::null_mut(), message),
                    Outcome::Cancelled => (
                        WGPURequestAdapterStatus::CallbackCancelled,
                        std::ptr::null_mut(),
                        "the instance was released before the adapter request was delivered".into(),
                    ),
                };
                // SAFETY: calling the application's callback with its userdata.
                unsafe { f(status, adapter, boundary::out_str(&message), ud.u1(), ud.u2()) };
            });
            on_reject.disarm();
            // SAFETY: `options` is NULL or valid (caller).
            let result = unsafe { crate::objects::adapter::request(&instance, options.as_ref()) };
            completer.complete(result);
            Ok(future)
        },
    )
}

/// Waits until one of `futures` completes (or the timeout passes), runs the
/// callbacks of those that just completed, and marks every complete one.
/// The thread sleeps in the OS while it waits.
///
/// # Safety
/// `instance` is a live instance; `futures` is NULL (count 0) or points at
/// `future_count` writable entries.
#[no_mangle]
pub unsafe extern "C" fn wgpuInstanceWaitAny(
    instance: WGPUInstance,
    future_count: usize,
    futures: *mut WGPUFutureWaitInfo,
    timeout_ns: u64,
) -> WGPUWaitStatus {
    call("wgpuInstanceWaitAny", WGPUWaitStatus::Error, || {
        // SAFETY: the C caller passes a live handle and a valid array.
        let (instance, list) = unsafe {
            (
                boundary::arg::<Instance>(instance, "instance")?.arc(),
                boundary::slice_arg_mut(futures, future_count, "futures")?,
            )
        };
        let find_sleeper = |serial: u64| -> Option<Arc<dyn DirectSleep>> {
            crate::objects::device::direct_wait::sleeper(instance.device_by_serial(serial)?)
        };
        let kick = |serial: u64| match instance.device_by_serial(serial) {
            Some(device) => device.kick_or_poll(),
            None => true,
        };
        if fault::hit(Fault::LoseMidWaitAny) {
            let devices = instance.live_devices();
            fault::strike_later(std::time::Duration::from_millis(100), move || {
                devices.iter().for_each(|d| d.lose_as_driver_would());
            });
        }
        instance
            .registry
            .wait_any(list, timeout_ns, &instance.rules, &find_sleeper, &kick)
            .map_err(|why| reject!("{why}"))
    })
}

/// Runs the callbacks of completed `AllowProcessEvents` and
/// `AllowSpontaneous` operations, in future order. Never blocks.
///
/// # Safety
/// `instance` is a live instance.
#[no_mangle]
pub unsafe extern "C" fn wgpuInstanceProcessEvents(instance: WGPUInstance) {
    call("wgpuInstanceProcessEvents", (), || {
        // SAFETY: the C caller passes a live handle.
        let instance = unsafe { boundary::arg::<Instance>(instance, "instance") }?.arc();
        instance.poll_devices();
        instance.registry.process_events();
        Ok(())
    })
}

fn wgsl_features() -> Vec<WGPUWGSLLanguageFeatureName> {
    ImplementedLanguageExtension::all()
        .iter()
        .filter_map(|ext| match ext {
            ImplementedLanguageExtension::ReadOnlyAndReadWriteStorageTextures => {
                Some(WGPUWGSLLanguageFeatureName::ReadonlyAndReadwriteStorageTextures)
            }
            ImplementedLanguageExtension::Packed4x8IntegerDotProduct => {
                Some(WGPUWGSLLanguageFeatureName::Packed4x8IntegerDotProduct)
            }
            ImplementedLanguageExtension::PointerCompositeAccess => {
                Some(WGPUWGSLLanguageFeatureName::PointerCompositeAccess)
            }
            #[allow(unreachable_patterns)]
            _ => None,
        })
        .collect()
}

/// Lists the WGSL language extensions the shader compiler implements. Free
/// the list with `wgpuSupportedWGSLLanguageFeaturesFreeMembers`.
///
/// # Safety
/// `instance` is a live instance; `features` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn wgpuInstanceGetWGSLLanguageFeatures(
    instance: WGPUInstance,
    features: *mut WGPUSupportedWGSLLanguageFeatures,
) {
    call("wgpuInstanceGetWGSLLanguageFeatures", (), || {
        // SAFETY: the C caller passes a live handle and NULL or a writable struct.
        let out = unsafe {
            boundary::arg::<Instance>(instance, "instance")?;
            boundary::out_arg(features, "features")?
        };
        let (count, ptr) = crate::ffi::array::into_raw(wgsl_features());
        out.featureCount = count;
        out.features = ptr;
        Ok(())
    })
}

/// Whether the shader compiler implements a WGSL language extension.
///
/// # Safety
/// `instance` is a live instance.
#[no_mangle]
pub unsafe extern "C" fn wgpuInstanceHasWGSLLanguageFeature(
    instance: WGPUInstance,
    feature: WGPUWGSLLanguageFeatureName,
) -> WGPUBool {
    call("wgpuInstanceHasWGSLLanguageFeature", 0, || {
        // SAFETY: the C caller passes a live handle.
        unsafe { boundary::arg::<Instance>(instance, "instance") }?;
        Ok(wgsl_features().contains(&feature) as WGPUBool)
    })
}

/// Frees the list `wgpuInstanceGetWGSLLanguageFeatures` wrote.
///
/// # Safety
/// `features` holds exactly what this library wrote (or zero and NULL).
#[no_mangle]
pub unsafe extern "C" fn wgpuSupportedWGSLLanguageFeaturesFreeMembers(features: WGPUSupportedWGSLLanguageFeatures) {
    call("wgpuSupportedWGSLLanguageFeaturesFreeMembers", (), || {
        // SAFETY: the list was allocated by `array::into_raw` (caller).
        unsafe { crate::ffi::array::free(features.features, features.featureCount) };
        Ok(())
    })
}
