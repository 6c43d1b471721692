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

#[cfg(test)]
mod tests {
    /// The committed header is what build.rs generates from this file
    /// (`WGPU_SHIM_UPDATE_HEADERS=1 cargo build` rewrites it).
    #[test]
    fn committed_header_is_current() {
        let generated = include_str!(concat!(env!("OUT_DIR"), "/wgpu_shim.h"));
        let committed = include_str!("../include/webgpu/wgpu_shim.h");
        assert!(
            generated == committed,
            "include/webgpu/wgpu_shim.h is stale: run `WGPU_SHIM_UPDATE_HEADERS=1 cargo build --release`"
        );
    }
}
