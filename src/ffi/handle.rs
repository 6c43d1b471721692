//! C object handles: one external reference count per object, apart from
//! the internal `Arc`s.
//!
//! A `WGPUBuffer` (or any other object handle) is the address of the object
//! itself, inside its `Arc` allocation (`Arc::into_raw`). Every object type
//! starts with a [`Header`] (`#[repr(C)]`, checked at compile time) holding a
//! type tag and the count of references the application owns (changed only
//! by `AddRef` and `Release`). While that count is above zero, the
//! application's references together own one strong count of the `Arc`. The
//! library keeps its own references as clones of the `Arc`, so the object
//! outlives its handle when a command buffer, bind group or pending callback
//! still needs it. When the application's count reaches zero,
//! [`Object::last_release`] runs (device destroy, map abort, …) and the
//! application's strong count is dropped.
//!
//! There is no separate handle allocation: creating and releasing an object
//! costs one heap block, as it would without the C API.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

/// A Rust type that backs one C object type.
///
/// The type is `#[repr(C)]` and its first field is a [`Header`];
/// `HEADER_OFFSET` is `std::mem::offset_of!(Self, header)`, which must be 0
/// (a compile-time assertion in [`Handle`] enforces it).
pub(crate) trait Object: Send + Sync + Sized + 'static {
    /// The opaque C type the handle points at (`WGPUBufferImpl`, …).
    type Raw;
    /// The C type name, for messages (`"WGPUBuffer"`).
    const NAME: &'static str;
    /// Where the [`Header`] is in the object: must be 0.
    const HEADER_OFFSET: usize;

    /// Runs once each time the application's last reference is released,
    /// before the application's strong count is dropped. `handle` is the
    /// pointer the application held.
    fn last_release(_this: &Arc<Self>, _handle: *mut Self::Raw) {}
}

/// The first field of every object: what makes its address a checked C
/// handle.
#[derive(Default)]
pub(crate) struct Header {
    /// The tag of the object's C type, set when the first handle is made
    /// (0 before: such an object is not a valid handle).
    tag: AtomicU64,
    /// References the application owns.
    refs: AtomicUsize,
}

impl Drop for Header {
    fn drop(&mut self) {
        // Marks the memory as a freed object, so that a handle used after
        // its object was freed is caught while the memory is not reused. A
        // volatile write: the store must survive even though the memory is
        // freed right after.
        // SAFETY: `self.tag` is a valid, exclusively borrowed location.
        unsafe { std::ptr::write_volatile(self.tag.as_ptr(), TAG_FREED) };
    }
}

/// The tag of a live handle of type `T`: derived from the C type name, so a
/// `WGPUBuffer` passed where a `WGPUDevice` is expected is caught.
const fn tag_of(name: &str) -> u64 {
    // FNV-1a over the name.
    let bytes = name.as_bytes();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    hash | 1
}

/// Written into an object's tag when it is freed.
const TAG_FREED: u64 = 0xdead_dead_dead_dead;

/// A C handle argument, seen as the object it points at (it dereferences
/// to the object).
#[repr(transparent)]
pub(crate) struct Handle<T: Object>(T);

impl<T: Object> Handle<T> {
    const TAG: u64 = tag_of(T::NAME);

    /// The header of `obj` (its first field).
    fn header(obj: &T) -> &Header {
        const { assert!(T::HEADER_OFFSET == 0, "an object type must start with its Header") };
        // SAFETY: `T` is `#[repr(C)]` with a `Header` at offset 0 (asserted
        // above), so the object's address is the header's address.
        unsafe { &*(obj as *const T).cast::<Header>() }
    }

    /// Makes a handle to `obj` that the application owns one reference of.
    /// Every handle to the same object is the same pointer.
    pub(crate) fn into_raw(obj: Arc<T>) -> *mut T::Raw {
        let header = Self::header(&obj);
        header.tag.store(Self::TAG, Ordering::Relaxed);
        if header.refs.fetch_add(1, Ordering::AcqRel) == 0 {
            // The first application reference: the application's references
            // own this strong count from now on.
            Arc::into_raw(obj).cast_mut().cast()
        } else {
            // Already owned by the application: its strong count covers the
            // new reference too.
            Arc::as_ptr(&obj).cast_mut().cast()
        }
    }

    /// The object behind `raw`, or a description of what is wrong with it.
    ///
    /// # Safety
    /// `raw` is NULL or was returned by [`Handle::into_raw`] for some object
    /// type (any `T`), and the application still owns a reference to it.
    #[inline]
    pub(crate) unsafe fn get<'a>(raw: *mut T::Raw) -> Result<&'a Handle<T>, String> {
        if raw.is_null() {
            return Err(format!("{} is NULL", T::NAME));
        }
        // SAFETY: the caller guarantees `raw` points at a live object; every
        // object starts with its header (repr(C), offset 0 asserted), whatever
        // its type, so reading the header is valid before we know the type.
        let header = unsafe { &*raw.cast::<Header>() };
        let tag = header.tag.load(Ordering::Relaxed);
        if tag != Self::TAG || header.refs.load(Ordering::Relaxed) == 0 {
            return Err(Self::what_is_wrong(raw, tag));
        }
        // SAFETY: the tag says the object is a `T`, and `Handle<T>` is a
        // transparent wrapper of `T`.
        Ok(unsafe { &*raw.cast::<Handle<T>>() })
    }

