//! `WGPUCommandEncoder`: buffer copies and clears, timestamps and query
//! resolves, debug markers, and `Finish`. Compute passes are in
//! `compute_pass`, texture copies in `texel_copy`.
//!
//! wgpu-core defers most encoding errors to `Finish`, which reports the
//! first one on the device and returns an invalid command buffer. Errors it
//! returns at once (encoding on a finished encoder) are reported at once.
//! Encoders are not thread-safe in webgpu.h; misuse from several threads is
//! serialized by wgpu-core's encoder lock and cannot crash.

use crate::objects::render_pass_commands::foreign;
use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::id::CommandEncoderId;
use wgpu_types as wgt;

use crate::abi::*;
use crate::ffi::boundary::{self, call, refcounted, set_label};
use crate::ffi::handle::{Handle, Object};
use crate::objects::buffer::Buffer;
use crate::objects::command_buffer::CommandBuffer;
use crate::objects::device::Device;
use crate::objects::query_set::QuerySet;

/// A `WGPUCommandEncoder`.
#[repr(C)]
pub(crate) struct CommandEncoder {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) device: Arc<Device>,
    pub(crate) id: CommandEncoderId,
    pub(crate) label: Mutex<String>,
    /// A validation error this library found while encoding (one that
    /// wgpu-core cannot see), reported by `Finish` instead of wgpu-core's.
    /// The wgpu-core encoder is invalidated at the same time, so `Finish`
    /// does fail.
    poison: Mutex<Option<String>>,
}

impl Object for CommandEncoder {
    type Raw = WGPUCommandEncoderImpl;
    const NAME: &'static str = "WGPUCommandEncoder";
    const HEADER_OFFSET: usize = std::mem::offset_of!(CommandEncoder, header);
}

impl Drop for CommandEncoder {
    fn drop(&mut self) {
        crate::ffi::boundary::in_drop("a command encoder", || self.device.global().command_encoder_drop(self.id));
    }
}

refcounted!(CommandEncoder, WGPUCommandEncoder, wgpuCommandEncoderAddRef, wgpuCommandEncoderRelease);
set_label!(CommandEncoder, WGPUCommandEncoder, wgpuCommandEncoderSetLabel);

impl CommandEncoder {
    /// Records a validation error to be reported by `Finish` (the first one
    /// is kept). The caller also makes sure wgpu-core's encoder fails.
    pub(crate) fn poison(&self, why: String) {
        let mut poison = self.poison.lock();
        if poison.is_none() {
            *poison = Some(why);
        }
    }

    /// Invalidates the wgpu-core encoder (by clearing an invalid buffer in
    /// it) and records `why` for `Finish`.
    pub(crate) fn invalidate(&self, why: String) {
        let global = self.device.global();
        let buffer = crate::objects::invalid::buffer(global, self.device.id);
        // An error here means the encoder was already finished: `Finish`
        // has run, so there is nothing left to poison.
        let _ = global.command_encoder_clear_buffer(self.id, buffer.id, 0, None);
        self.poison(why);
    }

    /// Reports the result of an encoding call that wgpu-core can reject at
    /// once (an encoder already finished).
    pub(crate) fn check<E: wgt::error::WebGpuError>(&self, result: Result<(), E>) {
        if let Err(e) = result {
            self.device.report(e);
        }
    }
}

/// Creates a command encoder. `descriptor` may be NULL. A malformed chain
/// gives an invalid encoder, whose `Finish` reports the validation error.
///
/// # Safety
/// `device` is a live device; `descriptor` is NULL or points at a valid
/// descriptor.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceCreateCommandEncoder(
    device: WGPUDevice,
    descriptor: *const WGPUCommandEncoderDescriptor,
) -> WGPUCommandEncoder {
    call("wgpuDeviceCreateCommandEncoder", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle and NULL or a valid
        // descriptor.
        let (device, desc) = unsafe { (boundary::arg::<Device>(device, "device")?, descriptor.as_ref()) };
        let (label, chain) = match desc {
            // SAFETY: the descriptor's label and chain are valid (caller).
            Some(desc) => unsafe {
                (
                    boundary::label_arg(desc.label, "label")?,
                    crate::ffi::chain_walk::expect_none(desc.nextInChain, "WGPUCommandEncoderDescriptor"),
                )
            },
            None => (String::new(), Ok(())),
        };
        let wgpu_desc = wgt::CommandEncoderDescriptor { label: crate::conv::label(&label) };
        let (id, error) = device.global().device_create_command_encoder(device.id, &wgpu_desc, None);
        if let Some(e) = error {
            device.report(e);
        }
        let encoder = CommandEncoder {
            header: Default::default(),
            device: device.arc(),
            id,
            label: Mutex::new(label),
            poison: Mutex::new(None),
        };
        if let Err(why) = chain {
            // The encoder is invalid. Like encoding errors, the error is
            // reported once, by `Finish`.
            let why = crate::conv::chain_error(why);
            encoder.invalidate(format!("wgpuDeviceCreateCommandEncoder: {why}"));
        }
        Ok(Handle::into_raw(Arc::new(encoder)))
    })
}

