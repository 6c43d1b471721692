//! `WGPUComputePassEncoder`, and `wgpuCommandEncoderBeginComputePass`.
//!
//! Commands are recorded into wgpu-core's pass object, which validates them
//! when the pass ends; errors surface at the encoder's `Finish`. Calls on a
//! pass that already ended are reported at once. The pass object sits
//! behind a mutex: webgpu.h encoders are not thread-safe, but misuse from
//! several threads must not crash. No lock is held while an error is
//! reported (the uncaptured-error callback may run inline).

use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::command::{ComputePass, ComputePassDescriptor, PassTimestampWrites};
use wgpu_core::global::Global;
use wgpu_types::error::WebGpuError;

use crate::abi::*;
use crate::ffi::boundary::{self, call, refcounted, set_label};
use crate::ffi::handle::{Handle, Object};
use crate::objects::command_encoder::CommandEncoder;
use crate::objects::compute_pipeline::ComputePipeline;
use crate::objects::device::Device;
use crate::objects::query_set::QuerySet;
use crate::objects::render_pass_commands::recording_exports;

/// A `WGPUComputePassEncoder`.
#[repr(C)]
pub(crate) struct ComputePassEncoder {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    device: Arc<Device>,
    encoder: Arc<CommandEncoder>,
    pass: Mutex<ComputePass>,
    pub(crate) label: Mutex<String>,
}

impl Object for ComputePassEncoder {
    type Raw = WGPUComputePassEncoderImpl;
    const NAME: &'static str = "WGPUComputePassEncoder";
    const HEADER_OFFSET: usize = std::mem::offset_of!(ComputePassEncoder, header);
}

refcounted!(ComputePassEncoder, WGPUComputePassEncoder, wgpuComputePassEncoderAddRef, wgpuComputePassEncoderRelease);
set_label!(ComputePassEncoder, WGPUComputePassEncoder, wgpuComputePassEncoderSetLabel);

impl ComputePassEncoder {
    /// Runs one recording call on the pass, then reports its immediate
    /// error, if any, with the pass unlocked.
    pub(crate) fn record<E: WebGpuError>(&self, f: impl FnOnce(&Global, &mut ComputePass) -> Result<(), E>) {
        record_in(&self.device, &self.pass, f);
    }

    /// The device it records for.
    pub(crate) fn owner_device(&self) -> &Device {
        &self.device
    }

    /// Makes the pass invalid for a validation error this library found:
    /// ending it invalidates the encoder, whose `Finish` reports `why`. On
    /// a pass that already ended, `why` is reported at once instead.
    pub(crate) fn invalidate(&self, why: String) {
        let global = self.device.global();
        let buffer = crate::objects::invalid::buffer(global, self.device.id);
        // A command that fails (the buffer is invalid) invalidates the
        // pass; an immediate error means the pass ended.
        if global.compute_pass_dispatch_workgroups_indirect(&mut self.pass.lock(), buffer.id, 0).is_ok() {
            self.encoder.poison(why);
        } else {
            self.device.report_validation(why);
        }
    }
}

/// Runs one recording call on a pass (compute or render) behind its mutex,
/// then reports its immediate error, if any, with the pass unlocked.
pub(crate) fn record_in<P, E: WebGpuError>(
    device: &Device,
    pass: &Mutex<P>,
    f: impl FnOnce(&Global, &mut P) -> Result<(), E>,
) {
    let result = {
        let mut pass = pass.lock();
        f(device.global(), &mut pass)
    };
    if let Err(e) = result {
        device.report(e);
    }
}