    /// Why a non-NULL handle whose tag is `tag` was refused.
    #[cold]
    fn what_is_wrong(raw: *mut T::Raw, tag: u64) -> String {
        if tag == Self::TAG || tag == TAG_FREED {
            format!("{} {raw:p} was already released", T::NAME)
        } else {
            format!("{raw:p} is not a {}", T::NAME)
        }
    }

    /// A new internal reference to the object.
    pub(crate) fn arc(&self) -> Arc<T> {
        let ptr: *const T = &self.0;
        // SAFETY: a handle's object lives in an `Arc` allocation (made by
        // `into_raw`), and the application's references own a strong count
        // of it while this handle is live, so the count is above zero.
        unsafe {
            Arc::increment_strong_count(ptr);
            Arc::from_raw(ptr)
        }
    }

    /// Adds one application reference.
    pub(crate) fn add_ref(&self) {
        Self::header(&self.0).refs.fetch_add(1, Ordering::Relaxed);
    }

    /// Drops one application reference; the last one runs
    /// [`Object::last_release`] and gives up the application's strong count.
    ///
    /// # Safety
    /// `raw` is the pointer this handle was reached through; the caller gives
    /// up the reference it owned.
    pub(crate) unsafe fn release(&self, raw: *mut T::Raw) {
        if Self::header(&self.0).refs.fetch_sub(1, Ordering::Release) != 1 {
            return;
        }
        std::sync::atomic::fence(Ordering::Acquire);
        // SAFETY: the count reached zero, so the strong count the
        // application's references owned (from `Arc::into_raw` in
        // `into_raw`) is ours to give up; `raw` is that pointer.
        let obj = unsafe { Arc::from_raw(raw.cast_const().cast::<T>()) };
        T::last_release(&obj, raw);
        drop(obj);
    }
}

impl<T: Object> std::ops::Deref for Handle<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[repr(C)]
    struct Thing {
        header: Header,
        value: u32,
    }
    struct ThingRaw;
    impl Object for Thing {
        type Raw = ThingRaw;
        const NAME: &'static str = "WGPUThing";
        const HEADER_OFFSET: usize = std::mem::offset_of!(Thing, header);
    }
    #[repr(C)]
    struct Other {
        header: Header,
    }
    struct OtherRaw;
    impl Object for Other {
        type Raw = OtherRaw;
        const NAME: &'static str = "WGPUOther";
        const HEADER_OFFSET: usize = std::mem::offset_of!(Other, header);
    }

    #[test]
    fn handle_counts_and_types() {
        let obj = Arc::new(Thing { header: Header::default(), value: 7 });
        let raw = Handle::into_raw(obj.clone());
        assert_eq!(Arc::strong_count(&obj), 2);
        // SAFETY: `raw` is a live handle made just above.
        let h = unsafe { Handle::<Thing>::get(raw) }.unwrap();
        assert_eq!(h.value, 7);
        h.add_ref();
        // A second handle to the same object is the same pointer and owns no
        // extra strong count.
        assert_eq!(Handle::into_raw(obj.clone()), raw);
        assert_eq!(Arc::strong_count(&obj), 2);
        let inner = h.arc();
        assert_eq!(Arc::strong_count(&obj), 3);
        drop(inner);
        // SAFETY: three references are owned here.
        unsafe {
            h.release(raw);
            h.release(raw);
        }
        // A handle of one type is refused as another.
        // SAFETY: `raw` is still live (one reference left).
        let wrong = unsafe { Handle::<Other>::get(raw.cast()) };
        assert!(matches!(wrong, Err(why) if why.contains("is not a WGPUOther")));
        // SAFETY: the last reference.
        unsafe { h.release(raw) };
        assert_eq!(Arc::strong_count(&obj), 1);
        // The object is still alive (held by `obj`): its handle is known
        // released.
        // SAFETY: the memory is alive; the handle is stale, which `get`
        // reports.
        let stale = unsafe { Handle::<Thing>::get(raw) };
        assert!(matches!(stale, Err(why) if why.contains("already released")));
        // A new handle to the living object works again.
        assert_eq!(Handle::into_raw(obj.clone()), raw);
        // SAFETY: the reference made just above.
        unsafe { Handle::<Thing>::get(raw).unwrap().release(raw) };
        assert_eq!(Arc::strong_count(&obj), 1);
        // An object never handed out is not a handle.
        let bare = Arc::new(Thing { header: Header::default(), value: 1 });
        // SAFETY: the memory is alive.
        let not = unsafe { Handle::<Thing>::get(Arc::as_ptr(&bare).cast_mut().cast()) };
        assert!(matches!(not, Err(why) if why.contains("is not a WGPUThing")));
        // SAFETY: NULL is allowed.
        assert!(unsafe { Handle::<Thing>::get(std::ptr::null_mut()) }.is_err());
    }
}
