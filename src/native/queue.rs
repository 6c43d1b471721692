//! Queue extensions: `wgpuQueueSubmitForIndex`,
//! `wgpuQueueGetTimestampPeriod`, `wgpuQueueGetNativeMetalCommandQueue`.

use std::ffi::c_void;

use super::call;
use crate::abi::native::WGPUSubmissionIndex;
use crate::abi::{WGPUCommandBuffer, WGPUQueue};
use crate::ffi::boundary::{self, reject};
use crate::objects::queue::Queue;

/// `wgpuQueueSubmit` that returns the submission's index, for
/// `wgpuDevicePoll`. Returns 0 when nothing was submitted (a command buffer
/// was invalid or already submitted: a validation error on the device).
///
/// # Safety
/// `queue` is a live queue; `commands` points at `command_count` live
/// command buffers (NULL when the count is 0).
#[no_mangle]
pub unsafe extern "C" fn wgpuQueueSubmitForIndex(
    queue: WGPUQueue,
    command_count: usize,
    commands: *const WGPUCommandBuffer,
) -> WGPUSubmissionIndex {
    call("wgpuQueueSubmitForIndex", 0, || {
        // SAFETY: the C caller passes a live handle and a valid array.
        let (queue, list) = unsafe {
            (boundary::arg::<Queue>(queue, "queue")?, boundary::slice_arg(commands, command_count, "commands")?)
        };
        // SAFETY: each element is a live command buffer (caller).
        Ok(unsafe { crate::objects::queue::submit(queue, list) }?.unwrap_or(0))
    })
}

/// Nanoseconds per tick of the timestamps the queue writes (1.0 when the
/// instance normalizes timestamps).
///
/// # Safety
/// `queue` is a live queue.
#[no_mangle]
pub unsafe extern "C" fn wgpuQueueGetTimestampPeriod(queue: WGPUQueue) -> f32 {
    call("wgpuQueueGetTimestampPeriod", 0.0, || {
        // SAFETY: the C caller passes a live handle.
        let queue = unsafe { boundary::arg::<Queue>(queue, "queue") }?;
        let device = &queue.device;
        Ok(device.global().queue_get_timestamp_period(device.queue_id))
    })
}

/// The queue's `MTLCommandQueue`: NULL, logged (no Metal backend here).
///
/// # Safety
/// `queue` is a live queue.
#[no_mangle]
pub unsafe extern "C" fn wgpuQueueGetNativeMetalCommandQueue(queue: WGPUQueue) -> *mut c_void {
    call("wgpuQueueGetNativeMetalCommandQueue", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle.
        unsafe { boundary::arg::<Queue>(queue, "queue") }?;
        Err(reject!("this build has no Metal backend (its devices are Vulkan devices)"))
    })
}
