//! Texture and texture view descriptors: usage flags, dimensions, aspects.
//!
//! Formats and view dimensions are [`super::format`]'s. `Undefined` values
//! get the header's defaults (dimension 2D, aspect All); unknown values and
//! usage bits are validation errors.

use std::borrow::Cow;

use wgpu_types as wgt;

use crate::abi::*;
use crate::ffi::boundary;
use crate::ffi::chain_walk::Chain;

/// The usage bits webgpu.h defines for textures.
const KNOWN_USAGE: u64 = WGPUTextureUsage_CopySrc
    | WGPUTextureUsage_CopyDst
    | WGPUTextureUsage_TextureBinding
    | WGPUTextureUsage_StorageBinding
    | WGPUTextureUsage_RenderAttachment
    | WGPUTextureUsage_TransientAttachment;

/// Texture usage flags; an error for bits webgpu.h does not define.
pub(crate) fn texture_usage(usage: WGPUTextureUsage) -> Result<wgt::TextureUsages, String> {
    if usage & !KNOWN_USAGE != 0 {
        return Err(format!("texture usage {usage:#x} has unknown bits"));
    }
    wgt::TextureUsages::from_bits(usage as u32).ok_or_else(|| format!("texture usage {usage:#x} has unknown bits"))
}

/// A texture dimension; `Undefined` is 2D.
fn dimension(dim: WGPUTextureDimension) -> Result<wgt::TextureDimension, String> {
    Ok(match dim {
        WGPUTextureDimension::_1D => wgt::TextureDimension::D1,
        WGPUTextureDimension::Undefined | WGPUTextureDimension::_2D => wgt::TextureDimension::D2,
        WGPUTextureDimension::_3D => wgt::TextureDimension::D3,
        other => return Err(format!("dimension {:#x} is not a WGPUTextureDimension", other.0)),
    })
}

/// A texture aspect; `Undefined` is All.
pub(crate) fn aspect(aspect: WGPUTextureAspect) -> Result<wgt::TextureAspect, String> {
    Ok(match aspect {
        WGPUTextureAspect::Undefined | WGPUTextureAspect::All => wgt::TextureAspect::All,
        WGPUTextureAspect::StencilOnly => wgt::TextureAspect::StencilOnly,
        WGPUTextureAspect::DepthOnly => wgt::TextureAspect::DepthOnly,
        other => return Err(format!("aspect {:#x} is not a WGPUTextureAspect", other.0)),
    })
}

/// A defined texture format.
fn format(f: WGPUTextureFormat, what: &str) -> Result<wgt::TextureFormat, String> {
    super::format::texture_format(f).ok_or_else(|| format!("{what} {:#x} is not a defined WGPUTextureFormat", f.0))
}

/// Converts a texture descriptor. The outer error is a rejection (a
/// malformed `viewFormats` array), the inner one a validation error.
///
/// # Safety
/// The descriptor's chain and view format array are valid.
pub(crate) unsafe fn descriptor(
    desc: &WGPUTextureDescriptor,
    label: &str,
) -> boundary::ApiResult<Result<wgpu_core::resource::TextureDescriptor<'static>, String>> {
    // SAFETY: the array is valid (caller).
    let view_formats = unsafe { boundary::slice_arg(desc.viewFormats, desc.viewFormatCount, "viewFormats") }?;
    // SAFETY: the chain is valid (caller).
    let chain = unsafe { Chain::walk(desc.nextInChain, "WGPUTextureDescriptor") };
    let inner = (|| {
        let chain = chain.map_err(super::chain_error)?;
        if !chain.is_empty() {
            // wgpu-core has no per-texture binding view dimension.
            return Err("WGPUTextureBindingViewDimension is not supported".to_string());
        }
        let view_formats =
            view_formats.iter().map(|f| format(*f, "viewFormats entry")).collect::<Result<Vec<_>, _>>()?;
        Ok(wgpu_core::resource::TextureDescriptor {
            label: super::label(label).map(|l| Cow::Owned(l.into_owned())),
            size: wgt::Extent3d {
                width: desc.size.width,
                height: desc.size.height,
                depth_or_array_layers: desc.size.depthOrArrayLayers,
            },
            mip_level_count: desc.mipLevelCount,
            sample_count: desc.sampleCount,
            dimension: dimension(desc.dimension)?,
            format: format(desc.format, "format")?,
            usage: texture_usage(desc.usage)?,
            view_formats,
        })
    })();
    Ok(inner)
}

