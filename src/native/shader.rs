//! Shader module extensions: `wgpuDeviceCreateShaderModuleSpirV` and
//! `wgpuDeviceCreateShaderModuleTrusted`.

#![allow(non_upper_case_globals)]

use std::borrow::Cow;
use std::sync::Arc;

use wgpu_core::pipeline::ShaderModuleSource;
use wgpu_types as wgt;

use super::call;
use crate::abi::native::*;
use crate::abi::{WGPUDevice, WGPUShaderModule, WGPUShaderModuleDescriptor};
use crate::ffi::boundary;
use crate::ffi::handle::Handle;
use crate::objects::device::Device;
use crate::objects::shader_module::ShaderModule;

/// Creates a shader module from SPIR-V (`sourceSize` 32-bit words). The
/// SPIR-V is translated and validated as a chained `WGPUShaderSourceSPIRV`
/// would be, but needs no instance feature; errors are reported on the
/// device and give an invalid module, as `wgpuDeviceCreateShaderModule`.
///
/// # Safety
/// `device` is a live device; `descriptor` is NULL or valid, with
/// `sourceSize` readable words at `source`.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceCreateShaderModuleSpirV(
    device: WGPUDevice,
    descriptor: *const WGPUShaderModuleDescriptorSpirV,
) -> WGPUShaderModule {
    call("wgpuDeviceCreateShaderModuleSpirV", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle and NULL or a valid
        // descriptor whose label and words are readable.
        let (device, label, words) = unsafe {
            let device = boundary::arg::<Device>(device, "device")?;
            let desc = boundary::ptr_arg(descriptor, "descriptor")?;
            (
                device,
                boundary::label_arg(desc.label, "label")?,
                boundary::slice_arg(desc.source, desc.sourceSize as usize, "source")?,
            )
        };
        let source = ShaderModuleSource::SpirV(Cow::Borrowed(words), crate::objects::shader_module::spirv_options());
        let module = ShaderModule::create(&device.arc(), label, source, wgt::ShaderRuntimeChecks::checked());
        Ok(Handle::into_raw(Arc::new(module)))
    })
}

/// The wgpu run-time checks for a `WGPUShaderRuntimeChecks` mask. Integer
/// division checks have no flag and stay on (they keep division by zero
/// defined).
fn runtime_checks(mask: WGPUShaderRuntimeChecks) -> wgt::ShaderRuntimeChecks {
    let mut checks = wgt::ShaderRuntimeChecks::checked();
    checks.bounds_checks = mask & WGPUShaderRuntimeChecks_BoundsChecks != 0;
    checks.force_loop_bounding = mask & WGPUShaderRuntimeChecks_ForceLoopBounding != 0;
    checks.ray_query_initialization_tracking = mask & WGPUShaderRuntimeChecks_RayQueryInitializationTracking != 0;
    checks.task_shader_dispatch_tracking = mask & WGPUShaderRuntimeChecks_TaskShaderDispatchTracking != 0;
    checks.mesh_shader_primitive_indices_clamp = mask & WGPUShaderRuntimeChecks_MeshShaderPrimitiveIndicesClamp != 0;
    checks
}

/// `wgpuDeviceCreateShaderModule` keeping only the run-time checks in
/// `runtime_checks` (the shader is trusted not to read out of bounds or
/// loop forever where a check is left out).
///
/// # Safety
/// As `wgpuDeviceCreateShaderModule`.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceCreateShaderModuleTrusted(
    device: WGPUDevice,
    descriptor: *const WGPUShaderModuleDescriptor,
    runtime_checks_mask: WGPUShaderRuntimeChecks,
) -> WGPUShaderModule {
    call("wgpuDeviceCreateShaderModuleTrusted", std::ptr::null_mut(), || {
        // SAFETY: forwarded from the C caller.
        unsafe { crate::objects::shader_module::create_module(device, descriptor, runtime_checks(runtime_checks_mask)) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_check_flags() {
        let none = runtime_checks(WGPUShaderRuntimeChecks_None);
        assert!(!none.bounds_checks && !none.force_loop_bounding && none.int_div_checks);
        let bounds = runtime_checks(WGPUShaderRuntimeChecks_BoundsChecks);
        assert!(bounds.bounds_checks && !bounds.force_loop_bounding);
    }
}
