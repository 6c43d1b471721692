//! Struct chains (`nextInChain`): walked iteratively, validated once.
//!
//! A chain is malformed when a link's sType is not accepted for the struct
//! it extends, or when one sType appears twice (which also catches cycles).
//! What each struct accepts is listed once, in [`ACCEPTED`]; unit tests
//! check it against the chains webgpu.h allows (`abi::CHAIN_EXTENSIONS`,
//! generated from webgpu.yml) and against the readers in the sources.

use crate::abi::native;
use crate::abi::{WGPUChainedStruct, WGPUSType};
use crate::ffi::boundary::{reject, ApiResult};

/// The sType block of wgpu-native's `wgpu.h` structs (`0x0003_xxxx`).
const NATIVE_STYPE_BLOCK: u32 = 0x0003;

/// The sTypes each struct's reader accepts in its `nextInChain`, by the
/// struct's C name: every chain webgpu.h allows, and wgpu.h's structs where
/// wgpu-native accepts them. A struct not listed takes no chain
/// ([`expect_none`]). Accepting a link is not doing what it asks: a reader
/// may still refuse one it cannot honour (DECISIONS.md says which).
pub(crate) const ACCEPTED: &[(&str, &[WGPUSType])] = &[
    (
        "WGPUBindGroupEntry",
        &[WGPUSType::ExternalTextureBindingEntry, WGPUSType(native::WGPUSType_BindGroupEntryExtras)],
    ),
    (
        "WGPUBindGroupLayoutEntry",
        &[WGPUSType::ExternalTextureBindingLayout, WGPUSType(native::WGPUSType_BindGroupLayoutEntryExtras)],
    ),
    ("WGPUDeviceDescriptor", &[WGPUSType(native::WGPUSType_DeviceExtras)]),
    ("WGPUInstanceDescriptor", &[WGPUSType(native::WGPUSType_InstanceExtras)]),
    ("WGPULimits", &[WGPUSType::CompatibilityModeLimits, WGPUSType(native::WGPUSType_NativeLimits)]),
    ("WGPUPrimitiveState", &[WGPUSType(native::WGPUSType_PrimitiveStateExtras)]),
    ("WGPUQuerySetDescriptor", &[WGPUSType(native::WGPUSType_QuerySetDescriptorExtras)]),
    ("WGPURenderPassDescriptor", &[WGPUSType::RenderPassMaxDrawCount]),
    ("WGPURequestAdapterOptions", &[WGPUSType::RequestAdapterWebXROptions]),
    ("WGPUSamplerDescriptor", &[WGPUSType(native::WGPUSType_SamplerDescriptorExtras)]),
    (
        "WGPUShaderModuleDescriptor",
        &[WGPUSType::ShaderSourceWGSL, WGPUSType::ShaderSourceSPIRV, WGPUSType(native::WGPUSType_ShaderSourceGLSL)],
    ),
    (
        "WGPUSurfaceConfiguration",
        &[WGPUSType::SurfaceColorManagement, WGPUSType(native::WGPUSType_SurfaceConfigurationExtras)],
    ),
    (
        "WGPUSurfaceDescriptor",
        &[
            WGPUSType::SurfaceSourceXlibWindow,
            WGPUSType::SurfaceSourceXCBWindow,
            WGPUSType::SurfaceSourceWaylandSurface,
            WGPUSType::SurfaceSourceAndroidNativeWindow,
            WGPUSType::SurfaceSourceMetalLayer,
            WGPUSType::SurfaceSourceWindowsHWND,
            WGPUSType(native::WGPUSType_SurfaceSourceSwapChainPanel),
        ],
    ),
    ("WGPUTextureDescriptor", &[WGPUSType::TextureBindingViewDimension]),
    ("WGPUTextureViewDescriptor", &[WGPUSType::TextureComponentSwizzleDescriptor]),
];

/// The sTypes [`ACCEPTED`] lists for `owner` (none if it is not listed).
pub(crate) fn accepted(owner: &str) -> &'static [WGPUSType] {
    ACCEPTED.iter().find(|(o, _)| *o == owner).map_or(&[], |(_, a)| a)
}

/// The links of a chain, by sType.
pub(crate) struct Chain {
    links: Vec<(WGPUSType, *const WGPUChainedStruct)>,
}

