//! `wgpuGetProcAddress`: every exported function by name.
//!
//! Each entry names the function and its `WGPUProc*` type from the header;
//! the entry does not compile unless the function's signature is exactly
//! that type, so an implementation cannot drift from `webgpu.h`.

use crate::abi::*;
use crate::ext::{self, *};
use crate::ffi::boundary::{self, call};
use crate::objects::surface;
use crate::objects::{adapter, bind_group, bind_group_layout, buffer, command_buffer, command_encoder, compute_pass};
use crate::objects::{compute_pipeline, device, error_scope, external_texture, instance, pipeline_layout, query_set};
use crate::objects::{queue, render_bundle, render_bundle_encoder, render_pass, render_pass_commands, render_pipeline};
use crate::objects::{sampler, shader_module, texel_copy, texture, texture_view};
use crate::procs;

macro_rules! proc_table {
    ($table:ident; $($module:ident :: $name:ident : $ty:ident),* $(,)?) => {
        /// (name, function) for exported functions.
        pub(crate) static $table: &[(&str, WGPUProc)] = &[
            $((stringify!($name), {
                const F: $ty = Some($module::$name);
                // SAFETY: both are nullable C function pointers; the caller
                // casts back to the right type before calling.
                unsafe { std::mem::transmute::<$ty, WGPUProc>(F) }
            }),)*
        ];
    };
}

