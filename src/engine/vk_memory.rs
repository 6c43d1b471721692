//! Host-visible Vulkan memory from this library (Linux): the memory behind
//! mapped buffers is a memfd's pages, imported with
//! `VK_EXT_external_memory_host`, so that a mapping's view can be a second
//! mapping of the same pages (zero-copy) that unmap replaces
//! (`engine/map_view`; docs/MAPPING.md).
//!
//! wgpu-hal allocates through the `ash::Device` it is given. A device is
//! opened here as wgpu-hal would open it, with the extension added, and
//! handed to wgpu-hal with a function table whose `vkAllocateMemory`,
//! `vkFreeMemory`, `vkMapMemory` and `vkUnmapMemory` are this module's:
//! an allocation of a host-visible type gets a memfd of its size, mapped
//! once, and imported when the driver takes those pages for that type;
//! otherwise (or when anything fails) the driver allocates as usual and
//! views of it are copies.

use std::collections::HashMap;
use std::ffi::{c_void, CStr};
use std::sync::Arc;

use ash::vk;
use parking_lot::{Mutex, RwLock};
use wgpu_core::global::Global;
use wgpu_core::id::{AdapterId, DeviceId, QueueId};
use wgpu_types as wgt;

use super::map_view::shareable;

/// One device opened here: the driver's own functions and what the hooks
/// need to know.
struct Hooked {
    real: ash::Device,
    host_pointer_properties: vk::PFN_vkGetMemoryHostPointerPropertiesEXT,
    /// The memory types with HOST_VISIBLE.
    host_visible: u32,
    /// `minImportedHostPointerAlignment` (and at least a page).
    align: usize,
    /// Imported allocations: memory → (address, length) of its pages.
    imported: Mutex<HashMap<vk::DeviceMemory, (usize, usize)>>,
}

static HOOKED: RwLock<Option<HashMap<vk::Device, Arc<Hooked>>>> = RwLock::new(None);

fn hooked(device: vk::Device) -> Option<Arc<Hooked>> {
    HOOKED.read().as_ref()?.get(&device).cloned()
}

/// Opens a device on a Vulkan adapter with the allocation hooks, as
/// `adapter_request_device` would open it. `None` when this does not apply
/// (not Vulkan, no `VK_EXT_external_memory_host`, experimental features):
/// the caller opens the device the usual way. `desc` was validated against
/// the adapter's features and limits by the caller.
pub(crate) fn request_device(
    global: &Global,
    adapter: AdapterId,
    desc: &wgt::DeviceDescriptor<wgpu_core::Label<'_>>,
) -> Option<Result<(DeviceId, QueueId), String>> {
    if super::map_view::driver_pointers() || desc.required_features.intersects(wgt::Features::all_experimental_mask()) {
        return None;
    }
    // SAFETY: the hal adapter is only used while `hal` lives, and nothing
    // it owns is destroyed here.
    let hal = unsafe { global.adapter_as_hal::<wgpu_hal::api::Vulkan>(adapter) }?;
    let ext = ash::ext::external_memory_host::NAME;
    if !hal.physical_device_capabilities().supports_extension(ext) {
        return None;
    }
    let open = match open_hooked(&hal, desc) {
        Ok(open) => open,
        Err(why) => {
            log::debug!(target: "wgpu_shim", "mapped memory: the device is opened without host-memory import ({why})");
            return None;
        }
    };
    drop(hal);
    // SAFETY: `open` was created from this adapter with `desc`'s features
    // and limits, which the caller checked against the adapter.
    let made = unsafe { global.create_device_from_hal(adapter, open.into(), desc, None, None) };
    Some(made.map_err(|e| e.to_string()))
}