/// Converts a view descriptor (defaults per webgpu-behaviour §4.3).
///
/// # Safety
/// The descriptor's chain is valid.
pub(crate) unsafe fn view_descriptor(
    desc: &WGPUTextureViewDescriptor,
    label: &str,
) -> Result<wgpu_core::resource::TextureViewDescriptor<'static>, String> {
    // SAFETY: the chain is valid (caller).
    let chain = unsafe { Chain::walk(desc.nextInChain, "WGPUTextureViewDescriptor") }.map_err(super::chain_error)?;
    // SAFETY: the sType names this struct.
    let swizzle: Option<&WGPUTextureComponentSwizzleDescriptor> =
        unsafe { chain.get(WGPUSType::TextureComponentSwizzleDescriptor) };
    if let Some(sw) = swizzle {
        // Only the identity swizzle (Undefined reads as identity), which
        // needs no feature; wgpu-core has no view swizzle.
        let s = &sw.swizzle;
        let identity = [
            (s.r, WGPUComponentSwizzle::R),
            (s.g, WGPUComponentSwizzle::G),
            (s.b, WGPUComponentSwizzle::B),
            (s.a, WGPUComponentSwizzle::A),
        ]
        .iter()
        .all(|(c, id)| *c == WGPUComponentSwizzle::Undefined || c == id);
        if !identity {
            return Err("a non-identity component swizzle needs TextureComponentSwizzle, which is not supported".into());
        }
    }
    let fmt = match desc.format {
        WGPUTextureFormat::Undefined => None,
        f => Some(format(f, "format")?),
    };
    let dim = match desc.dimension {
        WGPUTextureViewDimension::Undefined => None,
        d => Some(
            super::format::view_dimension(d)
                .ok_or_else(|| format!("dimension {:#x} is not a WGPUTextureViewDimension", d.0))?,
        ),
    };
    let usage = match desc.usage {
        0 => None,
        u => Some(texture_usage(u)?),
    };
    let count = |n: u32| (n != u32::MAX).then_some(n);
    Ok(wgpu_core::resource::TextureViewDescriptor {
        label: super::label(label).map(|l| Cow::Owned(l.into_owned())),
        format: fmt,
        dimension: dim,
        usage,
        range: wgt::ImageSubresourceRange {
            aspect: aspect(desc.aspect)?,
            base_mip_level: desc.baseMipLevel,
            mip_level_count: count(desc.mipLevelCount),
            base_array_layer: desc.baseArrayLayer,
            array_layer_count: count(desc.arrayLayerCount),
        },
    })
}

/// The standard's capabilities of `format` on a device with `features`, or
/// `None` where the device uses its adapter's own table
/// (`TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES`, wgpu.h's native feature).
/// wgpu-core 30 judges sample counts, resolves and read-write storage by the
/// adapter's table on OpenGL whatever the features, which let through what
/// the standard refuses; the checks below apply the standard's table
/// everywhere (on other backends wgpu-core already does).
fn standard_table(format: wgt::TextureFormat, features: wgt::Features) -> Option<wgt::TextureFormatFeatures> {
    (!features.contains(wgt::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES))
        .then(|| format.guaranteed_format_features(features))
}

