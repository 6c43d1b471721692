//! `wgpuSetLogCallback` and `wgpuSetLogLevel`: the application's log sink.
//!
//! The library logs through the `log` crate (`src/log.rs` installs the
//! sink). While a callback is set, the sink hands every message that passes
//! the level filter (the library's, wgpu-core's, wgpu-hal's, naga's) to it
//! instead of stderr. The callback is copied out of its lock before it is
//! called, so it may itself call any function, `wgpuSetLogCallback`
//! included; a message logged while the callback runs on the same thread
//! goes to stderr (no recursion).

#![allow(non_upper_case_globals)]

use std::cell::Cell;
use std::ffi::c_void;

use parking_lot::RwLock;

use super::abi::*;
use crate::boundary::{call, reject};

/// The callback and its userdata.
#[derive(Clone, Copy)]
struct Target {
    callback: unsafe extern "C" fn(WGPULogLevel, crate::abi::WGPUStringView, *mut c_void),
    userdata: *mut c_void,
}

// SAFETY: the userdata is the application's and is only handed back to its
// callback; wgpu-native calls the callback from any thread too.
unsafe impl Send for Target {}
// SAFETY: as above.
unsafe impl Sync for Target {}

static TARGET: RwLock<Option<Target>> = RwLock::new(None);

thread_local! {
    /// Set while this thread runs the callback.
    static IN_CALLBACK: Cell<bool> = const { Cell::new(false) };
}

fn level_of(level: log::Level) -> WGPULogLevel {
    match level {
        log::Level::Error => WGPULogLevel_Error,
        log::Level::Warn => WGPULogLevel_Warn,
        log::Level::Info => WGPULogLevel_Info,
        log::Level::Debug => WGPULogLevel_Debug,
        log::Level::Trace => WGPULogLevel_Trace,
    }
}

/// Hands `record` to the application's callback; `false` when none is set
/// (or this thread is inside it), so the caller writes it to stderr.
pub(crate) fn forward(record: &log::Record<'_>) -> bool {
    let Some(target) = *TARGET.read() else { return false };
    if IN_CALLBACK.with(Cell::get) {
        return false;
    }
    let text = format!("{}", record.args());
    let message = crate::boundary::out_str(&text);
    IN_CALLBACK.with(|c| c.set(true));
    // SAFETY: the application's callback with its userdata; the message
    // view points into `text`, which lives until the call returns.
    let outcome =
        std::panic::catch_unwind(|| unsafe { (target.callback)(level_of(record.level()), message, target.userdata) });
    IN_CALLBACK.with(|c| c.set(false));
    drop(outcome);
    true
}

/// Sends every log message at or above the current level
/// (`wgpuSetLogLevel`, else `WGPU_SHIM_LOG`, else warn) to `callback`, from
/// whichever thread logs it; `message` is valid during the call only. NULL
/// restores the default sink (stderr).
///
/// # Safety
/// `callback` is NULL or a function safe to call from any thread with
/// `userdata`.
#[no_mangle]
pub unsafe extern "C" fn wgpuSetLogCallback(callback: WGPULogCallback, userdata: *mut c_void) {
    crate::log::init();
    call("wgpuSetLogCallback", (), || {
        *TARGET.write() = callback.map(|callback| Target { callback, userdata });
        Ok(())
    })
}

/// Sets the most detailed level logged (for the callback and stderr alike).
/// An unknown level is logged and ignored.
#[no_mangle]
pub extern "C" fn wgpuSetLogLevel(level: WGPULogLevel) {
    crate::log::init();
    call("wgpuSetLogLevel", (), || {
        let filter = match level {
            WGPULogLevel_Off => log::LevelFilter::Off,
            WGPULogLevel_Error => log::LevelFilter::Error,
            WGPULogLevel_Warn => log::LevelFilter::Warn,
            WGPULogLevel_Info => log::LevelFilter::Info,
            WGPULogLevel_Debug => log::LevelFilter::Debug,
            WGPULogLevel_Trace => log::LevelFilter::Trace,
            other => return Err(reject!("level {other:#x} is not a WGPULogLevel")),
        };
        log::set_max_level(filter);
        Ok(())
    })
}
