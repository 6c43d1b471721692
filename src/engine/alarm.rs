//! Host signals and the alarm thread: how a thread asleep in the driver on a
//! device fence is also woken at a given time, with no timeout in the
//! driver's wait.
//!
//! The wait ladder's early wake (`spin.rs`) must end a driver sleep shortly
//! before a long job's predicted end, yet still wake at once if the GPU
//! finishes sooner. A timed `vkWaitSemaphores` does both, but NVIDIA's
//! driver spins before such a wait's timeout (about 0.4 ms of a core per
//! wait: `benches/driver_wait.rs`'s `timed` probe). So the sleeping thread
//! instead waits, with no deadline of its own, for *any* of the fence and a
//! [`HostSignal`] (a timeline semaphore the host signals), and one
//! process-wide alarm thread sleeps on a precise OS timer (timer slack 1 ns)
//! and signals that semaphore at the time asked ([`arm`]). The alarm thread
//! costs one OS wake-up per alarm; the sleeping thread one driver wake-up.
//!
//! A [`HostSignal`] also has a condition variable: [`HostSignal::nap_until`]
//! sleeps on it with the OS's precise timer, and every signal (and a
//! [`HostSignal::nudge`], which does not count) wakes the nappers. A direct
//! WaitAny's early wake naps there while the progress thread watches the
//! fence for it (`Progress::watch`): no driver wake-up on time. The alarm
//! thread serves the progress thread's own early wake, which has nobody to
//! watch the fence for it.
//!
//! An alarm is cancelled by dropping its [`Armed`], which waits for a ring
//! in progress: once the drop returns, the alarm never touches its signal.
//! A [`HostSignal`]'s semaphore is destroyed by its owner
//! ([`HostSignal::destroy`], before the Vulkan device goes); a signal after
//! that only counts. At exit, the exit barrier waits for a ring in
//! progress ([`quiesce`]) once the library is detached from the driver;
//! rings after that make no driver call.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use ash::vk;
use parking_lot::{Condvar, Mutex};

/// A count that the host raises, and, where the driver can wait on it
/// together with the fence, the timeline semaphore that carries it.
pub(crate) struct HostSignal {
    /// The device and semaphore; `None`: a count alone (the waiter then
    /// checks it between slices or while it spins).
    sem: Option<(ash::Device, vk::Semaphore)>,
    /// The value signalled last, whether the semaphore is still alive, and
    /// how many nudges were made. The lock serialises signals so that
    /// values only grow.
    count: Mutex<(u64, bool, u64)>,
    /// The count, stored under the lock with every signal, for readers.
    hint: AtomicU64,
    /// Threads in [`HostSignal::nap_until`], and the condition variable
    /// they sleep on: a signal or a [`HostSignal::nudge`] wakes them.
    nappers: AtomicUsize,
    nap: Condvar,
}

/// How [`HostSignal::nap_until`] ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Nap {
    /// A signal raised the count past the token, a nudge came, or `done`
    /// held.
    Woken,
    /// The time came first; the thread woke this long after it.
    TimedOut { late: Duration },
}

impl HostSignal {
    /// A signal with a timeline semaphore of `device`, or an error from
    /// its creation.
    pub(crate) fn with_semaphore(device: &ash::Device) -> Result<Arc<HostSignal>, vk::Result> {
        let mut type_info = vk::SemaphoreTypeCreateInfo::default().semaphore_type(vk::SemaphoreType::TIMELINE);
        let info = vk::SemaphoreCreateInfo::default().push_next(&mut type_info);
        // SAFETY: a valid create info for a live device; the owner destroys
        // the semaphore (`destroy`) before the device.
        let sem = unsafe { device.create_semaphore(&info, None) }?;
        Ok(Arc::new(HostSignal::new(Some((device.clone(), sem)))))
    }

    /// A count without a semaphore.
    pub(crate) fn count_only() -> Arc<HostSignal> {
        Arc::new(HostSignal::new(None))
    }

    fn new(sem: Option<(ash::Device, vk::Semaphore)>) -> HostSignal {
        let alive = sem.is_some();
        HostSignal {
            sem,
            count: Mutex::new((0, alive, 0)),
            hint: AtomicU64::new(0),
            nappers: AtomicUsize::new(0),
            nap: Condvar::new(),
        }
    }

    /// The semaphore, if this signal has one.
    pub(crate) fn semaphore(&self) -> Option<vk::Semaphore> {
        self.sem.as_ref().map(|(_, s)| *s)
    }

    /// The count now: a wait for a value above it ends at the next signal.
    pub(crate) fn count(&self) -> u64 {
        self.hint.load(Ordering::Acquire)
    }

