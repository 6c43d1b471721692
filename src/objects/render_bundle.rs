//! `WGPURenderBundle`: a finished bundle of render commands, executed by
//! `wgpuRenderPassEncoderExecuteBundles`.

use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::id::RenderBundleId;

use crate::abi::*;
use crate::ffi::boundary::{refcounted, set_label};
use crate::ffi::handle::Object;
use crate::objects::device::Device;

/// A `WGPURenderBundle`.
#[repr(C)]
pub(crate) struct RenderBundle {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) device: Arc<Device>,
    pub(crate) id: RenderBundleId,
    pub(crate) label: Mutex<String>,
    /// Encoded with no attachment (wgpu-native compatibility): no pass is
    /// compatible with it.
    pub(crate) no_attachments: bool,
    /// The draws it records, which count toward the `maxDrawCount` of each
    /// pass that executes it.
    pub(crate) draws: u64,
}

impl Object for RenderBundle {
    type Raw = WGPURenderBundleImpl;
    const NAME: &'static str = "WGPURenderBundle";
    const HEADER_OFFSET: usize = std::mem::offset_of!(RenderBundle, header);
}

impl Drop for RenderBundle {
    fn drop(&mut self) {
        crate::ffi::boundary::in_drop("a render bundle", || self.device.global().render_bundle_drop(self.id));
    }
}

refcounted!(RenderBundle, WGPURenderBundle, wgpuRenderBundleAddRef, wgpuRenderBundleRelease);
set_label!(RenderBundle, WGPURenderBundle, wgpuRenderBundleSetLabel);
