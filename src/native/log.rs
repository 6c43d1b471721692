//! `wgpuSetLogCallback` and `wgpuSetLogLevel`: the application's log sink
//! (the sink itself, and why the callback never runs where locks are held,
//! are in `ffi/log.rs`).

#![allow(non_upper_case_globals)]

use std::ffi::c_void;

use super::call;
use crate::abi::native::*;
use crate::ffi::boundary::reject;

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
    call("wgpuSetLogCallback", (), || {
        crate::ffi::log::init();
        crate::ffi::log::set_callback(callback, userdata);
        Ok(())
    })
}

/// Sets the most detailed level logged (for the callback and stderr alike).
/// An unknown level is logged and ignored.
#[no_mangle]
pub extern "C" fn wgpuSetLogLevel(level: WGPULogLevel) {
    call("wgpuSetLogLevel", (), || {
        crate::ffi::log::init();
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
