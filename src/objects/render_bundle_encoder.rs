//! `WGPURenderBundleEncoder`: records render commands into a reusable
//! `WGPURenderBundle`.
//!
//! wgpu-core validates the commands at `Finish`, which reports the first
//! error on the device and returns an invalid bundle. Calls on an encoder
//! that already finished are reported at once. An encoder whose creation
//! failed (the error was reported then) records nothing, and its `Finish`
//! reports that it is invalid. Validation errors this library finds itself
//! while recording are reported by `Finish` in place of wgpu-core's.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::command::{RenderBundleEncoder as CoreEncoder, RenderBundleEncoderDescriptor};
use wgpu_core::global::Global;
use wgpu_types as wgt;

use crate::abi::*;
use crate::ffi::boundary::{self, call, refcounted, set_label};
use crate::ffi::handle::{Handle, Object};
use crate::objects::device::Device;
use crate::objects::render_bundle::RenderBundle;
use crate::objects::render_pass_commands::recording_exports;
use crate::objects::render_pipeline::RenderPipeline;

/// A `WGPURenderBundleEncoder`.
#[repr(C)]
pub(crate) struct RenderBundleEncoder {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    device: Arc<Device>,
    encoder: Mutex<Box<CoreEncoder>>,
    pub(crate) label: Mutex<String>,
    /// The creation failed: the encoder is wgpu-core's dummy, whose calls
    /// all fail; those failures are not reported.
    invalid: bool,
    /// A validation error found by this library, reported by `Finish`.
    poison: Mutex<Option<String>>,
    /// Made with no attachment at all, which wgpu-native v29 allows
    /// (`compat::Rule::RenderBundleWithoutAttachments`); wgpu-core got a
    /// stand-in color format, and the bundle is refused by every pass.
    no_attachments: bool,
    /// Debug groups pushed and not popped yet (wgpu-core does not check a
    /// bundle's balance; the standard makes an unbalanced one invalid).
    debug_depth: Mutex<u32>,
    /// Draws recorded, which count toward the `maxDrawCount` of each pass
    /// that executes the bundle.
    draws: AtomicU64,
}

impl Object for RenderBundleEncoder {
    type Raw = WGPURenderBundleEncoderImpl;
    const NAME: &'static str = "WGPURenderBundleEncoder";
    const HEADER_OFFSET: usize = std::mem::offset_of!(RenderBundleEncoder, header);
}

refcounted!(
    RenderBundleEncoder,
    WGPURenderBundleEncoder,
    wgpuRenderBundleEncoderAddRef,
    wgpuRenderBundleEncoderRelease
);
set_label!(RenderBundleEncoder, WGPURenderBundleEncoder, wgpuRenderBundleEncoderSetLabel);

impl RenderBundleEncoder {
    /// Runs one recording call, then reports its immediate error (an
    /// encoder that already finished), with the encoder unlocked.
    fn record<E: wgt::error::WebGpuError>(&self, f: impl FnOnce(&Global, &mut CoreEncoder) -> Result<(), E>) {
        let result = {
            let mut encoder = self.encoder.lock();
            f(self.device.global(), &mut encoder)
        };
        if let Err(e) = result {
            if !self.invalid {
                self.device.report(e);
            }
        }
    }

    /// Counts `n` more draws (see [`RenderBundle::draws`]).
    pub(crate) fn count_draws(&self, n: u64) {
        self.draws.fetch_add(n, Ordering::Relaxed);
    }

    /// Records a validation error for `Finish` (the first one is kept).
    fn poison(&self, why: String) {
        let mut poison = self.poison.lock();
        if poison.is_none() {
            *poison = Some(why);
        }
    }
}

