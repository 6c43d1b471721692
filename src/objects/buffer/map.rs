//! The buffer map state machine (webgpu-behaviour.md §9).
//!
//! ```text
//!  Unmapped ──MapAsync──▶ Pending ──callback delivered (Success)──▶ Mapped
//!      ▲                    │ Unmap / Destroy / release: Aborted      │
//!      └────────────────────┴──────────── Unmap / Destroy ────────────┘
//! ```
//!
//! The completer of a pending map lives in the `Pending` phase, so that
//! whoever ends the map first (wgpu-core's callback, or an abort) completes
//! the event, exactly once. A map that wgpu-core finished stays `Pending`
//! until its callback is delivered; delivery then fetches the mapping's base
//! pointer and moves to `Mapped`, unless the map was aborted meanwhile.
//!
//! Lock discipline: the state lock is never held while calling wgpu-core,
//! because wgpu-core runs map callbacks (which take it) under its own locks.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::range::Ranges;
use super::Buffer;
use crate::abi::*;
use crate::engine::fault::{self, Fault};
use crate::engine::map_view::{self, View};
use crate::ffi::boundary::{self, reject, ApiResult};
use crate::ffi::callback::{Fail, MakeFail, OnReject, SendFn, UserData};
use crate::futures::{Completer, Outcome, Source};

type MapResult = (WGPUMapAsyncStatus, String);

/// Where the bytes of a mapping are.
enum Memory {
    /// The view the application is given (`engine/map_view`): never the
    /// driver's pointer, so that it can be retired at unmap.
    View(View),
    /// A valid buffer mapped at creation, before its view is made.
    Unfetched,
    /// A zero-sized mapping.
    Empty,
}

impl Memory {
    /// Retires the view; a written copy reaches the buffer first.
    fn close(self) {
        if let Memory::View(view) = self {
            view.close(true);
        }
    }
}

enum Phase {
    Unmapped,
    Pending {
        generation: u64,
        write: bool,
        offset: u64,
        size: u64,
        /// Taken by whoever completes the map first.
        completer: Option<Completer<MapResult>>,
    },
    Mapped {
        write: bool,
        offset: u64,
        size: u64,
        memory: Memory,
        ranges: Ranges,
        /// wgpu-core holds a mapping of the buffer, which Unmap must end
        /// (a zero-sized buffer mapped at creation has one though there are
        /// no bytes to point at).
        core: bool,
    },
}

/// A buffer's map state.
pub(crate) struct MapState {
    pub(crate) destroyed: bool,
    phase: Phase,
}

static GENERATION: AtomicU64 = AtomicU64::new(1);

impl MapState {
    /// The state of a new buffer; `None` when host memory for an invalid
    /// buffer mapped at creation cannot be allocated.
    pub(crate) fn at_creation(mapped: bool, valid: bool, size: u64) -> Option<MapState> {
        let phase = if !mapped {
            Phase::Unmapped
        } else {
            let memory = if size == 0 {
                Memory::Empty
            } else if valid {
                // Filled in by `Buffer::finish_creation_mapping`.
                Memory::Unfetched
            } else {
                Memory::View(View::open(map_view::Source::Blank, usize::try_from(size).ok()?, true)?)
            };
            Phase::Mapped { write: true, offset: 0, size, memory, ranges: Ranges::default(), core: valid }
        };
        Some(MapState { destroyed: false, phase })
    }
}

impl Buffer {
    pub(crate) fn map_state(&self) -> WGPUBufferMapState {
        match self.state.lock().phase {
            Phase::Unmapped => WGPUBufferMapState::Unmapped,
            Phase::Pending { .. } => WGPUBufferMapState::Pending,
            Phase::Mapped { .. } => WGPUBufferMapState::Mapped,
        }
    }

    /// Fetches the base pointer of a valid buffer mapped at creation.
    /// Returns `false` when wgpu-core has no mapping to give.
    pub(crate) fn finish_creation_mapping(&self) -> bool {
        let size = self.size;
        let needs = matches!(self.state.lock().phase, Phase::Mapped { memory: Memory::Unfetched, .. });
        if !needs {
            return true;
        }
        match self.device.global().buffer_get_mapped_range(self.id, 0, Some(size)) {
            Ok((ptr, _)) => {
                // wgpu-core zeroes a buffer mapped at creation.
                let Some(view) = View::open(map_view::Source::DriverZeroed(ptr.as_ptr()), size as usize, true) else {
                    log::error!(target: "wgpu_shim", "mappedAtCreation: no address space for a view of {size} bytes");
                    return false;
                };
                if let Phase::Mapped { memory, .. } = &mut self.state.lock().phase {
                    *memory = Memory::View(view);
                }
                true
            }
            Err(err) => {
                log::error!(target: "wgpu_shim", "mappedAtCreation: {}", crate::conv::describe(&err));
                false
            }
        }
    }

