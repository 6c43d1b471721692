//! The recording calls of `WGPURenderPassEncoder` (state, draws, queries,
//! bundles, debug markers). Each records into wgpu-core's pass; errors
//! surface at the encoder's `Finish`, except calls on an ended pass, which
//! are reported at once.

use crate::abi::*;
use crate::ffi::boundary::{self, call};
use crate::objects::bind_group::BindGroup;
use crate::objects::buffer::Buffer;
use crate::objects::render_bundle::RenderBundle;
use crate::objects::render_pass::RenderPassEncoder;
use crate::objects::render_pipeline::RenderPipeline;

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

/// Sets the pipeline for the following draws.
///
/// # Safety
/// `render_pass_encoder` and `pipeline` are live handles.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderSetPipeline(
    render_pass_encoder: WGPURenderPassEncoder,
    pipeline: WGPURenderPipeline,
) {
    call("wgpuRenderPassEncoderSetPipeline", (), || {
        // SAFETY: the C caller passes live handles.
        let (pass, pipeline) =
            unsafe { (pass(render_pass_encoder)?, boundary::arg::<RenderPipeline>(pipeline, "pipeline")?) };
        pass.record(|g, p| g.render_pass_set_pipeline(p, pipeline.id));
        Ok(())
    })
}

/// Binds a bind group (NULL unbinds the slot) with its dynamic offsets.
///
/// # Safety
/// `render_pass_encoder` is a live handle, `group` NULL or a live handle;
/// `dynamic_offsets` points at `dynamic_offset_count` values.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderSetBindGroup(
    render_pass_encoder: WGPURenderPassEncoder,
    group_index: u32,
    group: WGPUBindGroup,
    dynamic_offset_count: usize,
    dynamic_offsets: *const u32,
) {
    call("wgpuRenderPassEncoderSetBindGroup", (), || {
        // SAFETY: the C caller passes live handles (group may be NULL) and
        // a valid array.
        let (pass, group, offsets) = unsafe {
            (
                pass(render_pass_encoder)?,
                boundary::opt_arg::<BindGroup>(group, "group")?,
                boundary::slice_arg(dynamic_offsets, dynamic_offset_count, "dynamicOffsets")?,
            )
        };
        let group = group.map(|g| g.id);
        pass.record(|g, p| g.render_pass_set_bind_group(p, group_index, group, offsets));
        Ok(())
    })
}

/// Binds a vertex buffer range to `slot` (`buffer` NULL unbinds it; `size`
/// `WGPU_WHOLE_SIZE`: to the end of the buffer).
///
/// # Safety
/// `render_pass_encoder` is a live handle, `buffer` NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderSetVertexBuffer(
    render_pass_encoder: WGPURenderPassEncoder,
    slot: u32,
    buffer: WGPUBuffer,
    offset: u64,
    size: u64,
) {
    call("wgpuRenderPassEncoderSetVertexBuffer", (), || {
        // SAFETY: the C caller passes live handles (buffer may be NULL).
        let (pass, buffer) = unsafe { (pass(render_pass_encoder)?, boundary::opt_arg::<Buffer>(buffer, "buffer")?) };
        let buffer = buffer.map(|b| b.id);
        let size = crate::conv::whole_size(size).and_then(std::num::NonZeroU64::new);
        pass.record(|g, p| g.render_pass_set_vertex_buffer(p, slot, buffer, offset, size));
        Ok(())
    })
}

/// Binds an index buffer range. An `Undefined` or unknown format is a
/// validation error (reported by `Finish`).
///
/// # Safety
/// `render_pass_encoder` and `buffer` are live handles.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderSetIndexBuffer(
    render_pass_encoder: WGPURenderPassEncoder,
    buffer: WGPUBuffer,
    format: WGPUIndexFormat,
    offset: u64,
    size: u64,
) {
    call("wgpuRenderPassEncoderSetIndexBuffer", (), || {
        // SAFETY: the C caller passes live handles.
        let (pass, buffer) = unsafe { (pass(render_pass_encoder)?, boundary::arg::<Buffer>(buffer, "buffer")?) };
        let format = match crate::conv::render::index_format(format) {
            Ok(Some(f)) => f,
            Ok(None) => {
                pass.invalidate("wgpuRenderPassEncoderSetIndexBuffer: format is Undefined".to_string());
                return Ok(());
            }
            Err(e) => {
                pass.invalidate(format!("wgpuRenderPassEncoderSetIndexBuffer: format {e}"));
                return Ok(());
            }
        };
        let size = crate::conv::whole_size(size).and_then(std::num::NonZeroU64::new);
        pass.record(|g, p| g.render_pass_set_index_buffer(p, buffer.id, format, offset, size));
        Ok(())
    })
}