/// Reads the descriptor into wgpu-core's form, or the message of the
/// validation error found in it.
///
/// # Safety
/// The descriptor's chain and array are valid.
unsafe fn read_descriptor<'a>(
    desc: &WGPURenderBundleEncoderDescriptor,
    label: &'a str,
    features: wgt::Features,
) -> boundary::ApiResult<Result<RenderBundleEncoderDescriptor<'a>, String>> {
    // SAFETY: the chain and array are valid (caller).
    let (chain, formats) = unsafe {
        (
            crate::ffi::chain_walk::expect_none(desc.nextInChain, "WGPURenderBundleEncoderDescriptor"),
            boundary::slice_arg(desc.colorFormats, desc.colorFormatCount, "colorFormats")?,
        )
    };
    if let Err(why) = chain {
        return Ok(Err(crate::conv::chain_error(why)));
    }
    let mut color_formats = Vec::with_capacity(formats.len());
    for (i, f) in formats.iter().enumerate() {
        if *f == WGPUTextureFormat::Undefined {
            color_formats.push(None);
            continue;
        }
        match crate::conv::format::texture_format(*f) {
            Some(f) => color_formats.push(Some(f)),
            None => return Ok(Err(format!("colorFormats[{i}] {:#x} is not a WGPUTextureFormat", f.0))),
        }
    }
    let depth_stencil = match desc.depthStencilFormat {
        WGPUTextureFormat::Undefined => None,
        f => match crate::conv::format::texture_format(f) {
            Some(format) => Some(wgt::RenderBundleDepthStencil {
                format,
                depth_read_only: desc.depthReadOnly != 0,
                stencil_read_only: desc.stencilReadOnly != 0,
            }),
            None => return Ok(Err(format!("depthStencilFormat {:#x} is not a WGPUTextureFormat", f.0))),
        },
    };
    if let Err(why) = check_formats(&color_formats, depth_stencil.as_ref(), features) {
        return Ok(Err(why));
    }
    Ok(Ok(RenderBundleEncoderDescriptor {
        label: crate::conv::label(label),
        color_formats: std::borrow::Cow::Owned(color_formats),
        depth_stencil,
        sample_count: desc.sampleCount,
        multiview: None,
    }))
}

/// The standard's checks of a bundle's formats that wgpu-core leaves out:
/// each color format is color-renderable on a device with `features`, the
/// depth-stencil format is a depth or stencil one, and there is at least
/// one attachment (an attachment-less encoder is the caller's
/// compatibility rule).
fn check_formats(
    colors: &[Option<wgt::TextureFormat>],
    depth_stencil: Option<&wgt::RenderBundleDepthStencil>,
    features: wgt::Features,
) -> Result<(), String> {
    for (i, format) in colors.iter().enumerate() {
        let Some(format) = format else { continue };
        let usages = format.guaranteed_format_features(features).allowed_usages;
        if format.is_depth_stencil_format() || !usages.contains(wgt::TextureUsages::RENDER_ATTACHMENT) {
            return Err(format!("colorFormats[{i}] {format:?} is not a color-renderable format"));
        }
    }
    if let Some(ds) = depth_stencil {
        if !ds.format.is_depth_stencil_format() {
            return Err(format!("depthStencilFormat {:?} is not a depth or stencil format", ds.format));
        }
    }
    if colors.iter().all(Option::is_none)
        && depth_stencil.is_none()
        && !crate::compat::allows(crate::compat::Rule::RenderBundleWithoutAttachments)
    {
        return Err("the descriptor has no attachment: every colorFormats entry is Undefined and so is \
                    depthStencilFormat"
            .into());
    }
    Ok(())
}

