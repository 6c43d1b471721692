//! `wgpuInstanceWaitAny`: blocking on the registry's condition variable.
//!
//! A waiting thread never polls a device: the device progress threads make
//! events ready and signal the condition variable, so a blocked wait costs
//! no CPU and holds no lock that other API calls need.

use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::MutexGuard;
use slotmap::DefaultKey;
use smallvec::SmallVec;

use super::body::Body;
use super::registry::{Event, Inner, Lookup, Registry, Source, State};
use super::ThreadKey;
use crate::abi::{WGPUFutureWaitInfo, WGPUWaitStatus};

/// A way for a WaitAny thread to sleep on a device's own completion signal
/// rather than the registry's condition variable (`direct_wait.rs`).
pub(crate) trait DirectSleep: Send + Sync {
    /// Ends the sleeps that started with an older token.
    fn wake(&self);
    /// The current wake token (read under the registry lock).
    fn token(&self) -> u64;
    /// Sleeps, with no lock held, until [`DirectSleep::wake`] after `token`,
    /// GPU progress (which it then polls for), or `deadline`. `false` when
    /// this way of sleeping failed and the condition variable must be used.
    fn sleep(&self, token: u64, deadline: Option<Instant>) -> bool;
}

/// Finds the direct sleeper for the queue of the device with this serial.
pub(crate) type FindSleeper<'a> = &'a dyn Fn(u64) -> Option<Arc<dyn DirectSleep>>;

/// Moves the queue with this serial on: wakes its device's progress thread,
/// or, where that thread does not poll (it never started, or the process is
/// exiting), polls the device on the calling thread and returns `false`:
/// the waiter then polls again every [`SELF_POLL_SLICE`].
pub(crate) type Kick<'a> = &'a dyn Fn(u64) -> bool;

/// How often a waiter whose devices no progress thread moves polls them.
const SELF_POLL_SLICE: Duration = Duration::from_millis(1);

/// The instance's rules for timed waits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WaitRules {
    /// `WGPUInstanceFeatureName_TimedWaitAny` was enabled.
    pub(crate) timed: bool,
    /// `timedWaitAnyMaxCount`.
    pub(crate) max_count: usize,
    /// Timed waits may mix futures of several sources.
    pub(crate) mixed_sources: bool,
}

/// What one scan of the listed futures found.
#[derive(Default)]
struct Scan {
    /// A listed future is complete (its callback ran or is not this wait's
    /// to run).
    any_complete: bool,
    /// A listed future's callback is running on another thread.
    others_delivering: bool,
    /// Ready futures this wait delivers: (sequence, key, index in the list).
    /// Inline for a wait on a few futures, the common case: a wait
    /// allocates nothing then.
    mine: SmallVec<[(u64, DefaultKey, usize); 4]>,
    /// Bodies taken back from a delivery further up this thread's stack.
    stolen: SmallVec<[(u64, Body); 1]>,
    /// The one queue the pending listed futures wait on (`Err` for several).
    queue: Option<Result<u64, ()>>,
    /// Every queue a pending listed future waits on.
    queues: SmallVec<[u64; 2]>,
}

/// How a wait that found nothing complete goes to sleep, across its rounds.
struct Sleep {
    /// When the wait times out (`None`: never).
    deadline: Option<Instant>,
    /// The waiting thread.
    me: ThreadKey,
    /// The direct sleeper of the one queue the wait is on. The wait makes
    /// this before it takes the registry lock, so that it is dropped after
    /// the lock's guard: a sleeper holds its device, and dropping a
    /// device's last reference joins its progress thread, which takes the
    /// registry lock.
    direct: Direct,
    /// The deadline passed: one more scan, then the wait times out.
    expired: bool,
    /// The devices' progress threads were kicked (once per wait).
    kicked: bool,
    /// A kick found no progress thread to poll: this thread polls.
    self_poll: bool,
    /// A wait about to time out looked again after its kicks.
    rescanned: bool,
}

