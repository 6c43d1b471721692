//! `WGPUQueue`: submission, buffer and texture writes, work-done futures.

pub(crate) mod work_done;

use std::sync::Arc;

use parking_lot::Mutex;

use crate::abi::*;
use crate::ffi::boundary::{self, call, refcounted, set_label};
use crate::ffi::callback::{call_async, SendFn, UserData};
use crate::ffi::handle::Object;
use crate::futures::{Outcome, Source};
use crate::objects::buffer::Buffer;
use crate::objects::command_buffer::CommandBuffer;
use crate::objects::device::Device;

/// A `WGPUQueue`. The wgpu-core queue belongs to the device.
#[repr(C)]
pub(crate) struct Queue {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) device: Arc<Device>,
    pub(crate) label: Mutex<String>,
}

impl Queue {
    pub(crate) fn new(device: Arc<Device>) -> Queue {
        Queue { header: Default::default(), device, label: Mutex::new(String::new()) }
    }
}

impl Object for Queue {
    type Raw = WGPUQueueImpl;
    const NAME: &'static str = "WGPUQueue";
    const HEADER_OFFSET: usize = std::mem::offset_of!(Queue, header);
}

refcounted!(Queue, WGPUQueue, wgpuQueueAddRef, wgpuQueueRelease);
set_label!(Queue, WGPUQueue, wgpuQueueSetLabel);

/// Submits command buffers, in order. A command buffer can be submitted
/// once; a second submission is a validation error.
///
/// # Safety
/// `queue` is a live queue; `commands` points at `command_count` live
/// command buffers (NULL when the count is 0).
#[no_mangle]
pub unsafe extern "C" fn wgpuQueueSubmit(queue: WGPUQueue, command_count: usize, commands: *const WGPUCommandBuffer) {
    call("wgpuQueueSubmit", (), || {
        // SAFETY: the C caller passes a live handle and a valid array.
        let (queue, list) = unsafe {
            (boundary::arg::<Queue>(queue, "queue")?, boundary::slice_arg(commands, command_count, "commands")?)
        };
        // SAFETY: each element is a live command buffer (caller).
        unsafe { submit(queue, list) }.map(|_| ())
    })
}

/// Submits `list` (shared by `wgpuQueueSubmit` and wgpu.h's
/// `wgpuQueueSubmitForIndex`): under the maintenance lock, counted as queue
/// work for work-done futures. Returns the submission index, or `None` when
/// nothing was submitted (the error is reported on the device). Every
/// command buffer of a failed submit is used up, as the standard says, also
/// when the list holds a NULL or foreign handle.
///
/// # Safety
/// Every element of `list` is NULL or a live command buffer handle.
pub(crate) unsafe fn submit(queue: &Queue, list: &[WGPUCommandBuffer]) -> boundary::ApiResult<Option<u64>> {
    let device = &queue.device;
    // Inline for the usual few command buffers: a submit allocates nothing here.
    let mut ids: smallvec::SmallVec<[_; 4]> = smallvec::SmallVec::with_capacity(list.len());
    let mut problem = None;
    let mut bad_handle = None;
    for (i, &raw) in list.iter().enumerate() {
        // SAFETY: each element is NULL or a live command buffer (caller).
        match unsafe { boundary::arg::<CommandBuffer>(raw, "commands[i]") } {
            Ok(cb) => match (cb.use_id(), crate::objects::owner::is_foreign(device, &**cb)) {
                (Some(id), false) => ids.push(id),
                (Some(_), true) => {
                    let why = crate::objects::owner::foreign_error(&format!("commands[{i}]"));
                    problem.get_or_insert(format!("Submit: {why}"));
                }
                (None, _) => {
                    problem.get_or_insert(format!("Submit: commands[{i}] was already submitted or is invalid"));
                }
            },
            // Rejected once every other command buffer is used up too.
            Err(reject) => {
                bad_handle.get_or_insert(reject);
            }
        }
    }
    if let Some(reject) = bad_handle {
        return Err(reject);
    }
    if let Some(why) = problem {
        // Nothing is submitted when one command buffer is bad; the others
        // count as used (the standard invalidates them all).
        device.report_validation(why);
        return Ok(None);
    }
    let result = {
        let _maintenance = device.locks.maintenance();
        device.global().queue_submit(device.queue_id, &ids)
    };
    device.work_done.note_work();
    match result {
        Ok(index) => {
            device.progress.submissions.note(index);
            device.work_done.note_submission(index);
            Ok(Some(index))
        }
        Err((_, err)) => {
            device.report(err);
            Ok(None)
        }
    }
}

