//! `WGPURenderPassEncoder`: `wgpuCommandEncoderBeginRenderPass`, `End`,
//! labels and references. The recording calls are in
//! `render_pass_commands.rs`.
//!
//! As with compute passes, commands are recorded into wgpu-core's pass
//! object, which validates them when the pass ends; errors surface at the
//! encoder's `Finish`. Validation errors this library finds itself (a
//! malformed descriptor, non-finite viewport values) make the pass invalid
//! and are reported by `Finish` in place of wgpu-core's.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::command::{
    PassChannel, RenderPass, RenderPassColorAttachment, RenderPassDepthStencilAttachment, RenderPassDescriptor,
};
use wgpu_core::global::Global;
use wgpu_core::id::TextureViewId;
use wgpu_types as wgt;

use crate::abi::*;
use crate::conv::render as conv;
use crate::ffi::boundary::{self, call, refcounted, set_label};
use crate::ffi::handle::{Handle, Object};
use crate::objects::command_encoder::CommandEncoder;
use crate::objects::device::Device;
use crate::objects::query_set::QuerySet;

/// A `WGPURenderPassEncoder`.
#[repr(C)]
pub(crate) struct RenderPassEncoder {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) device: Arc<Device>,
    encoder: Arc<CommandEncoder>,
    pass: Mutex<RenderPass>,
    pub(crate) label: Mutex<String>,
    /// Draws recorded so far, those of executed bundles included.
    draws: AtomicU64,
    /// `WGPURenderPassMaxDrawCount.maxDrawCount` (the standard's default
    /// when not chained): more draws make the pass invalid. wgpu-core has
    /// no such limit.
    max_draws: u64,
}

/// The standard's `maxDrawCount` when the descriptor chains none.
const DEFAULT_MAX_DRAWS: u64 = 50_000_000;

impl Object for RenderPassEncoder {
    type Raw = WGPURenderPassEncoderImpl;
    const NAME: &'static str = "WGPURenderPassEncoder";
    const HEADER_OFFSET: usize = std::mem::offset_of!(RenderPassEncoder, header);
}

refcounted!(RenderPassEncoder, WGPURenderPassEncoder, wgpuRenderPassEncoderAddRef, wgpuRenderPassEncoderRelease);
set_label!(RenderPassEncoder, WGPURenderPassEncoder, wgpuRenderPassEncoderSetLabel);

impl RenderPassEncoder {
    /// Runs one recording call on the pass, then reports its immediate
    /// error, if any, with the pass unlocked.
    pub(crate) fn record<E: wgt::error::WebGpuError>(&self, f: impl FnOnce(&Global, &mut RenderPass) -> Result<(), E>) {
        crate::objects::compute_pass::record_in(&self.device, &self.pass, f);
    }

    /// Counts `n` more draws; the one that goes past `maxDrawCount` makes
    /// the pass invalid.
    pub(crate) fn count_draws(&self, n: u64) {
        let before = self.draws.fetch_add(n, Ordering::Relaxed);
        let after = before.saturating_add(n);
        if before <= self.max_draws && after > self.max_draws {
            self.invalidate(format!(
                "the render pass records {after} draws (bundles' draws included), more than its maxDrawCount ({})",
                self.max_draws
            ));
        }
    }

    /// Makes the pass invalid for a validation error this library found:
    /// ending it invalidates the encoder, whose `Finish` reports `why`. On
    /// a pass that already ended, `why` is reported at once instead.
    pub(crate) fn invalidate(&self, why: String) {
        let global = self.device.global();
        let buffer = crate::objects::invalid::buffer(global, self.device.id);
        // Records a command that fails (the buffer is invalid), which
        // invalidates the pass; an immediate error means the pass ended.
        let open = global.render_pass_draw_indirect(&mut self.pass.lock(), buffer.id, 0).is_ok();
        if open {
            self.encoder.poison(why);
        } else {
            self.device.report_validation(why);
        }
    }
}

/// The wgpu-core texture view behind an attachment's `view` or
/// `resolveTarget` handle (non-NULL); a handle of another type is an error.
fn attachment_view(raw: WGPUTextureView, what: &str) -> Result<TextureViewId, String> {
    // SAFETY: the C caller passes live texture view handles (a wrong type is
    // reported, not trusted).
    unsafe { crate::ffi::handle::Handle::<crate::objects::texture_view::TextureView>::get(raw) }
        .map(|h| h.id)
        .map_err(|why| format!("{what}: {why}"))
}

