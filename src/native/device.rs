//! Device and texture extensions: Metal objects and graphics-debugger
//! capture.

use std::ffi::c_void;

use super::call;
use crate::abi::{WGPUBool, WGPUDevice, WGPUTexture};
use crate::ffi::boundary::{self, reject};
use crate::objects::device::Device;
use crate::objects::texture::Texture;

/// The device's `MTLDevice`: NULL, logged (no Metal backend here).
///
/// # Safety
/// `device` is a live device.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceGetNativeMetalDevice(device: WGPUDevice) -> *mut c_void {
    call("wgpuDeviceGetNativeMetalDevice", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle.
        unsafe { boundary::arg::<Device>(device, "device") }?;
        Err(reject!("this build has no Metal backend (its devices are Vulkan devices)"))
    })
}

/// The texture's `MTLTexture`: NULL, logged (no Metal backend here).
///
/// # Safety
/// `texture` is a live texture.
#[no_mangle]
pub unsafe extern "C" fn wgpuTextureGetNativeMetalTexture(texture: WGPUTexture) -> *mut c_void {
    call("wgpuTextureGetNativeMetalTexture", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle.
        unsafe { boundary::arg::<Texture>(texture, "texture") }?;
        Err(reject!("this build has no Metal backend (its textures are Vulkan images)"))
    })
}

/// Starts a frame capture in an attached graphics debugger (RenderDoc).
/// Returns whether a capture started: false when no debugger is attached.
///
/// # Safety
/// `device` is a live device.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceStartGraphicsDebuggerCapture(device: WGPUDevice) -> WGPUBool {
    call("wgpuDeviceStartGraphicsDebuggerCapture", 0, || {
        // SAFETY: the C caller passes a live handle.
        let device = unsafe { boundary::arg::<Device>(device, "device") }?;
        // SAFETY: the hal device is only used for this call and not
        // destroyed; wgpu-core's own capture call does the same, but drops
        // the result this function reports.
        let Some(hal) = (unsafe { device.global().device_as_hal::<wgpu_hal::api::Vulkan>(device.id) }) else {
            return Err(reject!("the device is not a Vulkan device"));
        };
        // SAFETY: starting a capture has no precondition beyond a live device.
        Ok(unsafe { wgpu_hal::Device::start_graphics_debugger_capture(&*hal) } as WGPUBool)
    })
}

/// Ends the capture `wgpuDeviceStartGraphicsDebuggerCapture` started
/// (nothing when none did).
///
/// # Safety
/// `device` is a live device.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceStopGraphicsDebuggerCapture(device: WGPUDevice) {
    call("wgpuDeviceStopGraphicsDebuggerCapture", (), || {
        // SAFETY: the C caller passes a live handle.
        let device = unsafe { boundary::arg::<Device>(device, "device") }?;
        // SAFETY: ending a capture has no precondition beyond a live device.
        unsafe { device.global().device_stop_graphics_debugger_capture(device.id) };
        Ok(())
    })
}