proc_table! {
    PROCS;
    instance::wgpuCreateInstance: WGPUProcCreateInstance,
    instance::wgpuGetInstanceFeatures: WGPUProcGetInstanceFeatures,
    instance::wgpuGetInstanceLimits: WGPUProcGetInstanceLimits,
    instance::wgpuHasInstanceFeature: WGPUProcHasInstanceFeature,
    procs::wgpuGetProcAddress: WGPUProcGetProcAddress,
    instance::wgpuInstanceRequestAdapter: WGPUProcInstanceRequestAdapter,
    instance::wgpuInstanceWaitAny: WGPUProcInstanceWaitAny,
    instance::wgpuInstanceProcessEvents: WGPUProcInstanceProcessEvents,
    instance::wgpuInstanceGetWGSLLanguageFeatures: WGPUProcInstanceGetWGSLLanguageFeatures,
    instance::wgpuInstanceHasWGSLLanguageFeature: WGPUProcInstanceHasWGSLLanguageFeature,
    instance::wgpuInstanceAddRef: WGPUProcInstanceAddRef,
    instance::wgpuInstanceRelease: WGPUProcInstanceRelease,
    instance::wgpuSupportedInstanceFeaturesFreeMembers: WGPUProcSupportedInstanceFeaturesFreeMembers,
    instance::wgpuSupportedWGSLLanguageFeaturesFreeMembers: WGPUProcSupportedWGSLLanguageFeaturesFreeMembers,
    adapter::wgpuAdapterGetFeatures: WGPUProcAdapterGetFeatures,
    adapter::wgpuAdapterGetInfo: WGPUProcAdapterGetInfo,
    adapter::wgpuAdapterGetLimits: WGPUProcAdapterGetLimits,
    adapter::wgpuAdapterHasFeature: WGPUProcAdapterHasFeature,
    adapter::wgpuAdapterRequestDevice: WGPUProcAdapterRequestDevice,
    adapter::wgpuAdapterAddRef: WGPUProcAdapterAddRef,
    adapter::wgpuAdapterRelease: WGPUProcAdapterRelease,
    adapter::wgpuAdapterInfoFreeMembers: WGPUProcAdapterInfoFreeMembers,
    adapter::wgpuSupportedFeaturesFreeMembers: WGPUProcSupportedFeaturesFreeMembers,
    device::wgpuDeviceDestroy: WGPUProcDeviceDestroy,
    device::wgpuDeviceGetLostFuture: WGPUProcDeviceGetLostFuture,
    device::wgpuDeviceGetLimits: WGPUProcDeviceGetLimits,
    device::wgpuDeviceGetFeatures: WGPUProcDeviceGetFeatures,
    device::wgpuDeviceHasFeature: WGPUProcDeviceHasFeature,
    device::wgpuDeviceGetAdapterInfo: WGPUProcDeviceGetAdapterInfo,
    device::wgpuDeviceGetQueue: WGPUProcDeviceGetQueue,
    device::wgpuDeviceSetLabel: WGPUProcDeviceSetLabel,
    device::wgpuDeviceAddRef: WGPUProcDeviceAddRef,
    device::wgpuDeviceRelease: WGPUProcDeviceRelease,
    error_scope::wgpuDevicePushErrorScope: WGPUProcDevicePushErrorScope,
    error_scope::wgpuDevicePopErrorScope: WGPUProcDevicePopErrorScope,
    queue::wgpuQueueSubmit: WGPUProcQueueSubmit,
    queue::wgpuQueueWriteBuffer: WGPUProcQueueWriteBuffer,
    queue::wgpuQueueWriteTexture: WGPUProcQueueWriteTexture,
    queue::wgpuQueueOnSubmittedWorkDone: WGPUProcQueueOnSubmittedWorkDone,
    queue::wgpuQueueSetLabel: WGPUProcQueueSetLabel,
    queue::wgpuQueueAddRef: WGPUProcQueueAddRef,
    queue::wgpuQueueRelease: WGPUProcQueueRelease,
    buffer::wgpuDeviceCreateBuffer: WGPUProcDeviceCreateBuffer,
    buffer::wgpuBufferDestroy: WGPUProcBufferDestroy,
    buffer::wgpuBufferGetSize: WGPUProcBufferGetSize,
    buffer::wgpuBufferGetUsage: WGPUProcBufferGetUsage,
    buffer::wgpuBufferGetMapState: WGPUProcBufferGetMapState,
    buffer::wgpuBufferUnmap: WGPUProcBufferUnmap,
    buffer::wgpuBufferMapAsync: WGPUProcBufferMapAsync,
    buffer::wgpuBufferGetMappedRange: WGPUProcBufferGetMappedRange,
    buffer::wgpuBufferGetConstMappedRange: WGPUProcBufferGetConstMappedRange,
    buffer::wgpuBufferReadMappedRange: WGPUProcBufferReadMappedRange,
    buffer::wgpuBufferWriteMappedRange: WGPUProcBufferWriteMappedRange,
    buffer::wgpuBufferSetLabel: WGPUProcBufferSetLabel,
    buffer::wgpuBufferAddRef: WGPUProcBufferAddRef,
    buffer::wgpuBufferRelease: WGPUProcBufferRelease,
    bind_group::wgpuDeviceCreateBindGroup: WGPUProcDeviceCreateBindGroup,
    bind_group::wgpuBindGroupAddRef: WGPUProcBindGroupAddRef,
    bind_group::wgpuBindGroupRelease: WGPUProcBindGroupRelease,
    bind_group::wgpuBindGroupSetLabel: WGPUProcBindGroupSetLabel,
    bind_group_layout::wgpuDeviceCreateBindGroupLayout: WGPUProcDeviceCreateBindGroupLayout,
    bind_group_layout::wgpuBindGroupLayoutAddRef: WGPUProcBindGroupLayoutAddRef,
    bind_group_layout::wgpuBindGroupLayoutRelease: WGPUProcBindGroupLayoutRelease,
    bind_group_layout::wgpuBindGroupLayoutSetLabel: WGPUProcBindGroupLayoutSetLabel,
    command_buffer::wgpuCommandBufferAddRef: WGPUProcCommandBufferAddRef,
    command_buffer::wgpuCommandBufferRelease: WGPUProcCommandBufferRelease,
    command_buffer::wgpuCommandBufferSetLabel: WGPUProcCommandBufferSetLabel,
    command_encoder::wgpuDeviceCreateCommandEncoder: WGPUProcDeviceCreateCommandEncoder,
    command_encoder::wgpuCommandEncoderCopyBufferToBuffer: WGPUProcCommandEncoderCopyBufferToBuffer,
    command_encoder::wgpuCommandEncoderClearBuffer: WGPUProcCommandEncoderClearBuffer,
    command_encoder::wgpuCommandEncoderResolveQuerySet: WGPUProcCommandEncoderResolveQuerySet,
    command_encoder::wgpuCommandEncoderWriteTimestamp: WGPUProcCommandEncoderWriteTimestamp,
    command_encoder::wgpuCommandEncoderPushDebugGroup: WGPUProcCommandEncoderPushDebugGroup,
    command_encoder::wgpuCommandEncoderPopDebugGroup: WGPUProcCommandEncoderPopDebugGroup,
    command_encoder::wgpuCommandEncoderInsertDebugMarker: WGPUProcCommandEncoderInsertDebugMarker,
    command_encoder::wgpuCommandEncoderFinish: WGPUProcCommandEncoderFinish,
    command_encoder::wgpuCommandEncoderAddRef: WGPUProcCommandEncoderAddRef,
    command_encoder::wgpuCommandEncoderRelease: WGPUProcCommandEncoderRelease,
    command_encoder::wgpuCommandEncoderSetLabel: WGPUProcCommandEncoderSetLabel,
    compute_pass::wgpuCommandEncoderBeginComputePass: WGPUProcCommandEncoderBeginComputePass,
    compute_pass::wgpuComputePassEncoderSetPipeline: WGPUProcComputePassEncoderSetPipeline,
    compute_pass::wgpuComputePassEncoderSetBindGroup: WGPUProcComputePassEncoderSetBindGroup,
    compute_pass::wgpuComputePassEncoderSetImmediates: WGPUProcComputePassEncoderSetImmediates,
    compute_pass::wgpuComputePassEncoderDispatchWorkgroups: WGPUProcComputePassEncoderDispatchWorkgroups,
    compute_pass::wgpuComputePassEncoderDispatchWorkgroupsIndirect: WGPUProcComputePassEncoderDispatchWorkgroupsIndirect,
    compute_pass::wgpuComputePassEncoderEnd: WGPUProcComputePassEncoderEnd,
    compute_pass::wgpuComputePassEncoderPushDebugGroup: WGPUProcComputePassEncoderPushDebugGroup,
    compute_pass::wgpuComputePassEncoderPopDebugGroup: WGPUProcComputePassEncoderPopDebugGroup,
    compute_pass::wgpuComputePassEncoderInsertDebugMarker: WGPUProcComputePassEncoderInsertDebugMarker,
    compute_pass::wgpuComputePassEncoderAddRef: WGPUProcComputePassEncoderAddRef,
    compute_pass::wgpuComputePassEncoderRelease: WGPUProcComputePassEncoderRelease,
    compute_pass::wgpuComputePassEncoderSetLabel: WGPUProcComputePassEncoderSetLabel,
    compute_pipeline::wgpuDeviceCreateComputePipeline: WGPUProcDeviceCreateComputePipeline,
    compute_pipeline::wgpuDeviceCreateComputePipelineAsync: WGPUProcDeviceCreateComputePipelineAsync,
    compute_pipeline::wgpuComputePipelineGetBindGroupLayout: WGPUProcComputePipelineGetBindGroupLayout,
    compute_pipeline::wgpuComputePipelineAddRef: WGPUProcComputePipelineAddRef,
    compute_pipeline::wgpuComputePipelineRelease: WGPUProcComputePipelineRelease,
    compute_pipeline::wgpuComputePipelineSetLabel: WGPUProcComputePipelineSetLabel,
    pipeline_layout::wgpuDeviceCreatePipelineLayout: WGPUProcDeviceCreatePipelineLayout,
    pipeline_layout::wgpuPipelineLayoutAddRef: WGPUProcPipelineLayoutAddRef,
    pipeline_layout::wgpuPipelineLayoutRelease: WGPUProcPipelineLayoutRelease,
    pipeline_layout::wgpuPipelineLayoutSetLabel: WGPUProcPipelineLayoutSetLabel,
    query_set::wgpuDeviceCreateQuerySet: WGPUProcDeviceCreateQuerySet,
    query_set::wgpuQuerySetDestroy: WGPUProcQuerySetDestroy,
    query_set::wgpuQuerySetGetCount: WGPUProcQuerySetGetCount,
    query_set::wgpuQuerySetGetType: WGPUProcQuerySetGetType,
    query_set::wgpuQuerySetSetLabel: WGPUProcQuerySetSetLabel,
    query_set::wgpuQuerySetAddRef: WGPUProcQuerySetAddRef,
    query_set::wgpuQuerySetRelease: WGPUProcQuerySetRelease,
    sampler::wgpuDeviceCreateSampler: WGPUProcDeviceCreateSampler,
    sampler::wgpuSamplerSetLabel: WGPUProcSamplerSetLabel,
    sampler::wgpuSamplerAddRef: WGPUProcSamplerAddRef,
    sampler::wgpuSamplerRelease: WGPUProcSamplerRelease,
    render_bundle::wgpuRenderBundleSetLabel: WGPUProcRenderBundleSetLabel,
    render_bundle::wgpuRenderBundleAddRef: WGPUProcRenderBundleAddRef,
    render_bundle::wgpuRenderBundleRelease: WGPUProcRenderBundleRelease,
    render_bundle_encoder::wgpuDeviceCreateRenderBundleEncoder: WGPUProcDeviceCreateRenderBundleEncoder,
    render_bundle_encoder::wgpuRenderBundleEncoderSetPipeline: WGPUProcRenderBundleEncoderSetPipeline,
    render_bundle_encoder::wgpuRenderBundleEncoderSetBindGroup: WGPUProcRenderBundleEncoderSetBindGroup,
    render_bundle_encoder::wgpuRenderBundleEncoderSetVertexBuffer: WGPUProcRenderBundleEncoderSetVertexBuffer,
    render_bundle_encoder::wgpuRenderBundleEncoderSetIndexBuffer: WGPUProcRenderBundleEncoderSetIndexBuffer,
    render_bundle_encoder::wgpuRenderBundleEncoderSetImmediates: WGPUProcRenderBundleEncoderSetImmediates,
    render_bundle_encoder::wgpuRenderBundleEncoderDraw: WGPUProcRenderBundleEncoderDraw,
    render_bundle_encoder::wgpuRenderBundleEncoderDrawIndexed: WGPUProcRenderBundleEncoderDrawIndexed,
    render_bundle_encoder::wgpuRenderBundleEncoderDrawIndirect: WGPUProcRenderBundleEncoderDrawIndirect,
    render_bundle_encoder::wgpuRenderBundleEncoderDrawIndexedIndirect: WGPUProcRenderBundleEncoderDrawIndexedIndirect,
    render_bundle_encoder::wgpuRenderBundleEncoderPushDebugGroup: WGPUProcRenderBundleEncoderPushDebugGroup,
    render_bundle_encoder::wgpuRenderBundleEncoderPopDebugGroup: WGPUProcRenderBundleEncoderPopDebugGroup,
    render_bundle_encoder::wgpuRenderBundleEncoderInsertDebugMarker: WGPUProcRenderBundleEncoderInsertDebugMarker,
    render_bundle_encoder::wgpuRenderBundleEncoderFinish: WGPUProcRenderBundleEncoderFinish,
    render_bundle_encoder::wgpuRenderBundleEncoderAddRef: WGPUProcRenderBundleEncoderAddRef,
    render_bundle_encoder::wgpuRenderBundleEncoderRelease: WGPUProcRenderBundleEncoderRelease,
    render_bundle_encoder::wgpuRenderBundleEncoderSetLabel: WGPUProcRenderBundleEncoderSetLabel,
    render_pass::wgpuCommandEncoderBeginRenderPass: WGPUProcCommandEncoderBeginRenderPass,
    render_pass::wgpuRenderPassEncoderEnd: WGPUProcRenderPassEncoderEnd,
    render_pass::wgpuRenderPassEncoderAddRef: WGPUProcRenderPassEncoderAddRef,
    render_pass::wgpuRenderPassEncoderRelease: WGPUProcRenderPassEncoderRelease,
    render_pass::wgpuRenderPassEncoderSetLabel: WGPUProcRenderPassEncoderSetLabel,
    render_pass_commands::wgpuRenderPassEncoderSetPipeline: WGPUProcRenderPassEncoderSetPipeline,
    render_pass_commands::wgpuRenderPassEncoderSetBindGroup: WGPUProcRenderPassEncoderSetBindGroup,
    render_pass_commands::wgpuRenderPassEncoderSetVertexBuffer: WGPUProcRenderPassEncoderSetVertexBuffer,
    render_pass_commands::wgpuRenderPassEncoderSetIndexBuffer: WGPUProcRenderPassEncoderSetIndexBuffer,
    render_pass_commands::wgpuRenderPassEncoderDraw: WGPUProcRenderPassEncoderDraw,
    render_pass_commands::wgpuRenderPassEncoderDrawIndexed: WGPUProcRenderPassEncoderDrawIndexed,
    render_pass_commands::wgpuRenderPassEncoderDrawIndirect: WGPUProcRenderPassEncoderDrawIndirect,
    render_pass_commands::wgpuRenderPassEncoderDrawIndexedIndirect: WGPUProcRenderPassEncoderDrawIndexedIndirect,
    render_pass_commands::wgpuRenderPassEncoderSetViewport: WGPUProcRenderPassEncoderSetViewport,
    render_pass_commands::wgpuRenderPassEncoderSetScissorRect: WGPUProcRenderPassEncoderSetScissorRect,
    render_pass_commands::wgpuRenderPassEncoderSetBlendConstant: WGPUProcRenderPassEncoderSetBlendConstant,
    render_pass_commands::wgpuRenderPassEncoderSetStencilReference: WGPUProcRenderPassEncoderSetStencilReference,
    render_pass_commands::wgpuRenderPassEncoderSetImmediates: WGPUProcRenderPassEncoderSetImmediates,
    render_pass_commands::wgpuRenderPassEncoderBeginOcclusionQuery: WGPUProcRenderPassEncoderBeginOcclusionQuery,
    render_pass_commands::wgpuRenderPassEncoderEndOcclusionQuery: WGPUProcRenderPassEncoderEndOcclusionQuery,
    render_pass_commands::wgpuRenderPassEncoderExecuteBundles: WGPUProcRenderPassEncoderExecuteBundles,
    render_pass_commands::wgpuRenderPassEncoderPushDebugGroup: WGPUProcRenderPassEncoderPushDebugGroup,
    render_pass_commands::wgpuRenderPassEncoderPopDebugGroup: WGPUProcRenderPassEncoderPopDebugGroup,
    render_pass_commands::wgpuRenderPassEncoderInsertDebugMarker: WGPUProcRenderPassEncoderInsertDebugMarker,
    render_pipeline::wgpuDeviceCreateRenderPipeline: WGPUProcDeviceCreateRenderPipeline,
    render_pipeline::wgpuDeviceCreateRenderPipelineAsync: WGPUProcDeviceCreateRenderPipelineAsync,
    render_pipeline::wgpuRenderPipelineGetBindGroupLayout: WGPUProcRenderPipelineGetBindGroupLayout,
    render_pipeline::wgpuRenderPipelineAddRef: WGPUProcRenderPipelineAddRef,
    render_pipeline::wgpuRenderPipelineRelease: WGPUProcRenderPipelineRelease,
    render_pipeline::wgpuRenderPipelineSetLabel: WGPUProcRenderPipelineSetLabel,
    shader_module::wgpuDeviceCreateShaderModule: WGPUProcDeviceCreateShaderModule,
    shader_module::wgpuShaderModuleGetCompilationInfo: WGPUProcShaderModuleGetCompilationInfo,
    shader_module::wgpuShaderModuleAddRef: WGPUProcShaderModuleAddRef,
    shader_module::wgpuShaderModuleRelease: WGPUProcShaderModuleRelease,
    shader_module::wgpuShaderModuleSetLabel: WGPUProcShaderModuleSetLabel,
    surface::wgpuInstanceCreateSurface: WGPUProcInstanceCreateSurface,
    surface::wgpuSurfaceConfigure: WGPUProcSurfaceConfigure,
    surface::wgpuSurfaceGetCapabilities: WGPUProcSurfaceGetCapabilities,
    surface::wgpuSurfaceGetCurrentTexture: WGPUProcSurfaceGetCurrentTexture,
    surface::wgpuSurfacePresent: WGPUProcSurfacePresent,
    surface::wgpuSurfaceUnconfigure: WGPUProcSurfaceUnconfigure,
    surface::wgpuSurfaceSetLabel: WGPUProcSurfaceSetLabel,
    surface::wgpuSurfaceAddRef: WGPUProcSurfaceAddRef,
    surface::wgpuSurfaceRelease: WGPUProcSurfaceRelease,
    surface::wgpuSurfaceCapabilitiesFreeMembers: WGPUProcSurfaceCapabilitiesFreeMembers,
    texel_copy::wgpuCommandEncoderCopyBufferToTexture: WGPUProcCommandEncoderCopyBufferToTexture,
    texel_copy::wgpuCommandEncoderCopyTextureToBuffer: WGPUProcCommandEncoderCopyTextureToBuffer,
    texel_copy::wgpuCommandEncoderCopyTextureToTexture: WGPUProcCommandEncoderCopyTextureToTexture,
    texture::wgpuDeviceCreateTexture: WGPUProcDeviceCreateTexture,
    texture::wgpuTextureCreateView: WGPUProcTextureCreateView,
    texture::wgpuTextureDestroy: WGPUProcTextureDestroy,
    texture::wgpuTextureGetWidth: WGPUProcTextureGetWidth,
    texture::wgpuTextureGetHeight: WGPUProcTextureGetHeight,
    texture::wgpuTextureGetDepthOrArrayLayers: WGPUProcTextureGetDepthOrArrayLayers,
    texture::wgpuTextureGetMipLevelCount: WGPUProcTextureGetMipLevelCount,
    texture::wgpuTextureGetSampleCount: WGPUProcTextureGetSampleCount,
    texture::wgpuTextureGetDimension: WGPUProcTextureGetDimension,
    texture::wgpuTextureGetFormat: WGPUProcTextureGetFormat,
    texture::wgpuTextureGetUsage: WGPUProcTextureGetUsage,
    texture::wgpuTextureGetTextureBindingViewDimension: WGPUProcTextureGetTextureBindingViewDimension,
    texture::wgpuTextureSetLabel: WGPUProcTextureSetLabel,
    texture::wgpuTextureAddRef: WGPUProcTextureAddRef,
    texture::wgpuTextureRelease: WGPUProcTextureRelease,
    external_texture::wgpuExternalTextureSetLabel: WGPUProcExternalTextureSetLabel,
    external_texture::wgpuExternalTextureAddRef: WGPUProcExternalTextureAddRef,
    external_texture::wgpuExternalTextureRelease: WGPUProcExternalTextureRelease,
    texture_view::wgpuTextureViewSetLabel: WGPUProcTextureViewSetLabel,
    texture_view::wgpuTextureViewAddRef: WGPUProcTextureViewAddRef,
    texture_view::wgpuTextureViewRelease: WGPUProcTextureViewRelease,
    ext::wgpuBufferMapAsync2: WGPUProcBufferMapAsync2,
    ext::wgpuShimInstanceCreateUserEvent: WGPUProcShimInstanceCreateUserEvent,
    ext::wgpuShimInstanceSignalUserEvent: WGPUProcShimInstanceSignalUserEvent,
    ext::wgpuShimInstanceSetSpinWait: WGPUProcShimInstanceSetSpinWait,
}

