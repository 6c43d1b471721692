//! Copies between buffers and textures: `wgpuCommandEncoderCopyBufferToTexture`,
//! `…CopyTextureToBuffer` and `…CopyTextureToTexture`, and the conversion of
//! `WGPUTexelCopy*` structs shared with `wgpuQueueWriteTexture`.
//!
//! wgpu-core validates the copies (alignment, bounds, usage, formats) and
//! defers errors to the encoder's `Finish`; a value this library cannot
//! convert (an unknown aspect) invalidates the encoder the same way.

use crate::objects::device::Device;
use crate::objects::owner::same_instance;
use wgpu_core::id::{BufferId, TextureId};
use wgpu_types as wgt;

use crate::abi::*;
use crate::ffi::boundary::{self, call, ApiResult};
use crate::objects::buffer::Buffer;
use crate::objects::command_encoder::CommandEncoder;
use crate::objects::texture::Texture;

/// A row or image stride; `WGPU_COPY_STRIDE_UNDEFINED` is `None`.
fn stride(v: u32) -> Option<u32> {
    (v != WGPU_COPY_STRIDE_UNDEFINED).then_some(v)
}

/// A buffer layout of texel data.
pub(crate) fn buffer_layout(l: &WGPUTexelCopyBufferLayout) -> wgt::TexelCopyBufferLayout {
    wgt::TexelCopyBufferLayout {
        offset: l.offset,
        bytes_per_row: stride(l.bytesPerRow),
        rows_per_image: stride(l.rowsPerImage),
    }
}

/// A copy extent.
pub(crate) fn extent(e: &WGPUExtent3D) -> wgt::Extent3d {
    wgt::Extent3d { width: e.width, height: e.height, depth_or_array_layers: e.depthOrArrayLayers }
}

/// A texture copy location for `device`. The outer error is a rejection (a
/// NULL or wrong-type texture), the inner one a validation error (an
/// unknown aspect, a texture of another instance).
///
/// # Safety
/// `info.texture` is NULL or a live handle.
pub(crate) unsafe fn texture_info(
    device: &Device,
    info: &WGPUTexelCopyTextureInfo,
    param: &str,
) -> ApiResult<Result<wgt::TexelCopyTextureInfo<TextureId>, String>> {
    let name = format!("{param}.texture");
    // SAFETY: NULL or a live handle (caller).
    let texture = unsafe { boundary::arg::<Texture>(info.texture, &name) }?;
    if let Err(why) = same_instance(device, &**texture, &name) {
        return Ok(Err(why));
    }
    Ok(crate::objects::texture::aspect(info.aspect).map(|aspect| wgt::TexelCopyTextureInfo {
        texture: texture.id,
        mip_level: info.mipLevel,
        origin: wgt::Origin3d { x: info.origin.x, y: info.origin.y, z: info.origin.z },
        aspect,
    }))
}

/// Whether a texture-to-texture copy reads and writes one subresource that
/// wgpu-core does not see as one: a mip level of a 1D or 3D texture is one
/// subresource whatever the copy's z range, while wgpu-core compares the z
/// ranges as array layers (and so lets overlapping boxes through).
///
/// # Safety
/// `source.texture` is a live handle.
unsafe fn one_subresource(
    source: &WGPUTexelCopyTextureInfo,
    src: &wgt::TexelCopyTextureInfo<TextureId>,
    dst: &wgt::TexelCopyTextureInfo<TextureId>,
) -> ApiResult<bool> {
    if src.texture != dst.texture || src.mip_level != dst.mip_level {
        return Ok(false);
    }
    // SAFETY: a live handle (caller).
    let texture = unsafe { boundary::arg::<Texture>(source.texture, "source.texture") }?;
    Ok(texture.one_subresource_per_level())
}

/// A buffer copy location for `device`; the inner error: a buffer of
/// another instance.
///
/// # Safety
/// `info.buffer` is NULL or a live handle.
unsafe fn buffer_info(
    device: &Device,
    info: &WGPUTexelCopyBufferInfo,
    param: &str,
) -> ApiResult<Result<wgt::TexelCopyBufferInfo<BufferId>, String>> {
    let name = format!("{param}.buffer");
    // SAFETY: NULL or a live handle (caller).
    let buffer = unsafe { boundary::arg::<Buffer>(info.buffer, &name) }?;
    Ok(same_instance(device, &**buffer, &name)
        .map(|()| wgt::TexelCopyBufferInfo { buffer: buffer.id, layout: buffer_layout(&info.layout) }))
}

