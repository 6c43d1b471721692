//! What every asynchronous operation does with its `*CallbackInfo`: check the
//! mode and carry the callback and its userdata to the thread that runs it.

use std::ffi::c_void;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use crate::abi::{WGPUCallbackMode, WGPUChainedStruct, WGPUFuture};
use crate::ffi::boundary::{call, reject, ApiResult, Reject};
use crate::futures::{Mode, Outcome, Registry, Source};

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

/// The mode a `*CallbackInfo` asks for: `None` for 0 and unknown values.
/// With `zero_means`, for an operation that code written for wgpu-native
/// starts with mode 0 (what the `*_CALLBACK_INFO_INIT` macros leave): under
/// wgpu-native compatibility (`compat::Rule::CallbackModeZero`) 0 means
/// `zero_means`. wgpu-native ignores modes: its CPU-timeline operations call
/// back inside the call (`AllowSpontaneous` does here too) and its queue
/// operations inside `wgpuDevicePoll` / `wgpuInstanceProcessEvents`
/// (`AllowProcessEvents`).
pub(crate) fn parse_mode(mode: WGPUCallbackMode, zero_means: Option<Mode>) -> Option<Mode> {
    match zero_means {
        Some(zero) if mode.0 == 0 && crate::compat::allows(crate::compat::Rule::CallbackModeZero) => Some(zero),
        _ => Mode::from_c(mode),
    }
}

/// How a rejected asynchronous call reports: its callback with an error
/// (`Some(message)`) or, if its instance is released before delivery,
/// `CallbackCancelled` (`None`).
pub(crate) trait Fail: FnOnce(Option<String>) + Send + 'static {}
impl<F: FnOnce(Option<String>) + Send + 'static> Fail for F {}

/// Makes a call's [`Fail`] callback, only when the call is rejected: the
/// common, accepted call copies nothing for it. It borrows the call's
/// arguments, so it lives no longer than the call.
pub(crate) trait MakeFail {
    type Fail: Fail;
    fn make(self) -> Self::Fail;
}

impl<M: FnOnce() -> F, F: Fail> MakeFail for M {
    type Fail = F;
    fn make(self) -> F {
        self()
    }
}

/// What an asynchronous call needs to deliver its callback when it is
/// rejected before its operation is registered: the registry (once the
/// handle is known), the mode (once it is known to be valid), the source,
/// and the callback's error form. See [`call_async`].
pub(crate) struct OnReject<'r, M: MakeFail> {
    registry: Option<&'r Arc<Registry>>,
    mode: Option<Mode>,
    source: Source,
    fail: Option<M>,
}

impl<'r, M: MakeFail> OnReject<'r, M> {
    /// The registry of the call's instance: a rejection from now on (with
    /// a valid mode) gets a real future, complete at once.
    pub(crate) fn registry(&mut self, registry: &'r Arc<Registry>, source: Source) {
        self.registry = Some(registry);
        self.source = source;
    }

    /// Checks a `*CallbackInfo`'s mode and chain (see [`parse_mode`] for
    /// `zero_means`). A valid mode is remembered first, so a rejection for
    /// the chain or anything later is delivered in that mode.
    ///
    /// # Safety
    /// `next` is NULL or a valid chain.
    #[inline(always)]
    pub(crate) unsafe fn mode(
        &mut self,
        mode: WGPUCallbackMode,
        next: *mut WGPUChainedStruct,
        what: &str,
        zero_means: Option<Mode>,
    ) -> ApiResult<Mode> {
        // The common case, a valid standard mode and no chain, inline.
        if next.is_null() {
            if let Some(parsed) = Mode::from_c(mode) {
                self.mode = Some(parsed);
                return Ok(parsed);
            }
        }
        // SAFETY: forwarded from the caller.
        unsafe { self.mode_checked(mode, next, what, zero_means) }
    }

    /// [`OnReject::mode`] for a mode of 0 or out of range, or a chain.
    ///
    /// # Safety
    /// As for [`OnReject::mode`].
    #[inline(never)]
    unsafe fn mode_checked(
        &mut self,
        mode: WGPUCallbackMode,
        next: *mut WGPUChainedStruct,
        what: &str,
        zero_means: Option<Mode>,
    ) -> ApiResult<Mode> {
        let parsed = parse_mode(mode, zero_means).ok_or_else(|| {
            reject!("{what}.mode is {:#x}: set WaitAnyOnly, AllowProcessEvents or AllowSpontaneous", mode.0)
        })?;
        self.mode = Some(parsed);
        // SAFETY: forwarded from the caller.
        unsafe { crate::ffi::chain_walk::expect_none(next, what) }?;
        Ok(parsed)
    }

    /// The operation is registered: from now on its own completer delivers
    /// (a rejection or panic after this point is its cancellation).
    pub(crate) fn disarm(&mut self) {
        self.fail = None;
    }

    /// Delivers the callback of the rejected call, once, with `why`.
    fn deliver(&mut self, why: String) -> WGPUFuture {
        let Some(make) = self.fail.take() else { return WGPUFuture { id: 0 } };
        let fail = make.make();
        let callback = move |out: Outcome<String>| match out {
            Outcome::Done(why) => fail(Some(why)),
            Outcome::Cancelled => fail(None),
        };
        match (self.registry, self.mode) {
            (Some(registry), Some(mode)) => registry.register_done(mode, self.source, why, callback),
            // An invalid mode allows no delivery, and no instance means
            // nothing to wait on: the call's own end is the one place that
            // still reaches the application, and the future is the null
            // future (as Dawn returns for an invalid mode).
            _ => {
                crate::futures::run_untracked(why, callback);
                WGPUFuture { id: 0 }
            }
        }
    }
}

/// [`call`] for an asynchronous operation: a call rejected before its
/// operation was registered (a NULL handle, an invalid mode, a chain on the
/// callback info, a bad descriptor, a panic) still calls back exactly once,
/// through the callback `fail` makes, with an error:
/// - with a known instance and a valid mode: in that mode, through a
///   future that is complete at once (WaitAny on it returns Success);
/// - with a known instance and an invalid mode: before the call returns, as
///   an `AllowSpontaneous` callback would; the future is the null future;
/// - without an instance (NULL or invalid handle): before the call returns;
///   the future is the null future, since there is no instance to wait on.
pub(crate) fn call_async<'r, M: MakeFail>(
    func: &'static str,
    fail: M,
    body: impl FnOnce(&mut OnReject<'r, M>) -> ApiResult<WGPUFuture>,
) -> WGPUFuture {
    let mut on_reject = OnReject { registry: None, mode: None, source: Source::Cpu, fail: Some(fail) };
    // The closures below borrow `on_reject` and `body` rather than move
    // them: `catch_unwind` copies its closure, and a copy of freshly
    // written captures costs store-forwarding stalls on every call.
    let mut body = Some(body);
    call(func, WGPUFuture { id: 0 }, || {
        let run = || match body.take() {
            Some(body) => body(&mut on_reject),
            None => Err(reject!("internal error: the call ran twice")),
        };
        let why = match catch_unwind(AssertUnwindSafe(run)) {
            Ok(Ok(future)) => return Ok(future),
            Ok(Err(Reject(why))) => why,
            Err(panic) => format!("internal error ({})", crate::ffi::boundary::panic_text(&*panic)),
        };
        if on_reject.fail.is_none() {
            return Err(Reject(why));
        }
        crate::ffi::log::init();
        log::error!(target: "wgpu_shim", "{func}: {why} (its callback gets an error status)");
        Ok(on_reject.deliver(why))
    })
}
