//! The registry's events, each in a slot named by a key: the slot's index
//! and its *version*, odd while the slot holds a value and advanced by
//! every insertion and removal, so a key of a removed event finds nothing.
//!
//! This is the part of `slotmap::SlotMap` the registry uses, with the same
//! key format (`DefaultKey`), made so that the two hot operations inline
//! and touch only what they must:
//! - a slot always holds a valid value, a vacant one too (`T::VACANT`, or
//!   what was retired there), so registering a future fills its event in
//!   place, field by field (`insert_with`). Through `SlotMap` each
//!   insertion was a call that copied a whole event from the stack, and an
//!   event moved as a whole was staged on the stack in stores of other
//!   widths than the loads that copied it, which stalled on store
//!   forwarding;
//! - a delivered event, whose body has been taken, is retired by marking its
//!   slot vacant (`retire`), without reading it back to drop it.

use slotmap::{DefaultKey, Key as _, KeyData};

/// No vacant slot.
const NONE: u32 = u32::MAX;

/// A value that owns nothing, which vacant slots hold.
pub(super) trait Vacant {
    const VACANT: Self;
}

/// Values of type `T` in slots named by [`DefaultKey`]s.
pub(super) struct Slots<T> {
    slots: Vec<Slot<T>>,
    /// The vacant slot to fill next ([`NONE`] for none): the one vacated
    /// last, so a burst of futures reuses the slots of the last burst.
    free_head: u32,
    /// Occupied slots.
    len: usize,
}

struct Slot<T> {
    value: T,
    /// Odd while the slot is occupied.
    version: u32,
    /// The next vacant slot, while this one is vacant.
    next_free: u32,
}

/// A key's slot index and version.
#[inline(always)]
fn parts(key: DefaultKey) -> (usize, u32) {
    let ffi = key.data().as_ffi();
    (ffi as u32 as usize, (ffi >> 32) as u32)
}

/// The key of slot `idx` at `version`.
#[inline(always)]
fn key(idx: u32, version: u32) -> DefaultKey {
    DefaultKey::from(KeyData::from_ffi((u64::from(version) << 32) | u64::from(idx)))
}

impl<T: Vacant> Slots<T> {
    pub(super) fn new() -> Slots<T> {
        Slots { slots: Vec::new(), free_head: NONE, len: 0 }
    }

    /// The occupied slot `key` names.
    #[inline(always)]
    fn slot(&self, key: DefaultKey) -> Option<&Slot<T>> {
        let (idx, version) = parts(key);
        self.slots.get(idx).filter(|s| s.version == version && version & 1 == 1)
    }

    #[inline(always)]
    fn slot_mut(&mut self, key: DefaultKey) -> Option<&mut Slot<T>> {
        let (idx, version) = parts(key);
        self.slots.get_mut(idx).filter(|s| s.version == version && version & 1 == 1)
    }

    /// Occupies a vacant slot, or a new one, and returns its key. `fill`
    /// gets the value the slot holds (vacant: it owns nothing, or was
    /// retired) and sets every field of the new value.
    #[inline(always)]
    pub(super) fn insert_with(&mut self, fill: impl FnOnce(&mut T)) -> DefaultKey {
        let idx = match self.slots.get(self.free_head as usize) {
            Some(slot) => {
                let idx = self.free_head;
                self.free_head = slot.next_free;
                idx
            }
            None => self.grow(),
        };
        self.len += 1;
        // In range: a free slot found above, or the one `grow` just pushed.
        let slot = &mut self.slots[idx as usize];
        slot.version = slot.version.wrapping_add(1) | 1;
        fill(&mut slot.value);
        key(idx, slot.version)
    }

    /// A new vacant slot, for [`Slots::insert_with`] to fill.
    #[inline(never)]
    fn grow(&mut self) -> u32 {
        self.slots.push(Slot { value: T::VACANT, version: 0, next_free: NONE });
        (self.slots.len() - 1) as u32
    }

    /// The value `key` names, if it is still there.
    #[inline(always)]
    pub(super) fn get(&self, key: DefaultKey) -> Option<&T> {
        self.slot(key).map(|s| &s.value)
    }

