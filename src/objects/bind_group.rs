//! `WGPUBindGroup`.
//!
//! Entries may bind buffers, samplers and texture views, or arrays of one
//! of them (wgpu.h's `WGPUBindGroupEntryExtras`). External textures
//! are not implemented by this library: an entry that names one is a
//! validation error (the bind group is invalid).

use std::borrow::Cow;
use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::binding_model::{BindGroupDescriptor, BindGroupEntry, BindingResource, BufferBinding};
use wgpu_core::id::{BindGroupId, BufferId, TextureId, TextureViewId};

use crate::abi::*;
use crate::conv::binding::EntryKind;
use crate::ffi::boundary::{self, call, refcounted, set_label, ApiResult};
use crate::ffi::chain_walk::{self, Chain};
use crate::ffi::handle::{Handle, Object};
use crate::objects::bind_group_layout::BindGroupLayout;
use crate::objects::buffer::Buffer;
use crate::objects::device::Device;
use crate::objects::owner::{foreign_error, is_foreign, same_instance, Owned};
use crate::objects::sampler::Sampler;
use crate::objects::texture_view::TextureView;

/// A `WGPUBindGroup`.
#[repr(C)]
pub(crate) struct BindGroup {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) device: Arc<Device>,
    pub(crate) id: BindGroupId,
    pub(crate) label: Mutex<String>,
}

impl Object for BindGroup {
    type Raw = WGPUBindGroupImpl;
    const NAME: &'static str = "WGPUBindGroup";
    const HEADER_OFFSET: usize = std::mem::offset_of!(BindGroup, header);
}

impl Drop for BindGroup {
    fn drop(&mut self) {
        crate::ffi::boundary::in_drop("a bind group", || self.device.global().bind_group_drop(self.id));
    }
}

refcounted!(BindGroup, WGPUBindGroup, wgpuBindGroupAddRef, wgpuBindGroupRelease);
set_label!(BindGroup, WGPUBindGroup, wgpuBindGroupSetLabel);

/// The stand-ins that a bind group naming destroyed buffers or textures is
/// made of ([`Buffer::stand_in`], [`TextureView::stand_in`]): WebGPU makes
/// such a bind group valid and fails only the submit that uses it, while
/// wgpu-core refuses to make it. They are destroyed and dropped once the
/// bind group exists, which then holds them as it would hold the
/// destroyed resources.
#[derive(Default)]
struct StandIns {
    buffers: Vec<BufferId>,
    views: Vec<(TextureId, TextureViewId)>,
}

impl StandIns {
    /// The id to bind for `buffer`: a stand-in once it is destroyed.
    fn buffer(&mut self, buffer: &Buffer) -> BufferId {
        match buffer.stand_in() {
            Some(id) => {
                self.buffers.push(id);
                id
            }
            None => buffer.id,
        }
    }

    /// The id to bind for `view`: a stand-in once its texture is destroyed.
    fn view(&mut self, view: &TextureView) -> TextureViewId {
        match view.stand_in() {
            Some((texture, id)) => {
                self.views.push((texture, id));
                id
            }
            None => view.id,
        }
    }

    /// Destroys and drops the stand-ins (the bind group, if made, keeps
    /// what it needs of them).
    fn finish(self, global: &wgpu_core::global::Global) {
        for id in self.buffers {
            global.buffer_destroy(id);
            global.buffer_drop(id);
        }
        for (texture, view) in self.views {
            global.texture_destroy(texture);
            global.texture_view_drop(view);
            global.texture_drop(texture);
        }
    }
}

/// Resolves the handles of one list of a `WGPUBindGroupEntryExtras`. A
/// NULL handle is a validation error (`Ok(Err)`), one of the wrong type a
/// rejection.
///
/// # Safety
/// The handles are NULL or live.
unsafe fn array_ids<T: Object + Owned, R>(
    device: &Device,
    handles: &[*mut T::Raw],
    what: &str,
    mut id: impl FnMut(&T) -> R,
) -> ApiResult<Result<Vec<R>, String>> {
    let mut out = Vec::with_capacity(handles.len());
    for (j, &h) in handles.iter().enumerate() {
        let name = format!("{what}[{j}]");
        // SAFETY: the handle is NULL or live (caller).
        match unsafe { boundary::opt_arg::<T>(h, &name) }? {
            Some(object) => match same_instance(device, &**object, &name) {
                Ok(()) => out.push(id(object)),
                Err(why) => return Ok(Err(why)),
            },
            None => return Ok(Err(format!("{name} is NULL"))),
        }
    }
    Ok(Ok(out))
}

