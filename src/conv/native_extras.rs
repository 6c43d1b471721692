//! wgpu.h's chained structs on the standard descriptors of pipelines,
//! shaders, bindings and samplers: `WGPUPrimitiveStateExtras` (polygon mode,
//! conservative rasterization), `WGPUShaderSourceGLSL`,
//! `WGPUBindGroupLayoutEntryExtras` / `WGPUBindGroupEntryExtras` (binding
//! arrays) and `WGPUSamplerDescriptorExtras` (border colour).
//!
//! The standard code walks the chain of the struct each one extends,
//! allowing the sType there and nowhere else, and calls these helpers to
//! read the link. Whether the device has the feature a value needs
//! (`PolygonModeLine`, `ConservativeRasterization`, `TextureBindingArray`,
//! `AddressModeClampToBorder`, ...) is wgpu-core's to check, as on
//! wgpu-native. Inner errors are validation error messages; outer ones
//! synchronous rejections of malformed memory.

#![allow(non_upper_case_globals)]

use std::borrow::Cow;
use std::num::NonZeroU32;

use wgpu_core::naga;
use wgpu_core::pipeline::ShaderModuleSource;
use wgpu_types as wgt;

use crate::abi::native::*;
use crate::abi::{
    WGPUBuffer, WGPUChainedStruct, WGPUSType, WGPUSampler, WGPUShaderStage, WGPUShaderStage_Compute,
    WGPUShaderStage_Fragment, WGPUShaderStage_Vertex, WGPUTextureView,
};
use crate::ffi::boundary::{self, ApiResult};
use crate::ffi::chain_walk::Chain;

/// The sType of `WGPUPrimitiveStateExtras`.
pub(crate) const PRIMITIVE_STATE_EXTRAS: WGPUSType = WGPUSType(WGPUSType_PrimitiveStateExtras);
/// The sType of `WGPUShaderSourceGLSL`.
pub(crate) const SHADER_SOURCE_GLSL: WGPUSType = WGPUSType(WGPUSType_ShaderSourceGLSL);
/// The sType of `WGPUBindGroupEntryExtras`.
pub(crate) const BIND_GROUP_ENTRY_EXTRAS: WGPUSType = WGPUSType(WGPUSType_BindGroupEntryExtras);
/// The sType of `WGPUBindGroupLayoutEntryExtras`.
pub(crate) const BIND_GROUP_LAYOUT_ENTRY_EXTRAS: WGPUSType = WGPUSType(WGPUSType_BindGroupLayoutEntryExtras);
/// The sType of `WGPUSamplerDescriptorExtras`.
pub(crate) const SAMPLER_DESCRIPTOR_EXTRAS: WGPUSType = WGPUSType(WGPUSType_SamplerDescriptorExtras);

/// A `WGPUPolygonMode`.
fn polygon_mode(mode: WGPUPolygonMode) -> Result<wgt::PolygonMode, String> {
    Ok(match mode {
        WGPUPolygonMode_Fill => wgt::PolygonMode::Fill,
        WGPUPolygonMode_Line => wgt::PolygonMode::Line,
        WGPUPolygonMode_Point => wgt::PolygonMode::Point,
        other => return Err(format!("WGPUPrimitiveStateExtras.polygonMode {other:#x} is not a WGPUPolygonMode")),
    })
}

/// Applies a `WGPUPrimitiveStateExtras` chained to a primitive state to
/// `p`: its polygon mode (Line and Point need the device features
/// `PolygonModeLine` / `PolygonModePoint`) and conservative rasterization
/// (`ConservativeRasterization`). Any other chained struct is an error.
///
/// # Safety
/// The chain is valid.
pub(crate) unsafe fn primitive_state(
    next: *const WGPUChainedStruct,
    p: &mut wgt::PrimitiveState,
) -> Result<(), String> {
    // SAFETY: the chain is valid (caller).
    let chain = unsafe { Chain::walk(next, "WGPUPrimitiveState") }.map_err(crate::conv::chain_error)?;
    // SAFETY: the sType names this struct.
    if let Some(extras) = unsafe { chain.get::<WGPUPrimitiveStateExtras>(PRIMITIVE_STATE_EXTRAS) } {
        p.polygon_mode = polygon_mode(extras.polygonMode)?;
        p.conservative = extras.conservative != 0;
    }
    Ok(())
}

/// The naga stage of a GLSL source: exactly one of vertex, fragment and
/// compute.
fn glsl_stage(stage: WGPUShaderStage) -> Result<naga::ShaderStage, String> {
    Ok(match stage {
        WGPUShaderStage_Vertex => naga::ShaderStage::Vertex,
        WGPUShaderStage_Fragment => naga::ShaderStage::Fragment,
        WGPUShaderStage_Compute => naga::ShaderStage::Compute,
        other => {
            return Err(format!("WGPUShaderSourceGLSL.stage {other:#x} is not one stage (Vertex, Fragment or Compute)"))
        }
    })
}