#[cfg(unix)]
proc_table! {
    PLATFORM_PROCS;
    ext::wgpuShimInstanceGetReadinessFd: WGPUProcShimInstanceGetReadinessFd,
}

#[cfg(windows)]
proc_table! {
    PLATFORM_PROCS;
    ext::wgpuShimInstanceGetReadinessEvent: WGPUProcShimInstanceGetReadinessEvent,
}

/// The exported function called `proc_name`, or NULL for a name this
/// library does not export.
///
/// # Safety
/// `proc_name` is a valid string view.
#[no_mangle]
pub unsafe extern "C" fn wgpuGetProcAddress(proc_name: WGPUStringView) -> WGPUProc {
    call("wgpuGetProcAddress", None, || {
        // SAFETY: the C caller passes a valid string view.
        let name = unsafe { boundary::str_arg(proc_name, "procName") }?.or_empty();
        let mut all = PROCS.iter().chain(PLATFORM_PROCS).chain(crate::native::procs::PROCS);
        Ok(all.find(|(n, _)| *n == name).and_then(|(_, f)| *f))
    })
}

#[cfg(test)]
mod tests {
    use super::{PLATFORM_PROCS, PROCS};
    use crate::abi::WEBGPU_FUNCTIONS;

    #[test]
    fn every_entry_is_standard_or_a_known_extension() {
        let native = crate::native::procs::PROCS;
        for (name, f) in PROCS.iter().chain(PLATFORM_PROCS).chain(native) {
            assert!(f.is_some());
            assert!(
                WEBGPU_FUNCTIONS.contains(name)
                    || crate::ext::EXTENSION_FUNCTIONS.contains(name)
                    || crate::abi::native::FUNCTIONS.contains(name),
                "{name} is neither in webgpu.h nor an extension"
            );
        }
        let mut names: Vec<_> = PROCS.iter().chain(PLATFORM_PROCS).chain(native).map(|(n, _)| *n).collect();
        for exported in exported_in_sources() {
            assert!(names.contains(&exported.as_str()), "{exported} is exported but not in the proc table");
        }
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(n, names.len(), "duplicate entries");
    }

