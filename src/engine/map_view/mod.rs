//! Views of mapped memory that never go stale (docs/MAPPING.md).
//!
//! The application never gets the driver's pointer. It gets a *view*: pages
//! of this module's own, which it retires when the mapping ends (unmap,
//! destroy, the buffer's last release, device destroy). A retired view's
//! pages read as zeros and take writes that reach nothing
//! ([`Stale::Zero`], the default), or fault on any access
//! ([`Stale::Fault`]); in neither case can they show another buffer's bytes,
//! because their address is not reused while it is quarantined.
//!
//! A view is one of:
//! - **small** (up to [`SMALL`] bytes): a copy in a slot of an *arena*, a
//!   large reservation handed out from front to back and never reused, so
//!   that a map costs no system call; a retired slot is zeroed (or made
//!   inaccessible), and a whole arena is given back to the system once
//!   every slot in it is retired. On Linux an arena's memory is reused a
//!   chunk at a time, under new addresses: a retired chunk's pages are
//!   moved to the next chunk ([`blocks`]), so that a map costs no page
//!   fault either;
//! - **moved**: the driver memory's own pages, when they are host memory
//!   the library gave the driver ([`shareable`]): their page-table
//!   entries are moved from the library's mapping of them to a new address
//!   (`mremap` with `MREMAP_DONTUNMAP`, Linux 5.13), and moved back at
//!   close, so that neither a map nor an unmap takes pages down, and pages
//!   already in use do not fault in again: zero-copy, at a cost that does
//!   not grow with the size in proportion; on older kernels, a second
//!   mapping of the pages (**shared**), whose pages fault in at first touch
//!   and are taken down at close;
//! - **copied**: fresh pages holding a copy, written back at unmap for a
//!   write mapping (driver memory that cannot be mapped twice: OpenGL,
//!   Direct3D 12, Metal, Vulkan drivers without host-memory import).
//!
//! A view keeps the driver pointer's offset within its page, so pointers
//! have the alignment the driver's had.

mod blocks;
mod os;
pub(crate) mod shareable;

use blocks::{Blocks, CHUNK};

use std::collections::VecDeque;
use std::sync::OnceLock;

use parking_lot::Mutex;

/// What a retired view's addresses do.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Stale {
    /// Reads give zeros; writes are taken and reach nothing.
    Zero,
    /// Any access faults (SIGSEGV; an access violation on Windows).
    Fault,
}

/// `WGPU_SHIM_STALE_MAPPINGS`, read once: `zero` (default), `fault`, or
/// `driver` (no views: the driver's pointer, as other implementations hand
/// out; `None` here).
fn setting() -> Option<Stale> {
    static MODE: OnceLock<Option<Stale>> = OnceLock::new();
    *MODE.get_or_init(|| match std::env::var("WGPU_SHIM_STALE_MAPPINGS").as_deref() {
        Err(_) | Ok("") | Ok("zero") => Some(Stale::Zero),
        Ok("fault") => Some(Stale::Fault),
        Ok("driver") => None,
        Ok(other) => {
            log::error!(target: "wgpu_shim", "WGPU_SHIM_STALE_MAPPINGS={other:?} is not `zero`, `fault` or `driver`: using `zero`");
            Some(Stale::Zero)
        }
    })
}

/// What a retired view's addresses do.
pub(crate) fn stale() -> Stale {
    setting().unwrap_or(Stale::Zero)
}

/// `WGPU_SHIM_STALE_MAPPINGS=driver`: the application gets the driver's
/// pointers, which may show other buffers' bytes after unmap (for
/// measuring what views cost; docs/MAPPING.md).
pub(crate) fn driver_pointers() -> bool {
    setting().is_none()
}

