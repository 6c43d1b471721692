//! `WGPUSampler`.

use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::id::SamplerId;
use wgpu_types as wgt;

use crate::abi::*;
use crate::ffi::boundary::{self, call, refcounted, set_label};
use crate::ffi::handle::{Handle, Object};
use crate::objects::device::Device;

/// A `WGPUSampler`.
#[repr(C)]
pub(crate) struct Sampler {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) device: Arc<Device>,
    pub(crate) id: SamplerId,
    pub(crate) label: Mutex<String>,
}

impl Object for Sampler {
    type Raw = WGPUSamplerImpl;
    const NAME: &'static str = "WGPUSampler";
    const HEADER_OFFSET: usize = std::mem::offset_of!(Sampler, header);
}

impl Drop for Sampler {
    fn drop(&mut self) {
        crate::ffi::boundary::in_drop("a sampler", || self.device.global().sampler_drop(self.id));
    }
}

refcounted!(Sampler, WGPUSampler, wgpuSamplerAddRef, wgpuSamplerRelease);
set_label!(Sampler, WGPUSampler, wgpuSamplerSetLabel);

/// wgpu.h's extra address mode: clamp to the border colour of a chained
/// `WGPUSamplerDescriptorExtras` (the device feature
/// `AddressModeClampToBorder`, checked by wgpu-core).
const CLAMP_TO_BORDER: WGPUAddressMode = WGPUAddressMode(crate::abi::native::WGPUNativeAddressMode_ClampToBorder);

/// An address mode; `Undefined` is ClampToEdge.
fn address_mode(m: WGPUAddressMode, what: &str) -> Result<wgt::AddressMode, String> {
    Ok(match m {
        WGPUAddressMode::Undefined | WGPUAddressMode::ClampToEdge => wgt::AddressMode::ClampToEdge,
        WGPUAddressMode::Repeat => wgt::AddressMode::Repeat,
        WGPUAddressMode::MirrorRepeat => wgt::AddressMode::MirrorRepeat,
        CLAMP_TO_BORDER => wgt::AddressMode::ClampToBorder,
        other => return Err(format!("{what} {:#x} is not a WGPUAddressMode", other.0)),
    })
}

/// A filter mode; `Undefined` is Nearest.
fn filter_mode(m: WGPUFilterMode, what: &str) -> Result<wgt::FilterMode, String> {
    Ok(match m {
        WGPUFilterMode::Undefined | WGPUFilterMode::Nearest => wgt::FilterMode::Nearest,
        WGPUFilterMode::Linear => wgt::FilterMode::Linear,
        other => return Err(format!("{what} {:#x} is not a WGPUFilterMode", other.0)),
    })
}

/// A mipmap filter mode; `Undefined` is Nearest.
fn mipmap_filter_mode(m: WGPUMipmapFilterMode) -> Result<wgt::MipmapFilterMode, String> {
    Ok(match m {
        WGPUMipmapFilterMode::Undefined | WGPUMipmapFilterMode::Nearest => wgt::MipmapFilterMode::Nearest,
        WGPUMipmapFilterMode::Linear => wgt::MipmapFilterMode::Linear,
        other => return Err(format!("mipmapFilter {:#x} is not a WGPUMipmapFilterMode", other.0)),
    })
}

/// A compare function; `Undefined` is `None` (not a comparison sampler).
pub(crate) fn compare_function(f: WGPUCompareFunction) -> Result<Option<wgt::CompareFunction>, String> {
    use wgt::CompareFunction as C;
    Ok(Some(match f {
        WGPUCompareFunction::Undefined => return Ok(None),
        WGPUCompareFunction::Never => C::Never,
        WGPUCompareFunction::Less => C::Less,
        WGPUCompareFunction::Equal => C::Equal,
        WGPUCompareFunction::LessEqual => C::LessEqual,
        WGPUCompareFunction::Greater => C::Greater,
        WGPUCompareFunction::NotEqual => C::NotEqual,
        WGPUCompareFunction::GreaterEqual => C::GreaterEqual,
        WGPUCompareFunction::Always => C::Always,
        other => return Err(format!("compare {:#x} is not a WGPUCompareFunction", other.0)),
    }))
}

