//! Render pipeline states, render pass operations and their enums.
//!
//! `Undefined` enum values get the defaults of the header (spec §4.3):
//! blend operation Add, factors One/Zero, topology TriangleList, front face
//! CCW, cull mode None, stencil compare Always, stencil operation Keep.
//! Unknown values are validation errors.

use wgpu_types as wgt;

use crate::abi::*;

/// Maps a C enum value through a table of `(C, wgpu)` pairs.
macro_rules! table {
    ($value:expr, $what:literal, $($c:expr => $w:expr),+ $(,)?) => {{
        let v = $value;
        $(if v == $c { return Ok($w); })+
        Err(format!(concat!("{:#x} is not a ", $what), v.0))
    }};
}

/// A vertex attribute format (`Undefined` is an error: it has no default).
pub(crate) fn vertex_format(f: WGPUVertexFormat) -> Result<wgt::VertexFormat, String> {
    use wgt::VertexFormat as V;
    use WGPUVertexFormat as W;
    table!(f, "WGPUVertexFormat",
        W::Uint8 => V::Uint8, W::Uint8x2 => V::Uint8x2, W::Uint8x4 => V::Uint8x4,
        W::Sint8 => V::Sint8, W::Sint8x2 => V::Sint8x2, W::Sint8x4 => V::Sint8x4,
        W::Unorm8 => V::Unorm8, W::Unorm8x2 => V::Unorm8x2, W::Unorm8x4 => V::Unorm8x4,
        W::Snorm8 => V::Snorm8, W::Snorm8x2 => V::Snorm8x2, W::Snorm8x4 => V::Snorm8x4,
        W::Uint16 => V::Uint16, W::Uint16x2 => V::Uint16x2, W::Uint16x4 => V::Uint16x4,
        W::Sint16 => V::Sint16, W::Sint16x2 => V::Sint16x2, W::Sint16x4 => V::Sint16x4,
        W::Unorm16 => V::Unorm16, W::Unorm16x2 => V::Unorm16x2, W::Unorm16x4 => V::Unorm16x4,
        W::Snorm16 => V::Snorm16, W::Snorm16x2 => V::Snorm16x2, W::Snorm16x4 => V::Snorm16x4,
        W::Float16 => V::Float16, W::Float16x2 => V::Float16x2, W::Float16x4 => V::Float16x4,
        W::Float32 => V::Float32, W::Float32x2 => V::Float32x2, W::Float32x3 => V::Float32x3,
        W::Float32x4 => V::Float32x4,
        W::Uint32 => V::Uint32, W::Uint32x2 => V::Uint32x2, W::Uint32x3 => V::Uint32x3, W::Uint32x4 => V::Uint32x4,
        W::Sint32 => V::Sint32, W::Sint32x2 => V::Sint32x2, W::Sint32x3 => V::Sint32x3, W::Sint32x4 => V::Sint32x4,
        W::Unorm10_10_10_2 => V::Unorm10_10_10_2, W::Unorm8x4BGRA => V::Unorm8x4Bgra,
    )
}

/// A vertex step mode. `None`: `Undefined` with no attributes, an unused
/// slot; `Undefined` with attributes defaults to Vertex.
pub(crate) fn step_mode(m: WGPUVertexStepMode, attribute_count: usize) -> Result<Option<wgt::VertexStepMode>, String> {
    match m {
        WGPUVertexStepMode::Undefined if attribute_count == 0 => Ok(None),
        WGPUVertexStepMode::Undefined | WGPUVertexStepMode::Vertex => Ok(Some(wgt::VertexStepMode::Vertex)),
        WGPUVertexStepMode::Instance => Ok(Some(wgt::VertexStepMode::Instance)),
        other => Err(format!("{:#x} is not a WGPUVertexStepMode", other.0)),
    }
}

/// An index format; `None` for `Undefined`.
pub(crate) fn index_format(f: WGPUIndexFormat) -> Result<Option<wgt::IndexFormat>, String> {
    match f {
        WGPUIndexFormat::Undefined => Ok(None),
        WGPUIndexFormat::Uint16 => Ok(Some(wgt::IndexFormat::Uint16)),
        WGPUIndexFormat::Uint32 => Ok(Some(wgt::IndexFormat::Uint32)),
        other => Err(format!("{:#x} is not a WGPUIndexFormat", other.0)),
    }
}

