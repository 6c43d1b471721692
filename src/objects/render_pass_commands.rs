//! The recording calls of `WGPURenderPassEncoder` (state, draws, queries,
//! bundles, debug markers). Each records into wgpu-core's pass; errors
//! surface at the encoder's `Finish`, except calls on an ended pass, which
//! are reported at once.
//!
//! [`recording_exports`] writes the calls that render passes, render bundle
//! encoders and compute passes share.

use crate::abi::*;
use crate::ffi::boundary::{self, call};
use crate::objects::render_bundle::RenderBundle;
use crate::objects::render_pass::RenderPassEncoder;
use crate::objects::render_pipeline::RenderPipeline;

/// What the recording calls need of their encoder beyond `record`, to
/// refuse an object of another instance (`objects::owner`).
pub(crate) trait Recorder {
    /// The device the encoder records for.
    fn device(&self) -> &crate::objects::device::Device;
    /// Makes the encoder invalid with a validation error for its `Finish`.
    fn reject(&self, why: String);
}

impl Recorder for RenderPassEncoder {
    fn device(&self) -> &crate::objects::device::Device {
        &self.device
    }
    fn reject(&self, why: String) {
        self.invalidate(why)
    }
}

impl Recorder for crate::objects::compute_pass::ComputePassEncoder {
    fn device(&self) -> &crate::objects::device::Device {
        self.owner_device()
    }
    fn reject(&self, why: String) {
        self.invalidate(why)
    }
}

/// Whether `object` (`what`, a parameter of `call`) belongs to another
/// instance than the encoder's device; if so the encoder is made invalid
/// and the call records nothing.
pub(crate) fn foreign<E: Recorder, T: crate::objects::owner::Owned + ?Sized>(
    enc: &E,
    object: &T,
    what: &str,
    call: &str,
) -> bool {
    match crate::objects::owner::same_instance(enc.device(), object, what) {
        Ok(()) => false,
        Err(why) => {
            enc.reject(format!("{call}: {why}"));
            true
        }
    }
}