/// Copies `size` bytes between buffers (`WGPU_WHOLE_SIZE`: to the end of
/// the source).
///
/// # Safety
/// `command_encoder`, `source` and `destination` are live handles.
#[no_mangle]
pub unsafe extern "C" fn wgpuCommandEncoderCopyBufferToBuffer(
    command_encoder: WGPUCommandEncoder,
    source: WGPUBuffer,
    source_offset: u64,
    destination: WGPUBuffer,
    destination_offset: u64,
    size: u64,
) {
    call("wgpuCommandEncoderCopyBufferToBuffer", (), || {
        // SAFETY: the C caller passes live handles.
        let (encoder, src, dst) = unsafe {
            (
                boundary::arg::<CommandEncoder>(command_encoder, "commandEncoder")?,
                boundary::arg::<Buffer>(source, "source")?,
                boundary::arg::<Buffer>(destination, "destination")?,
            )
        };
        let call = "wgpuCommandEncoderCopyBufferToBuffer";
        if foreign(&**encoder, &**src, "source", call) || foreign(&**encoder, &**dst, "destination", call) {
            return Ok(());
        }
        encoder.check(encoder.device.global().command_encoder_copy_buffer_to_buffer(
            encoder.id,
            src.id,
            source_offset,
            dst.id,
            destination_offset,
            crate::conv::whole_size(size),
        ));
        Ok(())
    })
}

/// Fills `size` bytes of a buffer with zeros (`WGPU_WHOLE_SIZE`: to the end
/// of the buffer).
///
/// # Safety
/// `command_encoder` and `buffer` are live handles.
#[no_mangle]
pub unsafe extern "C" fn wgpuCommandEncoderClearBuffer(
    command_encoder: WGPUCommandEncoder,
    buffer: WGPUBuffer,
    offset: u64,
    size: u64,
) {
    call("wgpuCommandEncoderClearBuffer", (), || {
        // SAFETY: the C caller passes live handles.
        let (encoder, buffer) = unsafe {
            (
                boundary::arg::<CommandEncoder>(command_encoder, "commandEncoder")?,
                boundary::arg::<Buffer>(buffer, "buffer")?,
            )
        };
        if foreign(&**encoder, &**buffer, "buffer", "wgpuCommandEncoderClearBuffer") {
            return Ok(());
        }
        encoder.check(encoder.device.global().command_encoder_clear_buffer(
            encoder.id,
            buffer.id,
            offset,
            crate::conv::whole_size(size),
        ));
        Ok(())
    })
}

/// Writes a timestamp into a query (needs the TimestampQuery feature;
/// wgpu-core reports its absence when the encoder finishes).
///
/// # Safety
/// `command_encoder` and `query_set` are live handles.
#[no_mangle]
pub unsafe extern "C" fn wgpuCommandEncoderWriteTimestamp(
    command_encoder: WGPUCommandEncoder,
    query_set: WGPUQuerySet,
    query_index: u32,
) {
    call("wgpuCommandEncoderWriteTimestamp", (), || {
        // SAFETY: the C caller passes live handles.
        let (encoder, set) = unsafe {
            (
                boundary::arg::<CommandEncoder>(command_encoder, "commandEncoder")?,
                boundary::arg::<QuerySet>(query_set, "querySet")?,
            )
        };
        if foreign(&**encoder, &**set, "querySet", "wgpuCommandEncoderWriteTimestamp") {
            return Ok(());
        }
        if set.no_queries() {
            encoder.invalidate(format!("wgpuCommandEncoderWriteTimestamp: query index {query_index} is out of range of a query set of 0 queries"));
            return Ok(());
        }
        encoder.check(encoder.device.global().command_encoder_write_timestamp(encoder.id, set.id, query_index));
        Ok(())
    })
}

/// Writes the results of `query_count` queries from `first_query` on into
/// `destination` (8 bytes each, at a 256-aligned offset).
///
/// # Safety
/// `command_encoder`, `query_set` and `destination` are live handles.
#[no_mangle]
pub unsafe extern "C" fn wgpuCommandEncoderResolveQuerySet(
    command_encoder: WGPUCommandEncoder,
    query_set: WGPUQuerySet,
    first_query: u32,
    query_count: u32,
    destination: WGPUBuffer,
    destination_offset: u64,
) {
    call("wgpuCommandEncoderResolveQuerySet", (), || {
        // SAFETY: the C caller passes live handles.
        let (encoder, set, dst) = unsafe {
            (
                boundary::arg::<CommandEncoder>(command_encoder, "commandEncoder")?,
                boundary::arg::<QuerySet>(query_set, "querySet")?,
                boundary::arg::<Buffer>(destination, "destination")?,
            )
        };
        let call = "wgpuCommandEncoderResolveQuerySet";
        if foreign(&**encoder, &**set, "querySet", call) || foreign(&**encoder, &**dst, "destination", call) {
            return Ok(());
        }
        if set.no_queries() && (first_query > 0 || query_count > 0) {
            encoder.invalidate(format!(
                "wgpuCommandEncoderResolveQuerySet: queries {first_query}..{} are out of range of a query set of 0 queries",
                u64::from(first_query) + u64::from(query_count)
            ));
            return Ok(());
        }
        encoder.check(encoder.device.global().command_encoder_resolve_query_set(
            encoder.id,
            set.id,
            first_query,
            query_count,
            dst.id,
            destination_offset,
        ));
        Ok(())
    })
}