/// Creates a render bundle encoder. A format `Undefined` in `colorFormats`
/// is a hole. An invalid descriptor is reported on the device and gives an
/// invalid encoder, whose `Finish` reports a validation error again.
///
/// # Safety
/// `device` is a live device; `descriptor` is NULL or points at a valid
/// descriptor.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceCreateRenderBundleEncoder(
    device: WGPUDevice,
    descriptor: *const WGPURenderBundleEncoderDescriptor,
) -> WGPURenderBundleEncoder {
    call("wgpuDeviceCreateRenderBundleEncoder", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle and NULL or a valid
        // descriptor.
        let (device, desc) =
            unsafe { (boundary::arg::<Device>(device, "device")?, boundary::ptr_arg(descriptor, "descriptor")?) };
        // SAFETY: the label view is valid (caller).
        let label = unsafe { boundary::label_arg(desc.label, "label") }?;
        // SAFETY: the descriptor's contents are valid (caller).
        let read = unsafe { read_descriptor(desc, &label, device.features) }?;
        let global = device.global();
        let no_attachments = matches!(&read, Ok(d) if d.color_formats.iter().all(Option::is_none) && d.depth_stencil.is_none())
            && crate::compat::allows(crate::compat::Rule::RenderBundleWithoutAttachments);
        let read = read.map(|mut d| {
            if no_attachments {
                d.color_formats = std::borrow::Cow::Owned(vec![Some(wgt::TextureFormat::Rgba8Unorm)]);
            }
            d
        });
        let (encoder, invalid) = match read {
            Ok(d) => {
                let (encoder, error) = global.device_create_render_bundle_encoder(device.id, &d);
                let invalid = error.is_some();
                if let Some(e) = error {
                    device.report(e);
                }
                (encoder, invalid)
            }
            Err(why) => {
                device.report_validation(format!("wgpuDeviceCreateRenderBundleEncoder: {why}"));
                (Box::new(CoreEncoder::dummy(device.id)), true)
            }
        };
        let poison = invalid.then(|| {
            "wgpuRenderBundleEncoderFinish: the render bundle encoder is invalid (its creation failed)".to_string()
        });
        let encoder = RenderBundleEncoder {
            header: Default::default(),
            device: device.arc(),
            encoder: Mutex::new(encoder),
            label: Mutex::new(label),
            invalid,
            poison: Mutex::new(poison),
            no_attachments,
            debug_depth: Mutex::new(0),
            draws: AtomicU64::new(0),
        };
        Ok(Handle::into_raw(Arc::new(encoder)))
    })
}

/// Finishes recording. `descriptor` may be NULL. The first recording error
/// is reported on the device here, and the bundle returned is invalid.
/// Finishing twice is a validation error.
///
/// # Safety
/// `render_bundle_encoder` is a live handle; `descriptor` is NULL or points
/// at a valid descriptor.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderBundleEncoderFinish(
    render_bundle_encoder: WGPURenderBundleEncoder,
    descriptor: *const WGPURenderBundleDescriptor,
) -> WGPURenderBundle {
    call("wgpuRenderBundleEncoderFinish", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle and NULL or a valid
        // descriptor.
        let (encoder, desc) = unsafe {
            (boundary::arg::<RenderBundleEncoder>(render_bundle_encoder, "renderBundleEncoder")?, descriptor.as_ref())
        };
        let (label, chain) = match desc {
            // SAFETY: the descriptor's label and chain are valid (caller).
            Some(desc) => unsafe {
                (
                    boundary::label_arg(desc.label, "label")?,
                    crate::ffi::chain_walk::expect_none(desc.nextInChain, "WGPURenderBundleDescriptor"),
                )
            },
            None => (String::new(), Ok(())),
        };
        if let Err(why) = chain {
            encoder.poison(format!("wgpuRenderBundleEncoderFinish: {}", crate::conv::chain_error(why)));
        }
        let open = std::mem::take(&mut *encoder.debug_depth.lock());
        if open > 0 {
            encoder.poison(format!("wgpuRenderBundleEncoderFinish: {open} debug group(s) pushed and never popped"));
        }
        let device = &encoder.device;
        let global = device.global();
        let wgpu_desc = wgt::RenderBundleDescriptor { label: crate::conv::label(&label) };
        let (mut id, error) = global.render_bundle_encoder_finish(&mut encoder.encoder.lock(), &wgpu_desc, None);
        let poison = encoder.poison.lock().take();
        match (poison, error) {
            (Some(why), error) => {
                device.report_validation(why);
                if error.is_none() {
                    // wgpu-core accepted it; the bundle must still be
                    // invalid. A dummy encoder's finish makes an invalid one.
                    global.render_bundle_drop(id);
                    id = global.render_bundle_encoder_finish(&mut CoreEncoder::dummy(device.id), &wgpu_desc, None).0;
                }
            }
            (None, Some(e)) => device.report(e),
            (None, None) => {}
        }
        let bundle = RenderBundle {
            header: Default::default(),
            device: device.clone(),
            id,
            label: Mutex::new(label),
            no_attachments: encoder.no_attachments,
            draws: encoder.draws.load(Ordering::Relaxed),
        };
        Ok(Handle::into_raw(Arc::new(bundle)))
    })
}