/// (queue serial, its sleeper) once looked up; `None` inside when the
/// device has no direct sleeps or they failed.
type Direct = Option<(u64, Option<Arc<dyn DirectSleep>>)>;

/// The wait's own limits, checked before any future is looked at. The
/// timed-wait rule comes first, as in Dawn: a timeout without the feature
/// is an error even with nothing listed.
fn check_limits(count: usize, timed: bool, rules: &WaitRules) -> Result<(), String> {
    if timed && !rules.timed {
        return Err("a wait with a timeout needs the TimedWaitAny instance feature".into());
    }
    if timed && count > rules.max_count {
        return Err(format!("a timed wait on {count} futures exceeds timedWaitAnyMaxCount ({})", rules.max_count));
    }
    Ok(())
}

/// Every listed future is this instance's, and a timed wait lists futures
/// of one source unless the instance allows mixing them.
fn check_sources(inner: &Inner, infos: &[WGPUFutureWaitInfo], timed: bool, rules: &WaitRules) -> Result<(), String> {
    let mut first_source = None;
    let mut mixed = false;
    for info in infos {
        match inner.lookup(info.future.id) {
            Lookup::Unknown => return Err(format!("future {:#x} is not a future of this instance", info.future.id)),
            Lookup::Live(key) => {
                if let Some(source) = inner.events.get(key).map(Event::source) {
                    mixed |= *first_source.get_or_insert(source) != source;
                }
            }
            Lookup::Completed => {}
        }
    }
    if timed && !rules.mixed_sources && mixed {
        return Err("a timed wait may list futures of one source only (one queue, or the CPU timeline)".into());
    }
    Ok(())
}

impl Registry {
    /// Waits until at least one of `infos` is complete, delivers the
    /// callbacks of those that just completed (in future order, with no lock
    /// held), and marks every complete one. `Err` carries the reason for a
    /// `WGPUWaitStatus_Error`.
    ///
    /// Each round [scans](Self::scan_listed) the list, [delivers](Self::deliver_scanned)
    /// what is this wait's to deliver, returns if a future is complete (or
    /// the wait is a poll, or timed out), and otherwise
    /// [sleeps](Self::sleep_once) until something may have changed.
    pub(crate) fn wait_any(
        &self,
        infos: &mut [WGPUFutureWaitInfo],
        timeout_ns: u64,
        rules: &WaitRules,
        find_sleeper: FindSleeper<'_>,
        kick: Kick<'_>,
    ) -> Result<WGPUWaitStatus, String> {
        let timed = timeout_ns > 0;
        check_limits(infos.len(), timed, rules)?;
        if infos.is_empty() {
            return Ok(WGPUWaitStatus::Success);
        }
        let deadline =
            if timeout_ns == u64::MAX { None } else { Instant::now().checked_add(Duration::from_nanos(timeout_ns)) };
        let mut sleep = Sleep {
            deadline,
            me: ThreadKey::current(),
            direct: None,
            expired: false,
            kicked: false,
            self_poll: false,
            rescanned: false,
        };
        let mut inner = self.lock();
        check_sources(&inner, infos, timed, rules)?;
        loop {
            let mut scan = self.scan_listed(&mut inner, infos, sleep.me);
            let delivered;
            (inner, delivered) = self.deliver_scanned(inner, infos, &mut scan);
            let Some(any_complete) = delivered else { continue };
            if any_complete || timeout_ns == 0 || sleep.expired {
                // Whatever it returns, a wait moves every listed future's
                // device on: an application that polls a completed future
                // together with pending queue work must see that work
                // complete in a later poll, and a poll must not leave the
                // devices standing by (their progress threads may be).
                if !scan.queues.is_empty() {
                    let seen = inner.completions;
                    drop(inner);
                    scan.queues.iter().for_each(|&q| {
                        kick(q);
                    });
                    if !any_complete && !sleep.rescanned {
                        // A kick polls for work that needs no GPU progress
                        // (an idle buffer's map): one more look when
                        // anything completed meanwhile.
                        sleep.rescanned = true;
                        inner = self.lock();
                        if inner.completions != seen {
                            continue;
                        }
                    }
                }
                return Ok(if any_complete { WGPUWaitStatus::Success } else { WGPUWaitStatus::TimedOut });
            }
            inner = self.sleep_once(inner, &scan, &mut sleep, find_sleeper, kick);
        }
    }

