//! Conversion of C input on a device: each input is a few descriptors (buffer, texture,
//! texture view, sampler, bind group layout, bind group, pipeline layout,
//! shader module, query set, command encoder with buffer commands, render
//! pass, compute and render pipeline, feature names), every field, string
//! view and `nextInChain` taken from the bytes, passed to the library's C
//! functions on one lavapipe device. The library must turn each into an
//! object or a validation error; a crash, an abort or a hang is a finding.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use wgpu_shim_fuzz::*;

/// Objects made once per process that descriptors refer to.
struct Fixed {
    gpu: Gpu,
    texture: WGPUTexture,
    view: WGPUTextureView,
    buffer: WGPUBuffer,
    module: WGPUShaderModule,
    bgl: WGPUBindGroupLayout,
}
// SAFETY: the handles are thread-safe objects of the library.
unsafe impl Send for Fixed {}
// SAFETY: as above.
unsafe impl Sync for Fixed {}

const WGSL: &str = "@group(0) @binding(0) var<storage, read_write> d: array<u32>;\n\
    override k: u32 = 1u;\n\
    @compute @workgroup_size(1) fn cs() { d[0] = k; }\n\
    @vertex fn vs(@location(0) p: vec4f) -> @builtin(position) vec4f { return p; }\n\
    @fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }\n";

fn fixed() -> &'static Fixed {
    static F: OnceLock<Fixed> = OnceLock::new();
    F.get_or_init(|| {
        let gpu = make_gpu();
        let mut td: WGPUTextureDescriptor = zeroed();
        td.label = WGPU_STRING_VIEW_INIT;
        td.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopySrc;
        td.dimension = WGPUTextureDimension::_2D;
        td.size = WGPUExtent3D { width: 16, height: 16, depthOrArrayLayers: 1 };
        td.format = WGPUTextureFormat::RGBA8Unorm;
        td.mipLevelCount = 2;
        td.sampleCount = 1;
        let mut bd: WGPUBufferDescriptor = zeroed();
        bd.label = WGPU_STRING_VIEW_INIT;
        bd.usage = WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst | WGPUBufferUsage_Storage;
        bd.size = 1024;
        let mut wgsl: WGPUShaderSourceWGSL = zeroed();
        wgsl.chain.sType = WGPUSType::ShaderSourceWGSL;
        wgsl.code = WGPUStringView { data: WGSL.as_ptr().cast(), length: WGSL.len() };
        let mut sd: WGPUShaderModuleDescriptor = zeroed();
        sd.nextInChain = &mut wgsl.chain;
        sd.label = WGPU_STRING_VIEW_INIT;
        let mut entry: WGPUBindGroupLayoutEntry = zeroed();
        entry.binding = 0;
        entry.visibility = WGPUShaderStage_Compute;
        entry.buffer.r#type = WGPUBufferBindingType::Storage;
        let mut bgld: WGPUBindGroupLayoutDescriptor = zeroed();
        bgld.label = WGPU_STRING_VIEW_INIT;
        bgld.entryCount = 1;
        bgld.entries = &entry;
        // SAFETY: valid descriptors on a live device.
        unsafe {
            let texture = wgpuDeviceCreateTexture(gpu.device, &td);
            let view = wgpuTextureCreateView(texture, std::ptr::null());
            let buffer = wgpuDeviceCreateBuffer(gpu.device, &bd);
            let module = wgpuDeviceCreateShaderModule(gpu.device, &sd);
            let bgl = wgpuDeviceCreateBindGroupLayout(gpu.device, &bgld);
            Fixed { gpu, texture, view, buffer, module, bgl }
        }
    })
}

fn texture_format(b: &mut Bytes<'_>) -> WGPUTextureFormat {
    WGPUTextureFormat(b.enum_u32(0x60))
}

fn constants(b: &mut Bytes<'_>, a: &mut Arena) -> (usize, *const WGPUConstantEntry) {
    let n = b.count(3);
    let mut v = Vec::new();
    for _ in 0..n {
        let mut c: WGPUConstantEntry = zeroed();
        c.nextInChain = chain(b, a);
        c.key = if b.u8() < 128 { WGPUStringView { data: "k".as_ptr().cast(), length: 1 } } else { string_view(b, a) };
        c.value = f64::from_bits(b.u64());
        v.push(c);
    }
    (v.len(), a.slice(&v))
}