/// A primitive state, with the defaults for `Undefined` values.
pub(crate) fn primitive(p: &WGPUPrimitiveState) -> Result<wgt::PrimitiveState, String> {
    use wgt::PrimitiveTopology as T;
    use WGPUPrimitiveTopology as P;
    let topology = (|| {
        table!(p.topology, "WGPUPrimitiveTopology",
            P::Undefined => T::TriangleList, P::PointList => T::PointList, P::LineList => T::LineList,
            P::LineStrip => T::LineStrip, P::TriangleList => T::TriangleList, P::TriangleStrip => T::TriangleStrip,
        )
    })()
    .map_err(|e| format!("primitive.topology {e}"))?;
    let front_face = match p.frontFace {
        WGPUFrontFace::Undefined | WGPUFrontFace::CCW => wgt::FrontFace::Ccw,
        WGPUFrontFace::CW => wgt::FrontFace::Cw,
        other => return Err(format!("primitive.frontFace {:#x} is not a WGPUFrontFace", other.0)),
    };
    let cull_mode = match p.cullMode {
        WGPUCullMode::Undefined | WGPUCullMode::None => None,
        WGPUCullMode::Front => Some(wgt::Face::Front),
        WGPUCullMode::Back => Some(wgt::Face::Back),
        other => return Err(format!("primitive.cullMode {:#x} is not a WGPUCullMode", other.0)),
    };
    let strip_index_format = index_format(p.stripIndexFormat).map_err(|e| format!("primitive.stripIndexFormat {e}"))?;
    Ok(wgt::PrimitiveState {
        topology,
        strip_index_format,
        front_face,
        cull_mode,
        unclipped_depth: p.unclippedDepth != 0,
        polygon_mode: wgt::PolygonMode::Fill,
        conservative: false,
    })
}

/// A compare function; `None` for `Undefined`.
pub(crate) fn compare(f: WGPUCompareFunction) -> Result<Option<wgt::CompareFunction>, String> {
    use wgt::CompareFunction as C;
    use WGPUCompareFunction as W;
    if f == W::Undefined {
        return Ok(None);
    }
    let out = (|| {
        table!(f, "WGPUCompareFunction",
            W::Never => C::Never, W::Less => C::Less, W::Equal => C::Equal, W::LessEqual => C::LessEqual,
            W::Greater => C::Greater, W::NotEqual => C::NotEqual, W::GreaterEqual => C::GreaterEqual,
            W::Always => C::Always,
        )
    })()?;
    Ok(Some(out))
}

/// A stencil operation (`Undefined`: Keep).
fn stencil_op(o: WGPUStencilOperation) -> Result<wgt::StencilOperation, String> {
    use wgt::StencilOperation as S;
    use WGPUStencilOperation as W;
    table!(o, "WGPUStencilOperation",
        W::Undefined => S::Keep, W::Keep => S::Keep, W::Zero => S::Zero, W::Replace => S::Replace,
        W::Invert => S::Invert, W::IncrementClamp => S::IncrementClamp, W::DecrementClamp => S::DecrementClamp,
        W::IncrementWrap => S::IncrementWrap, W::DecrementWrap => S::DecrementWrap,
    )
}

/// A stencil face state (compare `Undefined`: Always).
fn stencil_face(s: &WGPUStencilFaceState, which: &str) -> Result<wgt::StencilFaceState, String> {
    let with = |e: String| format!("{which}: {e}");
    Ok(wgt::StencilFaceState {
        compare: compare(s.compare).map_err(with)?.unwrap_or(wgt::CompareFunction::Always),
        fail_op: stencil_op(s.failOp).map_err(with)?,
        depth_fail_op: stencil_op(s.depthFailOp).map_err(with)?,
        pass_op: stencil_op(s.passOp).map_err(with)?,
    })
}

/// A depth-stencil state. An `Undefined` format, depth compare or depth
/// write flag is left for wgpu-core to judge (they are required only for
/// some formats).
pub(crate) fn depth_stencil(d: &WGPUDepthStencilState) -> Result<wgt::DepthStencilState, String> {
    let format = super::format::texture_format(d.format)
        .ok_or_else(|| format!("depthStencil.format {:#x} is not a depth or stencil format", d.format.0))?;
    let depth_write_enabled = match d.depthWriteEnabled {
        WGPUOptionalBool::False => Some(false),
        WGPUOptionalBool::True => Some(true),
        WGPUOptionalBool::Undefined => None,
        other => return Err(format!("depthStencil.depthWriteEnabled {:#x} is not a WGPUOptionalBool", other.0)),
    };
    for (name, v) in [("depthBiasSlopeScale", d.depthBiasSlopeScale), ("depthBiasClamp", d.depthBiasClamp)] {
        if !v.is_finite() {
            return Err(format!("depthStencil.{name} has the non-finite value {v}"));
        }
    }
    Ok(wgt::DepthStencilState {
        format,
        depth_write_enabled,
        depth_compare: compare(d.depthCompare).map_err(|e| format!("depthStencil.depthCompare {e}"))?,
        stencil: wgt::StencilState {
            front: stencil_face(&d.stencilFront, "depthStencil.stencilFront")?,
            back: stencil_face(&d.stencilBack, "depthStencil.stencilBack")?,
            read_mask: d.stencilReadMask,
            write_mask: d.stencilWriteMask,
        },
        bias: wgt::DepthBiasState {
            constant: d.depthBias,
            slope_scale: d.depthBiasSlopeScale,
            clamp: d.depthBiasClamp,
        },
    })
}

