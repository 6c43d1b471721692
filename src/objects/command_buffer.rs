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
    /// The id (dropped with this object, so wgpu-core's report counts a
    /// submitted command buffer until its last release, as wgpu-native's
    /// does) and whether a submission used it.
    slot: Mutex<(CommandBufferId, bool)>,
}

impl Object for CommandBuffer {
    type Raw = WGPUCommandBufferImpl;
    const NAME: &'static str = "WGPUCommandBuffer";
    const HEADER_OFFSET: usize = std::mem::offset_of!(CommandBuffer, header);
}

impl Drop for CommandBuffer {
    fn drop(&mut self) {
        let (id, _) = *self.slot.get_mut();
        crate::ffi::boundary::in_drop("a command buffer", || self.device.global().command_buffer_drop(id));
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
            slot: Mutex::new((id, false)),
        }
    }

    /// The id for a submission, the first time only: `None` once the
    /// command buffer was submitted (submitting it again is a validation
    /// error). The id stays this object's.
    pub(crate) fn use_id(&self) -> Option<CommandBufferId> {
        let mut slot = self.slot.lock();
        let (id, used) = *slot;
        slot.1 = true;
        (!used).then_some(id)
    }
}
