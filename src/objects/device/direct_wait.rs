//! `wgpuInstanceWaitAny` sleeping on the GPU's own signal.
//!
//! A thread waiting in WaitAny normally sleeps on the registry's condition
//! variable and is woken by the device's progress thread, which itself
//! sleeps in the driver until the GPU signals progress: two thread wake-ups
//! between the GPU finishing and the callback. When the futures a WaitAny
//! still waits for are queue futures of one device (plus, possibly, CPU
//! ones), the waiting thread instead sleeps in `vkWaitSemaphores` itself,
//! on two timeline semaphores at once (`VK_SEMAPHORE_WAIT_ANY_BIT`):
//!
//! - wgpu-hal's device fence, for a value above the one it last saw: when
//!   the GPU progresses, the waiting thread wakes and polls the device
//!   itself (non-blocking), completing its futures without a hand-off;
//! - a *wake semaphore* of our own, signalled from the host by whoever makes
//!   an event ready while a direct waiter is registered with the registry
//!   (the progress thread, another API call, the instance's release). The
//!   waiter reads the wake count under the registry lock after finding its
//!   futures pending, so no completion can slip between its scan and its
//!   sleep.
//!
//! The wait ladder's early wake (`engine/spin.rs`) does not sleep in the
//! driver: the waiter naps on the wake signal's condition variable with
//! the OS's precise timer (`HostSignal::nap_until`) until shortly before
//! its job's predicted end, while the device's progress thread sleeps on
//! the fence for it (`Progress::watch`) and nudges the nap if the job ends
//! sooner. A job that ends on time is then seen by the waiter's spin after
//! a timer wake-up, with no driver wake-up at all; only a job that ends
//! early pays the driver's wake-up (and a nudge).
//!
//! Drivers that emulate timeline semaphores (Mesa's lavapipe, a CPU adapter)
//! busy-wait on a wait for any of several, so on CPU adapters there is no
//! wake semaphore: the waiter sleeps on the fence alone, in slices of
//! [`FENCE_ONLY_SLICE_NS`], and still polls on its own thread. An event made
//! ready without GPU progress is seen at the end of the slice.
//! `WGPU_SHIM_FENCE_WAIT=1` adds the wake semaphore on CPU adapters too, `=0`
//! turns direct waits off (tests).
//!
//! The sleeper a WaitAny registers is its device itself (`Arc<Device>` as a
//! [`DirectSleep`]): holding it keeps the fence and the wake semaphore alive,
//! which the device owns alone and destroys, the semaphore first, in its
//! drop. (A sleeper that held the semaphore itself could outlive the Vulkan
//! device.) Looking one up allocates nothing.

use std::sync::Arc;
use std::time::Instant;

use ash::vk;
use wgpu_core::global::Global;
use wgpu_core::id::DeviceId;

use crate::engine::fence::RawFence;
use crate::engine::progress::Progress;
use crate::engine::signal::{HostSignal, Nap};
use crate::engine::spin::{elapsed_ns, ns_until, with_fine_timer, EarlyEnd, Spin};
use crate::futures::DirectSleep;
use crate::objects::device::Device;

/// The longest one sleep lasts before the waiter rescans (it is woken much
/// earlier by any progress).
const SLICE_NS: u64 = 1_000_000_000;

/// How long one fence-only sleep lasts (CPU adapters, no wake semaphore):
/// an event made ready without GPU progress (by another thread, a
/// cancellation) is seen within this.
const FENCE_ONLY_SLICE_NS: u64 = 10_000_000;

/// A device's fence and wake signal.
pub(crate) struct FenceWake {
    raw: RawFence,
    /// The wake count, with its semaphore on GPUs. A count alone on CPU
    /// adapters: their drivers emulate timeline semaphores and busy-wait on
    /// a wait for any of several, so the waiter sleeps on the fence alone,
    /// in [`FENCE_ONLY_SLICE_NS`] slices, and checks the count between
    /// them. Waiters take their token from the count (a spinning or
    /// slice-sleeping waiter checks it); the early wake naps on it
    /// (`engine/signal.rs`).
    wake: Arc<HostSignal>,
}

