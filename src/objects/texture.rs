//! `WGPUTexture`: creation, views, destruction, accessors.
//!
//! A descriptor this library cannot convert (unknown enum values or usage
//! bits, an unsupported chain) gives a validation error and an invalid
//! texture, like a descriptor wgpu-core rejects. The accessors report what
//! the application asked for, even for an invalid texture.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::id::TextureId;
use wgpu_types as wgt;

use crate::abi::*;
use crate::ffi::boundary::{self, call, refcounted, set_label};
use crate::ffi::handle::{Handle, Object};
use crate::objects::device::Device;
use crate::objects::texture_view::{TextureView, ViewRemake};

/// The conversions `texel_copy.rs`, `surface/config.rs` and
/// `native/commands.rs` name through this module.
pub(crate) use crate::conv::texture::{aspect, texture_usage};

/// A `WGPUTexture`.
#[repr(C)]
pub(crate) struct Texture {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) device: Arc<Device>,
    pub(crate) id: TextureId,
    pub(crate) label: Mutex<String>,
    /// The descriptor's values, as the application gave them.
    size: WGPUExtent3D,
    mip_level_count: u32,
    sample_count: u32,
    dimension: WGPUTextureDimension,
    format: WGPUTextureFormat,
    usage: WGPUTextureUsage,
    /// Set by the first `Destroy`.
    destroyed: AtomicBool,
    /// The wgpu-core descriptor it was made with (none for an invalid
    /// texture or a surface frame), for the stand-in of a view made after
    /// `Destroy` ([`Texture::stand_in`]).
    remake: Option<wgpu_core::resource::TextureDescriptor<'static>>,
    /// Dropped after the wgpu-core texture: a surface frame keeps here the
    /// wgpu-core surface it came from when that surface had to be retired
    /// while the frame still lived (`surface/mod.rs`).
    pub(crate) drop_after: Mutex<Option<Box<dyn Send>>>,
}

impl Object for Texture {
    type Raw = WGPUTextureImpl;
    const NAME: &'static str = "WGPUTexture";
    const HEADER_OFFSET: usize = std::mem::offset_of!(Texture, header);
}

impl Drop for Texture {
    fn drop(&mut self) {
        crate::ffi::boundary::in_drop("a texture", || self.device.global().texture_drop(self.id));
    }
}

refcounted!(Texture, WGPUTexture, wgpuTextureAddRef, wgpuTextureRelease);
set_label!(Texture, WGPUTexture, wgpuTextureSetLabel);

