//! Conversions for adapters and devices: features, limits, adapter info.

use wgpu_types as wgt;

use crate::abi::*;
use crate::ffi::boundary::ApiResult;
use crate::ffi::chain_walk::Chain;

/// The standard features and the wgpu features that provide them.
/// `CoreFeaturesAndLimits` has no wgpu flag: every device is a core device.
const FEATURES: &[(WGPUFeatureName, wgt::Features)] = &[
    (WGPUFeatureName::DepthClipControl, wgt::Features::DEPTH_CLIP_CONTROL),
    (WGPUFeatureName::Depth32FloatStencil8, wgt::Features::DEPTH32FLOAT_STENCIL8),
    (WGPUFeatureName::TextureCompressionBC, wgt::Features::TEXTURE_COMPRESSION_BC),
    (WGPUFeatureName::TextureCompressionBCSliced3D, wgt::Features::TEXTURE_COMPRESSION_BC_SLICED_3D),
    (WGPUFeatureName::TextureCompressionETC2, wgt::Features::TEXTURE_COMPRESSION_ETC2),
    (WGPUFeatureName::TextureCompressionASTC, wgt::Features::TEXTURE_COMPRESSION_ASTC),
    (WGPUFeatureName::TextureCompressionASTCSliced3D, wgt::Features::TEXTURE_COMPRESSION_ASTC_SLICED_3D),
    (WGPUFeatureName::TimestampQuery, wgt::Features::TIMESTAMP_QUERY),
    (WGPUFeatureName::IndirectFirstInstance, wgt::Features::INDIRECT_FIRST_INSTANCE),
    (WGPUFeatureName::ShaderF16, wgt::Features::SHADER_F16),
    (WGPUFeatureName::RG11B10UfloatRenderable, wgt::Features::RG11B10UFLOAT_RENDERABLE),
    (WGPUFeatureName::BGRA8UnormStorage, wgt::Features::BGRA8UNORM_STORAGE),
    (WGPUFeatureName::Float32Filterable, wgt::Features::FLOAT32_FILTERABLE),
    (WGPUFeatureName::Float32Blendable, wgt::Features::FLOAT32_BLENDABLE),
    (WGPUFeatureName::ClipDistances, wgt::Features::CLIP_DISTANCES),
    (WGPUFeatureName::DualSourceBlending, wgt::Features::DUAL_SOURCE_BLENDING),
    (WGPUFeatureName::Subgroups, wgt::Features::SUBGROUP),
    (WGPUFeatureName::PrimitiveIndex, wgt::Features::PRIMITIVE_INDEX),
];

/// The standard features and wgpu.h's native ones.
fn all_features() -> impl Iterator<Item = &'static (WGPUFeatureName, wgt::Features)> {
    FEATURES.iter().chain(crate::conv::native_chain::FEATURES)
}

/// The feature names (standard, then wgpu.h's) that `features` provides.
pub(crate) fn feature_names(features: wgt::Features) -> Vec<WGPUFeatureName> {
    let mut names = vec![WGPUFeatureName::CoreFeaturesAndLimits];
    names.extend(all_features().filter(|(_, f)| features.contains(*f)).map(|(n, _)| *n));
    names
}

/// Whether `features` provides the standard feature `name`.
pub(crate) fn has_feature(features: wgt::Features, name: WGPUFeatureName) -> bool {
    name == WGPUFeatureName::CoreFeaturesAndLimits || all_features().any(|(n, f)| *n == name && features.contains(*f))
}

/// The wgpu features for a list of required standard features; `Err` names
/// a feature that is unknown or that the adapter lacks.
pub(crate) fn required_features(names: &[WGPUFeatureName], available: wgt::Features) -> Result<wgt::Features, String> {
    let mut out = wgt::Features::empty();
    for &name in names {
        if name == WGPUFeatureName::CoreFeaturesAndLimits {
            continue;
        }
        match all_features().find(|(n, _)| *n == name) {
            Some((_, f)) if available.contains(*f) => out |= *f,
            // wgpu-core's wording, which bindings match (wgpu-py's tests do).
            Some(_) => {
                return Err(format!(
                    "Unsupported features were requested: {:#x} (the adapter does not have it)",
                    name.0
                ))
            }
            None => return Err(format!("feature {:#x} is not supported by this implementation", name.0)),
        }
    }
    Ok(out)
}