/// Defines recording exports from their doc comments and signatures (after
/// the encoder type and the name of its handle parameter). After each
/// signature, `=> kind(...)` says what it records, through the encoder's
/// `record` and the wgpu-core function named first:
///
/// - `plain(f)`: `f` with the other parameters as they are;
/// - `set_pipeline(P, f)`: the pipeline, a live `P`;
/// - `set_bind_group(f)`, `set_vertex_buffer(f)`, `set_immediates(f)`: the
///   group (or NULL) and its dynamic offsets; the buffer (or NULL) and its
///   range; the bytes;
/// - `set_index_buffer(f, fail)`: the buffer and its range; an `Undefined`
///   or unknown format goes to the encoder's `fail` instead;
/// - `indirect(f)`: the indirect buffer and its offset; `indirect(f, fail,
///   n)` first checks that `n` bytes of arguments at the offset are aligned
///   and inside the buffer, and gives the encoder's `fail` what is wrong
///   (wgpu-core checks neither in a render bundle, and asserts on the
///   second at the pass's `Finish`);
/// - `draw(f)`, `draw_indirect(...)`: as `plain` and `indirect`, counting
///   one draw toward the pass's `maxDrawCount` (a bundle's count is added
///   to each pass that executes it);
/// - `label(f, "param", extra...)`: the label, then `extra`.
///
/// Each encoder's module lists its own exports (the names `procs.rs` and
/// its source scan look for), so those lists look alike line for line; what
/// the exports do is written once, here.
macro_rules! recording_exports {
    ($encoder:ty, $param:literal; $($(#[$doc:meta])* pub unsafe extern "C" fn $name:ident($handle:ident: $handle_ty:ty $(, $arg:ident: $arg_ty:ty)*) => $kind:ident($($how:tt)*);)*) => {
        $(
            $(#[$doc])*
            #[no_mangle]
            pub unsafe extern "C" fn $name($handle: $handle_ty $(, $arg: $arg_ty)*) {
                $crate::ffi::boundary::call(stringify!($name), (), || {
                    $crate::objects::render_pass_commands::recording_exports!(
                        @$kind $encoder, $param, $name, $handle, [$($arg),*], $($how)*
                    )
                })
            }
        )*
    };
    (@plain $encoder:ty, $param:literal, $name:ident, $handle:ident, [$($arg:ident),*], $core:ident) => {{
        // SAFETY: the C caller passes a live handle.
        let enc = unsafe { $crate::ffi::boundary::arg::<$encoder>($handle, $param) }?;
        enc.record(|g, e| g.$core(e $(, $arg)*));
        Ok(())
    }};
    (@draw $encoder:ty, $param:literal, $name:ident, $handle:ident, [$($arg:ident),*], $core:ident) => {{
        // SAFETY: the C caller passes a live handle.
        let enc = unsafe { $crate::ffi::boundary::arg::<$encoder>($handle, $param) }?;
        enc.count_draws(1);
        enc.record(|g, e| g.$core(e $(, $arg)*));
        Ok(())
    }};
    (@draw_indirect $encoder:ty, $param:literal, $name:ident, $handle:ident, [$($arg:ident),*], $($how:tt)*) => {{
        // SAFETY: the C caller passes a live handle.
        unsafe { $crate::ffi::boundary::arg::<$encoder>($handle, $param) }?.count_draws(1);
        $crate::objects::render_pass_commands::recording_exports!(@indirect $encoder, $param, $name, $handle, [$($arg),*], $($how)*)
    }};
    (@set_pipeline $encoder:ty, $param:literal, $name:ident, $handle:ident, [$pipeline:ident], $pipeline_ty:ty, $core:ident) => {{
        // SAFETY: the C caller passes live handles.
        let (enc, pipeline) = unsafe {
            (
                $crate::ffi::boundary::arg::<$encoder>($handle, $param)?,
                $crate::ffi::boundary::arg::<$pipeline_ty>($pipeline, "pipeline")?,
            )
        };
        if $crate::objects::render_pass_commands::foreign(&**enc, &**pipeline, "pipeline", stringify!($name)) {
            return Ok(());
        }
        enc.record(|g, e| g.$core(e, pipeline.id));
        Ok(())
    }};
    (@set_bind_group $encoder:ty, $param:literal, $name:ident, $handle:ident, [$index:ident, $group:ident, $count:ident, $offsets:ident], $core:ident) => {{
        // SAFETY: the C caller passes live handles (group may be NULL) and
        // a valid array.
        let (enc, group, offsets) = unsafe {
            (
                $crate::ffi::boundary::arg::<$encoder>($handle, $param)?,
                $crate::ffi::boundary::opt_arg::<$crate::objects::bind_group::BindGroup>($group, "group")?,
                $crate::ffi::boundary::slice_arg($offsets, $count, "dynamicOffsets")?,
            )
        };
        if group.is_some_and(|g| $crate::objects::render_pass_commands::foreign(&**enc, &**g, "group", stringify!($name))) {
            return Ok(());
        }
        let group = group.map(|g| g.id);
        enc.record(|g, e| g.$core(e, $index, group, offsets));
        Ok(())
    }};
    (@set_vertex_buffer $encoder:ty, $param:literal, $name:ident, $handle:ident, [$slot:ident, $buffer:ident, $offset:ident, $size:ident], $core:ident) => {{
        // SAFETY: the C caller passes live handles (buffer may be NULL).
        let (enc, buffer) = unsafe {
            (
                $crate::ffi::boundary::arg::<$encoder>($handle, $param)?,
                $crate::ffi::boundary::opt_arg::<$crate::objects::buffer::Buffer>($buffer, "buffer")?,
            )
        };
        if buffer.is_some_and(|b| $crate::objects::render_pass_commands::foreign(&**enc, &**b, "buffer", stringify!($name))) {
            return Ok(());
        }
        let buffer = buffer.map(|b| b.id);
        let size = $crate::conv::whole_size($size).and_then(std::num::NonZeroU64::new);
        enc.record(|g, e| g.$core(e, $slot, buffer, $offset, size));
        Ok(())
    }};
    (@set_index_buffer $encoder:ty, $param:literal, $name:ident, $handle:ident, [$buffer:ident, $format:ident, $offset:ident, $size:ident], $core:ident, $fail:ident) => {{
        // SAFETY: the C caller passes live handles.
        let (enc, buffer) = unsafe {
            (
                $crate::ffi::boundary::arg::<$encoder>($handle, $param)?,
                $crate::ffi::boundary::arg::<$crate::objects::buffer::Buffer>($buffer, "buffer")?,
            )
        };
        if $crate::objects::render_pass_commands::foreign(&**enc, &**buffer, "buffer", stringify!($name)) {
            return Ok(());
        }
        let format = match $crate::conv::render::index_format($format) {
            Ok(Some(f)) => f,
            Ok(None) => {
                enc.$fail(concat!(stringify!($name), ": format is Undefined").to_string());
                return Ok(());
            }
            Err(e) => {
                enc.$fail(format!(concat!(stringify!($name), ": format {}"), e));
                return Ok(());
            }
        };
        let size = $crate::conv::whole_size($size).and_then(std::num::NonZeroU64::new);
        if let Some((offset, size)) = buffer.index_prebind(format, $offset, size) {
            enc.record(|g, e| g.$core(e, buffer.id, format, offset, size));
        }
        enc.record(|g, e| g.$core(e, buffer.id, format, $offset, size));
        Ok(())
    }};
    (@set_immediates $encoder:ty, $param:literal, $name:ident, $handle:ident, [$offset:ident, $data:ident, $size:ident], $core:ident) => {{
        // SAFETY: the C caller passes a live handle and `size` readable
        // bytes at `data`.
        let (enc, bytes) = unsafe {
            (
                $crate::ffi::boundary::arg::<$encoder>($handle, $param)?,
                $crate::ffi::boundary::slice_arg($data.cast::<u8>(), $size, "data")?,
            )
        };
        enc.record(|g, e| g.$core(e, $offset, bytes));
        Ok(())
    }};
    (@indirect $encoder:ty, $param:literal, $name:ident, $handle:ident, [$buffer:ident, $offset:ident], $core:ident $(, $fail:ident, $args:literal)?) => {{
        // SAFETY: the C caller passes live handles.
        let (enc, buffer) = unsafe {
            (
                $crate::ffi::boundary::arg::<$encoder>($handle, $param)?,
                $crate::ffi::boundary::arg::<$crate::objects::buffer::Buffer>($buffer, "indirectBuffer")?,
            )
        };
        if $crate::objects::render_pass_commands::foreign(&**enc, &**buffer, "indirectBuffer", stringify!($name)) {
            return Ok(());
        }
        $(
            if let Some(why) = buffer.indirect_problem($offset, $args) {
                enc.$fail(format!(concat!(stringify!($name), ": {}"), why));
                return Ok(());
            }
        )?
        enc.record(|g, e| g.$core(e, buffer.id, $offset));
        Ok(())
    }};
    (@label $encoder:ty, $param:literal, $name:ident, $handle:ident, [$label:ident], $core:ident, $label_param:literal $(, $extra:expr)*) => {{
        // SAFETY: the C caller passes a live handle and a valid view.
        let (enc, label) = unsafe {
            (
                $crate::ffi::boundary::arg::<$encoder>($handle, $param)?,
                $crate::ffi::boundary::label_arg($label, $label_param)?,
            )
        };
        enc.record(|g, e| g.$core(e, &label $(, $extra)*));
        Ok(())
    }};
}
pub(crate) use recording_exports;

recording_exports! {
    RenderPassEncoder, "renderPassEncoder";

    /// Sets the pipeline for the following draws.
    ///
    /// # Safety
    /// `render_pass_encoder` and `pipeline` are live handles.
    pub unsafe extern "C" fn wgpuRenderPassEncoderSetPipeline(render_pass_encoder: WGPURenderPassEncoder, pipeline: WGPURenderPipeline) => set_pipeline(RenderPipeline, render_pass_set_pipeline);

    /// Binds a bind group (NULL unbinds the slot) with its dynamic offsets.
    ///
    /// # Safety
    /// `render_pass_encoder` is a live handle, `group` NULL or a live handle;
    /// `dynamic_offsets` points at `dynamic_offset_count` values.
    pub unsafe extern "C" fn wgpuRenderPassEncoderSetBindGroup(render_pass_encoder: WGPURenderPassEncoder, group_index: u32, group: WGPUBindGroup, dynamic_offset_count: usize, dynamic_offsets: *const u32) => set_bind_group(render_pass_set_bind_group);

    /// Binds a vertex buffer range to `slot` (`buffer` NULL unbinds it; `size`
    /// `WGPU_WHOLE_SIZE`: to the end of the buffer).
    ///
    /// # Safety
    /// `render_pass_encoder` is a live handle, `buffer` NULL or a live handle.
    pub unsafe extern "C" fn wgpuRenderPassEncoderSetVertexBuffer(render_pass_encoder: WGPURenderPassEncoder, slot: u32, buffer: WGPUBuffer, offset: u64, size: u64) => set_vertex_buffer(render_pass_set_vertex_buffer);

    /// Binds an index buffer range. An `Undefined` or unknown format is a
    /// validation error (reported by `Finish`).
    ///
    /// # Safety
    /// `render_pass_encoder` and `buffer` are live handles.
    pub unsafe extern "C" fn wgpuRenderPassEncoderSetIndexBuffer(render_pass_encoder: WGPURenderPassEncoder, buffer: WGPUBuffer, format: WGPUIndexFormat, offset: u64, size: u64) => set_index_buffer(render_pass_set_index_buffer, invalidate);

    /// Draws primitives.
    ///
    /// # Safety
    /// `render_pass_encoder` is a live handle.
    pub unsafe extern "C" fn wgpuRenderPassEncoderDraw(render_pass_encoder: WGPURenderPassEncoder, vertex_count: u32, instance_count: u32, first_vertex: u32, first_instance: u32) => draw(render_pass_draw);

    /// Draws indexed primitives.
    ///
    /// # Safety
    /// `render_pass_encoder` is a live handle.
    pub unsafe extern "C" fn wgpuRenderPassEncoderDrawIndexed(render_pass_encoder: WGPURenderPassEncoder, index_count: u32, instance_count: u32, first_index: u32, base_vertex: i32, first_instance: u32) => draw(render_pass_draw_indexed);

    /// Draws with the arguments read from `indirect_buffer`.
    ///
    /// # Safety
    /// `render_pass_encoder` and `indirect_buffer` are live handles.
    pub unsafe extern "C" fn wgpuRenderPassEncoderDrawIndirect(render_pass_encoder: WGPURenderPassEncoder, indirect_buffer: WGPUBuffer, indirect_offset: u64) => draw_indirect(render_pass_draw_indirect);

    /// Draws indexed primitives with the arguments read from `indirect_buffer`.
    ///
    /// # Safety
    /// `render_pass_encoder` and `indirect_buffer` are live handles.
    pub unsafe extern "C" fn wgpuRenderPassEncoderDrawIndexedIndirect(render_pass_encoder: WGPURenderPassEncoder, indirect_buffer: WGPUBuffer, indirect_offset: u64) => draw_indirect(render_pass_draw_indexed_indirect);

    /// Sets the scissor rectangle.
    ///
    /// # Safety
    /// `render_pass_encoder` is a live handle.
    pub unsafe extern "C" fn wgpuRenderPassEncoderSetScissorRect(render_pass_encoder: WGPURenderPassEncoder, x: u32, y: u32, width: u32, height: u32) => plain(render_pass_set_scissor_rect);

    /// Sets the stencil reference value.
    ///
    /// # Safety
    /// `render_pass_encoder` is a live handle.
    pub unsafe extern "C" fn wgpuRenderPassEncoderSetStencilReference(render_pass_encoder: WGPURenderPassEncoder, reference: u32) => plain(render_pass_set_stencil_reference);

    /// Sets immediate data (`var<immediate>`) bytes `offset..offset + size`.
    /// Needs a device with immediates; otherwise the pass is invalid.
    ///
    /// # Safety
    /// `render_pass_encoder` is a live handle; `data` points at `size` bytes.
    pub unsafe extern "C" fn wgpuRenderPassEncoderSetImmediates(render_pass_encoder: WGPURenderPassEncoder, offset: u32, data: *const std::ffi::c_void, size: usize) => set_immediates(render_pass_set_immediates);

    /// Begins occlusion query `query_index` of the pass's occlusion query set
    /// (`WGPURenderPassDescriptor.occlusionQuerySet`).
    ///
    /// # Safety
    /// `render_pass_encoder` is a live handle.
    pub unsafe extern "C" fn wgpuRenderPassEncoderBeginOcclusionQuery(render_pass_encoder: WGPURenderPassEncoder, query_index: u32) => plain(render_pass_begin_occlusion_query);

    /// Ends the current occlusion query.
    ///
    /// # Safety
    /// `render_pass_encoder` is a live handle.
    pub unsafe extern "C" fn wgpuRenderPassEncoderEndOcclusionQuery(render_pass_encoder: WGPURenderPassEncoder) => plain(render_pass_end_occlusion_query);

    /// Opens a debug group in the pass.
    ///
    /// # Safety
    /// `render_pass_encoder` is a live handle; `group_label` is a valid view.
    pub unsafe extern "C" fn wgpuRenderPassEncoderPushDebugGroup(render_pass_encoder: WGPURenderPassEncoder, group_label: WGPUStringView) => label(render_pass_push_debug_group, "groupLabel", 0);

    /// Closes the innermost debug group of the pass.
    ///
    /// # Safety
    /// `render_pass_encoder` is a live handle.
    pub unsafe extern "C" fn wgpuRenderPassEncoderPopDebugGroup(render_pass_encoder: WGPURenderPassEncoder) => plain(render_pass_pop_debug_group);

    /// Inserts a debug marker in the pass.
    ///
    /// # Safety
    /// `render_pass_encoder` is a live handle; `marker_label` is a valid view.
    pub unsafe extern "C" fn wgpuRenderPassEncoderInsertDebugMarker(render_pass_encoder: WGPURenderPassEncoder, marker_label: WGPUStringView) => label(render_pass_insert_debug_marker, "markerLabel", 0);
}

/// The pass behind a required handle.
///
/// # Safety
/// `raw` is NULL or a live handle.
unsafe fn pass<'a>(
    raw: WGPURenderPassEncoder,
) -> boundary::ApiResult<&'a crate::ffi::handle::Handle<RenderPassEncoder>> {
    // SAFETY: forwarded from the caller.
    unsafe { boundary::arg::<RenderPassEncoder>(raw, "renderPassEncoder") }
}

/// Sets the viewport. Non-finite values are a validation error (reported
/// by `Finish`).
///
/// # Safety
/// `render_pass_encoder` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderSetViewport(
    render_pass_encoder: WGPURenderPassEncoder,
    x: f32,
    y: f32,
    width: f32,
    height: f32,
    min_depth: f32,
    max_depth: f32,
) {
    call("wgpuRenderPassEncoderSetViewport", (), || {
        // SAFETY: the C caller passes a live handle.
        let pass = unsafe { pass(render_pass_encoder) }?;
        if let Some(v) = [x, y, width, height, min_depth, max_depth].into_iter().find(|v| !v.is_finite()) {
            pass.invalidate(format!("wgpuRenderPassEncoderSetViewport: the non-finite value {v}"));
            return Ok(());
        }
        pass.record(|g, p| g.render_pass_set_viewport(p, x, y, width, height, min_depth, max_depth));
        Ok(())
    })
}