/// Draws primitives.
///
/// # Safety
/// `render_pass_encoder` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderDraw(
    render_pass_encoder: WGPURenderPassEncoder,
    vertex_count: u32,
    instance_count: u32,
    first_vertex: u32,
    first_instance: u32,
) {
    call("wgpuRenderPassEncoderDraw", (), || {
        // SAFETY: the C caller passes a live handle.
        let pass = unsafe { pass(render_pass_encoder) }?;
        pass.record(|g, p| g.render_pass_draw(p, vertex_count, instance_count, first_vertex, first_instance));
        Ok(())
    })
}

/// Draws indexed primitives.
///
/// # Safety
/// `render_pass_encoder` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderDrawIndexed(
    render_pass_encoder: WGPURenderPassEncoder,
    index_count: u32,
    instance_count: u32,
    first_index: u32,
    base_vertex: i32,
    first_instance: u32,
) {
    call("wgpuRenderPassEncoderDrawIndexed", (), || {
        // SAFETY: the C caller passes a live handle.
        let pass = unsafe { pass(render_pass_encoder) }?;
        pass.record(|g, p| {
            g.render_pass_draw_indexed(p, index_count, instance_count, first_index, base_vertex, first_instance)
        });
        Ok(())
    })
}

/// Draws with the arguments read from `indirect_buffer`.
///
/// # Safety
/// `render_pass_encoder` and `indirect_buffer` are live handles.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderDrawIndirect(
    render_pass_encoder: WGPURenderPassEncoder,
    indirect_buffer: WGPUBuffer,
    indirect_offset: u64,
) {
    call("wgpuRenderPassEncoderDrawIndirect", (), || {
        // SAFETY: the C caller passes live handles.
        let (pass, buffer) =
            unsafe { (pass(render_pass_encoder)?, boundary::arg::<Buffer>(indirect_buffer, "indirectBuffer")?) };
        pass.record(|g, p| g.render_pass_draw_indirect(p, buffer.id, indirect_offset));
        Ok(())
    })
}

/// Draws indexed primitives with the arguments read from `indirect_buffer`.
///
/// # Safety
/// `render_pass_encoder` and `indirect_buffer` are live handles.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderDrawIndexedIndirect(
    render_pass_encoder: WGPURenderPassEncoder,
    indirect_buffer: WGPUBuffer,
    indirect_offset: u64,
) {
    call("wgpuRenderPassEncoderDrawIndexedIndirect", (), || {
        // SAFETY: the C caller passes live handles.
        let (pass, buffer) =
            unsafe { (pass(render_pass_encoder)?, boundary::arg::<Buffer>(indirect_buffer, "indirectBuffer")?) };
        pass.record(|g, p| g.render_pass_draw_indexed_indirect(p, buffer.id, indirect_offset));
        Ok(())
    })
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

/// Sets the scissor rectangle.
///
/// # Safety
/// `render_pass_encoder` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderSetScissorRect(
    render_pass_encoder: WGPURenderPassEncoder,
    x: u32,
    y: u32,
    width: u32,
    height: u32,
) {
    call("wgpuRenderPassEncoderSetScissorRect", (), || {
        // SAFETY: the C caller passes a live handle.
        let pass = unsafe { pass(render_pass_encoder) }?;
        pass.record(|g, p| g.render_pass_set_scissor_rect(p, x, y, width, height));
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

/// Sets the stencil reference value.
///
/// # Safety
/// `render_pass_encoder` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderSetStencilReference(
    render_pass_encoder: WGPURenderPassEncoder,
    reference: u32,
) {
    call("wgpuRenderPassEncoderSetStencilReference", (), || {
        // SAFETY: the C caller passes a live handle.
        let pass = unsafe { pass(render_pass_encoder) }?;
        pass.record(|g, p| g.render_pass_set_stencil_reference(p, reference));
        Ok(())
    })
}

/// Sets immediate data (`var<immediate>`) bytes `offset..offset + size`.
/// Needs a device with immediates; otherwise the pass is invalid.
///
/// # Safety
/// `render_pass_encoder` is a live handle; `data` points at `size` bytes.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderSetImmediates(
    render_pass_encoder: WGPURenderPassEncoder,
    offset: u32,
    data: *const std::ffi::c_void,
    size: usize,
) {
    call("wgpuRenderPassEncoderSetImmediates", (), || {
        // SAFETY: the C caller passes a live handle and `size` readable
        // bytes at `data`.
        let (pass, bytes) =
            unsafe { (pass(render_pass_encoder)?, boundary::slice_arg(data.cast::<u8>(), size, "data")?) };
        pass.record(|g, p| g.render_pass_set_immediates(p, offset, bytes));
        Ok(())
    })
}

/// Begins occlusion query `query_index` of the pass's occlusion query set
/// (`WGPURenderPassDescriptor.occlusionQuerySet`).
///
/// # Safety
/// `render_pass_encoder` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderBeginOcclusionQuery(
    render_pass_encoder: WGPURenderPassEncoder,
    query_index: u32,
) {
    call("wgpuRenderPassEncoderBeginOcclusionQuery", (), || {
        // SAFETY: the C caller passes a live handle.
        let pass = unsafe { pass(render_pass_encoder) }?;
        pass.record(|g, p| g.render_pass_begin_occlusion_query(p, query_index));
        Ok(())
    })
}