/// Views up to this many bytes are copies in an arena.
pub(crate) const SMALL: usize = 64 << 10;
/// The address space of one arena.
const ARENA: usize = 64 << 20;
/// Retired arenas kept reserved (4 GiB of address space; each holds at
/// least 1,000 small views).
const MAX_ARENAS: usize = 64;
/// Retired shared and copied views kept reserved: at most this many...
pub(crate) const MAX_WINDOWS: usize = 4096;
/// ...and at most this much address space (untouched retired pages cost
/// only the address; on Windows a zero-reading page is committed memory,
/// so the bound is lower there).
#[cfg(not(windows))]
const MAX_WINDOW_BYTES: usize = 4 << 40;
#[cfg(windows)]
const MAX_WINDOW_BYTES: usize = 1 << 30;

enum Kind {
    /// A slot of the arena at this base; a copy.
    Slot { arena: usize },
    /// A second mapping of the driver's pages.
    Shared,
    /// The driver's pages with the page-table entries of their home
    /// mapping at `home` moved here (no page faults); moved back at close.
    Moved { home: usize },
    /// Fresh pages holding a copy.
    Copied,
    /// The driver's pointer itself (`WGPU_SHIM_STALE_MAPPINGS=driver`).
    Driver,
}

/// One mapping's view: what `GetMappedRange` hands out.
pub(crate) struct View {
    /// The first byte the application sees.
    ptr: usize,
    len: usize,
    /// The pages the view occupies.
    base: usize,
    span: usize,
    kind: Kind,
    /// The driver memory a copy came from (written back at close when
    /// `write`); 0 for blank memory.
    driver: usize,
    write: bool,
}

/// Where a view's bytes come from.
#[derive(Clone, Copy)]
pub(crate) enum Source {
    /// Driver memory holding the buffer's current bytes.
    Driver(*mut u8),
    /// Driver memory whose bytes are all zeros (a new buffer mapped at
    /// creation): a copy need not read it.
    DriverZeroed(*mut u8),
    /// No driver memory (an invalid buffer mapped at creation).
    Blank,
}

struct Arena {
    base: usize,
    next: usize,
    /// The slots handed out and not yet retired: (address, length).
    live: Vec<(usize, usize)>,
    /// The memory below `base + given_back` was given back, but for the
    /// slots live then.
    given_back: usize,
    /// Bytes of slots retired since then.
    retired_since: usize,
    /// Each chunk's state and live slots ([`blocks`]).
    chunks: Vec<Chunk>,
    /// The chunk the newest slot went to, while this is the current arena:
    /// it stays mapped when its slots are all retired.
    open_chunk: Option<usize>,
    /// Some chunk is retired on its own ([`Chunk::alone`]): while blocks
    /// are in use, the arena's retired slots need no giving back (their
    /// chunks' pages are). Once the kernel refused to move pages, the
    /// chunks opened since are not, and the arena gives back as elsewhere.
    any_block: bool,
}

/// A chunk of an arena: how it is retired, what its pages hold, and how
/// many of its slots are live.
#[derive(Clone, Copy, Default)]
struct Chunk {
    /// Retired on its own once its slots are: its pages are parked as a
    /// block, or given back ([`retire_chunk`]). Else (no blocks here) its
    /// memory goes back with the arena's.
    alone: bool,
    /// Its pages are a block that earlier slots used (they are written in
    /// full by each view opened there); else fresh pages, all zeros.
    reused: bool,
    live: u32,
}

/// Retired slots of an arena whose memory is given back at once (so that an
/// arena in use holds at most this much of retired slots resident).
const GIVE_BACK: usize = 1 << 20;

struct Views {
    /// The arena new slots come from, and earlier ones with live slots.
    arenas: Vec<Arena>,
    retired_arenas: VecDeque<usize>,
    windows: VecDeque<(usize, usize)>,
    window_bytes: usize,
    blocks: Blocks,
}

static VIEWS: Mutex<Views> = Mutex::new(Views {
    arenas: Vec::new(),
    retired_arenas: VecDeque::new(),
    windows: VecDeque::new(),
    window_bytes: 0,
    blocks: Blocks::new(),
});