/// A multisample state. Alpha to coverage needs more than one sample (the
/// standard; wgpu-core 30 accepts it with one).
pub(crate) fn multisample(m: &WGPUMultisampleState) -> Result<wgt::MultisampleState, String> {
    let alpha_to_coverage_enabled = m.alphaToCoverageEnabled != 0;
    if alpha_to_coverage_enabled && m.count <= 1 {
        return Err(format!(
            "multisample.alphaToCoverageEnabled needs a multisample.count above 1 (it is {})",
            m.count
        ));
    }
    Ok(wgt::MultisampleState { count: m.count, mask: u64::from(m.mask), alpha_to_coverage_enabled })
}

/// A blend factor (`Undefined`: `default`).
fn blend_factor(f: WGPUBlendFactor, default: wgt::BlendFactor) -> Result<wgt::BlendFactor, String> {
    use wgt::BlendFactor as B;
    use WGPUBlendFactor as W;
    if f == W::Undefined {
        return Ok(default);
    }
    table!(f, "WGPUBlendFactor",
        W::Zero => B::Zero, W::One => B::One, W::Src => B::Src, W::OneMinusSrc => B::OneMinusSrc,
        W::SrcAlpha => B::SrcAlpha, W::OneMinusSrcAlpha => B::OneMinusSrcAlpha, W::Dst => B::Dst,
        W::OneMinusDst => B::OneMinusDst, W::DstAlpha => B::DstAlpha, W::OneMinusDstAlpha => B::OneMinusDstAlpha,
        W::SrcAlphaSaturated => B::SrcAlphaSaturated, W::Constant => B::Constant,
        W::OneMinusConstant => B::OneMinusConstant, W::Src1 => B::Src1, W::OneMinusSrc1 => B::OneMinusSrc1,
        W::Src1Alpha => B::Src1Alpha, W::OneMinusSrc1Alpha => B::OneMinusSrc1Alpha,
    )
}

/// A blend component (operation Add, factors One/Zero by default).
fn blend_component(c: &WGPUBlendComponent) -> Result<wgt::BlendComponent, String> {
    use wgt::BlendOperation as O;
    use WGPUBlendOperation as W;
    let operation = (|| {
        table!(c.operation, "WGPUBlendOperation",
            W::Undefined => O::Add, W::Add => O::Add, W::Subtract => O::Subtract,
            W::ReverseSubtract => O::ReverseSubtract, W::Min => O::Min, W::Max => O::Max,
        )
    })()?;
    Ok(wgt::BlendComponent {
        src_factor: blend_factor(c.srcFactor, wgt::BlendFactor::One)?,
        dst_factor: blend_factor(c.dstFactor, wgt::BlendFactor::Zero)?,
        operation,
    })
}

/// A color target; `None` for a hole (format `Undefined`).
pub(crate) fn color_target(
    t: &WGPUColorTargetState,
    blend: Option<&WGPUBlendState>,
) -> Result<Option<wgt::ColorTargetState>, String> {
    if t.format == WGPUTextureFormat::Undefined {
        return Ok(None);
    }
    let format = super::format::texture_format(t.format)
        .ok_or_else(|| format!("format {:#x} is not a WGPUTextureFormat", t.format.0))?;
    if t.writeMask & !WGPUColorWriteMask_All != 0 {
        return Err(format!("writeMask {:#x} has unknown WGPUColorWriteMask bits", t.writeMask));
    }
    let blend = match blend {
        None => None,
        Some(b) => Some(wgt::BlendState {
            color: blend_component(&b.color).map_err(|e| format!("blend.color: {e}"))?,
            alpha: blend_component(&b.alpha).map_err(|e| format!("blend.alpha: {e}"))?,
        }),
    };
    // The mask bits are the same in webgpu.h and wgpu (R, G, B, A = 1, 2, 4, 8).
    let write_mask = wgt::ColorWrites::from_bits_truncate(t.writeMask as u32);
    Ok(Some(wgt::ColorTargetState { format, blend, write_mask }))
}