/// A reported maximum, kept off the "undefined" sentinel: some drivers
/// offer `u32::MAX` (NVIDIA's descriptors per set, hence wgpu-hal's
/// bindings per bind group), which C would read as
/// `WGPU_LIMIT_U32_UNDEFINED`.
fn defined<T: Bounded>(v: T) -> T {
    v.below_sentinel()
}

/// Limit types with an "undefined" sentinel at their maximum.
trait Bounded {
    fn below_sentinel(self) -> Self;
}

impl Bounded for u32 {
    fn below_sentinel(self) -> u32 {
        self.min(u32::MAX - 1)
    }
}

impl Bounded for u64 {
    fn below_sentinel(self) -> u64 {
        self.min(u64::MAX - 1)
    }
}

/// Writes `limits` into a C struct and the structs chained to it
/// (`WGPUCompatibilityModeLimits`, wgpu.h's `WGPUNativeLimits`); any other
/// link is refused before anything is written.
pub(crate) fn write_limits(out: &mut WGPULimits, l: &wgt::Limits) -> ApiResult<()> {
    // SAFETY: the chain was supplied by the caller of the exported function,
    // which promises a valid, writable chain; `out` is borrowed only for
    // its own fields below, not its links.
    unsafe {
        let chain = Chain::walk(out.nextInChain, "WGPULimits")?;
        if let Some(compat) = chain.get_mut::<WGPUCompatibilityModeLimits>(WGPUSType::CompatibilityModeLimits) {
            write_compat_limits(compat, l);
        }
        crate::conv::native_chain::write_native_limits(&chain, l);
    }
    out.maxTextureDimension1D = defined(l.max_texture_dimension_1d);
    out.maxTextureDimension2D = defined(l.max_texture_dimension_2d);
    out.maxTextureDimension3D = defined(l.max_texture_dimension_3d);
    out.maxTextureArrayLayers = defined(l.max_texture_array_layers);
    out.maxBindGroups = defined(l.max_bind_groups);
    out.maxBindGroupsPlusVertexBuffers = defined(l.max_bind_groups_plus_vertex_buffers);
    out.maxBindingsPerBindGroup = defined(l.max_bindings_per_bind_group);
    out.maxDynamicUniformBuffersPerPipelineLayout = defined(l.max_dynamic_uniform_buffers_per_pipeline_layout);
    out.maxDynamicStorageBuffersPerPipelineLayout = defined(l.max_dynamic_storage_buffers_per_pipeline_layout);
    out.maxSampledTexturesPerShaderStage = defined(l.max_sampled_textures_per_shader_stage);
    out.maxSamplersPerShaderStage = defined(l.max_samplers_per_shader_stage);
    out.maxStorageBuffersPerShaderStage = defined(l.max_storage_buffers_per_shader_stage);
    out.maxStorageTexturesPerShaderStage = defined(l.max_storage_textures_per_shader_stage);
    out.maxUniformBuffersPerShaderStage = defined(l.max_uniform_buffers_per_shader_stage);
    out.maxUniformBufferBindingSize = defined(l.max_uniform_buffer_binding_size);
    out.maxStorageBufferBindingSize = defined(l.max_storage_buffer_binding_size);
    out.minUniformBufferOffsetAlignment = l.min_uniform_buffer_offset_alignment;
    out.minStorageBufferOffsetAlignment = l.min_storage_buffer_offset_alignment;
    out.maxVertexBuffers = defined(l.max_vertex_buffers);
    out.maxBufferSize = defined(l.max_buffer_size);
    out.maxVertexAttributes = defined(l.max_vertex_attributes);
    out.maxVertexBufferArrayStride = defined(l.max_vertex_buffer_array_stride);
    out.maxInterStageShaderVariables = defined(l.max_inter_stage_shader_variables);
    out.maxColorAttachments = defined(l.max_color_attachments);
    out.maxColorAttachmentBytesPerSample = defined(l.max_color_attachment_bytes_per_sample);
    out.maxComputeWorkgroupStorageSize = defined(l.max_compute_workgroup_storage_size);
    out.maxComputeInvocationsPerWorkgroup = defined(l.max_compute_invocations_per_workgroup);
    out.maxComputeWorkgroupSizeX = defined(l.max_compute_workgroup_size_x);
    out.maxComputeWorkgroupSizeY = defined(l.max_compute_workgroup_size_y);
    out.maxComputeWorkgroupSizeZ = defined(l.max_compute_workgroup_size_z);
    out.maxComputeWorkgroupsPerDimension = defined(l.max_compute_workgroups_per_dimension);
    out.maxImmediateSize = defined(l.max_immediate_size);
    Ok(())
}

