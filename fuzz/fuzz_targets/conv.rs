//! Conversion of C input without a device: the library's readers of
//! `nextInChain` chains (for every struct that takes one), string views,
//! callback modes, enum and flag values, render-pipeline states, bind group
//! layout entries, limits and pipeline constants, run on C values built from
//! the bytes (wgpu_shim::fuzz_hooks). Fast, so it covers millions of inputs;
//! `conv_device` runs the whole descriptors through the C functions.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use wgpu_shim::fuzz_hooks as hooks;
use wgpu_shim_fuzz::*;

fn owners() -> &'static [&'static str] {
    static O: OnceLock<Vec<&'static str>> = OnceLock::new();
    O.get_or_init(hooks::chain_owners)
}

fn u32s<const N: usize>(b: &mut Bytes<'_>) -> [u32; N] {
    std::array::from_fn(|_| b.enum_u32(0x60))
}

fuzz_target!(|data: &[u8]| {
    init_process();
    let mut b = Bytes::new(data);
    let mut a = Arena::default();
    for _ in 0..16 {
        if b.is_empty() {
            break;
        }
        match b.u8() % 8 {
            0 | 1 => {
                let owner = owners()[usize::from(b.u8()) % owners().len()];
                let c = chain(&mut b, &mut a);
                // SAFETY: chain() builds valid links of 256 bytes each.
                unsafe { hooks::walk_chain(c, owner) };
            }
            2 => {
                let v = string_view(&mut b, &mut a);
                // SAFETY: string_view() points into the arena or is NULL.
                unsafe { hooks::string_view(v) };
            }
            3 => {
                let mode = WGPUCallbackMode(b.enum_u32(4));
                let c = chain(&mut b, &mut a);
                // SAFETY: as for walk_chain.
                unsafe { hooks::callback_mode(mode, c) };
            }
            4 => {
                let v = u32s::<12>(&mut b);
                hooks::enums(&v, if b.u8() < 200 { u64::from(b.u8()) } else { b.u64() });
            }
            5 => {
                let mut p: WGPUPrimitiveState = zeroed();
                p.nextInChain = chain(&mut b, &mut a);
                p.topology = WGPUPrimitiveTopology(b.enum_u32(6));
                p.stripIndexFormat = WGPUIndexFormat(b.enum_u32(3));
                p.frontFace = WGPUFrontFace(b.enum_u32(3));
                p.cullMode = WGPUCullMode(b.enum_u32(4));
                p.unclippedDepth = b.bool();
                let mut d: WGPUDepthStencilState = zeroed();
                d.nextInChain = chain(&mut b, &mut a);
                d.format = WGPUTextureFormat(b.enum_u32(0x60));
                d.depthWriteEnabled = WGPUOptionalBool(b.enum_u32(3));
                d.depthCompare = WGPUCompareFunction(b.enum_u32(9));
                d.stencilFront.compare = WGPUCompareFunction(b.enum_u32(9));
                d.stencilFront.failOp = WGPUStencilOperation(b.enum_u32(9));
                d.stencilFront.depthFailOp = WGPUStencilOperation(b.enum_u32(9));
                d.stencilFront.passOp = WGPUStencilOperation(b.enum_u32(9));
                d.stencilBack.compare = WGPUCompareFunction(b.enum_u32(9));
                d.stencilReadMask = b.u32();
                d.stencilWriteMask = b.u32();
                d.depthBias = b.u32() as i32;
                d.depthBiasSlopeScale = f32::from_bits(b.u32());
                d.depthBiasClamp = f32::from_bits(b.u32());
                let mut m: WGPUMultisampleState = zeroed();
                m.nextInChain = chain(&mut b, &mut a);
                m.count = b.enum_u32(8);
                m.mask = b.u32();
                m.alphaToCoverageEnabled = b.bool();
                let mut t: WGPUColorTargetState = zeroed();
                t.nextInChain = chain(&mut b, &mut a);
                t.format = WGPUTextureFormat(b.enum_u32(0x60));
                t.writeMask = if b.u8() < 200 { u64::from(b.u8() & 0x1f) } else { b.u64() };
                let mut blend: WGPUBlendState = zeroed();
                blend.color.operation = WGPUBlendOperation(b.enum_u32(6));
                blend.color.srcFactor = WGPUBlendFactor(b.enum_u32(0x12));
                blend.color.dstFactor = WGPUBlendFactor(b.enum_u32(0x12));
                blend.alpha.operation = WGPUBlendOperation(b.enum_u32(6));
                blend.alpha.srcFactor = WGPUBlendFactor(b.enum_u32(0x12));
                blend.alpha.dstFactor = WGPUBlendFactor(b.enum_u32(0x12));
                let c = WGPUColor {
                    r: f64::from_bits(b.u64()),
                    g: f64::from(b.u8()),
                    b: -1.0,
                    a: if b.u8() < 128 { 1.0 } else { f64::INFINITY },
                };
                let blend = if b.u8() < 128 { Some(&blend) } else { None };
                hooks::render_state(&p, &d, &m, &t, blend, &c);
            }
            6 => {
                let mut e: WGPUBindGroupLayoutEntry = zeroed();
                e.nextInChain = chain(&mut b, &mut a);
                e.binding = b.enum_u32(8);
                e.visibility = if b.u8() < 200 { u64::from(b.u8() & 0xf) } else { b.u64() };
                e.bindingArraySize = b.enum_u32(3);
                e.buffer.r#type = WGPUBufferBindingType(b.enum_u32(5));
                e.buffer.hasDynamicOffset = b.bool();
                e.buffer.minBindingSize = b.size();
                e.sampler.r#type = WGPUSamplerBindingType(b.enum_u32(5));
                e.texture.sampleType = WGPUTextureSampleType(b.enum_u32(7));
                e.texture.viewDimension = WGPUTextureViewDimension(b.enum_u32(7));
                e.texture.multisampled = b.bool();
                e.storageTexture.access = WGPUStorageTextureAccess(b.enum_u32(5));
                e.storageTexture.format = WGPUTextureFormat(b.enum_u32(0x60));
                e.storageTexture.viewDimension = WGPUTextureViewDimension(b.enum_u32(7));
                hooks::bgl_entry(&e, b.u8() > 200);
            }
            _ => {
                // Limits: every field from the bytes (0 and the "undefined"
                // all-ones value often), and constants.
                let mut l: WGPULimits = zeroed();
                l.nextInChain = chain(&mut b, &mut a);
                let fields = std::mem::size_of::<WGPULimits>() - std::mem::size_of::<*mut WGPUChainedStruct>();
                let raw = b.take(fields);
                let mut bytes = vec![0xffu8; fields];
                bytes[..raw.len()].copy_from_slice(raw);
                // SAFETY: WGPULimits after its chain pointer holds only
                // integers, for which any bytes are valid.
                unsafe {
                    let dst =
                        (&mut l as *mut WGPULimits).cast::<u8>().add(std::mem::size_of::<*mut WGPUChainedStruct>());
                    std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst, fields);
                }
                hooks::limits(&l);
                let keys = ["k", "", "0", "k\u{0}", "\u{fffd}"];
                let entries: Vec<(&str, f64)> =
                    (0..b.count(3)).map(|_| (keys[b.count(4)], f64::from_bits(b.u64()))).collect();
                hooks::constants(&entries);
            }
        }
    }
});
