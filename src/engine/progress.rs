//! The device progress thread: drives wgpu-core forward while queue work is
//! pending, so callbacks arrive without the application polling.
//!
//! Each device has one thread. While no map or work-done operation is
//! pending it sleeps on a condition variable. While some are, it loops: a
//! non-blocking `device_poll` (which runs wgpu-core's completion closures:
//! they only mark registry events ready), delivery of ready spontaneous
//! callbacks, then a sleep in the OS until the GPU signals more progress.
//!
//! The sleep holds no wgpu-core lock: the thread sleeps on the device fence
//! (`fence.rs`: on Vulkan with timeline semaphores `vkWaitSemaphores` on
//! wgpu-hal's fence alone, elsewhere the backend's own fence wait) for a
//! value greater than the one seen before the poll. On Vulkan it waits on
//! that one semaphore only: drivers that emulate timeline semaphores (Mesa's
//! lavapipe) spin when asked to wait for any of several. Work that can
//! complete without GPU progress (a map of an idle buffer, a work-done with
//! nothing in flight) is polled for by the API call that registered it, so
//! the thread never needs waking for it. Without a fence (a Vulkan driver
//! without timeline semaphores) the thread polls every `WAIT_SLICE` while
//! work is pending.
//!
//! On Vulkan the device also has a fence watcher (`watch.rs`), for the wait
//! ladder's early wake (`spin.rs`): this thread, and WaitAny threads
//! sleeping on the fence themselves, nap until shortly before a long job's
//! predicted end while the watcher sleeps on the fence for them.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex, RwLock};
use wgpu_core::global::Global;
use wgpu_core::id::DeviceId;

use crate::engine::fence::DeviceFence;
use crate::engine::signal::{HostSignal, Nap};
use crate::engine::spin::{ns_until, with_fine_timer, EarlyEnd, Spin, WakeEnd};
use crate::engine::watch::Watcher;
use crate::futures::ThreadKey;

/// How long one fallback wait lasts before the thread polls again.
const WAIT_SLICE: Duration = Duration::from_millis(2);

/// How long one fence wait lasts before the thread rechecks its state (it
/// is woken earlier by every GPU completion). It also bounds how long the
/// exit barrier (`exit.rs`) waits for the thread to leave the driver.
const FENCE_SLICE_NS: u64 = 100_000_000;

/// The locks around one device's wgpu-core calls (docs/ARCHITECTURE.md,
/// "Lock discipline").
pub(crate) struct DeviceLocks {
    /// Held shared around every wgpu-core call that may run the device's
    /// maintenance (polls, submits) and exclusively around map and unmap
    /// calls: wgpu-core maps a ready buffer in maintenance outside its map
    /// state lock, so an unmap or map racing with it would be lost.
    pub(crate) maintain: RwLock<()>,
    /// Makes maintenance one at a time (polls, and submits, which run
    /// maintenance too). wgpu-core runs the completion closures it collected
    /// after releasing its own locks, so two concurrent maintenances could
    /// run the closures of a later submission before those of an earlier
    /// one (and work-done closures before the map closures they must
    /// follow).
    poll: Mutex<()>,
}

impl DeviceLocks {
    pub(crate) fn new() -> Arc<DeviceLocks> {
        Arc::new(DeviceLocks { maintain: RwLock::new(()), poll: Mutex::new(()) })
    }