    /// Ends a mapping or aborts a pending one.
    pub(crate) fn unmap(&self) {
        let mut state = self.state.lock();
        let (completer, core_mapped) = match std::mem::replace(&mut state.phase, Phase::Unmapped) {
            Phase::Unmapped => return,
            Phase::Pending { completer, .. } => (completer, true),
            Phase::Mapped { core, memory, .. } => {
                // Before wgpu-core's unmap: a written copy reaches the
                // buffer while its mapping is still there.
                memory.close();
                (None, core)
            }
        };
        drop(state);
        if let Some(completer) = completer {
            completer.complete((
                WGPUMapAsyncStatus::Aborted,
                "the buffer was unmapped or destroyed before the map completed".into(),
            ));
        }
        if core_mapped && self.valid {
            let unmapped = {
                let _exclusive = self.device.locks.maintain.write();
                self.device.global().buffer_unmap(self.id)
            };
            // Unmapping a buffer mapped at creation records a queue write.
            if self.created_mapped {
                self.device.work_done.note_work();
            }
            if let Err(err) = unmapped {
                log::debug!(target: "wgpu_shim", "unmap: {}", crate::conv::describe(&err));
            }
        }
    }

    /// The buffer's last release: aborts a pending map and ends a mapping
    /// (keeping what was written), so that the application's views are
    /// retired (docs/MAPPING.md).
    pub(crate) fn end_mapping_at_release(&self) {
        // A buffer never mapped (nor asked to be) has no map to end: no
        // lock needed on the common create-and-release path.
        if !self.tracked.is_set() {
            return;
        }
        if !matches!(self.state.lock().phase, Phase::Unmapped) {
            self.unmap();
        }
    }

    /// wgpu-core finished (or gave up) the map of `generation`. Runs inside
    /// wgpu-core: only the state lock is taken.
    fn core_done(&self, generation: u64, result: Result<(), wgpu_core::resource::BufferAccessError>) {
        self.device.progress.end_op();
        let mut state = self.state.lock();
        let completer = match &mut state.phase {
            Phase::Pending { generation: g, completer, .. } if *g == generation => completer.take(),
            _ => None,
        };
        let Some(completer) = completer else { return };
        let outcome = match result {
            Ok(()) => (WGPUMapAsyncStatus::Success, String::new()),
            Err(err) => {
                state.phase = Phase::Unmapped;
                let status =
                    if self.device.is_lost() { WGPUMapAsyncStatus::Aborted } else { WGPUMapAsyncStatus::Error };
                (status, crate::conv::describe(&err))
            }
        };
        drop(state);
        completer.complete(outcome);
    }

    /// The success callback of `generation` is being delivered: the buffer
    /// becomes Mapped, unless the map was aborted meanwhile.
    fn deliver_mapped(&self, generation: u64) -> bool {
        let (offset, size, write) = match &self.state.lock().phase {
            Phase::Pending { generation: g, offset, size, write, .. } if *g == generation => (*offset, *size, *write),
            _ => return false,
        };
        let memory = if size == 0 {
            Memory::Empty
        } else {
            match self.device.global().buffer_get_mapped_range(self.id, offset, Some(size)) {
                Ok((ptr, _)) => match View::open(map_view::Source::Driver(ptr.as_ptr()), size as usize, write) {
                    Some(view) => Memory::View(view),
                    None => {
                        log::error!(target: "wgpu_shim", "map: no address space for a view of {size} bytes");
                        return false;
                    }
                },
                Err(err) => {
                    // An unmap or destroy on another thread since the check
                    // above aborted this map: that is not an error.
                    let aborted = !matches!(&self.state.lock().phase,
                        Phase::Pending { generation: g, .. } if *g == generation);
                    if aborted {
                        log::debug!(target: "wgpu_shim", "map aborted while being delivered: {err}");
                    } else {
                        log::error!(target: "wgpu_shim", "map: {}", crate::conv::describe(&err));
                    }
                    return false;
                }
            }
        };
        let mut state = self.state.lock();
        match &state.phase {
            Phase::Pending { generation: g, .. } if *g == generation => {
                // A zero-sized map was never handed to wgpu-core.
                state.phase = Phase::Mapped { write, offset, size, memory, ranges: Ranges::default(), core: size != 0 };
                true
            }
            _ => {
                drop(state);
                // Aborted meanwhile: the view was never handed out.
                memory.close();
                false
            }
        }
    }