    #[inline(always)]
    pub(super) fn get_mut(&mut self, key: DefaultKey) -> Option<&mut T> {
        self.slot_mut(key).map(|s| &mut s.value)
    }

    pub(super) fn contains_key(&self, key: DefaultKey) -> bool {
        self.slot(key).is_some()
    }

    /// Vacates `key`'s slot and returns its value, if it was occupied.
    pub(super) fn remove(&mut self, key: DefaultKey) -> Option<T> {
        let value = std::mem::replace(&mut self.slot_mut(key)?.value, T::VACANT);
        self.retire(key);
        Some(value)
    }

    /// Vacates `key`'s slot, leaving its value there unread: for a value
    /// that owns nothing any more (an event whose body was taken). It is
    /// dropped when the slot is filled again, or with the map.
    #[inline(always)]
    pub(super) fn retire(&mut self, key: DefaultKey) {
        let (idx, _) = parts(key);
        let free_head = self.free_head;
        let Some(slot) = self.slot_mut(key) else { return };
        slot.version = slot.version.wrapping_add(1);
        slot.next_free = free_head;
        self.free_head = idx as u32;
        self.len -= 1;
    }

    /// The occupied slots' keys and values.
    pub(super) fn iter(&self) -> impl Iterator<Item = (DefaultKey, &T)> {
        let occupied = self.slots.iter().enumerate().filter(|(_, s)| s.version & 1 == 1);
        occupied.map(|(i, s)| (key(i as u32, s.version), &s.value))
    }

    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    impl Vacant for u32 {
        const VACANT: u32 = 0;
    }

    impl Vacant for Option<Rc<()>> {
        const VACANT: Self = None;
    }

    #[test]
    fn keys_of_removed_values_find_nothing_and_slots_are_reused() {
        let mut s = Slots::new();
        let a = s.insert_with(|v| *v = 1u32);
        let b = s.insert_with(|v| *v = 2);
        assert_eq!((s.get(a), s.get(b), s.len()), (Some(&1), Some(&2), 2));
        assert_eq!(s.remove(a), Some(1));
        assert!(!s.contains_key(a) && s.get(a).is_none() && s.remove(a).is_none());
        let c = s.insert_with(|v| {
            assert_eq!(*v, 0, "a removed value leaves a vacant one");
            *v = 3;
        });
        assert_eq!(parts(c).0, parts(a).0, "the vacated slot is reused");
        assert_ne!(c, a, "with a new version");
        assert!(s.get(a).is_none());
        assert_eq!(s.get(c), Some(&3));
        s.retire(b);
        assert!(s.get(b).is_none() && s.len() == 1);
        s.retire(b);
        assert_eq!(s.len(), 1, "retiring a stale key does nothing");
        assert_eq!(s.iter().map(|(k, v)| (k, *v)).collect::<Vec<_>>(), vec![(c, 3)]);
        // Every version handed out is odd (registry ids rely on it), and a
        // key of a later version of an occupied slot is not found.
        assert_eq!(parts(c).1 & 1, 1);
        let later = key(parts(c).0 as u32, parts(c).1 + 2);
        assert!(s.get(later).is_none() && !s.contains_key(later));
    }

    #[test]
    fn values_are_dropped_once_whether_removed_retired_or_left() {
        let rc = Rc::new(());
        let mut s = Slots::new();
        let kept = s.insert_with(|v| *v = Some(rc.clone()));
        let retired = s.insert_with(|v| *v = Some(rc.clone()));
        let removed = s.insert_with(|v| *v = Some(rc.clone()));
        drop(s.remove(removed));
        assert_eq!(Rc::strong_count(&rc), 3);
        s.retire(retired);
        assert_eq!(Rc::strong_count(&rc), 3, "a retired value stays in its slot");
        s.insert_with(|v| *v = None);
        assert_eq!(Rc::strong_count(&rc), 2, "and goes when the slot is filled again");
        assert!(s.get(kept).is_some());
        drop(s);
        assert_eq!(Rc::strong_count(&rc), 1, "the values left go with the map");
    }
}