/// A view slot that may be NULL (`None`).
fn opt_view(raw: WGPUTextureView, what: &str) -> Result<Option<TextureViewId>, String> {
    if raw.is_null() {
        Ok(None)
    } else {
        attachment_view(raw, what).map(Some)
    }
}

/// A resolve target's attachment must have a format that can be resolved
/// (`conv::texture::check_resolvable`).
fn resolvable(view: WGPUTextureView, features: wgt::Features) -> Result<(), String> {
    // SAFETY: a live texture view handle (the C caller; a wrong type is
    // reported, not trusted).
    let view = unsafe { crate::ffi::handle::Handle::<crate::objects::texture_view::TextureView>::get(view) }?;
    match crate::conv::format::texture_format(view.texture.format()) {
        Some(format) => crate::conv::texture::check_resolvable(format, features),
        None => Ok(()),
    }
}

/// The first attachment view or query set of another instance than
/// `device`'s (`objects::owner`), as a validation error. Handles of the
/// wrong type are left for the conversions to reject.
///
/// # Safety
/// The descriptor's arrays are valid; its handles are NULL or live.
unsafe fn foreign_objects(device: &Device, desc: &WGPURenderPassDescriptor) -> boundary::ApiResult<Result<(), String>> {
    use crate::ffi::handle::Handle;
    use crate::objects::owner::{foreign_error, is_foreign};
    use crate::objects::texture_view::TextureView;
    // SAFETY: the array is valid (caller).
    let colors = unsafe { boundary::slice_arg(desc.colorAttachments, desc.colorAttachmentCount, "colorAttachments") }?;
    // SAFETY: NULL or valid (caller).
    let depth = unsafe { desc.depthStencilAttachment.as_ref() }.map(|d| d.view);
    let views = colors.iter().flat_map(|a| [a.view, a.resolveTarget]).chain(depth);
    for raw in views.filter(|v| !v.is_null()) {
        // SAFETY: a live handle (caller); a wrong type is not trusted.
        if let Ok(view) = unsafe { Handle::<TextureView>::get(raw) } {
            if is_foreign(device, &**view) {
                return Ok(Err(foreign_error("an attachment's view")));
            }
        }
    }
    if !desc.occlusionQuerySet.is_null() {
        // SAFETY: a live handle (caller).
        let set = unsafe { boundary::arg::<QuerySet>(desc.occlusionQuerySet, "occlusionQuerySet") }?;
        if is_foreign(device, &**set) {
            return Ok(Err(foreign_error("occlusionQuerySet")));
        }
    }
    Ok(Ok(()))
}

/// Converts one color attachment; `None` for a hole (`view` NULL).
///
/// # Safety
/// The attachment's chain is valid.
unsafe fn color_attachment(
    a: &WGPURenderPassColorAttachment,
    i: usize,
    features: wgt::Features,
) -> Result<Option<RenderPassColorAttachment>, String> {
    // SAFETY: the chain is valid (caller).
    unsafe { crate::ffi::chain_walk::expect_none(a.nextInChain, "WGPURenderPassColorAttachment") }
        .map_err(crate::conv::chain_error)?;
    let Some(view) = opt_view(a.view, &format!("colorAttachments[{i}].view"))? else {
        return Ok(None);
    };
    let with = |e: String| format!("colorAttachments[{i}]: {e}");
    let clear = conv::color(&a.clearValue).map_err(|e| with(format!("clearValue: {e}")))?;
    if !a.resolveTarget.is_null() {
        resolvable(a.view, features).map_err(with)?;
    }
    Ok(Some(RenderPassColorAttachment {
        view,
        depth_slice: (a.depthSlice != WGPU_DEPTH_SLICE_UNDEFINED).then_some(a.depthSlice),
        resolve_target: opt_view(a.resolveTarget, &format!("colorAttachments[{i}].resolveTarget"))?,
        load_op: conv::load_op(a.loadOp, clear).map_err(with)?,
        store_op: conv::store_op(a.storeOp).map_err(with)?,
    }))
}

/// One aspect (depth or stencil) of the depth-stencil attachment. Undefined
/// operations are left for wgpu-core to judge (they are required only for
/// aspects the format has and that are not read-only).
fn channel<V>(load: WGPULoadOp, store: WGPUStoreOp, clear: V, read_only: WGPUBool) -> Result<PassChannel<V>, String> {
    let load_op = match load {
        WGPULoadOp::Undefined => None,
        op => Some(conv::load_op(op, clear)?),
    };
    let store_op = match store {
        WGPUStoreOp::Undefined => None,
        op => Some(conv::store_op(op)?),
    };
    Ok(PassChannel { load_op, store_op, read_only: read_only != 0 })
}

