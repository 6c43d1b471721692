//! `WGPURenderPipeline`: synchronous and asynchronous creation, and the
//! bind group layouts of a pipeline.
//!
//! The behaviour mirrors `compute_pipeline.rs`: errors of the synchronous
//! form go to the device and give an invalid pipeline; the asynchronous form
//! is a CPU-timeline future whose errors go only to its callback.

use std::borrow::Cow;
use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::global::Global;
use wgpu_core::id::{DeviceId, RenderPipelineId};
use wgpu_core::pipeline::{
    CreateRenderPipelineError, FragmentState, ProgrammableStageDescriptor, RenderPipelineDescriptor,
    VertexBufferLayout, VertexState,
};

use crate::abi::*;
use crate::conv::render as conv;
use crate::ffi::boundary::{self, refcounted, set_label, ApiResult};
use crate::ffi::chain_walk;
use crate::ffi::handle::Object;
use crate::objects::device::Device;
use crate::objects::pipeline_common::{pipeline_exports, CreateFn, LayoutFn, ReadFn};
use crate::objects::pipeline_layout::PipelineLayout;
use crate::objects::shader_module::ShaderModule;

/// A `WGPURenderPipeline`.
#[repr(C)]
pub(crate) struct RenderPipeline {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) device: Arc<Device>,
    pub(crate) id: RenderPipelineId,
    pub(crate) label: Mutex<String>,
}

impl Object for RenderPipeline {
    type Raw = WGPURenderPipelineImpl;
    const NAME: &'static str = "WGPURenderPipeline";
    const HEADER_OFFSET: usize = std::mem::offset_of!(RenderPipeline, header);
}

impl Drop for RenderPipeline {
    fn drop(&mut self) {
        crate::ffi::boundary::in_drop("a render pipeline", || self.device.global().render_pipeline_drop(self.id));
    }
}

refcounted!(RenderPipeline, WGPURenderPipeline, wgpuRenderPipelineAddRef, wgpuRenderPipelineRelease);
set_label!(RenderPipeline, WGPURenderPipeline, wgpuRenderPipelineSetLabel);

/// A descriptor read from C memory (everything owned but the label), or the
/// message of the validation error found while reading it.
type Read<'a> = Result<RenderPipelineDescriptor<'a>, String>;

/// Reads one programmable stage. Outer error: rejection; inner: validation.
///
/// # Safety
/// The handle is NULL or live; the string, array and chains are valid.
unsafe fn stage(
    module: WGPUShaderModule,
    entry_point: WGPUStringView,
    constants: *const WGPUConstantEntry,
    constant_count: usize,
    name: &str,
) -> ApiResult<Result<ProgrammableStageDescriptor<'static>, String>> {
    // SAFETY: forwarded from the caller.
    let (module, entry_point, raw) = unsafe {
        (
            boundary::arg::<ShaderModule>(module, &format!("{name}.module"))?,
            boundary::str_arg(entry_point, &format!("{name}.entryPoint"))?.into_option(),
            boundary::slice_arg(constants, constant_count, &format!("{name}.constants"))?,
        )
    };
    let mut keys = Vec::with_capacity(raw.len());
    for (i, c) in raw.iter().enumerate() {
        // SAFETY: the key view and chain are valid (caller).
        unsafe {
            keys.push((boundary::label_arg(c.key, &format!("{name}.constants[{i}].key"))?, c.value));
            if let Err(why) = chain_walk::expect_none(c.nextInChain, "WGPUConstantEntry") {
                return Ok(Err(crate::conv::chain_error(why)));
            }
        }
    }
    let constants = match crate::conv::pipeline::constants(keys.iter().map(|(k, v)| (k.as_str(), *v))) {
        Ok(constants) => constants,
        Err(why) => return Ok(Err(format!("{name}.constants: {why}"))),
    };
    Ok(Ok(ProgrammableStageDescriptor {
        module: module.id,
        entry_point: entry_point.map(|s| Cow::Owned(s.into_owned())),
        constants,
        zero_initialize_workgroup_memory: true,
    }))
}

