//! Host memory the library would own, measured without wgpu: the groundwork
//! of mapped ranges that never go stale (the mapping issue;
//! `../shared/notes/mapping.md` has what the drivers' own mappings allow).
//!
//! A memfd block is imported as host-visible Vulkan memory
//! (`VK_EXT_external_memory_host`); the application's view of a buffer is a
//! second mapping of the block's pages (a "window"), which unmap replaces
//! with anonymous pages at the same address. It checks, on the first Vulkan
//! device:
//!
//! - that the driver imports the memfd pages, and which memory types;
//! - that a GPU write is seen through a window, and a window write reaches
//!   the block;
//! - that after the swap a stale read sees zeros, never the bytes a later
//!   GPU write put there, and a stale write reaches nothing;
//!
//! and it measures the import of a 256 MiB block, a 4 KiB window's whole
//! cycle (map, first read, swap, unmap), and a 256 MiB read through a fresh
//! window (its page faults counted) against one through the block's own,
//! already touched mapping.
//!
//! ```text
//! cargo run --release --example host_memory
//! ```
//! Prints one line per finding; exits 1 when the driver lacks the extension
//! or a check fails.

use std::ffi::c_void;
use std::time::{Duration, Instant};

use ash::vk;

/// The block's size.
const SIZE: usize = 256 << 20;
/// Where the 4 KiB "buffer" lives in the block (page-aligned).
const OFFSET: usize = 3 * 4096;

/// The device, its queue and one command buffer with its fence.
struct Gpu {
    _entry: ash::Entry,
    instance: ash::Instance,
    physical: vk::PhysicalDevice,
    device: ash::Device,
    queue: vk::Queue,
    pool: vk::CommandPool,
    cmd: vk::CommandBuffer,
    fence: vk::Fence,
}

/// A memfd of `SIZE` bytes and the block's own mapping of it.
struct Block {
    fd: i32,
    base: *mut c_void,
}

fn check(ok: bool, what: &str) -> Result<(), String> {
    println!("{} {what}", if ok { "ok  " } else { "FAIL" });
    if ok {
        Ok(())
    } else {
        Err(what.to_owned())
    }
}

