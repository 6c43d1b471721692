//! The address ranges of driver memory whose pages can be mapped a second
//! time: host memory this library allocated and gave to the driver
//! (`engine/vk_memory.rs`). A view of a buffer in such memory is a second
//! mapping of its pages instead of a copy.

use std::collections::BTreeMap;

use parking_lot::RwLock;

/// Start → end of each range.
static RANGES: RwLock<BTreeMap<usize, usize>> = RwLock::new(BTreeMap::new());

/// `start..start + len` may be mapped twice from now on.
// Only Linux has host memory to share (engine/vk_memory.rs).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub(crate) fn add(start: usize, len: usize) {
    RANGES.write().insert(start, start + len);
}

/// The range that starts at `start` is being freed.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub(crate) fn remove(start: usize) {
    RANGES.write().remove(&start);
}

/// Whether `start..start + len` lies in one shareable range.
pub(super) fn contains(start: usize, len: usize) -> bool {
    let ranges = RANGES.read();
    ranges.range(..=start).next_back().is_some_and(|(_, &end)| start.saturating_add(len) <= end)
}
