//! The four memory functions wgpu-hal and its allocator call on a hooked
//! device. They never unwind (nothing here panics: no indexing, no
//! unwrap), and any failure of the import falls back to the driver's own
//! allocation.

use std::ffi::c_void;

use ash::vk;

use super::{hooked, shareable, Hooked};

/// Whether the allocation's chain holds only structures an import keeps
/// (flags and priority); a dedicated or exported allocation is the
/// driver's.
///
/// # Safety
/// `next` is a valid Vulkan `pNext` chain.
unsafe fn chain_allows_import(mut next: *const c_void) -> bool {
    while !next.is_null() {
        // SAFETY: every struct of a pNext chain starts with sType and pNext.
        let base = unsafe { &*(next as *const vk::BaseInStructure<'_>) };
        match base.s_type {
            vk::StructureType::MEMORY_ALLOCATE_FLAGS_INFO | vk::StructureType::MEMORY_PRIORITY_ALLOCATE_INFO_EXT => {}
            _ => return false,
        }
        next = base.p_next as *const c_void;
    }
    true
}

/// A memfd of `len` bytes, mapped shared once with its pages present
/// (`MAP_POPULATE`); the fd is closed (the mapping keeps the pages). Views
/// move the page-table entries rather than fault pages in again
/// (`engine/map_view`). A driver that pins imported pages, as NVIDIA's
/// does, fills them all at import anyway; on one that only writes through
/// the pointer (lavapipe) populating zeroes every page of an allocation
/// when it is made. (79a3ca5 meant to drop `MAP_POPULATE` and changed only
/// this comment; dropping it has not been measured on a GPU.)
fn memfd_pages(len: usize) -> Option<usize> {
    // SAFETY: plain system calls on a new fd; the fd is closed on every path.
    unsafe {
        let fd = libc::memfd_create(c"wgpu-shim mapped memory".as_ptr(), libc::MFD_CLOEXEC);
        if fd < 0 {
            return None;
        }
        let ok = libc::ftruncate(fd, len as libc::off_t) == 0;
        let p = if ok {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_POPULATE,
                fd,
                0,
            )
        } else {
            libc::MAP_FAILED
        };
        libc::close(fd);
        (p != libc::MAP_FAILED).then_some(p as usize)
    }
}

impl Hooked {
    /// Allocates `info` from a memfd imported as host memory; `None` when
    /// it does not apply or the driver refuses (then the caller allocates
    /// as usual).
    ///
    /// # Safety
    /// The arguments of a valid `vkAllocateMemory` on this device.
    unsafe fn import(
        &self,
        device: vk::Device,
        info: &vk::MemoryAllocateInfo<'_>,
        allocator: *const vk::AllocationCallbacks<'_>,
        out: *mut vk::DeviceMemory,
    ) -> Option<vk::Result> {
        let ty = info.memory_type_index;
        // SAFETY: the caller's chain.
        if ty >= 32 || self.host_visible & (1 << ty) == 0 || !unsafe { chain_allows_import(info.p_next) } {
            return None;
        }
        let size = usize::try_from(info.allocation_size).ok()?;
        let len = size.checked_add(self.align - 1)? & !(self.align - 1);
        if len == 0 {
            return None;
        }
        let base = memfd_pages(len)?;
        let mut props = vk::MemoryHostPointerPropertiesEXT::default();
        // SAFETY: the extension's query on pages mapped above.
        let queried = unsafe {
            (self.host_pointer_properties)(
                device,
                vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT,
                base as *const c_void,
                &mut props,
            )
        };
        let mut result = None;
        if queried == vk::Result::SUCCESS && props.memory_type_bits & (1 << ty) != 0 {
            let mut import = vk::ImportMemoryHostPointerInfoEXT::default()
                .handle_type(vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT)
                .host_pointer(base as *mut c_void);
            import.p_next = info.p_next;
            let mut with = *info;
            with.p_next = (&import as *const vk::ImportMemoryHostPointerInfoEXT<'_>).cast();
            with.allocation_size = len as u64;
            // SAFETY: the caller's allocation with the import in front of
            // its chain; the pages live until `free_memory`.
            let r = unsafe { (self.real.fp_v1_0().allocate_memory)(device, &with, allocator, out) };
            if r == vk::Result::SUCCESS {
                // SAFETY: `out` was just written by the driver.
                let memory = unsafe { *out };
                self.imported.lock().insert(memory, (base, len));
                shareable::add(base, len);
                result = Some(r);
            }
        }
        if result.is_none() {
            log::debug!(target: "wgpu_shim", "mapped memory: memory type {ty} keeps the driver's own allocation (host pages not taken: {queried:?}, types {:#b})", props.memory_type_bits);
            // SAFETY: the pages mapped above, used by nothing.
            unsafe { libc::munmap(base as *mut c_void, len) };
        }
        result
    }
}

/// `vkAllocateMemory` of a hooked device.
pub(super) unsafe extern "system" fn allocate_memory(
    device: vk::Device,
    info: *const vk::MemoryAllocateInfo<'_>,
    allocator: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::DeviceMemory,
) -> vk::Result {
    let Some(h) = hooked(device) else { return vk::Result::ERROR_INITIALIZATION_FAILED };
    // SAFETY: the caller's valid allocation info (checked for NULL).
    if let Some(info) = unsafe { info.as_ref() } {
        // SAFETY: forwarded from the caller.
        if let Some(r) = unsafe { h.import(device, info, allocator, out) } {
            return r;
        }
    }
    // SAFETY: the driver's function with the caller's arguments.
    unsafe { (h.real.fp_v1_0().allocate_memory)(device, info, allocator, out) }
}

/// `vkFreeMemory` of a hooked device: imported pages are unmapped after
/// the driver lets go of them.
pub(super) unsafe extern "system" fn free_memory(
    device: vk::Device,
    memory: vk::DeviceMemory,
    allocator: *const vk::AllocationCallbacks<'_>,
) {
    let Some(h) = hooked(device) else { return };
    // SAFETY: the driver's function with the caller's arguments.
    unsafe { (h.real.fp_v1_0().free_memory)(device, memory, allocator) };
    let removed = h.imported.lock().remove(&memory);
    if let Some((base, len)) = removed {
        shareable::remove(base);
        // SAFETY: the pages `import` mapped, which the driver no longer uses
        // (views of them hold the pages themselves).
        unsafe { libc::munmap(base as *mut c_void, len) };
    }
}

/// `vkMapMemory` of a hooked device: imported memory is already mapped.
pub(super) unsafe extern "system" fn map_memory(
    device: vk::Device,
    memory: vk::DeviceMemory,
    offset: vk::DeviceSize,
    size: vk::DeviceSize,
    flags: vk::MemoryMapFlags,
    out: *mut *mut c_void,
) -> vk::Result {
    let Some(h) = hooked(device) else { return vk::Result::ERROR_MEMORY_MAP_FAILED };
    let found = h.imported.lock().get(&memory).copied();
    match (found, usize::try_from(offset)) {
        (Some((base, len)), Ok(offset)) if offset < len => {
            // SAFETY: the caller's output pointer.
            unsafe { *out = (base + offset) as *mut c_void };
            vk::Result::SUCCESS
        }
        (Some(_), _) => vk::Result::ERROR_MEMORY_MAP_FAILED,
        // SAFETY: the driver's function with the caller's arguments.
        (None, _) => unsafe { (h.real.fp_v1_0().map_memory)(device, memory, offset, size, flags, out) },
    }
}

/// `vkUnmapMemory` of a hooked device.
pub(super) unsafe extern "system" fn unmap_memory(device: vk::Device, memory: vk::DeviceMemory) {
    let Some(h) = hooked(device) else { return };
    if !h.imported.lock().contains_key(&memory) {
        // SAFETY: the driver's function with the caller's arguments.
        unsafe { (h.real.fp_v1_0().unmap_memory)(device, memory) };
    }
}