/// Reads one entry: one resource of the entry itself, an external texture
/// (chained; not supported) or one list of wgpu.h's chained
/// `WGPUBindGroupEntryExtras` (a binding array; buffers all take the
/// entry's `offset` and `size`). Destroyed buffers and textures are bound
/// as stand-ins, collected in `stand_ins`. The outer error is a synchronous
/// rejection (a handle of the wrong type), the inner one a validation error.
///
/// # Safety
/// The entry's chain and the arrays it holds are valid; its handles are
/// NULL or live.
unsafe fn read_entry(
    device: &Device,
    i: usize,
    e: &WGPUBindGroupEntry,
    stand_ins: &mut StandIns,
) -> ApiResult<Result<BindGroupEntry<'static>, String>> {
    use crate::conv::native_extras::entry_arrays;
    // SAFETY: the chain is valid (caller).
    let chain = match unsafe { Chain::walk(e.nextInChain, "WGPUBindGroupEntry") } {
        Ok(chain) => chain,
        Err(why) => return Ok(Err(crate::conv::chain_error(why))),
    };
    // SAFETY: the buffer handle is NULL or live and the extras' arrays are
    // valid (caller).
    let (buffer, arrays) =
        unsafe { (boundary::opt_arg::<Buffer>(e.buffer, &format!("entries[{i}].buffer"))?, entry_arrays(&chain)?) };
    let (buffers, samplers, views) = match &arrays {
        Some(a) => (a.buffers, a.samplers, a.texture_views),
        None => (&[][..], &[][..], &[][..]),
    };
    let kind = crate::conv::binding::entry_kind(
        e.binding,
        &[
            (EntryKind::Buffer, buffer.is_some()),
            (EntryKind::Sampler, !e.sampler.is_null()),
            (EntryKind::TextureView, !e.textureView.is_null()),
            (EntryKind::ExternalTexture, chain.has(WGPUSType::ExternalTextureBindingEntry)),
            (EntryKind::BufferArray, !buffers.is_empty()),
            (EntryKind::SamplerArray, !samplers.is_empty()),
            (EntryKind::TextureViewArray, !views.is_empty()),
        ],
    );
    let kind = match kind {
        Ok(kind) => kind,
        Err(why) => return Ok(Err(why)),
    };
    let size = crate::conv::whole_size(e.size);
    let resource = match (kind, buffer) {
        (EntryKind::Buffer, Some(buffer)) => {
            if is_foreign(device, &**buffer) {
                return Ok(Err(foreign_error(&format!("entries[{i}].buffer"))));
            }
            BindingResource::Buffer(BufferBinding { buffer: stand_ins.buffer(buffer), offset: e.offset, size })
        }
        (EntryKind::Buffer, None) => return Ok(Err(format!("entry for binding {}: no buffer", e.binding))),
        (EntryKind::Sampler, _) => {
            // SAFETY: the sampler handle is non-NULL here and live (caller).
            let sampler = unsafe { boundary::arg::<Sampler>(e.sampler, &format!("entries[{i}].sampler")) }?;
            if is_foreign(device, &**sampler) {
                return Ok(Err(foreign_error(&format!("entries[{i}].sampler"))));
            }
            BindingResource::Sampler(sampler.id)
        }
        (EntryKind::TextureView, _) => {
            // SAFETY: the view handle is non-NULL here and live (caller).
            let view = unsafe { boundary::arg::<TextureView>(e.textureView, &format!("entries[{i}].textureView")) }?;
            if is_foreign(device, &**view) {
                return Ok(Err(foreign_error(&format!("entries[{i}].textureView"))));
            }
            BindingResource::TextureView(stand_ins.view(view))
        }
        (EntryKind::ExternalTexture, _) => {
            return Ok(Err(format!("entry for binding {}: external textures are not supported", e.binding)))
        }
        (EntryKind::BufferArray, _) => {
            let bind = |b: &Buffer| BufferBinding { buffer: stand_ins.buffer(b), offset: e.offset, size };
            // SAFETY: the handles are NULL or live (caller).
            match unsafe { array_ids::<Buffer, _>(device, buffers, "WGPUBindGroupEntryExtras.buffers", bind) }? {
                Ok(list) => BindingResource::BufferArray(Cow::Owned(list)),
                Err(why) => return Ok(Err(why)),
            }
        }
        (EntryKind::SamplerArray, _) => {
            // SAFETY: the handles are NULL or live (caller).
            match unsafe { array_ids::<Sampler, _>(device, samplers, "WGPUBindGroupEntryExtras.samplers", |s| s.id) }? {
                Ok(list) => BindingResource::SamplerArray(Cow::Owned(list)),
                Err(why) => return Ok(Err(why)),
            }
        }
        (EntryKind::TextureViewArray, _) => {
            // SAFETY: the handles are NULL or live (caller).
            match unsafe {
                array_ids::<TextureView, _>(device, views, "WGPUBindGroupEntryExtras.textureViews", |v| {
                    stand_ins.view(v)
                })
            }? {
                Ok(list) => BindingResource::TextureViewArray(Cow::Owned(list)),
                Err(why) => return Ok(Err(why)),
            }
        }
    };
    Ok(Ok(BindGroupEntry { binding: e.binding, resource }))
}