    /// Held around a wgpu-core call that runs the device's maintenance and
    /// its completion closures (a poll or a submit): one at a time, and
    /// shared with other non-map calls. Taken in the order `poll` then
    /// `maintain`; the closures only mark events ready and take neither.
    pub(crate) fn maintenance(&self) -> Maintenance<'_> {
        let one_at_a_time = self.poll.lock();
        Maintenance { _shared: self.maintain.read(), _one_at_a_time: one_at_a_time }
    }

    /// [`DeviceLocks::poll`] for a caller that goes on whatever the poll
    /// finds: a failure is logged.
    pub(crate) fn poll_or_log(&self, global: &Global, device_id: DeviceId) {
        if let Err(err) = self.poll(global, device_id) {
            log::debug!(target: "wgpu_shim", "device poll: {err}");
        }
    }

    /// Polls the device without waiting. Once the library is detached from
    /// the driver at exit (`exit.rs`) there is nothing to poll.
    pub(crate) fn poll(
        &self,
        global: &Global,
        device_id: DeviceId,
    ) -> Result<wgpu_types::PollStatus, wgpu_core::device::WaitIdleError> {
        if crate::ffi::exit::detached() {
            return Ok(wgpu_types::PollStatus::QueueEmpty);
        }
        let _maintenance = self.maintenance();
        global.device_poll(device_id, wgpu_types::PollType::Poll)
    }

    /// The exit barrier's wait (`exit.rs`): until the submitted work is
    /// done, at most `timeout` (also for the locks, which a thread ending
    /// with the process may hold). Whether the queue is empty.
    #[cfg_attr(windows, allow(dead_code))] // The exit barrier's work, which Windows skips (exit.rs).
    pub(crate) fn drain(&self, global: &Global, device_id: DeviceId, timeout: Duration) -> bool {
        let Some(one_at_a_time) = self.poll.try_lock_for(timeout) else { return false };
        let Some(shared) = self.maintain.try_read_for(timeout) else { return false };
        let waited = global
            .device_poll(device_id, wgpu_types::PollType::Wait { submission_index: None, timeout: Some(timeout) });
        drop(shared);
        drop(one_at_a_time);
        matches!(waited, Ok(wgpu_types::PollStatus::QueueEmpty) | Ok(wgpu_types::PollStatus::WaitSucceeded))
    }
}

/// The locks of [`DeviceLocks::maintenance`] (released in reverse order).
pub(crate) struct Maintenance<'a> {
    _shared: parking_lot::RwLockReadGuard<'a, ()>,
    _one_at_a_time: parking_lot::MutexGuard<'a, ()>,
}

/// Shared between the device, the completion closures and the thread.
pub(crate) struct Progress {
    /// The newest fence value some completed poll covered (read before the
    /// poll began): polling again for it would find nothing new.
    polled: AtomicU64,
    /// wgpu-core holds work that its next poll completes without GPU
    /// progress (the map of an idle buffer, a work-done callback with
    /// nothing in flight), and no poll has begun since: the next wait or
    /// poll on this device polls first ([`Progress::take_unpolled`]).
    unpolled: AtomicBool,
    state: Mutex<State>,
    /// `State::wanted`, readable without the lock: a kick while the thread
    /// is already wanted (every spontaneous future joining a batch kicks)
    /// costs one load.
    wanted_hint: AtomicBool,
    /// WaitAny threads sleeping on this device's fence themselves (they
    /// poll on every GPU progress, so the thread need not). An atomic, not
    /// part of `State`: a direct wait enters and leaves without the state
    /// lock, which the thread's checks hold (see [`Progress::leave_direct`]).
    direct: AtomicUsize,
    cond: Condvar,
    /// Signalled when the thread leaves the driver (`State::in_driver`).
    left: Condvar,
    /// The device's spin budget (`spin.rs`), for this thread's fence waits
    /// and the application threads' ones.
    pub(crate) spin: Arc<Spin>,
    /// The device's submissions, for a fence that covers them itself (GL).
    pub(crate) submissions: Arc<crate::engine::fence::Submissions>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
    /// The thread was started (its spawn can fail).
    started: AtomicBool,
    /// The device's fence watcher, where its fence is a Vulkan timeline
    /// semaphore: naps of the early wake are watched there.
    watcher: Option<Arc<Watcher>>,
    /// The thread's own nap (its early wake); signalled to end it when the
    /// thread must stop or leave the driver.
    nap: Arc<HostSignal>,
    /// The thread's [`ThreadKey`] once it runs (0 before): `stop` called
    /// on the thread itself must not join it. Not `thread::current()`,
    /// which panics in exit handlers.
    runner: AtomicU64,
    /// Drops the wgpu-core ids once the thread is done with them.
    on_exit: Mutex<Option<Box<dyn FnOnce() + Send>>>,
}