fn round_up(n: usize, to: usize) -> Option<usize> {
    n.checked_add(to - 1).map(|n| n & !(to - 1))
}

impl View {
    /// Opens a view of `len` (> 0) bytes from `source`; `write`: a copy is
    /// written back to the driver's memory at [`close`](Self::close).
    /// `None` when no address space is left.
    pub(crate) fn open(source: Source, len: usize, write: bool) -> Option<View> {
        let page = os::page_size();
        let (driver, fill) = match source {
            Source::Driver(p) => (p as usize, true),
            Source::DriverZeroed(p) => (p as usize, false),
            Source::Blank => (0, false),
        };
        if driver != 0 && driver_pointers() {
            return Some(View { ptr: driver, len, base: driver, span: len, kind: Kind::Driver, driver, write: false });
        }
        let lead = driver & (page - 1);
        let span = round_up(lead.checked_add(len)?, page)?;
        let mut reused = false;
        let (base, kind) = if len <= SMALL {
            let (at, arena, blocked) = slot(span)?;
            reused = blocked;
            (at, Kind::Slot { arena })
        } else if driver != 0 && shareable::contains(driver - lead, span) {
            let home = driver - lead;
            if let Some(base) = os::take(home, span) {
                (base, Kind::Moved { home })
            } else if let Some(base) = os::duplicate(home, span) {
                (base, Kind::Shared)
            } else {
                (os::fresh(span)?, Kind::Copied)
            }
        } else {
            (os::fresh(span)?, Kind::Copied)
        };
        let view = View { ptr: base + lead, len, base, span, kind, driver, write: write && driver != 0 };
        if reused {
            // A block's pages hold what earlier slots left: every byte of
            // the view's pages is written (`blocks.rs`).
            // SAFETY: `base..base + span` are the slot's pages, this view's
            // alone; `ptr..ptr + len` lies within them.
            unsafe {
                std::ptr::write_bytes(base as *mut u8, 0, lead);
                std::ptr::write_bytes((view.ptr + len) as *mut u8, 0, span - lead - len);
                if !fill {
                    std::ptr::write_bytes(view.ptr as *mut u8, 0, len);
                }
            }
        }
        if fill && !view.zero_copy() {
            // SAFETY: `driver..driver + len` is the mapped driver memory the
            // caller hands over; `ptr..ptr + len` is within the view's pages.
            unsafe { std::ptr::copy_nonoverlapping(driver as *const u8, view.ptr as *mut u8, len) };
        }
        Some(view)
    }

    /// The first byte of the view.
    pub(crate) fn ptr(&self) -> *mut u8 {
        self.ptr as *mut u8
    }

    /// Whether the application's pointer is the driver's pages themselves.
    pub(crate) fn zero_copy(&self) -> bool {
        matches!(self.kind, Kind::Shared | Kind::Moved { .. } | Kind::Driver)
    }

    /// Ends the view. A written copy reaches the driver's memory first when
    /// `publish` (the driver memory is still the buffer's); then the pages
    /// are retired as [`stale`] says.
    pub(crate) fn close(self, publish: bool) {
        if publish && self.write && !self.zero_copy() {
            // SAFETY: the driver memory is still mapped (`publish`), and the
            // view's bytes are this module's pages.
            unsafe { std::ptr::copy_nonoverlapping(self.ptr as *const u8, self.driver as *mut u8, self.len) };
        }
        let mode = stale();
        match self.kind {
            Kind::Driver => {}
            Kind::Slot { arena } => {
                match mode {
                    // SAFETY: the view's bytes, this module's pages.
                    Stale::Zero => unsafe { std::ptr::write_bytes(self.ptr as *mut u8, 0, self.len) },
                    Stale::Fault => {
                        if !os::protect_none(self.base, self.span) {
                            log::error!(target: "wgpu_shim", "a stale mapped range could not be made inaccessible (the system refused)");
                        }
                    }
                }
                end_slot(arena, self.base, mode);
            }
            Kind::Shared | Kind::Copied | Kind::Moved { .. } => {
                // The pages' entries go home first: retiring the view then
                // has no pages to take down.
                if let Kind::Moved { home } = self.kind {
                    os::move_pages(self.base, self.span, home);
                }
                let retired = match mode {
                    Stale::Zero => os::retire_zero(self.base, self.span),
                    Stale::Fault => os::retire_fault(self.base, self.span),
                };
                if retired {
                    quarantine(self.base, self.span);
                } else {
                    log::error!(target: "wgpu_shim", "a mapped range could not be retired (the system refused): its address is released");
                    os::release(self.base, self.span);
                }
            }
        }
    }
}