    /// Raises the count by one (and the semaphore to it); returns the new
    /// count.
    pub(crate) fn signal(&self) -> u64 {
        let mut count = self.count.lock();
        count.0 += 1;
        self.hint.store(count.0, Ordering::Release);
        if self.nappers.load(Ordering::Relaxed) > 0 {
            // Read under the lock, which a napper holds while it registers.
            self.nap.notify_all();
        }
        let Some((device, sem)) = self.sem.as_ref().filter(|_| count.1) else { return count.0 };
        if crate::ffi::exit::detached() {
            // The driver may be torn down: no sleeper is left to wake.
            return count.0;
        }
        let info = vk::SemaphoreSignalInfo::default().semaphore(*sem).value(count.0);
        // SAFETY: a live timeline semaphore (`count.1`, checked under the
        // lock `destroy` takes), signalled to a value above its current one.
        if let Err(err) = unsafe { device.signal_semaphore(&info) } {
            log::warn!(target: "wgpu_shim", "vkSignalSemaphore failed: {err}");
        }
        count.0
    }

    /// Wakes the threads in [`HostSignal::nap_until`] without raising the
    /// count.
    pub(crate) fn nudge(&self) {
        let mut count = self.count.lock();
        count.2 += 1;
        self.nap.notify_all();
    }

    /// Sleeps on the OS's precise timer until `at`, a signal past `token`,
    /// a [`HostSignal::nudge`], or `done` holds (checked under the signal's
    /// lock, before each sleep: a nudge made after it turned true is never
    /// missed). `done` must not signal or nudge this signal itself.
    pub(crate) fn nap_until(&self, token: u64, at: Instant, mut done: impl FnMut() -> bool) -> Nap {
        let mut count = self.count.lock();
        let nudges = count.2;
        self.nappers.fetch_add(1, Ordering::Relaxed);
        let ended = crate::engine::spin::with_fine_timer(|| loop {
            if count.0 > token || count.2 != nudges || done() {
                break Nap::Woken;
            }
            let now = Instant::now();
            if now >= at {
                break Nap::TimedOut { late: now - at };
            }
            self.nap.wait_until(&mut count, at);
        });
        self.nappers.fetch_sub(1, Ordering::Relaxed);
        ended
    }

    /// Destroys the semaphore (its owner, before the device goes); later
    /// signals only count.
    pub(crate) fn destroy(&self) {
        let mut count = self.count.lock();
        let Some((device, sem)) = self.sem.as_ref().filter(|_| count.1) else { return };
        count.1 = false;
        if crate::ffi::exit::detached() {
            // The driver may be torn down: the semaphore goes with the process.
            return;
        }
        // SAFETY: nobody waits on the semaphore any more (its owner's
        // sleepers are gone) and no signal can follow (`count.1`, under the
        // lock every signal holds).
        unsafe { device.destroy_semaphore(*sem, None) };
    }
}

/// One alarm waiting to ring.
struct Entry {
    at: Instant,
    id: u64,
    signal: Arc<HostSignal>,
    /// The count the ring produced (0 until it rang).
    rang: Arc<AtomicU64>,
}

/// The process's alarm thread and its alarms.
struct Alarms {
    entries: Mutex<(Vec<Entry>, u64)>,
    cond: Condvar,
}

/// An armed alarm; dropping it cancels it (a ring in progress ends first).
pub(crate) struct Armed {
    id: u64,
    rang: Arc<AtomicU64>,
}

impl Armed {
    /// The count the alarm's ring produced, if it rang.
    pub(crate) fn rang(&self) -> Option<u64> {
        Some(self.rang.load(Ordering::Acquire)).filter(|&c| c > 0)
    }
}

impl Drop for Armed {
    fn drop(&mut self) {
        let Some(alarms) = alarms() else { return };
        let mut entries = alarms.entries.lock();
        entries.0.retain(|e| e.id != self.id);
    }
}

/// The alarm thread's alarms once it was asked for (`None` inside: it could
/// not be started).
static ALARMS: OnceLock<Option<&'static Alarms>> = OnceLock::new();

/// The alarm thread, started at the first alarm; `None` if it could not be
/// started.
fn alarms() -> Option<&'static Alarms> {
    *ALARMS.get_or_init(|| {
        let alarms: &'static Alarms =
            Box::leak(Box::new(Alarms { entries: Mutex::new((Vec::new(), 0)), cond: Condvar::new() }));
        let spawned = std::thread::Builder::new().name("wgpu-shim alarms".into()).spawn(move || run(alarms));
        match spawned {
            Ok(_) => Some(alarms),
            Err(err) => {
                log::warn!(target: "wgpu_shim", "cannot start the alarm thread ({err}): early wakes use timed driver waits");
                None
            }
        }
    })
}

/// The exit barrier's part (`exit.rs`), once the library is detached from
/// the driver: waits, up to `timeout`, for a ring in progress to leave the
/// driver (a ring holds the alarms' lock; later rings see the library
/// detached and make no driver call). Whether no ring is in the driver.
#[cfg_attr(windows, allow(dead_code))] // The exit barrier's work, which Windows skips (exit.rs).
pub(crate) fn quiesce(timeout: std::time::Duration) -> bool {
    match ALARMS.get() {
        Some(Some(alarms)) => alarms.entries.try_lock_for(timeout).is_some(),
        _ => true,
    }
}