impl FenceWake {
    /// The fence waiter of a device, when its driver has native timeline
    /// semaphores (see the module documentation).
    pub(crate) fn new(global: &Global, device_id: DeviceId, cpu_adapter: bool) -> Option<FenceWake> {
        // `1`: the fence and the wake semaphore everywhere; `0`: no direct
        // waits; unset: both on GPUs, the fence alone on CPU adapters.
        let with_wake = match std::env::var("WGPU_SHIM_FENCE_WAIT").as_deref() {
            Ok("1") | Ok("on") => true,
            Ok("0") | Ok("off") => return None,
            _ => !cpu_adapter,
        };
        let raw = RawFence::new(global, device_id)?;
        if !with_wake {
            return Some(FenceWake { raw, wake: HostSignal::count_only() });
        }
        // Destroyed in `Drop`, before the device (see `Device::drop`).
        match HostSignal::with_semaphore(raw.device()) {
            Ok(wake) => Some(FenceWake { raw, wake }),
            Err(err) => {
                log::info!(target: "wgpu_shim", "cannot create a wake semaphore ({err}); WaitAny waits on a condition variable");
                None
            }
        }
    }

    /// The wake count now; a sleep started with it ends at the next signal.
    fn token(&self) -> u64 {
        // The count's hint: it is stored under the signal's lock with every
        // count, and the caller holds the registry lock, which a completion
        // takes before it signals.
        self.wake.count()
    }

    /// Wakes every thread sleeping with an older token.
    fn signal(&self) {
        if crate::ffi::exit::detached() {
            // No sleeper is left: a detached library makes no sleeps.
            return;
        }
        // Without a semaphore, a spinning waiter sees the count and a
        // sleeping one rescans at the end of its slice.
        self.wake.signal();
    }

    /// Sleeps until the fence passes `seen`, a signal after `token`, or
    /// `timeout_ns`. `false` when the driver reported an error.
    fn sleep(&self, seen: u64, token: u64, timeout_ns: u64) -> bool {
        let waited = match self.wake.semaphore() {
            Some(wake) => self.raw.wait_with(seen + 1, Some((wake, token + 1)), timeout_ns),
            None if self.wake.count() > token => return true,
            None => self.raw.wait_with(seen + 1, None, timeout_ns.min(FENCE_ONLY_SLICE_NS)),
        };
        match waited {
            Ok(()) | Err(vk::Result::TIMEOUT) => true,
            Err(err) => {
                log::warn!(target: "wgpu_shim", "vkWaitSemaphores failed ({err}); WaitAny waits on a condition variable");
                false
            }
        }
    }

    /// Whether the fence passed `seen` (or cannot be read: the caller then
    /// stops waiting).
    fn moved(&self, seen: u64) -> bool {
        self.raw.value().map_or(true, |v| v > seen)
    }

    /// The wake rung (`spin.rs`): sleeps until `at`, then spins until
    /// `until` and sleeps for the rest of `timeout_ns` (from the call),
    /// unless the fence passes `seen` or a signal after `token` comes first;
    /// between the sleep and the spin it polls once (`warm`: see
    /// [`Spin::wake_rung`]).
    ///
    /// Where the device's fence watcher can watch for it (`watch.rs`), the
    /// sleep is a nap on the wake signal with the OS's precise timer, which
    /// the watcher nudges if the job ends early: the driver's wake-up, slow
    /// on some machines, is then paid only by a job that ends before its
    /// prediction. Elsewhere it is a timed driver wait. How the sleep
    /// ended.
    fn sleep_early(
        &self,
        progress: &Progress,
        spin: &Spin,
        (seen, token): (u64, u64),
        (at, until): (Instant, Instant),
        timeout_ns: u64,
        warm: impl FnOnce(),
    ) -> EarlyEnd {
        let start = Instant::now();
        if at > start {
            match progress.watched_nap(&self.wake, (token, seen + 1), (at, until), || self.moved(seen)) {
                Some(Nap::TimedOut { late }) => {
                    log::trace!(target: "wgpu_shim", "early wake: the nap ended {late:?} after its time");
                    spin.note_nap(late);
                }
                Some(Nap::Woken) => {
                    log::trace!(target: "wgpu_shim", "early wake: woken during the nap");
                    return EarlyEnd::Nudged;
                }
                None if !with_fine_timer(|| self.sleep(seen, token, ns_until(at))) => return EarlyEnd::Failed,
                None => {}
            }
        }
        let mut done = || self.moved(seen) || self.wake.count() > token;
        if done() {
            return EarlyEnd::Seen;
        }
        warm();
        if done() || Spin::spin(ns_until(until), &mut done) {
            return EarlyEnd::Seen;
        }
        match self.sleep(seen, token, timeout_ns.saturating_sub(elapsed_ns(start))) {
            true => EarlyEnd::Slept,
            false => EarlyEnd::Failed,
        }
    }
}

