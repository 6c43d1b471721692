//! wgpu.h's chained structs and enum values, as the standard entry points
//! read them: instance extras, device extras, native limits, native
//! features and pipeline-statistics query sets.
//!
//! The standard code calls these helpers where it walks the chain of the
//! struct they extend, so an sType of wgpu.h is accepted exactly where
//! wgpu-native accepts it.

#![allow(non_upper_case_globals)]

use wgpu_types as wgt;

use crate::abi::native::*;
use crate::abi::{WGPUChainedStruct, WGPUFeatureName, WGPUQueryType, WGPUSType, WGPU_LIMIT_U32_UNDEFINED};
use crate::ffi::boundary::{self, ApiResult};
use crate::ffi::chain_walk::Chain;

/// wgpu-native's extra feature names and the wgpu features behind them.
pub(crate) const FEATURES: &[(WGPUFeatureName, wgt::Features)] = &[
    (WGPUFeatureName(WGPUNativeFeature_Immediates), wgt::Features::IMMEDIATES),
    (
        WGPUFeatureName(WGPUNativeFeature_TextureAdapterSpecificFormatFeatures),
        wgt::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES,
    ),
    (WGPUFeatureName(WGPUNativeFeature_MultiDrawIndirectCount), wgt::Features::MULTI_DRAW_INDIRECT_COUNT),
    (WGPUFeatureName(WGPUNativeFeature_VertexWritableStorage), wgt::Features::VERTEX_WRITABLE_STORAGE),
    (WGPUFeatureName(WGPUNativeFeature_TextureBindingArray), wgt::Features::TEXTURE_BINDING_ARRAY),
    (
        WGPUFeatureName(WGPUNativeFeature_SampledTextureAndStorageBufferArrayNonUniformIndexing),
        wgt::Features::SAMPLED_TEXTURE_AND_STORAGE_BUFFER_ARRAY_NON_UNIFORM_INDEXING,
    ),
    (WGPUFeatureName(WGPUNativeFeature_PipelineStatisticsQuery), wgt::Features::PIPELINE_STATISTICS_QUERY),
    (WGPUFeatureName(WGPUNativeFeature_StorageResourceBindingArray), wgt::Features::STORAGE_RESOURCE_BINDING_ARRAY),
    (WGPUFeatureName(WGPUNativeFeature_PartiallyBoundBindingArray), wgt::Features::PARTIALLY_BOUND_BINDING_ARRAY),
    (WGPUFeatureName(WGPUNativeFeature_TextureFormat16bitNorm), wgt::Features::TEXTURE_FORMAT_16BIT_NORM),
    (WGPUFeatureName(WGPUNativeFeature_TextureCompressionAstcHdr), wgt::Features::TEXTURE_COMPRESSION_ASTC_HDR),
    (WGPUFeatureName(WGPUNativeFeature_MappablePrimaryBuffers), wgt::Features::MAPPABLE_PRIMARY_BUFFERS),
    (WGPUFeatureName(WGPUNativeFeature_BufferBindingArray), wgt::Features::BUFFER_BINDING_ARRAY),
    (
        WGPUFeatureName(WGPUNativeFeature_StorageTextureArrayNonUniformIndexing),
        wgt::Features::STORAGE_TEXTURE_ARRAY_NON_UNIFORM_INDEXING,
    ),
    (WGPUFeatureName(WGPUNativeFeature_AddressModeClampToZero), wgt::Features::ADDRESS_MODE_CLAMP_TO_ZERO),
    (WGPUFeatureName(WGPUNativeFeature_AddressModeClampToBorder), wgt::Features::ADDRESS_MODE_CLAMP_TO_BORDER),
    (WGPUFeatureName(WGPUNativeFeature_PolygonModeLine), wgt::Features::POLYGON_MODE_LINE),
    (WGPUFeatureName(WGPUNativeFeature_PolygonModePoint), wgt::Features::POLYGON_MODE_POINT),
    (WGPUFeatureName(WGPUNativeFeature_ConservativeRasterization), wgt::Features::CONSERVATIVE_RASTERIZATION),
    (WGPUFeatureName(WGPUNativeFeature_ClearTexture), wgt::Features::CLEAR_TEXTURE),
    (WGPUFeatureName(WGPUNativeFeature_Multiview), wgt::Features::MULTIVIEW),
    (WGPUFeatureName(WGPUNativeFeature_VertexAttribute64bit), wgt::Features::VERTEX_ATTRIBUTE_64BIT),
    (WGPUFeatureName(WGPUNativeFeature_TextureFormatNv12), wgt::Features::TEXTURE_FORMAT_NV12),
    (WGPUFeatureName(WGPUNativeFeature_RayQuery), wgt::Features::EXPERIMENTAL_RAY_QUERY),
    (WGPUFeatureName(WGPUNativeFeature_ShaderF64), wgt::Features::SHADER_F64),
    (WGPUFeatureName(WGPUNativeFeature_ShaderI16), wgt::Features::SHADER_I16),
    (WGPUFeatureName(WGPUNativeFeature_ShaderEarlyDepthTest), wgt::Features::SHADER_EARLY_DEPTH_TEST),
    (WGPUFeatureName(WGPUNativeFeature_Subgroup), wgt::Features::SUBGROUP),
    (WGPUFeatureName(WGPUNativeFeature_SubgroupVertex), wgt::Features::SUBGROUP_VERTEX),
    (WGPUFeatureName(WGPUNativeFeature_SubgroupBarrier), wgt::Features::SUBGROUP_BARRIER),
    (WGPUFeatureName(WGPUNativeFeature_TimestampQueryInsideEncoders), wgt::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS),
    (WGPUFeatureName(WGPUNativeFeature_TimestampQueryInsidePasses), wgt::Features::TIMESTAMP_QUERY_INSIDE_PASSES),
    (WGPUFeatureName(WGPUNativeFeature_ShaderInt64), wgt::Features::SHADER_INT64),
    (WGPUFeatureName(WGPUNativeFeature_ShaderFloat32Atomic), wgt::Features::SHADER_FLOAT32_ATOMIC),
    (WGPUFeatureName(WGPUNativeFeature_TextureAtomic), wgt::Features::TEXTURE_ATOMIC),
    (WGPUFeatureName(WGPUNativeFeature_TextureFormatP010), wgt::Features::TEXTURE_FORMAT_P010),
    (WGPUFeatureName(WGPUNativeFeature_PipelineCache), wgt::Features::PIPELINE_CACHE),
    (WGPUFeatureName(WGPUNativeFeature_ShaderInt64AtomicMinMax), wgt::Features::SHADER_INT64_ATOMIC_MIN_MAX),
    (WGPUFeatureName(WGPUNativeFeature_ShaderInt64AtomicAllOps), wgt::Features::SHADER_INT64_ATOMIC_ALL_OPS),
    (WGPUFeatureName(WGPUNativeFeature_TextureInt64Atomic), wgt::Features::TEXTURE_INT64_ATOMIC),
    (WGPUFeatureName(WGPUNativeFeature_ShaderBarycentrics), wgt::Features::SHADER_BARYCENTRICS),
    (WGPUFeatureName(WGPUNativeFeature_SelectiveMultiview), wgt::Features::SELECTIVE_MULTIVIEW),
    (WGPUFeatureName(WGPUNativeFeature_MultisampleArray), wgt::Features::MULTISAMPLE_ARRAY),
    (WGPUFeatureName(WGPUNativeFeature_CooperativeMatrix), wgt::Features::EXPERIMENTAL_COOPERATIVE_MATRIX),
    (WGPUFeatureName(WGPUNativeFeature_ShaderPerVertex), wgt::Features::SHADER_PER_VERTEX),
    (WGPUFeatureName(WGPUNativeFeature_ShaderDrawIndex), wgt::Features::SHADER_DRAW_INDEX),
    (
        WGPUFeatureName(WGPUNativeFeature_AccelerationStructureBindingArray),
        wgt::Features::ACCELERATION_STRUCTURE_BINDING_ARRAY,
    ),
    (WGPUFeatureName(WGPUNativeFeature_MemoryDecorationCoherent), wgt::Features::MEMORY_DECORATION_COHERENT),
    (WGPUFeatureName(WGPUNativeFeature_MemoryDecorationVolatile), wgt::Features::MEMORY_DECORATION_VOLATILE),
];

