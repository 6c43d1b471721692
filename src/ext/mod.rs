//! wgpu-shim's own extensions (`include/webgpu/wgpu_shim.h`, generated from
//! this file by cbindgen).
//!
//! Enum values of ours live in block `0x0007_xxxx` (webgpu.h reserves
//! `0x0001`–`0x0006` for the standard and other implementations).

#![allow(non_upper_case_globals, non_snake_case)]

#[cfg(unix)]
use std::ffi::c_int;
use std::ffi::c_void;

use crate::abi::*;
use crate::ffi::boundary::{self, call, reject};
use crate::ffi::callback::{call_async, SendFn, UserData};
use crate::futures::{Outcome, Source};
use crate::objects::instance::Instance;

/// The extension functions this library exports beyond webgpu.h.
#[cfg(test)]
pub(crate) const EXTENSION_FUNCTIONS: &[&str] = &[
    "wgpuBufferMapAsync2",
    "wgpuShimInstanceGetReadinessFd",
    "wgpuShimInstanceGetReadinessEvent",
    "wgpuShimInstanceCreateUserEvent",
    "wgpuShimInstanceSignalUserEvent",
    "wgpuShimInstanceSetSpinWait",
];

/// Status of a user event's callback.
pub type WGPUShimUserEventStatus = u32;
/// The event was signalled.
pub const WGPUShimUserEventStatus_Success: WGPUShimUserEventStatus = 1;
/// The instance was released before the callback was delivered.
pub const WGPUShimUserEventStatus_CallbackCancelled: WGPUShimUserEventStatus = 2;
/// The event could not be created (a NULL instance, an invalid callback
/// mode, a chain on the callback info): the callback runs once with this
/// status, and the event can never be signalled.
pub const WGPUShimUserEventStatus_Error: WGPUShimUserEventStatus = 3;

/// The callback of a user event.
pub type WGPUShimUserEventCallback =
    Option<unsafe extern "C" fn(status: WGPUShimUserEventStatus, userdata1: *mut c_void, userdata2: *mut c_void)>;

/// `wgpuBufferMapAsync2` as a function pointer type.
pub type WGPUProcBufferMapAsync2 = Option<
    unsafe extern "C" fn(
        buffer: WGPUBuffer,
        mode: WGPUMapMode,
        offset: usize,
        size: usize,
        callbackInfo: WGPUBufferMapCallbackInfo,
    ) -> WGPUFuture,
>;
/// `wgpuShimInstanceGetReadinessFd` as a function pointer type.
#[cfg(unix)]
pub type WGPUProcShimInstanceGetReadinessFd = Option<unsafe extern "C" fn(instance: WGPUInstance) -> c_int>;
/// `wgpuShimInstanceGetReadinessEvent` as a function pointer type.
#[cfg(windows)]
pub type WGPUProcShimInstanceGetReadinessEvent = Option<unsafe extern "C" fn(instance: WGPUInstance) -> *mut c_void>;
/// `wgpuShimInstanceCreateUserEvent` as a function pointer type.
pub type WGPUProcShimInstanceCreateUserEvent =
    Option<unsafe extern "C" fn(instance: WGPUInstance, callbackInfo: WGPUShimUserEventCallbackInfo) -> WGPUFuture>;
/// `wgpuShimInstanceSignalUserEvent` as a function pointer type.
pub type WGPUProcShimInstanceSignalUserEvent =
    Option<unsafe extern "C" fn(instance: WGPUInstance, event: WGPUFuture) -> WGPUStatus>;

/// `wgpuShimInstanceSetSpinWait` as a function pointer type.
pub type WGPUProcShimInstanceSetSpinWait =
    Option<unsafe extern "C" fn(instance: WGPUInstance, maxSpinNanoseconds: u64) -> WGPUStatus>;

/// How a user event calls back: the same shape and rules as webgpu.h's
/// `*CallbackInfo` structs.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct WGPUShimUserEventCallbackInfo {
    pub nextInChain: *mut WGPUChainedStruct,
    pub mode: WGPUCallbackMode,
    pub callback: WGPUShimUserEventCallback,
    pub userdata1: *mut c_void,
    pub userdata2: *mut c_void,
}

/// The same as `wgpuBufferMapAsync`, under the transitional name some
/// callers still use.
///
/// # Safety
/// As `wgpuBufferMapAsync`.
#[no_mangle]
pub unsafe extern "C" fn wgpuBufferMapAsync2(
    buffer: WGPUBuffer,
    mode: WGPUMapMode,
    offset: usize,
    size: usize,
    callback_info: WGPUBufferMapCallbackInfo,
) -> WGPUFuture {
    crate::ffi::callback::call_async(
        "wgpuBufferMapAsync2",
        || crate::objects::buffer::map_fail(&callback_info),
        |on_reject| {
            // SAFETY: forwarded from the C caller.
            unsafe { crate::objects::buffer::map_async(buffer, mode, offset, size, callback_info, on_reject) }
        },
    )
}

