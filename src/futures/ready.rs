//! Lists of ready events that a kind of delivery (ProcessEvents,
//! spontaneous) may take.
//!
//! An event becomes ready once and is then listed once. Taking it by
//! another route (WaitAny, the other list's delivery) only counts it out:
//! its entry goes stale and is skipped when the list is drained, so listing
//! and unlisting cost O(1). Stale entries are swept once they outnumber the
//! live ones, which bounds the list at about twice the ready events.
//! Delivery order comes from the events' sequence numbers, not from here.

use slotmap::DefaultKey;

/// Keys of ready events, with stale entries among them.
#[derive(Default)]
pub(super) struct ReadyList {
    entries: Vec<DefaultKey>,
    /// Entries whose event is still ready and listed here.
    live: usize,
}

/// Stale entries tolerated before a sweep, beyond the live count.
const SLACK: usize = 64;

impl ReadyList {
    /// Lists a newly ready event.
    pub(super) fn push(&mut self, key: DefaultKey) {
        self.entries.push(key);
        self.live += 1;
    }

    /// An event listed here was taken: its entry is now stale. Returns
    /// whether the list should be swept (see [`ReadyList::sweep`]).
    #[must_use]
    pub(super) fn unlist(&mut self) -> bool {
        self.live = self.live.saturating_sub(1);
        self.entries.len() > 2 * self.live + SLACK
    }

    /// Drops the stale entries: those for which `still_listed` is false.
    pub(super) fn sweep(&mut self, still_listed: impl Fn(DefaultKey) -> bool) {
        self.entries.retain(|&k| still_listed(k));
        self.live = self.entries.len();
    }

    /// Whether some listed event is ready.
    pub(super) fn has_live(&self) -> bool {
        self.live > 0
    }

    /// Empties the list, returning every entry, stale ones included: the
    /// caller takes all the ready ones (their [`ReadyList::unlist`] calls
    /// then find the list empty).
    pub(super) fn drain(&mut self) -> Vec<DefaultKey> {
        self.live = 0;
        std::mem::take(&mut self.entries)
    }

    /// Gives back the vector [`ReadyList::drain`] returned, once processed,
    /// so that its memory is reused (the list is empty again while the
    /// caller holds the registry lock).
    pub(super) fn recycle(&mut self, mut used: Vec<DefaultKey>) {
        if self.entries.is_empty() && used.capacity() > self.entries.capacity() {
            used.clear();
            self.entries = used;
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.len()
    }

    /// Forgets everything.
    pub(super) fn clear(&mut self) {
        self.entries.clear();
        self.live = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slotmap::SlotMap;

    #[test]
    fn stale_entries_are_swept_and_live_ones_kept() {
        let mut map: SlotMap<DefaultKey, bool> = SlotMap::new();
        let mut list = ReadyList::default();
        let keys: Vec<_> = (0..1000).map(|_| map.insert(true)).collect();
        for &k in &keys {
            list.push(k);
        }
        assert!(list.has_live());
        // Take all but the last ten by another route.
        for &k in &keys[..990] {
            map[k] = false;
            if list.unlist() {
                list.sweep(|k| map[k]);
            }
        }
        assert!(list.len() <= 2 * 10 + SLACK + 1, "{} entries", list.len());
        let mut left = list.drain();
        left.retain(|&k| map[k]);
        assert_eq!(left, keys[990..].to_vec());
        assert!(!list.has_live());
        assert!(!list.unlist(), "an emptied list needs no sweep");
    }
}
