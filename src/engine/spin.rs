//! The first rung of the wait ladder: before a thread sleeps in the driver
//! for a device's fence, it checks the fence (`vkGetSemaphoreCounterValue`,
//! a memory read on GPUs) for a short, bounded time.
//!
//! A blocking driver wait costs a thread wake-up on top of the GPU's work
//! (tens of microseconds on NVIDIA's driver: `benches/driver_wait.rs`). Short
//! GPU work ends inside the spin and skips that cost; long work never spins,
//! because the budget follows what this device's recent waits took:
//!
//! - the budget is the cap (default 50 µs on GPUs) while the recent waits
//!   (an exponential average, a quarter weight for the newest) are short;
//! - once they average more than twice the cap, the budget is 0 and the
//!   thread sleeps at once, so a wait for a long job costs no CPU beyond one
//!   check; a run of short waits brings the spin back.
//!
//! The second rung is for long waits of regular length (a frame loop, a
//! job run again and again): the thread sleeps in the driver until a little
//! before the end the recent long waits predict, then spins out the end for
//! at most the lead and one cap ([`Spin::wake_rung`]). The GPU finishing
//! earlier wakes it from the driver as before; finishing later costs that
//! spin, then a driver sleep. It turns the driver's wake-up delay into a
//! spin's. The wait counts from the job's submission where the device
//! remembers it (`Submissions::begun`: the first submission beyond the
//! fence value the wait saw), so that a wait that starts
//! late (a progress thread woken for the job, an application that waits
//! after other work) still wakes shortly before the job's end. The
//! prediction is the last long wait, averaged with the ones before while
//! they stay within a quarter of each other: only waits longer
//! than twice the cap feed it, so the short waits an application makes
//! between its long jobs (a readback of the result) do not pull it down,
//! and a job of a new length is followed at its first wait. An end that a
//! driver's wake-up reported (below) is counted a lead earlier
//! ([`Spin::note_early`]), so that its lateness does not keep the next
//! sleep past the job's end.
//!
//! When the sleep ends before the job does, the thread polls the device
//! once before its spin (a poll that finds nothing done costs a few
//! microseconds). The presumed gain: the poll after the job's end runs on
//! warm caches, as a spinning `wgpuInstanceProcessEvents` loop's does, not
//! on a core that slept for milliseconds. Only the earlier callback is
//! measured, not the caches (docs/DECISIONS.md, "Waiting").
//!
//! How the sleep ends early matters. A timed `vkWaitSemaphores` that
//! reaches its timeout costs a lot on NVIDIA's driver (580), which spins
//! before the timeout: a timed wait that nothing signals cost 1.0 of a core
//! at 0.1 ms, 0.22–0.39 at 1 ms and 0.08–0.09 at 5 ms
//! (`benches/driver_wait.rs`'s `timed` probe on the lent H100), about 1 ms
//! of CPU per long wait. And a thread the driver wakes comes late: 40–200 µs
//! after the signal on the lent machines (`host_wake`, `late10`). So on
//! Vulkan the thread *naps* ([`WakeEnd::Nap`]): it sleeps on a condition
//! variable with the OS's precise timer, while the device's fence watcher
//! (`watch.rs`) sleeps on the fence for it and wakes it if the job ends
//! early; a job that ends on time costs a timer wake-up, no driver wake-up.
//! The nap's lead follows how late the naps have woken on this device (the
//! lateness about nine wakes in ten come before, plus a margin, at least
//! [`NAP_MIN_LEAD_NS`]; over `LEAD_CAPS` caps only where they wake that
//! late, up to a 64th of the wait and 1 ms), and the rung serves every long
//! wait by default. Jobs whose length strays (a GPU's clocks) widen the
//! spin on both sides of the predicted end by twice their recent deviation,
//! at most a 400th of the wait. Elsewhere the sleep is a timed driver wait
//! ([`WakeEnd::Timed`]) with a lead of `LEAD_CAPS` caps, and the rung serves
//! by default only waits predicted to last at least 50 ms, where its cost
//! is at most 2 % (`WGPU_SHIM_WAKE_RUNG`: `on` for every long wait, `off`
//! for none; docs/DECISIONS.md, "Waiting").
//!
//! Before the first rung's spin, a wait that is expected to be short naps
//! (Linux): the thread sleeps on a precise timer (`clock_nanosleep`, with
//! its timer slack at 1 ns for the nap) until shortly before the end that
//! the device's recent short waits predict, and spins only the rest. A
//! short wait then costs a few microseconds of CPU instead of all of it.
//! The prediction learns from the waits a spin saw end (an average, a
//! quarter weight for the newest), and shrinks by an eighth whenever the
//! GPU was already done when a nap ended (how much earlier is unknown), so
//! a nap that oversleeps does not teach itself to sleep longer. Napping is
//! off unless `WGPU_SHIM_NAP_US` sets the lead (how long before the
//! predicted end the nap ends): on the machine it was measured on (a
//! virtual machine with an NVIDIA H100), a nap woke about 5 µs late and cost
//! about 5 µs of CPU, so within waits of about 25 µs it cut the CPU but
//! lengthened the round trip (docs/DECISIONS.md).
//!
//! The cap comes from `WGPU_SHIM_SPIN_US` (microseconds; 0 turns spinning
//! off), else from `wgpuShimInstanceSetSpinWait` on the device's instance,
//! else the default: 50 µs on GPUs and 0 on CPU adapters, where the "GPU" is
//! threads competing with the spinning one for the same cores.