/// The readiness descriptor of an instance created with the
/// `WGPUInstanceFeatureName_ShimReadinessHandle` feature: it is readable
/// exactly while `wgpuInstanceProcessEvents` has callbacks to run (an
/// `AllowProcessEvents` or `AllowSpontaneous` operation completed and its
/// callback was not delivered yet). Add it to an event loop (epoll, asyncio
/// `add_reader`, libuv `uv_poll`, GLib `g_unix_fd_add`) and call
/// `wgpuInstanceProcessEvents` when it becomes readable; that clears it.
/// The instance owns it: do not read, write or close it. Returns -1 (logged)
/// when the instance lacks the feature.
///
/// # Safety
/// `instance` is a live instance.
#[cfg(unix)]
#[no_mangle]
pub unsafe extern "C" fn wgpuShimInstanceGetReadinessFd(instance: WGPUInstance) -> c_int {
    call("wgpuShimInstanceGetReadinessFd", -1, || {
        // SAFETY: the C caller passes a live handle.
        let instance = unsafe { boundary::arg::<Instance>(instance, "instance") }?;
        instance
            .registry
            .readiness_fd()
            .ok_or_else(|| reject!("the instance was created without WGPUInstanceFeatureName_ShimReadinessHandle"))
    })
}

/// Windows: the readiness event (a manual-reset event handle) of an
/// instance created with `WGPUInstanceFeatureName_ShimReadinessHandle`,
/// signalled exactly while `wgpuInstanceProcessEvents` has callbacks to run.
/// The instance owns it: do not close it. NULL (logged) without the feature.
///
/// # Safety
/// `instance` is a live instance.
#[cfg(windows)]
#[no_mangle]
pub unsafe extern "C" fn wgpuShimInstanceGetReadinessEvent(instance: WGPUInstance) -> *mut c_void {
    call("wgpuShimInstanceGetReadinessEvent", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle.
        let instance = unsafe { boundary::arg::<Instance>(instance, "instance") }?;
        instance
            .registry
            .readiness_event()
            .ok_or_else(|| reject!("the instance was created without WGPUInstanceFeatureName_ShimReadinessHandle"))
    })
}

/// Creates a user event: a CPU-timeline future that completes when any
/// thread calls `wgpuShimInstanceSignalUserEvent` on it. Wait for it, poll
/// it and receive its callback like any other future, e.g. to wake a thread
/// blocked in `wgpuInstanceWaitAny` so it can pick up new futures (list the
/// event among the futures it waits on; a timed wait that also lists queue
/// futures needs `WGPUInstanceFeatureName_ShimMixedSourceWaitAny`).
///
/// # Safety
/// `instance` is a live instance; the callback info's chain is valid.
#[no_mangle]
pub unsafe extern "C" fn wgpuShimInstanceCreateUserEvent(
    instance: WGPUInstance,
    callback_info: WGPUShimUserEventCallbackInfo,
) -> WGPUFuture {
    call_async(
        "wgpuShimInstanceCreateUserEvent",
        || {
            let (cb, ud) = (SendFn(callback_info.callback), UserData(callback_info.userdata1, callback_info.userdata2));
            move |why: Option<String>| {
                let Some(f) = cb.get() else { return };
                let status = if why.is_some() {
                    WGPUShimUserEventStatus_Error
                } else {
                    WGPUShimUserEventStatus_CallbackCancelled
                };
                // SAFETY: the application's callback with its userdata.
                unsafe { f(status, ud.u1(), ud.u2()) };
            }
        },
        |on_reject| {
            // SAFETY: the C caller passes a live handle.
            let handle = unsafe { boundary::arg::<Instance>(instance, "instance")? };
            on_reject.registry(&handle.registry, Source::Cpu);
            let instance = handle.arc();
            // SAFETY: the C caller passes a valid chain.
            let mode = unsafe {
                on_reject.mode(callback_info.mode, callback_info.nextInChain, "WGPUShimUserEventCallbackInfo", None)?
            };
            let cb = SendFn(callback_info.callback);
            let ud = UserData(callback_info.userdata1, callback_info.userdata2);
            let (future, completer) = instance.registry.register::<()>(mode, Source::Cpu, move |out| {
                let Some(f) = cb.get() else { return };
                let status = match out {
                    Outcome::Done(()) => WGPUShimUserEventStatus_Success,
                    Outcome::Cancelled => WGPUShimUserEventStatus_CallbackCancelled,
                };
                // SAFETY: the application's callback with its userdata.
                unsafe { f(status, ud.u1(), ud.u2()) };
            });
            on_reject.disarm();
            if future.id != 0 {
                instance.user_events.lock().insert(future.id, completer);
            }
            Ok(future)
        },
    )
}