/// Sets the blend constant. Non-finite channels are a validation error
/// (reported by `Finish`).
///
/// # Safety
/// `render_pass_encoder` is a live handle; `color` is NULL or points at a
/// valid color.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderSetBlendConstant(
    render_pass_encoder: WGPURenderPassEncoder,
    color: *const WGPUColor,
) {
    call("wgpuRenderPassEncoderSetBlendConstant", (), || {
        // SAFETY: the C caller passes a live handle and NULL or a valid color.
        let (pass, color) = unsafe { (pass(render_pass_encoder)?, boundary::ptr_arg(color, "color")?) };
        match crate::conv::render::color(color) {
            Ok(c) => pass.record(|g, p| g.render_pass_set_blend_constant(p, c)),
            Err(e) => pass.invalidate(format!("wgpuRenderPassEncoderSetBlendConstant: {e}")),
        }
        Ok(())
    })
}

/// Executes render bundles in the pass (every handle in the array must be
/// live; NULL entries are rejected).
///
/// # Safety
/// `render_pass_encoder` is a live handle; `bundles` points at
/// `bundle_count` live handles.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderExecuteBundles(
    render_pass_encoder: WGPURenderPassEncoder,
    bundle_count: usize,
    bundles: *const WGPURenderBundle,
) {
    call("wgpuRenderPassEncoderExecuteBundles", (), || {
        // SAFETY: the C caller passes a live handle and a valid array.
        let (pass, raw) =
            unsafe { (pass(render_pass_encoder)?, boundary::slice_arg(bundles, bundle_count, "bundles")?) };
        let mut ids = Vec::with_capacity(raw.len());
        let mut draws = 0u64;
        for (i, b) in raw.iter().enumerate() {
            // SAFETY: the entries are live handles (caller); NULL is rejected.
            let bundle = unsafe { boundary::arg::<RenderBundle>(*b, &format!("bundles[{i}]")) }?;
            if foreign(&**pass, &**bundle, &format!("bundles[{i}]"), "wgpuRenderPassEncoderExecuteBundles") {
                return Ok(());
            }
            if bundle.no_attachments {
                // Every pass has an attachment, so it never matches one
                // that has none.
                bundle.device.report_validation(format!(
                    "wgpuRenderPassEncoderExecuteBundles: bundles[{i}] was encoded without attachments, \
                     which no render pass is compatible with (it was not executed)"
                ));
                continue;
            }
            ids.push(bundle.id);
            draws = draws.saturating_add(bundle.draws);
        }
        pass.count_draws(draws);
        pass.record(|g, p| g.render_pass_execute_bundles(p, &ids));
        Ok(())
    })
}
