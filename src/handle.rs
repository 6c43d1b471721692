//! C object handles: one external reference count per handle, apart from the
//! internal `Arc`s.
//!
//! A `WGPUBuffer` (or any other object handle) points at a [`Handle<T>`]: a
//! heap block holding a type tag, the count of references the application
//! owns (changed only by `AddRef` and `Release`), and an `Arc<T>` to the
//! object. The library keeps its own references as clones of that `Arc`, so
//! the object outlives its handle when a command buffer, bind group or
//! pending callback still needs it. When the application's count reaches
//! zero, [`Object::last_release`] runs (device destroy, map abort, …) and the
//! handle block is freed.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

/// A Rust type that backs one C object type.
pub(crate) trait Object: Send + Sync + Sized + 'static {
    /// The opaque C type the handle points at (`WGPUBufferImpl`, …).
    type Raw;
    /// The C type name, for messages (`"WGPUBuffer"`).
    const NAME: &'static str;

    /// Runs once, when the application's last reference is released, before
    /// the handle is freed. `handle` is the pointer the application held.
    fn last_release(_this: &Arc<Self>, _handle: *mut Self::Raw) {}
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

/// Written into a handle's tag just before its block is freed.
const TAG_RELEASED: u64 = 0xdead_dead_dead_dead;

/// The block a C handle points at.
#[repr(C)]
pub(crate) struct Handle<T: Object> {
    tag: AtomicU64,
    refs: AtomicUsize,
    obj: Arc<T>,
}

impl<T: Object> Handle<T> {
    const TAG: u64 = tag_of(T::NAME);

    /// Wraps `obj` in a new handle that the application owns one reference of.
    pub(crate) fn into_raw(obj: Arc<T>) -> *mut T::Raw {
        let block = Box::new(Handle { tag: AtomicU64::new(Self::TAG), refs: AtomicUsize::new(1), obj });
        Box::into_raw(block).cast()
    }

    /// The object behind `raw`, or a description of what is wrong with it.
    ///
    /// # Safety
    /// `raw` is NULL or was returned by [`Handle::into_raw`] for some object
    /// type (any `T`), and the application still owns a reference to it.
    pub(crate) unsafe fn get<'a>(raw: *mut T::Raw) -> Result<&'a Handle<T>, String> {
        if raw.is_null() {
            return Err(format!("{} is NULL", T::NAME));
        }
        // SAFETY: the caller guarantees `raw` points at a live handle block;
        // every handle block starts with the tag word (repr(C)), whatever its
        // type, so reading the tag is valid before we know the type.
        let tag = unsafe { &*(raw as *const AtomicU64) }.load(Ordering::Relaxed);
        if tag == TAG_RELEASED {
            return Err(format!("{} {raw:p} was already released", T::NAME));
        }
        if tag != Self::TAG {
            return Err(format!("{raw:p} is not a {}", T::NAME));
        }
        // SAFETY: the tag says the block is a `Handle<T>`.
        Ok(unsafe { &*(raw as *const Handle<T>) })
    }

    /// The object.
    pub(crate) fn obj(&self) -> &Arc<T> {
        &self.obj
    }

    /// Adds one application reference.
    pub(crate) fn add_ref(&self) {
        self.refs.fetch_add(1, Ordering::Relaxed);
    }

    /// Adds one application reference unless the count already reached zero
    /// (a handle being freed on another thread). Used by objects that hand
    /// out the same handle again (`wgpuDeviceGetQueue`).
    pub(crate) fn try_add_ref(&self) -> bool {
        self.refs.fetch_update(Ordering::Acquire, Ordering::Relaxed, |n| (n > 0).then_some(n + 1)).is_ok()
    }

    /// Drops one application reference; the last one runs
    /// [`Object::last_release`] and frees the block.
    ///
    /// # Safety
    /// `raw` is the pointer this handle was reached through; the caller gives
    /// up the reference it owned.
    pub(crate) unsafe fn release(&self, raw: *mut T::Raw) {
        if self.refs.fetch_sub(1, Ordering::Release) != 1 {
            return;
        }
        std::sync::atomic::fence(Ordering::Acquire);
        T::last_release(&self.obj, raw);
        self.tag.store(TAG_RELEASED, Ordering::Relaxed);
        // SAFETY: the count reached zero, so no other reference to the block
        // is left; it was made by `Box::into_raw` in `into_raw`.
        drop(unsafe { Box::from_raw(raw as *mut Handle<T>) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Thing(u32);
    struct ThingRaw;
    impl Object for Thing {
        type Raw = ThingRaw;
        const NAME: &'static str = "WGPUThing";
    }
    struct Other;
    struct OtherRaw;
    impl Object for Other {
        type Raw = OtherRaw;
        const NAME: &'static str = "WGPUOther";
    }

    #[test]
    fn handle_counts_and_types() {
        let obj = Arc::new(Thing(7));
        let raw = Handle::into_raw(obj.clone());
        // SAFETY: `raw` is a live handle made just above.
        let h = unsafe { Handle::<Thing>::get(raw) }.unwrap();
        assert_eq!(h.obj().0, 7);
        h.add_ref();
        assert!(h.try_add_ref());
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
        // SAFETY: NULL is allowed.
        assert!(unsafe { Handle::<Thing>::get(std::ptr::null_mut()) }.is_err());
    }
}
