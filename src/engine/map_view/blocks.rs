//! The memory behind small views' slots, reused (Linux).
//!
//! A slot's address is never handed out twice, but its memory may be. An
//! arena is retired a chunk ([`CHUNK`]) at a time: once every slot of a
//! chunk is retired and the arena has moved past it, the chunk's pages (a
//! *block*) are moved, page-table entries and all, to a parking place
//! (`mremap` with `MREMAP_DONTUNMAP`, Linux 5.7), and the chunk's address is
//! left with no pages, so that it reads as zeros (in `fault` mode the chunk
//! is made inaccessible first, and it moves so: its address then faults,
//! and the block is made accessible where it goes). When the arena opens
//! its next chunk, a parked block is moved to that chunk's address the
//! same way. A small map then costs no page allocation and no page fault
//! (a fresh page per map cost more than the map itself on a virtual
//! machine), and moving a block costs about a twelfth of mapping a block of
//! a memfd with its pages present and replacing it again (the scheme before
//! this one), because no page is looked up or cleared.
//! A stale pointer never reaches a block again: the block left its chunk's
//! address before it moved on.
//!
//! A reused block holds what its last slots left (zeros where they were
//! retired in zero mode, anything where a stale write reached a retired slot
//! before its chunk was retired), so a view opened in a block writes every
//! byte of its pages (`View::open`). A chunk that gets no block keeps the
//! arena's fresh pages, which read as zeros; they become a block when the
//! chunk is retired. Where pages cannot be moved (other systems, kernels
//! before 5.7), chunks keep fresh pages and their memory is given back with
//! the arena's.

use super::{os, Stale};

/// The address space (and memory) one block backs.
pub(super) const CHUNK: usize = 1 << 20;

/// Parked blocks, whose pages stay resident; a retired chunk beyond them
/// gives its pages back to the system.
const KEEP: usize = 8;

/// The parking places of free blocks.
pub(super) struct Blocks {
    /// A reservation of [`KEEP`] chunks (0 until the first block is
    /// parked; [`NONE`] when pages cannot be moved or no room was had).
    park: usize,
    /// Parking places holding a block (addresses in `park`)...
    parked: Vec<usize>,
    /// ...and the empty ones.
    empty: Vec<usize>,
    /// Chunks opened without a block, on fresh pages (tests).
    #[cfg(all(test, target_os = "linux"))]
    fresh: usize,
}

/// `Blocks::park` when blocks cannot be had: chunks keep fresh pages.
const NONE: usize = usize::MAX;

impl Blocks {
    pub(super) const fn new() -> Blocks {
        Blocks {
            park: 0,
            parked: Vec::new(),
            empty: Vec::new(),
            #[cfg(all(test, target_os = "linux"))]
            fresh: 0,
        }
    }

    /// Whether chunks are retired a chunk at a time here (their blocks
    /// parked, or their pages given back): `false` on systems without
    /// moving pages, and once the kernel refused to move them.
    pub(super) fn in_use(&self) -> bool {
        cfg!(target_os = "linux") && self.park != NONE
    }

    /// Moves a parked block to `addr`, the start of a chunk of an arena
    /// (fresh private pages until now): `true` when it did, and the chunk's
    /// pages now hold what earlier slots left; `false` when no block is
    /// parked (the chunk keeps its fresh pages). In `fault` mode blocks are
    /// parked inaccessible and made accessible here.
    pub(super) fn map_at(&mut self, addr: usize, mode: Stale) -> bool {
        let Some(from) = self.parked.pop() else {
            #[cfg(all(test, target_os = "linux"))]
            {
                self.fresh += 1;
            }
            return false;
        };
        if os::move_pages(from, CHUNK, addr) == os::Moved::Yes {
            self.empty.push(from);
            if mode == Stale::Fault && !os::protect_rw(addr, CHUNK) {
                // Slots here must be usable: fresh pages instead (the
                // block's pages go back to the system).
                if !os::retire_zero(addr, CHUNK) {
                    log::error!(target: "wgpu_shim", "mapped ranges: a chunk could not be made accessible");
                }
                return false;
            }
            true
        } else {
            // The block stays where it is; this chunk keeps fresh pages.
            log::debug!(target: "wgpu_shim", "mapped ranges: a block could not be moved; the chunk keeps fresh pages");
            self.parked.push(from);
            false
        }
    }

    /// Moves the pages of the retired chunk at `addr` to a parking place,
    /// leaving the chunk's address with no pages (with the protection it
    /// has: in `fault` mode the caller made it inaccessible first). `false`
    /// when it did not (no room, the kernel refused, or blocks are out of
    /// use): the chunk's pages are still at its address.
    pub(super) fn park(&mut self, addr: usize) -> bool {
        if !self.in_use() || (self.park == 0 && !self.reserve()) {
            return false;
        }
        let Some(to) = self.empty.pop() else { return false };
        let moved = os::move_pages(addr, CHUNK, to);
        if moved == os::Moved::Yes {
            self.parked.push(to);
            return true;
        }
        self.empty.push(to);
        if moved == os::Moved::Unsupported {
            log::info!(target: "wgpu_shim", "mapped ranges: this kernel cannot move pages (Linux 5.7's MREMAP_DONTUNMAP); each chunk of small views uses fresh pages");
            self.park = NONE;
        }
        false
    }

    /// Reserves the parking places (at the first parking).
    fn reserve(&mut self) -> bool {
        match os::fresh(KEEP * CHUNK) {
            Some(base) => {
                self.park = base;
                self.empty = (0..KEEP).rev().map(|i| base + i * CHUNK).collect();
                true
            }
            None => {
                self.park = NONE;
                false
            }
        }
    }

    /// Chunks opened on fresh pages so far (tests).
    #[cfg(all(test, target_os = "linux"))]
    pub(super) fn fresh(&self) -> usize {
        self.fresh
    }
}