    /// Looks at every listed future: marks the complete ones, and collects
    /// those this wait delivers and the queues the pending ones wait on.
    fn scan_listed(&self, inner: &mut Inner, infos: &mut [WGPUFutureWaitInfo], me: ThreadKey) -> Scan {
        let mut scan = Scan::default();
        for (i, info) in infos.iter_mut().enumerate() {
            // A live event's fields, copied out (the lookup and the read are
            // under the same lock, so a live key finds its event; were it
            // gone, it would be a completed future).
            let live = match inner.lookup(info.future.id) {
                Lookup::Live(key) => inner.events.get(key).map(|ev| (key, ev.state, ev.source(), ev.seq, ev.deliverer)),
                Lookup::Completed | Lookup::Unknown => None,
            };
            let Some((key, state, source, seq, deliverer)) = live else {
                info.completed = 1;
                scan.any_complete = true;
                continue;
            };
            match state {
                State::Pending => {
                    // `completed` is an output: whatever the caller left
                    // there, it tells.
                    info.completed = 0;
                    if let Source::Queue(serial) = source {
                        if !scan.queues.contains(&serial) {
                            scan.queues.push(serial);
                        }
                        if scan.queue.is_some_and(|q| q != Ok(serial)) {
                            scan.queue = Some(Err(()));
                        } else {
                            scan.queue = Some(Ok(serial));
                        }
                    }
                }
                State::Ready => scan.mine.push((seq, key, i)),
                // A callback of this thread's, further up the stack: the
                // future is complete.
                State::Delivering if deliverer == Some(me) => {
                    info.completed = 1;
                    scan.any_complete = true;
                    // Taken by a delivery further up this thread's stack:
                    // its callback runs here unless it has started already
                    // (this is its own callback).
                    if let Some(body) = super::deliver::steal(self, key) {
                        scan.stolen.push((seq, body));
                    }
                }
                State::Delivering => {
                    // Complete once that delivery ends (rescanned).
                    info.completed = 0;
                    scan.others_delivering = true;
                }
            }
        }
        scan
    }

