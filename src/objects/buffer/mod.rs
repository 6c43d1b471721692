//! `WGPUBuffer`: creation, destruction, accessors. Mapping is in [`map`].

mod map;
mod range;

use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::id::BufferId;

use crate::abi::*;
use crate::engine::fault::{self, Fault};
use crate::engine::tracking::Slot;
use crate::ffi::boundary::{self, call, refcounted, set_label};
use crate::ffi::handle::{Handle, Object};
use crate::objects::device::Device;

use map::MapState;
pub(crate) use map::{map_async, map_fail};

/// A `WGPUBuffer`.
#[repr(C)]
pub(crate) struct Buffer {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) device: Arc<Device>,
    pub(crate) id: BufferId,
    /// The label given by `wgpuBufferSetLabel`. The creation label is not
    /// copied here: wgpu-core keeps it for its messages, and this library's
    /// messages about a buffer are made while creating it.
    pub(crate) label: Mutex<String>,
    /// Size and usage as the application asked for them (reported even
    /// for an invalid buffer).
    size: u64,
    usage: WGPUBufferUsage,
    /// wgpu-core created the buffer.
    valid: bool,
    state: Mutex<MapState>,
    /// Its place among the device's mappable buffers (set at the first
    /// mapping).
    tracked: Slot,
    /// Created with `mappedAtCreation`: wgpu-core's unmap of that mapping
    /// records a queue write (see `work_done.rs`).
    created_mapped: bool,
    /// The wgpu-core descriptor of a valid buffer (label left out, not
    /// mapped), for a stand-in once it is destroyed ([`Buffer::stand_in`]).
    remake: Option<wgpu_core::resource::BufferDescriptor<'static>>,
}

impl Object for Buffer {
    type Raw = WGPUBufferImpl;
    const NAME: &'static str = "WGPUBuffer";
    const HEADER_OFFSET: usize = std::mem::offset_of!(Buffer, header);

    /// Releasing the last reference while a map is pending aborts the map
    /// (docs/DECISIONS.md); the buffer itself lives on for bind groups and
    /// command buffers that use it.
    fn last_release(this: &Arc<Self>, _handle: *mut WGPUBufferImpl) {
        this.end_mapping_at_release();
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        crate::ffi::boundary::in_drop("a buffer", || {
            self.device.mappable_buffers.remove(&self.tracked);
            self.device.global().buffer_drop(self.id);
            // Dropping a buffer still mapped at creation unmaps it, which
            // records a queue write.
            if self.created_mapped {
                self.device.work_done.note_work();
            }
        });
    }
}

refcounted!(Buffer, WGPUBuffer, wgpuBufferAddRef, wgpuBufferRelease);
set_label!(Buffer, WGPUBuffer, wgpuBufferSetLabel);

impl Buffer {
    /// Enters the buffer among its device's mappable buffers (which device
    /// destroy unmaps), once: called before the buffer is first mapped.
    pub(crate) fn track_mapping(self: &Arc<Self>) {
        if !self.tracked.is_set() {
            self.device.mappable_buffers.insert(self, &self.tracked);
        }
    }

    /// A stand-in for this buffer once it is destroyed, for a bind group
    /// made after `Destroy`: WebGPU checks a destroyed buffer at submit, so
    /// such a bind group is valid and only a submit that uses it fails,
    /// while wgpu-core refuses to make one. The bind group is made of a
    /// fresh buffer of the same descriptor, which the caller destroys and
    /// drops once the bind group exists; it then behaves as one made before
    /// `Destroy`. `None` while the buffer is not destroyed, or when no
    /// stand-in can be made (an invalid buffer, no memory): the caller then
    /// uses the buffer itself, and the bind group is invalid, as before.
    pub(crate) fn stand_in(&self) -> Option<BufferId> {
        let desc = self.remake.as_ref()?;
        if !self.state.lock().destroyed {
            return None;
        }
        let global = self.device.global();
        match global.device_create_buffer(self.device.id, desc, None) {
            (id, None) => Some(id),
            (id, Some(e)) => {
                log::debug!(target: "wgpu_shim", "no stand-in for a destroyed buffer ({e}): the bind group is invalid");
                global.buffer_drop(id);
                None
            }
        }
    }