    /// Names of the functions the sources export: `extern "C" fn wgpu…`
    /// items and the AddRef/Release/SetLabel macros.
    fn exported_in_sources() -> Vec<String> {
        let mut out = Vec::new();
        let abi = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/abi");
        for (path, text) in crate::source_scan::source_files() {
            if path.starts_with(&abi) {
                continue;
            }
            for line in text.lines().map(str::trim) {
                if let Some(rest) =
                    line.strip_prefix("pub unsafe extern \"C\" fn ").or(line.strip_prefix("pub extern \"C\" fn "))
                {
                    out.push(rest.split('(').next().unwrap().to_string());
                }
                if line.starts_with("refcounted!(") || line.starts_with("set_label!(") {
                    let args = line.split('(').nth(1).unwrap().trim_end_matches(");");
                    out.extend(args.split(',').skip(2).map(|a| a.trim().to_string()));
                }
            }
        }
        out.retain(|n| n.starts_with("wgpu"));
        // Exported on the other platform only.
        let other_platform =
            if cfg!(windows) { "wgpuShimInstanceGetReadinessFd" } else { "wgpuShimInstanceGetReadinessEvent" };
        out.retain(|n| n != other_platform);
        assert!(out.len() > 50, "the source scan found too little: {out:?}");
        out
    }
}