/// Converts the depth-stencil attachment.
///
/// # Safety
/// The attachment's chain is valid.
unsafe fn depth_stencil_attachment(
    a: &WGPURenderPassDepthStencilAttachment,
) -> Result<RenderPassDepthStencilAttachment<TextureViewId>, String> {
    // SAFETY: the chain is valid (caller).
    unsafe { crate::ffi::chain_walk::expect_none(a.nextInChain, "WGPURenderPassDepthStencilAttachment") }
        .map_err(crate::conv::chain_error)?;
    if a.view.is_null() {
        return Err("depthStencilAttachment.view is NULL".to_string());
    }
    let view = attachment_view(a.view, "depthStencilAttachment.view")?;
    // NaN is `WGPU_DEPTH_CLEAR_VALUE_UNDEFINED`; infinities are errors.
    let depth_clear = match a.depthClearValue {
        v if v.is_nan() => None,
        v if v.is_infinite() => return Err(format!("depthStencilAttachment.depthClearValue is {v}")),
        v => Some(v),
    };
    let with = |aspect: &'static str| move |e: String| format!("depthStencilAttachment.{aspect}: {e}");
    Ok(RenderPassDepthStencilAttachment {
        view,
        depth: channel(a.depthLoadOp, a.depthStoreOp, depth_clear, a.depthReadOnly).map_err(with("depth"))?,
        stencil: channel(a.stencilLoadOp, a.stencilStoreOp, Some(a.stencilClearValue), a.stencilReadOnly)
            .map_err(with("stencil"))?,
    })
}

/// Reads a render pass descriptor into wgpu-core's form, or the message of
/// the validation error found in it.
///
/// # Safety
/// The descriptor's chains and arrays are valid.
unsafe fn read_descriptor<'a>(
    device: &Device,
    desc: &WGPURenderPassDescriptor,
    label: &'a str,
) -> boundary::ApiResult<Result<(RenderPassDescriptor<'a>, u64), String>> {
    let features = device.features;
    // SAFETY: the descriptor's arrays and handles are valid (caller).
    if let Err(why) = unsafe { foreign_objects(device, desc) }? {
        return Ok(Err(why));
    }
    // SAFETY: the arrays and chains are valid (caller).
    let (colors, chain) = unsafe {
        (
            boundary::slice_arg(desc.colorAttachments, desc.colorAttachmentCount, "colorAttachments")?,
            crate::ffi::chain_walk::Chain::walk(desc.nextInChain, "WGPURenderPassDescriptor"),
        )
    };
    let chain = match chain {
        Ok(chain) => chain,
        Err(why) => return Ok(Err(crate::conv::chain_error(why))),
    };
    // SAFETY: a struct of this sType in the chain is a
    // `WGPURenderPassMaxDrawCount` (caller).
    let max_draws = unsafe { chain.get::<WGPURenderPassMaxDrawCount>(WGPUSType::RenderPassMaxDrawCount) }
        .map_or(DEFAULT_MAX_DRAWS, |m| m.maxDrawCount);
    let mut color_attachments = Vec::with_capacity(colors.len());
    for (i, a) in colors.iter().enumerate() {
        // SAFETY: the attachment's chain is valid (caller).
        match unsafe { color_attachment(a, i, features) } {
            Ok(a) => color_attachments.push(a),
            Err(why) => return Ok(Err(why)),
        }
    }
    // SAFETY: the nullable pointer is valid (caller).
    let depth_stencil_attachment = match unsafe { desc.depthStencilAttachment.as_ref() } {
        // SAFETY: the attachment's chain is valid (caller).
        Some(a) => match unsafe { depth_stencil_attachment(a) } {
            Ok(a) => Some(a),
            Err(why) => return Ok(Err(why)),
        },
        None => None,
    };
    let occlusion_query_set = if desc.occlusionQuerySet.is_null() {
        None
    } else {
        // SAFETY: a live query set (caller); wgpu-core checks its type and
        // the indices.
        unsafe { boundary::arg::<QuerySet>(desc.occlusionQuerySet, "occlusionQuerySet") }?.occlusion_set_for_core()
    };
    // SAFETY: NULL or a valid struct with a live query set (caller).
    let timestamp_writes =
        match unsafe { crate::objects::compute_pass::timestamp_writes(device, desc.timestampWrites) }? {
            Ok(t) => t,
            Err(why) => return Ok(Err(why)),
        };
    let desc = RenderPassDescriptor {
        label: crate::conv::label(label),
        color_attachments: std::borrow::Cow::Owned(color_attachments),
        depth_stencil_attachment,
        timestamp_writes,
        occlusion_query_set,
        multiview_mask: None,
    };
    Ok(Ok((desc, max_draws)))
}

