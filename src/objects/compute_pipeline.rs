//! `WGPUComputePipeline`: synchronous and asynchronous creation, and the
//! bind group layouts of a pipeline.

use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::id::ComputePipelineId;
use wgpu_core::pipeline::{ComputePipelineDescriptor, CreateComputePipelineError, ProgrammableStageDescriptor};

use crate::abi::*;
use crate::ffi::boundary::{self, call, refcounted, set_label, ApiResult};
use crate::ffi::callback::{call_async, UserData};
use crate::ffi::chain_walk;
use crate::ffi::handle::{Handle, Object};
use crate::objects::device::Device;
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

/// Why a creation failed.
type Failure = crate::objects::pipeline_common::Failure<CreateComputePipelineError>;

/// Reads a descriptor. The outer error is a synchronous rejection (NULL
/// module, wrong handle types, malformed arrays or strings); the inner one
/// a validation error (chains, non-finite or repeated constants).
///
/// # Safety
/// The descriptor's chains, strings, arrays and handles are valid.
unsafe fn read_descriptor<'a>(
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

/// Creates the pipeline (an invalid one when `desc` is a validation error).
fn create(
    device: &Arc<Device>,
    label: String,
    desc: Result<ComputePipelineDescriptor<'_>, String>,
) -> (Arc<ComputePipeline>, Option<Failure>) {
    let global = device.global();
    let (id, failure) = match desc {
        Ok(desc) => {
            let (id, error) = global.device_create_compute_pipeline(device.id, &desc, None);
            (id, error.map(Failure::Core))
        }
        Err(why) => (crate::objects::invalid::compute_pipeline(global, device.id, &label), Some(Failure::Ours(why))),
    };
    (
        Arc::new(ComputePipeline { header: Default::default(), device: device.clone(), id, label: Mutex::new(label) }),
        failure,
    )
}

/// Creates a compute pipeline. `layout` NULL derives the layout from the
/// shader; a null `entryPoint` picks the module's only compute entry point.
/// Constants with non-finite values are validation errors. Errors are
/// reported on the device and give an invalid pipeline.
///
/// # Safety
/// `device` is a live device; `descriptor` is NULL or points at a valid
/// descriptor whose handles are live.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceCreateComputePipeline(
    device: WGPUDevice,
    descriptor: *const WGPUComputePipelineDescriptor,
) -> WGPUComputePipeline {
    call("wgpuDeviceCreateComputePipeline", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live device and NULL or a valid
        // descriptor.
        let (device, desc, label) = unsafe { crate::objects::pipeline_common::creation_args(device, descriptor) }?;
        // SAFETY: the descriptor's contents are valid (caller).
        let read = unsafe { read_descriptor(desc, &label) }?;
        let (pipeline, failure) = create(&device, label.clone(), read);
        if let Some(failure) = failure {
            failure.report(&device, "wgpuDeviceCreateComputePipeline");
        }
        Ok(Handle::into_raw(pipeline))
    })
}

/// Creates a compute pipeline and completes the future at once (a
/// CPU-timeline future): `Success` with a pipeline the application owns,
/// or `ValidationError` / `InternalError` with NULL and a message. Errors
/// go only to the callback, not to the device.
///
/// # Safety
/// As `wgpuDeviceCreateComputePipeline`; the callback info's chain is valid.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceCreateComputePipelineAsync(
    device: WGPUDevice,
    descriptor: *const WGPUComputePipelineDescriptor,
    callback_info: WGPUCreateComputePipelineAsyncCallbackInfo,
) -> WGPUFuture {
    call_async(
        "wgpuDeviceCreateComputePipelineAsync",
        || {
            crate::objects::pipeline_common::async_fail::<ComputePipeline>(
                callback_info.callback,
                UserData(callback_info.userdata1, callback_info.userdata2),
            )
        },
        |on_reject| {
            let info = crate::objects::pipeline_common::AsyncInfo {
                next: callback_info.nextInChain,
                mode: callback_info.mode,
                callback: callback_info.callback,
                userdata: UserData(callback_info.userdata1, callback_info.userdata2),
            };
            let build = |device: &Arc<Device>, desc: &WGPUComputePipelineDescriptor, label: &str| {
                // SAFETY: the descriptor's contents are valid (caller).
                let read = unsafe { read_descriptor(desc, label) }?;
                Ok(create(device, label.to_owned(), read))
            };
            // SAFETY: the C caller passes a live device.
            let device = unsafe { boundary::arg::<Device>(device, "device")? };
            // SAFETY: the C caller passes NULL or a valid descriptor and a
            // valid callback info chain.
            unsafe {
                crate::objects::pipeline_common::create_async(
                    on_reject,
                    "WGPUCreateComputePipelineAsyncCallbackInfo",
                    device,
                    descriptor,
                    info,
                    build,
                )
            }
        },
    )
}

/// The bind group layout of group `group_index` of the pipeline (a new
/// object). An index without a layout is a validation error and gives an
/// invalid layout.
///
/// # Safety
/// `compute_pipeline` is a live pipeline.
#[no_mangle]
pub unsafe extern "C" fn wgpuComputePipelineGetBindGroupLayout(
    compute_pipeline: WGPUComputePipeline,
    group_index: u32,
) -> WGPUBindGroupLayout {
    call("wgpuComputePipelineGetBindGroupLayout", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle.
        let pipeline = unsafe { boundary::arg::<ComputePipeline>(compute_pipeline, "computePipeline") }?;
        let device = &pipeline.device;
        let made = device.global().compute_pipeline_get_bind_group_layout(pipeline.id, group_index, None);
        Ok(crate::objects::pipeline_common::bind_group_layout(device, made))
    })
}