impl Drop for FenceWake {
    fn drop(&mut self) {
        // Nobody waits on or signals the semaphore any more: every sleeper
        // holds the device, which is being dropped. `destroy` does nothing
        // once the library is detached from the driver.
        self.wake.destroy();
    }
}

/// The direct sleeper of `device`, when its driver allows direct waits.
pub(crate) fn sleeper(device: Arc<Device>) -> Option<Arc<dyn DirectSleep>> {
    if crate::ffi::exit::detached() || device.fence_wake.is_none() {
        return None;
    }
    Some(device)
}

/// Polls `device` when its fence is at `value`, past what any finished
/// poll covered; returns whether it did. (Events that a poll made ready
/// after this waiter's scan woke it through the wake semaphore.)
fn poll_if_progressed(device: &Device, value: u64) -> bool {
    let progress = &device.progress;
    if value <= progress.polled() {
        return false;
    }
    device.poll_now();
    progress.note_polled(value);
    true
}

/// The device fence and wake semaphore are always there for a sleeper
/// ([`sleeper`] checks; the device gives them up only when dropped): where
/// they are not, the calls do nothing and `sleep` reports failure.
impl DirectSleep for Device {
    fn wake(&self) {
        if let Some(fw) = self.fence_wake.as_ref() {
            fw.signal();
        }
    }

    fn token(&self) -> u64 {
        self.fence_wake.as_ref().map_or(0, FenceWake::token)
    }

    fn sleep(&self, token: u64, deadline: Option<Instant>) -> bool {
        let Some(fw) = self.fence_wake.as_ref() else { return false };
        if self.progress.take_unpolled() {
            // Work that completes without GPU progress (an idle buffer's
            // map): poll for it, and let the caller rescan.
            self.poll_now_taken();
            crate::futures::flush_spontaneous();
            return true;
        }
        let spin = &self.progress.spin;
        // Read once: `wgpuShimInstanceSetSpinWait` may change it meanwhile.
        let cap_ns = spin.cap_ns();
        let seen = if fw.wake.semaphore().is_none() && cap_ns == 0 {
            // The fence alone, no spin (CPU adapters by default): the sleep
            // starts from the last polled value without reading the fence.
            // When the fence is past it, the driver's wait returns at once
            // and the poll after it is the one a first read would have led
            // to; and a read of an emulated timeline semaphore takes the
            // driver's lock, which its queue thread needs to signal.
            if crate::ffi::exit::detached() {
                return false;
            }
            self.progress.polled()
        } else {
            let Ok(seen) = fw.raw.value() else { return false };
            // Progress nobody has polled for yet: poll, and let the caller
            // rescan.
            if poll_if_progressed(self, seen) {
                // Spontaneous callbacks the poll made ready run now, not
                // when the WaitAny returns.
                crate::futures::flush_spontaneous();
                return true;
            }
            seen
        };
        let timeout = match deadline {
            None => SLICE_NS,
            Some(d) => ns_until(d).min(SLICE_NS),
        };
        // The progress thread stands by while this thread watches the fence.
        self.progress.enter_direct();
        // Nap and spin, then sleep (`spin.rs`): short GPU work ends inside
        // the spin and costs no driver wake-up.
        // How long the fence took feeds the spin budget and the wake rung,
        // which a cap of 0 (CPU adapters by default) turns off: no clock.
        // The wait counts from the job's submission where it is known.
        let begun = (cap_ns > 0).then(|| self.progress.submissions.begun(seen));
        let mut early = None;
        let slept = spin.short(|| fw.moved(seen) || fw.wake.count() > token)
            || match begun.and_then(|b| spin.wake_rung_from(self.progress.wake_end(), b.at)) {
                // Nap until just before the predicted end, spin it out, then
                // sleep for the rest if the GPU is not done yet.
                Some(rung) if ns_until(rung.0) < timeout => {
                    let warm = || {
                        self.poll_now();
                        crate::futures::flush_spontaneous();
                    };
                    let end = fw.sleep_early(&self.progress, spin, (seen, token), rung, timeout, warm);
                    early = Some((rung, end));
                    end != EarlyEnd::Failed
                }
                _ => fw.sleep(seen, token, timeout),
            };
        let now = fw.raw.value();
        if let Some(begun) = begun.filter(|_| now.is_ok_and(|v| v > seen)) {
            spin.note_wait(crate::engine::wait_trace::Waiter::Direct, begun, early);
        }
        let polled = slept && now.is_ok_and(|now| poll_if_progressed(self, now));
        self.progress.leave_direct();
        if polled {
            crate::futures::flush_spontaneous();
        }
        slept
    }
}
