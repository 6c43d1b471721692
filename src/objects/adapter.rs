//! `WGPUAdapter`: adapter selection, its features, limits and info, and
//! device requests.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use wgpu_core::id::AdapterId;

use crate::abi::*;
use crate::ffi::boundary::{self, call, refcounted, reject, ApiResult};
use crate::ffi::callback::{call_async, SendFn, UserData};
use crate::ffi::handle::{Handle, Object};
use crate::futures::{Outcome, Source};
use crate::objects::device::Device;
use crate::objects::instance::Instance;

/// A `WGPUAdapter`.
#[repr(C)]
pub(crate) struct Adapter {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) instance: Arc<Instance>,
    pub(crate) id: AdapterId,
    /// Set once a device was created from it (an adapter then expires unless
    /// the instance enabled `MultipleDevicesPerAdapter`).
    consumed: AtomicBool,
    /// The instance's shared GL adapter (`gl_adapter.rs`): the instance, not
    /// this object, owns the wgpu-core id.
    shared: bool,
}

impl Object for Adapter {
    type Raw = WGPUAdapterImpl;
    const NAME: &'static str = "WGPUAdapter";
    const HEADER_OFFSET: usize = std::mem::offset_of!(Adapter, header);
}

/// Why nothing that needs the driver starts once the library is detached
/// from it at exit (`engine::exit`).
pub(crate) const EXITING: &str = "the process is exiting: the graphics driver may already be torn down";

impl Drop for Adapter {
    fn drop(&mut self) {
        if self.shared {
            self.instance.gl_adapters_alive.fetch_sub(1, Ordering::AcqRel);
        } else {
            crate::ffi::boundary::in_drop("an adapter", || self.instance.global.adapter_drop(self.id));
        }
    }
}

refcounted!(Adapter, WGPUAdapter, wgpuAdapterAddRef, wgpuAdapterRelease);

/// Picks an adapter for `options` (RequestAdapter's work).
pub(crate) fn request(
    instance: &Arc<Instance>,
    options: Option<&WGPURequestAdapterOptions>,
) -> Result<Arc<Adapter>, (WGPURequestAdapterStatus, String)> {
    let invalid = |msg: String| (WGPURequestAdapterStatus::Error, msg);
    let mut power = wgpu_types::PowerPreference::None;
    let mut fallback = false;
    let mut backends = crate::conv::device::BUILT_BACKENDS;
    if let Some(o) = options {
        // SAFETY: the chain is valid (the caller of the export promises it).
        let chain = unsafe { crate::ffi::chain_walk::Chain::walk(o.nextInChain, "WGPURequestAdapterOptions") }
            .map_err(|r| invalid(r.0))?;
        // SAFETY: the sType names this struct.
        let xr = unsafe { chain.get::<WGPURequestAdapterWebXROptions>(WGPUSType::RequestAdapterWebXROptions) };
        if xr.is_some_and(|xr| xr.xrCompatible != 0) {
            // No WebXR in a native build: every adapter is as compatible as
            // it can be.
            log::debug!(target: "wgpu_shim", "WGPURequestAdapterWebXROptions.xrCompatible has no effect in this build");
        }
        match o.featureLevel {
            WGPUFeatureLevel::Undefined | WGPUFeatureLevel::Core | WGPUFeatureLevel::Compatibility => {}
            other => return Err(invalid(format!("featureLevel {:#x} is not a feature level", other.0))),
        }
        power = match o.powerPreference {
            WGPUPowerPreference::Undefined => wgpu_types::PowerPreference::None,
            WGPUPowerPreference::LowPower => wgpu_types::PowerPreference::LowPower,
            WGPUPowerPreference::HighPerformance => wgpu_types::PowerPreference::HighPerformance,
            other => return Err(invalid(format!("powerPreference {:#x} is not a power preference", other.0))),
        };
        match crate::conv::device::requested_backend(o.backendType) {
            Ok(wanted) => backends = wanted.unwrap_or(backends),
            Err(true) => {
                let built = crate::conv::device::built_backend_names();
                return Err((
                    WGPURequestAdapterStatus::Unavailable,
                    format!("backend {:#x} is not available: this build supports {built}", o.backendType.0),
                ));
            }
            Err(false) => return Err(invalid(format!("backendType {:#x} is not a backend", o.backendType.0))),
        }
        fallback = o.forceFallbackAdapter != 0;
    }
    if crate::ffi::exit::detached() {
        return Err((WGPURequestAdapterStatus::Unavailable, EXITING.to_owned()));
    }
    let compatible = options.map_or(std::ptr::null_mut(), |o| o.compatibleSurface);
    // SAFETY: `compatibleSurface` is NULL or a live surface (the caller of
    // the export promises it).
    let found = unsafe {
        crate::objects::surface::with_compatible(instance, compatible, |surface| {
            let wanted = crate::objects::gl_adapter::Wanted { power, fallback, surface };
            pick(instance, &wanted, backends)
        })
    }
    .map_err(invalid)?;
    match found {
        Ok((id, shared)) => Ok(Arc::new(Adapter::with_owner(instance.clone(), id, shared))),
        Err(err) => Err((WGPURequestAdapterStatus::Unavailable, format!("no suitable adapter: {err}"))),
    }
}