/// The compatibility-mode limits of a device with limits `l`. Every device
/// here is a core device, whose compatibility limits are its per-stage
/// ones (WebGPU spec, "Limits").
fn write_compat_limits(out: &mut WGPUCompatibilityModeLimits, l: &wgt::Limits) {
    out.maxStorageBuffersInVertexStage = defined(l.max_storage_buffers_per_shader_stage);
    out.maxStorageBuffersInFragmentStage = defined(l.max_storage_buffers_per_shader_stage);
    out.maxStorageTexturesInVertexStage = defined(l.max_storage_textures_per_shader_stage);
    out.maxStorageTexturesInFragmentStage = defined(l.max_storage_textures_per_shader_stage);
}

/// Applies a required `WGPUCompatibilityModeLimits` after the core limits:
/// a core device's compatibility limits are its per-stage limits, so each
/// defined value raises the per-stage limit it stands for to at least that
/// value; `Err` names one above the adapter's.
fn required_compat_limits(
    c: &WGPUCompatibilityModeLimits,
    adapter: &wgt::Limits,
    l: &mut wgt::Limits,
) -> Result<(), String> {
    let (buffers, textures) =
        (adapter.max_storage_buffers_per_shader_stage, adapter.max_storage_textures_per_shader_stage);
    for (name, req, is_buffer) in [
        ("maxStorageBuffersInVertexStage", c.maxStorageBuffersInVertexStage, true),
        ("maxStorageBuffersInFragmentStage", c.maxStorageBuffersInFragmentStage, true),
        ("maxStorageTexturesInVertexStage", c.maxStorageTexturesInVertexStage, false),
        ("maxStorageTexturesInFragmentStage", c.maxStorageTexturesInFragmentStage, false),
    ] {
        if req == WGPU_LIMIT_U32_UNDEFINED {
            continue;
        }
        let (have, out) = if is_buffer {
            (buffers, &mut l.max_storage_buffers_per_shader_stage)
        } else {
            (textures, &mut l.max_storage_textures_per_shader_stage)
        };
        if req > have {
            return Err(format!(
                "requiredLimits WGPUCompatibilityModeLimits.{name} = {req} is above the adapter's {have}"
            ));
        }
        *out = (*out).max(req);
    }
    Ok(())
}

