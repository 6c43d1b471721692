//! What the engine needs from a device's backend: its fence, read and slept
//! on without any wgpu-core lock held. This is the one interface between the
//! engine and a wgpu-hal backend; everything else the engine does (the
//! progress thread, spinning, kicking) is the same on every backend.
//!
//! - Vulkan with timeline semaphores ([`RawFence`]): the fast path. The
//!   fence is wgpu-hal's timeline semaphore, read with
//!   `vkGetSemaphoreCounterValue` and slept on with `vkWaitSemaphores`;
//!   WaitAny's direct sleeps (`objects/device/direct_wait.rs`) and
//!   `wgpuDevicePoll` use the same semaphore.
//! - Every other backend ([`HalFence`]): wgpu-hal's own `get_fence_value`
//!   and `wait` on the device fence, which sleep in the OS (DX12: an event
//!   the fence sets; Metal: a condition variable the command buffers'
//!   completion handlers signal). WaitAny on such a device sleeps on the
//!   registry's condition variable while the progress thread waits here.
//! - GL ([`super::gl_fence::GlFence`]): EGL fence syncs the library inserts
//!   behind the submitted work and sleeps on with no context current,
//!   because wgpu-hal's own GL wait holds the device's context lock.
//! - No fence at all (a Vulkan driver without timeline semaphores): the
//!   progress thread polls every `WAIT_SLICE` while work is pending.

use std::ops::Deref;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use ash::vk;
use wgpu_core::global::Global;
use wgpu_core::id::DeviceId;

/// A device fence the progress thread can read and sleep on.
pub(crate) trait DeviceFence: Send + Sync {
    /// The newest value the GPU has signalled (every submission up to it
    /// is done). An error once the fence cannot be read (the library is
    /// detached at exit, or the device is lost).
    fn value(&self) -> Result<u64, String>;
    /// Sleeps until the fence reaches `target` or `timeout_ns` passes;
    /// `false` when the wait itself failed (the caller then sleeps a slice
    /// and polls).
    fn wait_ns(&self, target: u64, timeout_ns: u64) -> bool;
}

/// How many recent submissions [`Submissions::begun`] remembers.
const RECENT: usize = 8;

/// The submission indices a device handed to wgpu-core: the newest, for a
/// fence that covers submissions itself ([`super::gl_fence::GlFence`]), and
/// when each recent one was made, from which the wait ladder's early wake
/// predicts a job's end (`spin.rs`).
///
/// The indices have gaps: wgpu-core takes an index for every call that may
/// flush its pending writes (`wgpuQueueOnSubmittedWorkDone`, a buffer's
/// map) and submits nothing when there are none, so the fence then moves
/// from one submission straight to the next noted one.
#[derive(Default)]
pub(crate) struct Submissions {
    newest: AtomicU64,
    /// Threads in [`Submissions::wait_beyond`]: a submit notifies only then.
    sleepers: AtomicUsize,
    lock: Mutex<()>,
    cond: Condvar,
    /// The next slot of `recent` to fill (modulo [`RECENT`]).
    cursor: AtomicUsize,
    /// The recent submissions: an index and its time, in nanoseconds since
    /// [`epoch`] (the index is stored last, and read again after the time,
    /// so a reader never pairs an index with another's time).
    recent: [(AtomicU64, AtomicU64); RECENT],
}

/// The instant submission times count from.
fn epoch() -> Instant {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// Where a wait that saw the fence at some value counts from
/// ([`Submissions::begun`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Begun {
    /// When the first submission beyond that value was made, or the wait's
    /// start where it is not a recent submission.
    pub(crate) at: Instant,
    /// Whether `at` is a submission's time.
    pub(crate) submitted: bool,
    /// How many recent submissions were not done yet (at most [`RECENT`]).
    pub(crate) behind: u64,
}

impl Submissions {
    /// Where a wait that saw the fence at `seen` counts from: the time of
    /// the first submission noted beyond `seen` (the one whose end the wait
    /// sees first) where it is a recent one, else now.
    pub(crate) fn begun(&self, seen: u64) -> Begun {
        let mut first: Option<(u64, u64)> = None;
        let mut behind = 0;
        for slot in &self.recent {
            let Some((index, ns)) = Self::read(slot) else { continue };
            if index > seen {
                behind += 1;
                if first.is_none_or(|(i, _)| index < i) {
                    first = Some((index, ns));
                }
            }
        }
        match first {
            Some((_, ns)) => Begun { at: epoch() + Duration::from_nanos(ns), submitted: true, behind },
            None => Begun { at: Instant::now(), submitted: false, behind },
        }
    }

    /// A slot's index and time, if it holds a consistent pair.
    fn read((idx, time): &(AtomicU64, AtomicU64)) -> Option<(u64, u64)> {
        let index = idx.load(Ordering::Acquire);
        if index == 0 {
            return None;
        }
        let ns = time.load(Ordering::Acquire);
        (idx.load(Ordering::Acquire) == index).then_some((index, ns))
    }

