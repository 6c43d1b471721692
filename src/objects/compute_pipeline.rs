//! `WGPUComputePipeline`: synchronous and asynchronous creation, and the
//! bind group layouts of a pipeline.

use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::global::Global;
use wgpu_core::id::{ComputePipelineId, DeviceId};
use wgpu_core::pipeline::{ComputePipelineDescriptor, CreateComputePipelineError, ProgrammableStageDescriptor};

use crate::abi::*;
use crate::ffi::boundary::{self, refcounted, set_label, ApiResult};
use crate::ffi::chain_walk;
use crate::ffi::handle::Object;
use crate::objects::device::Device;
use crate::objects::pipeline_common::{pipeline_exports, CreateFn, LayoutFn, ReadFn};
use crate::objects::pipeline_layout::PipelineLayout;
use crate::objects::shader_module::ShaderModule;

/// A `WGPUComputePipeline`.
#[repr(C)]
pub(crate) struct ComputePipeline {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) device: Arc<Device>,
    pub(crate) id: ComputePipelineId,
    pub(crate) label: Mutex<String>,
}

impl Object for ComputePipeline {
    type Raw = WGPUComputePipelineImpl;
    const NAME: &'static str = "WGPUComputePipeline";
    const HEADER_OFFSET: usize = std::mem::offset_of!(ComputePipeline, header);
}

impl Drop for ComputePipeline {
    fn drop(&mut self) {
        crate::ffi::boundary::in_drop("a compute pipeline", || self.device.global().compute_pipeline_drop(self.id));
    }
}

refcounted!(ComputePipeline, WGPUComputePipeline, wgpuComputePipelineAddRef, wgpuComputePipelineRelease);
set_label!(ComputePipeline, WGPUComputePipeline, wgpuComputePipelineSetLabel);

/// Reads a descriptor. The outer error is a synchronous rejection (NULL
/// module, wrong handle types, malformed arrays or strings); the inner one
/// a validation error (chains, non-finite or repeated constants, objects of
/// another instance).
///
/// # Safety
/// The descriptor's chains, strings, arrays and handles are valid.
unsafe fn read_descriptor<'a>(
    device: &Device,
    desc: &WGPUComputePipelineDescriptor,
    label: &'a str,
) -> ApiResult<Result<ComputePipelineDescriptor<'a>, String>> {
    let compute = &desc.compute;
    // SAFETY: the handles are NULL or live, the strings and array valid.
    let (layout, module, entry_point, raw_constants) = unsafe {
        (
            boundary::opt_arg::<PipelineLayout>(desc.layout, "layout")?,
            boundary::arg::<ShaderModule>(compute.module, "compute.module")?,
            boundary::str_arg(compute.entryPoint, "compute.entryPoint")?.into_option(),
            boundary::slice_arg(compute.constants, compute.constantCount, "compute.constants")?,
        )
    };
    let foreign =
        crate::objects::owner::same_instance(device, &**module, "compute.module").and_then(|()| match layout {
            Some(l) => crate::objects::owner::same_instance(device, &**l, "layout"),
            None => Ok(()),
        });
    if let Err(why) = foreign {
        return Ok(Err(why));
    }
    let mut keys = Vec::with_capacity(raw_constants.len());
    for (i, c) in raw_constants.iter().enumerate() {
        // SAFETY: the key view is valid (caller).
        keys.push((unsafe { boundary::label_arg(c.key, &format!("compute.constants[{i}].key")) }?, c.value));
    }
    // SAFETY: the chains are valid (caller).
    let chains = unsafe {
        chain_walk::expect_none(desc.nextInChain, "WGPUComputePipelineDescriptor")
            .and_then(|()| chain_walk::expect_none(compute.nextInChain, "WGPUComputeState"))
            .and_then(|()| {
                raw_constants.iter().try_for_each(|c| chain_walk::expect_none(c.nextInChain, "WGPUConstantEntry"))
            })
    };
    if let Err(why) = chains {
        return Ok(Err(crate::conv::chain_error(why)));
    }
    let constants = match crate::conv::pipeline::constants(keys.iter().map(|(k, v)| (k.as_str(), *v))) {
        Ok(constants) => constants,
        Err(why) => return Ok(Err(format!("compute.constants: {why}"))),
    };
    // The standard's limits on the workgroup, overrides applied, which
    // wgpu-core 30 leaves unchecked (`conv::stage_io`).
    if let Some(reflected) = module.wgsl.as_ref().and_then(|s| s.reflected()) {
        let checked =
            crate::conv::stage_io::check_compute(reflected, entry_point.as_deref(), &constants, &module.device.limits);
        let checked = checked.and_then(|()| {
            crate::conv::stage_io::check_storage_textures(
                reflected,
                wgpu_core::naga::ShaderStage::Compute,
                entry_point.as_deref(),
                device.features,
            )
        });
        if let Err(why) = checked {
            return Ok(Err(why));
        }
    }
    Ok(Ok(ComputePipelineDescriptor {
        label: crate::conv::label(label),
        layout: layout.map(|l| l.id),
        stage: ProgrammableStageDescriptor {
            module: module.id,
            entry_point: entry_point.map(|s| std::borrow::Cow::Owned(s.into_owned())),
            constants,
            zero_initialize_workgroup_memory: true,
        },
        cache: None,
    }))
}