/// Opens a debug group.
///
/// # Safety
/// `command_encoder` is a live handle; `group_label` is a valid string view.
#[no_mangle]
pub unsafe extern "C" fn wgpuCommandEncoderPushDebugGroup(
    command_encoder: WGPUCommandEncoder,
    group_label: WGPUStringView,
) {
    call("wgpuCommandEncoderPushDebugGroup", (), || {
        // SAFETY: the C caller passes a live handle and a valid view.
        let (encoder, label) = unsafe {
            (
                boundary::arg::<CommandEncoder>(command_encoder, "commandEncoder")?,
                boundary::label_arg(group_label, "groupLabel")?,
            )
        };
        encoder.check(encoder.device.global().command_encoder_push_debug_group(encoder.id, &label));
        Ok(())
    })
}

/// Closes the innermost debug group (an unbalanced pop fails `Finish`).
///
/// # Safety
/// `command_encoder` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn wgpuCommandEncoderPopDebugGroup(command_encoder: WGPUCommandEncoder) {
    call("wgpuCommandEncoderPopDebugGroup", (), || {
        // SAFETY: the C caller passes a live handle.
        let encoder = unsafe { boundary::arg::<CommandEncoder>(command_encoder, "commandEncoder") }?;
        encoder.check(encoder.device.global().command_encoder_pop_debug_group(encoder.id));
        Ok(())
    })
}

/// Inserts a debug marker.
///
/// # Safety
/// `command_encoder` is a live handle; `marker_label` is a valid string view.
#[no_mangle]
pub unsafe extern "C" fn wgpuCommandEncoderInsertDebugMarker(
    command_encoder: WGPUCommandEncoder,
    marker_label: WGPUStringView,
) {
    call("wgpuCommandEncoderInsertDebugMarker", (), || {
        // SAFETY: the C caller passes a live handle and a valid view.
        let (encoder, label) = unsafe {
            (
                boundary::arg::<CommandEncoder>(command_encoder, "commandEncoder")?,
                boundary::label_arg(marker_label, "markerLabel")?,
            )
        };
        encoder.check(encoder.device.global().command_encoder_insert_debug_marker(encoder.id, &label));
        Ok(())
    })
}

/// Finishes encoding. `descriptor` may be NULL. An encoding error (the
/// first one) is reported on the device here, and the command buffer
/// returned is invalid (submitting it is a validation error).
///
/// # Safety
/// `command_encoder` is a live handle; `descriptor` is NULL or points at a
/// valid descriptor.
#[no_mangle]
pub unsafe extern "C" fn wgpuCommandEncoderFinish(
    command_encoder: WGPUCommandEncoder,
    descriptor: *const WGPUCommandBufferDescriptor,
) -> WGPUCommandBuffer {
    call("wgpuCommandEncoderFinish", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle and NULL or a valid
        // descriptor.
        let (encoder, desc) =
            unsafe { (boundary::arg::<CommandEncoder>(command_encoder, "commandEncoder")?, descriptor.as_ref()) };
        let (label, chain) = match desc {
            // SAFETY: the descriptor's label and chain are valid (caller).
            Some(desc) => unsafe {
                (
                    boundary::label_arg(desc.label, "label")?,
                    crate::ffi::chain_walk::expect_none(desc.nextInChain, "WGPUCommandBufferDescriptor"),
                )
            },
            None => (String::new(), Ok(())),
        };
        if let Err(why) = chain {
            encoder.invalidate(format!("wgpuCommandEncoderFinish: {}", crate::conv::chain_error(why)));
        }
        let device = &encoder.device;
        let wgpu_desc = wgt::CommandBufferDescriptor { label: crate::conv::label(&label) };
        let (id, error) = device.global().command_encoder_finish(encoder.id, &wgpu_desc, None);
        if let Some((_, e)) = error {
            let poison = encoder.poison.lock().take();
            match poison {
                Some(why) => device.report_validation(why),
                None => device.report(e),
            }
        }
        Ok(Handle::into_raw(Arc::new(CommandBuffer::new(device, id, label))))
    })
}

impl crate::objects::render_pass_commands::Recorder for CommandEncoder {
    fn device(&self) -> &Device {
        &self.device
    }
    fn reject(&self, why: String) {
        self.invalidate(why)
    }
}