/// A slot of `span` bytes (at most a chunk) in the current arena (a new one
/// when it is full): its address, that arena's base, and whether it lies in
/// a block (`blocks.rs`). A slot never straddles two chunks.
fn slot(span: usize) -> Option<(usize, usize, bool)> {
    let mut guard = VIEWS.lock();
    let views = &mut *guard;
    let fits = views.arenas.last().is_some_and(|a| place(a.next, span) + span <= ARENA);
    if !fits {
        let base = os::fresh(ARENA)?;
        // The arena before is full: its memory goes back now, but for the
        // slots still in use (all of it if none is).
        if let Some(mut full) = views.arenas.pop() {
            let mode = stale();
            close_chunk(&mut full, &mut views.blocks, mode);
            if full.live.is_empty() {
                retire_arena(views, full.base, mode);
            } else {
                if !(full.any_block && views.blocks.in_use()) {
                    give_back_gaps(&mut full, mode);
                }
                views.arenas.push(full);
            }
        }
        views.arenas.push(Arena {
            base,
            next: 0,
            live: Vec::new(),
            given_back: 0,
            retired_since: 0,
            chunks: vec![Chunk::default(); ARENA / CHUNK],
            open_chunk: None,
            any_block: false,
        });
    }
    let arena = views.arenas.last_mut()?;
    let offset = place(arena.next, span);
    let chunk = offset / CHUNK;
    if arena.open_chunk != Some(chunk) {
        close_chunk(arena, &mut views.blocks, stale());
        let alone = views.blocks.in_use();
        let reused = alone && views.blocks.map_at(arena.base + chunk * CHUNK, stale());
        arena.chunks[chunk] = Chunk { alone, reused, live: 0 };
        arena.any_block |= alone;
        arena.open_chunk = Some(chunk);
    }
    arena.chunks[chunk].live += 1;
    let at = arena.base + offset;
    arena.next = offset + span;
    arena.live.push((at, span));
    Some((at, arena.base, arena.chunks[chunk].reused))
}

/// Where a slot of `span` bytes goes in an arena whose next free byte is at
/// `next`: there, or at the next chunk if it would straddle two.
fn place(next: usize, span: usize) -> usize {
    if next % CHUNK + span > CHUNK {
        next.div_ceil(CHUNK) * CHUNK
    } else {
        next
    }
}

/// The arena moves past its open chunk: a chunk with no live slot left is
/// retired now, else when its last slot is.
fn close_chunk(arena: &mut Arena, blocks: &mut Blocks, mode: Stale) {
    if let Some(open) = arena.open_chunk.take() {
        if arena.chunks[open].live == 0 {
            retire_chunk(arena, open, blocks, mode);
        }
    }
}