/// The wgpu backends of a `WGPUInstanceBackend` mask (0: all).
pub(crate) fn backends(mask: WGPUInstanceBackend) -> wgt::Backends {
    if mask == WGPUInstanceBackend_All {
        return wgt::Backends::all();
    }
    let mut out = wgt::Backends::empty();
    for (bit, backend) in [
        (WGPUInstanceBackend_Vulkan, wgt::Backends::VULKAN),
        (WGPUInstanceBackend_GL, wgt::Backends::GL),
        (WGPUInstanceBackend_Metal, wgt::Backends::METAL),
        (WGPUInstanceBackend_DX12, wgt::Backends::DX12),
        (WGPUInstanceBackend_BrowserWebGPU, wgt::Backends::BROWSER_WEBGPU),
    ] {
        if mask & bit != 0 {
            out |= backend;
        }
    }
    out
}

/// The wgpu instance flags of a `WGPUInstanceFlag` mask: `Default` alone is
/// the build's defaults, `Debugging`/`AdvancedDebugging` the presets, and
/// `WithEnv` also applies the `WGPU_*` environment variables.
fn instance_flags(mask: WGPUInstanceFlag) -> wgt::InstanceFlags {
    let mut flags = wgt::InstanceFlags::empty();
    for (bit, flag) in [
        (WGPUInstanceFlag_Debug, wgt::InstanceFlags::DEBUG),
        (WGPUInstanceFlag_Validation, wgt::InstanceFlags::VALIDATION),
        (WGPUInstanceFlag_DiscardHalLabels, wgt::InstanceFlags::DISCARD_HAL_LABELS),
        (
            WGPUInstanceFlag_AllowUnderlyingNoncompliantAdapter,
            wgt::InstanceFlags::ALLOW_UNDERLYING_NONCOMPLIANT_ADAPTER,
        ),
        (WGPUInstanceFlag_GPUBasedValidation, wgt::InstanceFlags::GPU_BASED_VALIDATION),
        (WGPUInstanceFlag_ValidationIndirectCall, wgt::InstanceFlags::VALIDATION_INDIRECT_CALL),
        (WGPUInstanceFlag_AutomaticTimestampNormalization, wgt::InstanceFlags::AUTOMATIC_TIMESTAMP_NORMALIZATION),
    ] {
        if mask & bit != 0 {
            flags |= flag;
        }
    }
    if mask & WGPUInstanceFlag_Default != 0 {
        flags |= wgt::InstanceFlags::from_build_config();
    }
    if mask & WGPUInstanceFlag_Debugging != 0 {
        flags |= wgt::InstanceFlags::debugging();
    }
    if mask & WGPUInstanceFlag_AdvancedDebugging != 0 {
        flags |= wgt::InstanceFlags::advanced_debugging();
    }
    if mask & WGPUInstanceFlag_WithEnv != 0 {
        flags = flags.with_env();
    }
    flags
}

