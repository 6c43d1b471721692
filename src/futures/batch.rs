//! Batches: events that complete together, in one registry lock.
//!
//! The work-done futures registered while a queue's work stays the same all
//! wait for the same thing (`work_done.rs`). The registry keeps each open
//! batch's events in the order they joined, so joining one takes the
//! registry lock alone, and finishing one makes all its events ready at
//! once. A batch closes when it is finished: a late joiner is told so and
//! registers by another route.

use std::sync::Arc;

use super::registry::{Mode, Outcome, Refused, Registry, Source};
use crate::abi::WGPUFuture;

/// A batch's name: the queue (its device's serial) and the generation of
/// the queue work it waits for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct BatchId {
    pub(crate) queue: u64,
    pub(crate) generation: u64,
}

/// What joining a batch came to.
pub(crate) enum Joined<F> {
    /// The event is in the batch.
    Future(WGPUFuture),
    /// The batch is not open (finished already): the callback, back.
    Closed(F),
    /// The registry cannot track the event (instance closing, too many
    /// futures): its callback must run as cancelled, once no lock is held.
    Refused(Refused),
}

impl Registry {
    /// Opens batch `id` with a first pending event, whose callback is
    /// `callback`.
    pub(crate) fn open_batch(
        self: &Arc<Self>,
        id: BatchId,
        mode: Mode,
        source: Source,
        callback: impl FnOnce(Outcome<()>) + Send + 'static,
    ) -> Result<WGPUFuture, Refused> {
        let mut inner = self.lock();
        let (future, key) = inner.add(mode, source, Some(()), callback, false)?;
        match inner.batches.iter_mut().find(|(b, _)| *b == id) {
            // Never the case: a generation has one batch.
            Some((_, keys)) => keys.push(key),
            None => {
                let mut keys = std::mem::take(&mut inner.spare_keys);
                keys.push(key);
                inner.batches.push((id, keys));
            }
        }
        Ok(future)
    }

    /// Registers a pending event in the open batch `id`; gives the callback
    /// back when that batch is not open. May be called with other locks
    /// held (the work-done state): nothing runs here.
    #[inline(always)]
    pub(crate) fn join_batch<F: FnOnce(Outcome<()>) + Send + 'static>(
        self: &Arc<Self>,
        id: BatchId,
        mode: Mode,
        source: Source,
        callback: F,
    ) -> Joined<F> {
        let mut inner = self.lock();
        let Some(i) = inner.batches.iter().position(|(b, _)| *b == id) else {
            return Joined::Closed(callback);
        };
        match inner.add(mode, source, Some(()), callback, false) {
            Ok((future, key)) => {
                inner.batches[i].1.push(key);
                Joined::Future(future)
            }
            Err(refused) => Joined::Refused(refused),
        }
    }

    /// Closes batch `id` and completes its events in the order they joined:
    /// done when `ok`, else cancelled (the queue work will never be
    /// reported). Does nothing for a batch that is not open.
    pub(crate) fn finish_batch(self: &Arc<Self>, id: BatchId, ok: bool) {
        let mut inner = self.lock();
        let Some(i) = inner.batches.iter().position(|(b, _)| *b == id) else { return };
        let (_, mut keys) = inner.batches.swap_remove(i);
        let mut spontaneous = false;
        for &key in &keys {
            // A batch's bodies hold their `()` result from the start (a
            // pending event's result is never read); a batch that failed
            // takes it out, so its callbacks get CallbackCancelled.
            let made = if ok { inner.mark_ready(key) } else { inner.make_ready::<()>(key, None).0 };
            spontaneous |= made == Some(Mode::AllowSpontaneous);
        }
        inner.sync_readiness();
        if keys.capacity() > inner.spare_keys.capacity() {
            keys.clear();
            std::mem::swap(&mut keys, &mut inner.spare_keys);
        }
        let sleepers = inner.sleepers_to_wake();
        drop(inner);
        drop(keys);
        self.after_ready(spontaneous, sleepers);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn id(generation: u64) -> BatchId {
        BatchId { queue: 1, generation }
    }

    #[test]
    fn a_batch_completes_in_join_order_and_then_closes() {
        let reg = Registry::new();
        let order = Arc::new(parking_lot::Mutex::new(Vec::new()));
        let push = |i: u32| {
            let o = order.clone();
            move |out: Outcome<()>| {
                assert!(matches!(out, Outcome::Done(())));
                o.lock().push(i);
            }
        };
        let first = reg.open_batch(id(5), Mode::AllowProcessEvents, Source::Queue(1), push(0)).ok().expect("open");
        assert_ne!(first.id, 0);
        for i in 1..5 {
            match reg.join_batch(id(5), Mode::AllowProcessEvents, Source::Queue(1), push(i)) {
                Joined::Future(f) => assert_ne!(f.id, 0),
                _ => panic!("the batch is open"),
            }
        }
        assert!(matches!(reg.join_batch(id(6), Mode::WaitAnyOnly, Source::Queue(1), push(9)), Joined::Closed(_)));
        reg.process_events();
        assert!(order.lock().is_empty(), "nothing is ready before the batch finishes");
        reg.finish_batch(id(5), true);
        reg.process_events();
        assert_eq!(*order.lock(), vec![0, 1, 2, 3, 4]);
        assert!(
            matches!(reg.join_batch(id(5), Mode::WaitAnyOnly, Source::Queue(1), push(9)), Joined::Closed(_)),
            "a finished batch is closed"
        );
        reg.finish_batch(id(5), true);
        assert_eq!(order.lock().len(), 5, "finishing twice does nothing");
    }

    #[test]
    fn a_cancelled_batch_cancels_each_event_once_and_a_closed_registry_refuses() {
        let reg = Registry::new();
        let (done, cancelled) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let count = || {
            let (d, c) = (done.clone(), cancelled.clone());
            move |out: Outcome<()>| {
                let counter = if matches!(out, Outcome::Done(())) { &d } else { &c };
                counter.fetch_add(1, Ordering::SeqCst);
            }
        };
        assert!(reg.open_batch(id(1), Mode::AllowProcessEvents, Source::Queue(1), count()).is_ok());
        assert!(matches!(
            reg.join_batch(id(1), Mode::AllowProcessEvents, Source::Queue(1), count()),
            Joined::Future(_)
        ));
        reg.finish_batch(id(1), false);
        reg.process_events();
        assert_eq!((done.load(Ordering::SeqCst), cancelled.load(Ordering::SeqCst)), (0, 2));

        // Closing the instance cancels an open batch's events, and closes it.
        assert!(reg.open_batch(id(2), Mode::WaitAnyOnly, Source::Queue(1), count()).is_ok());
        reg.close();
        assert_eq!(cancelled.load(Ordering::SeqCst), 3);
        reg.finish_batch(id(2), true);
        assert_eq!(done.load(Ordering::SeqCst), 0);
        match reg.join_batch(id(2), Mode::WaitAnyOnly, Source::Queue(1), count()) {
            Joined::Closed(cb) => drop(cb),
            _ => panic!("closing the instance closes its batches"),
        }
        let Err(refused) = reg.open_batch(id(3), Mode::WaitAnyOnly, Source::Queue(1), count()) else {
            panic!("a closed registry refuses")
        };
        assert_eq!(cancelled.load(Ordering::SeqCst), 3, "a refused callback waits for `cancel`");
        refused.cancel();
        assert_eq!(cancelled.load(Ordering::SeqCst), 4);
    }
}