/// Begins a render pass. A malformed descriptor (unknown or missing load
/// and store operations, non-finite clear values, a bad chain) makes the
/// pass invalid: the encoder's `Finish` reports the validation error. A
/// pass without attachments, or with a query set of the wrong type, fails
/// at `Finish` too. A NULL attachment view or timestamp query set is
/// rejected (logged; the call returns NULL).
///
/// # Safety
/// `command_encoder` is a live handle; `descriptor` is NULL or points at a
/// valid descriptor.
#[no_mangle]
pub unsafe extern "C" fn wgpuCommandEncoderBeginRenderPass(
    command_encoder: WGPUCommandEncoder,
    descriptor: *const WGPURenderPassDescriptor,
) -> WGPURenderPassEncoder {
    call("wgpuCommandEncoderBeginRenderPass", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle and NULL or a valid
        // descriptor.
        let (encoder, desc) = unsafe {
            (
                boundary::arg::<CommandEncoder>(command_encoder, "commandEncoder")?,
                boundary::ptr_arg(descriptor, "descriptor")?,
            )
        };
        // SAFETY: the label view is valid (caller).
        let label = unsafe { boundary::label_arg(desc.label, "label") }?;
        // SAFETY: the descriptor's contents are valid (caller).
        let read = unsafe { read_descriptor(&encoder.device, desc, &label) }?;
        let device = encoder.device.clone();
        let global = device.global();
        let (wgpu_desc, max_draws, problem) = match read {
            Ok((d, max_draws)) => (d, max_draws, None),
            Err(why) => (
                RenderPassDescriptor {
                    label: crate::conv::label(&label),
                    color_attachments: std::borrow::Cow::Borrowed(&[]),
                    depth_stencil_attachment: None,
                    timestamp_writes: None,
                    occlusion_query_set: None,
                    multiview_mask: None,
                },
                DEFAULT_MAX_DRAWS,
                Some(why),
            ),
        };
        let (pass, error) = global.command_encoder_begin_render_pass(encoder.id, &wgpu_desc);
        if let Some(e) = error {
            device.report(e);
        }
        let pass = RenderPassEncoder {
            header: Default::default(),
            device: device.clone(),
            encoder: encoder.arc(),
            pass: Mutex::new(pass),
            label: Mutex::new(label),
            draws: AtomicU64::new(0),
            max_draws,
        };
        if let Some(why) = problem {
            pass.invalidate(format!("wgpuCommandEncoderBeginRenderPass: {why}"));
        }
        Ok(Handle::into_raw(Arc::new(pass)))
    })
}

crate::objects::render_pass_commands::recording_exports! {
    RenderPassEncoder, "renderPassEncoder";

    /// Ends the pass: its commands go into the encoder (an invalid pass
    /// invalidates the encoder). Ending twice is a validation error.
    ///
    /// # Safety
    /// `render_pass_encoder` is a live handle.
    pub unsafe extern "C" fn wgpuRenderPassEncoderEnd(render_pass_encoder: WGPURenderPassEncoder) => plain(render_pass_end);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attachments_holes_and_wrong_handles() {
        let mut a = WGPURenderPassColorAttachment {
            nextInChain: std::ptr::null_mut(),
            view: std::ptr::null_mut(),
            depthSlice: WGPU_DEPTH_SLICE_UNDEFINED,
            resolveTarget: std::ptr::null_mut(),
            loadOp: WGPULoadOp::Clear,
            storeOp: WGPUStoreOp::Store,
            clearValue: WGPUColor { r: 0.0, g: 0.0, b: 0.0, a: 1.0 },
        };
        // SAFETY: no chain.
        assert!(unsafe { color_attachment(&a, 0, wgt::Features::empty()) }.unwrap().is_none());
        // A block shaped like a handle whose tag is not a texture view's.
        let mut not_a_view = [0u64; 4];
        a.view = not_a_view.as_mut_ptr().cast();
        // SAFETY: no chain; the view points at readable memory whose tag
        // does not match, so it is refused without further reads.
        assert!(unsafe { color_attachment(&a, 0, wgt::Features::empty()) }
            .unwrap_err()
            .contains("is not a WGPUTextureView"));
        let ch = channel(WGPULoadOp::Undefined, WGPUStoreOp::Undefined, Some(1.0f32), 1).unwrap();
        assert!(ch.load_op.is_none() && ch.store_op.is_none() && ch.read_only);
        assert!(channel(WGPULoadOp(9), WGPUStoreOp::Store, Some(0u32), 0).is_err());
    }
}
