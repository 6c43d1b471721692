//! `WGPUBindGroupLayout`.

use std::borrow::Cow;
use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::binding_model::BindGroupLayoutDescriptor;
use wgpu_core::id::BindGroupLayoutId;
use wgpu_types as wgt;

use crate::abi::*;
use crate::ffi::boundary::{self, call, refcounted, set_label, ApiResult};
use crate::ffi::chain_walk::{self, Chain};
use crate::ffi::handle::{Handle, Object};
use crate::objects::device::Device;

/// A `WGPUBindGroupLayout`.
#[repr(C)]
pub(crate) struct BindGroupLayout {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) device: Arc<Device>,
    pub(crate) id: BindGroupLayoutId,
    pub(crate) label: Mutex<String>,
}

impl Object for BindGroupLayout {
    type Raw = WGPUBindGroupLayoutImpl;
    const NAME: &'static str = "WGPUBindGroupLayout";
    const HEADER_OFFSET: usize = std::mem::offset_of!(BindGroupLayout, header);
}

impl Drop for BindGroupLayout {
    fn drop(&mut self) {
        crate::ffi::boundary::in_drop("a bind group layout", || self.device.global().bind_group_layout_drop(self.id));
    }
}

refcounted!(BindGroupLayout, WGPUBindGroupLayout, wgpuBindGroupLayoutAddRef, wgpuBindGroupLayoutRelease);
set_label!(BindGroupLayout, WGPUBindGroupLayout, wgpuBindGroupLayoutSetLabel);

impl BindGroupLayout {
    /// Wraps a bind group layout id this library now owns.
    pub(crate) fn from_id(device: &Arc<Device>, id: BindGroupLayoutId, label: String) -> BindGroupLayout {
        BindGroupLayout { header: Default::default(), device: device.clone(), id, label: Mutex::new(label) }
    }
}

/// Reads one entry: its chain (an optional external texture binding
/// layout and wgpu.h's `WGPUBindGroupLayoutEntryExtras`, the array size)
/// and the chains of its four binding layouts, which take none. The inner
/// error is a validation error.
///
/// # Safety
/// The entry's chains are valid.
unsafe fn read_entry(e: &WGPUBindGroupLayoutEntry) -> Result<wgt::BindGroupLayoutEntry, String> {
    use crate::conv::native_extras::layout_entry_count;
    // SAFETY: the chains are valid (caller).
    let (external, count) = unsafe {
        let chain = Chain::walk(e.nextInChain, "WGPUBindGroupLayoutEntry").map_err(crate::conv::chain_error)?;
        chain_walk::expect_none(e.buffer.nextInChain, "WGPUBufferBindingLayout").map_err(crate::conv::chain_error)?;
        chain_walk::expect_none(e.sampler.nextInChain, "WGPUSamplerBindingLayout").map_err(crate::conv::chain_error)?;
        chain_walk::expect_none(e.texture.nextInChain, "WGPUTextureBindingLayout").map_err(crate::conv::chain_error)?;
        chain_walk::expect_none(e.storageTexture.nextInChain, "WGPUStorageTextureBindingLayout")
            .map_err(crate::conv::chain_error)?;
        let external = chain.has(WGPUSType::ExternalTextureBindingLayout);
        (external, layout_entry_count(&chain, e.bindingArraySize)?)
    };
    let mut entry = crate::conv::binding::bgl_entry(e, external)?;
    entry.count = count;
    Ok(entry)
}

/// Reads a whole descriptor. The outer error is a synchronous rejection,
/// the inner one a validation error.
///
/// # Safety
/// The descriptor's chain and entries are valid.
unsafe fn read_descriptor(
    desc: &WGPUBindGroupLayoutDescriptor,
) -> ApiResult<Result<Vec<wgt::BindGroupLayoutEntry>, String>> {
    // SAFETY: the entries array is valid (caller).
    let entries = unsafe { boundary::slice_arg(desc.entries, desc.entryCount, "entries") }?;
    // SAFETY: the chain is valid (caller).
    if let Err(why) = unsafe { chain_walk::expect_none(desc.nextInChain, "WGPUBindGroupLayoutDescriptor") } {
        return Ok(Err(crate::conv::chain_error(why)));
    }
    let mut out = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        // SAFETY: the entries' chains are valid (caller).
        match unsafe { read_entry(e) } {
            Ok(entry) => out.push(entry),
            Err(why) => return Ok(Err(format!("entries[{i}]: {why}"))),
        }
    }
    Ok(Ok(out))
}

/// Creates a bind group layout. An entry is a binding array when its
/// `bindingArraySize` or the `count` of a chained
/// `WGPUBindGroupLayoutEntryExtras` (wgpu.h) is above 0; arrays need the
/// device features of their binding type (`TextureBindingArray`, ...).
/// Invalid entries (no binding layout or more than one, unknown enum
/// values) are validation errors and give an invalid layout.
///
/// # Safety
/// `device` is a live device; `descriptor` is NULL or points at a valid
/// descriptor.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceCreateBindGroupLayout(
    device: WGPUDevice,
    descriptor: *const WGPUBindGroupLayoutDescriptor,
) -> WGPUBindGroupLayout {
    call("wgpuDeviceCreateBindGroupLayout", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle and NULL or a valid
        // descriptor.
        let (device, desc) =
            unsafe { (boundary::arg::<Device>(device, "device")?, boundary::ptr_arg(descriptor, "descriptor")?) };
        // SAFETY: the descriptor's label, chain and entries are valid.
        let (label, entries) = unsafe { (boundary::label_arg(desc.label, "label")?, read_descriptor(desc)?) };
        let entries = entries.and_then(|entries| {
            for e in &entries {
                if let wgt::BindingType::StorageTexture { access, format, .. } = e.ty {
                    crate::conv::texture::check_storage_access(format, access, device.features)
                        .map_err(|why| format!("entry for binding {}: {why}", e.binding))?;
                }
            }
            Ok(entries)
        });
        let global = device.global();
        let id = match entries {
            Ok(entries) => {
                let desc =
                    BindGroupLayoutDescriptor { label: crate::conv::label(&label), entries: Cow::Owned(entries) };
                let (id, error) = global.device_create_bind_group_layout(device.id, &desc, None);
                if let Some(e) = error {
                    device.report(e);
                }
                id
            }
            Err(why) => {
                let id = crate::objects::invalid::bind_group_layout(global, device.id, &label);
                device.report_validation(format!("wgpuDeviceCreateBindGroupLayout: {why}"));
                id
            }
        };
        Ok(Handle::into_raw(Arc::new(BindGroupLayout::from_id(&device.arc(), id, label))))
    })
}
