//! The log sink C users see.
//!
//! Messages from wgpu-shim, wgpu-core, wgpu-hal and naga go to stderr, one line
//! each, prefixed with `[wgpu-shim LEVEL target]`. The level comes from the
//! `WGPU_SHIM_LOG` environment variable (`off`, `error`, `warn`, `info`,
//! `debug`, `trace`; default `warn`), read once when the first instance is
//! created or the first message is logged. `wgpuSetLogCallback` and
//! `wgpuSetLogLevel` (wgpu.h, `native/log.rs`) redirect and filter them.

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

use std::cell::{Cell, RefCell};
use std::ffi::c_void;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

use parking_lot::{Mutex, RwLock};

use crate::abi::native::{WGPULogCallback, WGPULogLevel};
use crate::abi::native::{
    WGPULogLevel_Debug, WGPULogLevel_Error, WGPULogLevel_Info, WGPULogLevel_Trace, WGPULogLevel_Warn,
};

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

/// A callback is set: API calls keep their frame (`ffi::frame`), which
/// costs nothing while no callback is set.
static ACTIVE: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// Set while this thread runs the callback.
    static IN_CALLBACK: Cell<bool> = const { Cell::new(false) };
    /// A library thread (a device's progress thread).
    static INTERNAL: Cell<bool> = const { Cell::new(false) };
    /// Messages waiting for this thread to leave the library.
    static QUEUED: RefCell<Vec<(WGPULogLevel, String)>> = const { RefCell::new(Vec::new()) };
}

// Every thread-local above is reached with `try_with`: API calls from a
// thread-storage destructor or an exit handler come after this thread's
// storage is torn down. The `Cell`s have no destructor and are never torn
// down; `QUEUED` is, and then messages wait in `ORPHANED` instead.

/// Messages of threads whose [`QUEUED`] is gone, for the next flush of any
/// thread (the outermost call that queued them, unless another thread's
/// flush comes first).
static ORPHANED: Mutex<Vec<(WGPULogLevel, String)>> = Mutex::new(Vec::new());

/// [`ORPHANED`] is not empty (set and cleared under its lock).
static ORPHANS: AtomicBool = AtomicBool::new(false);

/// Reads one of this thread's flags (`false` if it were ever gone).
fn flag(key: &'static std::thread::LocalKey<Cell<bool>>) -> bool {
    key.try_with(Cell::get).unwrap_or(false)
}

/// Sets one of this thread's flags.
fn set_flag(key: &'static std::thread::LocalKey<Cell<bool>>, value: bool) {
    let _ = key.try_with(|c| c.set(value));
}

/// Whether a log callback is set, so API calls keep their frame.
#[inline]
pub(crate) fn active() -> bool {
    ACTIVE.load(Ordering::Relaxed)
}

/// An API call returned (`boundary::call`): the outermost one hands the
/// queued messages to the callback, after every internal lock was released.
#[inline]
pub(crate) fn returned(left: crate::ffi::frame::Left) {
    if left.outermost && (left.queued || ORPHANS.load(Ordering::Relaxed)) {
        flush_queued();
    }
}

/// Marks the calling thread as a library thread: its messages are queued
/// until it calls [`flush_queued`].
pub(crate) fn mark_internal_thread() {
    set_flag(&INTERNAL, true);
}