    /// A submission with `index` was made.
    pub(crate) fn note(&self, index: u64) {
        let slot = self.cursor.fetch_add(1, Ordering::AcqRel) % RECENT;
        let (idx, time) = &self.recent[slot];
        idx.store(0, Ordering::Release);
        let ns = super::spin::elapsed_ns(epoch());
        time.store(ns, Ordering::Release);
        idx.store(index, Ordering::Release);
        self.newest.fetch_max(index, Ordering::AcqRel);
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            let _guard = self.lock.lock();
            self.cond.notify_all();
        }
    }

    /// wgpu-core says the newest submission is `index` (0: none): noted
    /// as made now when it is beyond every noted one, a submission wgpu-core
    /// made itself (a flush of its pending writes).
    pub(crate) fn note_flush(&self, index: u64) {
        if index > self.newest() {
            self.note(index);
        }
    }

    /// The newest index noted.
    pub(crate) fn newest(&self) -> u64 {
        self.newest.load(Ordering::Acquire)
    }

    /// Sleeps until an index above `index` is noted (`true`) or `deadline`
    /// passes (`false`).
    #[allow(dead_code)] // Used where the GL backend is built.
    pub(crate) fn wait_beyond(&self, index: u64, deadline: Instant) -> bool {
        let mut guard = self.lock.lock();
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        let mut beyond = self.newest() > index;
        while !beyond {
            if self.cond.wait_until(&mut guard, deadline).timed_out() {
                beyond = self.newest() > index;
                break;
            }
            beyond = self.newest() > index;
        }
        self.sleepers.fetch_sub(1, Ordering::SeqCst);
        beyond
    }
}

/// The fence of `device_id` on whichever backend it is, or `None` when the
/// backend has none the engine can sleep on. `submissions` are the device's
/// (a GL fence covers them itself).
pub(crate) fn for_device(
    global: &Global,
    device_id: DeviceId,
    #[allow(unused_variables)] submissions: &Arc<Submissions>,
) -> Option<Box<dyn DeviceFence>> {
    if let Some(raw) = RawFence::new(global, device_id) {
        return Some(Box::new(raw));
    }
    #[cfg(all(unix, not(target_vendor = "apple")))]
    if let Some(fence) = super::gl_fence::GlFence::new(global, device_id, submissions.clone()) {
        return Some(Box::new(fence));
    }
    #[cfg(windows)]
    if let Some(fence) = HalFence::<wgpu_hal::api::Dx12>::new(global, device_id) {
        return Some(Box::new(fence));
    }
    #[cfg(target_vendor = "apple")]
    if let Some(fence) = HalFence::<wgpu_hal::api::Metal>::new(global, device_id) {
        return Some(Box::new(fence));
    }
    None
}

/// wgpu-hal's Vulkan device fence, as a raw timeline semaphore.
pub(crate) struct RawFence {
    device: ash::Device,
    fence: vk::Semaphore,
}

impl RawFence {
    /// The device's fence, when it is a timeline semaphore on Vulkan 1.2.
    pub(crate) fn new(global: &Global, device_id: DeviceId) -> Option<RawFence> {
        // SAFETY: we do not destroy the raw device or fence; they live until
        // the wgpu-core device is dropped, which happens only after every
        // user of this fence is done (`Progress::stop`, the device's drop).
        let hal_device = unsafe { global.device_as_hal::<wgpu_hal::api::Vulkan>(device_id) }?;
        // SAFETY: as above.
        let hal_fence = unsafe { global.device_fence_as_hal::<wgpu_hal::api::Vulkan>(device_id) }?;
        let fence = match &*hal_fence {
            wgpu_hal::vulkan::Fence::TimelineSemaphore(sem) => *sem,
            wgpu_hal::vulkan::Fence::FencePool(_) => return None,
        };
        let shared = hal_device.shared_instance();
        // SAFETY: a valid physical device of this instance.
        let props = unsafe { shared.raw_instance().get_physical_device_properties(hal_device.raw_physical_device()) };
        if shared.instance_api_version() < vk::API_VERSION_1_2 || props.api_version < vk::API_VERSION_1_2 {
            return None;
        }
        Some(RawFence { device: hal_device.raw_device().clone(), fence })
    }

    /// The raw device.
    pub(crate) fn device(&self) -> &ash::Device {
        &self.device
    }

    /// The fence semaphore.
    pub(crate) fn fence(&self) -> vk::Semaphore {
        self.fence
    }

    /// Sleeps until the fence reaches `target`, `other` (a timeline
    /// semaphore of this device and a value) reaches its value, or
    /// `timeout_ns` passes (`Err(TIMEOUT)`).
    pub(crate) fn wait_with(
        &self,
        target: u64,
        other: Option<(vk::Semaphore, u64)>,
        timeout_ns: u64,
    ) -> Result<(), vk::Result> {
        let (semaphores, values) = match other {
            Some((sem, value)) => ([self.fence, sem], [target, value]),
            None => ([self.fence, vk::Semaphore::null()], [target, 0]),
        };
        let n = if other.is_some() { 2 } else { 1 };
        let info = vk::SemaphoreWaitInfo::default().semaphores(&semaphores[..n]).values(&values[..n]);
        let info = if other.is_some() { info.flags(vk::SemaphoreWaitFlags::ANY) } else { info };
        // SAFETY: the fence and `other` are live timeline semaphores of
        // this device (the caller's, for `other`).
        unsafe { self.device.wait_semaphores(&info, timeout_ns) }
    }