/// The adapter wgpu-core would pick among `backends`, GL's being the
/// instance's shared one (`gl_adapter.rs`): its id, and whether it is that
/// shared one.
fn pick(
    instance: &Arc<Instance>,
    wanted: &crate::objects::gl_adapter::Wanted,
    backends: wgpu_types::Backends,
) -> Result<(AdapterId, bool), String> {
    let request = |backends| {
        let opts = wgpu_core::instance::RequestAdapterOptions {
            power_preference: wanted.power,
            force_fallback_adapter: wanted.fallback,
            compatible_surface: wanted.surface,
            apply_limit_buckets: false,
        };
        crate::engine::drivers::pinning(|| instance.global.request_adapter(&opts, backends, None))
            .map_err(|e| e.to_string())
    };
    let gl = wgpu_types::Backends::GL;
    if !backends.contains(gl) || !crate::conv::device::BUILT_BACKENDS.contains(gl) {
        return request(backends).map(|id| (id, false));
    }
    let rest = backends - gl;
    let other = if rest.is_empty() { Err(String::new()) } else { request(rest) };
    let shared = crate::objects::gl_adapter::gl_adapter(instance, wanted);
    match (other, shared) {
        (Ok(other), Ok(shared)) => {
            if crate::objects::gl_adapter::gl_first(instance, shared, other, wanted.power) {
                instance.global.adapter_drop(other);
                Ok((shared, true))
            } else {
                Ok((other, false))
            }
        }
        (Ok(other), Err(_)) => Ok((other, false)),
        (Err(_), Ok(shared)) => Ok((shared, true)),
        (Err(e), Err(g)) if e.is_empty() => Err(g),
        (Err(e), Err(g)) => Err(format!("{e}; {g}")),
    }
}

impl Adapter {
    /// Wraps a wgpu-core adapter that `instance` found; `shared`: the instance's GL one, which the
    /// instance owns (`gl_adapter.rs`).
    pub(crate) fn with_owner(instance: Arc<Instance>, id: AdapterId, shared: bool) -> Adapter {
        if shared {
            instance.gl_adapters_alive.fetch_add(1, Ordering::AcqRel);
        }
        Adapter { header: Default::default(), instance, id, consumed: AtomicBool::new(false), shared }
    }

    pub(crate) fn features(&self) -> wgpu_types::Features {
        self.instance.global.adapter_features(self.id)
    }

    pub(crate) fn limits(&self) -> wgpu_types::Limits {
        self.instance.global.adapter_limits(self.id)
    }

    pub(crate) fn info(&self) -> wgpu_types::AdapterInfo {
        self.instance.global.adapter_get_info(self.id)
    }

    /// Claims the adapter for a new device: `None` when it already made
    /// one and the instance allows only one (wgpu-native allows any number:
    /// `compat::Rule::SecondDeviceFromAdapter`); else whether this claim is
    /// the one that used the adapter up, to be given back with
    /// [`Adapter::unclaim`] if the device is not made (a failed request
    /// does not expire the adapter).
    pub(crate) fn claim(&self) -> Option<bool> {
        let first = !self.consumed.swap(true, Ordering::AcqRel);
        let more = first
            || self.instance.multiple_devices_per_adapter
            || crate::compat::allows(crate::compat::Rule::SecondDeviceFromAdapter);
        more.then_some(first)
    }