/// A texture's or pipeline's sample count: 1, or 4 where the standard's
/// table lets the format be multisampled (`format` `None`: any format, for
/// a pipeline, whose targets' formats the textures were checked for).
pub(crate) fn check_sample_count(
    count: u32,
    format: Option<wgt::TextureFormat>,
    features: wgt::Features,
) -> Result<(), String> {
    if count == 1 || features.contains(wgt::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES) {
        return Ok(());
    }
    if count != 4 {
        return Err(format!("sampleCount {count} is not 1 or 4"));
    }
    let Some(format) = format else { return Ok(()) };
    match standard_table(format, features) {
        Some(t) if !t.flags.contains(wgt::TextureFormatFeatureFlags::MULTISAMPLE_X4) => {
            Err(format!("sampleCount 4: {format:?} cannot be multisampled"))
        }
        _ => Ok(()),
    }
}

/// A multisampled attachment of `format` may be resolved.
pub(crate) fn check_resolvable(format: wgt::TextureFormat, features: wgt::Features) -> Result<(), String> {
    match standard_table(format, features) {
        Some(t) if !t.flags.contains(wgt::TextureFormatFeatureFlags::MULTISAMPLE_RESOLVE) => {
            Err(format!("{format:?} cannot be resolved"))
        }
        _ => Ok(()),
    }
}

/// A storage texture binding of `format` with `access`.
pub(crate) fn check_storage_access(
    format: wgt::TextureFormat,
    access: wgt::StorageTextureAccess,
    features: wgt::Features,
) -> Result<(), String> {
    let needed = match access {
        wgt::StorageTextureAccess::ReadWrite => wgt::TextureFormatFeatureFlags::STORAGE_READ_WRITE,
        _ => return Ok(()),
    };
    match standard_table(format, features) {
        Some(t) if !t.flags.contains(needed) => Err(format!("{format:?} storage textures cannot be {access:?}")),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_dimension_aspect() {
        assert_eq!(texture_usage(WGPUTextureUsage_CopySrc), Ok(wgt::TextureUsages::COPY_SRC));
        assert_eq!(texture_usage(1 << 40).unwrap_err(), "texture usage 0x10000000000 has unknown bits");
        assert_eq!(dimension(WGPUTextureDimension::Undefined), Ok(wgt::TextureDimension::D2));
        assert!(dimension(WGPUTextureDimension(9)).is_err());
        assert_eq!(aspect(WGPUTextureAspect::Undefined), Ok(wgt::TextureAspect::All));
        assert_eq!(aspect(WGPUTextureAspect(9)).unwrap_err(), "aspect 0x9 is not a WGPUTextureAspect");
        assert_eq!(
            format(WGPUTextureFormat::Undefined, "format").unwrap_err(),
            "format 0x0 is not a defined WGPUTextureFormat"
        );
    }

    #[test]
    fn the_standard_format_table() {
        use wgt::TextureFormat as F;
        let none = wgt::Features::empty();
        let adapter = wgt::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES;
        assert!(check_sample_count(4, Some(F::Rgba8Unorm), none).is_ok());
        assert!(check_sample_count(2, Some(F::Rgba8Unorm), none).unwrap_err().contains("not 1 or 4"));
        assert!(check_sample_count(2, None, none).is_err());
        assert!(check_sample_count(2, Some(F::Rgba8Unorm), adapter).is_ok());
        assert!(check_sample_count(4, Some(F::R32Uint), none).unwrap_err().contains("multisampled"));
        assert!(check_resolvable(F::Rgba8Unorm, none).is_ok());
        assert!(check_resolvable(F::R8Uint, none).unwrap_err().contains("resolved"));
        let rw = wgt::StorageTextureAccess::ReadWrite;
        assert!(check_storage_access(F::R32Float, rw, none).is_ok());
        assert!(check_storage_access(F::Rgba8Unorm, rw, none).is_err());
        assert!(check_storage_access(F::Rgba8Unorm, wgt::StorageTextureAccess::WriteOnly, none).is_ok());
    }
}
