//! The fence watcher: a device's second thread, which sleeps on the fence
//! for threads that nap until shortly before their job's predicted end.
//!
//! The wait ladder's early wake (`spin.rs`) must end a sleep shortly before
//! a long job's predicted end, yet wake at once if the job ends sooner. A
//! thread asleep in the driver can do both, but the driver wakes it late
//! (40–200 µs after the signal on the lent GPUs, `benches/driver_wait.rs`),
//! and that lateness is what the early wake is meant to avoid. So the
//! sleeping thread instead naps on a [`HostSignal`]'s condition variable
//! with the OS's precise timer ([`HostSignal::nap_until`]), and this thread
//! sleeps on the fence for it ([`Watcher::watch`]): when the fence reaches
//! the napper's target first, the watcher nudges the napper. A job that
//! ends on time costs the napper a timer wake-up and its spin, no driver
//! wake-up; one that ends early costs the driver's wake-up of the watcher
//! and a nudge.
//!
//! One watcher serves a device's direct waiters (`objects/device/
//! direct_wait.rs`) and its progress thread. It watches for the lowest
//! target asked; a napper nudged for another's target asks again. Its
//! thread starts at the first request. Its fence waits end a slice after
//! the latest expected end, at most [`WATCH_MAX_NS`], so that a job ending
//! on time never reaches a wait's timeout (NVIDIA's driver spins before
//! one) and so that the exit barrier and the device's drop, which wait for
//! the thread to leave the driver, wait a bounded time.

use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use super::fence::DeviceFence;
use super::signal::HostSignal;

/// How long a watch's fence wait lasts after the expected end.
const SLICE_NS: u64 = 100_000_000;

/// The longest fence wait of a watch: within the exit barrier's wait for
/// the thread (`exit.rs`).
const WATCH_MAX_NS: u64 = 400_000_000;

/// A napper's request: sleep on the fence for `target` until a slice after
/// `until` at most, and nudge `signal` once the fence reaches it.
#[derive(Clone)]
struct Watch {
    target: u64,
    until: Instant,
    signal: Arc<HostSignal>,
}

struct State {
    watch: Option<Watch>,
    /// The thread was spawned.
    spawned: bool,
    /// No more watches: the device is going, or the process is exiting.
    closed: bool,
    /// The thread is in the driver (between taking a watch and its end).
    in_driver: bool,
}