    /// The binding to record just before `SetIndexBuffer(offset, size)` so
    /// that wgpu-core can initialise the range, or `None` when none is
    /// needed. wgpu-core 30 zero-fills a still-uninitialised index range
    /// at submit with a clear that must start on a 4-byte boundary, and
    /// panics (dropping the whole submit) when a `Uint16` range starts 2
    /// bytes past one. Binding the range from that boundary first, with
    /// the same end, makes the first initialisation start there; the real
    /// binding follows and finds the range initialised. Only where the real
    /// binding is valid, so that an error names what the caller passed.
    pub(crate) fn index_prebind(
        &self,
        format: wgpu_types::IndexFormat,
        offset: u64,
        size: Option<std::num::NonZeroU64>,
    ) -> Option<(u64, Option<std::num::NonZeroU64>)> {
        let fits = match size {
            Some(size) => offset.checked_add(size.get()).is_some_and(|end| end <= self.size),
            None => offset <= self.size,
        };
        let index = wgpu_types::BufferUsages::INDEX.bits() as u64;
        let needed = format == wgpu_types::IndexFormat::Uint16 && offset % 4 == 2;
        (needed && fits && self.valid && self.usage & index != 0)
            .then(|| (offset - 2, size.and_then(|s| s.checked_add(2))))
    }

    /// What is wrong with reading `args` bytes of indirect draw arguments at
    /// `offset` (not a multiple of 4, or past the end), for a valid buffer;
    /// `None` when nothing is.
    pub(crate) fn indirect_problem(&self, offset: u64, args: u64) -> Option<String> {
        if !self.valid {
            None
        } else if !offset.is_multiple_of(4) {
            Some(format!("indirect offset {offset} is not a multiple of 4"))
        } else if offset.checked_add(args).is_none_or(|end| end > self.size) {
            Some(format!(
                "{args} bytes of indirect arguments at offset {offset} go past the end of the buffer ({} bytes)",
                self.size
            ))
        } else {
            None
        }
    }

    /// `wgpuBufferDestroy`: unmaps (aborting a pending map) and frees the
    /// GPU memory. Repeating it does nothing.
    pub(crate) fn destroy(&self) {
        self.unmap();
        let mut state = self.state.lock();
        if !state.destroyed {
            state.destroyed = true;
            drop(state);
            self.device.global().buffer_destroy(self.id);
            if self.created_mapped {
                self.device.work_done.note_work();
            }
        }
    }
}

/// Creates a buffer. An invalid descriptor gives a validation error and an
/// invalid buffer; NULL only when `mappedAtCreation` memory cannot be had.
///
/// # Safety
/// `device` is a live device; `descriptor` is NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceCreateBuffer(
    device: WGPUDevice,
    descriptor: *const WGPUBufferDescriptor,
) -> WGPUBuffer {
    call("wgpuDeviceCreateBuffer", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle and a valid descriptor.
        let (device, desc, label) = unsafe {
            let desc = boundary::ptr_arg(descriptor, "descriptor")?;
            (boundary::arg::<Device>(device, "device")?, desc, boundary::str_arg(desc.label, "label")?.or_empty())
        };
        if !label.is_empty() && crate::compat::active() {
            crate::ffi::frame::note_label(&label);
        }
        let mut problem = None;
        // SAFETY: the descriptor's chain is valid (caller).
        if let Err(r) = unsafe { crate::ffi::chain_walk::expect_none(desc.nextInChain, "WGPUBufferDescriptor") } {
            problem = Some(r.0);
        }
        let usage = wgpu_types::BufferUsages::from_bits(desc.usage as u32).filter(|_| desc.usage <= u32::MAX as u64);
        if usage.is_none() {
            problem.get_or_insert_with(|| format!("buffer usage {:#x} has unknown bits", desc.usage));
        }
        let mapped = desc.mappedAtCreation != 0;
        let core_desc = wgpu_core::resource::BufferDescriptor {
            label: crate::conv::label(&label),
            size: desc.size,
            usage: usage.unwrap_or(wgpu_types::BufferUsages::empty()),
            mapped_at_creation: mapped,
        };
        let global = device.global();
        let (id, valid) = match problem {
            Some(why) => {
                // wgpu-core rejects this one too, which gives us an invalid id.
                let (id, _) = global.device_create_buffer(device.id, &core_desc_error(&core_desc), None);
                device.report_validation(format!("CreateBuffer {label:?}: {why}"));
                (id, false)
            }
            None if fault::hit(Fault::CreateOom) => {
                let (id, _) = global.device_create_buffer(device.id, &core_desc_error(&core_desc), None);
                device.report_error(
                    WGPUErrorType::OutOfMemory,
                    format!("CreateBuffer {label:?}: out of memory (injected fault)"),
                );
                (id, false)
            }
            None => match global.device_create_buffer(device.id, &core_desc, None) {
                (id, None) => (id, true),
                (id, Some(err)) => {
                    device.report(err);
                    (id, false)
                }
            },
        };
        let state = match MapState::at_creation(mapped, valid, desc.size) {
            Some(state) => state,
            None => {
                log::error!(target: "wgpu_shim", "CreateBuffer {label:?}: cannot allocate {} bytes for mappedAtCreation", desc.size);
                global.buffer_drop(id);
                return Ok(std::ptr::null_mut());
            }
        };
        let buffer = Arc::new(Buffer {
            header: Default::default(),
            device: device.arc(),
            id,
            label: Mutex::new(String::new()),
            size: desc.size,
            usage: desc.usage,
            valid,
            state: Mutex::new(state),
            tracked: Slot::default(),
            created_mapped: mapped,
            remake: valid.then_some(wgpu_core::resource::BufferDescriptor {
                label: None,
                size: core_desc.size,
                usage: core_desc.usage,
                mapped_at_creation: false,
            }),
        });
        if mapped {
            if valid && !buffer.finish_creation_mapping() {
                return Ok(std::ptr::null_mut());
            }
            buffer.track_mapping();
        }
        Ok(Handle::into_raw(buffer))
    })
}

