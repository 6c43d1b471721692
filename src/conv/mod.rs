//! Conversions from webgpu.h values to wgpu-types and wgpu-core ones.
//!
//! The functions here are pure: they take C values that the caller already
//! read from application memory, and return the wgpu value or the message
//! of a validation error (which the caller reports on the device and turns
//! into an invalid object, `objects::invalid`). [`native_chain`] and
//! [`native_extras`] read wgpu.h's chained structs (wgpu-native's
//! extensions of the standard descriptors).

pub(crate) mod binding;
pub(crate) mod device;
pub(crate) mod format;
pub(crate) mod native_chain;
pub(crate) mod native_extras;
pub(crate) mod pipeline;
pub(crate) mod render;
pub(crate) mod sampler;
pub(crate) mod shader;
pub(crate) mod stage_io;
pub(crate) mod texture;

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::abi::WGPU_WHOLE_SIZE;

/// A wgpu-core label: `None` for the empty string.
pub(crate) fn label(s: &str) -> wgpu_core::Label<'_> {
    (!s.is_empty()).then_some(Cow::Borrowed(s))
}

/// A size that may be `WGPU_WHOLE_SIZE` ("to the end of the buffer"),
/// as wgpu-core takes it.
pub(crate) fn whole_size(size: u64) -> Option<u64> {
    (size != WGPU_WHOLE_SIZE).then_some(size)
}

/// Turns a chain error (a [`crate::ffi::boundary::Reject`]) found while reading a
/// descriptor that is consumed on the device timeline into the message of a
/// validation error.
pub(crate) fn chain_error(r: crate::ffi::boundary::Reject) -> String {
    r.0
}

/// An error and its sources, one per line.
pub(crate) fn describe(err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(s) = source {
        let line = s.to_string();
        if !text.contains(&line) {
            let _ = write!(text, "\n  caused by: {line}");
        }
        source = s.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_sizes() {
        assert_eq!(label(""), None);
        assert_eq!(label("x").as_deref(), Some("x"));
        assert_eq!(whole_size(WGPU_WHOLE_SIZE), None);
        assert_eq!(whole_size(0), Some(0));
        assert_eq!(whole_size(16), Some(16));
    }
}
