//! Fault injection below the API, for tests only (cargo feature
//! `fault-injection`; without it [`hit`] is a constant `false` and every
//! hook compiles away).
//!
//! `WGPU_SHIM_FAULT` (read once, at the first hook reached) lists the faults
//! to inject, comma-separated, each `NAME` or `NAME@N` (inject at the N-th
//! time the hook is reached, default the first; each fires once):
//!
//! - `map-fail`: the backend fails a buffer map (the map is not handed to
//!   wgpu-core; it completes with wgpu-core's `Failed` error).
//! - `create-oom`: the backend cannot allocate a buffer at creation (an
//!   out-of-memory error and an invalid buffer).
//! - `lose-mid-map`: the device is lost right after a map was started.
//! - `lose-mid-waitany`: the devices of the instance are lost 100 ms into a
//!   `wgpuInstanceWaitAny` (from another thread, while it sleeps).
//! - `lose-in-callback`: the device is lost while a map's callback is being
//!   delivered, before the buffer becomes Mapped.
//!
//! A loss (`Device::lose_as_driver_would`) is what a driver's loss gives: the device is marked lost with
//! reason Unknown (its lost callback), wgpu-core's device is destroyed, and
//! every buffer is destroyed (pending maps abort).

use std::time::Duration;

/// The points where a fault can be injected.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Fault {
    MapFail,
    CreateOom,
    LoseMidMap,
    LoseMidWaitAny,
    LoseInCallback,
}

#[cfg(feature = "fault-injection")]
mod active {
    use super::Fault;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::OnceLock;

    const NAMES: [(&str, Fault); 5] = [
        ("map-fail", Fault::MapFail),
        ("create-oom", Fault::CreateOom),
        ("lose-mid-map", Fault::LoseMidMap),
        ("lose-mid-waitany", Fault::LoseMidWaitAny),
        ("lose-in-callback", Fault::LoseInCallback),
    ];

    static REACHED: [AtomicU64; 5] = [const { AtomicU64::new(0) }; 5];

    fn plan() -> &'static [(Fault, u64)] {
        static PLAN: OnceLock<Vec<(Fault, u64)>> = OnceLock::new();
        PLAN.get_or_init(|| {
            let spec = std::env::var("WGPU_SHIM_FAULT").unwrap_or_default();
            let mut plan = Vec::new();
            for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let (name, at) = item.split_once('@').unwrap_or((item, "1"));
                match (NAMES.iter().find(|(n, _)| *n == name), at.parse::<u64>()) {
                    (Some(&(_, fault)), Ok(at)) if at > 0 => plan.push((fault, at)),
                    _ => log::error!(target: "wgpu_shim", "WGPU_SHIM_FAULT: {item:?} is not NAME or NAME@N (ignored)"),
                }
            }
            plan
        })
    }

    /// Whether `fault` is to be injected now (counts the hook's visits).
    pub(crate) fn hit(fault: Fault) -> bool {
        let plan = plan();
        if plan.is_empty() {
            return false;
        }
        let n = REACHED[fault as usize].fetch_add(1, Ordering::Relaxed) + 1;
        let fire = plan.iter().any(|&(f, at)| f == fault && at == n);
        if fire {
            log::warn!(target: "wgpu_shim", "injecting fault {fault:?} (visit {n})");
        }
        fire
    }
}

#[cfg(feature = "fault-injection")]
pub(crate) use active::hit;

/// Whether `fault` is to be injected now: never, without the feature.
#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub(crate) fn hit(_fault: Fault) -> bool {
    false
}

/// Runs `strike` on a thread of its own after `delay`: a fault that comes
/// while the call that reached the hook is asleep (`lose-mid-waitany`).
pub(crate) fn strike_later(delay: Duration, strike: impl FnOnce() + Send + 'static) {
    std::thread::spawn(move || {
        std::thread::sleep(delay);
        strike();
    });
}
