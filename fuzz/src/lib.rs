//! Shared parts of the fuzz targets: the C functions they call, a reader of
//! the fuzzer's bytes, the builders of string views and chains, and the one
//! lavapipe device every input runs on.
#![allow(non_snake_case, clippy::missing_safety_doc)]

use std::collections::HashSet;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

pub use wgpu_shim::abi::*;

pub mod api_seq;

// The library's C functions (the rlib holds their `#[no_mangle]` symbols).
extern "C" {
    pub fn wgpuCreateInstance(desc: *const WGPUInstanceDescriptor) -> WGPUInstance;
    pub fn wgpuInstanceRequestAdapter(
        instance: WGPUInstance,
        options: *const WGPURequestAdapterOptions,
        info: WGPURequestAdapterCallbackInfo,
    ) -> WGPUFuture;
    pub fn wgpuAdapterRequestDevice(
        adapter: WGPUAdapter,
        desc: *const WGPUDeviceDescriptor,
        info: WGPURequestDeviceCallbackInfo,
    ) -> WGPUFuture;
    pub fn wgpuInstanceWaitAny(
        instance: WGPUInstance,
        count: usize,
        futures: *mut WGPUFutureWaitInfo,
        timeout_ns: u64,
    ) -> WGPUWaitStatus;
    pub fn wgpuInstanceProcessEvents(instance: WGPUInstance);
    pub fn wgpuInstanceRelease(instance: WGPUInstance);
    pub fn wgpuAdapterRelease(adapter: WGPUAdapter);
    pub fn wgpuAdapterHasFeature(adapter: WGPUAdapter, feature: WGPUFeatureName) -> WGPUBool;
    pub fn wgpuDeviceHasFeature(device: WGPUDevice, feature: WGPUFeatureName) -> WGPUBool;
    pub fn wgpuDeviceGetQueue(device: WGPUDevice) -> WGPUQueue;
    pub fn wgpuDeviceDestroy(device: WGPUDevice);
    pub fn wgpuDeviceRelease(device: WGPUDevice);
    pub fn wgpuDevicePoll(device: WGPUDevice, wait: WGPUBool, index: *const u64) -> WGPUBool;
    pub fn wgpuDeviceCreateBuffer(device: WGPUDevice, desc: *const WGPUBufferDescriptor) -> WGPUBuffer;
    pub fn wgpuDeviceCreateTexture(device: WGPUDevice, desc: *const WGPUTextureDescriptor) -> WGPUTexture;
    pub fn wgpuDeviceCreateSampler(device: WGPUDevice, desc: *const WGPUSamplerDescriptor) -> WGPUSampler;
    pub fn wgpuDeviceCreateBindGroupLayout(
        device: WGPUDevice,
        desc: *const WGPUBindGroupLayoutDescriptor,
    ) -> WGPUBindGroupLayout;
    pub fn wgpuDeviceCreateBindGroup(device: WGPUDevice, desc: *const WGPUBindGroupDescriptor) -> WGPUBindGroup;
    pub fn wgpuDeviceCreatePipelineLayout(
        device: WGPUDevice,
        desc: *const WGPUPipelineLayoutDescriptor,
    ) -> WGPUPipelineLayout;
    pub fn wgpuDeviceCreateShaderModule(
        device: WGPUDevice,
        desc: *const WGPUShaderModuleDescriptor,
    ) -> WGPUShaderModule;
    pub fn wgpuDeviceCreateQuerySet(device: WGPUDevice, desc: *const WGPUQuerySetDescriptor) -> WGPUQuerySet;
    pub fn wgpuDeviceCreateCommandEncoder(
        device: WGPUDevice,
        desc: *const WGPUCommandEncoderDescriptor,
    ) -> WGPUCommandEncoder;
    pub fn wgpuDeviceCreateComputePipeline(
        device: WGPUDevice,
        desc: *const WGPUComputePipelineDescriptor,
    ) -> WGPUComputePipeline;
    pub fn wgpuDeviceCreateRenderPipeline(
        device: WGPUDevice,
        desc: *const WGPURenderPipelineDescriptor,
    ) -> WGPURenderPipeline;
    pub fn wgpuTextureCreateView(texture: WGPUTexture, desc: *const WGPUTextureViewDescriptor) -> WGPUTextureView;
    pub fn wgpuTextureRelease(texture: WGPUTexture);
    pub fn wgpuTextureDestroy(texture: WGPUTexture);
    pub fn wgpuTextureViewRelease(view: WGPUTextureView);
    pub fn wgpuSamplerRelease(sampler: WGPUSampler);
    pub fn wgpuBindGroupLayoutRelease(bgl: WGPUBindGroupLayout);
    pub fn wgpuBindGroupRelease(bg: WGPUBindGroup);
    pub fn wgpuPipelineLayoutRelease(layout: WGPUPipelineLayout);
    pub fn wgpuShaderModuleRelease(module: WGPUShaderModule);
    pub fn wgpuQuerySetRelease(set: WGPUQuerySet);
    pub fn wgpuComputePipelineRelease(p: WGPUComputePipeline);
    pub fn wgpuRenderPipelineRelease(p: WGPURenderPipeline);
    pub fn wgpuCommandEncoderRelease(e: WGPUCommandEncoder);
    pub fn wgpuCommandEncoderFinish(
        e: WGPUCommandEncoder,
        desc: *const WGPUCommandBufferDescriptor,
    ) -> WGPUCommandBuffer;
    pub fn wgpuCommandEncoderClearBuffer(e: WGPUCommandEncoder, buffer: WGPUBuffer, offset: u64, size: u64);
    pub fn wgpuCommandEncoderCopyBufferToBuffer(
        e: WGPUCommandEncoder,
        src: WGPUBuffer,
        src_offset: u64,
        dst: WGPUBuffer,
        dst_offset: u64,
        size: u64,
    );
    pub fn wgpuCommandEncoderBeginRenderPass(
        e: WGPUCommandEncoder,
        desc: *const WGPURenderPassDescriptor,
    ) -> WGPURenderPassEncoder;
    pub fn wgpuRenderPassEncoderEnd(p: WGPURenderPassEncoder);
    pub fn wgpuRenderPassEncoderRelease(p: WGPURenderPassEncoder);
    pub fn wgpuCommandBufferRelease(c: WGPUCommandBuffer);
    pub fn wgpuQueueSubmit(queue: WGPUQueue, count: usize, commands: *const WGPUCommandBuffer);
    pub fn wgpuQueueWriteBuffer(queue: WGPUQueue, buffer: WGPUBuffer, offset: u64, data: *const c_void, size: usize);
    pub fn wgpuQueueOnSubmittedWorkDone(queue: WGPUQueue, info: WGPUQueueWorkDoneCallbackInfo) -> WGPUFuture;
    pub fn wgpuQueueRelease(queue: WGPUQueue);
    pub fn wgpuBufferMapAsync(
        buffer: WGPUBuffer,
        mode: WGPUMapMode,
        offset: usize,
        size: usize,
        info: WGPUBufferMapCallbackInfo,
    ) -> WGPUFuture;
    pub fn wgpuBufferGetMappedRange(buffer: WGPUBuffer, offset: usize, size: usize) -> *mut c_void;
    pub fn wgpuBufferGetConstMappedRange(buffer: WGPUBuffer, offset: usize, size: usize) -> *const c_void;
    pub fn wgpuBufferGetMapState(buffer: WGPUBuffer) -> WGPUBufferMapState;
    pub fn wgpuBufferGetSize(buffer: WGPUBuffer) -> u64;
    pub fn wgpuBufferUnmap(buffer: WGPUBuffer);
    pub fn wgpuBufferDestroy(buffer: WGPUBuffer);
    pub fn wgpuBufferAddRef(buffer: WGPUBuffer);
    pub fn wgpuBufferRelease(buffer: WGPUBuffer);
    pub fn wgpuDevicePushErrorScope(device: WGPUDevice, filter: WGPUErrorFilter);
    pub fn wgpuDevicePopErrorScope(device: WGPUDevice, info: WGPUPopErrorScopeCallbackInfo) -> WGPUFuture;
}