/// Applies a `WGPUInstanceExtras` chained to an instance descriptor to
/// `desc`: its backends (a mask without any backend of this build leaves
/// the instance without adapters, logged), flags (0: unchanged), the GL
/// options and the display connection (used by the GL backend: EGL picks
/// its platform, X11 or Wayland, from it, so GL surfaces need it). The
/// DirectX and memory budget options are ignored (logged at debug level).
/// Rejects any other chained struct, and GL options or a display handle
/// that name no valid value.
///
/// # Safety
/// The chain is valid.
pub(crate) unsafe fn instance_extras(
    next: *const WGPUChainedStruct,
    desc: &mut wgt::InstanceDescriptor,
) -> ApiResult<()> {
    // SAFETY: the chain is valid (caller).
    let chain = unsafe { Chain::walk(next, "WGPUInstanceDescriptor") }?;
    // SAFETY: the sType names this struct.
    let Some(extras) = (unsafe { chain.get::<WGPUInstanceExtras>(WGPUSType(WGPUSType_InstanceExtras)) }) else {
        return Ok(());
    };
    desc.backends = backends(extras.backends) & crate::conv::device::BUILT_BACKENDS;
    if extras.backends != WGPUInstanceBackend_All && desc.backends.is_empty() {
        log::warn!(target: "wgpu_shim", "WGPUInstanceExtras.backends {:#x} excludes every backend of this build ({}): the instance has no adapters", extras.backends, crate::conv::device::built_backend_names());
    }
    if extras.flags != WGPUInstanceFlag_Empty {
        desc.flags = instance_flags(extras.flags);
    }
    desc.backend_options.gl.gles_minor_version = match extras.gles3MinorVersion {
        WGPUGles3MinorVersion_Automatic => wgt::Gles3MinorVersion::Automatic,
        WGPUGles3MinorVersion_Version0 => wgt::Gles3MinorVersion::Version0,
        WGPUGles3MinorVersion_Version1 => wgt::Gles3MinorVersion::Version1,
        WGPUGles3MinorVersion_Version2 => wgt::Gles3MinorVersion::Version2,
        other => {
            return Err(boundary::reject!(
                "WGPUInstanceExtras.gles3MinorVersion {other:#x} is no WGPUGles3MinorVersion"
            ))
        }
    };
    desc.backend_options.gl.fence_behavior = match extras.glFenceBehaviour {
        WGPUGLFenceBehaviour_Normal => wgt::GlFenceBehavior::Normal,
        WGPUGLFenceBehaviour_AutoFinish => wgt::GlFenceBehavior::AutoFinish,
        other => {
            return Err(boundary::reject!("WGPUInstanceExtras.glFenceBehaviour {other:#x} is no WGPUGLFenceBehaviour"))
        }
    };
    if let Some(display) = display_handle(&extras.displayHandle)? {
        desc.display = Some(Box::new(display));
    }
    log::debug!(target: "wgpu_shim", "WGPUInstanceExtras: the DirectX 12 and memory budget options do not apply to this build and are ignored");
    Ok(())
}