/// A descriptor wgpu-core rejects, for registering an invalid buffer id when
/// we found the problem first (a zero-usage, unmappable buffer).
fn core_desc_error<'a>(desc: &wgpu_core::resource::BufferDescriptor<'a>) -> wgpu_core::resource::BufferDescriptor<'a> {
    wgpu_core::resource::BufferDescriptor {
        label: desc.label.clone(),
        size: 0,
        usage: wgpu_types::BufferUsages::empty(),
        mapped_at_creation: false,
    }
}

/// Unmaps and frees the buffer's memory; pending maps abort.
///
/// # Safety
/// `buffer` is a live buffer.
#[no_mangle]
pub unsafe extern "C" fn wgpuBufferDestroy(buffer: WGPUBuffer) {
    call("wgpuBufferDestroy", (), || {
        // SAFETY: the C caller passes a live handle.
        unsafe { boundary::arg::<Buffer>(buffer, "buffer") }?.destroy();
        Ok(())
    })
}

/// The size the buffer was created with.
///
/// # Safety
/// `buffer` is a live buffer.
#[no_mangle]
pub unsafe extern "C" fn wgpuBufferGetSize(buffer: WGPUBuffer) -> u64 {
    call("wgpuBufferGetSize", 0, || {
        // SAFETY: the C caller passes a live handle.
        Ok(unsafe { boundary::arg::<Buffer>(buffer, "buffer") }?.size)
    })
}

/// The usage the buffer was created with.
///
/// # Safety
/// `buffer` is a live buffer.
#[no_mangle]
pub unsafe extern "C" fn wgpuBufferGetUsage(buffer: WGPUBuffer) -> WGPUBufferUsage {
    call("wgpuBufferGetUsage", WGPUBufferUsage_None, || {
        // SAFETY: the C caller passes a live handle.
        Ok(unsafe { boundary::arg::<Buffer>(buffer, "buffer") }?.usage)
    })
}

/// Unmapped, Pending (until the map callback is delivered) or Mapped.
///
/// # Safety
/// `buffer` is a live buffer.
#[no_mangle]
pub unsafe extern "C" fn wgpuBufferGetMapState(buffer: WGPUBuffer) -> WGPUBufferMapState {
    call("wgpuBufferGetMapState", WGPUBufferMapState::Unmapped, || {
        // SAFETY: the C caller passes a live handle.
        Ok(unsafe { boundary::arg::<Buffer>(buffer, "buffer") }?.map_state())
    })
}

/// Ends a mapping (writing mapped bytes back for a write mapping) or aborts
/// a pending one. Unmapping an unmapped buffer does nothing.
///
/// # Safety
/// `buffer` is a live buffer.
#[no_mangle]
pub unsafe extern "C" fn wgpuBufferUnmap(buffer: WGPUBuffer) {
    call("wgpuBufferUnmap", (), || {
        // SAFETY: the C caller passes a live handle.
        unsafe { boundary::arg::<Buffer>(buffer, "buffer") }?.unmap();
        Ok(())
    })
}

