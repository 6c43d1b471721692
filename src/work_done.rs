//! Work-done futures of one queue, completed in batches.
//!
//! `wgpuQueueOnSubmittedWorkDone` completes once all queue work issued
//! before it is done. Handing wgpu-core one closure per future costs, per
//! future, a flush of pending writes (a submission index is allocated each
//! time), a boxed closure, and — when the queue is idle, because wgpu-core
//! then defers the closure to the next poll — a whole device poll.
//!
//! Instead the device counts the calls that give its queue work (submits,
//! writes, unmaps and buffer drops, which may record pending writes): the
//! *generation*. Then:
//! - when every generation issued is known done and no batch is
//!   outstanding, a new future completes in the registering call, without
//!   wgpu-core;
//! - otherwise futures registered while the generation stays the same join
//!   one batch, and one wgpu-core closure completes the whole batch, in one
//!   registry lock, when the work of that generation is done.
//!
//! Ordering (behaviour §8.8): futures of one batch complete in call order;
//! wgpu-core calls the closures of successive batches in submission order,
//! after the map callbacks of the same submissions; a future completes in
//! its registering call only when no batch is outstanding, and a batch's
//! removal and completion happen in one step under the state lock.
//!
//! A generation is counted *after* its wgpu-core call returned, and a batch
//! records the generation before it is handed to wgpu-core, so every counted
//! piece of work is in wgpu-core before the batch's closure is registered
//! behind it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parking_lot::Mutex;

use crate::abi::WGPUFuture;
use crate::device::Device;
use crate::futures::{Completer, CompleterBatch, Mode, Outcome, Source};
use crate::progress::Progress;

/// The work-done state of one device's queue.
pub(crate) struct WorkDone {
    state: Mutex<State>,
    /// The newest submission index a submit returned (`wgpuDevicePoll`
    /// checks the indices it is given against it).
    last_submission: AtomicU64,
    /// Held while a new batch is made and handed to wgpu-core (taken before
    /// `state`, never while holding it).
    order: Mutex<()>,
}

struct State {
    /// Calls that gave the queue work so far. Starts at 1: creating the
    /// device may leave pending writes behind.
    issued: u64,
    /// Every generation up to this one is known complete.
    done: u64,
    /// Batches registered and not fired yet, oldest first (rarely more
    /// than two).
    batches: Vec<Batch>,
    next_batch: u64,
}

impl State {
    /// All work issued is known done and no batch is outstanding: a new
    /// future completes at once.
    fn idle(&self) -> bool {
        self.done >= self.issued && self.batches.is_empty()
    }
}

struct Batch {
    id: u64,
    generation: u64,
    completers: CompleterBatch<()>,
}

/// Owned by the wgpu-core closure of one batch: completes it when called,
/// cancels it when wgpu-core drops the closure without calling it.
struct BatchGuard {
    work_done: Arc<WorkDone>,
    progress: Arc<Progress>,
    id: u64,
    fired: bool,
}

impl WorkDone {
    pub(crate) fn new() -> Arc<WorkDone> {
        Arc::new(WorkDone {
            state: Mutex::new(State { issued: 1, done: 0, batches: Vec::new(), next_batch: 0 }),
            order: Mutex::new(()),
            last_submission: AtomicU64::new(0),
        })
    }

    /// Counts a call that gave the queue work; called after wgpu-core
    /// returned from it.
    pub(crate) fn note_work(&self) {
        self.state.lock().issued += 1;
    }

    /// Records the index a submit returned.
    pub(crate) fn note_submission(&self, index: u64) {
        self.last_submission.fetch_max(index, Ordering::AcqRel);
    }

    /// The newest submission index a submit returned (0: none yet).
    pub(crate) fn last_submission(&self) -> u64 {
        self.last_submission.load(Ordering::Acquire)
    }

    /// Whether all queue work issued so far is known done and no batch is
    /// outstanding: a new future can complete at once.
    pub(crate) fn is_idle(&self) -> bool {
        self.state.lock().idle()
    }