/// A display connection the application owns, handed to wgpu-hal's GL
/// backend (EGL chooses its platform from it).
#[derive(Debug)]
pub(crate) struct AppDisplay(raw_window_handle::RawDisplayHandle);

// SAFETY: the handle is plain data (a pointer to the application's display
// connection, which the application keeps open while the instance lives,
// as wgpu-native requires); wgpu-hal only hands it to EGL.
unsafe impl Send for AppDisplay {}
// SAFETY: as above.
unsafe impl Sync for AppDisplay {}

impl raw_window_handle::HasDisplayHandle for AppDisplay {
    fn display_handle(&self) -> Result<raw_window_handle::DisplayHandle<'_>, raw_window_handle::HandleError> {
        // SAFETY: the application keeps its display open while the instance
        // lives (the contract of WGPUInstanceExtras.displayHandle).
        Ok(unsafe { raw_window_handle::DisplayHandle::borrow_raw(self.0) })
    }
}

/// The display connection of `WGPUInstanceExtras.displayHandle`: `None` for
/// `WGPUNativeDisplayHandleType_None`; an error for an unknown type or a
/// Wayland handle without a display.
fn display_handle(handle: &WGPUNativeDisplayHandle) -> ApiResult<Option<AppDisplay>> {
    use raw_window_handle as rwh;
    use std::ptr::NonNull;
    let raw = match handle.r#type {
        WGPUNativeDisplayHandleType_None => return Ok(None),
        WGPUNativeDisplayHandleType_Xlib => {
            // SAFETY: the type says which member the application set.
            let h = unsafe { handle.data.xlib };
            rwh::RawDisplayHandle::Xlib(rwh::XlibDisplayHandle::new(NonNull::new(h.display), h.screen))
        }
        WGPUNativeDisplayHandleType_Xcb => {
            // SAFETY: as above.
            let h = unsafe { handle.data.xcb };
            rwh::RawDisplayHandle::Xcb(rwh::XcbDisplayHandle::new(NonNull::new(h.connection), h.screen))
        }
        WGPUNativeDisplayHandleType_Wayland => {
            // SAFETY: as above.
            let h = unsafe { handle.data.wayland };
            let display = NonNull::new(h.display).ok_or_else(|| {
                boundary::reject!("WGPUInstanceExtras.displayHandle: a Wayland handle with a NULL display")
            })?;
            rwh::RawDisplayHandle::Wayland(rwh::WaylandDisplayHandle::new(display))
        }
        other => {
            return Err(boundary::reject!(
                "WGPUInstanceExtras.displayHandle.type {other:#x} is no WGPUNativeDisplayHandleType"
            ))
        }
    };
    if !crate::conv::device::BUILT_BACKENDS.contains(wgt::Backends::GL) {
        log::debug!(target: "wgpu_shim", "WGPUInstanceExtras.displayHandle: only the GL backend uses it, and this build has none");
    }
    Ok(Some(AppDisplay(raw)))
}

