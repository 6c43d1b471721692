//! Sampler descriptors: address modes, filter modes and the comparison.
//!
//! `Undefined` values get the header's defaults (ClampToEdge, Nearest, no
//! comparison); unknown values are validation errors.

use wgpu_types as wgt;

use crate::abi::*;

/// wgpu.h's extra address mode: clamp to the border colour of a chained
/// `WGPUSamplerDescriptorExtras` (the device feature
/// `AddressModeClampToBorder`, checked by wgpu-core).
const CLAMP_TO_BORDER: WGPUAddressMode = WGPUAddressMode(crate::abi::native::WGPUNativeAddressMode_ClampToBorder);

/// An address mode; `Undefined` is ClampToEdge.
fn address_mode(m: WGPUAddressMode, what: &str) -> Result<wgt::AddressMode, String> {
    Ok(match m {
        WGPUAddressMode::Undefined | WGPUAddressMode::ClampToEdge => wgt::AddressMode::ClampToEdge,
        WGPUAddressMode::Repeat => wgt::AddressMode::Repeat,
        WGPUAddressMode::MirrorRepeat => wgt::AddressMode::MirrorRepeat,
        CLAMP_TO_BORDER => wgt::AddressMode::ClampToBorder,
        other => return Err(format!("{what} {:#x} is not a WGPUAddressMode", other.0)),
    })
}

/// A filter mode; `Undefined` is Nearest.
fn filter_mode(m: WGPUFilterMode, what: &str) -> Result<wgt::FilterMode, String> {
    Ok(match m {
        WGPUFilterMode::Undefined | WGPUFilterMode::Nearest => wgt::FilterMode::Nearest,
        WGPUFilterMode::Linear => wgt::FilterMode::Linear,
        other => return Err(format!("{what} {:#x} is not a WGPUFilterMode", other.0)),
    })
}

/// A mipmap filter mode; `Undefined` is Nearest.
fn mipmap_filter_mode(m: WGPUMipmapFilterMode) -> Result<wgt::MipmapFilterMode, String> {
    Ok(match m {
        WGPUMipmapFilterMode::Undefined | WGPUMipmapFilterMode::Nearest => wgt::MipmapFilterMode::Nearest,
        WGPUMipmapFilterMode::Linear => wgt::MipmapFilterMode::Linear,
        other => return Err(format!("mipmapFilter {:#x} is not a WGPUMipmapFilterMode", other.0)),
    })
}

/// wgpu-core's sampler descriptor.
pub(crate) type SamplerDesc<'a> = wgpu_core::resource::SamplerDescriptor<'a>;

/// Converts a sampler descriptor. The border colour comes from a chained
/// `WGPUSamplerDescriptorExtras` ([`super::native_extras`]); the compare
/// function is [`super::render::compare`]'s.
///
/// # Safety
/// The descriptor's chain is valid.
pub(crate) unsafe fn descriptor<'a>(desc: &WGPUSamplerDescriptor, label: &'a str) -> Result<SamplerDesc<'a>, String> {
    // SAFETY: the chain is valid (caller).
    let border_color = unsafe { super::native_extras::sampler_border_color(desc.nextInChain) }?;
    Ok(SamplerDesc {
        label: super::label(label),
        address_modes: [
            address_mode(desc.addressModeU, "addressModeU")?,
            address_mode(desc.addressModeV, "addressModeV")?,
            address_mode(desc.addressModeW, "addressModeW")?,
        ],
        mag_filter: filter_mode(desc.magFilter, "magFilter")?,
        min_filter: filter_mode(desc.minFilter, "minFilter")?,
        mipmap_filter: mipmap_filter_mode(desc.mipmapFilter)?,
        lod_min_clamp: desc.lodMinClamp,
        lod_max_clamp: desc.lodMaxClamp,
        compare: super::render::compare(desc.compare).map_err(|e| format!("compare {e}"))?,
        anisotropy_clamp: desc.maxAnisotropy,
        border_color,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_and_messages() {
        assert_eq!(address_mode(WGPUAddressMode::Undefined, "u"), Ok(wgt::AddressMode::ClampToEdge));
        assert_eq!(address_mode(CLAMP_TO_BORDER, "u"), Ok(wgt::AddressMode::ClampToBorder));
        assert_eq!(
            address_mode(WGPUAddressMode(0x99), "addressModeU").unwrap_err(),
            "addressModeU 0x99 is not a WGPUAddressMode"
        );
        assert_eq!(filter_mode(WGPUFilterMode::Undefined, "m"), Ok(wgt::FilterMode::Nearest));
        assert_eq!(mipmap_filter_mode(WGPUMipmapFilterMode::Linear), Ok(wgt::MipmapFilterMode::Linear));
        let desc = WGPUSamplerDescriptor { compare: WGPUCompareFunction(0x99), ..Default::default() };
        // SAFETY: no chain.
        let err = unsafe { descriptor(&desc, "") }.unwrap_err();
        assert_eq!(err, "compare 0x99 is not a WGPUCompareFunction");
    }
}
