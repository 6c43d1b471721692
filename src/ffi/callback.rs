//! What every asynchronous operation does with its `*CallbackInfo`: check the
//! mode and carry the callback and its userdata to the thread that runs it.

use std::ffi::c_void;

use crate::abi::{WGPUCallbackMode, WGPUChainedStruct};
use crate::ffi::boundary::{reject, ApiResult};
use crate::futures::Mode;

/// The two userdata pointers of a callback. The application promises they
/// may be used on whatever thread its callback mode allows.
#[derive(Clone, Copy)]
pub(crate) struct UserData(pub(crate) *mut c_void, pub(crate) *mut c_void);

// SAFETY: the pointers are only handed back to the application's own
// callback, on a thread the callback mode allows; we never dereference them.
unsafe impl Send for UserData {}
// SAFETY: as above; sharing the two pointer values is harmless.
unsafe impl Sync for UserData {}

impl UserData {
    /// `userdata1`. (A method, so closures capture the whole struct.)
    pub(crate) fn u1(&self) -> *mut c_void {
        self.0
    }

    /// `userdata2`.
    pub(crate) fn u2(&self) -> *mut c_void {
        self.1
    }
}

/// A C function pointer moved to another thread.
#[derive(Clone, Copy)]
pub(crate) struct SendFn<F>(pub(crate) F);

// SAFETY: a C function pointer is plain code; the application allows it to
// run on the threads its callback mode names.
unsafe impl<F> Send for SendFn<F> {}
// SAFETY: as above.
unsafe impl<F> Sync for SendFn<F> {}

impl<F: Copy> SendFn<F> {
    /// The function pointer. (A method, so closures capture the whole struct.)
    pub(crate) fn get(&self) -> F {
        self.0
    }
}

/// The mode of a `*CallbackInfo`, or a rejection for 0 and unknown values
/// (the operation then returns the null future and never calls back).
///
/// # Safety
/// `next` is NULL or a valid chain.
pub(crate) unsafe fn mode(mode: WGPUCallbackMode, next: *mut WGPUChainedStruct, what: &str) -> ApiResult<Mode> {
    // SAFETY: forwarded from the caller.
    unsafe { crate::ffi::chain::expect_none(next, what) }?;
    Mode::from_c(mode).ok_or_else(|| {
        reject!(
            "{what}.mode is {:#x}: set WaitAnyOnly, AllowProcessEvents or AllowSpontaneous (the operation was not started)",
            mode.0
        )
    })
}

/// [`mode`], for an operation that code written for wgpu-native starts with
/// mode 0 (what the `*_CALLBACK_INFO_INIT` macros leave): under wgpu-native
/// compatibility (`compat::Rule::CallbackModeZero`) 0 means `zero_means`.
/// wgpu-native ignores modes: its CPU-timeline operations call back inside
/// the call (`AllowSpontaneous` does here too) and its queue operations
/// inside `wgpuDevicePoll` / `wgpuInstanceProcessEvents`
/// (`AllowProcessEvents`).
///
/// # Safety
/// `next` is NULL or a valid chain.
pub(crate) unsafe fn mode_or_native(
    mode: WGPUCallbackMode,
    next: *mut WGPUChainedStruct,
    what: &str,
    zero_means: Mode,
) -> ApiResult<Mode> {
    if mode.0 == 0 && crate::compat::allows(crate::compat::Rule::CallbackModeZero) {
        // SAFETY: forwarded from the caller.
        unsafe { crate::ffi::chain::expect_none(next, what) }?;
        return Ok(zero_means);
    }
    // SAFETY: forwarded from the caller.
    unsafe { self::mode(mode, next, what) }
}