use super::fence::Begun;
use super::wait_trace::{self, Waiter};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How much earlier than the predicted end of a long wait the thread wakes
/// from its driver sleep to spin the end out, in caps (the wake rung).
const LEAD_CAPS: u64 = 3;

/// The shortest nap worth a sleep (a wake-up costs a few microseconds).
const MIN_NAP_NS: u64 = 4_000;

/// The default cap on GPUs.
pub(crate) const DEFAULT_GPU_CAP_NS: u64 = 50_000;
/// The largest cap a setting may ask for (a spin is meant to be short).
pub(crate) const MAX_CAP_NS: u64 = 1_000_000;
/// Not set: the instance's setting or the default applies.
pub(crate) const UNSET: u64 = u64::MAX;

/// Reads the setting `name`: `None` when it is unset, else what `parse`
/// makes of its trimmed value; a value `parse` rejects (`None`) is logged
/// as not being `expected`, with the `fallback` that applies instead.
fn env_setting<T>(name: &str, expected: &str, fallback: &str, parse: impl FnOnce(&str) -> Option<T>) -> Option<T> {
    let value = std::env::var(name).ok()?;
    let parsed = parse(value.trim());
    if parsed.is_none() {
        log::warn!(target: "wgpu_shim", "{name}={value:?} is not {expected}: {fallback}");
    }
    parsed
}

/// Microseconds, as nanoseconds at most [`MAX_CAP_NS`].
fn micros_capped(v: &str) -> Option<u64> {
    v.parse::<u64>().ok().map(|us| us.saturating_mul(1000).min(MAX_CAP_NS))
}

/// `WGPU_SHIM_SPIN_US`, read once, in nanoseconds (`UNSET` when absent).
fn env_cap_ns() -> u64 {
    static CAP: OnceLock<u64> = OnceLock::new();
    *CAP.get_or_init(|| {
        env_setting("WGPU_SHIM_SPIN_US", "a number of microseconds", "ignored", micros_capped).unwrap_or(UNSET)
    })
}

/// Which long waits the wake rung serves (`WGPU_SHIM_WAKE_RUNG`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Rung {
    /// None.
    Off,
    /// Every long wait of regular length where a nap ends the sleep; with
    /// a timed driver wait, those predicted to last at least
    /// [`RUNG_MIN_NS`] (the default).
    Auto,
    /// Every long wait of regular length.
    On,
}

