//! `WGPUTextureView` (made by `wgpuTextureCreateView`, in [`crate::objects::texture`]).

use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::id::TextureViewId;

use crate::abi::*;
use crate::ffi::boundary::{refcounted, set_label};
use crate::ffi::handle::Object;
use crate::objects::texture::Texture;

/// A `WGPUTextureView`. It keeps its texture alive.
#[repr(C)]
pub(crate) struct TextureView {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) texture: Arc<Texture>,
    pub(crate) id: TextureViewId,
    pub(crate) label: Mutex<String>,
}

impl TextureView {
    pub(crate) fn new(texture: Arc<Texture>, id: TextureViewId, label: String) -> TextureView {
        TextureView { header: Default::default(), texture, id, label: Mutex::new(label) }
    }
}

impl Object for TextureView {
    type Raw = WGPUTextureViewImpl;
    const NAME: &'static str = "WGPUTextureView";
    const HEADER_OFFSET: usize = std::mem::offset_of!(TextureView, header);
}

impl Drop for TextureView {
    fn drop(&mut self) {
        crate::ffi::boundary::in_drop("a texture view", || self.texture.device.global().texture_view_drop(self.id));
    }
}

refcounted!(TextureView, WGPUTextureView, wgpuTextureViewAddRef, wgpuTextureViewRelease);
set_label!(TextureView, WGPUTextureView, wgpuTextureViewSetLabel);
