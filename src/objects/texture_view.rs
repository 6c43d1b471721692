//! `WGPUTextureView` (made by `wgpuTextureCreateView`, in [`crate::objects::texture`]).

use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::id::{TextureId, TextureViewId};

use crate::abi::*;
use crate::ffi::boundary::{refcounted, set_label};
use crate::ffi::handle::Object;
use crate::objects::texture::Texture;

/// The descriptor a view was made with (label left out), to make it again.
pub(crate) type ViewRemake = wgpu_core::resource::TextureViewDescriptor<'static>;

/// A `WGPUTextureView`. It keeps its texture alive.
#[repr(C)]
pub(crate) struct TextureView {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) texture: Arc<Texture>,
    pub(crate) id: TextureViewId,
    pub(crate) label: Mutex<String>,
    /// What it was made with, for a stand-in ([`TextureView::stand_in`]);
    /// none for an invalid view or a surface frame's.
    remake: Option<ViewRemake>,
}

impl TextureView {
    pub(crate) fn new(
        texture: Arc<Texture>,
        id: TextureViewId,
        label: String,
        remake: Option<ViewRemake>,
    ) -> TextureView {
        TextureView { header: Default::default(), texture, id, label: Mutex::new(label), remake }
    }

    /// A stand-in for this view once its texture is destroyed: the same
    /// view of a stand-in texture ([`Texture::stand_in`]), for a bind group
    /// made after `Destroy`, which must be valid and fail only at submit.
    /// The caller destroys and drops the texture, and drops the view, once
    /// the bind group exists. `None` while the texture is not destroyed or
    /// when no stand-in can be made (the bind group is then invalid).
    pub(crate) fn stand_in(&self) -> Option<(TextureId, TextureViewId)> {
        let desc = self.remake.as_ref()?;
        let texture = self.texture.stand_in()?;
        let global = self.texture.device.global();
        match global.texture_create_view(texture, desc, None) {
            (view, None) => Some((texture, view)),
            (view, Some(e)) => {
                log::debug!(target: "wgpu_shim", "no stand-in view of a destroyed texture ({e})");
                global.texture_view_drop(view);
                global.texture_destroy(texture);
                global.texture_drop(texture);
                None
            }
        }
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