/// The shortest predicted wait the rung serves by default where its sleep
/// is a timed driver wait (no nap): its cost, about 1 ms of CPU per wait
/// on NVIDIA's driver (the module documentation), is then at most 2 % of
/// the wait.
const RUNG_MIN_NS: u64 = 50_000_000;

/// The shortest lead of a napping early wake, and the margin added to the
/// naps' recent lateness to make its lead.
const NAP_MIN_LEAD_NS: u64 = 20_000;
const NAP_MARGIN_NS: u64 = 10_000;

/// A napping early wake's lead is at most the predicted wait over this,
/// and at most `NAP_MAX_LEAD_NS`, where it exceeds `LEAD_CAPS` caps.
const NAP_LEAD_DIVISOR: u64 = 64;
const NAP_MAX_LEAD_NS: u64 = 1_000_000;

/// The early wake's window widens by at most the predicted wait over this
/// on each side.
const SPREAD_DIVISOR: u64 = 400;

/// How the sleep of an early wake ends when the job has not ended first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum WakeEnd {
    /// A timed driver wait reaches its timeout.
    Timed,
    /// The thread naps on the OS's precise timer while the device's fence
    /// watcher watches the fence for it (`watch.rs`): no driver wake-up.
    Nap,
}

/// How the sleep of a wait's early wake ([`Spin::wake_rung_from`]) ended,
/// which says how exactly the wait saw its job's end.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum EarlyEnd {
    /// The end came after the sleep and a spin saw it, to within one check
    /// of the fence (or, with no fence watcher, a timed driver wait
    /// returned with it): the wait counts as it lasted.
    Seen,
    /// A nudge ended the nap before its time: the fence watcher woke in the
    /// driver when the job ended, and the thread sees the end that wake-up
    /// late.
    Nudged,
    /// The window's spin ran out and a driver sleep saw the end, the
    /// driver's wake-up late.
    Slept,
    /// A driver wait failed.
    Failed,
}

/// `WGPU_SHIM_WAKE_RUNG`, read once: `on`, `off`, or `auto` (the default).
fn rung_setting() -> Rung {
    static SETTING: OnceLock<Rung> = OnceLock::new();
    *SETTING.get_or_init(|| {
        let parse = |v: &str| match v {
            "on" | "1" => Some(Rung::On),
            "off" | "0" => Some(Rung::Off),
            "auto" | "" => Some(Rung::Auto),
            _ => None,
        };
        env_setting("WGPU_SHIM_WAKE_RUNG", "`on`, `off` or `auto`", "using `auto`", parse).unwrap_or(Rung::Auto)
    })
}

/// `WGPU_SHIM_NAP_US`, read once: the nap's lead in nanoseconds, `None`
/// when napping is off (unset, `off`, or a platform without a precise
/// timer).
fn nap_lead_ns() -> Option<u64> {
    static LEAD: OnceLock<Option<u64>> = OnceLock::new();
    *LEAD.get_or_init(|| {
        if !cfg!(target_os = "linux") {
            return None;
        }
        let parse = |v: &str| if v == "off" { Some(None) } else { micros_capped(v).map(Some) };
        env_setting("WGPU_SHIM_NAP_US", "`off` or a number of microseconds", "napping stays off", parse).flatten()
    })
}