impl Gpu {
    /// The first device, with `VK_EXT_external_memory_host`; `None` (after
    /// saying so) when the driver lacks it.
    fn new() -> Result<Option<Gpu>, String> {
        // SAFETY: loads the system's Vulkan loader.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| e.to_string())?;
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_2);
        let info = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: a valid create info.
        let instance = unsafe { entry.create_instance(&info, None) }.map_err(|e| e.to_string())?;
        // SAFETY: a live instance.
        let physical =
            *unsafe { instance.enumerate_physical_devices() }.map_err(|e| e.to_string())?.first().ok_or("no device")?;
        // SAFETY: a device of this instance.
        let props = unsafe { instance.get_physical_device_properties(physical) };
        let name = props.device_name_as_c_str().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        // SAFETY: as above.
        let exts = unsafe { instance.enumerate_device_extension_properties(physical) }.map_err(|e| e.to_string())?;
        let has = exts.iter().any(|e| e.extension_name_as_c_str() == Ok(ash::ext::external_memory_host::NAME));
        let mut host = vk::PhysicalDeviceExternalMemoryHostPropertiesEXT::default();
        let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut host);
        // SAFETY: as above; the chain is valid.
        unsafe { instance.get_physical_device_properties2(physical, &mut props2) };
        println!(
            "device {name}: VK_EXT_external_memory_host {has}, alignment {}",
            host.min_imported_host_pointer_alignment
        );
        if !has {
            return Ok(None);
        }
        let priorities = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(0).queue_priorities(&priorities)];
        let names = [ash::ext::external_memory_host::NAME.as_ptr()];
        let info = vk::DeviceCreateInfo::default().queue_create_infos(&queues).enabled_extension_names(&names);
        // SAFETY: a valid create info for a device of this instance.
        let device = unsafe { instance.create_device(physical, &info, None) }.map_err(|e| e.to_string())?;
        // SAFETY: queue family 0 exists (it was created above).
        let queue = unsafe { device.get_device_queue(0, 0) };
        let pool_info = vk::CommandPoolCreateInfo::default().queue_family_index(0);
        // SAFETY: a live device and valid create infos.
        let (pool, fence) = unsafe {
            (
                device.create_command_pool(&pool_info, None).map_err(|e| e.to_string())?,
                device.create_fence(&vk::FenceCreateInfo::default(), None).map_err(|e| e.to_string())?,
            )
        };
        let alloc = vk::CommandBufferAllocateInfo::default().command_pool(pool).command_buffer_count(1);
        // SAFETY: a live pool of this device.
        let cmd = unsafe { device.allocate_command_buffers(&alloc) }.map_err(|e| e.to_string())?[0];
        Ok(Some(Gpu { _entry: entry, instance, physical, device, queue, pool, cmd, fence }))
    }

    /// Imports the block as host-visible, host-coherent memory, with a
    /// buffer over all of it; the memory type index and the import's time.
    fn import(&self, block: &Block) -> Result<(vk::DeviceMemory, vk::Buffer, u32, Duration), String> {
        let emh = ash::ext::external_memory_host::Device::new(&self.instance, &self.device);
        let handle = vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT;
        let mut pointer = vk::MemoryHostPointerPropertiesEXT::default();
        // SAFETY: the block's mapping is live, page-aligned and `SIZE` long.
        let r = unsafe {
            (emh.fp().get_memory_host_pointer_properties_ext)(self.device.handle(), handle, block.base, &mut pointer)
        };
        if r != vk::Result::SUCCESS {
            return Err(format!("vkGetMemoryHostPointerPropertiesEXT: {r}"));
        }
        // SAFETY: a device of this instance.
        let types = unsafe { self.instance.get_physical_device_memory_properties(self.physical) };
        let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let ty = (0..types.memory_type_count)
            .find(|&i| {
                pointer.memory_type_bits & (1 << i) != 0 && types.memory_types[i as usize].property_flags.contains(want)
            })
            .ok_or("no host-visible coherent memory type takes the memfd's pages")?;
        println!(
            "memfd pages importable into memory types {:#b}; using {ty} ({:?})",
            pointer.memory_type_bits, types.memory_types[ty as usize].property_flags
        );
        let mut import = vk::ImportMemoryHostPointerInfoEXT::default().handle_type(handle).host_pointer(block.base);
        let info =
            vk::MemoryAllocateInfo::default().allocation_size(SIZE as u64).memory_type_index(ty).push_next(&mut import);
        let t0 = Instant::now();
        // SAFETY: a valid allocate info whose pointer stays mapped while the
        // memory lives (the process ends first).
        let memory = unsafe { self.device.allocate_memory(&info, None) }.map_err(|e| format!("import: {e}"))?;
        let took = t0.elapsed();
        let mut external = vk::ExternalMemoryBufferCreateInfo::default().handle_types(handle);
        let usage = vk::BufferUsageFlags::TRANSFER_DST | vk::BufferUsageFlags::TRANSFER_SRC;
        let info = vk::BufferCreateInfo::default().size(SIZE as u64).usage(usage).push_next(&mut external);
        // SAFETY: a valid create info; the memory is as large as the buffer.
        let buffer = unsafe {
            let buffer = self.device.create_buffer(&info, None).map_err(|e| e.to_string())?;
            self.device.bind_buffer_memory(buffer, memory, 0).map_err(|e| e.to_string())?;
            buffer
        };
        Ok((memory, buffer, ty, took))
    }

    /// Fills `size` bytes at `offset` of `buffer` with `value` on the GPU and
    /// waits for it.
    fn fill(&self, buffer: vk::Buffer, offset: u64, size: u64, value: u32) -> Result<(), String> {
        let cmds = [self.cmd];
        let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
        // SAFETY: the command buffer and fence are this device's and idle
        // (every fill waits for the last); the range is inside the buffer.
        unsafe {
            self.device.reset_fences(&[self.fence]).map_err(|e| e.to_string())?;
            self.device
                .begin_command_buffer(self.cmd, &vk::CommandBufferBeginInfo::default())
                .map_err(|e| e.to_string())?;
            self.device.cmd_fill_buffer(self.cmd, buffer, offset, size, value);
            self.device.end_command_buffer(self.cmd).map_err(|e| e.to_string())?;
            self.device.queue_submit(self.queue, &submit, self.fence).map_err(|e| e.to_string())?;
            self.device.wait_for_fences(&[self.fence], true, u64::MAX).map_err(|e| e.to_string())
        }
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        // SAFETY: nothing is in flight (every fill waited); children first.
        unsafe {
            self.device.destroy_fence(self.fence, None);
            self.device.destroy_command_pool(self.pool, None);
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

impl Block {
    fn new() -> Result<Block, String> {
        // SAFETY: a NUL-terminated name; the size is set before mapping.
        let fd = unsafe { libc::memfd_create(c"wgpu-shim host memory".as_ptr(), libc::MFD_CLOEXEC) };
        // SAFETY: `fd` is the memfd just made (checked).
        if fd < 0 || unsafe { libc::ftruncate(fd, SIZE as libc::off_t) } != 0 {
            return Err("memfd_create / ftruncate failed".into());
        }
        let base = window(fd, 0, SIZE, 0)?;
        Ok(Block { fd, base })
    }

    /// The block's own view of word `index` of the 4 KiB "buffer".
    fn word(&self, index: usize) -> *mut u32 {
        // SAFETY: inside the block's mapping (OFFSET + 4 KiB < SIZE).
        unsafe { self.base.cast::<u8>().add(OFFSET).cast::<u32>().add(index) }
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        // SAFETY: our own mapping and descriptor, no longer used (the
        // imported memory was freed first, in `run`).
        unsafe {
            libc::munmap(self.base, SIZE);
            libc::close(self.fd);
        }
    }
}

/// A new shared mapping of `len` bytes of `fd` at `offset` (a window).
fn window(fd: i32, offset: usize, len: usize, extra_flags: i32) -> Result<*mut c_void, String> {
    let prot = libc::PROT_READ | libc::PROT_WRITE;
    // SAFETY: a fresh mapping of a file we own, at an address the kernel picks.
    let p = unsafe {
        libc::mmap(std::ptr::null_mut(), len, prot, libc::MAP_SHARED | extra_flags, fd, offset as libc::off_t)
    };
    if p == libc::MAP_FAILED {
        Err("mmap failed".into())
    } else {
        Ok(p)
    }
}

/// Unmap: the window's pages become anonymous zero pages, same address.
fn swap_out(p: *mut c_void, len: usize) -> bool {
    let flags = libc::MAP_FIXED | libc::MAP_PRIVATE | libc::MAP_ANONYMOUS;
    // SAFETY: `p..p + len` is a window of ours; MAP_FIXED replaces exactly it.
    unsafe { libc::mmap(p, len, libc::PROT_READ | libc::PROT_WRITE, flags, -1, 0) == p }
}

/// The staleness checks through one 4 KiB window.
fn stale_checks(gpu: &Gpu, block: &Block, buffer: vk::Buffer) -> Result<(), String> {
    gpu.fill(buffer, OFFSET as u64, 4096, 0xABCD_1234)?;
    let win = window(block.fd, OFFSET, 4096, 0)?.cast::<u32>();
    // SAFETY: `win` is a live 4 KiB window; the block's words are mapped.
    unsafe {
        check(win.read_volatile() == 0xABCD_1234, "a GPU write is seen through the window")?;
        win.add(1).write_volatile(0x5555_5555);
        check(block.word(1).read_volatile() == 0x5555_5555, "a write through the window reaches the block")?;
    }
    let t0 = Instant::now();
    check(swap_out(win.cast(), 4096), "unmap swaps anonymous pages in at the window's address")?;
    println!("the swap took {:?}", t0.elapsed());
    gpu.fill(buffer, OFFSET as u64, 4096, 0x2222_2222)?;
    // SAFETY: the window's address is still mapped (anonymous now).
    unsafe {
        check(win.read_volatile() == 0, "a stale read sees zeros, not the next GPU write")?;
        win.write_volatile(7);
        check(block.word(0).read_volatile() == 0x2222_2222, "a stale write reaches nothing")?;
        libc::munmap(win.cast(), 4096);
    }
    Ok(())
}

/// The costs: a 4 KiB window's cycle, and a 256 MiB read through a fresh
/// window against the block's own touched mapping.
fn costs(gpu: &Gpu, block: &Block, buffer: vk::Buffer) -> Result<(), String> {
    const CYCLES: u32 = 1000;
    let t0 = Instant::now();
    for _ in 0..CYCLES {
        let w = window(block.fd, OFFSET, 4096, 0)?;
        // SAFETY: a live 4 KiB window, then our own mapping to unmap.
        unsafe { w.cast::<u32>().read_volatile() };
        swap_out(w, 4096);
        // SAFETY: as above.
        unsafe { libc::munmap(w, 4096) };
    }
    println!(
        "4 KiB window (map, first read, swap, unmap): {:.2} µs",
        t0.elapsed().as_secs_f64() * 1e6 / f64::from(CYCLES)
    );
    gpu.fill(buffer, 0, SIZE as u64, 0x0101_0101)?;
    let mut dst = vec![1u8; SIZE];
    for populate in [0, libc::MAP_POPULATE] {
        let t0 = Instant::now();
        let w = window(block.fd, 0, SIZE, populate)?;
        // SAFETY: both ranges are `SIZE` bytes, mapped, and disjoint.
        unsafe { std::ptr::copy_nonoverlapping(w.cast::<u8>(), dst.as_mut_ptr(), SIZE) };
        let through_window = t0.elapsed();
        swap_out(w, SIZE);
        // SAFETY: our own mapping.
        unsafe { libc::munmap(w, SIZE) };
        let t0 = Instant::now();
        // SAFETY: as above, through the block's mapping.
        unsafe { std::ptr::copy_nonoverlapping(block.base.cast::<u8>(), dst.as_mut_ptr(), SIZE) };
        let through_block = t0.elapsed();
        println!(
            "256 MiB read through a fresh window (MAP_POPULATE {}), mapping included: {through_window:?}; \
             through the block's touched mapping: {through_block:?} ({:.0} %)",
            populate != 0,
            100.0 * through_block.as_secs_f64() / through_window.as_secs_f64()
        );
    }
    Ok(())
}

fn run() -> Result<bool, String> {
    let Some(gpu) = Gpu::new()? else { return Ok(false) };
    let block = Block::new()?;
    let (memory, buffer, _, took) = gpu.import(&block)?;
    println!("import of 256 MiB: {took:?}");
    let result = stale_checks(&gpu, &block, buffer).and_then(|()| costs(&gpu, &block, buffer));
    // SAFETY: nothing is in flight; the buffer before its memory.
    unsafe {
        gpu.device.destroy_buffer(buffer, None);
        gpu.device.free_memory(memory, None);
    }
    result.map(|()| true)
}

fn main() {
    match run() {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(e) => {
            println!("FAIL {e}");
            std::process::exit(1);
        }
    }
}