struct State {
    /// Queue operations registered with wgpu-core and not completed yet.
    pending: usize,
    /// Some pending operation needs the thread: a spontaneous callback, a
    /// readiness handle, a WaitAny that cannot sleep on the fence, a device
    /// with no direct waits. Operations whose callbacks only the
    /// application's own polling calls can deliver (WaitAny sleeping on the
    /// fence, ProcessEvents) leave the thread asleep. Cleared when nothing
    /// is pending.
    wanted: bool,
    shutdown: bool,
    /// The process is exiting (`exit.rs`): the thread never enters the
    /// driver again; the application's calls poll the device themselves.
    exit: bool,
    /// The thread is between its state checks, polling or sleeping in the
    /// driver.
    in_driver: bool,
}

impl Progress {
    /// Starts the progress thread of `device_id`. `on_exit` runs once the
    /// thread stopped (it drops the wgpu-core ids): see [`Progress::stop`].
    pub(crate) fn start(
        global: Arc<Global>,
        device_id: DeviceId,
        locks: Arc<DeviceLocks>,
        spin: Arc<Spin>,
        name: String,
        on_exit: Box<dyn FnOnce() + Send>,
    ) -> Arc<Progress> {
        let watcher = crate::engine::fence::RawFence::new(&global, device_id)
            .map(|fence| Watcher::new(Box::new(fence), name.clone()));
        let progress = Arc::new(Progress {
            polled: AtomicU64::new(0),
            unpolled: AtomicBool::new(false),
            state: Mutex::new(State {
                pending: 0,
                wanted: false,
                shutdown: false,
                exit: crate::ffi::exit::exiting(),
                in_driver: false,
            }),
            wanted_hint: AtomicBool::new(false),
            direct: AtomicUsize::new(0),
            cond: Condvar::new(),
            left: Condvar::new(),
            spin,
            submissions: Arc::default(),
            thread: Mutex::new(None),
            started: AtomicBool::new(false),
            watcher,
            nap: HostSignal::count_only(),
            runner: AtomicU64::new(0),
            on_exit: Mutex::new(Some(on_exit)),
        });
        let thread_progress = progress.clone();
        let thread_name = format!("wgpu-shim progress ({name})");
        let label = name.clone();
        let spawned = std::thread::Builder::new().name(thread_name).spawn(move || {
            // Messages for the log callback wait for this thread's flush
            // points, where it holds no lock.
            crate::ffi::log::mark_internal_thread();
            thread_progress.runner.store(ThreadKey::current().get(), Ordering::Release);
            {
                // The thread's own: a backend fence holds the wgpu-core
                // device, so it must be gone before `finish` drops the ids.
                let fence = crate::engine::fence::for_device(&global, device_id, &thread_progress.submissions);
                if fence.is_none() {
                    log::info!(target: "wgpu_shim", "device {label:?}: no device fence to sleep on; the progress thread polls every {WAIT_SLICE:?} while work is pending");
                }
                thread_progress.run(&global, device_id, &locks, fence.as_deref());
            }
            thread_progress.finish();
            crate::ffi::log::flush_queued();
        });
        match spawned {
            Ok(handle) => {
                *progress.thread.lock() = Some(handle);
                progress.started.store(true, Ordering::Release);
                crate::engine::exit::track(&progress);
            }
            // Without a thread, callbacks would never arrive: say so loudly.
            Err(err) => log::error!(target: "wgpu_shim", "device {name:?}: cannot start its progress thread: {err}"),
        }
        progress
    }

    /// A queue operation was handed to wgpu-core. With `wake`, the thread
    /// keeps the device moving until every pending operation completes;
    /// without, it stays asleep until [`Progress::kick`]: the application's
    /// own WaitAny (on the fence) or ProcessEvents polls for it.
    pub(crate) fn begin_op(&self, wake: bool) {
        let mut st = self.state.lock();
        st.pending += 1;
        if wake && !st.wanted {
            self.set_wanted(&mut st, true);
            self.cond.notify_one();
        }
    }

    /// Sets `State::wanted` and its hint (under the state lock).
    fn set_wanted(&self, st: &mut State, wanted: bool) {
        st.wanted = wanted;
        self.wanted_hint.store(wanted, Ordering::Release);
    }

