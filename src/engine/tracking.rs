//! The live objects of one device that `wgpuDeviceDestroy` must destroy
//! (wgpu-core leaves resources alone when a device is destroyed).
//!
//! An object takes a slot when it is created and gives it back when it is
//! dropped, so the set holds live objects only and an object's memory is
//! freed as soon as its last reference goes.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};

use parking_lot::Mutex;
use slotmap::{DefaultKey, Key, KeyData, SlotMap};

/// A set of live objects.
pub(crate) struct Tracker<T> {
    slots: Mutex<SlotMap<DefaultKey, Weak<T>>>,
}

/// An object's place in its tracker, set once after it was created: the
/// key's FFI form, never 0 for a key of an occupied slot (its version is
/// odd); 0 means "not tracked".
#[derive(Default)]
pub(crate) struct Slot(AtomicU64);

impl Slot {
    /// Whether the object was entered in a tracker.
    pub(crate) fn is_set(&self) -> bool {
        self.0.load(Ordering::Acquire) != 0
    }
}

impl<T> Default for Tracker<T> {
    fn default() -> Self {
        Tracker { slots: Mutex::new(SlotMap::new()) }
    }
}

impl<T> Tracker<T> {
    /// Adds `obj`, whose slot is `slot`.
    pub(crate) fn insert(&self, obj: &Arc<T>, slot: &Slot) {
        let key = self.slots.lock().insert(Arc::downgrade(obj));
        if slot.0.compare_exchange(0, key.data().as_ffi(), Ordering::AcqRel, Ordering::Acquire).is_err() {
            // Tracked twice: keep the first place.
            self.slots.lock().remove(key);
        }
    }

    /// Removes the object whose slot is `slot` (from its `Drop`).
    pub(crate) fn remove(&self, slot: &Slot) {
        let ffi = slot.0.load(Ordering::Acquire);
        if ffi != 0 {
            let weak = self.slots.lock().remove(DefaultKey::from(KeyData::from_ffi(ffi)));
            // The weak reference is dropped outside the lock.
            drop(weak);
        }
    }

    /// The objects alive now.
    pub(crate) fn live(&self) -> Vec<Arc<T>> {
        self.slots.lock().values().filter_map(Weak::upgrade).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Obj {
        slot: Slot,
        tracker: Arc<Tracker<Obj>>,
    }

    impl Drop for Obj {
        fn drop(&mut self) {
            self.tracker.remove(&self.slot);
        }
    }

    #[test]
    fn holds_exactly_the_live_objects() {
        let tracker = Arc::new(Tracker::default());
        let mut objs: Vec<Arc<Obj>> = (0..10)
            .map(|_| {
                let o = Arc::new(Obj { slot: Slot::default(), tracker: tracker.clone() });
                tracker.insert(&o, &o.slot);
                o
            })
            .collect();
        assert_eq!(tracker.live().len(), 10);
        objs.truncate(4);
        let live = tracker.live();
        assert_eq!(live.len(), 4);
        assert!(live.iter().all(|l| objs.iter().any(|o| Arc::ptr_eq(o, l))));
        drop(live);
        objs.clear();
        assert!(tracker.slots.lock().is_empty(), "dropped objects left slots behind");
    }
}