/// The shader source of a `WGPUShaderSourceGLSL`: its code for one stage,
/// with the defines as preprocessor definitions (`#define name value`; a
/// null value defines the name as empty). wgpu-core parses it with naga's
/// GLSL front end.
///
/// # Safety
/// The code view, the define array and its string views are valid.
pub(crate) unsafe fn glsl_source<'a>(glsl: &WGPUShaderSourceGLSL) -> ApiResult<Result<ShaderModuleSource<'a>, String>> {
    // SAFETY: the views and the array are valid (caller).
    let (code, defines) = unsafe {
        (
            boundary::str_arg(glsl.code, "WGPUShaderSourceGLSL.code")?.or_empty(),
            boundary::slice_arg(glsl.defines, glsl.defineCount as usize, "WGPUShaderSourceGLSL.defines")?,
        )
    };
    let stage = match glsl_stage(glsl.stage) {
        Ok(stage) => stage,
        Err(why) => return Ok(Err(why)),
    };
    let mut options = naga::front::glsl::Options::from(stage);
    for (i, d) in defines.iter().enumerate() {
        // SAFETY: the define's views are valid (caller).
        let (name, value) = unsafe {
            (
                boundary::str_arg(d.name, &format!("WGPUShaderSourceGLSL.defines[{i}].name"))?.or_empty(),
                boundary::str_arg(d.value, &format!("WGPUShaderSourceGLSL.defines[{i}].value"))?.or_empty(),
            )
        };
        if name.is_empty() {
            return Ok(Err(format!("WGPUShaderSourceGLSL.defines[{i}] has an empty name")));
        }
        options.defines.insert(name.into_owned(), value.into_owned());
    }
    Ok(Ok(ShaderModuleSource::Glsl(Cow::Owned(code.into_owned()), options)))
}

/// The array size of a bind group layout entry: a chained
/// `WGPUBindGroupLayoutEntryExtras` with a non-zero `count` (wgpu-native's
/// way), else the entry's own `bindingArraySize`; `None`: not an array.
/// Both non-zero and different is an error.
///
/// # Safety
/// `chain` was walked from the entry's chain.
pub(crate) unsafe fn layout_entry_count(chain: &Chain, binding_array_size: u32) -> Result<Option<NonZeroU32>, String> {
    // SAFETY: the sType names this struct.
    let extras = unsafe { chain.get::<WGPUBindGroupLayoutEntryExtras>(BIND_GROUP_LAYOUT_ENTRY_EXTRAS) };
    let count = extras.map_or(0, |e| e.count);
    match (count, binding_array_size) {
        (0, size) => Ok(NonZeroU32::new(size)),
        (count, 0) => Ok(NonZeroU32::new(count)),
        (count, size) if count == size => Ok(NonZeroU32::new(count)),
        (count, size) => Err(format!(
            "WGPUBindGroupLayoutEntryExtras.count {count} differs from the entry's bindingArraySize {size}"
        )),
    }
}

/// The resource lists of a `WGPUBindGroupEntryExtras` (each may be empty).
pub(crate) struct EntryArrays<'a> {
    pub(crate) buffers: &'a [WGPUBuffer],
    pub(crate) samplers: &'a [WGPUSampler],
    pub(crate) texture_views: &'a [WGPUTextureView],
}

/// The resource lists of the `WGPUBindGroupEntryExtras` in a bind group
/// entry's chain, if one is there (a list of zero handles may be NULL).
///
/// # Safety
/// `chain` was walked from the entry's chain; the arrays it holds are valid.
pub(crate) unsafe fn entry_arrays<'a>(chain: &Chain) -> ApiResult<Option<EntryArrays<'a>>> {
    // SAFETY: the sType names this struct.
    let Some(extras) = (unsafe { chain.get::<WGPUBindGroupEntryExtras>(BIND_GROUP_ENTRY_EXTRAS) }) else {
        return Ok(None);
    };
    // SAFETY: each array holds its count of handles (caller).
    unsafe {
        Ok(Some(EntryArrays {
            buffers: boundary::slice_arg(extras.buffers, extras.bufferCount, "WGPUBindGroupEntryExtras.buffers")?,
            samplers: boundary::slice_arg(extras.samplers, extras.samplerCount, "WGPUBindGroupEntryExtras.samplers")?,
            texture_views: boundary::slice_arg(
                extras.textureViews,
                extras.textureViewCount,
                "WGPUBindGroupEntryExtras.textureViews",
            )?,
        }))
    }
}