impl Texture {
    /// Wraps a wgpu-core texture that is a surface frame: 2D, one mip level,
    /// one sample, with the surface configuration's size, format and usage.
    pub(crate) fn surface_frame(
        device: Arc<Device>,
        id: TextureId,
        size: (u32, u32),
        format: WGPUTextureFormat,
        usage: WGPUTextureUsage,
    ) -> Texture {
        Texture {
            header: Default::default(),
            device,
            id,
            label: Mutex::new(String::new()),
            size: WGPUExtent3D { width: size.0, height: size.1, depthOrArrayLayers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: WGPUTextureDimension::_2D,
            format,
            usage,
            destroyed: AtomicBool::new(false),
            remake: None,
            drop_after: Mutex::new(None),
        }
    }

    /// A stand-in for this texture once it is destroyed: a fresh wgpu-core
    /// texture of the same descriptor, which the caller destroys and drops
    /// as soon as it has made what it needed of it (a view, a bind group's
    /// view). WebGPU checks a destroyed texture at submit, while wgpu-core
    /// refuses to make anything of one, so a view or bind group made after
    /// `Destroy` is made of the stand-in and then behaves as one made
    /// before `Destroy`: valid, and only a submit that uses it fails.
    /// `None` while the texture is not destroyed, and where no stand-in can
    /// be made (an invalid texture, a frame, no memory): the caller then
    /// uses the texture itself, and what it makes is invalid, as before.
    pub(crate) fn stand_in(&self) -> Option<TextureId> {
        if !self.destroyed.load(Ordering::Acquire) {
            return None;
        }
        let desc = self.remake.as_ref()?;
        let global = self.device.global();
        let (id, error) = global.device_create_texture(self.device.id, desc, None);
        match error {
            None => Some(id),
            Some(e) => {
                log::debug!(target: "wgpu_shim", "no stand-in for a destroyed texture ({e}): what is made of it is invalid");
                global.texture_drop(id);
                None
            }
        }
    }

    /// The format it was created with.
    pub(crate) fn format(&self) -> WGPUTextureFormat {
        self.format
    }

    /// Whether each mip level is one subresource (1D and 3D textures: a
    /// level has one array layer, whatever its depth), so that a copy
    /// within one level of it always copies a subresource onto itself.
    pub(crate) fn one_subresource_per_level(&self) -> bool {
        matches!(self.dimension, WGPUTextureDimension::_1D | WGPUTextureDimension::_3D)
    }

    /// `wgpuTextureDestroy`: frees the GPU memory. Repeating it does nothing.
    pub(crate) fn destroy(&self) {
        if !self.destroyed.swap(true, Ordering::AcqRel) {
            self.device.global().texture_destroy(self.id);
        }
    }
}

/// An invalid texture id (a zero-sized texture without usage).
fn invalid_texture(device: &Device, label: &str) -> TextureId {
    let desc = wgpu_core::resource::TextureDescriptor {
        label: crate::conv::label(label),
        size: wgt::Extent3d { width: 0, height: 0, depth_or_array_layers: 0 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgt::TextureDimension::D2,
        format: wgt::TextureFormat::Rgba8Unorm,
        usage: wgt::TextureUsages::empty(),
        view_formats: Vec::new(),
    };
    device.global().device_create_texture(device.id, &desc, None).0
}

/// Creates a texture. An invalid descriptor gives a validation error and an
/// invalid texture (never NULL).
///
/// # Safety
/// `device` is a live device; `descriptor` is NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceCreateTexture(
    device: WGPUDevice,
    descriptor: *const WGPUTextureDescriptor,
) -> WGPUTexture {
    call("wgpuDeviceCreateTexture", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle and a valid descriptor.
        let (device, desc) =
            unsafe { (boundary::arg::<Device>(device, "device")?, boundary::ptr_arg(descriptor, "descriptor")?) };
        // SAFETY: the descriptor's label, chain and array are valid (caller).
        let (label, converted) = unsafe {
            let label = boundary::label_arg(desc.label, "label")?;
            let converted = crate::conv::texture::descriptor(desc, &label)?;
            (label, converted)
        };
        let converted = converted.and_then(|d| {
            crate::conv::texture::check_sample_count(d.sample_count, Some(d.format), device.features).map(|()| d)
        });
        let global = device.global();
        let (id, remake) = match converted {
            Ok(core_desc) => {
                let (id, error) = global.device_create_texture(device.id, &core_desc, None);
                let remake = error.is_none().then(|| core_desc.map_label(|_| None));
                if let Some(e) = error {
                    device.report(e);
                }
                (id, remake)
            }
            Err(why) => {
                let id = invalid_texture(device, &label);
                device.report_validation(format!("wgpuDeviceCreateTexture {label:?}: {why}"));
                (id, None)
            }
        };
        let texture = Arc::new(Texture {
            header: Default::default(),
            device: device.arc(),
            id,
            label: Mutex::new(label),
            size: desc.size,
            mip_level_count: desc.mipLevelCount,
            sample_count: desc.sampleCount,
            dimension: if desc.dimension == WGPUTextureDimension::Undefined {
                WGPUTextureDimension::_2D
            } else {
                desc.dimension
            },
            format: desc.format,
            usage: desc.usage,
            destroyed: AtomicBool::new(false),
            remake,
            drop_after: Mutex::new(None),
        });
        Ok(Handle::into_raw(texture))
    })
}

