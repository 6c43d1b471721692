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
use crate::engine::progress::Progress;
use crate::futures::{BatchId, Joined, Mode, Outcome, Registry, Source};
use crate::objects::device::Device;

/// The work-done state of one device's queue.
pub(crate) struct WorkDone {
    state: Mutex<State>,
    /// `State::issued`, readable without the lock.
    issued: AtomicU64,
    /// The generation of the newest batch not fired yet (0: none), readable
    /// without the lock: a future registered while it equals `issued` joins
    /// that batch with the registry lock alone.
    open: AtomicU64,
    /// The generation at which the queue was last found idle (every
    /// generation issued done, no batch outstanding; 0: not idle). Set
    /// under the state lock when a batch fires and leaves the queue idle,
    /// cleared when a batch is made: while it equals `issued`, a new future
    /// completes at once without the state lock.
    idle_at: AtomicU64,
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
    /// The generations of the batches registered and not fired yet, oldest
    /// first (rarely more than two). A generation has at most one batch.
    batches: Vec<u64>,
}

impl State {
    /// All work issued is known done and no batch is outstanding: a new
    /// future completes at once.
    fn idle(&self) -> bool {
        self.done >= self.issued && self.batches.is_empty()
    }
}

/// What a new work-done future does, when it needs no new batch.
enum Step<F> {
    /// Nothing issued is outstanding: it completes at once.
    Idle(F),
    /// It joined the batch of the current generation (or could not).
    Joined(Joined<F>),
}

/// Owned by the wgpu-core closure of one batch: completes it when called,
/// cancels it when wgpu-core drops the closure without calling it.
struct BatchGuard {
    work_done: Arc<WorkDone>,
    registry: Arc<Registry>,
    progress: Arc<Progress>,
    id: BatchId,
    fired: bool,
}

impl WorkDone {
    pub(crate) fn new() -> Arc<WorkDone> {
        Arc::new(WorkDone {
            state: Mutex::new(State { issued: 1, done: 0, batches: Vec::new() }),
            issued: AtomicU64::new(1),
            open: AtomicU64::new(0),
            idle_at: AtomicU64::new(0),
            order: Mutex::new(()),
            last_submission: AtomicU64::new(0),
        })
    }

    /// Counts a call that gave the queue work; called after wgpu-core
    /// returned from it.
    pub(crate) fn note_work(&self) {
        let mut st = self.state.lock();
        st.issued += 1;
        self.issued.store(st.issued, Ordering::Release);
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
    /// with `callback`. The common cases take the registry lock alone:
    /// completing at once when the queue is idle, and joining the batch of
    /// the current generation.
    #[inline(always)]
    pub(crate) fn register_future<F: FnOnce(Outcome<()>) + Send + 'static>(
        self: &Arc<Self>,
        device: &Device,
        mode: Mode,
        callback: F,
    ) -> WGPUFuture {
        let registry = &device.instance.registry;
        let source = Source::Queue(device.serial);
        // A batch of the current generation is open: join it. Should it have
        // fired meanwhile, the registry says so and the state decides.
        let generation = self.issued.load(Ordering::Acquire);
        // Idle at the current generation: nothing issued before this call is
        // outstanding, and the events of the batch whose firing found it so
        // were made ready before `idle_at` was set (so this one comes after
        // them). Work issued concurrently, once `generation` was read, is
        // not work issued before this call.
        if self.idle_at.load(Ordering::Acquire) == generation {
            return self.finish(device, mode, Step::Idle(callback));
        }
        let callback = if self.open.load(Ordering::Acquire) == generation {
            let id = BatchId { queue: device.serial, generation };
            match registry.join_batch(id, mode, source, callback) {
                Joined::Future(future) => return self.joined(device, mode, future),
                Joined::Refused(refused) => return cancelled(refused),
                Joined::Closed(callback) => callback,
            }
        } else {
            callback
        };
        let st = self.state.lock();
        let step = self.step(&st, device, mode, callback);
        drop(st);
        match step {
            Ok(step) => self.finish(device, mode, step),
            Err(callback) => self.new_batch(device, mode, callback),
        }
    }