/// Signals a user event from any thread: its future completes. Returns
/// `WGPUStatus_Error` (logged) for a future that is not a pending user
/// event of this instance (already signalled, or another kind of future).
///
/// # Safety
/// `instance` is a live instance.
#[no_mangle]
pub unsafe extern "C" fn wgpuShimInstanceSignalUserEvent(instance: WGPUInstance, event: WGPUFuture) -> WGPUStatus {
    call("wgpuShimInstanceSignalUserEvent", WGPUStatus::Error, || {
        // SAFETY: the C caller passes a live handle.
        let instance = unsafe { boundary::arg::<Instance>(instance, "instance") }?;
        let completer = instance.user_events.lock().remove(&event.id);
        match completer {
            Some(c) => {
                c.complete(());
                Ok(WGPUStatus::Success)
            }
            None => Err(reject!("future {:#x} is not a pending user event of this instance", event.id)),
        }
    })
}

/// Sets how long a thread waiting for a device fence of this instance
/// (`wgpuInstanceWaitAny`, `wgpuDevicePoll`, the thread that delivers
/// `AllowSpontaneous` callbacks) may check the fence before it sleeps in the
/// driver: at most `maxSpinNanoseconds` (up to 1,000,000) a wait, less when
/// this device's recent waits were long (a long job never spins). 0 turns
/// spinning off. `UINT64_MAX` restores the default: 50 µs on GPUs, none on
/// CPU adapters. The `WGPU_SHIM_SPIN_US` environment variable, when set,
/// overrides this. Applies from the next wait on.
///
/// # Safety
/// `instance` is a live instance.
#[no_mangle]
pub unsafe extern "C" fn wgpuShimInstanceSetSpinWait(instance: WGPUInstance, maxSpinNanoseconds: u64) -> WGPUStatus {
    call("wgpuShimInstanceSetSpinWait", WGPUStatus::Error, || {
        // SAFETY: the C caller passes a live handle.
        let instance = unsafe { boundary::arg::<Instance>(instance, "instance") }?;
        let cap = if maxSpinNanoseconds == u64::MAX {
            crate::engine::spin::UNSET
        } else {
            maxSpinNanoseconds.min(crate::engine::spin::MAX_CAP_NS)
        };
        instance.spin_cap_ns.store(cap, std::sync::atomic::Ordering::Relaxed);
        Ok(WGPUStatus::Success)
    })
}

#[cfg(test)]
mod tests {
    /// The committed header is what build.rs generates from this file
    /// (`WGPU_SHIM_UPDATE_HEADERS=1 cargo build` rewrites it).
    #[test]
    fn feature_values_match_the_header() {
        let header = include_str!("../../include/webgpu/wgpu_shim.h");
        for (name, value) in [
            ("WGPUInstanceFeatureName_ShimReadinessHandle", crate::objects::instance::FEATURE_READINESS_HANDLE),
            ("WGPUInstanceFeatureName_ShimMixedSourceWaitAny", crate::objects::instance::FEATURE_MIXED_SOURCE_WAIT_ANY),
        ] {
            let line = format!("#define {name} ((WGPUInstanceFeatureName){:#010X})", value.0).replace("0X", "0x");
            assert!(header.contains(&line), "wgpu_shim.h lacks `{line}`");
        }
    }

    /// The version macros of the committed header are Cargo.toml's version
    /// (build.rs writes them from it; this names the drift plainly).
    #[test]
    fn header_version_is_cargo_version() {
        let header = include_str!("../../include/webgpu/wgpu_shim.h");
        for (name, value) in [
            ("MAJOR", env!("CARGO_PKG_VERSION_MAJOR")),
            ("MINOR", env!("CARGO_PKG_VERSION_MINOR")),
            ("PATCH", env!("CARGO_PKG_VERSION_PATCH")),
            ("STRING", concat!("\"", env!("CARGO_PKG_VERSION"), "\"")),
        ] {
            let line = format!("#define WGPU_SHIM_VERSION_{name} {value}\n");
            assert!(
                header.contains(&line),
                "include/webgpu/wgpu_shim.h lacks `{}` (Cargo.toml's version): run \
                 `WGPU_SHIM_UPDATE_HEADERS=1 cargo build --release`",
                line.trim_end()
            );
        }
    }

    #[test]
    fn committed_header_is_current() {
        let generated = include_str!(concat!(env!("OUT_DIR"), "/wgpu_shim.h"));
        let committed = include_str!("../../include/webgpu/wgpu_shim.h");
        assert!(
            generated == committed,
            "include/webgpu/wgpu_shim.h is stale: run `WGPU_SHIM_UPDATE_HEADERS=1 cargo build --release`"
        );
    }
}