/// The limits a device gets: the WebGPU defaults (no better than what the
/// adapter offers), each raised to the requested value where that is
/// better; a requested value worse than the default gives the default (the
/// WebGPU spec's requestDevice, as the CTS checks it), except under
/// wgpu-native compatibility, where every requested value is taken as given. `Err` names a
/// requested limit the adapter cannot meet or an alignment that is not a
/// power of two.
pub(crate) fn required_limits(req: Option<&WGPULimits>, adapter: &wgt::Limits) -> Result<wgt::Limits, String> {
    let mut l = wgt::Limits::default().or_worse_values_from(adapter);
    let Some(r) = req else { return Ok(l) };
    // SAFETY: the chain was supplied by the caller of the exported
    // function, which promises a valid chain.
    let chain = unsafe { Chain::walk(r.nextInChain, "WGPULimits") }.map_err(|r| format!("requiredLimits: {}", r.0))?;
    crate::conv::native_chain::required_native_limits(&chain, adapter, &mut l)?;
    // wgpu-native hands the requested values to wgpu-core as they are, worse
    // than the defaults included (wgpu-py tests a maxBufferSize of 100).
    let as_given = crate::compat::allows(crate::compat::Rule::RequiredLimitsAsGiven);
    macro_rules! max_u32 {
        ($($c:ident => $w:ident),* $(,)?) => {$(
            if r.$c != WGPU_LIMIT_U32_UNDEFINED {
                if r.$c > adapter.$w {
                    return Err(format!("requiredLimits.{} = {} is above the adapter's {}", stringify!($c), r.$c, adapter.$w));
                }
                l.$w = if as_given { r.$c } else { l.$w.max(r.$c) };
            }
        )*};
    }
    macro_rules! max_u64 {
        ($($c:ident => $w:ident),* $(,)?) => {$(
            if r.$c != WGPU_LIMIT_U64_UNDEFINED {
                if r.$c > adapter.$w {
                    return Err(format!("requiredLimits.{} = {} is above the adapter's {}", stringify!($c), r.$c, adapter.$w));
                }
                l.$w = if as_given { r.$c } else { l.$w.max(r.$c) };
            }
        )*};
    }
    macro_rules! align {
        ($($c:ident => $w:ident),* $(,)?) => {$(
            if r.$c != WGPU_LIMIT_U32_UNDEFINED {
                if !r.$c.is_power_of_two() || r.$c < adapter.$w {
                    return Err(format!("requiredLimits.{} = {} must be a power of two no smaller than the adapter's {}", stringify!($c), r.$c, adapter.$w));
                }
                // An alignment is better when smaller.
                l.$w = if as_given { r.$c } else { l.$w.min(r.$c) };
            }
        )*};
    }
    max_u32!(
        maxTextureDimension1D => max_texture_dimension_1d,
        maxTextureDimension2D => max_texture_dimension_2d,
        maxTextureDimension3D => max_texture_dimension_3d,
        maxTextureArrayLayers => max_texture_array_layers,
        maxBindGroups => max_bind_groups,
        maxBindGroupsPlusVertexBuffers => max_bind_groups_plus_vertex_buffers,
        maxBindingsPerBindGroup => max_bindings_per_bind_group,
        maxDynamicUniformBuffersPerPipelineLayout => max_dynamic_uniform_buffers_per_pipeline_layout,
        maxDynamicStorageBuffersPerPipelineLayout => max_dynamic_storage_buffers_per_pipeline_layout,
        maxSampledTexturesPerShaderStage => max_sampled_textures_per_shader_stage,
        maxSamplersPerShaderStage => max_samplers_per_shader_stage,
        maxStorageBuffersPerShaderStage => max_storage_buffers_per_shader_stage,
        maxStorageTexturesPerShaderStage => max_storage_textures_per_shader_stage,
        maxUniformBuffersPerShaderStage => max_uniform_buffers_per_shader_stage,
        maxVertexBuffers => max_vertex_buffers,
        maxVertexAttributes => max_vertex_attributes,
        maxVertexBufferArrayStride => max_vertex_buffer_array_stride,
        maxInterStageShaderVariables => max_inter_stage_shader_variables,
        maxColorAttachments => max_color_attachments,
        maxColorAttachmentBytesPerSample => max_color_attachment_bytes_per_sample,
        maxComputeWorkgroupStorageSize => max_compute_workgroup_storage_size,
        maxComputeInvocationsPerWorkgroup => max_compute_invocations_per_workgroup,
        maxComputeWorkgroupSizeX => max_compute_workgroup_size_x,
        maxComputeWorkgroupSizeY => max_compute_workgroup_size_y,
        maxComputeWorkgroupSizeZ => max_compute_workgroup_size_z,
        maxComputeWorkgroupsPerDimension => max_compute_workgroups_per_dimension,
        maxImmediateSize => max_immediate_size,
    );
    max_u64!(
        maxUniformBufferBindingSize => max_uniform_buffer_binding_size,
        maxStorageBufferBindingSize => max_storage_buffer_binding_size,
        maxBufferSize => max_buffer_size,
    );
    align!(
        minUniformBufferOffsetAlignment => min_uniform_buffer_offset_alignment,
        minStorageBufferOffsetAlignment => min_storage_buffer_offset_alignment,
    );
    // SAFETY: the sType names this struct.
    if let Some(compat) = unsafe { chain.get::<WGPUCompatibilityModeLimits>(WGPUSType::CompatibilityModeLimits) } {
        required_compat_limits(compat, adapter, &mut l)?;
    }
    Ok(l)
}