    /// Gives back the claim that used the adapter up: its request failed.
    pub(crate) fn unclaim(&self) {
        self.consumed.store(false, Ordering::Release);
    }
}

/// Writes the adapter's standard features. Free with
/// `wgpuSupportedFeaturesFreeMembers`.
///
/// # Safety
/// `adapter` is a live adapter; `features` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn wgpuAdapterGetFeatures(adapter: WGPUAdapter, features: *mut WGPUSupportedFeatures) {
    call("wgpuAdapterGetFeatures", (), || {
        // SAFETY: the C caller passes a live handle and NULL or a writable struct.
        let (adapter, out) =
            unsafe { (boundary::arg::<Adapter>(adapter, "adapter")?, boundary::out_arg(features, "features")?) };
        write_features(out, adapter.features());
        Ok(())
    })
}

pub(crate) fn write_features(out: &mut WGPUSupportedFeatures, features: wgpu_types::Features) {
    let (count, ptr) = crate::ffi::array::into_raw(crate::conv::device::feature_names(features));
    out.featureCount = count;
    out.features = ptr;
}

/// Frees the list `wgpuAdapterGetFeatures` or `wgpuDeviceGetFeatures` wrote.
///
/// # Safety
/// `features` holds exactly what this library wrote (or zero and NULL).
#[no_mangle]
pub unsafe extern "C" fn wgpuSupportedFeaturesFreeMembers(features: WGPUSupportedFeatures) {
    call("wgpuSupportedFeaturesFreeMembers", (), || {
        // SAFETY: the list came from `array::into_raw` (caller).
        unsafe { crate::ffi::array::free(features.features, features.featureCount) };
        Ok(())
    })
}

/// Whether the adapter supports a standard feature.
///
/// # Safety
/// `adapter` is a live adapter.
#[no_mangle]
pub unsafe extern "C" fn wgpuAdapterHasFeature(adapter: WGPUAdapter, feature: WGPUFeatureName) -> WGPUBool {
    call("wgpuAdapterHasFeature", 0, || {
        // SAFETY: the C caller passes a live handle.
        let adapter = unsafe { boundary::arg::<Adapter>(adapter, "adapter") }?;
        Ok(crate::conv::device::has_feature(adapter.features(), feature) as WGPUBool)
    })
}

/// Writes the adapter's limits. A chain on `limits` this library does not
/// know leaves it untouched and returns `WGPUStatus_Error`.
///
/// # Safety
/// `adapter` is a live adapter; `limits` is NULL or writable with a valid chain.
#[no_mangle]
pub unsafe extern "C" fn wgpuAdapterGetLimits(adapter: WGPUAdapter, limits: *mut WGPULimits) -> WGPUStatus {
    call("wgpuAdapterGetLimits", WGPUStatus::Error, || {
        // SAFETY: the C caller passes a live handle and NULL or a writable struct.
        let (adapter, out) =
            unsafe { (boundary::arg::<Adapter>(adapter, "adapter")?, boundary::out_arg(limits, "limits")?) };
        crate::conv::device::write_limits(out, &adapter.limits())?;
        Ok(WGPUStatus::Success)
    })
}

/// Writes the adapter's info; free its strings with
/// `wgpuAdapterInfoFreeMembers`.
///
/// # Safety
/// `adapter` is a live adapter; `info` is NULL or writable with a valid chain.
#[no_mangle]
pub unsafe extern "C" fn wgpuAdapterGetInfo(adapter: WGPUAdapter, info: *mut WGPUAdapterInfo) -> WGPUStatus {
    call("wgpuAdapterGetInfo", WGPUStatus::Error, || {
        // SAFETY: the C caller passes a live handle and NULL or a writable struct.
        let (adapter, out) =
            unsafe { (boundary::arg::<Adapter>(adapter, "adapter")?, boundary::out_arg(info, "info")?) };
        crate::conv::device::write_adapter_info(out, &adapter.info())?;
        Ok(WGPUStatus::Success)
    })
}

/// Frees the strings of an adapter info this library wrote.
///
/// # Safety
/// `info`'s strings were written by `wgpuAdapterGetInfo` or
/// `wgpuDeviceGetAdapterInfo` and not freed before.
#[no_mangle]
pub unsafe extern "C" fn wgpuAdapterInfoFreeMembers(info: WGPUAdapterInfo) {
    call("wgpuAdapterInfoFreeMembers", (), || {
        // SAFETY: forwarded from the caller.
        unsafe { crate::conv::device::free_adapter_info(&info) };
        Ok(())
    })
}

