//! Error scopes: one stack per OS thread and device; `PushErrorScope`,
//! `PopErrorScope`, and the capture rule.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::abi::*;
use crate::ffi::boundary::{self, call};
use crate::ffi::callback::{SendFn, UserData};
use crate::futures::{Outcome, Source};
use crate::objects::device::Device;

struct Scope {
    filter: WGPUErrorFilter,
    /// The first error captured (the root cause is reported).
    error: Option<(WGPUErrorType, String)>,
}

thread_local! {
    /// This thread's scope stacks, by device serial.
    static SCOPES: RefCell<HashMap<u64, Vec<Scope>>> = RefCell::new(HashMap::new());
}

fn matches(filter: WGPUErrorFilter, kind: WGPUErrorType) -> bool {
    matches!(
        (filter, kind),
        (WGPUErrorFilter::Validation, WGPUErrorType::Validation)
            | (WGPUErrorFilter::OutOfMemory, WGPUErrorType::OutOfMemory)
            | (WGPUErrorFilter::Internal, WGPUErrorType::Internal)
    )
}

/// Offers an error to this thread's scopes of the device `serial`; `true`
/// if one captured it.
pub(crate) fn capture(serial: u64, kind: WGPUErrorType, message: &str) -> bool {
    SCOPES.with(|scopes| {
        let mut scopes = scopes.borrow_mut();
        let Some(stack) = scopes.get_mut(&serial) else { return false };
        match stack.iter_mut().rev().find(|s| matches(s.filter, kind)) {
            Some(scope) => {
                if scope.error.is_none() {
                    scope.error = Some((kind, message.to_string()));
                }
                true
            }
            None => false,
        }
    })
}

/// Pushes an error scope on this thread's stack for `device`.
///
/// # Safety
/// `device` is a live device.
#[no_mangle]
pub unsafe extern "C" fn wgpuDevicePushErrorScope(device: WGPUDevice, filter: WGPUErrorFilter) {
    call("wgpuDevicePushErrorScope", (), || {
        // SAFETY: the C caller passes a live handle.
        let device = unsafe { boundary::arg::<Device>(device, "device") }?;
        if !matches!(filter, WGPUErrorFilter::Validation | WGPUErrorFilter::OutOfMemory | WGPUErrorFilter::Internal) {
            device.report_validation(format!("PushErrorScope: {:#x} is not an error filter", filter.0));
            return Ok(());
        }
        SCOPES.with(|s| s.borrow_mut().entry(device.serial).or_default().push(Scope { filter, error: None }));
        Ok(())
    })
}

/// Pops this thread's innermost error scope for `device`; the callback gets
/// the error it captured (or NoError). An empty stack gives status Error.
/// Completes at once (CPU timeline).
///
/// # Safety
/// `device` is a live device.
#[no_mangle]
pub unsafe extern "C" fn wgpuDevicePopErrorScope(
    device: WGPUDevice,
    callback_info: WGPUPopErrorScopeCallbackInfo,
) -> WGPUFuture {
    call("wgpuDevicePopErrorScope", WGPUFuture { id: 0 }, || {
        // SAFETY: the C caller passes a live handle and a valid chain.
        let (device, mode) = unsafe {
            (
                boundary::arg::<Device>(device, "device")?.arc(),
                crate::ffi::callback::mode_or_native(
                    callback_info.mode,
                    callback_info.nextInChain,
                    "WGPUPopErrorScopeCallbackInfo",
                    crate::futures::Mode::AllowSpontaneous,
                )?,
            )
        };
        let popped = SCOPES.with(|s| s.borrow_mut().get_mut(&device.serial).and_then(Vec::pop));
        let result = match popped {
            None => (
                WGPUPopErrorScopeStatus::Error,
                WGPUErrorType::NoError,
                "PopErrorScope: the error scope stack of this thread is empty".to_string(),
            ),
            // A lost device resolves every scope with no error.
            Some(_) if device.is_lost() => (WGPUPopErrorScopeStatus::Success, WGPUErrorType::NoError, String::new()),
            Some(Scope { error: Some((kind, msg)), .. }) => (WGPUPopErrorScopeStatus::Success, kind, msg),
            Some(Scope { error: None, .. }) => {
                (WGPUPopErrorScopeStatus::Success, WGPUErrorType::NoError, String::new())
            }
        };
        let cb = SendFn(callback_info.callback);
        let ud = UserData(callback_info.userdata1, callback_info.userdata2);
        type PopResult = (WGPUPopErrorScopeStatus, WGPUErrorType, String);
        let (future, completer) = device.instance.registry.register::<PopResult>(mode, Source::Cpu, move |out| {
            let Some(f) = cb.get() else { return };
            let (status, kind, message) = match out {
                Outcome::Done(r) => r,
                Outcome::Cancelled => (
                    WGPUPopErrorScopeStatus::CallbackCancelled,
                    WGPUErrorType::NoError,
                    "the instance was released before the error scope was delivered".into(),
                ),
            };
            // SAFETY: the application's callback with its userdata.
            unsafe { f(status, kind, boundary::out_str(&message), ud.u1(), ud.u2()) };
        });
        completer.complete(result);
        Ok(future)
    })
}
