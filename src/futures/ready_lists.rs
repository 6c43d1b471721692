//! Lists of ready events that a kind of delivery (ProcessEvents,
//! spontaneous) may take.
//!
//! An event becomes ready once and is then listed once, with its sequence
//! number. A delivery drains the whole list and takes the events it names a
//! few at a time; an event taken by another route meanwhile (WaitAny, the
//! other list's delivery) leaves a stale entry behind, skipped when the list
//! is drained. So listing, draining and taking cost O(1) per event, and an
//! event is touched only when it is taken.
//!
//! Each drain starts a new *epoch*, and a listed event records the epoch it
//! was listed in. When it is taken, that tells whether it is still in the
//! list (same epoch) or was drained by a delivery that is working through it:
//! so the list knows exactly how many of its entries are live, without a
//! pass over the events at each drain. Stale entries are swept once they
//! outnumber the live ones, which bounds the list at about twice the ready
//! events. (Epochs are 32 bits: an event would have to stay drained and
//! untaken across 2^32 drains to be mistaken for a listed one, which would
//! only delay ProcessEvents until the next event is listed.)

use slotmap::DefaultKey;

/// A listed event: its sequence number (delivery order) and key.
pub(super) type Listed = (u64, DefaultKey);

/// Keys of ready events, with stale entries among them.
#[derive(Default)]
pub(super) struct ReadyList {
    entries: Vec<Listed>,
    /// Entries whose event is still ready.
    live: usize,
    /// Drains so far (wrapping).
    epoch: u32,
}

/// Stale entries tolerated before a sweep, beyond the live count.
const SLACK: usize = 64;

impl ReadyList {
    /// Lists a newly ready event. Returns the epoch to record in the event,
    /// for [`ReadyList::taken`].
    #[inline]
    pub(super) fn push(&mut self, seq: u64, key: DefaultKey) -> u32 {
        self.entries.push((seq, key));
        self.live += 1;
        self.epoch
    }

    /// An event listed here in `epoch` was taken, by any route. Returns
    /// whether the list should be swept (see [`ReadyList::sweep`]).
    #[must_use]
    pub(super) fn taken(&mut self, epoch: u32) -> bool {
        if epoch != self.epoch {
            // Drained already: its entry left with the drain.
            return false;
        }
        self.live = self.live.saturating_sub(1);
        self.entries.len() > 2 * self.live + SLACK
    }

    /// Drops the stale entries: those for which `still_ready` is false.
    pub(super) fn sweep(&mut self, still_ready: impl Fn(DefaultKey) -> bool) {
        self.entries.retain(|&(_, k)| still_ready(k));
        self.live = self.entries.len();
    }

    /// Whether some listed event is still ready.
    #[inline]
    pub(super) fn has_live(&self) -> bool {
        self.live > 0
    }

    /// Empties the list and starts a new epoch, returning every entry, stale
    /// ones included, in delivery order (by sequence number).
    pub(super) fn drain(&mut self) -> Vec<Listed> {
        let mut list = std::mem::take(&mut self.entries);
        self.live = 0;
        self.epoch = self.epoch.wrapping_add(1);
        // Usually sorted already (completion follows registration).
        list.sort_unstable_by_key(|&(seq, _)| seq);
        list
    }

    /// Gives back the vector [`ReadyList::drain`] returned, once processed,
    /// so that its memory is reused when the list is still empty.
    pub(super) fn recycle(&mut self, mut used: Vec<Listed>) {
        if self.entries.is_empty() && used.capacity() > self.entries.capacity() {
            used.clear();
            self.entries = used;
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.len()
    }

    /// Forgets everything (a new epoch: no earlier entry is listed).
    pub(super) fn clear(&mut self) {
        self.entries.clear();
        self.live = 0;
        self.epoch = self.epoch.wrapping_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slotmap::SlotMap;

    #[test]
    fn stale_entries_are_swept_and_live_ones_kept() {
        // The value: the epoch the event was listed in, while it is ready.
        let mut map: SlotMap<DefaultKey, Option<u32>> = SlotMap::new();
        let mut list = ReadyList::default();
        let keys: Vec<_> = (0..1000).map(|_| map.insert(None)).collect();
        for (seq, &k) in keys.iter().enumerate().rev() {
            map[k] = Some(list.push(seq as u64, k));
        }
        assert!(list.has_live());
        // Take all but the first ten by another route.
        for &k in &keys[10..] {
            let epoch = map[k].take().unwrap();
            if list.taken(epoch) {
                list.sweep(|k| map[k].is_some());
            }
        }
        assert!(list.len() <= 2 * 10 + SLACK + 1, "{} entries", list.len());
        assert!(list.has_live());
        let mut left = list.drain();
        assert!(left.windows(2).all(|w| w[0].0 < w[1].0), "drained in sequence order");
        left.retain(|&(_, k)| map[k].is_some());
        assert_eq!(left.iter().map(|&(_, k)| k).collect::<Vec<_>>(), keys[..10].to_vec());
        assert!(!list.has_live(), "drained entries are the drainer's");
        // A new event listed while the drained ones are being taken.
        let late = map.insert(None);
        map[late] = Some(list.push(5000, late));
        for &k in &keys[..10] {
            let epoch = map[k].take().unwrap();
            assert!(!list.taken(epoch), "a drained event leaves the list alone");
        }
        assert!(list.has_live(), "the new event is still listed");
        assert!(!list.taken(map[late].take().unwrap()));
        assert!(!list.has_live());
    }
}
