//! The C boundary: every exported function runs through [`call`], and every
//! pointer that crosses the boundary is converted here.
//!
//! Policy, in one place:
//! - A panic never unwinds into C: [`call`] catches it, logs it with the
//!   function's name and returns the function's fallback value (NULL, 0, an
//!   error status, or nothing).
//! - A NULL or wrong-type handle where one is required, a NULL array with a
//!   non-zero count, or a malformed string view is rejected with a
//!   [`Reject`]: logged as an error naming the function, then the fallback.
//!   Errors that belong to the device timeline are reported as device errors
//!   instead, by the object code.
//! - Spontaneous callbacks completed during the call are delivered when it
//!   returns, after every internal lock is released; so are messages for
//!   the log callback (wgpu.h) logged during the call.

use std::ffi::{c_char, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::abi::{WGPUStringView, WGPU_STRLEN};
use crate::ffi::handle::{Handle, Object};

/// A rejected call: what was wrong, for the log.
#[derive(Debug)]
pub(crate) struct Reject(pub(crate) String);

/// The result of a call's body: its value, or why it was rejected.
pub(crate) type ApiResult<T> = Result<T, Reject>;

/// Builds a [`Reject`] from a format string.
macro_rules! reject {
    ($($arg:tt)*) => { $crate::ffi::boundary::Reject(format!($($arg)*)) };
}
pub(crate) use reject;

/// Runs the body of the exported function `func`, with the panic and
/// rejection policy above. `fallback` is returned when the call is rejected
/// or panics.
///
/// Nothing in here may unwind into C (that aborts the process): the body
/// runs under `catch_unwind`, and so does everything around it that calls
/// other code (logging, spontaneous delivery, the log callback's queue).
/// None of it panics by design; thread-locals are reached with `try_with`,
/// since calls come from exit handlers and thread-storage destructors too,
/// where they are gone. Entering and leaving the frame, plain `Cell`
/// arithmetic that cannot panic (`ffi::frame`), and the check for owed
/// spontaneous callbacks, an atomic load, run outside `catch_unwind`: they
/// are on every call's path.
pub(crate) fn call<R>(func: &'static str, fallback: R, body: impl FnOnce() -> ApiResult<R>) -> R {
    // The frame is kept only while a log callback or wgpu-native
    // compatibility needs it (`ffi::frame`).
    let frame =
        if crate::ffi::log::active() || crate::compat::active() { crate::ffi::frame::enter(func) } else { None };
    // Borrowed, not moved, into `catch_unwind`, which copies its closure: a
    // copy of freshly written captures stalls on store forwarding.
    let mut body = Some(body);
    let run = || match body.take() {
        Some(body) => body(),
        None => Err(Reject("internal error: the call ran twice".into())),
    };
    let out = match catch_unwind(AssertUnwindSafe(run)) {
        Ok(Ok(value)) => value,
        Ok(Err(Reject(why))) => {
            guarded(func, "logging", || {
                crate::ffi::log::init();
                log::error!(target: "wgpu_shim", "{func}: {why}");
            });
            fallback
        }
        Err(panic) => {
            guarded(func, "logging", || {
                crate::ffi::log::init();
                let what = panic_text(&*panic);
                log::error!(target: "wgpu_shim", "{func}: internal error ({what}); the call did nothing");
            });
            fallback
        }
    };
    let left = frame.map(crate::ffi::frame::leave);
    if crate::futures::spontaneous_owed() {
        guarded(func, "delivering spontaneous callbacks", crate::futures::flush_spontaneous);
    }
    if let Some(left) = left {
        guarded(func, "delivering log messages", || crate::ffi::log::returned(left));
    }
    out
}

/// The message of a caught panic.
pub(crate) fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// Runs one step of [`call`] outside the body; a panic in it is caught and
/// reported (to stderr directly if logging is what panicked).
#[inline]
fn guarded<T>(func: &'static str, what: &str, step: impl FnOnce() -> T) -> Option<T> {
    match catch_unwind(AssertUnwindSafe(step)) {
        Ok(value) => Some(value),
        Err(_) => {
            let reported = catch_unwind(|| {
                log::error!(target: "wgpu_shim", "{func}: internal error while {what}");
            });
            if reported.is_err() {
                use std::io::Write as _;
                let _ = writeln!(std::io::stderr(), "[wgpu-shim ERROR] {func}: internal error while {what}");
            }
            None
        }
    }
}

/// Runs the work of a `Drop` impl that frees driver objects (a wgpu-core
/// drop function, a thread join): a panic in it is caught and logged. A
/// drop may run while a panic unwinds, and a second panic there aborts the
/// process. Once the process is exiting and the library is detached from
/// the driver (`engine::exit`), the work is skipped: what it would free is
/// left to the operating system.
pub(crate) fn in_drop(what: &'static str, work: impl FnOnce()) {
    if crate::ffi::exit::detached() {
        return;
    }
    catching(what, work);
}

/// Runs `work` with any panic in it caught and logged (a `Drop` impl's work
/// that touches no driver, an exit handler).
pub(crate) fn catching(what: &'static str, work: impl FnOnce()) {
    if catch_unwind(AssertUnwindSafe(work)).is_err() {
        let _ = catch_unwind(|| log::error!(target: "wgpu_shim", "internal error while dropping {what}"));
    }
}

/// The object behind a required handle argument.
///
/// # Safety
/// `raw` is NULL or a handle this library returned that the application
/// still owns a reference to.
#[inline]
pub(crate) unsafe fn arg<'a, T: Object>(raw: *mut T::Raw, param: &str) -> ApiResult<&'a Handle<T>> {
    // SAFETY: forwarded from the caller.
    unsafe { Handle::<T>::get(raw) }.map_err(|why| bad_arg(param, why))
}

/// The rejection of a bad handle argument.
#[cold]
fn bad_arg(param: &str, why: String) -> Reject {
    reject!("`{param}`: {why}")
}

/// The object behind a nullable handle argument (`None` for NULL).
///
/// # Safety
/// As [`arg`].
pub(crate) unsafe fn opt_arg<'a, T: Object>(raw: *mut T::Raw, param: &str) -> ApiResult<Option<&'a Handle<T>>> {
    if raw.is_null() {
        return Ok(None);
    }
    // SAFETY: forwarded from the caller.
    unsafe { arg::<T>(raw, param) }.map(Some)
}

/// A required pointer argument as a reference.
///
/// # Safety
/// `ptr` is NULL or points at a valid `T` for the duration of the call.
pub(crate) unsafe fn ptr_arg<'a, T>(ptr: *const T, param: &str) -> ApiResult<&'a T> {
    // SAFETY: forwarded from the caller.
    unsafe { ptr.as_ref() }.ok_or_else(|| reject!("`{param}` is NULL"))
}

/// A required output pointer as a mutable reference.
///
/// # Safety
/// `ptr` is NULL or points at a valid, writable `T` for the duration of the
/// call, not aliased elsewhere.
pub(crate) unsafe fn out_arg<'a, T>(ptr: *mut T, param: &str) -> ApiResult<&'a mut T> {
    // SAFETY: forwarded from the caller.
    unsafe { ptr.as_mut() }.ok_or_else(|| reject!("`{param}` is NULL"))
}

/// A C array given as (count, pointer). NULL is allowed only with count 0.
///
/// # Safety
/// When `count > 0`, `ptr` is NULL or points at `count` valid elements that
/// stay valid for the duration of the call.
pub(crate) unsafe fn slice_arg<'a, T>(ptr: *const T, count: usize, param: &str) -> ApiResult<&'a [T]> {
    if count == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(reject!("`{param}` is NULL but its count is {count}"));
    }
    // SAFETY: non-NULL, and the caller guarantees `count` elements.
    Ok(unsafe { std::slice::from_raw_parts(ptr, count) })
}

