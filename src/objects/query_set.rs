//! `WGPUQuerySet`: occlusion and timestamp queries.

use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::id::QuerySetId;
use wgpu_types as wgt;

use crate::abi::*;
use crate::ffi::boundary::{self, call, refcounted, set_label};
use crate::ffi::handle::{Handle, Object};
use crate::objects::device::Device;

/// A `WGPUQuerySet`.
#[repr(C)]
pub(crate) struct QuerySet {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) device: Arc<Device>,
    pub(crate) id: QuerySetId,
    pub(crate) label: Mutex<String>,
    /// Type and count as the application asked for them.
    ty: WGPUQueryType,
    count: u32,
    destroyed: Mutex<bool>,
}

impl Object for QuerySet {
    type Raw = WGPUQuerySetImpl;
    const NAME: &'static str = "WGPUQuerySet";
    const HEADER_OFFSET: usize = std::mem::offset_of!(QuerySet, header);
}

impl Drop for QuerySet {
    fn drop(&mut self) {
        crate::ffi::boundary::in_drop("a query set", || self.device.global().query_set_drop(self.id));
    }
}

refcounted!(QuerySet, WGPUQuerySet, wgpuQuerySetAddRef, wgpuQuerySetRelease);

impl QuerySet {
    /// The set has no queries (made with `count == 0`, on a wgpu-core set
    /// of one): any query index of it is out of range, which wgpu-core
    /// cannot see.
    pub(crate) fn no_queries(&self) -> bool {
        self.count == 0
    }

    /// What a render pass hands wgpu-core as its occlusion query set: none
    /// for an occlusion set of no queries (the pass is valid as long as it
    /// begins no query, and wgpu-core refuses any it begins for want of a
    /// set); else the set, whose type and indices wgpu-core checks.
    pub(crate) fn occlusion_set_for_core(&self) -> Option<wgpu_core::id::QuerySetId> {
        (!(self.no_queries() && self.ty == WGPUQueryType::Occlusion)).then_some(self.id)
    }
}
set_label!(QuerySet, WGPUQuerySet, wgpuQuerySetSetLabel);

/// The query type; Timestamp needs the TimestampQuery feature (wgpu-core
/// checks it).
fn query_type(ty: WGPUQueryType) -> Result<wgt::QueryType, String> {
    Ok(match ty {
        WGPUQueryType::Occlusion => wgt::QueryType::Occlusion,
        WGPUQueryType::Timestamp => wgt::QueryType::Timestamp,
        other => return Err(format!("type {:#x} is not a WGPUQueryType", other.0)),
    })
}

/// Creates a query set. An invalid descriptor (unknown type, Timestamp
/// without the feature, too many queries) gives a validation error and an
/// invalid query set.
///
/// # Safety
/// `device` is a live device; `descriptor` is NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn wgpuDeviceCreateQuerySet(
    device: WGPUDevice,
    descriptor: *const WGPUQuerySetDescriptor,
) -> WGPUQuerySet {
    call("wgpuDeviceCreateQuerySet", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle and a valid descriptor.
        let (device, desc) =
            unsafe { (boundary::arg::<Device>(device, "device")?, boundary::ptr_arg(descriptor, "descriptor")?) };
        // SAFETY: the descriptor's label and chain are valid (caller); the
        // chain may hold wgpu.h's pipeline-statistics extras.
        let (label, native) = unsafe {
            (
                boundary::label_arg(desc.label, "label")?,
                crate::conv::native_chain::query_type(desc.nextInChain, desc.r#type)?,
            )
        };
        let converted = native.and_then(|ty| ty.map_or_else(|| query_type(desc.r#type), Ok));
        let global = device.global();
        let id = match converted {
            Ok(ty) => {
                // A set of no queries is valid (wgpu-core refuses one): it
                // stands on a set of one, and every use of an index of it
                // is refused here (`QuerySet::no_queries`).
                let core_desc =
                    wgt::QuerySetDescriptor { label: crate::conv::label(&label), ty, count: desc.count.max(1) };
                let (id, error) = global.device_create_query_set(device.id, &core_desc, None);
                if let Some(e) = error {
                    device.report(e);
                }
                id
            }
            Err(why) => {
                // More queries than any device allows: wgpu-core rejects it.
                let bad = wgt::QuerySetDescriptor {
                    label: crate::conv::label(&label),
                    ty: wgt::QueryType::Occlusion,
                    count: u32::MAX,
                };
                let (id, _) = global.device_create_query_set(device.id, &bad, None);
                device.report_validation(format!("wgpuDeviceCreateQuerySet {label:?}: {why}"));
                id
            }
        };
        let set = QuerySet {
            header: Default::default(),
            device: device.arc(),
            id,
            label: Mutex::new(label),
            ty: desc.r#type,
            count: desc.count,
            destroyed: Mutex::new(false),
        };
        Ok(Handle::into_raw(Arc::new(set)))
    })
}

/// Frees the query set; later use in a submit is a validation error.
/// Repeating it does nothing.
///
/// # Safety
/// `query_set` is a live query set.
#[no_mangle]
pub unsafe extern "C" fn wgpuQuerySetDestroy(query_set: WGPUQuerySet) {
    call("wgpuQuerySetDestroy", (), || {
        // SAFETY: the C caller passes a live handle.
        let set = unsafe { boundary::arg::<QuerySet>(query_set, "querySet") }?;
        let mut destroyed = set.destroyed.lock();
        if !*destroyed {
            *destroyed = true;
            drop(destroyed);
            set.device.global().query_set_destroy(set.id);
        }
        Ok(())
    })
}

/// The number of queries the set was created with.
///
/// # Safety
/// `query_set` is a live query set.
#[no_mangle]
pub unsafe extern "C" fn wgpuQuerySetGetCount(query_set: WGPUQuerySet) -> u32 {
    call("wgpuQuerySetGetCount", 0, || {
        // SAFETY: the C caller passes a live handle.
        Ok(unsafe { boundary::arg::<QuerySet>(query_set, "querySet") }?.count)
    })
}

/// The type the set was created with.
///
/// # Safety
/// `query_set` is a live query set.
#[no_mangle]
pub unsafe extern "C" fn wgpuQuerySetGetType(query_set: WGPUQuerySet) -> WGPUQueryType {
    call("wgpuQuerySetGetType", WGPUQueryType(0), || {
        // SAFETY: the C caller passes a live handle.
        Ok(unsafe { boundary::arg::<QuerySet>(query_set, "querySet") }?.ty)
    })
}