/// Copies texel data from a buffer to a texture.
///
/// # Safety
/// `command_encoder` is a live handle; the three pointers are NULL or valid,
/// with live handles inside.
#[no_mangle]
pub unsafe extern "C" fn wgpuCommandEncoderCopyBufferToTexture(
    command_encoder: WGPUCommandEncoder,
    source: *const WGPUTexelCopyBufferInfo,
    destination: *const WGPUTexelCopyTextureInfo,
    copy_size: *const WGPUExtent3D,
) {
    call("wgpuCommandEncoderCopyBufferToTexture", (), || {
        // SAFETY: the C caller passes a live handle and NULL or valid structs.
        let encoder = unsafe { boundary::arg::<CommandEncoder>(command_encoder, "commandEncoder") }?;
        // SAFETY: as above.
        let (src, dst, size) = unsafe {
            (
                buffer_info(&encoder.device, boundary::ptr_arg(source, "source")?, "source")?,
                texture_info(&encoder.device, boundary::ptr_arg(destination, "destination")?, "destination")?,
                extent(boundary::ptr_arg(copy_size, "copySize")?),
            )
        };
        match (src, dst) {
            (Ok(src), Ok(dst)) => encoder
                .check(encoder.device.global().command_encoder_copy_buffer_to_texture(encoder.id, &src, &dst, &size)),
            (Err(why), _) | (_, Err(why)) => {
                encoder.invalidate(format!("wgpuCommandEncoderCopyBufferToTexture: {why}"))
            }
        }
        Ok(())
    })
}

/// Copies texel data from a texture to a buffer.
///
/// # Safety
/// `command_encoder` is a live handle; the three pointers are NULL or valid,
/// with live handles inside.
#[no_mangle]
pub unsafe extern "C" fn wgpuCommandEncoderCopyTextureToBuffer(
    command_encoder: WGPUCommandEncoder,
    source: *const WGPUTexelCopyTextureInfo,
    destination: *const WGPUTexelCopyBufferInfo,
    copy_size: *const WGPUExtent3D,
) {
    call("wgpuCommandEncoderCopyTextureToBuffer", (), || {
        // SAFETY: the C caller passes a live handle and NULL or valid structs.
        let encoder = unsafe { boundary::arg::<CommandEncoder>(command_encoder, "commandEncoder") }?;
        // SAFETY: as above.
        let (src, dst, size) = unsafe {
            (
                texture_info(&encoder.device, boundary::ptr_arg(source, "source")?, "source")?,
                buffer_info(&encoder.device, boundary::ptr_arg(destination, "destination")?, "destination")?,
                extent(boundary::ptr_arg(copy_size, "copySize")?),
            )
        };
        match (src, dst) {
            (Ok(src), Ok(dst)) => encoder
                .check(encoder.device.global().command_encoder_copy_texture_to_buffer(encoder.id, &src, &dst, &size)),
            (Err(why), _) | (_, Err(why)) => {
                encoder.invalidate(format!("wgpuCommandEncoderCopyTextureToBuffer: {why}"))
            }
        }
        Ok(())
    })
}

/// Copies texels between textures.
///
/// # Safety
/// `command_encoder` is a live handle; the three pointers are NULL or valid,
/// with live handles inside.
#[no_mangle]
pub unsafe extern "C" fn wgpuCommandEncoderCopyTextureToTexture(
    command_encoder: WGPUCommandEncoder,
    source: *const WGPUTexelCopyTextureInfo,
    destination: *const WGPUTexelCopyTextureInfo,
    copy_size: *const WGPUExtent3D,
) {
    call("wgpuCommandEncoderCopyTextureToTexture", (), || {
        // SAFETY: the C caller passes a live handle and NULL or valid structs.
        let encoder = unsafe { boundary::arg::<CommandEncoder>(command_encoder, "commandEncoder") }?;
        // SAFETY: as above.
        let (src, dst, size) = unsafe {
            (
                texture_info(&encoder.device, boundary::ptr_arg(source, "source")?, "source")?,
                texture_info(&encoder.device, boundary::ptr_arg(destination, "destination")?, "destination")?,
                extent(boundary::ptr_arg(copy_size, "copySize")?),
            )
        };
        match (src, dst) {
            // SAFETY: `source` is valid with a live texture (read above).
            (Ok(src), Ok(dst)) if unsafe { one_subresource(boundary::ptr_arg(source, "source")?, &src, &dst)? } => {
                encoder.invalidate(format!(
                    "wgpuCommandEncoderCopyTextureToTexture: source and destination are mip level {} of one 1D or 3D \
                     texture, which is one subresource: a copy within a texture must not read and write the same subresource",
                    src.mip_level
                ))
            }
            (Ok(src), Ok(dst)) => encoder
                .check(encoder.device.global().command_encoder_copy_texture_to_texture(encoder.id, &src, &dst, &size)),
            (Err(why), _) | (_, Err(why)) => {
                encoder.invalidate(format!("wgpuCommandEncoderCopyTextureToTexture: {why}"))
            }
        }
        Ok(())
    })
}
