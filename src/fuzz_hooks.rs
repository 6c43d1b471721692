//! Entry points for the fuzz targets (fuzz/), compiled only under
//! `--cfg fuzzing` (which `cargo fuzz` sets): the library's readers of C
//! input called without a device, so that the conversion target runs
//! millions of inputs. Not part of the API.
//!
//! Each function takes C values the target built from its bytes and runs
//! them through the same code the exported functions use; every result is
//! dropped (the point is that none of them crashes, aborts or hangs).

use crate::abi::*;
use crate::ffi::{boundary, callback, chain_walk};

/// The struct names whose `nextInChain` readers [`walk_chain`] can be asked
/// to run (the chain table's owners, then one that takes no chain).
pub fn chain_owners() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = chain_walk::ACCEPTED.iter().map(|(o, _)| *o).collect();
    v.push("WGPUBufferDescriptor");
    v
}

/// Walks a chain as the reader of `owner` does, then looks up each accepted
/// sType in it.
///
/// # Safety
/// Every link is NULL or a valid chained struct, as large as its sType says.
pub unsafe fn walk_chain(next: *const WGPUChainedStruct, owner: &'static str) {
    // SAFETY: forwarded from the caller.
    unsafe {
        let _ = chain_walk::expect_none(next, owner);
        if let Ok(c) = chain_walk::Chain::walk(next, owner) {
            for s in chain_walk::accepted(owner) {
                let _ = c.has(*s);
                let _ = c.get::<WGPUChainedStruct>(*s);
            }
            let _ = c.is_empty();
        }
    }
}

/// Reads a string view as an argument and as a label.
///
/// # Safety
/// `view` is a string view whose non-NULL data is readable for its length.
pub unsafe fn string_view(view: WGPUStringView) {
    // SAFETY: forwarded from the caller.
    unsafe {
        if let Ok(s) = boundary::str_arg(view, "fuzz") {
            let _ = s.or_empty();
        }
        let _ = boundary::label_arg(view, "fuzz");
    }
}

/// Reads a callback mode with its chain.
///
/// # Safety
/// `next` is NULL or a valid chain.
pub unsafe fn callback_mode(mode: WGPUCallbackMode, next: *mut WGPUChainedStruct) {
    // SAFETY: forwarded from the caller.
    let _ = unsafe { chain_walk::expect_none(next, "fuzz") };
    let _ = callback::parse_mode(mode, Some(crate::futures::Mode::AllowSpontaneous));
}

/// Maps enum and flag values of every kind the converters take.
pub fn enums(v: &[u32; 12], flags: u64) {
    use crate::conv::{binding, format, render};
    let _ = format::texture_format(WGPUTextureFormat(v[0]));
    let _ = format::view_dimension(WGPUTextureViewDimension(v[1]));
    let _ = render::vertex_format(WGPUVertexFormat(v[2]));
    let _ = render::step_mode(WGPUVertexStepMode(v[3]), v[4] as usize % 4);
    let _ = render::index_format(WGPUIndexFormat(v[5]));
    let _ = render::compare(WGPUCompareFunction(v[6]));
    let _ = render::load_op(WGPULoadOp(v[7]), 0.0f32);
    let _ = render::store_op(WGPUStoreOp(v[8]));
    let _ = binding::shader_stages(flags);
    let _ = binding::entry_kind(v[9], &[]);
    let _ = crate::conv::device::has_feature(wgpu_types::Features::all(), WGPUFeatureName(v[10]));
    let names = [WGPUFeatureName(v[10]), WGPUFeatureName(v[11])];
    let _ = crate::conv::device::required_features(&names, wgpu_types::Features::all());
    let _ = crate::conv::native_chain::backends(flags);
}

/// Converts render-pipeline parts.
pub fn render_state(
    p: &WGPUPrimitiveState,
    d: &WGPUDepthStencilState,
    m: &WGPUMultisampleState,
    t: &WGPUColorTargetState,
    blend: Option<&WGPUBlendState>,
    c: &WGPUColor,
) {
    use crate::conv::render;
    let _ = render::primitive(p);
    let _ = render::depth_stencil(d);
    let _ = render::multisample(m);
    let _ = render::color_target(t, blend);
    let _ = render::color(c);
}

/// Converts a bind group layout entry.
pub fn bgl_entry(e: &WGPUBindGroupLayoutEntry, external_texture: bool) {
    let _ = crate::conv::binding::bgl_entry(e, external_texture);
}

/// Converts requested limits against the downlevel and the default limits.
pub fn limits(l: &WGPULimits) {
    let _ = crate::conv::device::required_limits(Some(l), &wgpu_types::Limits::downlevel_defaults());
    let _ = crate::conv::device::required_limits(Some(l), &wgpu_types::Limits::default());
}

/// Converts pipeline-overridable constants.
pub fn constants(entries: &[(&str, f64)]) {
    let _ = crate::conv::pipeline::constants(entries.iter().copied());
}