/// Reads the vertex buffer layouts (unused slots are `None`).
///
/// # Safety
/// The arrays and chains are valid.
unsafe fn vertex_buffers(v: &WGPUVertexState) -> ApiResult<Result<Vec<Option<VertexBufferLayout<'static>>>, String>> {
    // SAFETY: the array is valid (caller).
    let raw = unsafe { boundary::slice_arg(v.buffers, v.bufferCount, "vertex.buffers") }?;
    let mut out = Vec::with_capacity(raw.len());
    for (i, b) in raw.iter().enumerate() {
        // SAFETY: the array and chains are valid (caller).
        let attrs = unsafe {
            if let Err(why) = chain_walk::expect_none(b.nextInChain, "WGPUVertexBufferLayout") {
                return Ok(Err(crate::conv::chain_error(why)));
            }
            boundary::slice_arg(b.attributes, b.attributeCount, &format!("vertex.buffers[{i}].attributes"))?
        };
        let step_mode = match conv::step_mode(b.stepMode, attrs.len()) {
            Ok(Some(m)) => m,
            Ok(None) => {
                out.push(None);
                continue;
            }
            Err(e) => return Ok(Err(format!("vertex.buffers[{i}].stepMode {e}"))),
        };
        let mut attributes = Vec::with_capacity(attrs.len());
        for (j, a) in attrs.iter().enumerate() {
            // SAFETY: the chain is valid (caller).
            if let Err(why) = unsafe { chain_walk::expect_none(a.nextInChain, "WGPUVertexAttribute") } {
                return Ok(Err(crate::conv::chain_error(why)));
            }
            let format = match conv::vertex_format(a.format) {
                Ok(f) => f,
                Err(e) => return Ok(Err(format!("vertex.buffers[{i}].attributes[{j}].format {e}"))),
            };
            attributes.push(wgpu_types::VertexAttribute {
                format,
                offset: a.offset,
                shader_location: a.shaderLocation,
            });
        }
        out.push(Some(VertexBufferLayout {
            array_stride: b.arrayStride,
            step_mode,
            attributes: Cow::Owned(attributes),
        }));
    }
    Ok(Ok(out))
}

/// Reads the fragment state.
///
/// # Safety
/// As [`read_descriptor`].
unsafe fn fragment(f: &WGPUFragmentState) -> ApiResult<Result<FragmentState<'static>, String>> {
    // SAFETY: the handles, strings, arrays and chains are valid (caller).
    let (stage, targets) = unsafe {
        if let Err(why) = chain_walk::expect_none(f.nextInChain, "WGPUFragmentState") {
            return Ok(Err(crate::conv::chain_error(why)));
        }
        (
            stage(f.module, f.entryPoint, f.constants, f.constantCount, "fragment")?,
            boundary::slice_arg(f.targets, f.targetCount, "fragment.targets")?,
        )
    };
    let stage = match stage {
        Ok(s) => s,
        Err(why) => return Ok(Err(why)),
    };
    let mut out = Vec::with_capacity(targets.len());
    for (i, t) in targets.iter().enumerate() {
        // SAFETY: the chain and the nullable blend pointer are valid (caller).
        let blend = unsafe {
            if let Err(why) = chain_walk::expect_none(t.nextInChain, "WGPUColorTargetState") {
                return Ok(Err(crate::conv::chain_error(why)));
            }
            t.blend.as_ref()
        };
        match conv::color_target(t, blend) {
            Ok(t) => out.push(t),
            Err(e) => return Ok(Err(format!("fragment.targets[{i}]: {e}"))),
        }
    }
    Ok(Ok(FragmentState { stage, targets: Cow::Owned(out) }))
}

