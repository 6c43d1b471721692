//! Recording extensions: multi-draw-indirect, pipeline-statistics queries
//! and timestamps inside passes, and `wgpuCommandEncoderClearTexture`.
//!
//! Each is recorded into the wgpu-core pass or encoder like the standard
//! commands (`compute_pass.rs`, `render_pass.rs`): wgpu-core validates it
//! (features included) and errors surface at the encoder's `Finish`.

use wgpu_types as wgt;

use super::call;
use crate::abi::native::*;
use crate::abi::{
    WGPUBuffer, WGPUCommandEncoder, WGPUComputePassEncoder, WGPUQuerySet, WGPURenderPassEncoder, WGPUTexture,
    WGPU_ARRAY_LAYER_COUNT_UNDEFINED, WGPU_MIP_LEVEL_COUNT_UNDEFINED,
};
use crate::ffi::boundary;
use crate::objects::buffer::Buffer;
use crate::objects::command_encoder::CommandEncoder;
use crate::objects::compute_pass::ComputePassEncoder;
use crate::objects::query_set::QuerySet;
use crate::objects::render_pass::RenderPassEncoder;
use crate::objects::texture::Texture;

/// Defines a render pass draw over `count` indirect records.
macro_rules! multi_draw {
    ($name:ident, $core:ident, $what:literal) => {
        #[doc = concat!("Records `count` ", $what, " draws whose arguments are read one after another from `buffer` at `offset` (needs no feature; wgpu-core validates the buffer).")]
        ///
        /// # Safety
        /// `encoder` and `buffer` are live handles.
        #[no_mangle]
        pub unsafe extern "C" fn $name(encoder: WGPURenderPassEncoder, buffer: WGPUBuffer, offset: u64, count: u32) {
            call(stringify!($name), (), || {
                // SAFETY: the C caller passes live handles.
                let (pass, buffer) = unsafe {
                    (
                        boundary::arg::<RenderPassEncoder>(encoder, "encoder")?,
                        boundary::arg::<Buffer>(buffer, "buffer")?,
                    )
                };
                if crate::objects::render_pass_commands::foreign(&**pass, &**buffer, "buffer", stringify!($name)) {{
                    return Ok(());
                }}
                pass.count_draws(u64::from(count));
                pass.record(|g, p| g.$core(p, buffer.id, offset, count));
                Ok(())
            })
        }
    };
}

multi_draw!(wgpuRenderPassEncoderMultiDrawIndirect, render_pass_multi_draw_indirect, "non-indexed");
multi_draw!(wgpuRenderPassEncoderMultiDrawIndexedIndirect, render_pass_multi_draw_indexed_indirect, "indexed");

/// Defines a render pass draw whose count is read from a buffer.
macro_rules! multi_draw_count {
    ($name:ident, $core:ident, $what:literal) => {
        #[doc = concat!("Records ", $what, " draws whose count is read from `count_buffer` at `count_buffer_offset` (at most `max_count`) and whose arguments are read from `buffer` at `offset`. Needs `WGPUNativeFeature_MultiDrawIndirectCount`.")]
        ///
        /// # Safety
        /// `encoder`, `buffer` and `count_buffer` are live handles.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            encoder: WGPURenderPassEncoder,
            buffer: WGPUBuffer,
            offset: u64,
            count_buffer: WGPUBuffer,
            count_buffer_offset: u64,
            max_count: u32,
        ) {
            call(stringify!($name), (), || {
                // SAFETY: the C caller passes live handles.
                let (pass, buffer, count_buffer) = unsafe {
                    (
                        boundary::arg::<RenderPassEncoder>(encoder, "encoder")?,
                        boundary::arg::<Buffer>(buffer, "buffer")?,
                        boundary::arg::<Buffer>(count_buffer, "count_buffer")?,
                    )
                };
                let name = stringify!($name);
                if crate::objects::render_pass_commands::foreign(&**pass, &**buffer, "buffer", name) || crate::objects::render_pass_commands::foreign(&**pass, &**count_buffer, "count_buffer", name) {{
                    return Ok(());
                }}
                pass.count_draws(u64::from(max_count));
                pass.record(|g, p| g.$core(p, buffer.id, offset, count_buffer.id, count_buffer_offset, max_count));
                Ok(())
            })
        }
    };
}

multi_draw_count!(wgpuRenderPassEncoderMultiDrawIndirectCount, render_pass_multi_draw_indirect_count, "non-indexed");
multi_draw_count!(
    wgpuRenderPassEncoderMultiDrawIndexedIndirectCount,
    render_pass_multi_draw_indexed_indirect_count,
    "indexed"
);