/// One device's spin budget, shared by the threads that wait for its fence
/// (WaitAny's direct waits, `wgpuDevicePoll`, the progress thread).
pub(crate) struct Spin {
    /// The cap when neither the environment nor the instance sets one.
    default_cap_ns: u64,
    /// The instance's setting (`wgpuShimInstanceSetSpinWait`; `UNSET`: none).
    instance_cap_ns: std::sync::Arc<AtomicU64>,
    /// The recent waits' average, in nanoseconds.
    recent_ns: AtomicU64,
    /// The predicted length of a long wait (0: none seen yet), which the
    /// wake rung sleeps through less its lead.
    long_ns: AtomicU64,
    /// The predicted length of a short wait (0: none learned yet), which
    /// the nap sleeps through less its lead.
    short_ns: AtomicU64,
    /// How far long waits stray from the prediction (an average of the
    /// differences), which widens the early wake's window.
    long_dev_ns: AtomicU64,
    /// How late the naps' timer woke their nappers, recently: a napping
    /// early wake takes its lead from it.
    nap_late: Lateness,
}

/// How late the wake-ups of one kind came, recently (0: none seen yet): an
/// estimate that rises by a quarter of a later wake's excess and falls by a
/// thirty-second of an earlier one's shortfall, so that about nine wakes in
/// ten come before it.
#[derive(Default)]
struct Lateness(AtomicU64);

impl Lateness {
    fn ns(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    fn note(&self, late: Duration) {
        let ns = nanos(late).clamp(1, MAX_CAP_NS);
        let old = self.ns();
        let new = match old {
            0 => ns,
            _ if ns > old => old + (ns - old) / 4,
            _ => old - (old - ns) / 32,
        };
        self.0.store(new.max(1), Ordering::Relaxed);
    }
}

impl Spin {
    /// The budget of a device on a GPU or (`cpu_adapter`) a CPU adapter, with
    /// its instance's setting.
    pub(crate) fn new(cpu_adapter: bool, instance_cap_ns: std::sync::Arc<AtomicU64>) -> Spin {
        Spin {
            default_cap_ns: if cpu_adapter { 0 } else { DEFAULT_GPU_CAP_NS },
            instance_cap_ns,
            recent_ns: AtomicU64::new(0),
            long_ns: AtomicU64::new(0),
            short_ns: AtomicU64::new(0),
            long_dev_ns: AtomicU64::new(0),
            nap_late: Lateness::default(),
        }
    }

    /// The cap in force.
    pub(crate) fn cap_ns(&self) -> u64 {
        match (env_cap_ns(), self.instance_cap_ns.load(Ordering::Relaxed)) {
            (UNSET, UNSET) => self.default_cap_ns,
            (UNSET, cap) => cap.min(MAX_CAP_NS),
            (cap, _) => cap,
        }
    }

    /// How long the next wait may spin.
    pub(crate) fn budget_ns(&self) -> u64 {
        let cap = self.cap_ns();
        if cap == 0 || self.recent_ns.load(Ordering::Relaxed) > 2 * cap {
            0
        } else {
            cap
        }
    }

    /// The wake rung, for a wait expected to outlast the spin budget: how
    /// long to sleep in the driver (which wakes the thread earlier if the GPU
    /// finishes first) and how long to spin after that sleep ended without
    /// the GPU, so that the end of a job as long as the recent ones is seen
    /// by a spin, not by a driver wake-up. `end`: how that sleep ends.
    /// `None` when
    /// spinning is off (a cap of 0: CPU adapters by default) or the recent
    /// waits are short (the budget rung covers them) or too short to sleep
    /// through part of, or the setting leaves this wait out.
    pub(crate) fn wake_rung(&self, end: WakeEnd) -> Option<(u64, u64)> {
        self.wake_rung_with(rung_setting(), end)
    }

    /// [`Spin::wake_rung`] for the job submitted at `begun` (the
    /// prediction counts from the submission, so a wait that starts late
    /// wakes no later): when the sleep ends, and until when the spin after
    /// it lasts.
    pub(crate) fn wake_rung_from(&self, end: WakeEnd, begun: Instant) -> Option<(Instant, Instant)> {
        let (early, window) = self.wake_rung(end)?;
        let at = begun + Duration::from_nanos(early);
        Some((at, at + Duration::from_nanos(window)))
    }

