//! Host signals: a count that the host raises, with the timeline semaphore
//! that carries it where the driver can wait on it beside a device fence,
//! and the naps of the wait ladder's early wake.
//!
//! A direct WaitAny sleeps in the driver for its device's fence *or* its
//! wake signal's semaphore (`objects/device/direct_wait.rs`): whoever makes
//! one of its events ready raises the count ([`HostSignal::signal`]). A
//! [`HostSignal`] also has a condition variable: [`HostSignal::nap_until`]
//! sleeps on it with the OS's precise timer (timer slack 1 ns), and every
//! signal, and a [`HostSignal::nudge`] (which does not count), wakes the
//! nappers. The early wake (`spin.rs`) naps there until shortly before a
//! long job's predicted end while the device's fence watcher (`watch.rs`)
//! sleeps on the fence and nudges it if the job ends first.
//!
//! A [`HostSignal`]'s semaphore is destroyed by its owner
//! ([`HostSignal::destroy`], before the Vulkan device goes); a signal after
//! that only counts.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
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
}