    /// The fence's value now (an error once the library is detached from
    /// the driver at exit).
    pub(crate) fn value(&self) -> Result<u64, vk::Result> {
        if crate::ffi::exit::detached() {
            return Err(vk::Result::ERROR_DEVICE_LOST);
        }
        // SAFETY: the fence is a live timeline semaphore of this device.
        unsafe { self.device.get_semaphore_counter_value(self.fence) }
    }
}

impl DeviceFence for RawFence {
    fn value(&self) -> Result<u64, String> {
        RawFence::value(self).map_err(|e| e.to_string())
    }

    fn wait_ns(&self, target: u64, timeout_ns: u64) -> bool {
        match self.wait_with(target, None, timeout_ns) {
            Ok(()) | Err(vk::Result::TIMEOUT) => true,
            Err(err) => {
                log::warn!(target: "wgpu_shim", "vkWaitSemaphores failed ({err}); polling instead");
                false
            }
        }
    }
}

/// A wgpu-hal device and its fence, kept alive by wgpu-core's guards (each
/// holds the wgpu-core device): the fence of a backend without a raw fast
/// path. Whoever owns it must drop it before the device's ids go
/// (`Progress` keeps it on its thread only).
pub(crate) struct HalFence<A: wgpu_hal::Api> {
    device: Box<dyn Deref<Target = A::Device> + Send + Sync>,
    fence: Box<dyn Deref<Target = A::Fence> + Send + Sync>,
}

impl<A: wgpu_hal::Api> HalFence<A> {
    /// The fence of `device_id`, when the device is one of backend `A`.
    #[allow(dead_code)] // Built on every target; used where `A`'s backend is.
    pub(crate) fn new(global: &Global, device_id: DeviceId) -> Option<HalFence<A>> {
        // SAFETY: neither the device nor the fence is destroyed through
        // these; the guards keep the wgpu-core device alive while held.
        let device = unsafe { global.device_as_hal::<A>(device_id) }?;
        // SAFETY: as above.
        let fence = unsafe { global.device_fence_as_hal::<A>(device_id) }?;
        Some(HalFence { device: Box::new(device), fence: Box::new(fence) })
    }
}

impl<A: wgpu_hal::Api> DeviceFence for HalFence<A> {
    fn value(&self) -> Result<u64, String> {
        if crate::ffi::exit::detached() {
            return Err("the library is detached from the driver".into());
        }
        use wgpu_hal::Device as _;
        // SAFETY: the fence belongs to this device; both are alive (guards).
        unsafe { self.device.get_fence_value(&self.fence) }.map_err(|e| e.to_string())
    }

    fn wait_ns(&self, target: u64, timeout_ns: u64) -> bool {
        use wgpu_hal::Device as _;
        // SAFETY: the fence belongs to this device; both are alive (guards).
        match unsafe { self.device.wait(&self.fence, target, Some(Duration::from_nanos(timeout_ns))) } {
            Ok(_) => true,
            Err(err) => {
                log::debug!(target: "wgpu_shim", "the backend's fence wait failed ({err}); polling instead");
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_counts_from_the_first_recent_submission_beyond_what_it_saw() {
        let subs = Submissions::default();
        let before = Instant::now();
        let none = subs.begun(0);
        assert!(!none.submitted && none.behind == 0 && none.at >= before, "nothing submitted: from now");
        // wgpu-core leaves gaps (indices taken for flushes that submitted
        // nothing): the fence moves from 1 straight to 4.
        subs.note(1);
        std::thread::sleep(Duration::from_millis(2));
        subs.note(4);
        let first = subs.begun(0);
        assert!(first.submitted && first.behind == 2 && first.at >= before);
        let second = subs.begun(1);
        assert!(second.submitted && second.behind == 1);
        assert!(second.at >= first.at + Duration::from_millis(2), "submission 4's time, not 1's");
        assert_eq!(subs.begun(3).at, second.at, "2 and 3 were never submitted");
        let done = subs.begun(4);
        assert!(!done.submitted && done.behind == 0 && done.at > second.at, "nothing beyond 4: from now");
        // Only the RECENT newest are remembered, whatever their indices.
        for i in 0..RECENT as u64 {
            subs.note(100 + 8 * i);
        }
        let late = subs.begun(4);
        assert!(late.submitted && late.behind == RECENT as u64 && late.at >= done.at, "1 and 4 are forgotten");
        assert_eq!(subs.newest(), 100 + 8 * (RECENT as u64 - 1));
        // A flush wgpu-core made itself is noted once, and only beyond.
        subs.note_flush(0);
        subs.note_flush(104);
        assert_eq!(subs.begun(156).behind, 0, "nothing beyond the newest");
        subs.note_flush(157);
        assert!(subs.begun(156).submitted && subs.newest() == 157);
    }
}