/// Ends the current occlusion query.
///
/// # Safety
/// `render_pass_encoder` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderEndOcclusionQuery(render_pass_encoder: WGPURenderPassEncoder) {
    call("wgpuRenderPassEncoderEndOcclusionQuery", (), || {
        // SAFETY: the C caller passes a live handle.
        let pass = unsafe { pass(render_pass_encoder) }?;
        pass.record(|g, p| g.render_pass_end_occlusion_query(p));
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
        for (i, b) in raw.iter().enumerate() {
            // SAFETY: the entries are live handles (caller); NULL is rejected.
            let bundle = unsafe { boundary::arg::<RenderBundle>(*b, &format!("bundles[{i}]")) }?;
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
        }
        pass.record(|g, p| g.render_pass_execute_bundles(p, &ids));
        Ok(())
    })
}

/// Opens a debug group in the pass.
///
/// # Safety
/// `render_pass_encoder` is a live handle; `group_label` is a valid view.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderPushDebugGroup(
    render_pass_encoder: WGPURenderPassEncoder,
    group_label: WGPUStringView,
) {
    call("wgpuRenderPassEncoderPushDebugGroup", (), || {
        // SAFETY: the C caller passes a live handle and a valid view.
        let (pass, label) = unsafe { (pass(render_pass_encoder)?, boundary::label_arg(group_label, "groupLabel")?) };
        pass.record(|g, p| g.render_pass_push_debug_group(p, &label, 0));
        Ok(())
    })
}

/// Closes the innermost debug group of the pass.
///
/// # Safety
/// `render_pass_encoder` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderPopDebugGroup(render_pass_encoder: WGPURenderPassEncoder) {
    call("wgpuRenderPassEncoderPopDebugGroup", (), || {
        // SAFETY: the C caller passes a live handle.
        let pass = unsafe { pass(render_pass_encoder) }?;
        pass.record(|g, p| g.render_pass_pop_debug_group(p));
        Ok(())
    })
}

/// Inserts a debug marker in the pass.
///
/// # Safety
/// `render_pass_encoder` is a live handle; `marker_label` is a valid view.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderInsertDebugMarker(
    render_pass_encoder: WGPURenderPassEncoder,
    marker_label: WGPUStringView,
) {
    call("wgpuRenderPassEncoderInsertDebugMarker", (), || {
        // SAFETY: the C caller passes a live handle and a valid view.
        let (pass, label) = unsafe { (pass(render_pass_encoder)?, boundary::label_arg(marker_label, "markerLabel")?) };
        pass.record(|g, p| g.render_pass_insert_debug_marker(p, &label, 0));
        Ok(())
    })
}
