//! `WGPUExternalTexture`: the header declares its reference counting and
//! label, but leaves creating one to each implementation ("not defined in
//! this header"). wgpu-shim creates none (a bind group entry that chains
//! one is a validation error, see `bind_group.rs`), so no valid handle can
//! exist: every call receives NULL or a pointer that is not an external
//! texture, which is logged and ignored. The pointer is never read.

use crate::abi::*;
use crate::ffi::boundary::{call, reject, ApiResult};

/// The rejection of any external texture handle.
fn refuse(handle: WGPUExternalTexture) -> ApiResult<()> {
    if handle.is_null() {
        Err(reject!("`externalTexture` is NULL"))
    } else {
        Err(reject!("`externalTexture` {handle:p} is not a WGPUExternalTexture: wgpu-shim creates none"))
    }
}

/// Sets the label of a `WGPUExternalTexture`; as none can be created, the
/// call is logged as an error and does nothing.
///
/// # Safety
/// None: the arguments are not read.
#[no_mangle]
pub unsafe extern "C" fn wgpuExternalTextureSetLabel(external_texture: WGPUExternalTexture, _label: WGPUStringView) {
    call("wgpuExternalTextureSetLabel", (), || refuse(external_texture))
}

/// Adds a reference to a `WGPUExternalTexture`; as none can be created, the
/// call is logged as an error and does nothing.
///
/// # Safety
/// None: the argument is not read.
#[no_mangle]
pub unsafe extern "C" fn wgpuExternalTextureAddRef(external_texture: WGPUExternalTexture) {
    call("wgpuExternalTextureAddRef", (), || refuse(external_texture))
}

/// Releases a reference to a `WGPUExternalTexture`; as none can be
/// created, the call is logged as an error and does nothing.
///
/// # Safety
/// None: the argument is not read.
#[no_mangle]
pub unsafe extern "C" fn wgpuExternalTextureRelease(external_texture: WGPUExternalTexture) {
    call("wgpuExternalTextureRelease", (), || refuse(external_texture))
}