/// A load operation with its clear value; `Undefined` is an error.
pub(crate) fn load_op<V>(op: WGPULoadOp, clear: V) -> Result<wgt::LoadOp<V>, String> {
    match op {
        WGPULoadOp::Load => Ok(wgt::LoadOp::Load),
        WGPULoadOp::Clear => Ok(wgt::LoadOp::Clear(clear)),
        WGPULoadOp::Undefined => Err("loadOp is Undefined".to_string()),
        other => Err(format!("loadOp {:#x} is not a WGPULoadOp", other.0)),
    }
}

/// A store operation; `Undefined` is an error.
pub(crate) fn store_op(op: WGPUStoreOp) -> Result<wgt::StoreOp, String> {
    match op {
        WGPUStoreOp::Store => Ok(wgt::StoreOp::Store),
        WGPUStoreOp::Discard => Ok(wgt::StoreOp::Discard),
        WGPUStoreOp::Undefined => Err("storeOp is Undefined".to_string()),
        other => Err(format!("storeOp {:#x} is not a WGPUStoreOp", other.0)),
    }
}

/// A color (clear value, blend constant): every channel must be finite.
pub(crate) fn color(c: &WGPUColor) -> Result<wgt::Color, String> {
    for v in [c.r, c.g, c.b, c.a] {
        if !v.is_finite() {
            return Err(format!("color has the non-finite channel value {v}"));
        }
    }
    Ok(wgt::Color { r: c.r, g: c.g, b: c.b, a: c.a })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primitive_defaults() {
        let p = primitive(&WGPUPrimitiveState::default()).unwrap();
        assert_eq!(p.topology, wgt::PrimitiveTopology::TriangleList);
        assert_eq!(p.front_face, wgt::FrontFace::Ccw);
        assert_eq!(p.cull_mode, None);
        assert_eq!(p.strip_index_format, None);
        let bad = WGPUPrimitiveState { topology: WGPUPrimitiveTopology(99), ..Default::default() };
        assert!(primitive(&bad).unwrap_err().contains("topology"));
    }

    #[test]
    fn multisample_defaults() {
        let m = multisample(&WGPUMultisampleState::default()).unwrap();
        assert_eq!((m.count, m.mask, m.alpha_to_coverage_enabled), (1, 0xFFFF_FFFF, false));
        let a2c = |count| WGPUMultisampleState { count, alphaToCoverageEnabled: 1, ..Default::default() };
        assert!(multisample(&a2c(1)).unwrap_err().contains("alphaToCoverage"));
        assert!(multisample(&a2c(4)).unwrap().alpha_to_coverage_enabled);
    }

    #[test]
    fn blend_defaults_and_holes() {
        let t = WGPUColorTargetState {
            nextInChain: std::ptr::null_mut(),
            format: WGPUTextureFormat::Undefined,
            blend: std::ptr::null(),
            writeMask: WGPUColorWriteMask_All,
        };
        assert!(color_target(&t, None).unwrap().is_none());
        let t = WGPUColorTargetState { format: WGPUTextureFormat::RGBA8Unorm, ..t };
        let zero = WGPUBlendComponent {
            operation: WGPUBlendOperation::Undefined,
            srcFactor: WGPUBlendFactor::Undefined,
            dstFactor: WGPUBlendFactor::Undefined,
        };
        let b = WGPUBlendState { color: zero, alpha: zero };
        let out = color_target(&t, Some(&b)).unwrap().unwrap();
        assert_eq!(out.blend, Some(wgt::BlendState::REPLACE));
        assert_eq!(out.write_mask, wgt::ColorWrites::ALL);
        let t = WGPUColorTargetState { writeMask: 0x10, ..t };
        assert!(color_target(&t, None).is_err());
    }

    #[test]
    fn steps_formats_and_ops() {
        assert_eq!(step_mode(WGPUVertexStepMode::Undefined, 0), Ok(None));
        assert_eq!(step_mode(WGPUVertexStepMode::Undefined, 1), Ok(Some(wgt::VertexStepMode::Vertex)));
        assert!(step_mode(WGPUVertexStepMode(7), 0).is_err());
        assert_eq!(vertex_format(WGPUVertexFormat::Unorm8x4BGRA), Ok(wgt::VertexFormat::Unorm8x4Bgra));
        assert!(vertex_format(WGPUVertexFormat(0)).is_err());
        assert!(load_op(WGPULoadOp::Undefined, ()).is_err());
        assert!(store_op(WGPUStoreOp::Undefined).is_err());
        assert!(color(&WGPUColor { r: f64::NAN, g: 0.0, b: 0.0, a: 0.0 }).is_err());
        let face = stencil_face(&WGPUStencilFaceState::default(), "f").unwrap();
        assert_eq!(face, wgt::StencilFaceState::IGNORE);
    }
}