    /// Runs the callbacks a scan found for this wait, in future order, with
    /// the lock released. `Some(any_complete)` when the scan's findings
    /// stand; `None` when the list must be scanned again (a future was
    /// taken by another thread meanwhile, or another thread's delivery of
    /// a listed future had to be waited for).
    fn deliver_scanned<'a>(
        &'a self,
        mut inner: MutexGuard<'a, Inner>,
        infos: &mut [WGPUFutureWaitInfo],
        scan: &mut Scan,
    ) -> (MutexGuard<'a, Inner>, Option<bool>) {
        let mut any_complete = scan.any_complete;
        if !scan.stolen.is_empty() {
            drop(inner);
            let mut stolen = std::mem::take(&mut scan.stolen);
            stolen.sort_unstable_by_key(|&(seq, _)| seq);
            for (_, body) in stolen.drain(..) {
                super::deliver::run_guarded(body, false);
            }
            inner = self.lock();
        }
        if !scan.mine.is_empty() {
            // In future order; `completed` is set before a future's callback
            // runs. One taken meanwhile by another thread is found
            // `Delivering` or gone at the next scan.
            let mine = &mut scan.mine;
            mine.sort_unstable_by_key(|&(seq, _, _)| seq);
            let mut taken = 0;
            inner = self.deliver_items(
                inner,
                mine,
                |&(_, key, _)| key,
                |&(_, _, i)| {
                    infos[i].completed = 1;
                    taken += 1;
                },
            );
            // When this thread delivered every one, the scan's other outputs
            // stand, and a scan now would only find these complete: the wait
            // returns. One taken by another thread, or a future listed twice
            // (taken once), is rescanned.
            if taken < mine.len() || scan.others_delivering {
                return (inner, None);
            }
            any_complete = true;
        }
        if scan.others_delivering {
            // Complete, but its callback is running on another thread:
            // return only once it has finished.
            self.changed.wait(&mut inner);
            return (inner, None);
        }
        (inner, Some(any_complete))
    }

    /// Sleeps once, for a wait that found nothing complete, until something
    /// may have changed: on the one device's fence (a direct sleep), else on
    /// the registry's condition variable once the devices were kicked, or
    /// for a slice before this thread polls them itself where no progress
    /// thread does. The caller scans the list again afterwards.
    fn sleep_once<'a>(
        &'a self,
        mut inner: MutexGuard<'a, Inner>,
        scan: &Scan,
        sleep: &mut Sleep,
        find_sleeper: FindSleeper<'_>,
        kick: Kick<'_>,
    ) -> MutexGuard<'a, Inner> {
        if let Some(Ok(serial)) = scan.queue {
            if sleep.direct.as_ref().is_none_or(|(s, _)| *s != serial) {
                // Looked up (and the old sleeper dropped) with the registry
                // lock released: the lookup takes the instance's device
                // list, and the registry lock is a leaf. The futures are
                // scanned again only if one stopped being pending meanwhile
                // (a wait on thousands of futures would otherwise pay a
                // second scan).
                let seen = inner.completions;
                drop(inner);
                let old = sleep.direct.replace((serial, find_sleeper(serial)));
                drop(old);
                inner = self.lock();
                if inner.completions != seen {
                    return inner;
                }
            }
            if let Some((_, Some(sleeper))) = &sleep.direct {
                let sleeper = sleeper.clone();
                return self.sleep_direct(inner, serial, sleeper, sleep);
            }
        }
        // No direct sleep: the devices' progress threads poll and complete
        // the futures. They are woken once per wait, outside the registry
        // lock (kicking takes other locks); the futures are scanned again
        // afterwards, so a completion meanwhile is seen.
        if !scan.queues.is_empty() && (!sleep.kicked || sleep.self_poll) {
            if sleep.kicked {
                // This thread moves the devices: a slice's sleep (any
                // completion wakes it sooner), then it polls again.
                let slice = Instant::now() + SELF_POLL_SLICE;
                let until = sleep.deadline.map_or(slice, |d| d.min(slice));
                self.changed.wait_until(&mut inner, until);
                sleep.expired = sleep.deadline.is_some_and(|d| Instant::now() >= d);
            }
            sleep.kicked = true;
            drop(inner);
            // Every queue is kicked: no short circuit.
            sleep.self_poll = scan.queues.iter().map(|&q| kick(q)).filter(|moved| !moved).count() > 0;
            return self.lock();
        }
        match sleep.deadline {
            None => self.changed.wait(&mut inner),
            Some(deadline) => {
                // One more scan after the deadline, then give up.
                sleep.expired = self.changed.wait_until(&mut inner, deadline).timed_out();
            }
        }
        inner
    }

    /// Sleeps on the fence of the queue `serial` through `sleeper`,
    /// registered as this thread's sleeper so that a completion on another
    /// thread wakes it. A sleeper that fails is not used again in this wait.
    fn sleep_direct<'a>(
        &'a self,
        mut inner: MutexGuard<'a, Inner>,
        serial: u64,
        sleeper: Arc<dyn DirectSleep>,
        sleep: &mut Sleep,
    ) -> MutexGuard<'a, Inner> {
        let me = sleep.me;
        let token = sleeper.token();
        inner.sleepers.push((me, sleeper.clone()));
        drop(inner);
        let slept = sleeper.sleep(token, sleep.deadline);
        inner = self.lock();
        // This thread's entry: another thread may sleep on the same device
        // (sleepers are devices), but a thread has one entry at a time,
        // since it registers only to sleep.
        let this = Arc::as_ptr(&sleeper).cast::<()>();
        let entry = inner.sleepers.iter().position(|(t, s)| *t == me && Arc::as_ptr(s).cast::<()>() == this);
        let entry = entry.map(|i| inner.sleepers.swap_remove(i));
        if !slept {
            // The sleeper's references go with the lock released (they may
            // be its device's last).
            drop(inner);
            let old = sleep.direct.replace((serial, None));
            drop((old, entry, sleeper));
            inner = self.lock();
        }
        sleep.expired = sleep.deadline.is_some_and(|d| Instant::now() >= d);
        inner
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::WGPUFuture;
    use crate::futures::{Mode, Outcome, Source};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    const RULES: WaitRules = WaitRules { timed: true, max_count: 4, mixed_sources: false };

    fn info(f: WGPUFuture) -> WGPUFutureWaitInfo {
        WGPUFutureWaitInfo { future: f, completed: 0 }
    }

    #[test]
    fn wait_delivers_listed_only_and_once() {
        let reg = Registry::new();
        let runs = Arc::new(AtomicUsize::new(0));
        let (r1, r2) = (runs.clone(), runs.clone());
        let (f1, c1) = reg.register::<()>(Mode::WaitAnyOnly, Source::Cpu, move |_| {
            r1.fetch_add(1, Ordering::SeqCst);
        });
        let (f2, c2) = reg.register::<()>(Mode::WaitAnyOnly, Source::Cpu, move |_| {
            r2.fetch_add(10, Ordering::SeqCst);
        });
        let mut list = [info(f1)];
        assert_eq!(reg.wait_any(&mut list, 0, &RULES, &|_| None, &|_| true), Ok(WGPUWaitStatus::TimedOut));
        assert_eq!(list[0].completed, 0);
        c1.complete(());
        c2.complete(());
        assert_eq!(reg.wait_any(&mut list, 0, &RULES, &|_| None, &|_| true), Ok(WGPUWaitStatus::Success));
        assert_eq!((list[0].completed, runs.load(Ordering::SeqCst)), (1, 1));
        // Waiting again: success, no second call.
        let mut again = [info(f1)];
        assert_eq!(reg.wait_any(&mut again, 1_000, &RULES, &|_| None, &|_| true), Ok(WGPUWaitStatus::Success));
        assert_eq!((again[0].completed, runs.load(Ordering::SeqCst)), (1, 1));
        let mut second = [info(f2)];
        assert_eq!(reg.wait_any(&mut second, u64::MAX, &RULES, &|_| None, &|_| true), Ok(WGPUWaitStatus::Success));
        assert_eq!(runs.load(Ordering::SeqCst), 11);
    }

    #[test]
    fn a_future_listed_twice_is_delivered_once_and_complete_in_both() {
        let reg = Registry::new();
        let runs = Arc::new(AtomicUsize::new(0));
        let r = runs.clone();
        let (f, c) = reg.register::<()>(Mode::WaitAnyOnly, Source::Cpu, move |_| {
            r.fetch_add(1, Ordering::SeqCst);
        });
        let (g, _d) = reg.register::<()>(Mode::WaitAnyOnly, Source::Cpu, |_| {});
        c.complete(());
        let mut list = [info(f), info(g), info(f)];
        assert_eq!(reg.wait_any(&mut list, u64::MAX, &RULES, &|_| None, &|_| true), Ok(WGPUWaitStatus::Success));
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert_eq!(list.map(|i| i.completed), [1, 0, 1]);
    }

    #[test]
    fn completed_is_an_output() {
        let reg = Registry::new();
        let (f1, c1) = reg.register::<()>(Mode::WaitAnyOnly, Source::Cpu, |_| {});
        let (f2, _c2) = reg.register::<()>(Mode::WaitAnyOnly, Source::Queue(7), |_| {});
        let mut list = [WGPUFutureWaitInfo { future: f2, completed: 1 }];
        assert_eq!(reg.wait_any(&mut list, 0, &RULES, &|_| None, &|_| true), Ok(WGPUWaitStatus::TimedOut));
        assert_eq!(list[0].completed, 0, "a pending future left TRUE by the caller reads FALSE");
        c1.complete(());
        let mut both =
            [WGPUFutureWaitInfo { future: f1, completed: 0 }, WGPUFutureWaitInfo { future: f2, completed: 1 }];
        assert_eq!(reg.wait_any(&mut both, 0, &RULES, &|_| None, &|_| true), Ok(WGPUWaitStatus::Success));
        assert_eq!((both[0].completed, both[1].completed), (1, 0));
    }

    #[test]
    fn a_wait_that_returns_early_still_moves_pending_queues() {
        let reg = Registry::new();
        let (done, c1) = reg.register::<()>(Mode::WaitAnyOnly, Source::Cpu, |_| {});
        let (pending, _c2) = reg.register::<()>(Mode::WaitAnyOnly, Source::Queue(7), |_| {});
        c1.complete(());
        let kicked = AtomicUsize::new(0);
        let kick = |q: u64| {
            assert_eq!(q, 7);
            kicked.fetch_add(1, Ordering::SeqCst);
            true
        };
        for _ in 0..3 {
            let mut list = [info(done), info(pending)];
            assert_eq!(reg.wait_any(&mut list, 0, &RULES, &|_| None, &kick), Ok(WGPUWaitStatus::Success));
        }
        assert_eq!(kicked.load(Ordering::SeqCst), 3, "every poll kicks the pending future's queue");
    }

    #[test]
    fn a_timeout_needs_the_feature_even_with_nothing_listed() {
        let reg = Registry::new();
        let untimed = WaitRules { timed: false, ..RULES };
        assert!(reg.wait_any(&mut [], 1, &untimed, &|_| None, &|_| true).is_err());
        assert!(reg.wait_any(&mut [], u64::MAX, &untimed, &|_| None, &|_| true).is_err());
        assert_eq!(reg.wait_any(&mut [], 0, &untimed, &|_| None, &|_| true), Ok(WGPUWaitStatus::Success));
        assert_eq!(reg.wait_any(&mut [], 5, &RULES, &|_| None, &|_| true), Ok(WGPUWaitStatus::Success));
    }

    #[test]
    fn timed_wait_rules() {
        let reg = Registry::new();
        let (f, _c) = reg.register::<()>(Mode::WaitAnyOnly, Source::Queue(1), |_| {});
        let (g, _d) = reg.register::<()>(Mode::WaitAnyOnly, Source::Cpu, |_| {});
        let untimed = WaitRules { timed: false, ..RULES };
        assert!(reg.wait_any(&mut [info(f)], 5, &untimed, &|_| None, &|_| true).is_err());
        assert!(reg.wait_any(&mut [info(f), info(g)], 5, &RULES, &|_| None, &|_| true).is_err(), "mixed sources");
        assert_eq!(
            reg.wait_any(&mut [info(f), info(g)], 0, &RULES, &|_| None, &|_| true),
            Ok(WGPUWaitStatus::TimedOut)
        );
        assert!(reg.wait_any(&mut [info(f); 5], 5, &RULES, &|_| None, &|_| true).is_err(), "over the count");
        assert!(reg.wait_any(&mut [info(WGPUFuture { id: 0 })], 0, &RULES, &|_| None, &|_| true).is_err());
        let start = Instant::now();
        assert_eq!(
            reg.wait_any(&mut [info(f)], 20_000_000, &RULES, &|_| None, &|_| true),
            Ok(WGPUWaitStatus::TimedOut)
        );
        assert!(start.elapsed() >= Duration::from_millis(20));
        assert_eq!(reg.wait_any(&mut [], u64::MAX, &RULES, &|_| None, &|_| true), Ok(WGPUWaitStatus::Success));
    }

    #[test]
    fn blocked_wait_wakes_on_completion_from_another_thread() {
        let reg = Registry::new();
        let got = Arc::new(AtomicUsize::new(0));
        let g = got.clone();
        let (f, c) = reg.register::<u32>(Mode::WaitAnyOnly, Source::Queue(7), move |out| {
            if let Outcome::Done(v) = out {
                g.store(v as usize, Ordering::SeqCst);
            }
        });
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            c.complete(42);
        });
        assert_eq!(reg.wait_any(&mut [info(f)], u64::MAX, &RULES, &|_| None, &|_| true), Ok(WGPUWaitStatus::Success));
        assert_eq!(got.load(Ordering::SeqCst), 42);
        t.join().unwrap();
    }

    /// A direct sleeper that sleeps on its own condition variable, woken only
    /// by `wake` (no timeout: a lost wake-up hangs the test's WaitAny, which
    /// the test detects).
    struct FakeSleep {
        token: parking_lot::Mutex<u64>,
        woken: parking_lot::Condvar,
        sleeps: AtomicUsize,
    }

    impl DirectSleep for FakeSleep {
        fn wake(&self) {
            *self.token.lock() += 1;
            self.woken.notify_all();
        }
        fn token(&self) -> u64 {
            *self.token.lock()
        }
        fn sleep(&self, token: u64, _deadline: Option<Instant>) -> bool {
            self.sleeps.fetch_add(1, Ordering::SeqCst);
            let mut t = self.token.lock();
            let limit = Instant::now() + Duration::from_secs(10);
            while *t == token {
                if self.woken.wait_until(&mut t, limit).timed_out() {
                    panic!("lost wake-up: the completion did not wake the direct sleeper");
                }
            }
            true
        }
    }

    #[test]
    fn direct_sleepers_are_woken_by_every_completion() {
        let reg = Registry::new();
        let fake = Arc::new(FakeSleep {
            token: parking_lot::Mutex::new(0),
            woken: parking_lot::Condvar::new(),
            sleeps: AtomicUsize::new(0),
        });
        let find = {
            let fake = fake.clone();
            move |serial: u64| -> Option<Arc<dyn DirectSleep>> { (serial == 3).then(|| fake.clone() as _) }
        };
        // Completions from another thread at varying delays, including none
        // (racing with the waiter's scan), one at a time and in a batch.
        for round in 0..40u64 {
            let (f, c) = reg.register::<()>(Mode::WaitAnyOnly, Source::Queue(3), |_| {});
            let (g, d) = reg.register::<()>(Mode::WaitAnyOnly, Source::Cpu, |_| {});
            let t = std::thread::spawn(move || {
                std::thread::sleep(Duration::from_micros(round % 4 * 500));
                d.complete(());
                std::thread::sleep(Duration::from_micros(round % 3 * 300));
                c.complete(());
            });
            let mut list = [info(f), info(g)];
            while list.iter().any(|i| i.completed == 0) {
                let mut pending: Vec<_> = list.iter().copied().filter(|i| i.completed == 0).collect();
                let mixed = WaitRules { mixed_sources: true, ..RULES };
                assert_eq!(reg.wait_any(&mut pending, u64::MAX, &mixed, &find, &|_| true), Ok(WGPUWaitStatus::Success));
                for p in pending.iter().filter(|p| p.completed != 0) {
                    for l in list.iter_mut().filter(|l| l.future.id == p.future.id) {
                        l.completed = 1;
                    }
                }
            }
            t.join().unwrap();
            assert!(reg.inner.lock().sleepers.is_empty(), "a sleeper stayed registered");
        }
        assert!(fake.sleeps.load(Ordering::SeqCst) > 0, "the direct sleeper was never used");
    }

    /// A direct sleeper whose sleep fails at once, and which checks that
    /// the registry lock is free when its last reference goes (it stands
    /// for a device's sleeper: dropping a device's last reference joins its
    /// progress thread, which takes the registry lock).
    struct DropCheck {
        reg: Arc<Registry>,
        dropped: Arc<AtomicUsize>,
    }

    impl DirectSleep for DropCheck {
        fn wake(&self) {}
        fn token(&self) -> u64 {
            0
        }
        fn sleep(&self, _token: u64, _deadline: Option<Instant>) -> bool {
            false
        }
    }

    impl Drop for DropCheck {
        fn drop(&mut self) {
            assert!(self.reg.inner.try_lock().is_some(), "a sleeper was dropped under the registry lock");
            self.dropped.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// The soak test's deadlock (three threads: a WaitAny looking up its
    /// device under the registry lock, a ProcessEvents dropping a device's
    /// last reference under the device list's lock, that device's progress
    /// thread waiting for the registry lock): a wait calls out (the sleeper
    /// lookup, the kick) and drops what it looked up with the registry
    /// lock released.
    #[test]
    fn a_wait_calls_out_and_drops_sleepers_with_the_registry_lock_released() {
        let reg = Registry::new();
        let (f, c) = reg.register::<()>(Mode::WaitAnyOnly, Source::Queue(3), |_| {});
        let completer = parking_lot::Mutex::new(Some(c));
        let dropped = Arc::new(AtomicUsize::new(0));
        let looked_up = AtomicUsize::new(0);
        let find = |serial: u64| -> Option<Arc<dyn DirectSleep>> {
            assert!(reg.inner.try_lock().is_some(), "the sleeper lookup ran under the registry lock");
            assert_eq!(serial, 3);
            looked_up.fetch_add(1, Ordering::SeqCst);
            Some(Arc::new(DropCheck { reg: reg.clone(), dropped: dropped.clone() }))
        };
        let kick = |_serial: u64| {
            assert!(reg.inner.try_lock().is_some(), "the kick ran under the registry lock");
            if let Some(c) = completer.lock().take() {
                c.complete(());
            }
            true
        };
        let mut list = [info(f)];
        assert_eq!(reg.wait_any(&mut list, u64::MAX, &RULES, &find, &kick), Ok(WGPUWaitStatus::Success));
        assert_eq!(list[0].completed, 1);
        assert_eq!(looked_up.load(Ordering::SeqCst), 1);
        assert_eq!(dropped.load(Ordering::SeqCst), 1, "the failed sleeper was not dropped");
    }

    /// A sleeper that must never be slept on.
    struct NeverSleep;

    impl DirectSleep for NeverSleep {
        fn wake(&self) {}
        fn token(&self) -> u64 {
            0
        }
        fn sleep(&self, _token: u64, _deadline: Option<Instant>) -> bool {
            panic!("slept through a completion made while the sleeper was looked up");
        }
    }

    /// The lookup runs with the registry lock released; a future that
    /// completes meanwhile is seen by a second scan before any sleep, and a
    /// wait with nothing completed meanwhile sleeps without one.
    #[test]
    fn a_completion_during_the_sleeper_lookup_is_seen() {
        let reg = Registry::new();
        let (f, c) = reg.register::<()>(Mode::WaitAnyOnly, Source::Queue(3), |_| {});
        let completer = parking_lot::Mutex::new(Some(c));
        let find = |_serial: u64| -> Option<Arc<dyn DirectSleep>> {
            if let Some(c) = completer.lock().take() {
                c.complete(());
            }
            Some(Arc::new(NeverSleep))
        };
        let mut list = [info(f)];
        assert_eq!(reg.wait_any(&mut list, u64::MAX, &RULES, &find, &|_| true), Ok(WGPUWaitStatus::Success));
        assert_eq!(list[0].completed, 1);
    }
}