    /// [`Spin::wake_rung`] with the given setting.
    fn wake_rung_with(&self, setting: Rung, end: WakeEnd) -> Option<(u64, u64)> {
        let cap = self.cap_ns();
        let long = self.long_ns.load(Ordering::Relaxed);
        let lead = self.lead_ns(cap, end, long);
        let spread = self.spread_ns(long);
        let wanted = match setting {
            Rung::Off => false,
            Rung::Auto => end != WakeEnd::Timed || long >= RUNG_MIN_NS,
            Rung::On => true,
        };
        if !wanted || cap == 0 || long <= 2 * (lead + spread) {
            return None;
        }
        Some((long - lead - spread, lead + cap + 2 * spread))
    }

    /// How far the early wake's window reaches on each side of the predicted
    /// end `long`: jobs that stray from their average (a GPU's clocks) widen
    /// it by twice their recent deviation, at most a 400th of the wait, so
    /// that the window's spin costs at most about half a percent of a core
    /// more.
    fn spread_ns(&self, long: u64) -> u64 {
        (2 * self.long_dev_ns.load(Ordering::Relaxed)).min(long / SPREAD_DIVISOR)
    }

    /// How long before a long wait's predicted end its early wake ends: a
    /// nap the naps' recent lateness and a margin (at least
    /// [`NAP_MIN_LEAD_NS`]), once a lateness is known; until then, or for a
    /// timed driver wait, [`LEAD_CAPS`] caps. A nap's lead exceeds those
    /// caps only where the naps wake that late (a machine whose idle CPUs
    /// wake slowly), up to a 64th of the predicted wait `long` and at most
    /// [`NAP_MAX_LEAD_NS`].
    fn lead_ns(&self, cap: u64, end: WakeEnd, long: u64) -> u64 {
        let caps = LEAD_CAPS * cap;
        let late = match end {
            WakeEnd::Timed => 0,
            WakeEnd::Nap => self.nap_late.ns(),
        };
        if late == 0 {
            return caps;
        }
        let most = caps.max((long / NAP_LEAD_DIVISOR).min(NAP_MAX_LEAD_NS));
        (late + NAP_MARGIN_NS).max(NAP_MIN_LEAD_NS).min(most)
    }

    /// Records how late a nap's timer woke its thread (from the time asked
    /// to the thread's first look at the fence).
    pub(crate) fn note_nap(&self, late: Duration) {
        self.nap_late.note(late);
    }

    /// Records how long a wait for the fence took, spin and sleep together.
    pub(crate) fn note(&self, waited: Duration) {
        let ns = nanos(waited);
        let old = self.recent_ns.load(Ordering::Relaxed);
        let new = old - old / 4 + ns / 4;
        self.recent_ns.store(new, Ordering::Relaxed);
        if ns > 2 * self.cap_ns() {
            // A long wait: the wake rung's prediction follows it, at once
            // when it differs from the prediction by more than a quarter.
            let old = self.long_ns.load(Ordering::Relaxed);
            let diff = ns.abs_diff(old);
            if diff > old / 4 {
                // A job of a new length: its deviation is learned anew.
                self.long_ns.store(ns, Ordering::Relaxed);
                self.long_dev_ns.store(0, Ordering::Relaxed);
            } else {
                self.long_ns.store(old - old / 4 + ns / 4, Ordering::Relaxed);
                let dev = self.long_dev_ns.load(Ordering::Relaxed);
                self.long_dev_ns.store(dev - dev / 4 + diff / 4, Ordering::Relaxed);
            }
        }
    }