/// Reads a `WGPUDeviceExtras` chained to a device descriptor: API tracing
/// is not in this build, so a trace path is logged and ignored. Rejects any
/// other chained struct.
///
/// # Safety
/// The chain and the path's string view are valid.
pub(crate) unsafe fn device_extras(next: *const WGPUChainedStruct) -> ApiResult<()> {
    // SAFETY: the chain is valid (caller).
    let chain = unsafe { Chain::walk(next, "WGPUDeviceDescriptor") }?;
    // SAFETY: the sType names this struct.
    if let Some(extras) = unsafe { chain.get::<WGPUDeviceExtras>(WGPUSType(WGPUSType_DeviceExtras)) } {
        // SAFETY: the view is valid (caller).
        let path = unsafe { boundary::str_arg(extras.tracePath, "tracePath") }?.into_option();
        if let Some(path) = path.filter(|p| !p.is_empty()) {
            log::error!(target: "wgpu_shim", "WGPUDeviceExtras.tracePath {path:?}: API tracing is not available in this build; the device is created without a trace");
        }
    }
    Ok(())
}

/// Writes the native limits into a `WGPUNativeLimits` in the (validated)
/// chain of an output `WGPULimits`, if it has one.
///
/// # Safety
/// The chain's links are writable and not otherwise in use.
pub(crate) unsafe fn write_native_limits(chain: &Chain, l: &wgt::Limits) {
    // SAFETY: the sType names this struct; the link is writable (caller).
    if let Some(out) = unsafe { chain.get_mut::<WGPUNativeLimits>(WGPUSType(WGPUSType_NativeLimits)) } {
        out.maxNonSamplerBindings = l.max_non_sampler_bindings.min(u32::MAX - 1);
        out.maxBindingArrayElementsPerShaderStage = l.max_binding_array_elements_per_shader_stage.min(u32::MAX - 1);
        out.maxBindingArraySamplerElementsPerShaderStage =
            l.max_binding_array_sampler_elements_per_shader_stage.min(u32::MAX - 1);
        out.maxMultiviewViewCount = l.max_multiview_view_count.min(u32::MAX - 1);
    }
}

