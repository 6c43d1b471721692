//! wgpu.h's chained structs on the standard descriptors of pipelines,
//! shaders, bindings and samplers: `WGPUPrimitiveStateExtras` (polygon mode,
//! conservative rasterization).
//!
//! The standard code walks the chain of the struct each one extends,
//! allowing the sType there and nowhere else, and calls these helpers to
//! read the link. Whether the device has the feature a value needs
//! (`PolygonModeLine`, `ConservativeRasterization`, ...) is wgpu-core's to
//! check, as on wgpu-native. Errors are validation error messages.

#![allow(non_upper_case_globals)]

use wgpu_types as wgt;

use super::abi::*;
use crate::abi::{WGPUChainedStruct, WGPUSType};
use crate::ffi::chain::Chain;

/// The sType of `WGPUPrimitiveStateExtras`.
pub(crate) const PRIMITIVE_STATE_EXTRAS: WGPUSType = WGPUSType(WGPUSType_PrimitiveStateExtras);

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
    let chain = unsafe { Chain::walk(next, "WGPUPrimitiveState", &[PRIMITIVE_STATE_EXTRAS]) }
        .map_err(crate::conv::chain_error)?;
    // SAFETY: the sType names this struct.
    if let Some(extras) = unsafe { chain.get::<WGPUPrimitiveStateExtras>(PRIMITIVE_STATE_EXTRAS) } {
        p.polygon_mode = polygon_mode(extras.polygonMode)?;
        p.conservative = extras.conservative != 0;
    }
    Ok(())
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
}