    /// Records a wait for the job it counts from at `begun` (its
    /// submission, where known), which the thread saw end just now;
    /// `early`: its early wake's times (when the nap ended, when the
    /// window's spin ended) and how its sleep ended, if it had one.
    /// `who`: the thread, for `WGPU_SHIM_WAIT_TRACE`'s records
    /// (`wait_trace.rs`).
    pub(crate) fn note_wait(&self, who: Waiter, begun: Begun, early: Option<((Instant, Instant), EarlyEnd)>) {
        let waited = begun.at.elapsed();
        let early = early.map(|((at, until), end)| {
            ((at.saturating_duration_since(begun.at), until.saturating_duration_since(begun.at)), end)
        });
        let traced = wait_trace::on().then(|| self.trace_record((who, begun), waited, early));
        let counted = match early {
            Some((times, end)) => self.note_early(waited, times, end),
            None => {
                self.note(waited);
                waited
            }
        };
        if let Some(record) = traced.flatten() {
            wait_trace::record(&wait_trace::Record { counted_ns: nanos(counted), ..record });
        }
    }

    /// The trace record of a long wait, with the prediction it was waited
    /// with (`None` for a short one, which is not recorded). Its
    /// `counted_ns` is 0 until the wait is learned.
    fn trace_record(
        &self,
        (waiter, begun): (Waiter, Begun),
        waited: Duration,
        early: Option<((Duration, Duration), EarlyEnd)>,
    ) -> Option<wait_trace::Record> {
        let cap = self.cap_ns();
        let waited_ns = nanos(waited);
        if early.is_none() && waited_ns <= 2 * cap {
            return None;
        }
        let long = self.long_ns.load(Ordering::Relaxed);
        Some(wait_trace::Record {
            waiter,
            since_submit: begun.submitted,
            behind: begun.behind,
            waited_ns,
            predicted_ns: long,
            lead_ns: self.lead_ns(cap, WakeEnd::Nap, long),
            spread_ns: self.spread_ns(long),
            early: early.map(|((at, until), end)| (nanos(at), nanos(until), end)),
            counted_ns: 0,
        })
    }

    /// Records a long wait of `waited` whose early wake ended as `end`, its
    /// nap set to end `at` and its window's spin `until` (all counted from
    /// the job's submission).
    ///
    /// An end that a driver's wake-up reported (a nudge, or the sleep after
    /// the window) is seen that wake-up late: 40–200 µs after the signal on
    /// the lent GPUs, more than the nap's lead. Learned as the job's length,
    /// it puts the next nap's time past the job's end, where the end is
    /// again a driver's to report, so the prediction stays that late (a lent
    /// H100's progress thread did so for 21 jobs in a row). Such a wait
    /// therefore counts a lead less (the lead follows how late this
    /// machine's naps wake), a nudged one no later than the nap's time,
    /// before which its job ended, and a slept one no earlier than the
    /// window's end, after which its job ended. Each nudge then moves the
    /// prediction down by at least half a lead, until a nap ends before the
    /// job does and a spin sees the end.
    /// Returns the length it counted.
    pub(crate) fn note_early(&self, waited: Duration, (at, until): (Duration, Duration), end: EarlyEnd) -> Duration {
        let long = self.long_ns.load(Ordering::Relaxed);
        let lead = Duration::from_nanos(self.lead_ns(self.cap_ns(), WakeEnd::Nap, long));
        let counted = match end {
            EarlyEnd::Nudged => waited.min(at).saturating_sub(lead),
            EarlyEnd::Slept => waited.saturating_sub(lead).max(until),
            EarlyEnd::Seen | EarlyEnd::Failed => waited,
        };
        self.note(counted);
        counted
    }

    /// The first rung: a nap where the recent short waits predict one
    /// (see the module documentation), then a spin until `done` holds or
    /// the budget has passed since the call. Returns whether `done` held.
    pub(crate) fn short(&self, done: impl FnMut() -> bool) -> bool {
        self.short_with(nap_lead_ns(), done)
    }