/// Requests a device. Completes at once (CPU timeline). On failure the
/// device-lost callback also runs, with `FailedCreation` and a NULL device.
///
/// # Safety
/// `adapter` is a live adapter; `descriptor` is NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn wgpuAdapterRequestDevice(
    adapter: WGPUAdapter,
    descriptor: *const WGPUDeviceDescriptor,
    callback_info: WGPURequestDeviceCallbackInfo,
) -> WGPUFuture {
    call_async(
        "wgpuAdapterRequestDevice",
        || {
            let (cb, ud) = (SendFn(callback_info.callback), UserData(callback_info.userdata1, callback_info.userdata2));
            move |why: Option<String>| {
                let Some(f) = cb.get() else { return };
                let status = if why.is_some() {
                    WGPURequestDeviceStatus::Error
                } else {
                    WGPURequestDeviceStatus::CallbackCancelled
                };
                let message =
                    why.unwrap_or_else(|| "the instance was released before the device request was delivered".into());
                // SAFETY: calling the application's callback with its userdata.
                unsafe { f(status, std::ptr::null_mut(), boundary::out_str(&message), ud.u1(), ud.u2()) };
            }
        },
        |on_reject| {
            // SAFETY: the C caller passes NULL or a valid descriptor.
            let desc = unsafe { descriptor.as_ref() }.copied().unwrap_or(WGPU_DEVICE_DESCRIPTOR_INIT);
            let cb = SendFn(callback_info.callback);
            let ud = UserData(callback_info.userdata1, callback_info.userdata2);
            let mut instance = None;
            // Any rejection: the lost callback hears of it too (FailedCreation).
            let rejected = |instance: Option<&Arc<Instance>>, why: boundary::Reject| {
                let mode = lost_mode_of(&desc);
                crate::objects::device::lost_on_failed_creation(instance, &desc, mode, &why.0);
                why
            };
            let checked = (|| {
                // SAFETY: the C caller passes a live handle.
                let handle = unsafe { boundary::arg::<Adapter>(adapter, "adapter")? };
                on_reject.registry(&handle.instance.registry, Source::Cpu);
                let adapter = handle.arc();
                instance = Some(adapter.instance.clone());
                // SAFETY: the C caller passes a valid chain.
                let mode = unsafe {
                    on_reject.mode(
                        callback_info.mode,
                        callback_info.nextInChain,
                        "WGPURequestDeviceCallbackInfo",
                        Some(crate::futures::Mode::AllowSpontaneous),
                    )?
                };
                let lost_mode = lost_mode(&desc)?;
                Ok((adapter, mode, lost_mode))
            })();
            let (adapter, mode, lost_mode) = checked.map_err(|why| rejected(instance.as_ref(), why))?;
            type DeviceResult = Result<Arc<Device>, String>;
            let registry = adapter.instance.registry.clone();
            let (future, completer) = registry.register::<DeviceResult>(mode, Source::Cpu, move |out| {
                let (status, device, message) = match out {
                    Outcome::Done(Ok(device)) => {
                        let raw = Handle::into_raw(device.clone());
                        device.set_handle(raw);
                        (WGPURequestDeviceStatus::Success, raw, String::new())
                    }
                    Outcome::Done(Err(message)) => (WGPURequestDeviceStatus::Error, std::ptr::null_mut(), message),
                    Outcome::Cancelled => (
                        WGPURequestDeviceStatus::CallbackCancelled,
                        std::ptr::null_mut(),
                        "the instance was released before the device request was delivered".into(),
                    ),
                };
                match cb.get() {
                    // SAFETY: calling the application's callback with its userdata.
                    Some(f) => unsafe { f(status, device, boundary::out_str(&message), ud.u1(), ud.u2()) },
                    // Nobody takes ownership: release the device again.
                    None if !device.is_null() => {
                        // SAFETY: the handle was made just above and not shared.
                        if let Ok(h) = unsafe { Handle::<Device>::get(device) } {
                            // SAFETY: we own the only reference.
                            unsafe { h.release(device) };
                        }
                    }
                    None => {}
                }
            });
            on_reject.disarm();
            let result = match adapter.claim() {
            Some(first) => {
                // SAFETY: the descriptor's pointers are valid (caller).
                let made = unsafe { Device::create(&adapter, &desc, lost_mode) };
                if made.is_err() && first {
                    adapter.unclaim();
                }
                made
            }
            None => Err("this adapter already created a device (enable the MultipleDevicesPerAdapter instance feature to create more)".into()),
        };
            if let Err(message) = &result {
                // The lost callback still runs exactly once: FailedCreation.
                crate::objects::device::lost_on_failed_creation(
                    Some(&adapter.instance),
                    &desc,
                    Some(lost_mode),
                    message,
                );
            }
            completer.complete(result);
            Ok(future)
        },
    )
}