/// Reads a descriptor. The outer error is a synchronous rejection (NULL
/// module, wrong handle types, malformed arrays or strings); the inner one
/// a validation error (chains, unknown enum values, non-finite values).
///
/// # Safety
/// The descriptor's chains, strings, arrays and handles are valid.
unsafe fn read_descriptor<'a>(
    device: &Device,
    desc: &WGPURenderPipelineDescriptor,
    label: &'a str,
) -> ApiResult<Read<'a>> {
    let v = &desc.vertex;
    // SAFETY: the handles, strings, arrays and chains are valid (caller).
    let (layout, vertex_stage, buffers, depth_stencil, fragment_state) = unsafe {
        let chains = chain_walk::expect_none(desc.nextInChain, "WGPURenderPipelineDescriptor")
            .and_then(|()| chain_walk::expect_none(v.nextInChain, "WGPUVertexState"))
            .and_then(|()| chain_walk::expect_none(desc.multisample.nextInChain, "WGPUMultisampleState"));
        if let Err(why) = chains {
            return Ok(Err(crate::conv::chain_error(why)));
        }
        let depth_stencil = desc.depthStencil.as_ref();
        if let Some(ds) = depth_stencil {
            if let Err(why) = chain_walk::expect_none(ds.nextInChain, "WGPUDepthStencilState") {
                return Ok(Err(crate::conv::chain_error(why)));
            }
        }
        (
            boundary::opt_arg::<PipelineLayout>(desc.layout, "layout")?,
            stage(v.module, v.entryPoint, v.constants, v.constantCount, "vertex")?,
            vertex_buffers(v)?,
            depth_stencil,
            match desc.fragment.as_ref() {
                Some(f) => Some(fragment(f)?),
                None => None,
            },
        )
    };
    let vertex_stage = match vertex_stage {
        Ok(s) => s,
        Err(why) => return Ok(Err(why)),
    };
    if let Some(layout) = layout {
        if let Err(why) = crate::objects::owner::same_instance(device, &**layout, "layout") {
            return Ok(Err(why));
        }
    }
    let buffers = match buffers {
        Ok(b) => b,
        Err(why) => return Ok(Err(why)),
    };
    let fragment_state = match fragment_state.transpose() {
        Ok(f) => f,
        Err(why) => return Ok(Err(why)),
    };
    let mut primitive = match conv::primitive(&desc.primitive) {
        Ok(p) => p,
        Err(why) => return Ok(Err(why)),
    };
    // SAFETY: the primitive state's chain is valid (caller).
    if let Err(why) = unsafe { crate::conv::native_extras::primitive_state(desc.primitive.nextInChain, &mut primitive) }
    {
        return Ok(Err(why));
    }
    let depth_stencil = match depth_stencil.map(conv::depth_stencil).transpose() {
        Ok(d) => d,
        Err(why) => return Ok(Err(why)),
    };
    let multisample = match conv::multisample(&desc.multisample) {
        Ok(m) => m,
        Err(why) => return Ok(Err(why)),
    };
    let core = RenderPipelineDescriptor {
        label: crate::conv::label(label),
        layout: layout.map(|l| l.id),
        vertex: VertexState { stage: vertex_stage, buffers: Cow::Owned(buffers) },
        primitive,
        depth_stencil,
        multisample,
        fragment: fragment_state,
        multiview_mask: None,
        cache: None,
    };
    // SAFETY: the module handles are live (read above).
    match unsafe { check_stages(device, desc, &core) }? {
        Ok(()) => Ok(Ok(core)),
        Err(why) => Ok(Err(why)),
    }
}

/// The checks of the stages that the standard makes and wgpu-core 30
/// leaves out (`conv::stage_io`), on WGSL modules: written colour targets
/// need fragment outputs (with alpha where they blend with it), alpha to
/// coverage excludes writing `sample_mask`, inter-stage types are equal,
/// each stage's constants fit its overrides; and a sample count of 1 or 4
/// (`conv::texture::check_sample_count`).
///
/// # Safety
/// The descriptor's module handles are live.
unsafe fn check_stages(
    device: &Device,
    desc: &WGPURenderPipelineDescriptor,
    core: &RenderPipelineDescriptor<'_>,
) -> ApiResult<Result<(), String>> {
    use crate::conv::stage_io::{
        check_constants, check_fragment, check_inter_stage, check_storage_textures, TargetUse,
    };
    use wgpu_core::naga::ShaderStage;
    // SAFETY: live handles (caller); the fragment pointer is NULL or valid.
    let (vertex, fragment) = unsafe {
        (
            boundary::arg::<ShaderModule>(desc.vertex.module, "vertex.module")?,
            match desc.fragment.as_ref() {
                Some(f) => Some(boundary::arg::<ShaderModule>(f.module, "fragment.module")?),
                None => None,
            },
        )
    };
    let owner = |m: &ShaderModule, what| crate::objects::owner::same_instance(device, m, what);
    let foreign =
        owner(vertex, "vertex.module").and_then(|()| fragment.map_or(Ok(()), |f| owner(f, "fragment.module")));
    if let Err(why) = foreign {
        return Ok(Err(why));
    }
    let count = core.multisample.count;
    if let Err(why) = crate::conv::texture::check_sample_count(count, None, device.features) {
        return Ok(Err(format!("multisample: {why}")));
    }
    let vert = vertex.wgsl.as_ref().and_then(|s| s.reflected());
    if let Some(vert) = vert {
        let stage = &core.vertex.stage;
        let entry = stage.entry_point.as_deref();
        let checked = check_constants(vert, ShaderStage::Vertex, entry, &stage.constants)
            .and_then(|()| check_storage_textures(vert, ShaderStage::Vertex, entry, device.features));
        if let Err(why) = checked {
            return Ok(Err(why));
        }
    }
    let (Some(fragment), Some(state)) = (fragment, core.fragment.as_ref()) else { return Ok(Ok(())) };
    let Some(frag) = fragment.wgsl.as_ref().and_then(|s| s.reflected()) else { return Ok(Ok(())) };
    let fs_entry = state.stage.entry_point.as_deref();
    let checked = check_constants(frag, ShaderStage::Fragment, fs_entry, &state.stage.constants)
        .and_then(|()| check_storage_textures(frag, ShaderStage::Fragment, fs_entry, device.features));
    if let Err(why) = checked {
        return Ok(Err(why));
    }
    let reads_src_alpha = |b: &wgpu_types::BlendComponent| {
        use wgpu_types::BlendFactor as F;
        [b.src_factor, b.dst_factor]
            .iter()
            .any(|f| matches!(f, F::SrcAlpha | F::OneMinusSrcAlpha | F::SrcAlphaSaturated))
    };
    let targets: Vec<TargetUse> = state
        .targets
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            let t = t.as_ref()?;
            Some(TargetUse {
                location: i as u32,
                written: !t.write_mask.is_empty(),
                blends_src_alpha: t.blend.is_some_and(|b| reads_src_alpha(&b.color)),
            })
        })
        .collect();
    if let Err(why) = check_fragment(frag, fs_entry, &targets, core.multisample.alpha_to_coverage_enabled) {
        return Ok(Err(why));
    }
    if let Some(vert) = vert {
        if let Err(why) = check_inter_stage(vert, core.vertex.stage.entry_point.as_deref(), frag, fs_entry) {
            return Ok(Err(why));
        }
    }
    Ok(Ok(()))
}