    /// Makes a batch for the current generation with the future of
    /// `callback` in it, and hands it to wgpu-core.
    fn new_batch<F: FnOnce(Outcome<()>) + Send + 'static>(
        self: &Arc<Self>,
        device: &Device,
        mode: Mode,
        callback: F,
    ) -> WGPUFuture {
        let registry = &device.instance.registry;
        let source = Source::Queue(device.serial);
        // Batches are handed to wgpu-core in the order they are made
        // (`order`), so their closures run in that order too: a later batch
        // cannot complete before an earlier one that some call already
        // joined.
        let order = self.order.lock();
        let mut st = self.state.lock();
        // Another thread may have made the batch, or finished the work,
        // meanwhile.
        let callback = match self.step(&st, device, mode, callback) {
            Ok(step) => {
                drop(st);
                drop(order);
                return self.finish(device, mode, step);
            }
            Err(callback) => callback,
        };
        let id = BatchId { queue: device.serial, generation: st.issued };
        let future = match registry.open_batch(id, mode, source, callback) {
            Ok(future) => future,
            Err(refused) => {
                drop(st);
                drop(order);
                return cancelled(refused);
            }
        };
        st.batches.push(id.generation);
        self.idle_at.store(0, Ordering::Release);
        self.open.store(id.generation, Ordering::Release);
        drop(st);

        device.progress.begin_op(device.wants_progress(mode));
        let mut guard = BatchGuard {
            work_done: self.clone(),
            registry: registry.clone(),
            progress: device.progress.clone(),
            id,
            fired: false,
        };
        let waits_for = device.global().queue_on_submitted_work_done(device.queue_id, Box::new(move || guard.fire()));
        // wgpu-core flushed pending writes (a `wgpuQueueWriteBuffer` with
        // no submit since) as a submission of its own: the fence's waiters
        // count from it, and a GL fence covers it.
        device.progress.submissions.note_flush(waits_for);
        drop(order);
        if waits_for == 0 {
            // Nothing in flight: wgpu-core calls the closure at its next
            // poll: for a spontaneous callback one made now, else the one
            // the application's wait or poll makes (as for an idle
            // buffer's map, `map.rs`).
            if mode == Mode::AllowSpontaneous {
                device.poll_now();
            } else {
                device.progress.note_unpolled();
            }
        }
        future
    }

    /// What a new future does, decided under the state lock (`st`):
    /// completes at once when nothing issued is outstanding, or joins the
    /// batch of the current generation (here: under the state lock that
    /// batch cannot fire). Gives the callback back when a new batch is
    /// needed. Runs nothing: the caller finishes the step once it holds no
    /// lock.
    fn step<F: FnOnce(Outcome<()>) + Send + 'static>(
        &self,
        st: &State,
        device: &Device,
        mode: Mode,
        callback: F,
    ) -> Result<Step<F>, F> {
        if st.idle() {
            return Ok(Step::Idle(callback));
        }
        if st.batches.last() != Some(&st.issued) {
            return Err(callback);
        }
        let id = BatchId { queue: device.serial, generation: st.issued };
        Ok(Step::Joined(device.instance.registry.join_batch(id, mode, Source::Queue(device.serial), callback)))
    }

    /// Finishes a [`WorkDone::step`], with no lock held.
    #[inline(always)]
    fn finish<F: FnOnce(Outcome<()>) + Send + 'static>(
        &self,
        device: &Device,
        mode: Mode,
        step: Step<F>,
    ) -> WGPUFuture {
        let registry = &device.instance.registry;
        let source = Source::Queue(device.serial);
        match step {
            // Nothing issued is outstanding: done already, in one step.
            Step::Idle(callback) => registry.register_done(mode, source, (), callback),
            Step::Joined(Joined::Future(future)) => self.joined(device, mode, future),
            Step::Joined(Joined::Refused(refused)) => cancelled(refused),
            Step::Joined(Joined::Closed(callback)) => {
                // Never the case. A closed batch has fired: its work is done.
                log::error!(target: "wgpu_shim", "internal error: a work-done batch closed while held open");
                registry.register_done(mode, source, (), callback)
            }
        }
    }

    /// A future joined a batch: the batch's operation may have left the
    /// progress thread asleep, and this future may need it.
    fn joined(&self, device: &Device, mode: Mode, future: WGPUFuture) -> WGPUFuture {
        if device.wants_progress(mode) {
            // Without a polling thread (exit), the application's own calls
            // deliver the callback.
            let _ = device.progress.kick();
        }
        future
    }

    /// Removes the batch of `generation` (under the lock, which the caller
    /// keeps while completing it); whether it was outstanding.
    fn take(&self, st: &mut State, generation: u64) -> bool {
        let Some(i) = st.batches.iter().position(|&g| g == generation) else { return false };
        st.batches.remove(i);
        if self.open.load(Ordering::Relaxed) == generation {
            self.open.store(0, Ordering::Release);
        }
        true
    }
}

/// A callback the registry refused runs now, outside every lock, as
/// cancelled; the operation returns the null future.
fn cancelled(refused: crate::futures::Refused) -> WGPUFuture {
    refused.cancel();
    WGPUFuture { id: 0 }
}

impl BatchGuard {
    fn fire(&mut self) {
        self.fired = true;
        self.progress.end_op();
        let mut st = self.work_done.state.lock();
        if self.work_done.take(&mut st, self.id.generation) {
            st.done = st.done.max(self.id.generation);
            // Completed under the state lock: a future registered once it is
            // released finds the queue idle and completes after these.
            self.registry.finish_batch(self.id, true);
            if st.idle() {
                self.work_done.idle_at.store(st.issued, Ordering::Release);
            }
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
        crate::ffi::boundary::catching("a work-done batch", || {
            self.progress.end_op();
            let mut st = self.work_done.state.lock();
            if self.work_done.take(&mut st, self.id.generation) {
                log::debug!(target: "wgpu_shim", "queue work ended without a result; its callbacks get CallbackCancelled");
                self.registry.finish_batch(self.id, false);
            }
        });
    }
}
