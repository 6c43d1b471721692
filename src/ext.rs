//! wgpu-shim's own extensions (`include/webgpu/wgpu_shim.h`).

use crate::abi::*;
use crate::boundary::call;

/// The extension functions this library exports beyond webgpu.h.
#[cfg(test)]
pub(crate) const EXTENSION_FUNCTIONS: &[&str] = &["wgpuBufferMapAsync2"];

/// The same as `wgpuBufferMapAsync`, under the transitional name some
/// callers still use.
///
/// # Safety
/// As `wgpuBufferMapAsync`.
#[no_mangle]
pub unsafe extern "C" fn wgpuBufferMapAsync2(
    buffer: WGPUBuffer,
    mode: WGPUMapMode,
    offset: usize,
    size: usize,
    callback_info: WGPUBufferMapCallbackInfo,
) -> WGPUFuture {
    call("wgpuBufferMapAsync2", WGPUFuture { id: 0 }, || {
        // SAFETY: forwarded from the C caller.
        unsafe { crate::buffer::map_async(buffer, mode, offset, size, callback_info) }
    })
}