recording_exports! {
    RenderBundleEncoder, "renderBundleEncoder";

    /// Sets the pipeline for the following draws.
    ///
    /// # Safety
    /// `render_bundle_encoder` and `pipeline` are live handles.
    pub unsafe extern "C" fn wgpuRenderBundleEncoderSetPipeline(render_bundle_encoder: WGPURenderBundleEncoder, pipeline: WGPURenderPipeline) => set_pipeline(RenderPipeline, render_bundle_encoder_set_pipeline);

    /// Binds a bind group (NULL unbinds the slot) with its dynamic offsets.
    ///
    /// # Safety
    /// `render_bundle_encoder` is a live handle, `group` NULL or a live handle;
    /// `dynamic_offsets` points at `dynamic_offset_count` values.
    pub unsafe extern "C" fn wgpuRenderBundleEncoderSetBindGroup(render_bundle_encoder: WGPURenderBundleEncoder, group_index: u32, group: WGPUBindGroup, dynamic_offset_count: usize, dynamic_offsets: *const u32) => set_bind_group(render_bundle_encoder_set_bind_group);

    /// Binds a vertex buffer range to `slot` (`buffer` NULL unbinds it; `size`
    /// `WGPU_WHOLE_SIZE`: to the end of the buffer).
    ///
    /// # Safety
    /// `render_bundle_encoder` is a live handle, `buffer` NULL or a live handle.
    pub unsafe extern "C" fn wgpuRenderBundleEncoderSetVertexBuffer(render_bundle_encoder: WGPURenderBundleEncoder, slot: u32, buffer: WGPUBuffer, offset: u64, size: u64) => set_vertex_buffer(render_bundle_encoder_set_vertex_buffer);

    /// Binds an index buffer range. An `Undefined` or unknown format is a
    /// validation error (reported by `Finish`).
    ///
    /// # Safety
    /// `render_bundle_encoder` and `buffer` are live handles.
    pub unsafe extern "C" fn wgpuRenderBundleEncoderSetIndexBuffer(render_bundle_encoder: WGPURenderBundleEncoder, buffer: WGPUBuffer, format: WGPUIndexFormat, offset: u64, size: u64) => set_index_buffer(render_bundle_encoder_set_index_buffer, poison);

    /// Draws primitives.
    ///
    /// # Safety
    /// `render_bundle_encoder` is a live handle.
    pub unsafe extern "C" fn wgpuRenderBundleEncoderDraw(render_bundle_encoder: WGPURenderBundleEncoder, vertex_count: u32, instance_count: u32, first_vertex: u32, first_instance: u32) => draw(render_bundle_encoder_draw);

    /// Draws indexed primitives.
    ///
    /// # Safety
    /// `render_bundle_encoder` is a live handle.
    pub unsafe extern "C" fn wgpuRenderBundleEncoderDrawIndexed(render_bundle_encoder: WGPURenderBundleEncoder, index_count: u32, instance_count: u32, first_index: u32, base_vertex: i32, first_instance: u32) => draw(render_bundle_encoder_draw_indexed);

    /// Draws with the arguments read from `indirect_buffer`.
    ///
    /// # Safety
    /// `render_bundle_encoder` and `indirect_buffer` are live handles.
    pub unsafe extern "C" fn wgpuRenderBundleEncoderDrawIndirect(render_bundle_encoder: WGPURenderBundleEncoder, indirect_buffer: WGPUBuffer, indirect_offset: u64) => draw_indirect(render_bundle_encoder_draw_indirect, poison, 16);

    /// Draws indexed primitives with the arguments read from `indirect_buffer`.
    ///
    /// # Safety
    /// `render_bundle_encoder` and `indirect_buffer` are live handles.
    pub unsafe extern "C" fn wgpuRenderBundleEncoderDrawIndexedIndirect(render_bundle_encoder: WGPURenderBundleEncoder, indirect_buffer: WGPUBuffer, indirect_offset: u64) => draw_indirect(render_bundle_encoder_draw_indexed_indirect, poison, 20);

    /// Inserts a debug marker in the bundle.
    ///
    /// # Safety
    /// `render_bundle_encoder` is a live handle; `marker_label` is a valid view.
    pub unsafe extern "C" fn wgpuRenderBundleEncoderInsertDebugMarker(render_bundle_encoder: WGPURenderBundleEncoder, marker_label: WGPUStringView) => label(render_bundle_encoder_insert_debug_marker, "markerLabel");
}