/// Begins a compute pass. `descriptor` may be NULL. `timestampWrites`
/// (NULL for none) names a timestamp query set and the indices written at
/// the beginning and end of the pass (`WGPU_QUERY_SET_INDEX_UNDEFINED`:
/// not written); errors in it surface at the encoder's `Finish`.
///
/// # Safety
/// `command_encoder` is a live handle; `descriptor` is NULL or points at a
/// valid descriptor.
#[no_mangle]
pub unsafe extern "C" fn wgpuCommandEncoderBeginComputePass(
    command_encoder: WGPUCommandEncoder,
    descriptor: *const WGPUComputePassDescriptor,
) -> WGPUComputePassEncoder {
    call("wgpuCommandEncoderBeginComputePass", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle and NULL or a valid
        // descriptor.
        let (encoder, desc) =
            unsafe { (boundary::arg::<CommandEncoder>(command_encoder, "commandEncoder")?, descriptor.as_ref()) };
        let mut label = String::new();
        let mut problem = None;
        let mut timestamps = None;
        if let Some(desc) = desc {
            // SAFETY: the descriptor's label and chain are valid (caller).
            let chain = unsafe {
                label = boundary::label_arg(desc.label, "label")?;
                crate::ffi::chain_walk::expect_none(desc.nextInChain, "WGPUComputePassDescriptor")
            };
            if let Err(why) = chain {
                problem = Some(crate::conv::chain_error(why));
            }
            // SAFETY: `timestampWrites` is NULL or valid, with a live query
            // set (caller).
            match unsafe { timestamp_writes(&encoder.device, desc.timestampWrites) }? {
                Ok(tw) => timestamps = tw,
                Err(why) => problem = problem.or(Some(why)),
            }
        }
        let device = encoder.device.clone();
        let global = device.global();
        let wgpu_desc = ComputePassDescriptor { label: crate::conv::label(&label), timestamp_writes: timestamps };
        let (mut pass, error) = global.command_encoder_begin_compute_pass(encoder.id, &wgpu_desc);
        if let Some(e) = error {
            device.report(e);
        }
        if let Some(why) = problem {
            // Record a command that cannot succeed, so that the pass is
            // invalid and ending it invalidates the encoder.
            let buffer = crate::objects::invalid::buffer(global, device.id);
            let _ = global.compute_pass_dispatch_workgroups_indirect(&mut pass, buffer.id, 0);
            encoder.poison(format!("wgpuCommandEncoderBeginComputePass: {why}"));
        }
        let pass = ComputePassEncoder {
            header: Default::default(),
            device,
            encoder: encoder.arc(),
            pass: Mutex::new(pass),
            label: Mutex::new(label),
        };
        Ok(Handle::into_raw(Arc::new(pass)))
    })
}

/// Reads a pass's `timestampWrites` (NULL: none). The outer error is a
/// rejection (a NULL or wrong-type query set), the inner one a validation
/// error (a malformed chain).
///
/// # Safety
/// `tw` is NULL or valid, with NULL or a live query set (of another
/// instance than `device`'s: a validation error).
pub(crate) unsafe fn timestamp_writes(
    device: &Device,
    tw: *const WGPUPassTimestampWrites,
) -> boundary::ApiResult<Result<Option<PassTimestampWrites>, String>> {
    // SAFETY: NULL or valid (caller).
    let Some(tw) = (unsafe { tw.as_ref() }) else { return Ok(Ok(None)) };
    // SAFETY: the query set is NULL or live (caller).
    let set = unsafe { boundary::arg::<QuerySet>(tw.querySet, "timestampWrites.querySet") }?;
    if let Err(why) = crate::objects::owner::same_instance(device, &**set, "timestampWrites.querySet") {
        return Ok(Err(why));
    }
    // SAFETY: the chain is valid (caller).
    if let Err(why) = unsafe { crate::ffi::chain_walk::expect_none(tw.nextInChain, "WGPUPassTimestampWrites") } {
        return Ok(Err(crate::conv::chain_error(why)));
    }
    let index = |i: u32| (i != WGPU_QUERY_SET_INDEX_UNDEFINED).then_some(i);
    if set.no_queries() {
        if let Some(i) = index(tw.beginningOfPassWriteIndex).or(index(tw.endOfPassWriteIndex)) {
            return Ok(Err(format!("timestampWrites: query index {i} is out of range of a query set of 0 queries")));
        }
    }
    Ok(Ok(Some(PassTimestampWrites {
        query_set: set.id,
        beginning_of_pass_write_index: index(tw.beginningOfPassWriteIndex),
        end_of_pass_write_index: index(tw.endOfPassWriteIndex),
    })))
}