/// Arms an alarm that signals `signal` at `at`; `None` when there is no
/// alarm thread (the caller then waits with a timeout instead). Only a
/// signal with a semaphore wakes a driver wait.
pub(crate) fn arm(at: Instant, signal: &Arc<HostSignal>) -> Option<Armed> {
    let alarms = alarms()?;
    let rang = Arc::new(AtomicU64::new(0));
    let mut entries = alarms.entries.lock();
    entries.1 += 1;
    let id = entries.1;
    let earliest = entries.0.iter().all(|e| e.at > at);
    entries.0.push(Entry { at, id, signal: signal.clone(), rang: rang.clone() });
    if earliest {
        alarms.cond.notify_one();
    }
    Some(Armed { id, rang })
}

/// The alarm thread: rings every alarm that is due, under the lock (so that
/// a cancellation never races a ring), then sleeps until the next. Log
/// messages a ring queued go out with the lock released.
fn run(alarms: &'static Alarms) {
    crate::ffi::log::mark_internal_thread();
    #[cfg(target_os = "linux")]
    {
        // SAFETY: PR_SET_TIMERSLACK takes the slack by value and changes
        // only this thread's: its sleeps end when asked, not up to 50 µs
        // later.
        unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong, 0, 0, 0) };
    }
    let mut entries = alarms.entries.lock();
    loop {
        let now = Instant::now();
        let mut rang_any = false;
        entries.0.retain(|e| {
            if e.at > now {
                return true;
            }
            e.rang.store(e.signal.signal(), Ordering::Release);
            rang_any = true;
            false
        });
        if rang_any {
            drop(entries);
            crate::ffi::log::flush_queued();
            entries = alarms.entries.lock();
            continue;
        }
        match entries.0.iter().map(|e| e.at).min() {
            None => alarms.cond.wait(&mut entries),
            Some(at) => {
                alarms.cond.wait_until(&mut entries, at);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::time::Duration;

    #[test]
    fn a_count_only_signal_counts() {
        let s = HostSignal::count_only();
        assert_eq!((s.count(), s.semaphore()), (0, None));
        assert_eq!(s.signal(), 1);
        assert_eq!(s.signal(), 2);
        assert_eq!(s.count(), 2);
        s.destroy();
        assert_eq!(s.signal(), 3, "a destroyed signal still counts");
    }

    #[test]
    fn a_nap_ends_at_its_time_or_at_a_signal_nudge_or_done() {
        let s = HostSignal::count_only();
        let start = Instant::now();
        let at = start + Duration::from_millis(5);
        match s.nap_until(0, at, || false) {
            Nap::TimedOut { late } => assert!(Instant::now() >= at && late < Duration::from_secs(1)),
            Nap::Woken => panic!("nothing woke the nap"),
        }
        assert_eq!(s.nap_until(0, start, || true), Nap::Woken, "done first: no sleep");
        let far = Instant::now() + Duration::from_secs(30);
        for wake in [HostSignal::signal as fn(&HostSignal) -> u64, |s| {
            s.nudge();
            0
        }] {
            std::thread::scope(|scope| {
                let waker = scope.spawn(|| {
                    while s.nappers.load(Ordering::Relaxed) == 0 {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    wake(&s);
                });
                assert_eq!(s.nap_until(s.count(), far, || false), Nap::Woken);
                waker.join().expect("the waker ran");
            });
        }
        let flag = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                while s.nappers.load(Ordering::Relaxed) == 0 {
                    std::thread::sleep(Duration::from_millis(1));
                }
                flag.store(true, Ordering::Relaxed);
                s.nudge();
            });
            assert_eq!(s.nap_until(s.count(), far, || flag.load(Ordering::Relaxed)), Nap::Woken);
        });
        assert!(start.elapsed() < Duration::from_secs(10), "woken, not timed out");
    }

    #[test]
    fn alarms_ring_in_time_order_and_a_cancelled_one_never_rings() {
        let (a, b, c) = (HostSignal::count_only(), HostSignal::count_only(), HostSignal::count_only());
        let now = Instant::now();
        let late = arm(now + Duration::from_millis(40), &a).expect("the alarm thread runs");
        let early = arm(now + Duration::from_millis(10), &b).expect("the alarm thread runs");
        let cancelled = arm(now + Duration::from_millis(20), &c).expect("the alarm thread runs");
        drop(cancelled);
        while b.count() == 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(now.elapsed() >= Duration::from_millis(10), "not before its time");
        assert_eq!(early.rang(), Some(1));
        assert_eq!(late.rang(), None, "the later alarm waits for its own time");
        while a.count() == 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(now.elapsed() >= Duration::from_millis(40));
        assert_eq!(late.rang(), Some(1));
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(c.count(), 0, "a cancelled alarm never rings");
    }
}