/// A mutable C array given as (count, pointer). NULL is allowed only with
/// count 0.
///
/// # Safety
/// As [`slice_arg`], and the elements are writable and not aliased.
pub(crate) unsafe fn slice_arg_mut<'a, T>(ptr: *mut T, count: usize, param: &str) -> ApiResult<&'a mut [T]> {
    if count == 0 {
        return Ok(&mut []);
    }
    if ptr.is_null() {
        return Err(reject!("`{param}` is NULL but its count is {count}"));
    }
    // SAFETY: non-NULL, and the caller guarantees `count` writable elements.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, count) })
}

/// What an input string view holds.
pub(crate) enum Str<'a> {
    /// The null string (`{NULL, WGPU_STRLEN}`).
    Null,
    /// A string; invalid UTF-8 is replaced.
    Some(std::borrow::Cow<'a, str>),
}

impl<'a> Str<'a> {
    /// The string, with null read as empty (non-nullable inputs).
    pub(crate) fn or_empty(self) -> std::borrow::Cow<'a, str> {
        match self {
            Str::Null => std::borrow::Cow::Borrowed(""),
            Str::Some(s) => s,
        }
    }

    /// The string, or `None` for the null string (nullable inputs).
    pub(crate) fn into_option(self) -> Option<std::borrow::Cow<'a, str>> {
        match self {
            Str::Null => None,
            Str::Some(s) => Some(s),
        }
    }
}

