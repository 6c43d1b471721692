//! `wgpuDevicePoll`: moves a device forward and, when asked, waits for its
//! queue work first.
//!
//! The wait never uses wgpu-core's blocking `device_poll(Wait)`, which holds
//! the device's snatch lock while it waits and so stalls every other
//! thread's submit, unmap and destroy. Instead:
//!
//! - for a given submission index, on a device where WaitAny sleeps on the
//!   fence too (a timeline semaphore, not a CPU adapter: see
//!   `direct_wait.rs`), the thread sleeps in `vkWaitSemaphores` on that
//!   fence alone (wgpu-hal signals it with each submission's index), holding
//!   nothing;
//! - otherwise (no index: all queue work so far; or no direct fence waits) it
//!   registers an internal work-done future (`work_done.rs`) and sleeps in
//!   the registry's `wait_any` until the progress thread completes it.
//!
//! Then it runs one non-blocking poll under the device's maintenance locks
//! (`progress.rs`), so the completions of the awaited work are made ready,
//! and delivers callbacks as `wgpuInstanceProcessEvents` does: every ready
//! `AllowProcessEvents` callback of the device's instance, on the calling
//! thread (wgpu-native runs callbacks inside its poll, and bindings written
//! for it, wgpu-py first, wait for them there). `AllowSpontaneous` ones run
//! when the call returns, as for every function; `WaitAnyOnly` ones are left
//! to `wgpuInstanceWaitAny` (docs/DECISIONS.md).

use std::sync::Arc;

use ash::vk;

use super::call;
use crate::abi::native::WGPUSubmissionIndex;
use crate::abi::{WGPUBool, WGPUDevice, WGPUFutureWaitInfo};
use crate::engine::fence::RawFence;
use crate::ffi::boundary::{self, reject, ApiResult};
use crate::futures::{DirectSleep, Mode, WaitRules};
use crate::objects::device::Device;

/// How long one fence sleep lasts before the thread checks whether the
/// device was lost meanwhile (it wakes as soon as the fence arrives).
const FENCE_SLICE_NS: u64 = 1_000_000_000;

/// Polls the device; with `wait`, first sleeps until the submission
/// `*submission_index` (a value `wgpuQueueSubmitForIndex` returned; NULL:
/// all queue work issued so far, writes included) has finished on the GPU.
/// Then runs the instance's ready `AllowProcessEvents` callbacks, as
/// `wgpuInstanceProcessEvents` does. Returns whether no submission is in
/// flight any more. An index that was never returned is logged and the call
/// returns false without waiting.
///
/// # Safety
/// `device` is a live device; `submission_index` is NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn wgpuDevicePoll(
    device: WGPUDevice,
    wait: WGPUBool,
    submission_index: *const WGPUSubmissionIndex,
) -> WGPUBool {
    call("wgpuDevicePoll", 0, || {
        // SAFETY: the C caller passes a live handle and NULL or a readable
        // index.
        // The device (and through it the instance) is held by an `Arc`: a
        // callback run below may release the application's last reference.
        let (device, index) =
            unsafe { (boundary::arg::<Device>(device, "device")?.arc(), submission_index.as_ref().copied()) };
        if wait != 0 && !device.is_lost() {
            match index {
                Some(index) => wait_for_index(&device, index)?,
                None => wait_for_all(&device),
            }
        }
        device.progress.take_unpolled();
        let polled = device.locks.poll(device.global(), device.id);
        let empty = match polled {
            Ok(status) => status.is_queue_empty() as WGPUBool,
            Err(err) => {
                log::debug!(target: "wgpu_shim", "wgpuDevicePoll: {err}");
                0
            }
        };
        device.instance.registry.process_events();
        Ok(empty)
    })
}

/// Sleeps until submission `index` finished.
fn wait_for_index(device: &Arc<Device>, index: u64) -> ApiResult<()> {
    let last = device.work_done.last_submission();
    if index > last {
        return Err(reject!("submission index {index} was not returned by a submit (the newest is {last})"));
    }
    // The fence only where WaitAny sleeps on it too (`direct_wait.rs`): a CPU
    // adapter's driver (lavapipe) spins inside `vkWaitSemaphores`.
    let fence = if device.fence_wake.is_some() { RawFence::new(device.global(), device.id) } else { None };
    match fence {
        Some(fence) => {
            sleep_on_fence(device, &fence, index);
            Ok(())
        }
        // No direct fence waits: wait for everything, which includes `index`.
        None => {
            wait_for_all(device);
            Ok(())
        }
    }
}

/// Sleeps in the driver until the device fence reaches `target` (or the
/// device is lost). No lock is held: the fence is a raw semaphore that
/// lives as long as the wgpu-core device, which `device` keeps.
fn sleep_on_fence(device: &Arc<Device>, fence: &RawFence, target: u64) {
    let semaphores = [fence.fence()];
    let values = [target];
    // Nap and spin, then sleep (`engine/spin.rs`), as WaitAny's fence waits do.
    let spin = &device.progress.spin;
    let start = std::time::Instant::now();
    if spin.short(|| fence.value().map_or(true, |v| v >= target)) {
        spin.note(start.elapsed());
        return;
    }
    loop {
        match fence.value() {
            Ok(v) if v >= target => {
                spin.note(start.elapsed());
                return;
            }
            Ok(_) => {}
            Err(err) => {
                log::warn!(target: "wgpu_shim", "wgpuDevicePoll: reading the device fence failed ({err}); waiting for all work instead");
                return wait_for_all(device);
            }
        }
        if device.is_lost() {
            return;
        }
        let info = vk::SemaphoreWaitInfo::default().semaphores(&semaphores).values(&values);
        // SAFETY: the semaphore is the live device fence of `fence.device()`.
        match unsafe { fence.device().wait_semaphores(&info, FENCE_SLICE_NS) } {
            Ok(()) | Err(vk::Result::TIMEOUT) => {}
            Err(err) => {
                log::warn!(target: "wgpu_shim", "wgpuDevicePoll: vkWaitSemaphores failed ({err}); waiting for all work instead");
                return wait_for_all(device);
            }
        }
    }
}

/// Sleeps until all queue work issued so far is done, through an internal
/// work-done future (no callback), as `wgpuInstanceWaitAny` would: on the
/// device fence where direct waits are on, else until the progress thread
/// completes it.
fn wait_for_all(device: &Arc<Device>) {
    if device.work_done.is_idle() {
        return;
    }
    let registry = &device.instance.registry;
    let future = device.work_done.register_future(device, Mode::WaitAnyOnly, |_| {});
    if future.id == 0 {
        // The instance is closing: there is nothing left to wait for.
        return;
    }
    let mut list = [WGPUFutureWaitInfo { future, completed: 0 }];
    let rules = WaitRules { timed: true, max_count: 1, mixed_sources: false };
    let find_sleeper =
        |_serial: u64| -> Option<Arc<dyn DirectSleep>> { crate::objects::device::direct_wait::sleeper(device.clone()) };
    let kick = |_serial: u64| device.kick_or_poll();
    if let Err(why) = registry.wait_any(&mut list, u64::MAX, &rules, &find_sleeper, &kick) {
        log::warn!(target: "wgpu_shim", "wgpuDevicePoll: the wait failed: {why}");
    }
}
