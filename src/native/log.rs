//! `wgpuSetLogCallback` and `wgpuSetLogLevel`: the application's log sink.
//!
//! The library logs through the `log` crate (`src/log.rs` installs the
//! sink). While a callback is set, the sink hands every message that passes
//! the level filter (the library's, wgpu-core's, wgpu-hal's, naga's) to it
//! instead of stderr.
//!
//! Messages are often logged while internal locks are held (inside
//! wgpu-core's maintenance, say), and the callback is application code that
//! may call any function. So, as with every other callback, it never runs
//! there: a message logged during an API call, or on a library thread, is
//! queued on its thread and handed to the callback when the outermost API
//! call returns (after every lock is released), or when the library thread
//! finishes its step. Only messages logged on a thread that is in no API
//! call go straight to the callback. A message logged while the callback
//! runs on the same thread goes to stderr (no recursion).

#![allow(non_upper_case_globals)]

use std::cell::{Cell, RefCell};
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};

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

/// A callback is set: API calls count their nesting (a thread-local), which
/// costs nothing while no callback is set.
static ACTIVE: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// Set while this thread runs the callback.
    static IN_CALLBACK: Cell<bool> = const { Cell::new(false) };
    /// API calls in progress on this thread (counted while [`ACTIVE`]).
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// A library thread (a device's progress thread).
    static INTERNAL: Cell<bool> = const { Cell::new(false) };
    /// Messages waiting for this thread to leave the library.
    static QUEUED: RefCell<Vec<(WGPULogLevel, String)>> = const { RefCell::new(Vec::new()) };
}

/// An API call begins (`boundary::call`); returns whether it was counted.
#[inline]
pub(crate) fn enter() -> bool {
    if !ACTIVE.load(Ordering::Relaxed) {
        return false;
    }
    DEPTH.with(|d| d.set(d.get() + 1));
    true
}

/// An API call ends: the outermost one hands the queued messages to the
/// callback, after every internal lock was released.
#[inline]
pub(crate) fn leave(counted: bool) {
    if counted {
        let outermost = DEPTH.with(|d| {
            let depth = d.get().saturating_sub(1);
            d.set(depth);
            depth == 0
        });
        if outermost {
            flush_queued();
        }
    }
}

/// Marks the calling thread as a library thread: its messages are queued
/// until it calls [`flush_queued`].
pub(crate) fn mark_internal_thread() {
    INTERNAL.with(|i| i.set(true));
}

/// Hands this thread's queued messages to the callback (in order). Called
/// where the thread holds no internal lock.
pub(crate) fn flush_queued() {
    loop {
        let batch = QUEUED.with(|q| std::mem::take(&mut *q.borrow_mut()));
        if batch.is_empty() {
            return;
        }
        let Some(target) = *TARGET.read() else { return };
        for (level, text) in batch {
            call_target(target, level, &text);
        }
    }
}

/// Runs the callback for one message (never re-entered on one thread).
fn call_target(target: Target, level: WGPULogLevel, text: &str) {
    if IN_CALLBACK.with(Cell::get) {
        return;
    }
    let message = crate::boundary::out_str(text);
    IN_CALLBACK.with(|c| c.set(true));
    // SAFETY: the application's callback with its userdata; the message
    // view points into `text`, which lives until the call returns.
    let outcome = std::panic::catch_unwind(|| unsafe { (target.callback)(level, message, target.userdata) });
    IN_CALLBACK.with(|c| c.set(false));
    drop(outcome);
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
    let level = level_of(record.level());
    if DEPTH.with(Cell::get) > 0 || INTERNAL.with(Cell::get) {
        QUEUED.with(|q| q.borrow_mut().push((level, text)));
    } else {
        call_target(target, level, &text);
    }
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
        if callback.is_some() {
            ACTIVE.store(true, Ordering::Relaxed);
        }
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
