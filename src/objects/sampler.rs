//! `WGPUSampler`.

use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::id::SamplerId;
use wgpu_types as wgt;

use crate::abi::*;
use crate::conv::sampler::SamplerDesc;
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
            Some(desc) => unsafe { crate::conv::sampler::descriptor(desc, &label) },
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
