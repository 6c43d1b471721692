//! The page operations views need, per operating system: fresh zeroed
//! memory, a second mapping of shared pages and moving pages to another
//! address (Linux), and the two ways a view is retired (pages that read as
//! zeros, or pages that fault).

/// The system's page size (4 KiB where it cannot be read).
pub(super) fn page_size() -> usize {
    use std::sync::OnceLock;
    static PAGE: OnceLock<usize> = OnceLock::new();
    *PAGE.get_or_init(imp::page_size)
}

pub(super) use imp::{discard, duplicate, fresh, release, retire_fault, retire_zero, take};

/// The outcome of [`move_pages`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Moved {
    Yes,
    /// The kernel refused this move (the pages stay where they were).
    #[cfg_attr(not(target_os = "linux"), expect(dead_code, reason = "only Linux moves pages"))]
    No,
    /// The kernel cannot move pages this way (before Linux 5.7; other
    /// systems).
    Unsupported,
}

/// Moves the page-table entries of the `len` bytes at `from` to `to`
/// (`mremap` with `MREMAP_DONTUNMAP`), replacing what was mapped there: the
/// pages keep their contents and need no fault at the new address, and
/// `from` stays mapped with no pages (private memory reads as zeros there;
/// shared memory faults its pages in again). Private anonymous memory moves
/// so since Linux 5.7, shared memory since 5.13. Both ranges are
/// page-aligned and this module's own: a chunk of an arena and a parking
/// place (`blocks.rs`), or a moved view and its pages' home ([`take`]).
#[cfg(target_os = "linux")]
pub(super) fn move_pages(from: usize, len: usize, to: usize) -> Moved {
    let flags = libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED | libc::MREMAP_DONTUNMAP;
    // SAFETY: `from..from + len` and `to..to + len` are ranges this module
    // mapped and owns (see above; a view's home is the library's own mapping
    // of the pages, engine/vk_memory.rs); MREMAP_FIXED replaces exactly the
    // target range, and DONTUNMAP leaves the source mapped.
    let p = unsafe { libc::mremap(from as *mut libc::c_void, len, len, flags, to as *mut libc::c_void) };
    if p as usize == to {
        Moved::Yes
    } else if p == libc::MAP_FAILED && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINVAL) {
        Moved::Unsupported
    } else {
        Moved::No
    }
}

/// Systems without `mremap`: chunks keep fresh pages (`blocks.rs`).
#[cfg(not(target_os = "linux"))]
pub(super) fn move_pages(_from: usize, _len: usize, _to: usize) -> Moved {
    Moved::Unsupported
}

#[cfg(unix)]
mod imp {
    use std::ptr::null_mut;

    pub(super) fn page_size() -> usize {
        // SAFETY: sysconf reads a constant of the system.
        let n = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        usize::try_from(n).ok().filter(|&n| n.is_power_of_two()).unwrap_or(4096)
    }

