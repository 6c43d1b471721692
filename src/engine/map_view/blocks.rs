//! The memory behind small views' slots, reused (Linux).
//!
//! A slot's address is never handed out twice, but its memory may be. An
//! arena is backed a chunk ([`CHUNK`]) at a time by a *block*: a piece of
//! one memfd, mapped at the chunk's address, its pages already resident,
//! when the chunk's first slot is handed out. Once every slot of a chunk is
//! retired and the arena has moved past it, the chunk's address gets pages
//! of its own that read as zeros (or fault), and the block goes back to the
//! pool for a later chunk. A small map then costs no page allocation and no
//! page fault (a fresh page per map cost more than the map itself on a
//! virtual machine), and a stale pointer never reaches a block again: its
//! chunk was replaced before the block moved.
//!
//! A reused block holds what its last slots left (zeros where they were
//! retired in zero mode, anything where a stale write reached a retired slot
//! before its chunk was replaced), so a view opened in a block writes every
//! byte of its pages (`View::open`). Elsewhere, and where a block cannot be
//! had, chunks keep the arena's fresh private pages.

use super::os;

/// The address space (and memory) one block backs.
pub(super) const CHUNK: usize = 1 << 20;

/// Free blocks whose pages stay resident; the pages of further ones go back
/// to the system (the block is kept, and its pages come back as zeros when
/// it is used again).
const KEEP: usize = 8;

/// The pool of blocks: pieces of one memfd that grows as needed.
pub(super) struct Blocks {
    /// The memfd (-1 until the first block; [`FAILED`] when none can be had).
    fd: i32,
    /// Its length: the blocks made so far.
    len: usize,
    /// Offsets of free blocks whose pages are resident (used first)...
    warm: Vec<usize>,
    /// ...and of free blocks whose pages went back to the system.
    cold: Vec<usize>,
}

/// `Blocks::fd` when no memfd could be made: chunks keep fresh pages.
const FAILED: i32 = -2;

impl Blocks {
    pub(super) const fn new() -> Blocks {
        Blocks { fd: -1, len: 0, warm: Vec::new(), cold: Vec::new() }
    }

    /// Maps a block at `addr`, the start of a chunk of an arena (fresh
    /// private pages until now): its offset, or `None` when no block can be
    /// had (the chunk keeps its fresh pages).
    pub(super) fn map_at(&mut self, addr: usize) -> Option<usize> {
        let off = match self.warm.pop().or_else(|| self.cold.pop()) {
            Some(off) => off,
            None => self.grow()?,
        };
        if os::map_block(addr, CHUNK, self.fd, off) {
            Some(off)
        } else {
            log::debug!(target: "wgpu_shim", "mapped ranges: a block could not be mapped; the chunk keeps fresh pages");
            self.give(off);
            None
        }
    }

    /// Takes back the block at `off`, mapped nowhere any more.
    pub(super) fn give(&mut self, off: usize) {
        if self.warm.len() < KEEP {
            self.warm.push(off);
        } else {
            os::punch(self.fd, off, CHUNK);
            self.cold.push(off);
        }
    }

    /// A new block at the end of the memfd (made at the first call).
    fn grow(&mut self) -> Option<usize> {
        if self.fd == FAILED {
            return None;
        }
        if self.fd < 0 {
            self.fd = os::block_file().unwrap_or(FAILED);
            if self.fd == FAILED {
                log::info!(target: "wgpu_shim", "mapped ranges: no memfd for small views' memory; each small map uses fresh pages");
                return None;
            }
        }
        let off = self.len;
        let len = off.checked_add(CHUNK)?;
        if !os::grow_file(self.fd, len) {
            return None;
        }
        self.len = len;
        Some(off)
    }

    /// Blocks made so far (tests).
    #[cfg(all(test, target_os = "linux"))]
    pub(super) fn made(&self) -> usize {
        self.len / CHUNK
    }
}