/// Reads the fuzzer's bytes; past the end every read gives zeros.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, pos: 0 }
    }
    pub fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }
    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
    pub fn u16(&mut self) -> u16 {
        u16::from(self.u8()) | (u16::from(self.u8()) << 8)
    }
    pub fn u32(&mut self) -> u32 {
        u32::from(self.u16()) | (u32::from(self.u16()) << 16)
    }
    pub fn u64(&mut self) -> u64 {
        u64::from(self.u32()) | (u64::from(self.u32()) << 32)
    }
    pub fn bool(&mut self) -> u32 {
        // Mostly 0 or 1; sometimes another value (any non-zero WGPUBool).
        match self.u8() {
            0..=119 => 0,
            120..=239 => 1,
            b => u32::from(b),
        }
    }
    /// A small enum value most of the time, any u32 sometimes.
    pub fn enum_u32(&mut self, max: u32) -> u32 {
        let b = self.u8();
        if b < 240 {
            u32::from(b) % (max + 1)
        } else {
            self.u32()
        }
    }
    /// A count up to `max`.
    pub fn count(&mut self, max: usize) -> usize {
        usize::from(self.u8()) % (max + 1)
    }
    /// A size or offset: small, aligned, near a limit, or anything.
    pub fn size(&mut self) -> u64 {
        match self.u8() % 8 {
            0 => 0,
            1..=3 => u64::from(self.u16() & 0x0ff0),
            4 => u64::from(self.u16()),
            5 => u64::MAX,
            6 => (1u64 << (self.u8() % 64)).wrapping_add(u64::from(self.u8() % 3)).wrapping_sub(1),
            _ => self.u64(),
        }
    }
    /// The next `n` bytes (fewer at the end).
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let start = self.pos.min(self.data.len());
        let end = start.saturating_add(n).min(self.data.len());
        self.pos = end;
        &self.data[start..end]
    }
}

