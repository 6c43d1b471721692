//! `WGPUCommandBuffer`: what `wgpuCommandEncoderFinish` returns, for
//! `wgpuQueueSubmit`.

use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::id::CommandBufferId;

use crate::abi::*;
use crate::ffi::boundary::{refcounted, set_label};
use crate::ffi::handle::Object;
use crate::objects::device::Device;

/// A `WGPUCommandBuffer`.
#[repr(C)]
pub(crate) struct CommandBuffer {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) device: Arc<Device>,
    pub(crate) label: Mutex<String>,
    /// The id while this object owns it: `None` once [`Self::take_id`]
    /// handed it to a submission.
    slot: Mutex<Option<CommandBufferId>>,
}

impl Object for CommandBuffer {
    type Raw = WGPUCommandBufferImpl;
    const NAME: &'static str = "WGPUCommandBuffer";
    const HEADER_OFFSET: usize = std::mem::offset_of!(CommandBuffer, header);
}

impl Drop for CommandBuffer {
    fn drop(&mut self) {
        // A submitted id belongs to the submission, which dropped it.
        if let Some(id) = self.slot.get_mut().take() {
            crate::ffi::boundary::in_drop("a command buffer", || self.device.global().command_buffer_drop(id));
        }
    }
}

refcounted!(CommandBuffer, WGPUCommandBuffer, wgpuCommandBufferAddRef, wgpuCommandBufferRelease);
set_label!(CommandBuffer, WGPUCommandBuffer, wgpuCommandBufferSetLabel);

impl CommandBuffer {
    pub(crate) fn new(device: &Arc<Device>, id: CommandBufferId, label: String) -> CommandBuffer {
        CommandBuffer {
            header: Default::default(),
            device: device.clone(),
            label: Mutex::new(label),
            slot: Mutex::new(Some(id)),
        }
    }

    /// Takes the id for a submission, the first time only: `None` once the
    /// command buffer was submitted (submitting it again is a validation
    /// error). The caller then owns the id and drops it
    /// (`command_buffer_drop`) when the submission no longer needs it.
    pub(crate) fn take_id(&self) -> Option<CommandBufferId> {
        self.slot.lock().take()
    }
}
