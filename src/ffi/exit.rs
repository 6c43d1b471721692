//! The process-exit flags, which the boundary itself reads (a `Drop` skips
//! its wgpu-core work once the library is detached: `boundary::in_drop`).
//! The exit barrier that sets them, and the reasons for it, are in
//! `engine::exit`.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the barrier: the process is exiting.
static EXITING: AtomicBool = AtomicBool::new(false);

/// Set at the barrier's end: no driver call any more.
static DETACHED: AtomicBool = AtomicBool::new(false);

/// Whether the process is exiting (the barrier ran).
pub(crate) fn exiting() -> bool {
    EXITING.load(Ordering::Acquire)
}

/// Marks the process as exiting; `true` if it already was (the barrier runs
/// once).
pub(crate) fn begin_exit() -> bool {
    EXITING.swap(true, Ordering::AcqRel)
}

/// Whether the library is detached from the driver (the barrier ran):
/// drops leak, and nothing may call the driver.
pub(crate) fn detached() -> bool {
    DETACHED.load(Ordering::Acquire)
}

/// Detaches the library from the driver, for good.
pub(crate) fn detach() {
    DETACHED.store(true, Ordering::Release);
}