/// Memory an input's descriptors point into; freed when the input is done.
#[derive(Default)]
pub struct Arena {
    blocks: Vec<Box<[u64]>>,
}

impl Arena {
    /// A zeroed, 8-aligned block of `bytes` bytes (at least 8).
    pub fn block(&mut self, bytes: usize) -> *mut u8 {
        let mut b = vec![0u64; bytes.div_ceil(8).max(1)].into_boxed_slice();
        let p = b.as_mut_ptr().cast::<u8>();
        self.blocks.push(b);
        p
    }
    /// A copy of `items` that lives as long as the arena.
    pub fn slice<T: Copy>(&mut self, items: &[T]) -> *const T {
        if items.is_empty() {
            return std::ptr::null();
        }
        let p = self.block(std::mem::size_of_val(items)).cast::<T>();
        // SAFETY: the block is fresh, 8-aligned (enough for every T used
        // here) and `size_of_val(items)` bytes long.
        unsafe { std::ptr::copy_nonoverlapping(items.as_ptr(), p, items.len()) };
        p
    }
}

/// A string view built from the bytes: NULL ones, the null string, an
/// explicit length (any bytes, not always UTF-8), a NUL-terminated string,
/// or NULL with a length (which the library must refuse, not read).
pub fn string_view(b: &mut Bytes<'_>, arena: &mut Arena) -> WGPUStringView {
    match b.u8() % 6 {
        0 => WGPUStringView { data: std::ptr::null(), length: 0 },
        1 => WGPU_STRING_VIEW_INIT,
        2 | 3 => {
            let n = b.count(24);
            let s = b.take(n).to_vec();
            let len = s.len();
            WGPUStringView { data: arena.slice(&s).cast(), length: if len == 0 { 0 } else { len } }
        }
        4 => {
            let n = b.count(24);
            let mut s: Vec<u8> = b.take(n).iter().map(|&c| if c == 0 { b'x' } else { c }).collect();
            s.push(0);
            WGPUStringView { data: arena.slice(&s).cast(), length: WGPU_STRLEN }
        }
        _ => WGPUStringView { data: std::ptr::null(), length: usize::from(b.u8()) + 1 },
    }
}

/// sTypes whose structs hold only scalars after the header: their payload
/// is filled from the bytes. Every other sType gets a zeroed payload (NULL
/// pointers, zero counts), as a C caller's `_INIT` would give.
const SCALAR_STYPES: &[u32] =
    &[0x03, 0x0A, 0x0B, 0x0C, 0x0D, 0x0F, 0x10, 0x0003_0002, 0x0003_0006, 0x0003_0008, 0x0003_000A, 0x0003_000B];

/// sTypes the chains pick from: every standard one, wgpu.h's, and a few
/// that exist in neither.
const STYPES: &[u32] = &[
    0x01,
    0x02,
    0x03,
    0x04,
    0x05,
    0x06,
    0x07,
    0x08,
    0x09,
    0x0A,
    0x0B,
    0x0C,
    0x0D,
    0x0E,
    0x0F,
    0x10,
    0x11,
    0x0003_0001,
    0x0003_0002,
    0x0003_0003,
    0x0003_0004,
    0x0003_0005,
    0x0003_0006,
    0x0003_0007,
    0x0003_0008,
    0x0003_0009,
    0x0003_000A,
    0x0003_000B,
    0x0003_000C,
    0x0003_000D,
    0x0003_0010,
    0x0002_0001,
    0x7FFF_FFFF,
];