    /// `len` bytes of fresh, zeroed, private memory that is only paid for
    /// where touched; `None` when the address space is exhausted.
    pub(in crate::engine::map_view) fn fresh(len: usize) -> Option<usize> {
        // SAFETY: a new anonymous mapping at an address the kernel picks.
        let p = unsafe {
            libc::mmap(
                null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        (p != libc::MAP_FAILED).then_some(p as usize)
    }

    /// A second mapping of the `len` shared pages at `addr` (page-aligned),
    /// at a new address; `None` when the pages are not shared or there is
    /// no room.
    #[cfg(target_os = "linux")]
    pub(in crate::engine::map_view) fn duplicate(addr: usize, len: usize) -> Option<usize> {
        // SAFETY: mremap with an old size of 0 maps the same shared pages
        // again and leaves the mapping at `addr` as it is.
        let p = unsafe { libc::mremap(addr as *mut libc::c_void, 0, len, libc::MREMAP_MAYMOVE) };
        (p != libc::MAP_FAILED).then_some(p as usize)
    }

    /// Moves the page-table entries of the `len` shared pages at `addr` to
    /// a new address (`MREMAP_DONTUNMAP`: `addr` stays mapped, its pages
    /// fault in again when touched). Costs no page faults where the pages
    /// were mapped at `addr`, unlike [`duplicate`]. `None` on kernels
    /// before 5.13, which move only private pages this way.
    #[cfg(target_os = "linux")]
    pub(in crate::engine::map_view) fn take(addr: usize, len: usize) -> Option<usize> {
        use std::sync::atomic::{AtomicBool, Ordering};
        static UNSUPPORTED: AtomicBool = AtomicBool::new(false);
        if UNSUPPORTED.load(Ordering::Relaxed) {
            return None;
        }
        let (reserved, target) = congruent_room(addr, len);
        let mut flags = libc::MREMAP_MAYMOVE | libc::MREMAP_DONTUNMAP;
        if target != 0 {
            flags |= libc::MREMAP_FIXED;
        }
        // SAFETY: `addr..addr + len` is a shared mapping this library made
        // (engine/vk_memory.rs); DONTUNMAP leaves it in place. The target
        // (a hint when 0: the kernel reads it with DONTUNMAP and refuses an
        // unaligned one) is room reserved just now.
        let p = unsafe { libc::mremap(addr as *mut libc::c_void, len, len, flags, target as *mut libc::c_void) };
        let failed = p == libc::MAP_FAILED;
        if failed && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINVAL) {
            UNSUPPORTED.store(true, Ordering::Relaxed);
        }
        if let Some((start, total)) = reserved {
            // The reservation around the view (all of it when the move failed).
            let (at, end) = if failed { (start, start) } else { (target, target + len) };
            release(start, at - start);
            release(end, start + total - end);
        }
        (!failed).then_some(p as usize)
    }

    /// For a view of 2 MiB or more: room reserved at an address with the
    /// same offset in its 2 MiB as `addr`, so that the kernel moves whole
    /// page tables, not each entry (the reservation, and the address in it);
    /// `(None, 0)` otherwise.
    #[cfg(target_os = "linux")]
    fn congruent_room(addr: usize, len: usize) -> (Option<(usize, usize)>, usize) {
        const TABLE: usize = 2 << 20;
        if len < TABLE {
            return (None, 0);
        }
        let Some(total) = len.checked_add(TABLE) else { return (None, 0) };
        // SAFETY: a new inaccessible reservation at an address the kernel picks.
        let r = unsafe {
            libc::mmap(
                null_mut(),
                total,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if r == libc::MAP_FAILED {
            return (None, 0);
        }
        let r = r as usize;
        let shift = (addr % TABLE + TABLE - r % TABLE) % TABLE;
        (Some((r, total)), r + shift)
    }

    /// Systems without `mremap`: views there are copies.
    #[cfg(not(target_os = "linux"))]
    pub(in crate::engine::map_view) fn duplicate(_addr: usize, _len: usize) -> Option<usize> {
        None
    }

    #[cfg(not(target_os = "linux"))]
    pub(in crate::engine::map_view) fn take(_addr: usize, _len: usize) -> Option<usize> {
        None
    }

    /// Replaces the pages at `addr` with private pages that read as zeros,
    /// keeping the address reserved. `false` when the kernel refused.
    pub(in crate::engine::map_view) fn retire_zero(addr: usize, len: usize) -> bool {
        replace(addr, len, libc::PROT_READ | libc::PROT_WRITE)
    }

    /// Replaces the pages at `addr` with pages no access is allowed to.
    pub(in crate::engine::map_view) fn retire_fault(addr: usize, len: usize) -> bool {
        replace(addr, len, libc::PROT_NONE)
    }

    fn replace(addr: usize, len: usize, prot: libc::c_int) -> bool {
        // SAFETY: `addr..addr + len` is a range this module mapped and still
        // owns (a view's pages); MAP_FIXED replaces exactly that range.
        let p = unsafe {
            libc::mmap(
                addr as *mut libc::c_void,
                len,
                prot,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        p as usize == addr
    }

    /// Gives back the memory behind `addr..addr + len` (private pages):
    /// they read as zeros again, and pages no access is allowed to stay so.
    pub(in crate::engine::map_view) fn discard(addr: usize, len: usize) {
        // SAFETY: a range of private anonymous memory this module owns.
        unsafe { libc::madvise(addr as *mut libc::c_void, len, libc::MADV_DONTNEED) };
    }

    /// Ends the reservation of `addr..addr + len`: the address may be used
    /// again by anything.
    pub(in crate::engine::map_view) fn release(addr: usize, len: usize) {
        if len == 0 {
            return;
        }
        // SAFETY: a range this module mapped and no longer uses.
        unsafe { libc::munmap(addr as *mut libc::c_void, len) };
    }

    /// Makes `addr..addr + len` fault on any access.
    pub(in crate::engine::map_view) fn protect_none(addr: usize, len: usize) -> bool {
        // SAFETY: a range this module mapped and owns.
        unsafe { libc::mprotect(addr as *mut libc::c_void, len, libc::PROT_NONE) == 0 }
    }

    /// Makes `addr..addr + len` readable and writable again.
    pub(in crate::engine::map_view) fn protect_rw(addr: usize, len: usize) -> bool {
        // SAFETY: a range this module mapped and owns (a chunk it is about
        // to hand slots of out).
        unsafe { libc::mprotect(addr as *mut libc::c_void, len, libc::PROT_READ | libc::PROT_WRITE) == 0 }
    }
}

#[cfg(windows)]
mod imp {
    use windows_sys::Win32::System::Memory::{
        VirtualAlloc, VirtualFree, VirtualProtect, VirtualUnlock, MEM_COMMIT, MEM_DECOMMIT, MEM_RELEASE, MEM_RESERVE,
        MEM_RESET, PAGE_NOACCESS, PAGE_READWRITE,
    };

    pub(super) fn page_size() -> usize {
        4096
    }

    pub(in crate::engine::map_view) fn fresh(len: usize) -> Option<usize> {
        // SAFETY: a new reservation at an address the system picks,
        // committed as zeroed pages (paid for where touched).
        let p = unsafe { VirtualAlloc(std::ptr::null(), len, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE) };
        (!p.is_null()).then_some(p as usize)
    }

    /// Windows gives a view no second mapping of driver memory: copies.
    pub(in crate::engine::map_view) fn duplicate(_addr: usize, _len: usize) -> Option<usize> {
        None
    }

    pub(in crate::engine::map_view) fn take(_addr: usize, _len: usize) -> Option<usize> {
        None
    }

    /// Zeros the view's pages, then gives their memory back as `discard`
    /// does. The pages stay readable throughout: Windows has no call that
    /// swaps committed pages for zeroed ones in one step, and decommitting
    /// them first would let a thread still reading the view fault.
    pub(in crate::engine::map_view) fn retire_zero(addr: usize, len: usize) -> bool {
        // SAFETY: a committed, writable range this module owns (a view's
        // copy); the application's view is stale, so only zeros belong there.
        unsafe { std::ptr::write_bytes(addr as *mut u8, 0, len) };
        discard(addr, len);
        true
    }

    pub(in crate::engine::map_view) fn retire_fault(addr: usize, len: usize) -> bool {
        // SAFETY: a committed range this module owns; decommitted pages
        // fault on any access and cost nothing.
        unsafe { VirtualFree(addr as *mut _, len, MEM_DECOMMIT) != 0 }
    }

    /// Gives back the memory behind pages that already read as zeros (retired
    /// arena slots, zeroed views), keeping them committed and readable: other
    /// threads may be reading stale slots beside live ones. After MEM_RESET
    /// a page holds either what it held (zeros) or a fresh zeroed page, and
    /// unlocking a range that is not locked takes it out of the working set.
    /// Decommitted pages (fault mode) stay decommitted.
    pub(in crate::engine::map_view) fn discard(addr: usize, len: usize) {
        // SAFETY: a range of this module's reservations whose bytes are
        // zeros or not committed; neither call changes what a read gives.
        unsafe {
            VirtualAlloc(addr as *const _, len, MEM_RESET, PAGE_READWRITE);
            VirtualUnlock(addr as *const _, len);
        }
    }

    pub(in crate::engine::map_view) fn release(addr: usize, _len: usize) {
        // SAFETY: the base of a reservation this module made and no longer
        // uses (MEM_RELEASE takes the whole reservation, size 0).
        unsafe { VirtualFree(addr as *mut _, 0, MEM_RELEASE) };
    }

    pub(in crate::engine::map_view) fn protect_none(addr: usize, len: usize) -> bool {
        let mut old = 0;
        // SAFETY: a committed range this module owns.
        unsafe { VirtualProtect(addr as *const _, len, PAGE_NOACCESS, &mut old) != 0 }
    }

    pub(in crate::engine::map_view) fn protect_rw(addr: usize, len: usize) -> bool {
        let mut old = 0;
        // SAFETY: a committed range this module owns.
        unsafe { VirtualProtect(addr as *const _, len, PAGE_READWRITE, &mut old) != 0 }
    }
}

pub(super) use imp::{protect_none, protect_rw};