/// Reads an input string view.
///
/// # Safety
/// `view.data` is NULL, or points at `view.length` readable bytes, or (with
/// `length == WGPU_STRLEN`) at a NUL-terminated string.
#[inline]
pub(crate) unsafe fn str_arg<'a>(view: WGPUStringView, param: &str) -> ApiResult<Str<'a>> {
    let bytes: &[u8] = if view.data.is_null() {
        match view.length {
            WGPU_STRLEN => return Ok(Str::Null),
            0 => return Ok(Str::Some("".into())),
            n => return Err(reject!("`{param}` has a NULL pointer with length {n}")),
        }
    } else if view.length == WGPU_STRLEN {
        // SAFETY: the caller guarantees a NUL-terminated string.
        unsafe { CStr::from_ptr(view.data) }.to_bytes()
    } else {
        // SAFETY: the caller guarantees `length` readable bytes.
        unsafe { std::slice::from_raw_parts(view.data.cast::<u8>(), view.length) }
    };
    // Labels and keys are nearly always ASCII, which the ASCII check finds
    // much faster than the UTF-8 decoders.
    Ok(Str::Some(if bytes.is_ascii() {
        // SAFETY: ASCII is valid UTF-8.
        std::borrow::Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        String::from_utf8_lossy(bytes)
    }))
}

/// Reads a non-nullable input string (labels, code, keys): null is empty.
///
/// # Safety
/// As [`str_arg`].
pub(crate) unsafe fn label_arg(view: WGPUStringView, param: &str) -> ApiResult<String> {
    // SAFETY: forwarded from the caller.
    let label = unsafe { str_arg(view, param) }?.or_empty().into_owned();
    if !label.is_empty() && crate::compat::active() {
        crate::ffi::frame::note_label(&label);
    }
    Ok(label)
}

/// An output string view borrowing `s` (valid while `s` lives). Empty
/// strings are `{NULL, 0}`.
pub(crate) fn out_str(s: &str) -> WGPUStringView {
    if s.is_empty() {
        WGPUStringView { data: std::ptr::null(), length: 0 }
    } else {
        WGPUStringView { data: s.as_ptr().cast::<c_char>(), length: s.len() }
    }
}

/// Defines the exported `AddRef` and `Release` functions of an object type.
macro_rules! refcounted {
    ($ty:ty, $raw:ty, $add_ref:ident, $release:ident) => {
        #[doc = concat!("Adds one application reference to a `", stringify!($raw), "`.")]
        ///
        /// # Safety
        /// The argument is NULL or a live handle of this type.
        #[no_mangle]
        pub unsafe extern "C" fn $add_ref(handle: $raw) {
            $crate::ffi::boundary::call(stringify!($add_ref), (), || {
                // SAFETY: the C caller passes NULL or a live handle.
                unsafe { $crate::ffi::boundary::arg::<$ty>(handle, "handle") }?.add_ref();
                Ok(())
            })
        }

        #[doc = concat!("Releases one application reference to a `", stringify!($raw), "`; the last one lets the object go.")]
        ///
        /// # Safety
        /// The argument is NULL or a live handle of this type, whose
        /// reference the caller gives up.
        #[no_mangle]
        pub unsafe extern "C" fn $release(handle: $raw) {
            $crate::ffi::boundary::call(stringify!($release), (), || {
                // SAFETY: the C caller passes NULL or a live handle and gives
                // up its reference.
                unsafe { $crate::ffi::boundary::arg::<$ty>(handle, "handle")?.release(handle) };
                Ok(())
            })
        }
    };
}
pub(crate) use refcounted;