    /// A pointer to `size` mapped bytes at `offset`, reserving the range
    /// (`mutable`: GetMappedRange/WriteMappedRange). `whole` allows
    /// `WGPU_WHOLE_MAP_SIZE` (the Get* functions).
    pub(crate) fn mapped_range(&self, offset: usize, size: usize, mutable: bool, whole: bool) -> ApiResult<*mut u8> {
        let mut state = self.state.lock();
        let Phase::Mapped { write, offset: map_offset, size: map_size, memory, ranges, .. } = &mut state.phase else {
            return Err(reject!("the buffer is not mapped (a map is only usable once its callback was delivered)"));
        };
        let mutable = if mutable && !*write {
            if !crate::compat::allows(crate::compat::Rule::MutableRangeOfReadMapping) {
                return Err(reject!(
                    "the buffer is mapped for reading: use GetConstMappedRange or ReadMappedRange \
                     (wgpu-native compatibility allows it for code written for wgpu-native)"
                ));
            }
            // wgpu-native's relaxation: the range is read-only in effect.
            false
        } else {
            mutable
        };
        let offset = offset as u64;
        let size = if size == WGPU_WHOLE_MAP_SIZE {
            if !whole {
                return Err(reject!("WGPU_WHOLE_MAP_SIZE is not accepted here: give the size"));
            }
            self.size
                .checked_sub(offset)
                .ok_or_else(|| reject!("offset {offset} is past the end of the buffer ({} bytes)", self.size))?
        } else {
            size as u64
        };
        if !offset.is_multiple_of(8) {
            return Err(reject!("offset {offset} is not a multiple of 8"));
        }
        if !size.is_multiple_of(4) {
            return Err(reject!("size {size} is not a multiple of 4"));
        }
        let end = offset.checked_add(size).ok_or_else(|| reject!("offset + size overflows"))?;
        if offset < *map_offset || end > *map_offset + *map_size {
            return Err(reject!(
                "range {offset}..{end} is outside the mapped range {}..{}",
                map_offset,
                *map_offset + *map_size
            ));
        }
        if let Err(overlap) = ranges.reserve(offset, end, mutable) {
            // wgpu-native checks no overlaps (wgpu-py's `write_mapped` takes
            // the same bytes again for each write).
            if !crate::compat::allows(crate::compat::Rule::OverlappingMappedRanges) {
                return Err(overlap);
            }
        }
        let at = (offset - *map_offset) as usize;
        Ok(match memory {
            _ if size == 0 => dangling(),
            // SAFETY: `at + size` is within the mapped range, which the view
            // holds.
            Memory::View(view) => unsafe { view.ptr().add(at) },
            Memory::Unfetched | Memory::Empty => dangling(),
        })
    }
}

/// A non-NULL, 16-byte-aligned pointer for zero-sized ranges.
fn dangling() -> *mut u8 {
    std::ptr::NonNull::<u128>::dangling().as_ptr().cast()
}

/// The callback of a rejected `wgpuBufferMapAsync`
/// (`ffi::callback::call_async`): `Error` with the reason, or
/// `CallbackCancelled`.
pub(crate) fn map_fail(info: &WGPUBufferMapCallbackInfo) -> impl Fail {
    let (cb, ud) = (SendFn(info.callback), UserData(info.userdata1, info.userdata2));
    move |why: Option<String>| {
        let Some(f) = cb.get() else { return };
        let status = if why.is_some() { WGPUMapAsyncStatus::Error } else { WGPUMapAsyncStatus::CallbackCancelled };
        let message = why.unwrap_or_else(|| "the instance was released before the map callback was delivered".into());
        // SAFETY: the application's callback with its userdata.
        unsafe { f(status, boundary::out_str(&message), ud.u1(), ud.u2()) };
    }
}