/// The lost callback's mode, `None` when it is invalid (mode 0 is accepted
/// when there is no callback: the lost future must exist either way).
///
/// Without a callback the event is tracked as `AllowSpontaneous` whatever
/// the mode says: there is nothing to deliver, so it is retired as soon as
/// the device is lost. As `WaitAnyOnly` it would stay in the registry until
/// a WaitAny listed it, which a program that gave no callback never does:
/// every device of such a program (the `_INIT` macros give mode 0 and no
/// callback) kept its event until the instance was released. WaitAny still
/// finds the future complete.
fn lost_mode_of(desc: &WGPUDeviceDescriptor) -> Option<crate::futures::Mode> {
    let info = &desc.deviceLostCallbackInfo;
    if info.callback.is_none() {
        if info.mode.0 != 0 {
            crate::ffi::callback::parse_mode(info.mode, None)?;
        }
        return Some(crate::futures::Mode::AllowSpontaneous);
    }
    crate::ffi::callback::parse_mode(info.mode, Some(crate::futures::Mode::AllowSpontaneous))
}

/// [`lost_mode_of`], with its chain checked; a rejection otherwise.
fn lost_mode(desc: &WGPUDeviceDescriptor) -> ApiResult<crate::futures::Mode> {
    let info = &desc.deviceLostCallbackInfo;
    let mode = lost_mode_of(desc).ok_or_else(|| {
        reject!(
            "deviceLostCallbackInfo.mode is {:#x} with a callback: set WaitAnyOnly, AllowProcessEvents or AllowSpontaneous",
            info.mode.0
        )
    })?;
    // SAFETY: the chain is valid (the caller of the export promises it).
    unsafe { crate::ffi::chain_walk::expect_none(info.nextInChain, "WGPUDeviceLostCallbackInfo") }
        .map_err(|r| reject!("deviceLostCallbackInfo: {}", r.0))?;
    Ok(mode)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::futures::Mode;

    unsafe extern "C" fn on_lost(
        _device: *const crate::abi::WGPUDevice,
        _reason: WGPUDeviceLostReason,
        _message: crate::abi::WGPUStringView,
        _u1: *mut std::ffi::c_void,
        _u2: *mut std::ffi::c_void,
    ) {
    }

    fn with_lost(mode: u32, callback: bool) -> WGPUDeviceDescriptor {
        let mut desc = WGPUDeviceDescriptor::default();
        desc.deviceLostCallbackInfo.mode = crate::abi::WGPUCallbackMode(mode);
        desc.deviceLostCallbackInfo.callback = if callback { Some(on_lost) } else { None };
        desc
    }

    /// Without a callback the lost event is retired when the device is
    /// lost: as WaitAnyOnly it stayed in the registry until the instance
    /// went, one event per device (the soak test's memory growth).
    #[test]
    fn a_lost_event_without_a_callback_is_not_kept_for_a_wait() {
        assert_eq!(lost_mode_of(&with_lost(0, false)), Some(Mode::AllowSpontaneous));
        assert_eq!(lost_mode_of(&with_lost(1, false)), Some(Mode::AllowSpontaneous));
        assert_eq!(lost_mode_of(&with_lost(0x77, false)), None, "an invalid mode is still refused");
        assert_eq!(lost_mode_of(&with_lost(1, true)), Some(Mode::WaitAnyOnly));
        assert_eq!(lost_mode_of(&with_lost(2, true)), Some(Mode::AllowProcessEvents));
    }
}