    /// Registers a work-done future of `device` in its instance's registry,
    /// with `callback`: the common cases take one state lock and one
    /// registry lock — completed at once when the queue is idle, or joined
    /// to the current generation's batch. A new batch goes through
    /// [`WorkDone::register`].
    pub(crate) fn register_future(
        self: &Arc<Self>,
        device: &Device,
        mode: Mode,
        callback: impl FnOnce(Outcome<()>) + Send + 'static,
    ) -> WGPUFuture {
        let registry = &device.instance.registry;
        let source = Source::Queue(device.serial);
        let mut st = self.state.lock();
        if st.idle() {
            drop(st);
            // Nothing issued is outstanding: done already, in one step.
            return registry.register_done(mode, source, (), callback);
        }
        let generation = st.issued;
        let joined = match st.batches.last_mut().filter(|b| b.generation == generation) {
            // The registry lock is taken inside the state lock, the order
            // every completion uses too.
            Some(batch) => Ok(registry.register_into(mode, source, callback, &mut batch.completers)),
            None => Err(callback),
        };
        drop(st);
        match joined {
            Ok(Ok(future)) => {
                // The batch's operation may have left the progress thread
                // asleep; this future may need it.
                if device.wants_progress(mode) {
                    device.progress.kick();
                }
                future
            }
            Ok(Err(refused)) => {
                // The instance is closing: the callback runs now, outside
                // the lock, as cancelled.
                refused.cancel();
                WGPUFuture { id: 0 }
            }
            Err(callback) => {
                let (future, completer) = registry.register::<()>(mode, source, callback);
                self.register(device, completer, mode);
                future
            }
        }
    }

    /// Completes `completer` (of a future whose callback has `mode`) once
    /// the queue work issued so far is done.
    pub(crate) fn register(self: &Arc<Self>, device: &Device, completer: Completer<()>, mode: Mode) {
        let wake = device.wants_progress(mode);
        // Joined a batch (or completed at once): the batch's operation may
        // have left the progress thread asleep.
        let joined = || {
            if wake {
                device.progress.kick();
            }
        };
        let Some(completer) = self.complete_or_join(&mut self.state.lock(), completer) else {
            joined();
            return;
        };
        // A new batch. Batches are handed to wgpu-core in the order they are
        // made (`order`), so their closures run in that order too: a later
        // batch cannot complete before an earlier one that some call already
        // joined.
        let _order = self.order.lock();
        let mut st = self.state.lock();
        // Another thread may have made a batch for this generation meanwhile.
        let Some(completer) = self.complete_or_join(&mut st, completer) else {
            drop(st);
            drop(_order);
            joined();
            return;
        };
        let id = st.next_batch;
        st.next_batch += 1;
        let mut completers = CompleterBatch::default();
        completers.push(completer);
        let generation = st.issued;
        st.batches.push(Batch { id, generation, completers });
        drop(st);

        device.progress.begin_op(wake);
        let mut guard = BatchGuard { work_done: self.clone(), progress: device.progress.clone(), id, fired: false };
        let waits_for = device.global().queue_on_submitted_work_done(device.queue_id, Box::new(move || guard.fire()));
        drop(_order);
        if waits_for == 0 {
            // Nothing in flight: wgpu-core calls the closure at its next
            // poll, which is now.
            device.poll_now();
        }
    }

    /// Completes `completer` at once when nothing is outstanding, or adds it
    /// to the batch of the current generation; gives it back when a new
    /// batch is needed.
    fn complete_or_join(&self, st: &mut State, completer: Completer<()>) -> Option<Completer<()>> {
        if st.idle() {
            completer.complete(());
            return None;
        }
        let generation = st.issued;
        match st.batches.last_mut().filter(|b| b.generation == generation) {
            Some(batch) => {
                batch.completers.push(completer);
                None
            }
            None => Some(completer),
        }
    }

    /// Takes batch `id` out (under the lock, which the caller keeps while
    /// completing it).
    fn take(st: &mut State, id: u64) -> Option<Batch> {
        let i = st.batches.iter().position(|b| b.id == id)?;
        Some(st.batches.remove(i))
    }
}

impl BatchGuard {
    fn fire(&mut self) {
        self.fired = true;
        self.progress.end_op();
        let mut st = self.work_done.state.lock();
        if let Some(batch) = WorkDone::take(&mut st, self.id) {
            st.done = st.done.max(batch.generation);
            batch.completers.complete_all(());
        }
    }
}

impl Drop for BatchGuard {
    fn drop(&mut self) {
        if self.fired {
            return;
        }
        // wgpu-core dropped the closure uncalled (its device went away):
        // the batch's callbacks get CallbackCancelled.
        self.progress.end_op();
        let batch = WorkDone::take(&mut self.work_done.state.lock(), self.id);
        drop(batch);
    }
}