/// Output strings of an adapter info, owned by the application until
/// `wgpuAdapterInfoFreeMembers`.
fn owned_str(s: &str) -> WGPUStringView {
    let (length, data) = crate::ffi::array::into_raw(s.as_bytes().to_vec());
    WGPUStringView { data: data.cast(), length }
}

/// Frees a string made by [`owned_str`].
///
/// # Safety
/// `view` came from [`owned_str`] and was not freed before.
unsafe fn free_owned_str(view: WGPUStringView) {
    // SAFETY: the caller passes a string made by `owned_str`.
    unsafe { crate::ffi::array::free(view.data.cast::<u8>(), view.length) }
}

/// The backends this build has, as wgpu-native builds them: Vulkan
/// everywhere, OpenGL (EGL) on Linux and the other Unix systems, DX12 on
/// Windows, Metal on Apple systems.
pub(crate) const BUILT_BACKENDS: wgt::Backends = {
    let built = wgt::Backends::VULKAN;
    #[cfg(all(unix, not(target_vendor = "apple")))]
    let built = built.union(wgt::Backends::GL);
    #[cfg(windows)]
    let built = built.union(wgt::Backends::DX12);
    #[cfg(target_vendor = "apple")]
    let built = built.union(wgt::Backends::METAL);
    built
};

/// [`BUILT_BACKENDS`] by name, for messages.
pub(crate) fn built_backend_names() -> String {
    let names: Vec<&str> = [
        (wgt::Backends::VULKAN, "Vulkan"),
        (wgt::Backends::GL, "OpenGL"),
        (wgt::Backends::DX12, "D3D12"),
        (wgt::Backends::METAL, "Metal"),
    ]
    .into_iter()
    .filter(|(b, _)| BUILT_BACKENDS.contains(*b))
    .map(|(_, name)| name)
    .collect();
    names.join(", ")
}

/// The backends an adapter request's `backendType` allows: `Ok(None)` for
/// any, `Err(true)` for a backend this build lacks, `Err(false)` for a
/// value that is no backend type.
pub(crate) fn requested_backend(t: WGPUBackendType) -> Result<Option<wgt::Backends>, bool> {
    let wanted = match t {
        WGPUBackendType::Undefined => return Ok(None),
        WGPUBackendType::Vulkan => wgt::Backends::VULKAN,
        WGPUBackendType::D3D12 => wgt::Backends::DX12,
        WGPUBackendType::Metal => wgt::Backends::METAL,
        WGPUBackendType::OpenGL | WGPUBackendType::OpenGLES => wgt::Backends::GL,
        other if other.0 <= WGPUBackendType::OpenGLES.0 => return Err(true),
        _ => return Err(false),
    };
    if BUILT_BACKENDS.contains(wanted) {
        Ok(Some(wanted))
    } else {
        Err(true)
    }
}

/// Fills a C adapter info (its chain must be empty).
pub(crate) fn write_adapter_info(out: &mut WGPUAdapterInfo, info: &wgt::AdapterInfo) -> ApiResult<()> {
    // SAFETY: the caller of the exported function promises a valid chain.
    unsafe { crate::ffi::chain_walk::expect_none_out(out.nextInChain, "WGPUAdapterInfo") }?;
    // As wgpu-native reports them: the driver's name as the vendor (engines
    // recognise lavapipe by "llvmpipe"), its version string as the
    // description; a driver that names itself not falls back to the PCI
    // vendor's name.
    out.vendor = if info.driver.is_empty() { owned_str(&vendor_name(info.vendor)) } else { owned_str(&info.driver) };
    out.architecture = owned_str("");
    out.device = owned_str(&info.name);
    out.description = owned_str(&info.driver_info);
    out.backendType = match info.backend {
        wgt::Backend::Vulkan => WGPUBackendType::Vulkan,
        wgt::Backend::Metal => WGPUBackendType::Metal,
        wgt::Backend::Dx12 => WGPUBackendType::D3D12,
        wgt::Backend::Gl => WGPUBackendType::OpenGL,
        wgt::Backend::BrowserWebGpu => WGPUBackendType::WebGPU,
        wgt::Backend::Noop => WGPUBackendType::Null,
    };
    out.adapterType = match info.device_type {
        wgt::DeviceType::DiscreteGpu => WGPUAdapterType::DiscreteGPU,
        wgt::DeviceType::IntegratedGpu => WGPUAdapterType::IntegratedGPU,
        wgt::DeviceType::Cpu => WGPUAdapterType::CPU,
        wgt::DeviceType::VirtualGpu | wgt::DeviceType::Other => WGPUAdapterType::Unknown,
    };
    out.vendorID = info.vendor;
    out.deviceID = info.device;
    out.subgroupMinSize = info.subgroup_min_size;
    out.subgroupMaxSize = info.subgroup_max_size;
    Ok(())
}

