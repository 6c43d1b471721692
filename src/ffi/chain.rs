//! Struct chains (`nextInChain`): walked iteratively, validated once.
//!
//! A chain is malformed when a link's sType is not allowed for the struct it
//! extends, or when one sType appears twice (which also catches cycles).

use crate::abi::{WGPUChainedStruct, WGPUSType};
use crate::ffi::boundary::{reject, ApiResult};

/// The sType block of wgpu-native's `wgpu.h` structs (`0x0003_xxxx`).
const NATIVE_STYPE_BLOCK: u32 = 0x0003;

/// The links of a chain, by sType.
pub(crate) struct Chain {
    links: Vec<(WGPUSType, *const WGPUChainedStruct)>,
}

impl Chain {
    /// Walks the chain starting at `next`, accepting only `allowed` sTypes.
    ///
    /// # Safety
    /// Every link is NULL or points at a valid chained struct whose header is
    /// a `WGPUChainedStruct`.
    pub(crate) unsafe fn walk(
        mut next: *const WGPUChainedStruct,
        owner: &str,
        allowed: &[WGPUSType],
    ) -> ApiResult<Chain> {
        let mut links = Vec::new();
        while !next.is_null() {
            // SAFETY: non-NULL links are valid chained structs (caller).
            let link = unsafe { &*next };
            if !allowed.contains(&link.sType) {
                return Err(reject!(
                    "{owner}.nextInChain holds sType {:#x}, which does not extend {owner}",
                    link.sType.0
                ));
            }
            if link.sType.0 >> 16 == NATIVE_STYPE_BLOCK {
                crate::compat::native_api_used("a wgpu.h struct in nextInChain");
            }
            if links.iter().any(|(s, _)| *s == link.sType) {
                return Err(reject!("{owner}.nextInChain holds sType {:#x} twice", link.sType.0));
            }
            links.push((link.sType, next));
            next = link.next;
        }
        Ok(Chain { links })
    }

    /// The link of type `sType`, cast to its struct `T`.
    ///
    /// # Safety
    /// `T` is the struct that `sType` denotes (it starts with a
    /// `WGPUChainedStruct`).
    pub(crate) unsafe fn get<'a, T>(&self, s_type: WGPUSType) -> Option<&'a T> {
        self.links
            .iter()
            .find(|(s, _)| *s == s_type)
            // SAFETY: the caller names the struct type that matches sType.
            .map(|(_, p)| unsafe { &*(*p as *const T) })
    }

    /// Whether the chain holds a link of type `s_type`.
    pub(crate) fn has(&self, s_type: WGPUSType) -> bool {
        self.links.iter().any(|(s, _)| *s == s_type)
    }

    /// Whether the chain is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.links.is_empty()
    }
}

/// [`expect_none`] for an output struct the application hands in to be
/// filled. wgpu-native never reads these chains, and programs written for
/// it leave them uninitialised (`WGPUSurfaceTexture st;`): under wgpu-native
/// compatibility (`compat::Rule::UnreadOutputChain`) the chain is not read.
///
/// # Safety
/// As [`Chain::walk`], unless wgpu-native compatibility is on.
pub(crate) unsafe fn expect_none_out(next: *const WGPUChainedStruct, owner: &str) -> ApiResult<()> {
    if !next.is_null() && crate::compat::allows(crate::compat::Rule::UnreadOutputChain) {
        return Ok(());
    }
    // SAFETY: forwarded from the caller.
    unsafe { expect_none(next, owner) }
}

/// Rejects any chain on a struct that no extension extends.
///
/// # Safety
/// As [`Chain::walk`].
pub(crate) unsafe fn expect_none(next: *const WGPUChainedStruct, owner: &str) -> ApiResult<()> {
    if next.is_null() {
        return Ok(());
    }
    // SAFETY: forwarded from the caller.
    unsafe { Chain::walk(next, owner, &[]) }.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_and_unknown_types_are_rejected() {
        let mut links = [
            WGPUChainedStruct { next: std::ptr::null_mut(), sType: WGPUSType::ShaderSourceSPIRV },
            WGPUChainedStruct { next: std::ptr::null_mut(), sType: WGPUSType::ShaderSourceWGSL },
        ];
        let base = links.as_mut_ptr();
        let both = [WGPUSType::ShaderSourceWGSL, WGPUSType::ShaderSourceSPIRV];
        // SAFETY: every link points into `links`, which outlives the walks.
        unsafe {
            (*base).next = base.add(1);
            assert!(Chain::walk(base, "X", &both).is_ok());
            assert!(Chain::walk(base, "X", &both[..1]).is_err());
            (*base.add(1)).next = base; // a cycle: 0 → 1 → 0
            assert!(Chain::walk(base, "X", &both).is_err());
            assert!(expect_none(std::ptr::null(), "X").is_ok());
        }
    }
}
