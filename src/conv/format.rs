//! Texture formats and view dimensions.

use wgpu_types as wgt;
use wgt::{AstcBlock as B, AstcChannel as C, TextureFormat as F};

use crate::abi::{WGPUTextureFormat as W, WGPUTextureViewDimension};

/// The standard texture formats and their wgpu counterparts (ASTC formats
/// are in [`ASTC`]).
const FORMATS: &[(W, F)] = &[
    (W::R8Unorm, F::R8Unorm),
    (W::R8Snorm, F::R8Snorm),
    (W::R8Uint, F::R8Uint),
    (W::R8Sint, F::R8Sint),
    (W::R16Unorm, F::R16Unorm),
    (W::R16Snorm, F::R16Snorm),
    (W::R16Uint, F::R16Uint),
    (W::R16Sint, F::R16Sint),
    (W::R16Float, F::R16Float),
    (W::RG8Unorm, F::Rg8Unorm),
    (W::RG8Snorm, F::Rg8Snorm),
    (W::RG8Uint, F::Rg8Uint),
    (W::RG8Sint, F::Rg8Sint),
    (W::R32Float, F::R32Float),
    (W::R32Uint, F::R32Uint),
    (W::R32Sint, F::R32Sint),
    (W::RG16Unorm, F::Rg16Unorm),
    (W::RG16Snorm, F::Rg16Snorm),
    (W::RG16Uint, F::Rg16Uint),
    (W::RG16Sint, F::Rg16Sint),
    (W::RG16Float, F::Rg16Float),
    (W::RGBA8Unorm, F::Rgba8Unorm),
    (W::RGBA8UnormSrgb, F::Rgba8UnormSrgb),
    (W::RGBA8Snorm, F::Rgba8Snorm),
    (W::RGBA8Uint, F::Rgba8Uint),
    (W::RGBA8Sint, F::Rgba8Sint),
    (W::BGRA8Unorm, F::Bgra8Unorm),
    (W::BGRA8UnormSrgb, F::Bgra8UnormSrgb),
    (W::RGB10A2Uint, F::Rgb10a2Uint),
    (W::RGB10A2Unorm, F::Rgb10a2Unorm),
    (W::RG11B10Ufloat, F::Rg11b10Ufloat),
    (W::RGB9E5Ufloat, F::Rgb9e5Ufloat),
    (W::RG32Float, F::Rg32Float),
    (W::RG32Uint, F::Rg32Uint),
    (W::RG32Sint, F::Rg32Sint),
    (W::RGBA16Unorm, F::Rgba16Unorm),
    (W::RGBA16Snorm, F::Rgba16Snorm),
    (W::RGBA16Uint, F::Rgba16Uint),
    (W::RGBA16Sint, F::Rgba16Sint),
    (W::RGBA16Float, F::Rgba16Float),
    (W::RGBA32Float, F::Rgba32Float),
    (W::RGBA32Uint, F::Rgba32Uint),
    (W::RGBA32Sint, F::Rgba32Sint),
    (W::Stencil8, F::Stencil8),
    (W::Depth16Unorm, F::Depth16Unorm),
    (W::Depth24Plus, F::Depth24Plus),
    (W::Depth24PlusStencil8, F::Depth24PlusStencil8),
    (W::Depth32Float, F::Depth32Float),
    (W::Depth32FloatStencil8, F::Depth32FloatStencil8),
    (W::BC1RGBAUnorm, F::Bc1RgbaUnorm),
    (W::BC1RGBAUnormSrgb, F::Bc1RgbaUnormSrgb),
    (W::BC2RGBAUnorm, F::Bc2RgbaUnorm),
    (W::BC2RGBAUnormSrgb, F::Bc2RgbaUnormSrgb),
    (W::BC3RGBAUnorm, F::Bc3RgbaUnorm),
    (W::BC3RGBAUnormSrgb, F::Bc3RgbaUnormSrgb),
    (W::BC4RUnorm, F::Bc4RUnorm),
    (W::BC4RSnorm, F::Bc4RSnorm),
    (W::BC5RGUnorm, F::Bc5RgUnorm),
    (W::BC5RGSnorm, F::Bc5RgSnorm),
    (W::BC6HRGBUfloat, F::Bc6hRgbUfloat),
    (W::BC6HRGBFloat, F::Bc6hRgbFloat),
    (W::BC7RGBAUnorm, F::Bc7RgbaUnorm),
    (W::BC7RGBAUnormSrgb, F::Bc7RgbaUnormSrgb),
    (W::ETC2RGB8Unorm, F::Etc2Rgb8Unorm),
    (W::ETC2RGB8UnormSrgb, F::Etc2Rgb8UnormSrgb),
    (W::ETC2RGB8A1Unorm, F::Etc2Rgb8A1Unorm),
    (W::ETC2RGB8A1UnormSrgb, F::Etc2Rgb8A1UnormSrgb),
    (W::ETC2RGBA8Unorm, F::Etc2Rgba8Unorm),
    (W::ETC2RGBA8UnormSrgb, F::Etc2Rgba8UnormSrgb),
    (W::EACR11Unorm, F::EacR11Unorm),
    (W::EACR11Snorm, F::EacR11Snorm),
    (W::EACRG11Unorm, F::EacRg11Unorm),
    (W::EACRG11Snorm, F::EacRg11Snorm),
];

