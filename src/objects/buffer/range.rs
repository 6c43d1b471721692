//! Ranges handed out during one mapping, for the overlap rule: const ranges
//! may overlap each other (native webgpu.h); any overlap that involves a
//! mutable range is refused.

use crate::ffi::boundary::{reject, ApiResult};

/// Inline for the common mapping's one or two ranges: mapping and reading
/// back a buffer allocates nothing.
#[derive(Default)]
pub(crate) struct Ranges {
    taken: smallvec::SmallVec<[(u64, u64, bool); 2]>,
}

impl Ranges {
    /// Reserves `start..end`; `mutable` for GetMappedRange/WriteMappedRange.
    pub(crate) fn reserve(&mut self, start: u64, end: u64, mutable: bool) -> ApiResult<()> {
        if start == end {
            return Ok(());
        }
        for &(s, e, m) in &self.taken {
            if start < e && s < end && (mutable || m) {
                return Err(reject!(
                    "range {start}..{end} overlaps the {} range {s}..{e} taken earlier in this mapping",
                    if m { "mutable" } else { "const" }
                ));
            }
        }
        // Identical const ranges need no second entry.
        if !self.taken.contains(&(start, end, mutable)) {
            self.taken.push((start, end, mutable));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Ranges;

    #[test]
    fn overlap_rules() {
        let mut r = Ranges::default();
        assert!(r.reserve(0, 16, false).is_ok());
        assert!(r.reserve(8, 24, false).is_ok(), "const with const");
        assert!(r.reserve(8, 12, true).is_err(), "mutable over const");
        assert!(r.reserve(24, 32, true).is_ok());
        assert!(r.reserve(28, 40, false).is_err(), "const over mutable");
        assert!(r.reserve(32, 40, true).is_ok(), "adjacent");
        assert!(r.reserve(4, 4, true).is_ok(), "empty ranges never overlap");
    }
}