    /// Wakes the thread for the pending operations (a WaitAny that cannot
    /// sleep on the fence, a spontaneous future joining a batch). `false`
    /// when the thread will not poll: it never started, or the process is
    /// exiting (`exit.rs`); the caller must then poll the device itself.
    pub(crate) fn kick(&self) -> bool {
        if self.wanted_hint.load(Ordering::Acquire) {
            // Awake and polling until every pending operation completes,
            // the caller's included.
            return true;
        }
        let mut st = self.state.lock();
        if st.exit || st.shutdown || !self.started.load(Ordering::Acquire) {
            return false;
        }
        if st.pending > 0 && !st.wanted {
            self.set_wanted(&mut st, true);
            self.cond.notify_one();
        }
        true
    }

    /// The exit barrier: from now on the thread stays out of the driver.
    /// Waits up to `timeout` for it to leave; whether it did.
    #[cfg_attr(windows, allow(dead_code))] // The exit barrier's work, which Windows skips (exit.rs).
    pub(crate) fn leave_driver(&self, timeout: Duration) -> bool {
        let watcher_left = self.watcher.as_ref().is_none_or(|w| w.leave_driver(timeout));
        let mut st = self.state.lock();
        st.exit = true;
        self.set_wanted(&mut st, false);
        self.cond.notify_one();
        self.nap.signal();
        if !watcher_left {
            return false;
        }
        let deadline = std::time::Instant::now() + timeout;
        while st.in_driver {
            if self.left.wait_until(&mut st, deadline).timed_out() {
                return !st.in_driver;
            }
        }
        true
    }

    /// A queue operation completed (called from wgpu-core's closures).
    pub(crate) fn end_op(&self) {
        let mut st = self.state.lock();
        st.pending = st.pending.saturating_sub(1);
        if st.pending == 0 {
            self.set_wanted(&mut st, false);
        }
    }

    /// A WaitAny thread starts sleeping on the device fence itself: the
    /// thread stands by meanwhile rather than wait on the fence too.
    pub(crate) fn enter_direct(&self) {
        self.direct.fetch_add(1, Ordering::SeqCst);
    }

    /// The direct sleep of [`Progress::enter_direct`] ended.
    pub(crate) fn leave_direct(&self) {
        // The last direct waiter gone, the thread polls again if it is
        // wanted. No wake-up is lost: the thread reads `direct` under the
        // state lock and sleeps with it, and this notifies under that lock,
        // after the decrement; work that becomes wanted later notifies by
        // itself (`begin_op`, `kick`).
        if self.direct.fetch_sub(1, Ordering::SeqCst) == 1 && self.wanted_hint.load(Ordering::SeqCst) {
            let st = self.state.lock();
            if st.pending > 0 && st.wanted {
                self.cond.notify_one();
            }
        }
    }

    /// A thread naps on `signal` until shortly before its job's predicted
    /// end (the wait ladder's early wake): the device's fence watcher
    /// sleeps on the fence for `target` meanwhile, until a slice after
    /// `until`, and nudges `signal` when the fence reaches it
    /// ([`Watcher::watch`]). `false` when nobody can watch (no watcher on
    /// this backend, or it is closed): the caller sleeps on the fence.
    fn watch(&self, target: u64, until: std::time::Instant, signal: &Arc<HostSignal>) -> bool {
        self.watcher.as_ref().is_some_and(|w| w.watch(target, until, signal))
    }

    /// The napper of [`Progress::watch`] for `target` is awake.
    fn unwatch(&self, target: u64) {
        if let Some(w) = self.watcher.as_ref() {
            w.unwatch(target);
        }
    }

    /// How an early wake's sleep ends on this device when the job has not
    /// ended first: a watched nap where there is a watcher.
    pub(crate) fn wake_end(&self) -> WakeEnd {
        match self.watcher.is_some() {
            true => WakeEnd::Nap,
            false => WakeEnd::Timed,
        }
    }