/// A device's fence watcher (see the module documentation).
pub(crate) struct Watcher {
    fence: Box<dyn DeviceFence>,
    label: String,
    state: Mutex<State>,
    /// Signalled for a new watch and when the watcher closes.
    cond: Condvar,
    /// Signalled when the thread leaves the driver.
    left: Condvar,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl Watcher {
    /// A watcher of `fence` (the device's, `label` its name); its thread
    /// starts at the first watch.
    pub(crate) fn new(fence: Box<dyn DeviceFence>, label: String) -> Arc<Watcher> {
        Arc::new(Watcher {
            fence,
            label,
            state: Mutex::new(State { watch: None, spawned: false, closed: false, in_driver: false }),
            cond: Condvar::new(),
            left: Condvar::new(),
            thread: Mutex::new(None),
        })
    }

    /// Sleeps on the fence for `target` while a thread naps on `signal`,
    /// until a slice after `until` (when the job is expected to end), and
    /// nudges `signal` ([`HostSignal::nudge`]) when the fence reaches
    /// `target`. With several nappers the watcher watches for the lowest
    /// target. `false` when it cannot watch (closed, or its thread could
    /// not start): the napper must then sleep on the fence itself.
    pub(crate) fn watch(self: &Arc<Self>, target: u64, until: Instant, signal: &Arc<HostSignal>) -> bool {
        let mut st = self.state.lock();
        if st.closed || (!st.spawned && !self.spawn(&mut st)) {
            return false;
        }
        match &mut st.watch {
            Some(w) => {
                w.target = w.target.min(target);
                w.until = w.until.max(until);
            }
            none => {
                *none = Some(Watch { target, until, signal: signal.clone() });
                self.cond.notify_one();
            }
        }
        true
    }

    /// The napper of [`Watcher::watch`] for `target` is awake: the watcher
    /// stops watching for it (another napper's lower target stays).
    pub(crate) fn unwatch(&self, target: u64) {
        let mut st = self.state.lock();
        if st.watch.as_ref().is_some_and(|w| w.target == target) {
            st.watch = None;
        }
    }

    /// Starts the thread (under the state lock); whether it runs.
    fn spawn(self: &Arc<Self>, st: &mut State) -> bool {
        let me = self.clone();
        let spawned =
            std::thread::Builder::new().name(format!("wgpu-shim watch ({})", self.label)).spawn(move || me.run());
        match spawned {
            Ok(handle) => {
                *self.thread.lock() = Some(handle);
                st.spawned = true;
                true
            }
            Err(err) => {
                log::warn!(target: "wgpu_shim", "device {:?}: cannot start its fence watcher ({err}): early wakes sleep in the driver", self.label);
                st.closed = true;
                false
            }
        }
    }

    /// The exit barrier (`exit.rs`): no more watches; waits up to
    /// `timeout` for the thread to leave the driver. Whether it did.
    #[cfg_attr(windows, allow(dead_code))] // The exit barrier's work, which Windows skips (exit.rs).
    pub(crate) fn leave_driver(&self, timeout: Duration) -> bool {
        let mut st = self.close();
        let deadline = Instant::now() + timeout;
        while st.in_driver {
            if self.left.wait_until(&mut st, deadline).timed_out() {
                return !st.in_driver;
            }
        }
        true
    }

    /// Closes the watcher and joins its thread (the device is going).
    pub(crate) fn stop(&self) {
        drop(self.close());
        let handle = self.thread.lock().take();
        if handle.is_some_and(|h| h.join().is_err()) {
            log::error!(target: "wgpu_shim", "the fence watcher panicked");
        }
    }

    /// Marks the watcher closed and wakes its thread and its nappers
    /// (they then sleep on the fence themselves); the state stays locked.
    fn close(&self) -> parking_lot::MutexGuard<'_, State> {
        let mut st = self.state.lock();
        st.closed = true;
        if let Some(w) = st.watch.take() {
            w.signal.nudge();
        }
        self.cond.notify_one();
        st
    }

    fn run(&self) {
        crate::ffi::log::mark_internal_thread();
        let mut st = self.state.lock();
        loop {
            if st.in_driver {
                st.in_driver = false;
                self.left.notify_all();
            }
            while st.watch.is_none() && !st.closed {
                self.cond.wait(&mut st);
            }
            let Some(watch) = st.watch.clone().filter(|_| !st.closed) else { return };
            st.in_driver = true;
            drop(st);
            self.watch_fence(&watch);
            st = self.state.lock();
            if st.watch.as_ref().is_some_and(|w| w.target == watch.target) && self.reached(watch.target) {
                st.watch = None;
            }
        }
    }

    /// Sleeps on the fence for the watch's target, until a slice after its
    /// expected end (at least a slice, at most [`WATCH_MAX_NS`]), and
    /// nudges the napper once the fence reached it.
    fn watch_fence(&self, watch: &Watch) {
        let timeout = super::spin::ns_until(watch.until).saturating_add(SLICE_NS).min(WATCH_MAX_NS);
        if !self.fence.wait_ns(watch.target, timeout) {
            // The wait failed: the napper sleeps out its nap; no retry loop.
            std::thread::sleep(Duration::from_millis(2));
        }
        if self.reached(watch.target) {
            watch.signal.nudge();
        }
    }

    /// Whether the fence reached `target` (or cannot be read: the napper
    /// then finds out for itself).
    fn reached(&self, target: u64) -> bool {
        self.fence.value().map_or(true, |v| v >= target)
    }
}