/// `wgpuBufferMapAsync` (and `wgpuBufferMapAsync2`), inside
/// `call_async` with [`map_fail`]: registers the future, checks the request
/// ([`check_map`]), moves the buffer to `Pending` and hands the map to
/// wgpu-core ([`start_core_map`]). The callback runs in [`map_delivery`].
///
/// # Safety
/// `buffer` is a live buffer; the callback info's chain is valid.
pub(crate) unsafe fn map_async(
    buffer: WGPUBuffer,
    mode: WGPUMapMode,
    offset: usize,
    size: usize,
    info: WGPUBufferMapCallbackInfo,
    on_reject: &mut OnReject<'_, impl MakeFail>,
) -> ApiResult<WGPUFuture> {
    // SAFETY: forwarded from the caller.
    let handle = unsafe { boundary::arg::<Buffer>(buffer, "buffer")? };
    on_reject.registry(&handle.device.instance.registry, Source::Queue(handle.device.serial));
    let buffer = handle.arc();
    // SAFETY: forwarded from the caller.
    let cb_mode = unsafe {
        on_reject.mode(
            info.mode,
            info.nextInChain,
            "WGPUBufferMapCallbackInfo",
            Some(crate::futures::Mode::AllowProcessEvents),
        )?
    };
    on_reject.disarm();
    let device = &buffer.device;
    let generation = GENERATION.fetch_add(1, Ordering::Relaxed);
    let delivery = map_delivery(&buffer, generation, &info);
    let (future, completer) =
        device.instance.registry.register::<MapResult>(cb_mode, Source::Queue(device.serial), delivery);

    // Device destroy must find the buffer from now on.
    buffer.track_mapping();
    let offset = offset as u64;
    let range_size = if size == WGPU_WHOLE_MAP_SIZE { buffer.size.saturating_sub(offset) } else { size as u64 };
    let write = mode == WGPUMapMode_Write;
    let mut state = buffer.state.lock();
    if let Err((status, why)) = check_map(&buffer, &state, mode, offset, range_size) {
        drop(state);
        if status == WGPUMapAsyncStatus::Error {
            device.report_validation(format!("MapAsync: {why}"));
        }
        completer.complete((status, why));
        return Ok(future);
    }
    if range_size == 0 {
        // Nothing to wait for: complete now; delivery makes it Mapped.
        state.phase = Phase::Pending { generation, write, offset, size: 0, completer: None };
        drop(state);
        completer.complete((WGPUMapAsyncStatus::Success, String::new()));
        return Ok(future);
    }
    state.phase = Phase::Pending { generation, write, offset, size: range_size, completer: Some(completer) };
    drop(state);
    device.progress.begin_op(device.wants_progress(cb_mode));
    let spontaneous = cb_mode == crate::futures::Mode::AllowSpontaneous;
    start_core_map(&buffer, generation, write, offset, range_size, spontaneous);
    Ok(future)
}

/// The delivery of a map's callback: a successful map makes the buffer
/// `Mapped` now (unless it was unmapped or destroyed meanwhile, which
/// aborts it), then the application's callback runs. Inlined, so that the
/// closure is built where `register` stores it, as a literal would be.
#[inline(always)]
fn map_delivery(
    buffer: &Arc<Buffer>,
    generation: u64,
    info: &WGPUBufferMapCallbackInfo,
) -> impl FnOnce(Outcome<MapResult>) + Send + 'static {
    let cb = SendFn(info.callback);
    let ud = UserData(info.userdata1, info.userdata2);
    let weak = Arc::downgrade(buffer);
    move |out| {
        let (status, message) = match out {
            Outcome::Done((WGPUMapAsyncStatus::Success, _)) => {
                let buffer = weak.upgrade();
                if let (Some(b), true) = (&buffer, fault::hit(Fault::LoseInCallback)) {
                    b.device.lose_as_driver_would();
                }
                match buffer {
                    Some(b) if b.deliver_mapped(generation) => (WGPUMapAsyncStatus::Success, String::new()),
                    _ => (
                        WGPUMapAsyncStatus::Aborted,
                        "the buffer was unmapped or destroyed before the map callback was delivered".into(),
                    ),
                }
            }
            Outcome::Done(result) => result,
            Outcome::Cancelled => (
                WGPUMapAsyncStatus::CallbackCancelled,
                "the instance was released before the map callback was delivered".into(),
            ),
        };
        if let Some(f) = cb.get() {
            // SAFETY: the application's callback with its userdata.
            unsafe { f(status, boundary::out_str(&message), ud.u1(), ud.u2()) };
        }
    }
}

