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
//! before the recent waits' average (`LEAD_CAPS` caps before), then spins
//! out the end for at most the lead and one cap ([`Spin::wake_rung`]). The
//! GPU finishing earlier wakes it from the driver as before; finishing later
//! costs that spin, then a driver sleep. It costs a few hundred microseconds
//! of CPU per long wait and turns the driver's wake-up delay into a spin's.
//!
//! The cap comes from `WGPU_SHIM_SPIN_US` (microseconds; 0 turns spinning
//! off), else from `wgpuShimInstanceSetSpinWait` on the device's instance,
//! else the default: 50 µs on GPUs and 0 on CPU adapters, where the "GPU" is
//! threads competing with the spinning one for the same cores.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How much earlier than the predicted end of a long wait the thread wakes
/// from its driver sleep to spin the end out, in caps (the wake rung).
const LEAD_CAPS: u64 = 3;

/// The default cap on GPUs.
pub(crate) const DEFAULT_GPU_CAP_NS: u64 = 50_000;
/// The largest cap a setting may ask for (a spin is meant to be short).
pub(crate) const MAX_CAP_NS: u64 = 1_000_000;
/// Not set: the instance's setting or the default applies.
pub(crate) const UNSET: u64 = u64::MAX;

/// `WGPU_SHIM_SPIN_US`, read once, in nanoseconds (`UNSET` when absent).
fn env_cap_ns() -> u64 {
    static CAP: OnceLock<u64> = OnceLock::new();
    *CAP.get_or_init(|| match std::env::var("WGPU_SHIM_SPIN_US") {
        Err(_) => UNSET,
        Ok(v) => match v.trim().parse::<u64>() {
            Ok(us) => us.saturating_mul(1000).min(MAX_CAP_NS),
            Err(_) => {
                log::warn!(target: "wgpu_shim", "WGPU_SHIM_SPIN_US={v:?} is not a number of microseconds: ignored");
                UNSET
            }
        },
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
}

impl Spin {
    /// The budget of a device on a GPU or (`cpu_adapter`) a CPU adapter, with
    /// its instance's setting.
    pub(crate) fn new(cpu_adapter: bool, instance_cap_ns: std::sync::Arc<AtomicU64>) -> Spin {
        Spin {
            default_cap_ns: if cpu_adapter { 0 } else { DEFAULT_GPU_CAP_NS },
            instance_cap_ns,
            recent_ns: AtomicU64::new(0),
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
    /// finishes first) and how long to spin after that sleep timed out, so
    /// that the end of a job as long as the recent ones is seen by a spin,
    /// not by a driver wake-up. `None` when spinning is off (a cap of 0: CPU
    /// adapters by default) or the recent waits are short (the budget rung
    /// covers them) or too short to sleep through part of.
    pub(crate) fn wake_rung(&self) -> Option<(u64, u64)> {
        let cap = self.cap_ns();
        let recent = self.recent_ns.load(Ordering::Relaxed);
        let lead = LEAD_CAPS * cap;
        if cap == 0 || recent <= 2 * lead {
            return None;
        }
        Some((recent - lead, lead + cap))
    }

    /// Records how long a wait for the fence took, spin and sleep together.
    pub(crate) fn note(&self, waited: Duration) {
        let ns = u64::try_from(waited.as_nanos()).unwrap_or(u64::MAX);
        let old = self.recent_ns.load(Ordering::Relaxed);
        let new = old - old / 4 + ns / 4;
        self.recent_ns.store(new, Ordering::Relaxed);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn spin(cpu: bool, cap: u64) -> Spin {
        Spin::new(cpu, std::sync::Arc::new(AtomicU64::new(cap)))
    }

    #[test]
    fn long_waits_turn_the_spin_off_and_short_ones_bring_it_back() {
        let spin = spin(false, UNSET);
        assert_eq!(spin.budget_ns(), if env_cap_ns() == UNSET { DEFAULT_GPU_CAP_NS } else { env_cap_ns() });
        if env_cap_ns() != UNSET {
            return; // the environment fixes the cap; the rest assumes the default
        }
        spin.note(Duration::from_millis(100));
        assert_eq!(spin.budget_ns(), 0, "after a long wait the next one sleeps at once");
        let mut short = 0;
        while spin.budget_ns() == 0 {
            spin.note(Duration::from_micros(20));
            short += 1;
            assert!(short < 100);
        }
        assert!(short > 5, "one short wait does not undo a long one");
    }

    #[test]
    fn the_wake_rung_follows_long_regular_waits() {
        if env_cap_ns() != UNSET {
            return;
        }
        let spin = spin(false, UNSET);
        assert_eq!(spin.wake_rung(), None, "no history: a plain sleep");
        for _ in 0..64 {
            spin.note(Duration::from_millis(100));
        }
        let (sleep, window) = spin.wake_rung().expect("a long regular wait has a wake rung");
        let lead = LEAD_CAPS * DEFAULT_GPU_CAP_NS;
        assert!(sleep < 100_000_000 && sleep + lead >= 99_000_000, "sleeps until just before the end: {sleep}");
        assert_eq!(window, lead + DEFAULT_GPU_CAP_NS, "then spins at most the lead and one cap");
        assert_eq!(self::spin(true, UNSET).wake_rung(), None, "CPU adapters do not spin by default");
        assert_eq!(self::spin(false, 0).wake_rung(), None, "a cap of 0 turns it off");
    }

    #[test]
    fn caps_and_the_cpu_default() {
        if env_cap_ns() != UNSET {
            return;
        }
        assert_eq!(spin(true, UNSET).budget_ns(), 0, "CPU adapters do not spin by default");
        assert_eq!(spin(true, 20_000).budget_ns(), 20_000, "the instance's setting applies");
        assert_eq!(spin(false, 0).budget_ns(), 0, "0 turns it off");
        assert_eq!(spin(false, u64::MAX - 1).cap_ns(), MAX_CAP_NS);
    }

    #[test]
    fn spin_ends_when_done_or_at_the_budget() {
        let mut n = 0;
        assert!(Spin::spin(1_000_000_000, || {
            n += 1;
            n == 3
        }));
        let start = Instant::now();
        assert!(!Spin::spin(200_000, || false));
        assert!(start.elapsed() >= Duration::from_micros(200));
        assert!(!Spin::spin(0, || true), "a zero budget does not even look");
    }
}