/// Reads the entries of a descriptor (see [`read_entry`]).
///
/// # Safety
/// As [`read_entry`], for every entry; the array and the chain are valid.
unsafe fn read_entries(
    device: &Device,
    desc: &WGPUBindGroupDescriptor,
    stand_ins: &mut StandIns,
) -> ApiResult<Result<Vec<BindGroupEntry<'static>>, String>> {
    // SAFETY: the array is valid (caller).
    let entries = unsafe { boundary::slice_arg(desc.entries, desc.entryCount, "entries") }?;
    // SAFETY: the chain is valid (caller).
    if let Err(why) = unsafe { chain_walk::expect_none(desc.nextInChain, "WGPUBindGroupDescriptor") } {
        return Ok(Err(crate::conv::chain_error(why)));
    }
    let mut out = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        // SAFETY: forwarded from the caller.
        match unsafe { read_entry(device, i, e, stand_ins) }? {
            Ok(entry) => out.push(entry),
            Err(why) => return Ok(Err(format!("entries[{i}]: {why}"))),
        }
    }
    Ok(Ok(out))
}

/// Creates a bind group. An entry must name exactly one resource, or one
/// list of a chained `WGPUBindGroupEntryExtras` (wgpu.h: a binding array);
/// buffer entries take `offset` and `size` (`WGPU_WHOLE_SIZE`: to the end
/// of the buffer). Validation errors give an invalid bind group.
///
/// # Safety
/// `device` is a live device; `descriptor` is NULL or points at a valid
/// descriptor whose handles are live.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceCreateBindGroup(
    device: WGPUDevice,
    descriptor: *const WGPUBindGroupDescriptor,
) -> WGPUBindGroup {
    call("wgpuDeviceCreateBindGroup", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle and NULL or a valid
        // descriptor.
        let (device, desc) =
            unsafe { (boundary::arg::<Device>(device, "device")?, boundary::ptr_arg(descriptor, "descriptor")?) };
        // SAFETY: the descriptor's label and layout are valid.
        let (label, layout) = unsafe {
            (boundary::label_arg(desc.label, "label")?, boundary::arg::<BindGroupLayout>(desc.layout, "layout")?)
        };
        let global = device.global();
        let mut stand_ins = StandIns::default();
        // SAFETY: the descriptor's chain and entries are valid.
        let entries = unsafe { read_entries(device, desc, &mut stand_ins) }
            .map(|r| r.and_then(|e| same_instance(device, &**layout, "layout").map(|()| e)));
        let entries = match entries {
            Ok(entries) => entries,
            Err(rejected) => {
                stand_ins.finish(global);
                return Err(rejected);
            }
        };
        let id = match entries {
            Ok(entries) => {
                let desc = BindGroupDescriptor {
                    label: crate::conv::label(&label),
                    layout: layout.id,
                    entries: Cow::Owned(entries),
                };
                let (id, error) = global.device_create_bind_group(device.id, &desc, None);
                stand_ins.finish(global);
                if let Some(e) = error {
                    device.report(e);
                }
                id
            }
            Err(why) => {
                stand_ins.finish(global);
                let id = crate::objects::invalid::bind_group(global, device.id, &label);
                device.report_validation(format!("wgpuDeviceCreateBindGroup: {why}"));
                id
            }
        };
        Ok(Handle::into_raw(Arc::new(BindGroup {
            header: Default::default(),
            device: device.arc(),
            id,
            label: Mutex::new(label),
        })))
    })
}