/// A `nextInChain` of up to four links (sometimes a cycle, sometimes one
/// sType twice), each link in a 256-byte block; NULL most of the time.
pub fn chain(b: &mut Bytes<'_>, arena: &mut Arena) -> *mut WGPUChainedStruct {
    let n = match b.u8() {
        0..=159 => 0,
        160..=229 => 1,
        230..=249 => 2,
        _ => 4,
    };
    let mut links: Vec<*mut WGPUChainedStruct> = Vec::new();
    for _ in 0..n {
        let pick = b.u8();
        let s_type = if pick < 250 { STYPES[usize::from(pick) % STYPES.len()] } else { b.u32() };
        let p = arena.block(256);
        if SCALAR_STYPES.contains(&s_type) {
            let fill = b.take(32);
            // SAFETY: the block is 256 bytes; the payload starts after the
            // 16-byte header and `fill` is at most 32 bytes.
            unsafe { std::ptr::copy_nonoverlapping(fill.as_ptr(), p.add(16), fill.len()) };
        }
        let link = p.cast::<WGPUChainedStruct>();
        // SAFETY: the block is 8-aligned and larger than the header.
        unsafe { (*link).sType = WGPUSType(s_type) };
        if s_type == 0x02 {
            // ShaderSourceWGSL: a valid view of a few bytes of code.
            let code = string_view(b, arena);
            // SAFETY: WGPUShaderSourceWGSL fits in the block.
            unsafe { (*link.cast::<WGPUShaderSourceWGSL>()).code = code };
        }
        links.push(link);
    }
    for i in 1..links.len() {
        // SAFETY: each link is a live block of the arena.
        unsafe { (*links[i - 1]).next = links[i] };
    }
    if links.len() > 1 && b.u8() > 200 {
        let (last, first) = (links[links.len() - 1], links[0]);
        // SAFETY: as above; this closes a cycle, which must be refused.
        unsafe { (*last).next = first };
    }
    links.first().copied().unwrap_or(std::ptr::null_mut())
}

/// A zeroed C struct (every struct here is valid all-zero: NULL pointers,
/// `None` callbacks, zero enums).
pub fn zeroed<T>() -> T {
    // SAFETY: only used for the webgpu.h structs, for which all-zero is a
    // valid value.
    unsafe { std::mem::zeroed() }
}

/// The instance, adapter, device and queue every input runs on.
pub struct Gpu {
    pub instance: WGPUInstance,
    pub adapter: WGPUAdapter,
    pub device: WGPUDevice,
    pub queue: WGPUQueue,
}

// SAFETY: the handles are thread-safe objects of the library.
unsafe impl Send for Gpu {}
// SAFETY: as above.
unsafe impl Sync for Gpu {}

/// Uncaptured errors seen (invalid input mostly gives these).
pub static UNCAPTURED: AtomicU64 = AtomicU64::new(0);
/// Device-lost callbacks seen.
pub static LOST: AtomicU64 = AtomicU64::new(0);

unsafe extern "C" fn on_error(
    _device: *const WGPUDevice,
    _ty: WGPUErrorType,
    _message: WGPUStringView,
    _u1: *mut c_void,
    _u2: *mut c_void,
) {
    UNCAPTURED.fetch_add(1, Ordering::Relaxed);
}

unsafe extern "C" fn on_lost(
    _device: *const WGPUDevice,
    _reason: WGPUDeviceLostReason,
    _message: WGPUStringView,
    _u1: *mut c_void,
    _u2: *mut c_void,
) {
    LOST.fetch_add(1, Ordering::Relaxed);
}

unsafe extern "C" fn on_adapter(
    status: WGPURequestAdapterStatus,
    adapter: WGPUAdapter,
    _m: WGPUStringView,
    u1: *mut c_void,
    _u2: *mut c_void,
) {
    if status == WGPURequestAdapterStatus::Success {
        // SAFETY: u1 is the caller's WGPUAdapter slot.
        unsafe { *u1.cast::<WGPUAdapter>() = adapter };
    }
}

unsafe extern "C" fn on_device(
    status: WGPURequestDeviceStatus,
    device: WGPUDevice,
    _m: WGPUStringView,
    u1: *mut c_void,
    _u2: *mut c_void,
) {
    if status == WGPURequestDeviceStatus::Success {
        // SAFETY: u1 is the caller's WGPUDevice slot.
        unsafe { *u1.cast::<WGPUDevice>() = device };
    }
}

