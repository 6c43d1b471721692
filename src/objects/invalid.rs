//! Invalid ("error") wgpu-core objects.
//!
//! When this library finds a validation error in a descriptor before
//! wgpu-core sees it, it reports the error itself and still returns an
//! object, an invalid one, so that everything that later uses it fails the
//! way WebGPU says (contagious invalidity). wgpu-core makes an invalid
//! object whenever a creation fails, and its `create_*_error` functions do
//! not hand back the id they make, so the functions here make each invalid
//! object by a creation that always fails; the error wgpu-core returns is
//! dropped, since the caller reports its own.

use std::borrow::Cow;

use wgpu_core::binding_model::{BindGroupDescriptor, BindGroupEntry, BindingResource, BufferBinding};
use wgpu_core::global::Global;
use wgpu_core::id::{
    BindGroupId, BindGroupLayoutId, BufferId, ComputePipelineId, DeviceId, PipelineLayoutId, RenderPipelineId,
    ShaderModuleId,
};
use wgpu_core::pipeline::{
    ComputePipelineDescriptor, ProgrammableStageDescriptor, RenderPipelineDescriptor, ShaderModuleDescriptor,
    ShaderModuleSource, VertexState,
};
use wgpu_types as wgt;

/// An invalid buffer id, dropped with the value.
pub(crate) struct ErrorBuffer<'a> {
    global: &'a Global,
    pub(crate) id: BufferId,
}

impl Drop for ErrorBuffer<'_> {
    fn drop(&mut self) {
        crate::ffi::boundary::in_drop("an invalid buffer", || self.global.buffer_drop(self.id));
    }
}

/// An invalid buffer: no usage and a size above every limit.
pub(crate) fn buffer(global: &Global, device: DeviceId) -> ErrorBuffer<'_> {
    let desc = wgt::BufferDescriptor {
        label: Some(Cow::Borrowed("invalid")),
        size: u64::MAX,
        usage: wgt::BufferUsages::empty(),
        mapped_at_creation: false,
    };
    let (id, _) = global.device_create_buffer(device, &desc, None);
    ErrorBuffer { global, id }
}

/// An invalid shader module (its WGSL does not parse).
pub(crate) fn shader_module(global: &Global, device: DeviceId, label: &str) -> ShaderModuleId {
    let desc = ShaderModuleDescriptor {
        label: crate::conv::label(label),
        runtime_checks: wgt::ShaderRuntimeChecks::checked(),
    };
    let (id, _) = global.device_create_shader_module(device, &desc, ShaderModuleSource::Wgsl(Cow::Borrowed("@")), None);
    id
}

/// An invalid bind group layout (two entries for one binding).
pub(crate) fn bind_group_layout(global: &Global, device: DeviceId, label: &str) -> BindGroupLayoutId {
    let entry = wgt::BindGroupLayoutEntry {
        binding: 0,
        visibility: wgt::ShaderStages::COMPUTE,
        ty: wgt::BindingType::Sampler(wgt::SamplerBindingType::Filtering),
        count: None,
    };
    let desc = wgpu_core::binding_model::BindGroupLayoutDescriptor {
        label: crate::conv::label(label),
        entries: Cow::Owned(vec![entry, entry]),
    };
    let (id, _) = global.device_create_bind_group_layout(device, &desc, None);
    id
}

/// An invalid pipeline layout (it uses an invalid bind group layout).
pub(crate) fn pipeline_layout(global: &Global, device: DeviceId, label: &str) -> PipelineLayoutId {
    let bgl = bind_group_layout(global, device, label);
    let desc = wgpu_core::binding_model::PipelineLayoutDescriptor {
        label: crate::conv::label(label),
        bind_group_layouts: Cow::Owned(vec![Some(bgl)]),
        immediate_size: 0,
    };
    let (id, _) = global.device_create_pipeline_layout(device, &desc, None);
    global.bind_group_layout_drop(bgl);
    id
}

/// An invalid bind group (its layout and its one buffer are invalid).
pub(crate) fn bind_group(global: &Global, device: DeviceId, label: &str) -> BindGroupId {
    let bgl = bind_group_layout(global, device, label);
    let buffer = buffer(global, device);
    let entry = BindGroupEntry {
        binding: 0,
        resource: BindingResource::Buffer(BufferBinding { buffer: buffer.id, offset: 0, size: None }),
    };
    let desc = BindGroupDescriptor { label: crate::conv::label(label), layout: bgl, entries: Cow::Owned(vec![entry]) };
    let (id, _) = global.device_create_bind_group(device, &desc, None);
    global.bind_group_layout_drop(bgl);
    id
}

/// An invalid compute pipeline (its shader module is invalid).
pub(crate) fn compute_pipeline(global: &Global, device: DeviceId, label: &str) -> ComputePipelineId {
    let module = shader_module(global, device, label);
    let desc = ComputePipelineDescriptor {
        label: crate::conv::label(label),
        layout: None,
        stage: ProgrammableStageDescriptor {
            module,
            entry_point: None,
            constants: Default::default(),
            zero_initialize_workgroup_memory: true,
        },
        cache: None,
    };
    let (id, _) = global.device_create_compute_pipeline(device, &desc, None);
    global.shader_module_drop(module);
    id
}

/// An invalid render pipeline (its shader module is invalid).
pub(crate) fn render_pipeline(global: &Global, device: DeviceId, label: &str) -> RenderPipelineId {
    let module = shader_module(global, device, label);
    let desc = RenderPipelineDescriptor {
        label: crate::conv::label(label),
        layout: None,
        vertex: VertexState {
            stage: ProgrammableStageDescriptor {
                module,
                entry_point: None,
                constants: Default::default(),
                zero_initialize_workgroup_memory: true,
            },
            buffers: Cow::Borrowed(&[]),
        },
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        fragment: None,
        multiview_mask: None,
        cache: None,
    };
    let (id, _) = global.device_create_render_pipeline(device, &desc, None);
    global.shader_module_drop(module);
    id
}