/// wgpu.h's extra formats (`WGPUNativeTextureFormat`): the two-plane
/// video formats, which need the device features `TextureFormatNv12` /
/// `TextureFormatP010` (wgpu-core checks them).
const NATIVE_FORMATS: [(W, F); 2] = [
    (W(crate::abi::native::WGPUNativeTextureFormat_NV12), F::NV12),
    (W(crate::abi::native::WGPUNativeTextureFormat_P010), F::P010),
];

/// The ASTC block sizes, in the order of the standard enum (each block size
/// has a Unorm value followed by a UnormSrgb one, from `ASTC4x4Unorm` on).
const ASTC: [B; 14] = [
    B::B4x4,
    B::B5x4,
    B::B5x5,
    B::B6x5,
    B::B6x6,
    B::B8x5,
    B::B8x6,
    B::B8x8,
    B::B10x5,
    B::B10x6,
    B::B10x8,
    B::B10x10,
    B::B12x10,
    B::B12x12,
];

/// The wgpu texture format for a standard one or one of wgpu.h's
/// [`NATIVE_FORMATS`]; `None` for `Undefined` and unknown values.
pub(crate) fn texture_format(format: W) -> Option<F> {
    if let Some((_, f)) = FORMATS.iter().chain(&NATIVE_FORMATS).find(|(w, _)| *w == format) {
        return Some(*f);
    }
    let index = format.0.checked_sub(W::ASTC4x4Unorm.0)? as usize;
    let block = *ASTC.get(index / 2)?;
    let channel = if index.is_multiple_of(2) { C::Unorm } else { C::UnormSrgb };
    Some(F::Astc { block, channel })
}

/// The standard value of a wgpu texture format; `None` for formats webgpu.h
/// does not define.
pub(crate) fn standard_format(format: F) -> Option<W> {
    if let Some((w, _)) = FORMATS.iter().find(|(_, f)| *f == format) {
        return Some(*w);
    }
    let F::Astc { block, channel } = format else { return None };
    let index = ASTC.iter().position(|b| *b == block)? * 2;
    let index = match channel {
        C::Unorm => index,
        C::UnormSrgb => index + 1,
        C::Hdr => return None,
    };
    Some(W(W::ASTC4x4Unorm.0 + index as u32))
}

/// A texture view dimension; `Undefined` defaults to 2D. `None` for unknown
/// values.
pub(crate) fn view_dimension(dim: WGPUTextureViewDimension) -> Option<wgt::TextureViewDimension> {
    use wgt::TextureViewDimension as D;
    Some(match dim {
        WGPUTextureViewDimension::Undefined | WGPUTextureViewDimension::_2D => D::D2,
        WGPUTextureViewDimension::_1D => D::D1,
        WGPUTextureViewDimension::_2DArray => D::D2Array,
        WGPUTextureViewDimension::Cube => D::Cube,
        WGPUTextureViewDimension::CubeArray => D::CubeArray,
        WGPUTextureViewDimension::_3D => D::D3,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_standard_format_maps_to_a_distinct_format() {
        let mut seen = Vec::new();
        for raw in 1..=W::ASTC12x12UnormSrgb.0 {
            let f = texture_format(W(raw)).unwrap_or_else(|| panic!("format {raw:#x} has no mapping"));
            assert!(!seen.contains(&f), "format {raw:#x} maps to {f:?} twice");
            seen.push(f);
        }
        assert_eq!(texture_format(W::Undefined), None);
        assert_eq!(texture_format(W(W::ASTC12x12UnormSrgb.0 + 1)), None);
        assert_eq!(texture_format(W(0x7fff_ffff)), None);
    }

    #[test]
    fn standard_format_inverts_texture_format() {
        for raw in 1..=W::ASTC12x12UnormSrgb.0 {
            let f = texture_format(W(raw)).unwrap();
            assert_eq!(standard_format(f), Some(W(raw)), "{f:?}");
        }
        assert_eq!(standard_format(F::NV12), None);
    }

    #[test]
    fn native_formats() {
        assert_eq!(texture_format(W(0x0003_0007)), Some(F::NV12));
        assert_eq!(texture_format(W(0x0003_0008)), Some(F::P010));
        assert_eq!(texture_format(W(0x0003_0009)), None);
    }

    #[test]
    fn astc_order() {
        assert_eq!(texture_format(W::ASTC4x4Unorm), Some(F::Astc { block: B::B4x4, channel: C::Unorm }));
        assert_eq!(texture_format(W::ASTC10x8UnormSrgb), Some(F::Astc { block: B::B10x8, channel: C::UnormSrgb }));
        assert_eq!(texture_format(W::ASTC12x12Unorm), Some(F::Astc { block: B::B12x12, channel: C::Unorm }));
    }

    #[test]
    fn view_dimensions() {
        use wgt::TextureViewDimension as D;
        assert_eq!(view_dimension(WGPUTextureViewDimension::Undefined), Some(D::D2));
        assert_eq!(view_dimension(WGPUTextureViewDimension::CubeArray), Some(D::CubeArray));
        assert_eq!(view_dimension(WGPUTextureViewDimension(99)), None);
    }
}