/// Waits for one future without a time limit.
pub fn wait(instance: WGPUInstance, future: WGPUFuture) -> WGPUWaitStatus {
    let mut info = WGPUFutureWaitInfo { future, completed: 0 };
    // SAFETY: one valid wait-info entry.
    unsafe { wgpuInstanceWaitAny(instance, 1, &mut info, u64::MAX) }
}

/// Sets up the process: lavapipe unless VK_ICD_FILENAMES is set, the
/// library's log off (every invalid input logs), the standard's rules
/// (WGPU_SHIM_COMPAT=standard), and a panic hook that
/// records each panic site once (a panic the library catches at its
/// boundary is not a crash, but it is reported).
pub fn init_process() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if std::env::var_os("VK_ICD_FILENAMES").is_none() {
            std::env::set_var("VK_ICD_FILENAMES", "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json");
        }
        if std::env::var_os("WGPU_SHIM_LOG").is_none() {
            std::env::set_var("WGPU_SHIM_LOG", "off");
        }
        // The standard's rules: the targets call wgpuDevicePoll (wgpu.h),
        // which would otherwise turn on wgpu-native compatibility (mode 0
        // accepted, and so on; docs/COMPATIBILITY.md).
        if std::env::var_os("WGPU_SHIM_COMPAT").is_none() {
            std::env::set_var("WGPU_SHIM_COMPAT", "standard");
        }
        std::panic::set_hook(Box::new(|info| {
            static SEEN: OnceLock<Mutex<HashSet<String>>> = OnceLock::new();
            let site = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
            let mut seen = SEEN.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
            if seen.insert(site.clone()) {
                eprintln!("fuzz: panic (caught by the library's boundary?) at {site}: {info}");
            }
        }));
    });
}

/// Creates an instance, adapter and device; panics (a fuzzer crash) if
/// there is no adapter.
pub fn make_gpu() -> Gpu {
    init_process();
    let features = [WGPUInstanceFeatureName::TimedWaitAny];
    let mut idesc: WGPUInstanceDescriptor = zeroed();
    idesc.requiredFeatureCount = 1;
    idesc.requiredFeatures = features.as_ptr();
    // SAFETY: a valid descriptor.
    let instance = unsafe { wgpuCreateInstance(&idesc) };
    assert!(!instance.is_null(), "wgpuCreateInstance failed");
    let adapter = make_adapter(instance);
    let device = make_device(instance, adapter);
    // SAFETY: a live device.
    let queue = unsafe { wgpuDeviceGetQueue(device) };
    Gpu { instance, adapter, device, queue }
}

/// A new adapter (an adapter gives one device); panics if there is none.
pub fn make_adapter(instance: WGPUInstance) -> WGPUAdapter {
    let mut adapter: WGPUAdapter = std::ptr::null_mut();
    let mut ainfo: WGPURequestAdapterCallbackInfo = zeroed();
    ainfo.mode = WGPUCallbackMode::WaitAnyOnly;
    ainfo.callback = Some(on_adapter);
    ainfo.userdata1 = (&mut adapter as *mut WGPUAdapter).cast();
    // SAFETY: NULL options are allowed; the callback info is valid.
    let f = unsafe { wgpuInstanceRequestAdapter(instance, std::ptr::null(), ainfo) };
    wait(instance, f);
    assert!(!adapter.is_null(), "no adapter (is lavapipe installed?)");
    adapter
}

/// A device of `adapter` with the counting error and lost callbacks.
pub fn make_device(instance: WGPUInstance, adapter: WGPUAdapter) -> WGPUDevice {
    let mut device: WGPUDevice = std::ptr::null_mut();
    let mut ddesc: WGPUDeviceDescriptor = zeroed();
    ddesc.label = WGPU_STRING_VIEW_INIT;
    ddesc.defaultQueue.label = WGPU_STRING_VIEW_INIT;
    ddesc.uncapturedErrorCallbackInfo.callback = Some(on_error);
    ddesc.deviceLostCallbackInfo.mode = WGPUCallbackMode::AllowSpontaneous;
    ddesc.deviceLostCallbackInfo.callback = Some(on_lost);
    let mut dinfo: WGPURequestDeviceCallbackInfo = zeroed();
    dinfo.mode = WGPUCallbackMode::WaitAnyOnly;
    dinfo.callback = Some(on_device);
    dinfo.userdata1 = (&mut device as *mut WGPUDevice).cast();
    // SAFETY: a valid descriptor and callback info.
    let f = unsafe { wgpuAdapterRequestDevice(adapter, &ddesc, dinfo) };
    wait(instance, f);
    assert!(!device.is_null(), "wgpuAdapterRequestDevice failed");
    device
}