fn entry_point(b: &mut Bytes<'_>, a: &mut Arena, good: &'static str) -> WGPUStringView {
    match b.u8() % 4 {
        0 | 1 => WGPUStringView { data: good.as_ptr().cast(), length: good.len() },
        2 => WGPU_STRING_VIEW_INIT,
        _ => string_view(b, a),
    }
}

/// One descriptor from the bytes, created and released.
unsafe fn one(f: &Fixed, b: &mut Bytes<'_>, a: &mut Arena) {
    let dev = f.gpu.device;
    match b.u8() % 14 {
        0 => {
            let mut d: WGPUBufferDescriptor = zeroed();
            d.nextInChain = chain(b, a);
            d.label = string_view(b, a);
            d.usage = if b.u8() < 200 { u64::from(b.u16() & 0x3ff) } else { b.u64() };
            d.size = b.size().min(if b.u8() < 250 { 1 << 20 } else { u64::MAX });
            d.mappedAtCreation = b.bool();
            let buf = wgpuDeviceCreateBuffer(dev, &d);
            if !buf.is_null() {
                let _ = wgpuBufferGetMapState(buf);
                let _ = wgpuBufferGetSize(buf);
                let _ = wgpuBufferGetMappedRange(buf, b.size() as usize, b.size() as usize);
                if b.bool() != 0 {
                    wgpuBufferUnmap(buf);
                }
                wgpuBufferRelease(buf);
            }
        }
        1 => {
            let mut d: WGPUTextureDescriptor = zeroed();
            d.nextInChain = chain(b, a);
            d.label = string_view(b, a);
            d.usage = if b.u8() < 200 { u64::from(b.u8() & 0x7f) } else { b.u64() };
            d.dimension = WGPUTextureDimension(b.enum_u32(4));
            let dim = |b: &mut Bytes<'_>| if b.u8() < 240 { u32::from(b.u8() % 40) } else { b.u32() };
            d.size = WGPUExtent3D { width: dim(b), height: dim(b), depthOrArrayLayers: dim(b) };
            d.format = texture_format(b);
            d.mipLevelCount = b.enum_u32(8);
            d.sampleCount = b.enum_u32(8);
            let views: Vec<WGPUTextureFormat> = (0..b.count(3)).map(|_| texture_format(b)).collect();
            d.viewFormatCount = views.len();
            d.viewFormats = a.slice(&views);
            if b.u8() > 240 {
                d.viewFormats = std::ptr::null();
            }
            let t = wgpuDeviceCreateTexture(dev, &d);
            if !t.is_null() {
                if b.bool() != 0 {
                    let v = wgpuTextureCreateView(t, std::ptr::null());
                    wgpuTextureViewRelease(v);
                }
                if b.bool() != 0 {
                    wgpuTextureDestroy(t);
                }
                wgpuTextureRelease(t);
            }
        }
        2 => {
            let mut d: WGPUTextureViewDescriptor = zeroed();
            d.nextInChain = chain(b, a);
            d.label = string_view(b, a);
            d.format = texture_format(b);
            d.dimension = WGPUTextureViewDimension(b.enum_u32(7));
            d.baseMipLevel = b.enum_u32(3);
            d.mipLevelCount = if b.u8() < 128 { u32::MAX } else { b.enum_u32(3) };
            d.baseArrayLayer = b.enum_u32(3);
            d.arrayLayerCount = if b.u8() < 128 { u32::MAX } else { b.enum_u32(3) };
            d.aspect = WGPUTextureAspect(b.enum_u32(4));
            d.usage = if b.u8() < 200 { u64::from(b.u8() & 0x7f) } else { b.u64() };
            let v = wgpuTextureCreateView(f.texture, &d);
            if !v.is_null() {
                wgpuTextureViewRelease(v);
            }
        }
        3 => {
            let mut d: WGPUSamplerDescriptor = zeroed();
            d.nextInChain = chain(b, a);
            d.label = string_view(b, a);
            d.addressModeU = WGPUAddressMode(b.enum_u32(4));
            d.addressModeV = WGPUAddressMode(b.enum_u32(4));
            d.addressModeW = WGPUAddressMode(b.enum_u32(4));
            d.magFilter = WGPUFilterMode(b.enum_u32(3));
            d.minFilter = WGPUFilterMode(b.enum_u32(3));
            d.mipmapFilter = WGPUMipmapFilterMode(b.enum_u32(3));
            d.lodMinClamp = if b.u8() < 128 { f32::from(b.u8()) } else { f32::from_bits(b.u32()) };
            d.lodMaxClamp = if b.u8() < 128 { f32::from(b.u8()) } else { f32::from_bits(b.u32()) };
            d.compare = WGPUCompareFunction(b.enum_u32(9));
            d.maxAnisotropy = if b.u8() < 200 { u16::from(b.u8() % 20) } else { b.u16() };
            let s = wgpuDeviceCreateSampler(dev, &d);
            if !s.is_null() {
                wgpuSamplerRelease(s);
            }
        }
        4 => {
            let mut entries = Vec::new();
            for _ in 0..b.count(5) {
                let mut e: WGPUBindGroupLayoutEntry = zeroed();
                e.nextInChain = chain(b, a);
                e.binding = b.enum_u32(8);
                e.visibility = u64::from(b.u8() & 0xf);
                e.bindingArraySize = b.enum_u32(3);
                match b.u8() % 5 {
                    0 => {
                        e.buffer.r#type = WGPUBufferBindingType(b.enum_u32(5));
                        e.buffer.hasDynamicOffset = b.bool();
                        e.buffer.minBindingSize = b.size();
                    }
                    1 => e.sampler.r#type = WGPUSamplerBindingType(b.enum_u32(5)),
                    2 => {
                        e.texture.sampleType = WGPUTextureSampleType(b.enum_u32(7));
                        e.texture.viewDimension = WGPUTextureViewDimension(b.enum_u32(7));
                        e.texture.multisampled = b.bool();
                    }
                    3 => {
                        e.storageTexture.access = WGPUStorageTextureAccess(b.enum_u32(5));
                        e.storageTexture.format = texture_format(b);
                        e.storageTexture.viewDimension = WGPUTextureViewDimension(b.enum_u32(7));
                    }
                    _ => {
                        // Two kinds at once (invalid).
                        e.buffer.r#type = WGPUBufferBindingType(b.enum_u32(5));
                        e.sampler.r#type = WGPUSamplerBindingType(b.enum_u32(5));
                    }
                }
                entries.push(e);
            }
            let mut d: WGPUBindGroupLayoutDescriptor = zeroed();
            d.nextInChain = chain(b, a);
            d.label = string_view(b, a);
            d.entryCount = entries.len();
            d.entries = a.slice(&entries);
            let l = wgpuDeviceCreateBindGroupLayout(dev, &d);
            if !l.is_null() {
                wgpuBindGroupLayoutRelease(l);
            }
        }
        5 => {
            let mut entries = Vec::new();
            for _ in 0..b.count(3) {
                let mut e: WGPUBindGroupEntry = zeroed();
                e.nextInChain = chain(b, a);
                e.binding = b.enum_u32(3);
                if b.u8() < 200 {
                    e.buffer = f.buffer;
                }
                e.offset = b.size();
                e.size = b.size();
                if b.u8() > 200 {
                    e.textureView = f.view;
                }
                entries.push(e);
            }
            let mut d: WGPUBindGroupDescriptor = zeroed();
            d.nextInChain = chain(b, a);
            d.label = string_view(b, a);
            d.layout = if b.u8() < 240 { f.bgl } else { std::ptr::null_mut() };
            d.entryCount = entries.len();
            d.entries = a.slice(&entries);
            let g = wgpuDeviceCreateBindGroup(dev, &d);
            if !g.is_null() {
                wgpuBindGroupRelease(g);
            }
        }
        6 => {
            let layouts: Vec<WGPUBindGroupLayout> =
                (0..b.count(5)).map(|_| if b.u8() < 230 { f.bgl } else { std::ptr::null_mut() }).collect();
            let mut d: WGPUPipelineLayoutDescriptor = zeroed();
            d.nextInChain = chain(b, a);
            d.label = string_view(b, a);
            d.bindGroupLayoutCount = layouts.len();
            d.bindGroupLayouts = a.slice(&layouts);
            d.immediateSize = if b.u8() < 200 { 0 } else { b.u32() };
            let l = wgpuDeviceCreatePipelineLayout(dev, &d);
            if !l.is_null() {
                wgpuPipelineLayoutRelease(l);
            }
        }
        7 => {
            // A shader module: the chain carries the source (WGSL of a few
            // fuzzed bytes, a zeroed SPIR-V or GLSL link, or none).
            let mut d: WGPUShaderModuleDescriptor = zeroed();
            d.nextInChain = chain(b, a);
            d.label = string_view(b, a);
            let m = wgpuDeviceCreateShaderModule(dev, &d);
            if !m.is_null() {
                wgpuShaderModuleRelease(m);
            }
        }
        8 => {
            let mut d: WGPUQuerySetDescriptor = zeroed();
            d.nextInChain = chain(b, a);
            d.label = string_view(b, a);
            d.r#type = WGPUQueryType(b.enum_u32(3));
            d.count = if b.u8() < 200 { u32::from(b.u8()) } else { b.u32() };
            let q = wgpuDeviceCreateQuerySet(dev, &d);
            if !q.is_null() {
                wgpuQuerySetRelease(q);
            }
        }
        9 => {
            let mut d: WGPUCommandEncoderDescriptor = zeroed();
            d.nextInChain = chain(b, a);
            d.label = string_view(b, a);
            let e = wgpuDeviceCreateCommandEncoder(dev, &d);
            if e.is_null() {
                return;
            }
            for _ in 0..b.count(3) {
                if b.u8() < 128 {
                    wgpuCommandEncoderClearBuffer(e, f.buffer, b.size(), b.size());
                } else {
                    wgpuCommandEncoderCopyBufferToBuffer(e, f.buffer, b.size(), f.buffer, b.size(), b.size());
                }
            }
            let mut cd: WGPUCommandBufferDescriptor = zeroed();
            cd.nextInChain = chain(b, a);
            cd.label = string_view(b, a);
            let cb = wgpuCommandEncoderFinish(e, &cd);
            if !cb.is_null() {
                if b.bool() != 0 {
                    wgpuQueueSubmit(f.gpu.queue, 1, &cb);
                }
                wgpuCommandBufferRelease(cb);
            }
            wgpuCommandEncoderRelease(e);
        }
        10 => {
            let mut atts = Vec::new();
            for _ in 0..b.count(2) {
                let mut c: WGPURenderPassColorAttachment = zeroed();
                c.nextInChain = chain(b, a);
                c.view = if b.u8() < 220 { f.view } else { std::ptr::null_mut() };
                c.depthSlice = if b.u8() < 200 { u32::MAX } else { b.u32() };
                c.loadOp = WGPULoadOp(b.enum_u32(3));
                c.storeOp = WGPUStoreOp(b.enum_u32(3));
                c.clearValue = WGPUColor {
                    r: f64::from_bits(b.u64()),
                    g: f64::from(b.u8()),
                    b: 0.5,
                    a: if b.u8() < 128 { 1.0 } else { f64::NAN },
                };
                atts.push(c);
            }
            let mut d: WGPURenderPassDescriptor = zeroed();
            d.nextInChain = chain(b, a);
            d.label = string_view(b, a);
            d.colorAttachmentCount = atts.len();
            d.colorAttachments = a.slice(&atts);
            let e = wgpuDeviceCreateCommandEncoder(dev, std::ptr::null());
            if e.is_null() {
                return;
            }
            let p = wgpuCommandEncoderBeginRenderPass(e, &d);
            if !p.is_null() {
                wgpuRenderPassEncoderEnd(p);
                wgpuRenderPassEncoderRelease(p);
            }
            let cb = wgpuCommandEncoderFinish(e, std::ptr::null());
            if !cb.is_null() {
                wgpuCommandBufferRelease(cb);
            }
            wgpuCommandEncoderRelease(e);
        }
        11 => {
            let mut d: WGPUComputePipelineDescriptor = zeroed();
            d.nextInChain = chain(b, a);
            d.label = string_view(b, a);
            d.compute.nextInChain = chain(b, a);
            d.compute.module = if b.u8() < 240 { f.module } else { std::ptr::null_mut() };
            d.compute.entryPoint = entry_point(b, a, "cs");
            (d.compute.constantCount, d.compute.constants) = constants(b, a);
            let p = wgpuDeviceCreateComputePipeline(dev, &d);
            if !p.is_null() {
                wgpuComputePipelineRelease(p);
            }
        }
        12 => {
            let mut attrs = Vec::new();
            for _ in 0..b.count(2) {
                let mut at: WGPUVertexAttribute = zeroed();
                at.nextInChain = chain(b, a);
                at.format = WGPUVertexFormat(b.enum_u32(0x2a));
                at.offset = b.size();
                at.shaderLocation = b.enum_u32(3);
                attrs.push(at);
            }
            let mut vbl: WGPUVertexBufferLayout = zeroed();
            vbl.nextInChain = chain(b, a);
            vbl.stepMode = WGPUVertexStepMode(b.enum_u32(3));
            vbl.arrayStride = b.size();
            vbl.attributeCount = attrs.len();
            vbl.attributes = a.slice(&attrs);
            let mut blend: WGPUBlendState = zeroed();
            blend.color.operation = WGPUBlendOperation(b.enum_u32(6));
            blend.color.srcFactor = WGPUBlendFactor(b.enum_u32(0x12));
            blend.color.dstFactor = WGPUBlendFactor(b.enum_u32(0x12));
            blend.alpha = blend.color;
            let mut target: WGPUColorTargetState = zeroed();
            target.nextInChain = chain(b, a);
            target.format = if b.u8() < 128 { WGPUTextureFormat::RGBA8Unorm } else { texture_format(b) };
            target.blend = if b.u8() < 128 { std::ptr::null() } else { a.slice(&[blend]) };
            target.writeMask = u64::from(b.u8() & 0x1f);
            let mut frag: WGPUFragmentState = zeroed();
            frag.nextInChain = chain(b, a);
            frag.module = f.module;
            frag.entryPoint = entry_point(b, a, "fs");
            (frag.constantCount, frag.constants) = constants(b, a);
            frag.targetCount = b.count(2);
            frag.targets = a.slice(&[target, target]);
            let mut ds: WGPUDepthStencilState = zeroed();
            ds.nextInChain = chain(b, a);
            ds.format = texture_format(b);
            ds.depthWriteEnabled = WGPUOptionalBool(b.enum_u32(3));
            ds.depthCompare = WGPUCompareFunction(b.enum_u32(9));
            ds.stencilFront.compare = WGPUCompareFunction(b.enum_u32(9));
            ds.stencilFront.failOp = WGPUStencilOperation(b.enum_u32(9));
            ds.stencilBack = ds.stencilFront;
            ds.stencilReadMask = b.u32();
            ds.depthBias = b.u32() as i32;
            ds.depthBiasSlopeScale = f32::from_bits(b.u32());
            let mut d: WGPURenderPipelineDescriptor = zeroed();
            d.nextInChain = chain(b, a);
            d.label = string_view(b, a);
            d.vertex.nextInChain = chain(b, a);
            d.vertex.module = if b.u8() < 240 { f.module } else { std::ptr::null_mut() };
            d.vertex.entryPoint = entry_point(b, a, "vs");
            (d.vertex.constantCount, d.vertex.constants) = constants(b, a);
            d.vertex.bufferCount = b.count(1);
            d.vertex.buffers = a.slice(&[vbl]);
            d.primitive.nextInChain = chain(b, a);
            d.primitive.topology = WGPUPrimitiveTopology(b.enum_u32(6));
            d.primitive.stripIndexFormat = WGPUIndexFormat(b.enum_u32(3));
            d.primitive.frontFace = WGPUFrontFace(b.enum_u32(3));
            d.primitive.cullMode = WGPUCullMode(b.enum_u32(4));
            d.primitive.unclippedDepth = b.bool();
            d.depthStencil = if b.u8() < 180 { std::ptr::null() } else { a.slice(&[ds]) };
            d.multisample.nextInChain = chain(b, a);
            d.multisample.count = b.enum_u32(4);
            d.multisample.mask = if b.u8() < 200 { u32::MAX } else { b.u32() };
            d.multisample.alphaToCoverageEnabled = b.bool();
            d.fragment = if b.u8() < 40 { std::ptr::null() } else { a.slice(&[frag]) };
            let p = wgpuDeviceCreateRenderPipeline(dev, &d);
            if !p.is_null() {
                wgpuRenderPipelineRelease(p);
            }
        }
        _ => {
            let name = WGPUFeatureName(if b.u8() < 200 { u32::from(b.u8()) } else { b.u32() });
            let _ = wgpuAdapterHasFeature(f.gpu.adapter, name);
            let _ = wgpuDeviceHasFeature(dev, name);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let f = fixed();
    let mut b = Bytes::new(data);
    let mut arena = Arena::default();
    for _ in 0..8 {
        if b.is_empty() {
            break;
        }
        // SAFETY: every pointer in the descriptors points into `arena`, into
        // static data, or is NULL, and lives until the call returns.
        unsafe { one(f, &mut b, &mut arena) };
    }
    // Let wgpu-core free what the input's submissions held.
    // SAFETY: a live device.
    unsafe { wgpuDevicePoll(f.gpu.device, 0, std::ptr::null()) };
});
