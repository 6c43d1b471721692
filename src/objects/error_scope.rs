//! Error scopes: one stack per OS thread and device; `PushErrorScope`,
//! `PopErrorScope`, and the capture rule.

use std::cell::RefCell;
use std::collections::HashMap;

use parking_lot::Mutex;

use crate::abi::*;
use crate::ffi::boundary::{self, call};
use crate::ffi::callback::{call_async, SendFn, UserData};
use crate::futures::{Outcome, Source, ThreadKey};
use crate::objects::device::Device;

struct Scope {
    filter: WGPUErrorFilter,
    /// The first error captured (the root cause is reported).
    error: Option<(WGPUErrorType, String)>,
}

/// A thread's scope stacks, by device serial.
type Stacks = HashMap<u64, Vec<Scope>>;

thread_local! {
    /// This thread's scope stacks.
    static SCOPES: RefCell<Stacks> = RefCell::new(HashMap::new());
}

/// The scope stacks of threads whose [`SCOPES`] is torn down already (API
/// calls from a thread-storage destructor or an exit handler), by thread:
/// they still get scopes of their own, which start empty there.
static ORPHANED: Mutex<Vec<(ThreadKey, Stacks)>> = Mutex::new(Vec::new());

/// Runs `f` on the calling thread's scope stacks.
fn with_stacks<R: Default>(f: impl FnOnce(&mut Stacks) -> R) -> R {
    let mut slot = Some(f);
    let in_thread = SCOPES.try_with(|s| {
        let mut stacks = s.try_borrow_mut().ok()?;
        slot.take().map(|f| f(&mut stacks))
    });
    if let Ok(Some(out)) = in_thread {
        return out;
    }
    // Torn down (or, never the case, borrowed by an outer call).
    let Some(f) = slot else { return R::default() };
    let me = ThreadKey::current();
    let mut orphaned = ORPHANED.lock();
    let at = match orphaned.iter().position(|(t, _)| *t == me) {
        Some(at) => at,
        None => {
            orphaned.push((me, HashMap::new()));
            orphaned.len() - 1
        }
    };
    let out = f(&mut orphaned[at].1);
    if orphaned[at].1.values().all(Vec::is_empty) {
        orphaned.swap_remove(at);
    }
    out
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
    with_stacks(|scopes| {
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
        with_stacks(|s| s.entry(device.serial).or_default().push(Scope { filter, error: None }));
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
    call_async(
        "wgpuDevicePopErrorScope",
        || {
            let (cb, ud) = (SendFn(callback_info.callback), UserData(callback_info.userdata1, callback_info.userdata2));
            move |why: Option<String>| {
                let Some(f) = cb.get() else { return };
                let status = if why.is_some() {
                    WGPUPopErrorScopeStatus::Error
                } else {
                    WGPUPopErrorScopeStatus::CallbackCancelled
                };
                let message =
                    why.unwrap_or_else(|| "the instance was released before the error scope was delivered".into());
                // SAFETY: the application's callback with its userdata.
                unsafe { f(status, WGPUErrorType::NoError, boundary::out_str(&message), ud.u1(), ud.u2()) };
            }
        },
        |on_reject| {
            let cb = SendFn(callback_info.callback);
            let ud = UserData(callback_info.userdata1, callback_info.userdata2);
            // SAFETY: the C caller passes a live handle.
            let handle = unsafe { boundary::arg::<Device>(device, "device")? };
            on_reject.registry(&handle.instance.registry, Source::Cpu);
            let device = handle.arc();
            // SAFETY: the C caller passes a valid chain.
            let mode = unsafe {
                on_reject.mode(
                    callback_info.mode,
                    callback_info.nextInChain,
                    "WGPUPopErrorScopeCallbackInfo",
                    Some(crate::futures::Mode::AllowSpontaneous),
                )?
            };
            let popped = with_stacks(|s| s.get_mut(&device.serial).and_then(Vec::pop));
            let result = match popped {
                None => (
                    WGPUPopErrorScopeStatus::Error,
                    WGPUErrorType::NoError,
                    "PopErrorScope: the error scope stack of this thread is empty".to_string(),
                ),
                // A lost device resolves every scope with no error.
                Some(_) if device.is_lost() => {
                    (WGPUPopErrorScopeStatus::Success, WGPUErrorType::NoError, String::new())
                }
                Some(Scope { error: Some((kind, msg)), .. }) => (WGPUPopErrorScopeStatus::Success, kind, msg),
                Some(Scope { error: None, .. }) => {
                    (WGPUPopErrorScopeStatus::Success, WGPUErrorType::NoError, String::new())
                }
            };
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
            on_reject.disarm();
            completer.complete(result);
            Ok(future)
        },
    )
}