/// Frees the strings of an adapter info this library filled.
///
/// # Safety
/// `info`'s strings came from [`write_adapter_info`].
pub(crate) unsafe fn free_adapter_info(info: &WGPUAdapterInfo) {
    // SAFETY: forwarded from the caller.
    unsafe {
        free_owned_str(info.vendor);
        free_owned_str(info.architecture);
        free_owned_str(info.device);
        free_owned_str(info.description);
    }
}

fn vendor_name(id: u32) -> String {
    match id {
        0x1002 => "amd".into(),
        0x10de => "nvidia".into(),
        0x8086 => "intel".into(),
        0x13b5 => "arm".into(),
        0x5143 => "qualcomm".into(),
        0x106b => "apple".into(),
        0x10005 => "mesa".into(),
        0 => String::new(),
        other => format!("{other:#06x}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_requests() {
        let adapter = wgt::Limits::default();
        assert!(required_limits(None, &adapter).is_ok());
        let mut req = WGPU_LIMITS_INIT;
        req.maxBindGroups = adapter.max_bind_groups + 1;
        assert!(required_limits(Some(&req), &adapter).is_err());
        // Worse than the default: the default (the CTS's rule).
        req.maxBindGroups = 2;
        assert_eq!(required_limits(Some(&req), &adapter).unwrap().max_bind_groups, 4);
        req.maxBindGroups = WGPU_LIMIT_U32_UNDEFINED;
        req.minUniformBufferOffsetAlignment = 1024;
        assert_eq!(required_limits(Some(&req), &adapter).unwrap().min_uniform_buffer_offset_alignment, 256);
        // Better than the default, within the adapter's: honoured.
        let big = wgt::Limits { max_bind_groups: 8, min_uniform_buffer_offset_alignment: 64, ..adapter.clone() };
        req.maxBindGroups = 6;
        req.minUniformBufferOffsetAlignment = 128;
        let got = required_limits(Some(&req), &big).unwrap();
        assert_eq!((got.max_bind_groups, got.min_uniform_buffer_offset_alignment), (6, 128));
        req.maxBindGroups = WGPU_LIMIT_U32_UNDEFINED;
        req.minUniformBufferOffsetAlignment = 3;
        assert!(required_limits(Some(&req), &adapter).is_err());
    }

    #[test]
    fn reported_limits_never_read_as_undefined() {
        let adapter =
            wgt::Limits { max_bindings_per_bind_group: u32::MAX, max_buffer_size: u64::MAX, ..wgt::Limits::default() };
        let mut out = WGPU_LIMITS_INIT;
        write_limits(&mut out, &adapter).unwrap();
        assert_eq!(out.maxBindingsPerBindGroup, u32::MAX - 1);
        assert_eq!(out.maxBufferSize, u64::MAX - 1);
        assert_eq!(out.maxBindGroups, adapter.max_bind_groups);
        // Handing the reported limits back as requirements works.
        assert_eq!(required_limits(Some(&out), &adapter).unwrap().max_bindings_per_bind_group, u32::MAX - 1);
    }

    #[test]
    fn features_round_trip() {
        let f = wgt::Features::SHADER_F16 | wgt::Features::TIMESTAMP_QUERY;
        let names = feature_names(f);
        assert!(names.contains(&WGPUFeatureName::CoreFeaturesAndLimits));
        assert_eq!(required_features(&names, f).unwrap(), f);
        assert!(required_features(&[WGPUFeatureName::Subgroups], f).is_err());
        assert!(has_feature(f, WGPUFeatureName::ShaderF16));
    }
}