/// The border colour of a sampler descriptor's chained
/// `WGPUSamplerDescriptorExtras` (`None` when there is none or it is
/// `Undefined`). The colour applies where an address mode is
/// `WGPUNativeAddressMode_ClampToBorder`; `Zero` needs the device feature
/// `AddressModeClampToZero`. Any other chained struct is an error.
///
/// # Safety
/// The chain is valid.
pub(crate) unsafe fn sampler_border_color(
    next: *const WGPUChainedStruct,
) -> Result<Option<wgt::SamplerBorderColor>, String> {
    use wgt::SamplerBorderColor as C;
    // SAFETY: the chain is valid (caller).
    let chain = unsafe { Chain::walk(next, "WGPUSamplerDescriptor") }.map_err(crate::conv::chain_error)?;
    // SAFETY: the sType names this struct.
    let Some(extras) = (unsafe { chain.get::<WGPUSamplerDescriptorExtras>(SAMPLER_DESCRIPTOR_EXTRAS) }) else {
        return Ok(None);
    };
    Ok(match extras.samplerBorderColor {
        WGPUSamplerBorderColor_Undefined => None,
        WGPUSamplerBorderColor_TransparentBlack => Some(C::TransparentBlack),
        WGPUSamplerBorderColor_OpaqueBlack => Some(C::OpaqueBlack),
        WGPUSamplerBorderColor_OpaqueWhite => Some(C::OpaqueWhite),
        WGPUSamplerBorderColor_Zero => Some(C::Zero),
        other => {
            return Err(format!(
                "WGPUSamplerDescriptorExtras.samplerBorderColor {other:#x} is not a WGPUSamplerBorderColor"
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(s_type: WGPUSType) -> WGPUChainedStruct {
        WGPUChainedStruct { next: std::ptr::null_mut(), sType: s_type }
    }

    #[test]
    fn primitive_extras() {
        let mut p = wgt::PrimitiveState::default();
        let mut extras = WGPUPrimitiveStateExtras {
            chain: link(PRIMITIVE_STATE_EXTRAS),
            polygonMode: WGPUPolygonMode_Line,
            conservative: 1,
        };
        // SAFETY: the chain is one valid link.
        unsafe {
            assert!(primitive_state(std::ptr::null(), &mut p).is_ok());
            assert_eq!(p.polygon_mode, wgt::PolygonMode::Fill);
            primitive_state(&extras.chain, &mut p).unwrap();
            assert_eq!((p.polygon_mode, p.conservative), (wgt::PolygonMode::Line, true));
            extras.polygonMode = 7;
            assert!(primitive_state(&extras.chain, &mut p).unwrap_err().contains("polygonMode"));
            let other = link(WGPUSType::ShaderSourceWGSL);
            assert!(primitive_state(&other, &mut p).unwrap_err().contains("does not extend"));
        }
    }

    #[test]
    fn glsl_stages() {
        assert!(matches!(glsl_stage(WGPUShaderStage_Vertex), Ok(naga::ShaderStage::Vertex)));
        assert!(matches!(glsl_stage(WGPUShaderStage_Compute), Ok(naga::ShaderStage::Compute)));
        assert!(glsl_stage(0).is_err());
        assert!(glsl_stage(WGPUShaderStage_Vertex | WGPUShaderStage_Fragment).is_err());
    }

    #[test]
    fn layout_counts() {
        let mut extras = WGPUBindGroupLayoutEntryExtras { chain: link(BIND_GROUP_LAYOUT_ENTRY_EXTRAS), count: 4 };
        // SAFETY: the chains are NULL or one valid link, read as walked.
        unsafe {
            let none = Chain::walk(std::ptr::null(), "WGPUBindGroupLayoutEntry").unwrap();
            assert_eq!(layout_entry_count(&none, 0), Ok(None));
            assert_eq!(layout_entry_count(&none, 3), Ok(NonZeroU32::new(3)));
            let one = Chain::walk(&extras.chain, "WGPUBindGroupLayoutEntry").unwrap();
            assert_eq!(layout_entry_count(&one, 0), Ok(NonZeroU32::new(4)));
            assert_eq!(layout_entry_count(&one, 4), Ok(NonZeroU32::new(4)));
            assert!(layout_entry_count(&one, 5).is_err());
            extras.count = 0;
            let zero = Chain::walk(&extras.chain, "WGPUBindGroupLayoutEntry").unwrap();
            assert_eq!(layout_entry_count(&zero, 2), Ok(NonZeroU32::new(2)));
        }
    }

    #[test]
    fn border_colors() {
        let mut extras = WGPUSamplerDescriptorExtras {
            chain: link(SAMPLER_DESCRIPTOR_EXTRAS),
            samplerBorderColor: WGPUSamplerBorderColor_OpaqueWhite,
        };
        // SAFETY: the chain is NULL or one valid link.
        unsafe {
            assert_eq!(sampler_border_color(std::ptr::null()), Ok(None));
            assert_eq!(sampler_border_color(&extras.chain), Ok(Some(wgt::SamplerBorderColor::OpaqueWhite)));
            extras.samplerBorderColor = WGPUSamplerBorderColor_Undefined;
            assert_eq!(sampler_border_color(&extras.chain), Ok(None));
            extras.samplerBorderColor = 9;
            assert!(sampler_border_color(&extras.chain).is_err());
            let other = link(PRIMITIVE_STATE_EXTRAS);
            assert!(sampler_border_color(&other).is_err());
        }
    }
}