/// Applies a `WGPUNativeLimits` in the (validated) chain of required limits:
/// each value not `WGPU_LIMIT_U32_UNDEFINED` raises the default to it (one
/// worse than the default leaves the default, as for the standard limits);
/// `Err` names a value above the adapter's.
pub(crate) fn required_native_limits(chain: &Chain, adapter: &wgt::Limits, l: &mut wgt::Limits) -> Result<(), String> {
    // SAFETY: the sType names this struct.
    let Some(native) = (unsafe { chain.get::<WGPUNativeLimits>(WGPUSType(WGPUSType_NativeLimits)) }) else {
        return Ok(());
    };
    for (name, req, have, out) in [
        (
            "maxNonSamplerBindings",
            native.maxNonSamplerBindings,
            adapter.max_non_sampler_bindings,
            &mut l.max_non_sampler_bindings,
        ),
        (
            "maxBindingArrayElementsPerShaderStage",
            native.maxBindingArrayElementsPerShaderStage,
            adapter.max_binding_array_elements_per_shader_stage,
            &mut l.max_binding_array_elements_per_shader_stage,
        ),
        (
            "maxBindingArraySamplerElementsPerShaderStage",
            native.maxBindingArraySamplerElementsPerShaderStage,
            adapter.max_binding_array_sampler_elements_per_shader_stage,
            &mut l.max_binding_array_sampler_elements_per_shader_stage,
        ),
        (
            "maxMultiviewViewCount",
            native.maxMultiviewViewCount,
            adapter.max_multiview_view_count,
            &mut l.max_multiview_view_count,
        ),
    ] {
        if req == WGPU_LIMIT_U32_UNDEFINED {
            continue;
        }
        if req > have {
            return Err(format!("requiredLimits WGPUNativeLimits.{name} = {req} is above the adapter's {have}"));
        }
        *out = (*out).max(req);
    }
    Ok(())
}

/// The query type of a query set descriptor whose chain may hold a
/// `WGPUQuerySetDescriptorExtras`: `WGPUNativeQueryType_PipelineStatistics`
/// needs it (what to count); the standard types must not have it. The
/// outer error rejects malformed memory; the inner one is a validation
/// error message.
///
/// # Safety
/// The chain and the statistics array it holds are valid.
pub(crate) unsafe fn query_type(
    next: *const WGPUChainedStruct,
    ty: WGPUQueryType,
) -> ApiResult<Result<Option<wgt::QueryType>, String>> {
    // SAFETY: the chain is valid (caller).
    let chain = match unsafe { Chain::walk(next, "WGPUQuerySetDescriptor") } {
        Ok(chain) => chain,
        Err(why) => return Ok(Err(crate::conv::chain_error(why))),
    };
    // SAFETY: the sType names this struct.
    let extras = unsafe { chain.get::<WGPUQuerySetDescriptorExtras>(WGPUSType(WGPUSType_QuerySetDescriptorExtras)) };
    if ty.0 != WGPUNativeQueryType_PipelineStatistics {
        if extras.is_some() {
            return Ok(Err("WGPUQuerySetDescriptorExtras only applies to pipeline-statistics query sets".into()));
        }
        return Ok(Ok(None));
    }
    let Some(extras) = extras else {
        return Ok(Err("a pipeline-statistics query set needs a chained WGPUQuerySetDescriptorExtras".into()));
    };
    // SAFETY: the array holds `pipelineStatisticCount` entries (caller).
    let names =
        unsafe { boundary::slice_arg(extras.pipelineStatistics, extras.pipelineStatisticCount, "pipelineStatistics") }?;
    let mut types = wgt::PipelineStatisticsTypes::empty();
    for &name in names {
        types |= match name {
            WGPUPipelineStatisticName_VertexShaderInvocations => {
                wgt::PipelineStatisticsTypes::VERTEX_SHADER_INVOCATIONS
            }
            WGPUPipelineStatisticName_ClipperInvocations => wgt::PipelineStatisticsTypes::CLIPPER_INVOCATIONS,
            WGPUPipelineStatisticName_ClipperPrimitivesOut => wgt::PipelineStatisticsTypes::CLIPPER_PRIMITIVES_OUT,
            WGPUPipelineStatisticName_FragmentShaderInvocations => {
                wgt::PipelineStatisticsTypes::FRAGMENT_SHADER_INVOCATIONS
            }
            WGPUPipelineStatisticName_ComputeShaderInvocations => {
                wgt::PipelineStatisticsTypes::COMPUTE_SHADER_INVOCATIONS
            }
            other => return Ok(Err(format!("{other:#x} is not a WGPUPipelineStatisticName"))),
        };
    }
    Ok(Ok(Some(wgt::QueryType::PipelineStatistics(types))))
}