/// Converts a sampler descriptor.
///
/// # Safety
/// The descriptor's chain is valid.
unsafe fn convert<'a>(desc: &WGPUSamplerDescriptor, label: &'a str) -> Result<SamplerDesc<'a>, String> {
    // SAFETY: the chain is valid (caller).
    let border_color = unsafe { crate::conv::native_extras::sampler_border_color(desc.nextInChain) }?;
    Ok(SamplerDesc {
        label: crate::conv::label(label),
        address_modes: [
            address_mode(desc.addressModeU, "addressModeU")?,
            address_mode(desc.addressModeV, "addressModeV")?,
            address_mode(desc.addressModeW, "addressModeW")?,
        ],
        mag_filter: filter_mode(desc.magFilter, "magFilter")?,
        min_filter: filter_mode(desc.minFilter, "minFilter")?,
        mipmap_filter: mipmap_filter_mode(desc.mipmapFilter)?,
        lod_min_clamp: desc.lodMinClamp,
        lod_max_clamp: desc.lodMaxClamp,
        compare: compare_function(desc.compare)?,
        anisotropy_clamp: desc.maxAnisotropy,
        border_color,
    })
}

type SamplerDesc<'a> = wgpu_core::resource::SamplerDescriptor<'a>;

/// The descriptor a NULL `descriptor` stands for.
fn default_desc() -> SamplerDesc<'static> {
    SamplerDesc {
        label: None,
        address_modes: [wgt::AddressMode::ClampToEdge; 3],
        mag_filter: wgt::FilterMode::Nearest,
        min_filter: wgt::FilterMode::Nearest,
        mipmap_filter: wgt::MipmapFilterMode::Nearest,
        lod_min_clamp: 0.0,
        lod_max_clamp: 32.0,
        compare: None,
        anisotropy_clamp: 1,
        border_color: None,
    }
}

/// Creates a sampler. `descriptor` may be NULL (clamp to edge, nearest
/// filtering, LOD clamp 0..32, no anisotropy, no comparison). wgpu.h's
/// address mode `WGPUNativeAddressMode_ClampToBorder` clamps to the border
/// colour of a chained `WGPUSamplerDescriptorExtras` (transparent black
/// when there is none). An invalid descriptor gives a validation error and
/// an invalid sampler.
///
/// # Safety
/// `device` is a live device; `descriptor` is NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceCreateSampler(
    device: WGPUDevice,
    descriptor: *const WGPUSamplerDescriptor,
) -> WGPUSampler {
    call("wgpuDeviceCreateSampler", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle and NULL or a valid
        // descriptor.
        let (device, desc) = unsafe { (boundary::arg::<Device>(device, "device")?, descriptor.as_ref()) };
        let label = match desc {
            // SAFETY: the label is a valid string view (caller).
            Some(desc) => unsafe { boundary::label_arg(desc.label, "label") }?,
            None => String::new(),
        };
        let converted = match desc {
            // SAFETY: the chain is valid (caller).
            Some(desc) => unsafe { convert(desc, &label) },
            None => Ok(default_desc()),
        };
        let global = device.global();
        let id = match converted {
            Ok(core_desc) => {
                let (id, error) = global.device_create_sampler(device.id, &core_desc, None);
                if let Some(e) = error {
                    device.report(e);
                }
                id
            }
            Err(why) => {
                // A negative LOD clamp: wgpu-core rejects it.
                let bad = SamplerDesc { label: crate::conv::label(&label), lod_min_clamp: -1.0, ..default_desc() };
                let (id, _) = global.device_create_sampler(device.id, &bad, None);
                device.report_validation(format!("wgpuDeviceCreateSampler {label:?}: {why}"));
                id
            }
        };
        Ok(Handle::into_raw(Arc::new(Sampler {
            header: Default::default(),
            device: device.arc(),
            id,
            label: Mutex::new(label),
        })))
    })
}