/// Sets immediate data (`var<immediate>`) bytes `offset..offset + size`.
/// An offset or size that is not a multiple of 4 is a validation error
/// (reported by `Finish`).
///
/// # Safety
/// `render_bundle_encoder` is a live handle; `data` points at `size` bytes.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderBundleEncoderSetImmediates(
    render_bundle_encoder: WGPURenderBundleEncoder,
    offset: u32,
    data: *const std::ffi::c_void,
    size: usize,
) {
    call("wgpuRenderBundleEncoderSetImmediates", (), || {
        // SAFETY: the C caller passes a live handle and `size` readable
        // bytes at `data`.
        let (enc, bytes) = unsafe {
            (
                boundary::arg::<RenderBundleEncoder>(render_bundle_encoder, "renderBundleEncoder")?,
                boundary::slice_arg(data.cast::<u8>(), size, "data")?,
            )
        };
        let align = wgt::IMMEDIATE_DATA_ALIGNMENT;
        if !offset.is_multiple_of(align) || !size.is_multiple_of(align as usize) || u32::try_from(size).is_err() {
            enc.poison(format!(
                "wgpuRenderBundleEncoderSetImmediates: offset {offset} and size {size} must be multiples of {align}"
            ));
            return Ok(());
        }
        enc.record(|g, e| g.render_bundle_encoder_set_immediates(e, offset, bytes));
        Ok(())
    })
}

/// Opens a debug group in the bundle. Groups must be balanced when the
/// bundle is finished (else `Finish` gives an invalid bundle).
///
/// # Safety
/// `render_bundle_encoder` is a live handle; `group_label` is a valid view.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderBundleEncoderPushDebugGroup(
    render_bundle_encoder: WGPURenderBundleEncoder,
    group_label: WGPUStringView,
) {
    call("wgpuRenderBundleEncoderPushDebugGroup", (), || {
        // SAFETY: the C caller passes a live handle and a valid view.
        let (enc, label) = unsafe {
            (
                boundary::arg::<RenderBundleEncoder>(render_bundle_encoder, "renderBundleEncoder")?,
                boundary::label_arg(group_label, "groupLabel")?,
            )
        };
        *enc.debug_depth.lock() += 1;
        enc.record(|g, e| g.render_bundle_encoder_push_debug_group(e, &label));
        Ok(())
    })
}

/// Closes the innermost debug group of the bundle. With none open, the
/// bundle is invalid (reported by `Finish`).
///
/// # Safety
/// `render_bundle_encoder` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderBundleEncoderPopDebugGroup(render_bundle_encoder: WGPURenderBundleEncoder) {
    call("wgpuRenderBundleEncoderPopDebugGroup", (), || {
        // SAFETY: the C caller passes a live handle.
        let enc = unsafe { boundary::arg::<RenderBundleEncoder>(render_bundle_encoder, "renderBundleEncoder") }?;
        let was_open = {
            let mut depth = enc.debug_depth.lock();
            let open = *depth > 0;
            *depth = depth.saturating_sub(1);
            open
        };
        if !was_open {
            enc.poison("wgpuRenderBundleEncoderPopDebugGroup: no debug group is open".into());
            return Ok(());
        }
        enc.record(|g, e| g.render_bundle_encoder_pop_debug_group(e));
        Ok(())
    })
}

impl crate::objects::render_pass_commands::Recorder for RenderBundleEncoder {
    fn device(&self) -> &Device {
        &self.device
    }
    fn reject(&self, why: String) {
        self.poison(why)
    }
}