/// Defines an exported `SetLabel` function for objects that keep their label
/// in a `label: parking_lot::Mutex<String>` field.
macro_rules! set_label {
    ($ty:ty, $raw:ty, $set_label:ident) => {
        #[doc = concat!("Sets the label of a `", stringify!($raw), "` (used in messages about it).")]
        ///
        /// # Safety
        /// `handle` is NULL or a live handle of this type; `label` is a valid
        /// string view.
        #[no_mangle]
        pub unsafe extern "C" fn $set_label(handle: $raw, label: $crate::abi::WGPUStringView) {
            $crate::ffi::boundary::call(stringify!($set_label), (), || {
                // SAFETY: the C caller passes NULL or a live handle, and a
                // valid string view.
                let (h, label) = unsafe {
                    (
                        $crate::ffi::boundary::arg::<$ty>(handle, "handle")?,
                        $crate::ffi::boundary::label_arg(label, "label")?,
                    )
                };
                *h.label.lock() = label;
                Ok(())
            })
        }
    };
}
pub(crate) use set_label;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_views() {
        let null = WGPUStringView { data: std::ptr::null(), length: WGPU_STRLEN };
        // SAFETY: the views below point at live data.
        unsafe {
            assert!(matches!(str_arg(null, "x").unwrap(), Str::Null));
            let bad = WGPUStringView { data: std::ptr::null(), length: 3 };
            assert!(str_arg(bad, "x").is_err());
            let c = c"hello";
            let v = WGPUStringView { data: c.as_ptr(), length: WGPU_STRLEN };
            assert_eq!(label_arg(v, "x").unwrap(), "hello");
            let v = WGPUStringView { data: c.as_ptr(), length: 3 };
            assert_eq!(label_arg(v, "x").unwrap(), "hel");
        }
        assert!(out_str("").data.is_null());
    }

    #[test]
    fn panics_become_fallbacks() {
        let v = call("test", 5, || -> ApiResult<i32> { panic!("boom") });
        assert_eq!(v, 5);
        let v = call("test", 5, || -> ApiResult<i32> { Err(reject!("no")) });
        assert_eq!(v, 5);
        assert_eq!(call("test", 5, || Ok(6)), 6);
    }

    /// Every exported function's body is one [`call`]: nothing it does can
    /// unwind into C (which aborts the process).
    #[test]
    fn every_export_runs_inside_call() {
        let mut found = 0;
        for (path, text) in crate::source_scan::source_files() {
            let mut lines = text.lines().map(str::trim);
            while let Some(line) = lines.next() {
                let export =
                    line.starts_with("pub unsafe extern \"C\" fn ") || line.starts_with("pub extern \"C\" fn ");
                if !export || line.ends_with(';') {
                    continue;
                }
                // The rest of the signature, then the first statement.
                let mut at = line;
                while !at.ends_with('{') {
                    at = lines.next().unwrap_or("{");
                }
                let first = lines.by_ref().find(|l| !l.is_empty() && !l.starts_with("//")).unwrap_or("");
                let inside = [
                    "call(",
                    "boundary::call(",
                    "crate::ffi::boundary::call(",
                    "$crate::ffi::boundary::call(",
                    "call_async(",
                    "crate::ffi::callback::call_async(",
                ]
                .iter()
                .any(|p| first.starts_with(p));
                assert!(inside, "{}: `{line}` does not start with call(...): `{first}`", path.display());
                found += 1;
            }
        }
        assert!(found > 100, "the source scan found only {found} exports");
    }

    #[test]
    fn slices() {
        // SAFETY: NULL with count 0 is the empty slice; a real array is valid.
        unsafe {
            assert!(slice_arg::<u32>(std::ptr::null(), 0, "a").unwrap().is_empty());
            assert!(slice_arg::<u32>(std::ptr::null(), 2, "a").is_err());
            let a = [1u32, 2];
            assert_eq!(slice_arg(a.as_ptr(), 2, "a").unwrap(), &[1, 2]);
        }
    }
}