/// Writes `size` bytes from `data` into `buffer` at `offset`, in queue order.
///
/// # Safety
/// `queue` and `buffer` are live; `data` points at `size` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn wgpuQueueWriteBuffer(
    queue: WGPUQueue,
    buffer: WGPUBuffer,
    buffer_offset: u64,
    data: *const std::ffi::c_void,
    size: usize,
) {
    call("wgpuQueueWriteBuffer", (), || {
        // SAFETY: the C caller passes live handles and `size` readable bytes.
        let (queue, buffer, bytes) = unsafe {
            (
                boundary::arg::<Queue>(queue, "queue")?,
                boundary::arg::<Buffer>(buffer, "buffer")?,
                boundary::slice_arg(data.cast::<u8>(), size, "data")?,
            )
        };
        let device = &queue.device;
        if let Err(why) = crate::objects::owner::same_instance(device, &**buffer, "buffer") {
            device.report_validation(format!("wgpuQueueWriteBuffer: {why}"));
            return Ok(());
        }
        let written = device.global().queue_write_buffer(device.queue_id, buffer.id, buffer_offset, bytes);
        device.work_done.note_work();
        if let Err(err) = written {
            device.report(err);
        }
        Ok(())
    })
}

/// Writes texel data into a texture through the queue. Layout rules are
/// those of `wgpuCommandEncoderCopyBufferToTexture`, without the 256-byte
/// row alignment.
///
/// # Safety
/// `queue` is a live queue; `destination`, `data_layout` and `write_size`
/// are NULL or valid (with a live texture); `data` points at `data_size`
/// readable bytes.
#[no_mangle]
pub unsafe extern "C" fn wgpuQueueWriteTexture(
    queue: WGPUQueue,
    destination: *const WGPUTexelCopyTextureInfo,
    data: *const std::ffi::c_void,
    data_size: usize,
    data_layout: *const WGPUTexelCopyBufferLayout,
    write_size: *const WGPUExtent3D,
) {
    call("wgpuQueueWriteTexture", (), || {
        // SAFETY: the C caller passes a live handle, valid structs and
        // `data_size` readable bytes.
        let (queue, dst, bytes, layout, size) = unsafe {
            (
                boundary::arg::<Queue>(queue, "queue")?,
                crate::objects::texel_copy::texture_info(
                    &boundary::arg::<Queue>(queue, "queue")?.device,
                    boundary::ptr_arg(destination, "destination")?,
                    "destination",
                )?,
                boundary::slice_arg(data.cast::<u8>(), data_size, "data")?,
                crate::objects::texel_copy::buffer_layout(boundary::ptr_arg(data_layout, "dataLayout")?),
                crate::objects::texel_copy::extent(boundary::ptr_arg(write_size, "writeSize")?),
            )
        };
        let device = &queue.device;
        match dst {
            Ok(dst) => {
                let written = device.global().queue_write_texture(device.queue_id, &dst, bytes, &layout, &size);
                device.work_done.note_work();
                if let Err(err) = written {
                    device.report(err);
                }
            }
            Err(why) => device.report_validation(format!("wgpuQueueWriteTexture: destination: {why}")),
        }
        Ok(())
    })
}

/// A future that completes when all work submitted so far has finished.
/// Callbacks come in call order; maps requested earlier come first.
///
/// # Safety
/// `queue` is a live queue; the callback info's chain is valid.
#[no_mangle]
pub unsafe extern "C" fn wgpuQueueOnSubmittedWorkDone(
    queue: WGPUQueue,
    callback_info: WGPUQueueWorkDoneCallbackInfo,
) -> WGPUFuture {
    call_async(
        "wgpuQueueOnSubmittedWorkDone",
        || {
            let (cb, ud) = (SendFn(callback_info.callback), UserData(callback_info.userdata1, callback_info.userdata2));
            move |why: Option<String>| {
                let Some(f) = cb.get() else { return };
                let status = if why.is_some() {
                    WGPUQueueWorkDoneStatus::Error
                } else {
                    WGPUQueueWorkDoneStatus::CallbackCancelled
                };
                let message = why
                    .unwrap_or_else(|| "the instance was released before the work-done callback was delivered".into());
                // SAFETY: the application's callback with its userdata.
                unsafe { f(status, boundary::out_str(&message), ud.u1(), ud.u2()) };
            }
        },
        |on_reject| {
            let cb = SendFn(callback_info.callback);
            let ud = UserData(callback_info.userdata1, callback_info.userdata2);
            // SAFETY: the C caller passes a live handle.
            let queue = unsafe { boundary::arg::<Queue>(queue, "queue")? };
            let device = &queue.device;
            on_reject.registry(&device.instance.registry, Source::Queue(device.serial));
            // SAFETY: the C caller passes a valid chain.
            let mode = unsafe {
                on_reject.mode(
                    callback_info.mode,
                    callback_info.nextInChain,
                    "WGPUQueueWorkDoneCallbackInfo",
                    Some(crate::futures::Mode::AllowProcessEvents),
                )?
            };
            let callback = move |out: Outcome<()>| {
                let Some(f) = cb.get() else { return };
                let (status, message) = match out {
                    Outcome::Done(()) => (WGPUQueueWorkDoneStatus::Success, ""),
                    Outcome::Cancelled => (
                        WGPUQueueWorkDoneStatus::CallbackCancelled,
                        "the instance was released before the work-done callback was delivered",
                    ),
                };
                // SAFETY: the application's callback with its userdata.
                unsafe { f(status, boundary::out_str(message), ud.u1(), ud.u2()) };
            };
            on_reject.disarm();
            Ok(device.work_done.register_future(device, mode, callback))
        },
    )
}