recording_exports! {
    ComputePassEncoder, "computePassEncoder";

    /// Sets the pipeline for the following dispatches.
    ///
    /// # Safety
    /// `compute_pass_encoder` and `pipeline` are live handles.
    pub unsafe extern "C" fn wgpuComputePassEncoderSetPipeline(compute_pass_encoder: WGPUComputePassEncoder, pipeline: WGPUComputePipeline) => set_pipeline(ComputePipeline, compute_pass_set_pipeline);

    /// Binds a bind group (NULL unbinds the slot) with its dynamic offsets.
    ///
    /// # Safety
    /// `compute_pass_encoder` is a live handle, `group` NULL or a live handle;
    /// `dynamic_offsets` points at `dynamic_offset_count` values.
    pub unsafe extern "C" fn wgpuComputePassEncoderSetBindGroup(compute_pass_encoder: WGPUComputePassEncoder, group_index: u32, group: WGPUBindGroup, dynamic_offset_count: usize, dynamic_offsets: *const u32) => set_bind_group(compute_pass_set_bind_group);

    /// Sets immediate data (`var<immediate>`) bytes `offset..offset + size`.
    /// Needs a device with immediates; otherwise the pass is invalid.
    ///
    /// # Safety
    /// `compute_pass_encoder` is a live handle; `data` points at `size` bytes.
    pub unsafe extern "C" fn wgpuComputePassEncoderSetImmediates(compute_pass_encoder: WGPUComputePassEncoder, offset: u32, data: *const std::ffi::c_void, size: usize) => set_immediates(compute_pass_set_immediates);

    /// Dispatches a grid of workgroups.
    ///
    /// # Safety
    /// `compute_pass_encoder` is a live handle.
    pub unsafe extern "C" fn wgpuComputePassEncoderDispatchWorkgroups(compute_pass_encoder: WGPUComputePassEncoder, workgroup_count_x: u32, workgroup_count_y: u32, workgroup_count_z: u32) => plain(compute_pass_dispatch_workgroups);

    /// Dispatches with the workgroup counts read from `indirect_buffer` at
    /// `indirect_offset`.
    ///
    /// # Safety
    /// `compute_pass_encoder` and `indirect_buffer` are live handles.
    pub unsafe extern "C" fn wgpuComputePassEncoderDispatchWorkgroupsIndirect(compute_pass_encoder: WGPUComputePassEncoder, indirect_buffer: WGPUBuffer, indirect_offset: u64) => indirect(compute_pass_dispatch_workgroups_indirect);

    /// Ends the pass: its commands go into the encoder (an invalid pass
    /// invalidates the encoder). Ending twice is a validation error.
    ///
    /// # Safety
    /// `compute_pass_encoder` is a live handle.
    pub unsafe extern "C" fn wgpuComputePassEncoderEnd(compute_pass_encoder: WGPUComputePassEncoder) => plain(compute_pass_end);

    /// Opens a debug group in the pass.
    ///
    /// # Safety
    /// `compute_pass_encoder` is a live handle; `group_label` is a valid view.
    pub unsafe extern "C" fn wgpuComputePassEncoderPushDebugGroup(compute_pass_encoder: WGPUComputePassEncoder, group_label: WGPUStringView) => label(compute_pass_push_debug_group, "groupLabel", 0);

    /// Closes the innermost debug group of the pass.
    ///
    /// # Safety
    /// `compute_pass_encoder` is a live handle.
    pub unsafe extern "C" fn wgpuComputePassEncoderPopDebugGroup(compute_pass_encoder: WGPUComputePassEncoder) => plain(compute_pass_pop_debug_group);

    /// Inserts a debug marker in the pass.
    ///
    /// # Safety
    /// `compute_pass_encoder` is a live handle; `marker_label` is a valid view.
    pub unsafe extern "C" fn wgpuComputePassEncoderInsertDebugMarker(compute_pass_encoder: WGPUComputePassEncoder, marker_label: WGPUStringView) => label(compute_pass_insert_debug_marker, "markerLabel", 0);
}