/// What a render pipeline's creation and layouts take from the steps all
/// pipelines share (`pipeline_common`).
impl crate::objects::pipeline_common::Kind for RenderPipeline {
    type Desc = WGPURenderPipelineDescriptor;
    type Core<'a> = RenderPipelineDescriptor<'a>;
    type Id = RenderPipelineId;
    type Error = CreateRenderPipelineError;
    const READ: ReadFn<Self> = read_descriptor;
    const CREATE: CreateFn<Self> = Global::device_create_render_pipeline;
    const INVALID: fn(&Global, DeviceId, &str) -> RenderPipelineId = crate::objects::invalid::render_pipeline;
    const LAYOUT: LayoutFn<Self> = Global::render_pipeline_get_bind_group_layout;

    fn new(device: Arc<Device>, id: RenderPipelineId, label: String) -> Self {
        RenderPipeline { header: Default::default(), device, id, label: Mutex::new(label) }
    }

    fn parts(&self) -> (&Arc<Device>, RenderPipelineId) {
        (&self.device, self.id)
    }
}

pipeline_exports! {
    RenderPipeline, "renderPipeline";

    /// Creates a render pipeline. `layout` NULL derives the layout from the
    /// shaders; a null `entryPoint` picks the module's only entry point of the
    /// stage. `Undefined` enum values take the header's defaults; a color
    /// target with format `Undefined` is a hole; a vertex buffer layout with
    /// step mode `Undefined` and no attributes is an unused slot. The primitive
    /// state may chain wgpu.h's `WGPUPrimitiveStateExtras` (polygon mode,
    /// conservative rasterization). Errors are reported on the device and give
    /// an invalid pipeline.
    ///
    /// # Safety
    /// `device` is a live device; `descriptor` is NULL or points at a valid
    /// descriptor whose handles are live.
    pub unsafe extern "C" fn wgpuDeviceCreateRenderPipeline(device: WGPUDevice, descriptor: *const WGPURenderPipelineDescriptor) -> WGPURenderPipeline;

    /// Creates a render pipeline and completes the future at once (a
    /// CPU-timeline future): `Success` with a pipeline the application owns,
    /// or `ValidationError` / `InternalError` with NULL and a message. Errors
    /// go only to the callback, not to the device.
    ///
    /// # Safety
    /// As `wgpuDeviceCreateRenderPipeline`; the callback info's chain is valid.
    pub unsafe extern "C" fn wgpuDeviceCreateRenderPipelineAsync(device: WGPUDevice, descriptor: *const WGPURenderPipelineDescriptor, callback_info: WGPUCreateRenderPipelineAsyncCallbackInfo) -> WGPUFuture;

    /// The bind group layout of group `group_index` of the pipeline (a new
    /// object). An index without a layout is a validation error and gives an
    /// invalid layout.
    ///
    /// # Safety
    /// `render_pipeline` is a live pipeline.
    pub unsafe extern "C" fn wgpuRenderPipelineGetBindGroupLayout(render_pipeline: WGPURenderPipeline, group_index: u32) -> WGPUBindGroupLayout;
}
