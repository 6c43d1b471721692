//! The exit barrier: once the process has begun to exit, the library's own
//! threads stop calling into the graphics driver.
//!
//! A driver that is a C++ library (NVIDIA's) tears its state down in static
//! destructors, which `exit()` runs in the reverse order of their
//! registration. The driver registers them when it is loaded, that is when
//! the program first creates an instance, so they run before every exit
//! handler and static destructor the program registered earlier. A progress
//! thread still sleeping in `vkWaitSemaphores` at that moment crashes inside
//! the torn-down driver.
//!
//! So whenever creating an instance, an adapter or a device loaded new shared
//! objects ([`arm`], called by `drivers::pinning`), the library registers
//! [`barrier`] with `atexit`: it then runs *before* the destructors of what
//! was just loaded, and after every exit handler and static destructor the
//! program registered later. The barrier runs once:
//!
//! 1. every progress thread, and its device's fence watcher
//!    (`watch.rs`), leaves the driver and stays out of it (the barrier
//!    waits, bounded, until each has);
//! 2. every live instance finishes ([`AtExit`]): each device's submitted
//!    work is waited for (bounded), then the instance is closed as by its
//!    last release: every callback still owed gets `CallbackCancelled`. The
//!    barrier runs none of them: an exit handler must not call into an
//!    application whose runtime may already be finalized (Python's is by
//!    then). They run at the end of the next API call, if one comes;
//! 3. the library is *detached* (`ffi::exit::detached`, flags the boundary
//!    reads too): it makes no driver call any more. Releases leak what they would free (the process is ending), new
//!    instances are refused, polls do nothing, and asynchronous calls
//!    complete at once with `CallbackCancelled` (their instance is closed).
//!
//! Exit handlers and static destructors that run later (those registered
//! before the first instance was created: a C++ global whose destructor
//! releases a device) therefore never reach a torn-down driver. Those that
//! run earlier use the library as usual.

use std::sync::{Arc, Weak};
use std::time::Duration;

use parking_lot::Mutex;

use crate::engine::progress::Progress;
use crate::ffi::exit::{detach, exiting};

/// What the barrier finishes, in registration order.
static HOOKS: Mutex<Vec<Weak<dyn AtExit>>> = Mutex::new(Vec::new());

/// An object the barrier finishes while the driver is still there.
pub(crate) trait AtExit: Send + Sync {
    /// Finishes the object's work and delivers what it owes.
    #[cfg_attr(windows, allow(dead_code))] // The exit barrier's work, which Windows skips (exit.rs).
    fn at_exit(&self);
}

/// The progress threads the barrier must stop (dead entries are pruned when
/// one is added).
static LIVE: Mutex<Vec<Weak<Progress>>> = Mutex::new(Vec::new());

/// How long the barrier waits for one progress thread to leave the driver.
/// A thread sleeping in the driver wakes at its next slice at the latest
/// (`progress.rs`), or as soon as the GPU progresses.
#[cfg_attr(windows, allow(dead_code))] // The exit barrier's work, which Windows skips (exit.rs).
const LEAVE_TIMEOUT: Duration = Duration::from_millis(500);

/// Has the barrier finish `hook` (an instance).
pub(crate) fn finish_at_exit(hook: Weak<dyn AtExit>) {
    let mut hooks = HOOKS.lock();
    hooks.retain(|h| h.strong_count() > 0);
    hooks.push(hook);
}

/// Lists a started progress thread for the barrier.
pub(crate) fn track(progress: &Arc<Progress>) {
    let mut live = LIVE.lock();
    live.retain(|p| p.strong_count() > 0);
    live.push(Arc::downgrade(progress));
}

/// Registers the barrier to run at exit before the destructors of whatever
/// was loaded until now. Called after a creation that loaded new shared
/// objects, so the number of registrations is bounded by the number of
/// times drivers were loaded.
pub(crate) fn arm() {
    if exiting() {
        return;
    }
    // SAFETY: `barrier_at_exit` is a plain `extern "C" fn()` of this
    // library. glibc's `atexit` records it against this shared object, so
    // an unload of the library runs (or drops) it first.
    if unsafe { libc::atexit(barrier_at_exit) } != 0 {
        log::warn!(target: "wgpu_shim", "cannot register the exit barrier: a progress thread may be inside the driver when it is torn down at exit");
    }
}

/// Registers the barrier once, at the first creation, on the systems whose
/// drivers are not pinned (`drivers.rs` lists loaded objects on Linux only).
#[cfg(not(target_os = "linux"))]
pub(crate) fn arm_once() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(arm);
}

/// `atexit` entry point: nothing may unwind into libc.
extern "C" fn barrier_at_exit() {
    crate::ffi::boundary::catching("the exit barrier", barrier);
}

/// On Windows the C runtime runs a DLL's `atexit` handlers when the DLL is
/// unloaded at process exit, after the system has ended every other thread
/// and under the loader lock: there is no progress thread to wait for, and
/// no driver may be called (its own DLL may be detached already). The
/// barrier only detaches the library, so the releases that follow leak.
#[cfg(windows)]
pub(crate) fn barrier() {
    if !crate::ffi::exit::begin_exit() {
        detach();
    }
}

/// Stops every progress thread from entering the driver again, once.
#[cfg(not(windows))]
pub(crate) fn barrier() {
    if crate::ffi::exit::begin_exit() {
        return;
    }
    let live: Vec<Arc<Progress>> = match LIVE.try_lock_for(LEAVE_TIMEOUT) {
        Some(list) => list.iter().filter_map(Weak::upgrade).collect(),
        None => {
            log::warn!(target: "wgpu_shim", "exit barrier: the thread list is busy; progress threads keep running");
            Vec::new()
        }
    };
    for progress in live {
        if !progress.leave_driver(LEAVE_TIMEOUT) {
            log::warn!(target: "wgpu_shim", "exit barrier: a progress thread is still inside the driver after {LEAVE_TIMEOUT:?}");
        }
    }
    let hooks: Vec<Arc<dyn AtExit>> = match HOOKS.try_lock_for(LEAVE_TIMEOUT) {
        Some(list) => list.iter().filter_map(Weak::upgrade).collect(),
        None => Vec::new(),
    };
    for hook in hooks {
        crate::ffi::boundary::catching("an instance at exit", || hook.at_exit());
    }
    detach();
    log::debug!(target: "wgpu_shim", "exit barrier: detached from the driver");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arm_registers_without_running_the_barrier() {
        arm();
        assert!(!exiting(), "registering must not run the barrier");
        assert!(!crate::ffi::exit::detached());
    }
}