/// Maps a range of the buffer; the callback reports the outcome.
///
/// # Safety
/// `buffer` is a live buffer; the callback info's chain is valid.
#[no_mangle]
pub unsafe extern "C" fn wgpuBufferMapAsync(
    buffer: WGPUBuffer,
    mode: WGPUMapMode,
    offset: usize,
    size: usize,
    callback_info: WGPUBufferMapCallbackInfo,
) -> WGPUFuture {
    crate::ffi::callback::call_async(
        "wgpuBufferMapAsync",
        || map_fail(&callback_info),
        |on_reject| {
            // SAFETY: forwarded from the C caller.
            unsafe { map_async(buffer, mode, offset, size, callback_info, on_reject) }
        },
    )
}

/// A mutable pointer to mapped bytes, or NULL (logged) when the range is
/// not available.
///
/// # Safety
/// `buffer` is a live buffer.
#[no_mangle]
pub unsafe extern "C" fn wgpuBufferGetMappedRange(
    buffer: WGPUBuffer,
    offset: usize,
    size: usize,
) -> *mut std::ffi::c_void {
    call("wgpuBufferGetMappedRange", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle.
        let buffer = unsafe { boundary::arg::<Buffer>(buffer, "buffer") }?;
        Ok(buffer.mapped_range(offset, size, true, true)?.cast())
    })
}

/// A read-only pointer to mapped bytes, or NULL (logged).
///
/// # Safety
/// `buffer` is a live buffer.
#[no_mangle]
pub unsafe extern "C" fn wgpuBufferGetConstMappedRange(
    buffer: WGPUBuffer,
    offset: usize,
    size: usize,
) -> *const std::ffi::c_void {
    call("wgpuBufferGetConstMappedRange", std::ptr::null(), || {
        // SAFETY: the C caller passes a live handle.
        let buffer = unsafe { boundary::arg::<Buffer>(buffer, "buffer") }?;
        Ok(buffer.mapped_range(offset, size, false, true)?.cast_const().cast())
    })
}

/// Copies mapped bytes out to `data`. Fails (logged) like
/// GetConstMappedRange; `WGPU_WHOLE_MAP_SIZE` is not accepted.
///
/// # Safety
/// `buffer` is a live buffer; `data` points at `size` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn wgpuBufferReadMappedRange(
    buffer: WGPUBuffer,
    offset: usize,
    data: *mut std::ffi::c_void,
    size: usize,
) -> WGPUStatus {
    call("wgpuBufferReadMappedRange", WGPUStatus::Error, || {
        // SAFETY: the C caller passes a live handle.
        let buffer = unsafe { boundary::arg::<Buffer>(buffer, "buffer") }?;
        if data.is_null() && size > 0 {
            return Err(boundary::reject!("`data` is NULL"));
        }
        let src = buffer.mapped_range(offset, size, false, false)?;
        if size > 0 {
            // SAFETY: `src` is valid for `size` mapped bytes; `data` for
            // `size` writable bytes (caller); they cannot overlap.
            unsafe { std::ptr::copy_nonoverlapping(src, data.cast::<u8>(), size) };
        }
        Ok(WGPUStatus::Success)
    })
}

/// Copies `data` into the mapped bytes (a write mapping only). Fails
/// (logged) like GetMappedRange; `WGPU_WHOLE_MAP_SIZE` is not accepted.
///
/// # Safety
/// `buffer` is a live buffer; `data` points at `size` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn wgpuBufferWriteMappedRange(
    buffer: WGPUBuffer,
    offset: usize,
    data: *const std::ffi::c_void,
    size: usize,
) -> WGPUStatus {
    call("wgpuBufferWriteMappedRange", WGPUStatus::Error, || {
        // SAFETY: the C caller passes a live handle.
        let buffer = unsafe { boundary::arg::<Buffer>(buffer, "buffer") }?;
        if data.is_null() && size > 0 {
            return Err(boundary::reject!("`data` is NULL"));
        }
        let dst = buffer.mapped_range(offset, size, true, false)?;
        if size > 0 {
            // SAFETY: `dst` is valid for `size` mapped writable bytes;
            // `data` for `size` readable bytes (caller).
            unsafe { std::ptr::copy_nonoverlapping(data.cast::<u8>(), dst, size) };
        }
        Ok(WGPUStatus::Success)
    })
}