/// What a compute pipeline's creation and layouts take from the steps all
/// pipelines share (`pipeline_common`).
impl crate::objects::pipeline_common::Kind for ComputePipeline {
    type Desc = WGPUComputePipelineDescriptor;
    type Core<'a> = ComputePipelineDescriptor<'a>;
    type Id = ComputePipelineId;
    type Error = CreateComputePipelineError;
    const READ: ReadFn<Self> = read_descriptor;
    const CREATE: CreateFn<Self> = Global::device_create_compute_pipeline;
    const INVALID: fn(&Global, DeviceId, &str) -> ComputePipelineId = crate::objects::invalid::compute_pipeline;
    const LAYOUT: LayoutFn<Self> = Global::compute_pipeline_get_bind_group_layout;

    fn new(device: Arc<Device>, id: ComputePipelineId, label: String) -> Self {
        ComputePipeline { header: Default::default(), device, id, label: Mutex::new(label) }
    }

    fn parts(&self) -> (&Arc<Device>, ComputePipelineId) {
        (&self.device, self.id)
    }
}

pipeline_exports! {
    ComputePipeline, "computePipeline";

    /// Creates a compute pipeline. `layout` NULL derives the layout from the
    /// shader; a null `entryPoint` picks the module's only compute entry point.
    /// Constants with non-finite values are validation errors. Errors are
    /// reported on the device and give an invalid pipeline.
    ///
    /// # Safety
    /// `device` is a live device; `descriptor` is NULL or points at a valid
    /// descriptor whose handles are live.
    pub unsafe extern "C" fn wgpuDeviceCreateComputePipeline(device: WGPUDevice, descriptor: *const WGPUComputePipelineDescriptor) -> WGPUComputePipeline;

    /// Creates a compute pipeline and completes the future at once (a
    /// CPU-timeline future): `Success` with a pipeline the application owns,
    /// or `ValidationError` / `InternalError` with NULL and a message. Errors
    /// go only to the callback, not to the device.
    ///
    /// # Safety
    /// As `wgpuDeviceCreateComputePipeline`; the callback info's chain is valid.
    pub unsafe extern "C" fn wgpuDeviceCreateComputePipelineAsync(device: WGPUDevice, descriptor: *const WGPUComputePipelineDescriptor, callback_info: WGPUCreateComputePipelineAsyncCallbackInfo) -> WGPUFuture;

    /// The bind group layout of group `group_index` of the pipeline (a new
    /// object). An index without a layout is a validation error and gives an
    /// invalid layout.
    ///
    /// # Safety
    /// `compute_pipeline` is a live pipeline.
    pub unsafe extern "C" fn wgpuComputePipelineGetBindGroupLayout(compute_pipeline: WGPUComputePipeline, group_index: u32) -> WGPUBindGroupLayout;
}
