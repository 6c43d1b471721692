//! `wgpuGetProcAddress`: every exported function by name.
//!
//! Each entry names the function and its `WGPUProc*` type from the header;
//! the entry does not compile unless the function's signature is exactly
//! that type, so an implementation cannot drift from `webgpu.h`.

use crate::abi::*;
use crate::boundary::{self, call};

macro_rules! proc_table {
    ($($module:ident :: $name:ident : $ty:ident),* $(,)?) => {
        /// (name, function) for every exported function.
        pub(crate) static PROCS: &[(&str, WGPUProc)] = &[
            $((stringify!($name), {
                const F: $ty = Some(crate::$module::$name);
                // SAFETY: both are nullable C function pointers; the caller
                // casts back to the right type before calling.
                unsafe { std::mem::transmute::<$ty, WGPUProc>(F) }
            }),)*
        ];
    };
}

proc_table! {
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
    ext::wgpuBufferMapAsync2: WGPUProcBufferMapAsync,
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
        Ok(PROCS.iter().find(|(n, _)| *n == name).and_then(|(_, f)| *f))
    })
}

#[cfg(test)]
mod tests {
    use super::PROCS;
    use crate::abi::WEBGPU_FUNCTIONS;

    #[test]
    fn every_entry_is_standard_or_a_known_extension() {
        for (name, f) in PROCS {
            assert!(f.is_some());
            assert!(
                WEBGPU_FUNCTIONS.contains(name) || crate::ext::EXTENSION_FUNCTIONS.contains(name),
                "{name} is neither in webgpu.h nor an extension"
            );
        }
        let mut names: Vec<_> = PROCS.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(n, names.len(), "duplicate entries");
    }
}