    /// [`Spin::short`] with the nap's lead given (`None`: no nap).
    fn short_with(&self, lead: Option<u64>, mut done: impl FnMut() -> bool) -> bool {
        let budget = self.budget_ns();
        if budget == 0 {
            return false;
        }
        let start = Instant::now();
        if let Some(nap) = self.nap_ns(budget, lead) {
            if done() {
                return true;
            }
            nap_for(nap);
            if done() {
                // Done at some point of the nap: the prediction was long.
                let p = self.short_ns.load(Ordering::Relaxed);
                self.short_ns.store(p - p / 8, Ordering::Relaxed);
                return true;
            }
        }
        let seen = Self::spin(budget.saturating_sub(elapsed_ns(start)), &mut done);
        // The prediction serves only the nap: without one, no clock read.
        if seen && lead.is_some() {
            let t = elapsed_ns(start);
            let p = self.short_ns.load(Ordering::Relaxed);
            let new = if p == 0 { t } else { p - p / 4 + t / 4 };
            self.short_ns.store(new.max(1), Ordering::Relaxed);
        }
        seen
    }

    /// How long the next short wait naps, if at all.
    fn nap_ns(&self, budget: u64, lead: Option<u64>) -> Option<u64> {
        let lead = lead?;
        let predicted = self.short_ns.load(Ordering::Relaxed);
        if predicted > budget {
            return None;
        }
        let nap = predicted.saturating_sub(lead);
        (nap >= MIN_NAP_NS).then_some(nap)
    }

    /// Spins until `done` holds or `budget_ns` has passed; returns whether
    /// `done` held.
    pub(crate) fn spin(budget_ns: u64, mut done: impl FnMut() -> bool) -> bool {
        if budget_ns == 0 {
            return false;
        }
        let start = Instant::now();
        let budget = Duration::from_nanos(budget_ns);
        loop {
            if done() {
                return true;
            }
            if start.elapsed() >= budget {
                return false;
            }
            for _ in 0..16 {
                std::hint::spin_loop();
            }
        }
    }
}

/// A duration in nanoseconds, saturating at `u64::MAX` (584 years).
pub(crate) fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// Nanoseconds since `start`.
pub(crate) fn elapsed_ns(start: Instant) -> u64 {
    nanos(start.elapsed())
}

/// Nanoseconds from now until `at` (0 when it passed).
pub(crate) fn ns_until(at: Instant) -> u64 {
    nanos(at.saturating_duration_since(Instant::now()))
}

/// Runs `f` with the calling thread's timer slack at 1 ns (Linux), so that
/// a timed sleep inside it ends when asked, not up to the default 50 µs
/// later; the thread's own slack is restored afterwards.
pub(crate) fn with_fine_timer<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: PR_GET_TIMERSLACK takes no pointer arguments; it returns
        // the calling thread's slack in nanoseconds (or -1).
        let old = unsafe { libc::prctl(libc::PR_GET_TIMERSLACK, 0, 0, 0, 0) };
        if old > 1 {
            // SAFETY: PR_SET_TIMERSLACK takes the slack by value; it only
            // changes this thread's timer slack.
            unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong, 0, 0, 0) };
        }
        let result = f();
        if old > 1 {
            // SAFETY: as above; the value is the one read before.
            unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, old as libc::c_ulong, 0, 0, 0) };
        }
        result
    }
    #[cfg(not(target_os = "linux"))]
    f()
}

/// Sleeps `ns` on a precise timer (only called where [`nap_lead_ns`] allows
/// naps: Linux).
fn nap_for(ns: u64) {
    #[cfg(target_os = "linux")]
    with_fine_timer(|| {
        let ts = libc::timespec {
            tv_sec: (ns / 1_000_000_000) as libc::time_t,
            tv_nsec: (ns % 1_000_000_000) as libc::c_long,
        };
        // SAFETY: `ts` is a valid timespec; no remainder is asked for. An
        // interrupted sleep (EINTR) only ends the nap early.
        unsafe { libc::clock_nanosleep(libc::CLOCK_MONOTONIC, 0, &ts, std::ptr::null_mut()) };
    });
    #[cfg(not(target_os = "linux"))]
    let _ = ns;
}

#[cfg(test)]
mod tests;