impl Chain {
    /// Walks the chain of a struct named `owner`, accepting the sTypes
    /// [`ACCEPTED`] lists for it.
    ///
    /// # Safety
    /// Every link is NULL or points at a valid chained struct whose header is
    /// a `WGPUChainedStruct`.
    pub(crate) unsafe fn walk(next: *const WGPUChainedStruct, owner: &str) -> ApiResult<Chain> {
        // SAFETY: forwarded from the caller.
        unsafe { Chain::walk_accepting(next, owner, accepted(owner)) }
    }

    /// Walks the chain starting at `next`, accepting only `allowed` sTypes.
    ///
    /// # Safety
    /// As [`Chain::walk`].
    unsafe fn walk_accepting(
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

    /// The link of type `sType` of an output chain, cast to its struct `T`,
    /// to be written.
    ///
    /// # Safety
    /// As [`Chain::get`]; the chain was handed in as writable (the
    /// `nextInChain` of an output struct) and no other reference to the link
    /// is in use.
    pub(crate) unsafe fn get_mut<'a, T>(&self, s_type: WGPUSType) -> Option<&'a mut T> {
        self.links
            .iter()
            .find(|(s, _)| *s == s_type)
            // SAFETY: the caller names the struct type that matches sType and
            // guarantees the link is writable and not aliased.
            .map(|(_, p)| unsafe { &mut *(*p as *mut T) })
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
    unsafe { Chain::walk_accepting(next, owner, &[]) }.map(|_| ())
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
            assert!(Chain::walk_accepting(base, "X", &both).is_ok());
            assert!(Chain::walk_accepting(base, "X", &both[..1]).is_err());
            (*base.add(1)).next = base; // a cycle: 0 → 1 → 0
            assert!(Chain::walk_accepting(base, "X", &both).is_err());
            assert!(expect_none(std::ptr::null(), "X").is_ok());
        }
    }

    /// Every chain webgpu.h allows (`extends` in webgpu.yml) is accepted by
    /// the struct it extends: none is ever an unknown sType.
    #[test]
    fn every_chain_the_header_allows_is_accepted() {
        for (s_type, name, parents) in crate::abi::CHAIN_EXTENSIONS {
            for parent in *parents {
                assert!(
                    accepted(parent).contains(s_type),
                    "{name} (sType {:#x}) extends {parent}, which refuses it",
                    s_type.0
                );
            }
        }
        // The one the yml names no parent for (its doc says it extends the
        // surface configuration).
        assert!(accepted("WGPUSurfaceConfiguration").contains(&WGPUSType::SurfaceColorManagement));
        // And the table names real structs and standard sTypes only where
        // the header defines them.
        for (owner, list) in ACCEPTED {
            for s in *list {
                let standard = s.0 >> 16 != NATIVE_STYPE_BLOCK;
                let known = crate::abi::CHAIN_EXTENSIONS.iter().any(|(t, _, _)| t == s);
                assert!(!standard || known, "{owner} accepts sType {:#x}, which webgpu.h does not define", s.0);
            }
        }
    }

    /// The readers in the sources go through the table: a struct read with
    /// [`expect_none`] is one no chain may extend, and every struct read with
    /// [`Chain::walk`] is listed (and every listed one is read).
    #[test]
    fn chain_readers_use_the_table() {
        let mut readers = Vec::new();
        for (path, text) in crate::source_scan::source_files() {
            if path.ends_with("ffi/chain_walk.rs") {
                continue; // this file: the functions and their tests
            }
            for (pattern, walked) in [("Chain::walk(", true), ("expect_none(", false)] {
                for (at, _) in text.match_indices(pattern) {
                    // The owner: the first string literal of the call.
                    let args = &text[at + pattern.len()..];
                    let args = &args[..args.find(')').unwrap_or(args.len())];
                    if let Some(lit) = args.split('"').nth(1) {
                        readers.push((walked, lit.to_string()));
                    }
                }
            }
        }
        assert!(readers.len() > 40, "the source scan found too little: {readers:?}");
        let extended = |owner: &str| crate::abi::CHAIN_EXTENSIONS.iter().any(|(_, _, p)| p.contains(&owner));
        for (walked, owner) in &readers {
            if *walked {
                assert!(!accepted(owner).is_empty(), "{owner} is walked but ACCEPTED does not list it");
            } else {
                assert!(!extended(owner), "{owner} takes chains (webgpu.h) but is read with expect_none");
                assert!(accepted(owner).is_empty(), "{owner} is listed in ACCEPTED but read with expect_none");
            }
        }
        for (owner, _) in ACCEPTED {
            assert!(readers.iter().any(|(w, o)| *w && o == owner), "{owner} is listed but no reader walks it");
        }
    }
}