    /// Naps on `signal` from its count `token` until `at`, while the fence
    /// watcher watches for `target` (expected by `until`); asks again when
    /// nudged for another napper's lower target. `None` when nobody can
    /// watch; otherwise how the nap ended: woken (`done` held, or a signal
    /// came) or at its time.
    pub(crate) fn watched_nap(
        &self,
        signal: &Arc<HostSignal>,
        (token, target): (u64, u64),
        (at, until): (std::time::Instant, std::time::Instant),
        mut done: impl FnMut() -> bool,
    ) -> Option<Nap> {
        loop {
            if !self.watch(target, until, signal) {
                return None;
            }
            let nap = signal.nap_until(token, at, &mut done);
            self.unwatch(target);
            match nap {
                Nap::Woken if !done() && signal.count() == token && std::time::Instant::now() < at => {}
                ended => return Some(ended),
            }
        }
    }

    /// The newest fence value a finished poll covered.
    pub(crate) fn polled(&self) -> u64 {
        self.polled.load(Ordering::Acquire)
    }

    /// Records that a poll begun at fence value `value` has finished.
    pub(crate) fn note_polled(&self, value: u64) {
        self.polled.fetch_max(value, Ordering::AcqRel);
    }

    /// Whether queue operations are pending.
    /// wgpu-core holds work that its next poll completes at once: the
    /// next waiter or poll on this device polls for it (the call that
    /// handed it over does not poll: as in wgpu-native, it only registers).
    pub(crate) fn note_unpolled(&self) {
        self.unpolled.store(true, Ordering::Release);
    }

    /// Whether work is waiting for a poll ([`Progress::note_unpolled`]);
    /// clears the mark. Every poll of the device takes it before polling,
    /// so work handed over during a poll is marked again for the next.
    pub(crate) fn take_unpolled(&self) -> bool {
        self.unpolled.load(Ordering::Acquire) && self.unpolled.swap(false, Ordering::AcqRel)
    }

    pub(crate) fn busy(&self) -> bool {
        self.state.lock().pending > 0
    }

    /// Stops the thread and tears down (the device is being dropped). The
    /// thread is joined, so the wgpu-core device, and with it possibly the
    /// driver, is gone when this returns; called on the progress thread
    /// itself (the device's last reference dropped in a callback it
    /// delivered), the thread tears down when the callback returns.
    pub(crate) fn stop(&self) {
        if let Some(watcher) = self.watcher.as_ref() {
            watcher.stop();
        }
        {
            let mut st = self.state.lock();
            st.shutdown = true;
            self.cond.notify_one();
        }
        self.nap.signal();
        let handle = self.thread.lock().take();
        if let Some(h) = handle {
            if self.runner.load(Ordering::Acquire) == ThreadKey::current().get() {
                return;
            }
            let joined = h.join();
            if joined.is_err() {
                log::error!(target: "wgpu_shim", "the progress thread panicked");
            }
        }
        self.finish();
    }

    /// Drops the ids, once.
    fn finish(&self) {
        let Some(on_exit) = self.on_exit.lock().take() else { return };
        on_exit();
    }

    /// The thread's early wake (`spin.rs`, the wake rung): sleeps until
    /// `at` (a watched nap, else a timed driver wait), unless the fence
    /// passes `seen` first, then polls once (`warm`: see
    /// [`Spin::wake_rung`]), spins until `until` and sleeps for the rest of
    /// a slice. How the sleep ended.
    fn sleep_early(
        &self,
        f: &dyn DeviceFence,
        seen: u64,
        (at, until): (Instant, Instant),
        warm: impl FnOnce(),
    ) -> EarlyEnd {
        let moved = || f.value().map_or(true, |v| v > seen);
        let slept = if at <= Instant::now() {
            true
        } else {
            match self.watched_nap(&self.nap, (self.nap.count(), seen + 1), (at, until), moved) {
                Some(Nap::TimedOut { late }) => {
                    self.spin.note_nap(late);
                    true
                }
                // The fence moved, or the thread must stop or leave the driver.
                Some(Nap::Woken) => return EarlyEnd::Nudged,
                // The watcher closed: the device is going or the process exits.
                None if self.closing() => return EarlyEnd::Seen,
                None => with_fine_timer(|| f.wait_ns(seen + 1, ns_until(at))),
            }
        };
        if !slept {
            return EarlyEnd::Failed;
        }
        if moved() {
            return EarlyEnd::Seen;
        }
        warm();
        if moved() || Spin::spin(ns_until(until), moved) {
            return EarlyEnd::Seen;
        }
        match f.wait_ns(seen + 1, FENCE_SLICE_NS) {
            true => EarlyEnd::Slept,
            false => EarlyEnd::Failed,
        }
    }