/// Hands this thread's queued messages to the callback (in order). Called
/// where the thread holds no internal lock.
pub(crate) fn flush_queued() {
    loop {
        let mut batch = QUEUED
            .try_with(|q| q.try_borrow_mut().map(|mut q| std::mem::take(&mut *q)).unwrap_or_default())
            .unwrap_or_default();
        if batch.is_empty() && ORPHANS.load(Ordering::Acquire) {
            let mut orphaned = ORPHANED.lock();
            ORPHANS.store(false, Ordering::Release);
            batch = std::mem::take(&mut *orphaned);
        }
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
    if flag(&IN_CALLBACK) {
        return;
    }
    let message = crate::ffi::boundary::out_str(text);
    set_flag(&IN_CALLBACK, true);
    // SAFETY: the application's callback with its userdata; the message
    // view points into `text`, which lives until the call returns.
    let outcome = std::panic::catch_unwind(|| unsafe { (target.callback)(level, message, target.userdata) });
    set_flag(&IN_CALLBACK, false);
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
    if flag(&IN_CALLBACK) {
        return false;
    }
    let text = format!("{}", record.args());
    let level = level_of(record.level());
    if crate::ffi::frame::depth() > 0 || flag(&INTERNAL) {
        let mut message = Some((level, text));
        let _ = QUEUED.try_with(|q| {
            if let (Ok(mut q), Some(m)) = (q.try_borrow_mut(), message.take()) {
                q.push(m);
            }
        });
        crate::ffi::frame::note_queued();
        if let Some(m) = message {
            let mut orphaned = ORPHANED.lock();
            orphaned.push(m);
            ORPHANS.store(true, Ordering::Release);
        }
    } else {
        call_target(target, level, &text);
    }
    true
}

/// Sets (or, for NULL, clears) the application's callback
/// (`wgpuSetLogCallback`).
pub(crate) fn set_callback(callback: WGPULogCallback, userdata: *mut c_void) {
    *TARGET.write() = callback.map(|callback| Target { callback, userdata });
    if callback.is_some() {
        ACTIVE.store(true, Ordering::Relaxed);
    }
}
struct StderrSink;

impl log::Log for StderrSink {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= log::max_level()
    }

    fn log(&self, record: &log::Record<'_>) {
        if !self.enabled(record.metadata()) || forward(record) {
            return;
        }
        // One write per line so that lines from different threads do not mix.
        let line = format!("[wgpu-shim {} {}] {}\n", record.level(), record.target(), record.args());
        let _ = std::io::stderr().lock().write_all(line.as_bytes());
    }

    fn flush(&self) {
        let _ = std::io::stderr().flush();
    }
}

static SINK: StderrSink = StderrSink;
static INIT: Once = Once::new();

/// Parses a `WGPU_SHIM_LOG` value; `None` for an unknown one.
pub(crate) fn parse_level(value: &str) -> Option<log::LevelFilter> {
    match value.trim().to_ascii_lowercase().as_str() {
        "off" | "none" | "0" => Some(log::LevelFilter::Off),
        "error" => Some(log::LevelFilter::Error),
        "warn" | "warning" => Some(log::LevelFilter::Warn),
        "info" => Some(log::LevelFilter::Info),
        "debug" => Some(log::LevelFilter::Debug),
        "trace" => Some(log::LevelFilter::Trace),
        _ => None,
    }
}

/// Installs the stderr sink unless the host process already installed a
/// `log` logger of its own (a Rust program linking the rlib), in which case
/// messages go there.
pub(crate) fn init() {
    INIT.call_once(|| {
        let requested = std::env::var("WGPU_SHIM_LOG").ok();
        let level = requested
            .as_deref()
            .and_then(parse_level)
            .unwrap_or(log::LevelFilter::Warn);
        if log::set_logger(&SINK).is_ok() {
            log::set_max_level(level);
            if let Some(value) = requested.filter(|v| parse_level(v).is_none()) {
                log::warn!(target: "wgpu_shim", "WGPU_SHIM_LOG={value:?} is not a level (off, error, warn, info, debug, trace); using warn");
            }
            if let Some(value) = crate::compat::unknown_setting() {
                log::warn!(target: "wgpu_shim", "WGPU_SHIM_COMPAT={value:?} is not known (wgpu-native or standard): ignored");
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::parse_level;

    #[test]
    fn levels_parse() {
        assert_eq!(parse_level("TRACE"), Some(log::LevelFilter::Trace));
        assert_eq!(parse_level(" warn "), Some(log::LevelFilter::Warn));
        assert_eq!(parse_level("off"), Some(log::LevelFilter::Off));
        assert_eq!(parse_level("loud"), None);
    }
}