/// Whether a map of `range_size` bytes at `offset` may start on `buffer`
/// (whose map state is `state`): else the status it completes with and why.
/// A request the standard calls invalid gets `Error` (and a validation
/// error); one on a lost device `Aborted`.
fn check_map(
    buffer: &Buffer,
    state: &MapState,
    mode: WGPUMapMode,
    offset: u64,
    range_size: u64,
) -> Result<(), MapResult> {
    let error = |why: String| Err((WGPUMapAsyncStatus::Error, why));
    if !matches!(state.phase, Phase::Unmapped) {
        return error("the buffer is already mapped or has a map pending".into());
    }
    if buffer.device.is_lost() {
        return Err((WGPUMapAsyncStatus::Aborted, "the device is lost".into()));
    }
    if !buffer.valid {
        // A validation error and Error, as Dawn and the CTS have it.
        return error("the buffer is invalid".into());
    }
    let write = mode == WGPUMapMode_Write;
    if state.destroyed {
        error("the buffer is destroyed".to_string())
    } else if !offset.is_multiple_of(8) {
        error(format!("offset {offset} is not a multiple of 8"))
    } else if !range_size.is_multiple_of(4) {
        error(format!("size {range_size} is not a multiple of 4"))
    } else if offset.checked_add(range_size).is_none_or(|end| end > buffer.size) {
        error(format!("range {offset}+{range_size} is beyond the buffer's {} bytes", buffer.size))
    } else if mode != WGPUMapMode_Read && mode != WGPUMapMode_Write {
        error(format!("mode {mode:#x} must be exactly one of Read or Write"))
    } else if write && buffer.usage & WGPUBufferUsage_MapWrite == 0 {
        error("a Write map needs MapWrite usage".to_string())
    } else if !write && buffer.usage & WGPUBufferUsage_MapRead == 0 {
        error("a Read map needs MapRead usage".to_string())
    } else {
        Ok(())
    }
}

/// Hands a map that is now `Pending` to wgpu-core, whose callback completes
/// it ([`Buffer::core_done`]). An idle buffer's map completes at the next
/// poll: with `spontaneous`, one made now; otherwise the one the
/// application's wait or poll makes (`Progress::note_unpolled`), so that
/// the call itself only registers the map, as wgpu-native's does.
fn start_core_map(buffer: &Arc<Buffer>, generation: u64, write: bool, offset: u64, range_size: u64, spontaneous: bool) {
    let device = &buffer.device;
    let weak = Arc::downgrade(buffer);
    let progress = device.progress.clone();
    let op = wgpu_core::resource::BufferMapOperation {
        host: if write { wgpu_core::device::HostMap::Write } else { wgpu_core::device::HostMap::Read },
        callback: Some(Box::new(move |result| match weak.upgrade() {
            Some(buffer) => buffer.core_done(generation, result),
            None => progress.end_op(),
        })),
    };
    if fault::hit(Fault::MapFail) {
        // The backend's answer replaced by a failure (nothing reaches wgpu-core).
        drop(op);
        buffer.core_done(generation, Err(wgpu_core::resource::BufferAccessError::Failed));
        return;
    }
    let started = {
        let _exclusive = device.locks.maintain.write();
        device.global().buffer_map_async(buffer.id, offset, Some(range_size), op)
    };
    match started {
        // The buffer is idle: the map completes at the next poll.
        Ok(0) if spontaneous => device.poll_now(),
        Ok(0) => device.progress.note_unpolled(),
        // The map waits for submission `index`. wgpu-core made it itself
        // where the buffer had a pending `wgpuQueueWriteBuffer` (a flush,
        // as in `queue/work_done.rs`): noted, the fence's waiters count
        // from it and a GL fence's syncs cover it, as for any submission.
        Ok(index) => device.progress.submissions.note_flush(index),
        // The callback already ran with this error.
        Err(err) => device.report(err),
    }
    if fault::hit(Fault::LoseMidMap) {
        device.lose_as_driver_would();
    }
}
