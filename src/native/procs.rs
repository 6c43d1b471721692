//! The wgpu.h functions in `wgpuGetProcAddress`'s table.
//!
//! Each entry names an export and its `WGPUProc*` type from `abi.rs`
//! (generated from `include/webgpu/wgpu.h`): an entry does not compile
//! unless the Rust function has exactly the header's signature.

use crate::abi::native::*;
use crate::abi::WGPUProc;

macro_rules! native_procs {
    ($($module:ident :: $name:ident : $ty:ident),* $(,)?) => {
        /// (name, function) for every wgpu.h function.
        pub(crate) static PROCS: &[(&str, WGPUProc)] = &[
            $((stringify!($name), {
                const F: $ty = Some(super::$module::$name);
                // SAFETY: both are nullable C function pointers; the caller
                // casts back to the right type before calling.
                unsafe { std::mem::transmute::<$ty, WGPUProc>(F) }
            }),)*
        ];
    };
}

native_procs! {
    info::wgpuGenerateReport: WGPUProcGenerateReport,
    info::wgpuInstanceEnumerateAdapters: WGPUProcInstanceEnumerateAdapters,
    queue::wgpuQueueSubmitForIndex: WGPUProcQueueSubmitForIndex,
    queue::wgpuQueueGetTimestampPeriod: WGPUProcQueueGetTimestampPeriod,
    poll::wgpuDevicePoll: WGPUProcDevicePoll,
    shader::wgpuDeviceCreateShaderModuleSpirV: WGPUProcDeviceCreateShaderModuleSpirV,
    log::wgpuSetLogCallback: WGPUProcSetLogCallback,
    log::wgpuSetLogLevel: WGPUProcSetLogLevel,
    info::wgpuGetVersion: WGPUProcGetVersion,
    device::wgpuDeviceGetNativeMetalDevice: WGPUProcDeviceGetNativeMetalDevice,
    queue::wgpuQueueGetNativeMetalCommandQueue: WGPUProcQueueGetNativeMetalCommandQueue,
    device::wgpuTextureGetNativeMetalTexture: WGPUProcTextureGetNativeMetalTexture,
    commands::wgpuRenderPassEncoderMultiDrawIndirect: WGPUProcRenderPassEncoderMultiDrawIndirect,
    commands::wgpuRenderPassEncoderMultiDrawIndexedIndirect: WGPUProcRenderPassEncoderMultiDrawIndexedIndirect,
    commands::wgpuRenderPassEncoderMultiDrawIndirectCount: WGPUProcRenderPassEncoderMultiDrawIndirectCount,
    commands::wgpuRenderPassEncoderMultiDrawIndexedIndirectCount: WGPUProcRenderPassEncoderMultiDrawIndexedIndirectCount,
    commands::wgpuComputePassEncoderBeginPipelineStatisticsQuery: WGPUProcComputePassEncoderBeginPipelineStatisticsQuery,
    commands::wgpuComputePassEncoderEndPipelineStatisticsQuery: WGPUProcComputePassEncoderEndPipelineStatisticsQuery,
    commands::wgpuRenderPassEncoderBeginPipelineStatisticsQuery: WGPUProcRenderPassEncoderBeginPipelineStatisticsQuery,
    commands::wgpuRenderPassEncoderEndPipelineStatisticsQuery: WGPUProcRenderPassEncoderEndPipelineStatisticsQuery,
    commands::wgpuComputePassEncoderWriteTimestamp: WGPUProcComputePassEncoderWriteTimestamp,
    commands::wgpuRenderPassEncoderWriteTimestamp: WGPUProcRenderPassEncoderWriteTimestamp,
    device::wgpuDeviceStartGraphicsDebuggerCapture: WGPUProcDeviceStartGraphicsDebuggerCapture,
    device::wgpuDeviceStopGraphicsDebuggerCapture: WGPUProcDeviceStopGraphicsDebuggerCapture,
    commands::wgpuCommandEncoderClearTexture: WGPUProcCommandEncoderClearTexture,
    shader::wgpuDeviceCreateShaderModuleTrusted: WGPUProcDeviceCreateShaderModuleTrusted,
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_header_function_is_in_the_table() {
        let mut names: Vec<_> = super::PROCS.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        let mut declared = super::FUNCTIONS.to_vec();
        declared.sort_unstable();
        assert_eq!(names, declared);
    }
}