/// Defines a pass command on query `query_index` of `query_set`: the set
/// must be of the pass's device, then wgpu-core records and validates it.
macro_rules! pass_query {
    ($(#[$doc:meta])* $name:ident($encoder:ident = $label:literal: $raw:ty = $pass:ty), $core:ident) => {
        $(#[$doc])*
        ///
        /// # Safety
        #[doc = concat!("`", stringify!($encoder), "` and `query_set` are live handles.")]
        #[no_mangle]
        pub unsafe extern "C" fn $name($encoder: $raw, query_set: WGPUQuerySet, query_index: u32) {
            call(stringify!($name), (), || {
                // SAFETY: the C caller passes live handles.
                let (pass, set) = unsafe {
                    (
                        boundary::arg::<$pass>($encoder, $label)?,
                        boundary::arg::<QuerySet>(query_set, "querySet")?,
                    )
                };
                if crate::objects::render_pass_commands::foreign(&**pass, &**set, "querySet", stringify!($name)) {
                    return Ok(());
                }
                pass.record(|g, p| g.$core(p, set.id, query_index));
                Ok(())
            })
        }
    };
}

pass_query!(
    /// Starts pipeline-statistics query `query_index` of `query_set` (a set
    /// of type `WGPUNativeQueryType_PipelineStatistics`); it counts until
    /// `wgpuComputePassEncoderEndPipelineStatisticsQuery`.
    wgpuComputePassEncoderBeginPipelineStatisticsQuery(compute_pass_encoder = "computePassEncoder": WGPUComputePassEncoder = ComputePassEncoder),
    compute_pass_begin_pipeline_statistics_query
);

/// Ends the pipeline-statistics query the pass began.
///
/// # Safety
/// `compute_pass_encoder` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn wgpuComputePassEncoderEndPipelineStatisticsQuery(
    compute_pass_encoder: WGPUComputePassEncoder,
) {
    call("wgpuComputePassEncoderEndPipelineStatisticsQuery", (), || {
        // SAFETY: the C caller passes a live handle.
        let pass = unsafe { boundary::arg::<ComputePassEncoder>(compute_pass_encoder, "computePassEncoder") }?;
        pass.record(|g, p| g.compute_pass_end_pipeline_statistics_query(p));
        Ok(())
    })
}

pass_query!(
    /// Starts pipeline-statistics query `query_index` of `query_set` in a
    /// render pass.
    wgpuRenderPassEncoderBeginPipelineStatisticsQuery(render_pass_encoder = "renderPassEncoder": WGPURenderPassEncoder = RenderPassEncoder),
    render_pass_begin_pipeline_statistics_query
);

/// Ends the pipeline-statistics query the render pass began.
///
/// # Safety
/// `render_pass_encoder` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn wgpuRenderPassEncoderEndPipelineStatisticsQuery(render_pass_encoder: WGPURenderPassEncoder) {
    call("wgpuRenderPassEncoderEndPipelineStatisticsQuery", (), || {
        // SAFETY: the C caller passes a live handle.
        let pass = unsafe { boundary::arg::<RenderPassEncoder>(render_pass_encoder, "renderPassEncoder") }?;
        pass.record(|g, p| g.render_pass_end_pipeline_statistics_query(p));
        Ok(())
    })
}

pass_query!(
    /// Writes a timestamp into query `query_index` at this point of a
    /// compute pass (needs `WGPUNativeFeature_TimestampQueryInsidePasses`).
    wgpuComputePassEncoderWriteTimestamp(compute_pass_encoder = "computePassEncoder": WGPUComputePassEncoder = ComputePassEncoder),
    compute_pass_write_timestamp
);

pass_query!(
    /// Writes a timestamp into query `query_index` at this point of a render
    /// pass (needs `WGPUNativeFeature_TimestampQueryInsidePasses`).
    wgpuRenderPassEncoderWriteTimestamp(render_pass_encoder = "renderPassEncoder": WGPURenderPassEncoder = RenderPassEncoder),
    render_pass_write_timestamp
);

/// Clears a part of `texture` to zero (needs
/// `WGPUNativeFeature_ClearTexture`). `range` NULL clears the whole
/// texture; `WGPU_MIP_LEVEL_COUNT_UNDEFINED` / `WGPU_ARRAY_LAYER_COUNT_UNDEFINED`
/// mean "to the last one".
///
/// # Safety
/// `command_encoder` and `texture` are live handles; `range` is NULL or
/// readable.
#[no_mangle]
pub unsafe extern "C" fn wgpuCommandEncoderClearTexture(
    command_encoder: WGPUCommandEncoder,
    texture: WGPUTexture,
    range: *const WGPUImageSubresourceRange,
) {
    call("wgpuCommandEncoderClearTexture", (), || {
        // SAFETY: the C caller passes live handles and NULL or a readable
        // range.
        let (encoder, texture, range) = unsafe {
            (
                boundary::arg::<CommandEncoder>(command_encoder, "commandEncoder")?,
                boundary::arg::<Texture>(texture, "texture")?,
                range.as_ref(),
            )
        };
        if crate::objects::render_pass_commands::foreign(
            &**encoder,
            &**texture,
            "texture",
            "wgpuCommandEncoderClearTexture",
        ) {
            return Ok(());
        }
        let range = match range {
            None => wgt::ImageSubresourceRange::default(),
            Some(r) => {
                let aspect = match crate::objects::texture::aspect(r.aspect) {
                    Ok(aspect) => aspect,
                    Err(why) => {
                        encoder.device.report_validation(format!("wgpuCommandEncoderClearTexture: range.{why}"));
                        return Ok(());
                    }
                };
                wgt::ImageSubresourceRange {
                    aspect,
                    base_mip_level: r.baseMipLevel,
                    mip_level_count: (r.mipLevelCount != WGPU_MIP_LEVEL_COUNT_UNDEFINED).then_some(r.mipLevelCount),
                    base_array_layer: r.baseArrayLayer,
                    array_layer_count: (r.arrayLayerCount != WGPU_ARRAY_LAYER_COUNT_UNDEFINED)
                        .then_some(r.arrayLayerCount),
                }
            }
        };
        encoder.check(encoder.device.global().command_encoder_clear_texture(encoder.id, texture.id, &range));
        Ok(())
    })
}