    /// The thread must stop or stay out of the driver.
    fn closing(&self) -> bool {
        let st = self.state.lock();
        st.shutdown || st.exit
    }

    /// One non-blocking poll of the device: the work marked unpolled is
    /// taken first, and a failure is logged (the caller goes on).
    pub(crate) fn poll_device(&self, global: &Global, device_id: DeviceId, locks: &DeviceLocks) {
        self.take_unpolled();
        locks.poll_or_log(global, device_id);
    }

    fn run(&self, global: &Global, device_id: DeviceId, locks: &DeviceLocks, fence: Option<&dyn DeviceFence>) {
        let direct = || self.direct.load(Ordering::SeqCst) > 0;
        let idle = |st: &State| (st.exit || st.pending == 0 || direct() || !st.wanted) && !st.shutdown;
        // Set once the thread has polled: when it then runs out of work, the
        // next operation often follows within microseconds (a render loop,
        // a map after a submit).
        let mut just_worked = false;
        loop {
            {
                let mut st = self.state.lock();
                if st.in_driver {
                    st.in_driver = false;
                    self.left.notify_all();
                }
                if just_worked && idle(&st) {
                    // Linger, within the spin budget, before sleeping on the
                    // condition variable: work that arrives meanwhile costs no
                    // thread wake-up, so spontaneous callbacks come as soon as
                    // WaitAny's do (`spin.rs`; the budget is 0 on CPU
                    // adapters and after long waits).
                    let budget = self.spin.budget_ns();
                    if budget > 0 {
                        drop(st);
                        Spin::spin(budget, || self.wanted_hint.load(Ordering::Acquire));
                        st = self.state.lock();
                    }
                }
                while idle(&st) {
                    self.cond.wait(&mut st);
                }
                if st.shutdown {
                    return;
                }
                st.in_driver = true;
            }
            // Completion closures run in here and only mark events ready.
            let seen = fence.map(DeviceFence::value);
            self.poll_device(global, device_id, locks);
            if let Some(Ok(seen)) = seen {
                self.polled.fetch_max(seen, Ordering::AcqRel);
            }
            crate::futures::flush_spontaneous();
            crate::ffi::log::flush_queued();
            just_worked = true;
            {
                let st = self.state.lock();
                if st.shutdown {
                    return;
                }
                if st.exit || st.pending == 0 || direct() || !st.wanted {
                    continue;
                }
            }
            match (fence, seen) {
                (Some(f), Some(Ok(seen))) => {
                    // Spin, then sleep (`spin.rs`): spontaneous callbacks of
                    // short GPU work arrive as soon as WaitAny's would.
                    // The wait counts from the job's submission where it
                    // is known (`spin.rs`).
                    let begun = self.submissions.begun(seen);
                    let moved = || f.value().map_or(true, |v| v > seen);
                    let mut early = None;
                    if !self.spin.short(moved) {
                        match self.spin.wake_rung_from(self.wake_end(), begun.at) {
                            // Sleep until just before the predicted end and
                            // spin it out (`spin.rs`, the wake rung).
                            Some(rung) if ns_until(rung.0) < FENCE_SLICE_NS => {
                                let warm = || {
                                    self.poll_device(global, device_id, locks);
                                    crate::futures::flush_spontaneous();
                                };
                                let end = self.sleep_early(f, seen, rung, warm);
                                if end == EarlyEnd::Failed {
                                    std::thread::sleep(WAIT_SLICE);
                                }
                                early = Some((rung, end));
                            }
                            _ => {
                                if !f.wait_ns(seen + 1, FENCE_SLICE_NS) {
                                    std::thread::sleep(WAIT_SLICE);
                                }
                            }
                        }
                    }
                    // Only a wait the job ended teaches its length: a
                    // slice that ran out counts from the same submission.
                    if moved() {
                        self.spin.note_wait(crate::engine::wait_trace::Waiter::Progress, begun, early);
                    }
                }
                // No fence (or reading it failed): poll in slices.
                _ => std::thread::sleep(WAIT_SLICE),
            }
        }
    }
}
