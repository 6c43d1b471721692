//! `WGPUPipelineLayout`.

use std::borrow::Cow;
use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::binding_model::PipelineLayoutDescriptor;
use wgpu_core::id::PipelineLayoutId;

use crate::abi::*;
use crate::ffi::boundary::{self, call, refcounted, set_label};
use crate::ffi::handle::{Handle, Object};
use crate::objects::bind_group_layout::BindGroupLayout;
use crate::objects::device::Device;

/// A `WGPUPipelineLayout`.
#[repr(C)]
pub(crate) struct PipelineLayout {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) device: Arc<Device>,
    pub(crate) id: PipelineLayoutId,
    pub(crate) label: Mutex<String>,
}

impl Object for PipelineLayout {
    type Raw = WGPUPipelineLayoutImpl;
    const NAME: &'static str = "WGPUPipelineLayout";
    const HEADER_OFFSET: usize = std::mem::offset_of!(PipelineLayout, header);
}

impl Drop for PipelineLayout {
    fn drop(&mut self) {
        crate::ffi::boundary::in_drop("a pipeline layout", || self.device.global().pipeline_layout_drop(self.id));
    }
}

refcounted!(PipelineLayout, WGPUPipelineLayout, wgpuPipelineLayoutAddRef, wgpuPipelineLayoutRelease);
set_label!(PipelineLayout, WGPUPipelineLayout, wgpuPipelineLayoutSetLabel);

/// Creates a pipeline layout. A NULL entry in `bindGroupLayouts` leaves
/// that group slot empty. `immediateSize` needs the device to support
/// immediates. Validation errors give an invalid layout.
///
/// # Safety
/// `device` is a live device; `descriptor` is NULL or points at a valid
/// descriptor whose non-NULL layouts are live.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceCreatePipelineLayout(
    device: WGPUDevice,
    descriptor: *const WGPUPipelineLayoutDescriptor,
) -> WGPUPipelineLayout {
    call("wgpuDeviceCreatePipelineLayout", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle and NULL or a valid
        // descriptor.
        let (device, desc) =
            unsafe { (boundary::arg::<Device>(device, "device")?, boundary::ptr_arg(descriptor, "descriptor")?) };
        // SAFETY: the descriptor's label and array are valid.
        let (label, raw_layouts) = unsafe {
            (
                boundary::label_arg(desc.label, "label")?,
                boundary::slice_arg(desc.bindGroupLayouts, desc.bindGroupLayoutCount, "bindGroupLayouts")?,
            )
        };
        let mut layouts = Vec::with_capacity(raw_layouts.len());
        let mut foreign = Ok(());
        for (i, &raw) in raw_layouts.iter().enumerate() {
            let name = format!("bindGroupLayouts[{i}]");
            // SAFETY: each element is NULL or a live handle (caller).
            let bgl = unsafe { boundary::opt_arg::<BindGroupLayout>(raw, &name) }?;
            if let Some(bgl) = bgl {
                foreign = foreign.and_then(|()| crate::objects::owner::same_instance(device, &**bgl, &name));
            }
            layouts.push(bgl.map(|h| h.id));
        }
        let global = device.global();
        // SAFETY: the chain is valid (caller).
        let checked = unsafe { crate::ffi::chain_walk::expect_none(desc.nextInChain, "WGPUPipelineLayoutDescriptor") }
            .map_err(crate::conv::chain_error)
            .and(foreign);
        let id = match checked {
            Ok(()) => {
                let wgpu_desc = PipelineLayoutDescriptor {
                    label: crate::conv::label(&label),
                    bind_group_layouts: Cow::Owned(layouts),
                    immediate_size: desc.immediateSize,
                };
                let (id, error) = global.device_create_pipeline_layout(device.id, &wgpu_desc, None);
                if let Some(e) = error {
                    device.report(e);
                }
                id
            }
            Err(why) => {
                let id = crate::objects::invalid::pipeline_layout(global, device.id, &label);
                device.report_validation(format!("wgpuDeviceCreatePipelineLayout: {why}"));
                id
            }
        };
        Ok(Handle::into_raw(Arc::new(PipelineLayout {
            header: Default::default(),
            device: device.arc(),
            id,
            label: Mutex::new(label),
        })))
    })
}