/// `wgpu_hal::vulkan::Adapter::open`, with `VK_EXT_external_memory_host`
/// enabled and the device's functions hooked.
fn open_hooked(
    hal: &wgpu_hal::vulkan::Adapter,
    desc: &wgt::DeviceDescriptor<wgpu_core::Label<'_>>,
) -> Result<wgpu_hal::OpenDevice<wgpu_hal::api::Vulkan>, String> {
    let features = desc.required_features;
    let ext = ash::ext::external_memory_host::NAME;
    let mut extensions = hal.required_device_extensions(features);
    if !extensions.contains(&ext) {
        extensions.push(ext);
    }
    let mut phd = hal.physical_device_features(&extensions, features);
    let family = 0;
    let priorities = [1.0];
    let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(family).queue_priorities(&priorities)];
    let names: Vec<*const std::ffi::c_char> = extensions.iter().map(|e| e.as_ptr()).collect();
    let info = vk::DeviceCreateInfo::default().queue_create_infos(&queues).enabled_extension_names(&names);
    let info = phd.add_to_device_create(info);
    let instance = hal.shared_instance().raw_instance();
    let physical = hal.raw_physical_device();
    // SAFETY: a device of this adapter's physical device, created as
    // wgpu-hal creates its own (its extensions and features).
    let real = unsafe { instance.create_device(physical, &info, None) }.map_err(|e| format!("vkCreateDevice: {e}"))?;
    let handle = real.handle();
    let hooks = match describe(instance, physical, &real) {
        Some(h) => h,
        None => {
            // SAFETY: the device just made, used by nothing.
            unsafe { real.destroy_device(None) };
            return Err("the driver lacks vkGetMemoryHostPointerPropertiesEXT".into());
        }
    };
    let get_device_proc_addr = instance.fp_v1_0().get_device_proc_addr;
    // SAFETY: every name resolves to the driver's function of that name,
    // except the four memory functions, which are this module's with the
    // same signatures.
    let table = unsafe {
        ash::Device::load_with(
            |name| match hook(name) {
                Some(f) => f,
                None => get_device_proc_addr(handle, name.as_ptr()).map_or(std::ptr::null(), |f| f as *const c_void),
            },
            handle,
        )
    };
    HOOKED.write().get_or_insert_with(HashMap::new).insert(handle, Arc::new(hooks));
    let drop_callback: wgpu_hal::DropCallback = Box::new(move || {
        let hooks = HOOKED.write().as_mut().and_then(|m| m.remove(&handle));
        if let Some(hooks) = hooks {
            // SAFETY: wgpu-hal is done with the device (its drop callback).
            unsafe { hooks.real.destroy_device(None) };
        }
    });
    // SAFETY: `table` is the device created above from this adapter with
    // `extensions` and the features `physical_device_features` chose, on
    // queue family 0 as wgpu-hal uses; the drop callback destroys it.
    let open = unsafe {
        hal.device_from_raw(
            table,
            Some(drop_callback),
            &extensions,
            features,
            &desc.required_limits,
            &desc.memory_hints,
            family,
            0,
        )
    };
    open.map_err(|e| format!("device_from_raw: {e}"))
}

/// What the hooks need of a new device; `None` without the extension's
/// function.
fn describe(instance: &ash::Instance, physical: vk::PhysicalDevice, real: &ash::Device) -> Option<Hooked> {
    // SAFETY: a query of the physical device the device was made from.
    let memory = unsafe { instance.get_physical_device_memory_properties(physical) };
    let host_visible = memory
        .memory_types_as_slice()
        .iter()
        .enumerate()
        .filter(|(_, t)| t.property_flags.contains(vk::MemoryPropertyFlags::HOST_VISIBLE))
        .fold(0u32, |mask, (i, _)| mask | (1 << i));
    let mut host = vk::PhysicalDeviceExternalMemoryHostPropertiesEXT::default();
    let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut host);
    // SAFETY: as above (Vulkan 1.1, which wgpu-hal requires).
    unsafe { instance.get_physical_device_properties2(physical, &mut props) };
    let align = usize::try_from(host.min_imported_host_pointer_alignment).ok()?.max(4096);
    let name = c"vkGetMemoryHostPointerPropertiesEXT";
    // SAFETY: the device's own function of that name (the extension is
    // enabled), which has this signature.
    let f = unsafe { (instance.fp_v1_0().get_device_proc_addr)(real.handle(), name.as_ptr())? };
    // SAFETY: as above: the function's type.
    let host_pointer_properties: vk::PFN_vkGetMemoryHostPointerPropertiesEXT = unsafe { std::mem::transmute(f) };
    Some(Hooked {
        real: real.clone(),
        host_pointer_properties,
        host_visible,
        align: align.next_power_of_two(),
        imported: Mutex::new(HashMap::new()),
    })
}

/// This module's function for `name`, if it hooks it.
fn hook(name: &CStr) -> Option<*const c_void> {
    let f: *const c_void = match name.to_bytes() {
        b"vkAllocateMemory" => allocate_memory as vk::PFN_vkAllocateMemory as *const c_void,
        b"vkFreeMemory" => free_memory as vk::PFN_vkFreeMemory as *const c_void,
        b"vkMapMemory" => map_memory as vk::PFN_vkMapMemory as *const c_void,
        b"vkUnmapMemory" => unmap_memory as vk::PFN_vkUnmapMemory as *const c_void,
        _ => return None,
    };
    Some(f)
}

mod hooks;
use hooks::{allocate_memory, free_memory, map_memory, unmap_memory};