/// Retires a chunk whose slots are all retired: its pages are parked as a
/// block for a later chunk, or given back, and its address is left reading
/// as zeros (or faulting).
fn retire_chunk(arena: &mut Arena, chunk: usize, blocks: &mut Blocks, mode: Stale) {
    let state = std::mem::take(&mut arena.chunks[chunk]);
    if !state.alone {
        return;
    }
    let addr = arena.base + chunk * CHUNK;
    // Fault mode's slots were made inaccessible one by one: the whole chunk
    // is made so first, which makes it one mapping again, one that can move.
    let parked = match mode {
        Stale::Zero => blocks.park(addr),
        Stale::Fault => os::protect_none(addr, CHUNK) && blocks.park(addr),
    };
    let retired = parked
        || match mode {
            Stale::Zero => os::retire_zero(addr, CHUNK),
            Stale::Fault => os::retire_fault(addr, CHUNK),
        };
    if !retired {
        log::error!(target: "wgpu_shim", "a chunk of retired mapped ranges could not be replaced (the system refused): its memory stays in place");
    }
}

/// The slot at `at` of the arena at `base` was retired.
fn end_slot(base: usize, at: usize, mode: Stale) {
    let mut guard = VIEWS.lock();
    let views = &mut *guard;
    let last = views.arenas.len().saturating_sub(1);
    let Some(i) = views.arenas.iter().position(|a| a.base == base) else { return };
    let arena = &mut views.arenas[i];
    if let Some(k) = arena.live.iter().position(|&(a, _)| a == at) {
        arena.retired_since += arena.live.swap_remove(k).1;
        let chunk = (at - base) / CHUNK;
        arena.chunks[chunk].live -= 1;
        if arena.chunks[chunk].live == 0 && arena.open_chunk != Some(chunk) {
            retire_chunk(arena, chunk, &mut views.blocks, mode);
        }
    }
    // The current arena lives on until it is full.
    if arena.live.is_empty() && i != last {
        views.arenas.remove(i);
        retire_arena(views, base, mode);
    } else if arena.retired_since >= GIVE_BACK && !(arena.any_block && views.blocks.in_use()) {
        give_back_gaps(arena, mode);
    }
}

/// Gives back the memory of an arena's slots handed out since the last
/// time, but for the live ones (retired slots read as zeros, or stay
/// inaccessible).
fn give_back_gaps(arena: &mut Arena, mode: Stale) {
    let mut live = arena.live.clone();
    live.sort_unstable();
    let mut from = arena.base + arena.given_back;
    for (at, span) in live.into_iter().chain([(arena.base + arena.next, 0)]) {
        if at > from {
            match mode {
                Stale::Zero => os::discard(from, at - from),
                Stale::Fault => {
                    os::retire_fault(from, at - from);
                }
            }
        }
        from = from.max(at + span);
    }
    arena.given_back = arena.next;
    arena.retired_since = 0;
}

/// Gives back the memory of an arena whose slots are all retired, keeping
/// its address reserved (zeros, or no access) until the quarantine is full.
fn retire_arena(views: &mut Views, base: usize, mode: Stale) {
    match mode {
        // On Unix one new mapping over the whole arena also merges the
        // mappings its chunks' moves left (`blocks.rs`) into one.
        Stale::Zero if cfg!(unix) && os::retire_zero(base, ARENA) => {}
        Stale::Zero => os::discard(base, ARENA),
        Stale::Fault => {
            os::retire_fault(base, ARENA);
        }
    }
    views.retired_arenas.push_back(base);
    while views.retired_arenas.len() > MAX_ARENAS {
        if let Some(old) = views.retired_arenas.pop_front() {
            os::release(old, ARENA);
        }
    }
}

/// Keeps a retired view's address reserved; past the bounds the oldest is
/// released.
fn quarantine(base: usize, span: usize) {
    let mut views = VIEWS.lock();
    views.windows.push_back((base, span));
    views.window_bytes += span;
    while views.windows.len() > MAX_WINDOWS || views.window_bytes > MAX_WINDOW_BYTES {
        let Some((old, len)) = views.windows.pop_front() else { break };
        views.window_bytes -= len;
        os::release(old, len);
    }
}

#[cfg(test)]
mod tests;