/// Creates a view of the texture. `descriptor` may be NULL (the whole
/// texture, its format and its default dimension). An invalid descriptor
/// gives a validation error and an invalid view.
///
/// # Safety
/// `texture` is a live texture; `descriptor` is NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn wgpuTextureCreateView(
    texture: WGPUTexture,
    descriptor: *const WGPUTextureViewDescriptor,
) -> WGPUTextureView {
    call("wgpuTextureCreateView", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle and NULL or a valid
        // descriptor.
        let (texture, desc) = unsafe { (boundary::arg::<Texture>(texture, "texture")?, descriptor.as_ref()) };
        let (label, converted) = match desc {
            // SAFETY: the descriptor's label and chain are valid (caller).
            Some(desc) => unsafe {
                let label = boundary::label_arg(desc.label, "label")?;
                let converted = crate::conv::texture::view_descriptor(desc, &label);
                (label, converted)
            },
            None => (
                String::new(),
                Ok(wgpu_core::resource::TextureViewDescriptor {
                    label: None,
                    format: None,
                    dimension: None,
                    usage: None,
                    range: wgt::ImageSubresourceRange::default(),
                }),
            ),
        };
        let device = &texture.device;
        let global = device.global();
        let (id, remake) = match converted {
            Ok(core_desc) => {
                let stand_in = texture.stand_in();
                let (id, error) = global.texture_create_view(stand_in.unwrap_or(texture.id), &core_desc, None);
                if let Some(source) = stand_in {
                    global.texture_destroy(source);
                    global.texture_drop(source);
                }
                let remake = error.is_none().then(|| view_remake(&core_desc));
                if let Some(e) = error {
                    device.report(e);
                }
                (id, remake)
            }
            Err(why) => {
                // A base mip level past every limit: wgpu-core rejects it.
                let bad = wgpu_core::resource::TextureViewDescriptor {
                    label: crate::conv::label(&label),
                    format: None,
                    dimension: None,
                    usage: None,
                    range: wgt::ImageSubresourceRange { base_mip_level: u32::MAX, ..Default::default() },
                };
                let (id, _) = global.texture_create_view(texture.id, &bad, None);
                device.report_validation(format!("wgpuTextureCreateView {label:?}: {why}"));
                (id, None)
            }
        };
        Ok(Handle::into_raw(Arc::new(TextureView::new(texture.arc(), id, label, remake))))
    })
}

/// A view's descriptor without its label, kept to make the view again on a
/// stand-in texture ([`TextureView::stand_in`]).
fn view_remake(desc: &wgpu_core::resource::TextureViewDescriptor<'_>) -> ViewRemake {
    wgpu_core::resource::TextureViewDescriptor {
        label: None,
        format: desc.format,
        dimension: desc.dimension,
        usage: desc.usage,
        range: desc.range,
    }
}

/// Frees the texture's memory; later use in a submit is a validation error.
///
/// # Safety
/// `texture` is a live texture.
#[no_mangle]
pub unsafe extern "C" fn wgpuTextureDestroy(texture: WGPUTexture) {
    call("wgpuTextureDestroy", (), || {
        // SAFETY: the C caller passes a live handle.
        unsafe { boundary::arg::<Texture>(texture, "texture") }?.destroy();
        Ok(())
    })
}

/// Defines an accessor returning one field of the texture.
macro_rules! getter {
    ($name:ident, $ret:ty, $fallback:expr, |$t:ident| $value:expr) => {
        #[doc = concat!("`", stringify!($name), "`: the value from the texture's descriptor.")]
        ///
        /// # Safety
        /// `texture` is a live texture.
        #[no_mangle]
        pub unsafe extern "C" fn $name(texture: WGPUTexture) -> $ret {
            call(stringify!($name), $fallback, || {
                // SAFETY: the C caller passes a live handle.
                let $t = unsafe { boundary::arg::<Texture>(texture, "texture") }?;
                Ok($value)
            })
        }
    };
}

getter!(wgpuTextureGetWidth, u32, 0, |t| t.size.width);
getter!(wgpuTextureGetHeight, u32, 0, |t| t.size.height);
getter!(wgpuTextureGetDepthOrArrayLayers, u32, 0, |t| t.size.depthOrArrayLayers);
getter!(wgpuTextureGetMipLevelCount, u32, 0, |t| t.mip_level_count);
getter!(wgpuTextureGetSampleCount, u32, 0, |t| t.sample_count);
getter!(wgpuTextureGetDimension, WGPUTextureDimension, WGPUTextureDimension::Undefined, |t| t.dimension);
getter!(wgpuTextureGetFormat, WGPUTextureFormat, WGPUTextureFormat::Undefined, |t| t.format);
getter!(wgpuTextureGetUsage, WGPUTextureUsage, WGPUTextureUsage_None, |t| t.usage);
getter!(
    wgpuTextureGetTextureBindingViewDimension,
    WGPUTextureViewDimension,
    WGPUTextureViewDimension::Undefined,
    |t| t.binding_view_dimension()
);

impl Texture {
    /// The view dimension a texture binding defaults to (no
    /// `WGPUTextureBindingViewDimension` is accepted, so it is the default).
    fn binding_view_dimension(&self) -> WGPUTextureViewDimension {
        match self.dimension {
            WGPUTextureDimension::_1D => WGPUTextureViewDimension::_1D,
            WGPUTextureDimension::_3D => WGPUTextureViewDimension::_3D,
            _ if self.size.depthOrArrayLayers == 1 => WGPUTextureViewDimension::_2D,
            _ => WGPUTextureViewDimension::_2DArray,
        }
    }
}
