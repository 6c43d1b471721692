//! The registry of one instance's futures.
//!
//! Every asynchronous operation registers an event and gets back a
//! `WGPUFuture` whose id is the event's slotmap key in FFI form, with the
//! registry's tag in bits 24..32 of the slot index (so a future of another
//! instance is recognised as foreign, up to 255 live instances). An event is
//! `Pending` until its operation completes, `Ready` until some thread takes
//! it to run its callback (`Delivering`), and is removed from the map once
//! the callback has returned. A key whose slot has moved on is therefore a
//! completed future; `issued` (the newest version handed out per slot)
//! tells a completed id from one this registry never issued, so nothing is
//! remembered about completed futures.
//!
//! Lock discipline: the registry lock is a leaf. It is never held while
//! calling into wgpu-core or running a callback.

use std::sync::Arc;

use parking_lot::{Condvar, Mutex, MutexGuard};
use slotmap::{DefaultKey, Key as _, KeyData};

use super::slots::Slots;

use super::batch::BatchId;
use super::body::Body;
use super::readiness_handle::Readiness;
use super::ready_lists::ReadyList;
use super::thread_key::ThreadKey;
use super::wait::DirectSleep;
use crate::abi::{WGPUCallbackMode, WGPUFuture};

/// When a callback may run (the `WGPUCallbackMode`s).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Mode {
    /// Only inside a `wgpuInstanceWaitAny` that lists the future.
    WaitAnyOnly,
    /// Also inside `wgpuInstanceProcessEvents`.
    AllowProcessEvents,
    /// Also on any thread, as soon as the operation completes.
    AllowSpontaneous,
}

impl Mode {
    /// The mode a C caller asked for; `None` for 0 and unknown values.
    #[inline]
    pub(crate) fn from_c(mode: WGPUCallbackMode) -> Option<Mode> {
        match mode {
            WGPUCallbackMode::WaitAnyOnly => Some(Mode::WaitAnyOnly),
            WGPUCallbackMode::AllowProcessEvents => Some(Mode::AllowProcessEvents),
            WGPUCallbackMode::AllowSpontaneous => Some(Mode::AllowSpontaneous),
            _ => None,
        }
    }
}

/// What an event waits on, for the mixed-source rule of timed waits.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub(crate) enum Source {
    /// CPU-timeline work (adapter and device requests, error scopes, …).
    Cpu,
    /// The queue of the device with this serial number.
    Queue(u64),
}

/// What a callback is called with.
pub(crate) enum Outcome<R> {
    /// The operation finished with this result.
    Done(R),
    /// The instance was released first (`*_CallbackCancelled`).
    Cancelled,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum State {
    Pending,
    Ready,
    /// Taken by the thread in [`Event::deliverer`], which runs the callback.
    Delivering,
}

/// One operation. Kept small (80 bytes): a burst of futures walks them.
pub(super) struct Event {
    pub(super) seq: u64,
    /// The [`Source`], packed: 0 for the CPU, else the queue's device serial
    /// (serials start at 1).
    source: u64,
    /// The thread delivering the callback, once `Delivering`.
    pub(super) deliverer: Option<ThreadKey>,
    pub(super) body: Option<Body>,
    pub(super) mode: Mode,
    pub(super) state: State,
    /// The epochs it was listed in, on `ready_process` and
    /// `ready_spontaneous` (see `ready.rs`).
    pub(super) listed: [u32; 2],
}

// A burst of futures walks the events: keep them from growing unnoticed.
const _: () = assert!(std::mem::size_of::<Event>() <= 80);

impl super::slots::Vacant for Event {
    /// What a vacant slot holds: an event with no body.
    const VACANT: Event = Event {
        seq: 0,
        source: 0,
        deliverer: None,
        body: None,
        mode: Mode::WaitAnyOnly,
        state: State::Pending,
        listed: [0; 2],
    };
}

impl Event {
    /// What the operation waits on.
    pub(super) fn source(&self) -> Source {
        match self.source {
            0 => Source::Cpu,
            serial => Source::Queue(serial),
        }
    }
}

/// What a future id refers to.
pub(super) enum Lookup {
    Live(DefaultKey),
    Completed,
    Unknown,
}

pub(super) struct Inner {
    /// This registry's tag, in bits 24..32 of every id it issues.
    tag: u32,
    pub(super) events: Slots<Event>,
    /// Newest version issued per slot index.
    issued: Vec<u32>,
    next_seq: u64,
    /// Set when the instance is released: nothing new is tracked.
    closed: bool,
    /// Ready events that ProcessEvents may deliver, by sequence number.
    pub(super) ready_process: ReadyList,
    /// Ready spontaneous events, by sequence number.
    pub(super) ready_spontaneous: ReadyList,
    /// A thread is delivering `ready_spontaneous`: it goes on until the list
    /// is empty, and others leave what they find to it, so spontaneous
    /// callbacks run one at a time, in future order (behaviour §8.6).
    pub(super) spontaneous_busy: bool,
    /// Counts the events that stopped being pending (made ready, or
    /// cancelled by a close), wrapping: a WaitAny that released the lock
    /// with every listed future pending needs to scan again only when it
    /// changed meanwhile.
    pub(super) completions: u64,
    /// Threads in WaitAny sleeping on a device's fence: every event made
    /// ready by another thread wakes them (see `direct_wait.rs`).
    pub(super) sleepers: Vec<(ThreadKey, Arc<dyn DirectSleep>)>,
    /// Readable while `ready_process` is not empty (when asked for).
    pub(super) readiness: Option<Readiness>,
    /// The open batches and their events, in the order they joined
    /// (`batch.rs`).
    pub(super) batches: Vec<(BatchId, Vec<DefaultKey>)>,
    /// The key vector of the last finished batch, kept for the next one to
    /// start with its capacity (batches of thousands come one after another).
    pub(super) spare_keys: Vec<DefaultKey>,
    /// The chunk vector of the last finished delivery, for the next one
    /// (`deliver.rs`): a wait that delivers one callback allocates nothing.
    pub(super) spare_chunk: super::deliver::ChunkVec,
}

/// One instance's futures.
pub(crate) struct Registry {
    pub(super) inner: Mutex<Inner>,
    /// Signalled whenever an event becomes ready or a delivery finishes.
    pub(super) changed: Condvar,
    /// The instance has a readiness handle (an event loop waits on it, so
    /// devices must move on by themselves).
    has_readiness: bool,
}

/// The right to complete one event, held by whoever will finish the
/// operation. Dropping it without completing delivers `CallbackCancelled`
/// rather than losing the callback.
pub(crate) struct Completer<R: Send + 'static> {
    registry: Arc<Registry>,
    key: Option<DefaultKey>,
    _result: std::marker::PhantomData<fn(R)>,
}

/// An operation the registry could not track (its instance is closing, or
/// too many futures are pending): its callback must still run, as
/// cancelled, once no internal lock is held.
pub(crate) struct Refused(pub(super) Option<Body>);

impl Refused {
    /// Runs the callback with `CallbackCancelled`.
    pub(crate) fn cancel(self) {
        if let Some(body) = self.0 {
            body.run(true);
        }
    }
}

impl Registry {
    #[cfg(test)]
    pub(crate) fn new() -> Arc<Registry> {
        Registry::with_readiness(None)
    }

    /// A registry that keeps `readiness` readable while ProcessEvents has
    /// callbacks to run.
    pub(crate) fn with_readiness(readiness: Option<Readiness>) -> Arc<Registry> {
        static NEXT_TAG: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let tag = NEXT_TAG.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 255 + 1;
        let has_readiness = readiness.is_some();
        Arc::new(Registry {
            inner: Mutex::new(Inner {
                tag,
                events: Slots::new(),
                issued: Vec::new(),
                next_seq: 1,
                closed: false,
                ready_process: ReadyList::default(),
                ready_spontaneous: ReadyList::default(),
                spontaneous_busy: false,
                completions: 0,
                sleepers: Vec::new(),
                readiness,
                batches: Vec::new(),
                spare_keys: Vec::new(),
                spare_chunk: Vec::new(),
            }),
            changed: Condvar::new(),
            has_readiness,
        })
    }

    /// Registers an operation whose callback is `callback`. Returns its
    /// future and the completer; after the instance was released the
    /// callback runs at once as cancelled and the null future is returned.
    pub(crate) fn register<R: Send + 'static>(
        self: &Arc<Self>,
        mode: Mode,
        source: Source,
        callback: impl FnOnce(Outcome<R>) + Send + 'static,
    ) -> (WGPUFuture, Completer<R>) {
        // The lock goes with this statement: a refused callback runs as
        // cancelled with no lock held.
        let added = self.lock().add(mode, source, None::<R>, callback, false);
        let (future, key) = match added {
            Ok((future, key)) => (future, Some(key)),
            Err(refused) => {
                refused.cancel();
                (WGPUFuture { id: 0 }, None)
            }
        };
        (future, Completer { registry: self.clone(), key, _result: Default::default() })
    }

    /// Registers an operation that has already completed with `result`, in
    /// one step: the same as [`Registry::register`] followed by
    /// [`Completer::complete`].
    ///
    /// An `AllowSpontaneous` one, when no other spontaneous callback is
    /// waiting to be delivered, skips the ready lists: its id is issued and
    /// retired in the same lock, and its callback runs when this thread's
    /// API call returns. Nobody can wait on the id before it is returned,
    /// and nothing spontaneous is ahead of it.
    #[inline(always)]
    pub(crate) fn register_done<R: Send + 'static>(
        self: &Arc<Self>,
        mode: Mode,
        source: Source,
        result: R,
        callback: impl FnOnce(Outcome<R>) + Send + 'static,
    ) -> WGPUFuture {
        self.register_done_in(mode, false, source, result, callback)
    }

    /// [`Registry::register_done`] for a call rejected for an invalid
    /// callback mode: its callback runs when this thread's API call
    /// returns, also when other spontaneous callbacks are waiting to be
    /// delivered (by this thread or another). No mode was given, so no
    /// order among spontaneous callbacks applies to it, and the call's own
    /// return is the one point its caller can count on
    /// (docs/DECISIONS.md, "A rejected asynchronous call").
    pub(crate) fn register_rejected_mode<R: Send + 'static>(
        self: &Arc<Self>,
        source: Source,
        result: R,
        callback: impl FnOnce(Outcome<R>) + Send + 'static,
    ) -> WGPUFuture {
        self.register_done_in(Mode::AllowSpontaneous, true, source, result, callback)
    }

    #[inline(always)]
    fn register_done_in<R: Send + 'static>(
        self: &Arc<Self>,
        mode: Mode,
        before_return: bool,
        source: Source,
        result: R,
        callback: impl FnOnce(Outcome<R>) + Send + 'static,
    ) -> WGPUFuture {
        let mut inner = self.lock();
        let at_once = mode == Mode::AllowSpontaneous && (before_return || !inner.ready_spontaneous.has_live());
        if at_once {
            // Issued and retired in one step: the body never enters the
            // registry.
            let added = inner.add_event(mode, source, false);
            if let Some((_, key)) = added {
                inner.retire_taken(key);
            }
            drop(inner);
            let body = Body::new(Some(result), callback);
            return match added {
                Some((future, _)) => {
                    super::run_at_flush(body);
                    future
                }
                None => {
                    body.run(true);
                    WGPUFuture { id: 0 }
                }
            };
        }
        match inner.add(mode, source, Some(result), callback, true) {
            Ok((future, _)) => {
                drop(inner);
                // Nobody waits for a future that did not exist when their
                // wait began (WaitAny lists existing futures only): no
                // condition variable or sleeper to wake.
                if mode == Mode::AllowSpontaneous {
                    super::note_spontaneous(self);
                }
                future
            }
            Err(refused) => {
                drop(inner);
                refused.cancel();
                WGPUFuture { id: 0 }
            }
        }
    }

    /// Whether the instance has a readiness handle.
    pub(crate) fn has_readiness(&self) -> bool {
        self.has_readiness
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock()
    }

    /// The readiness descriptor, if this registry has one.
    #[cfg(unix)]
    pub(crate) fn readiness_fd(&self) -> Option<std::os::fd::RawFd> {
        self.inner.lock().readiness.as_ref().map(Readiness::fd)
    }

    /// The readiness event handle, if this registry has one.
    #[cfg(windows)]
    pub(crate) fn readiness_event(&self) -> Option<*mut std::ffi::c_void> {
        self.inner.lock().readiness.as_ref().map(Readiness::event)
    }

    /// Marks the instance released and runs every callback not yet
    /// delivered with `CallbackCancelled`, in future order, on this thread.
    /// Events being delivered by another thread finish there.
    pub(crate) fn close(&self) {
        for (_, body) in self.close_taking() {
            super::deliver::run_guarded(body, true);
        }
    }

    /// [`Registry::close`] for the exit barrier: the callbacks are handed to
    /// the next API call instead of run here (`futures::defer_cancelled`).
    #[cfg_attr(windows, allow(dead_code))] // The exit barrier's work, which Windows skips (exit.rs).
    pub(crate) fn close_at_exit(&self) {
        super::defer_cancelled(self.close_taking().into_iter().map(|(_, body)| body).collect());
    }

    /// Closes the registry and takes every callback not yet delivered, in
    /// future order.
    fn close_taking(&self) -> Vec<(u64, Body)> {
        let mut inner = self.inner.lock();
        inner.closed = true;
        inner.completions = inner.completions.wrapping_add(1);
        let mut taken: Vec<(u64, Body)> = Vec::new();
        let keys: Vec<DefaultKey> =
            inner.events.iter().filter(|(_, ev)| ev.state != State::Delivering).map(|(k, _)| k).collect();
        for key in keys {
            if let Some(mut ev) = inner.events.remove(key) {
                if let Some(body) = ev.body.take() {
                    taken.push((ev.seq, body));
                }
            }
        }
        inner.ready_process.clear();
        inner.ready_spontaneous.clear();
        inner.batches.clear();
        inner.sync_readiness();
        let sleepers = inner.sleepers_to_wake();
        drop(inner);
        self.changed.notify_all();
        for s in sleepers.into_iter().flatten() {
            s.wake();
        }
        taken.sort_by_key(|(seq, _)| *seq);
        taken
    }

    /// Whether the future `id` has completed (ready, being delivered, or
    /// delivered). `None` for an id this registry never issued.
    #[cfg(test)]
    pub(crate) fn is_complete(&self, id: u64) -> Option<bool> {
        let inner = self.inner.lock();
        match inner.lookup(id) {
            Lookup::Live(key) => inner.events.get(key).map(|ev| ev.state != State::Pending),
            Lookup::Completed => Some(true),
            Lookup::Unknown => None,
        }
    }
}

impl Inner {
    /// Adds an event for `callback`, pending or (with `result` stored)
    /// ready, and returns its future and key; refuses it when the instance
    /// is closing or too many futures are pending.
    ///
    /// The body is built here, in the event's slot, rather than built by
    /// the caller and moved in: a body's small fields (the `Option<()>` of
    /// a work-done result is one byte) written just before the lock and
    /// read back in words to move them stalled on store forwarding.
    #[inline(always)]
    pub(super) fn add<R: Send + 'static, F: FnOnce(Outcome<R>) + Send + 'static>(
        &mut self,
        mode: Mode,
        source: Source,
        result: Option<R>,
        callback: F,
        ready: bool,
    ) -> Result<(WGPUFuture, DefaultKey), Refused> {
        let added = self.add_event(mode, source, ready);
        let found = added.and_then(|(future, key)| Some((future, key, self.events.get_mut(key)?)));
        let Some((future, key, ev)) = found else {
            // Refused (or, never the case, not found just after it was
            // added): the callback is handed back, to run as cancelled.
            return Err(Refused(Some(Body::new(result, callback))));
        };
        // A vacant event's body is `None` (retired events had theirs
        // taken): overwritten without being read back to drop it.
        debug_assert!(ev.body.is_none(), "a vacant event had a body");
        // SAFETY: `&mut ev.body` is valid for writes. Were the body it
        // replaces not `None`, it would leak, not be used again.
        unsafe { std::ptr::write(&mut ev.body, Some(Body::new(result, callback))) };
        Ok((future, key))
    }

    /// [`Inner::add`] without the body: the event, its id and its place on
    /// the ready lists. `None` when it is refused.
    #[inline(always)]
    pub(super) fn add_event(&mut self, mode: Mode, source: Source, ready: bool) -> Option<(WGPUFuture, DefaultKey)> {
        if self.closed {
            return None;
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        let state = if ready { State::Ready } else { State::Pending };
        let source = match source {
            Source::Cpu => 0,
            Source::Queue(serial) => {
                debug_assert_ne!(serial, 0, "device serials start at 1");
                serial
            }
        };
        // Filled in place, field by field; the body follows in `add`. (An
        // event built whole is staged on the stack and copied, and the copy
        // stalls on store forwarding.)
        let key = self.events.insert_with(|ev| {
            ev.seq = seq;
            ev.source = source;
            ev.deliverer = None;
            ev.mode = mode;
            ev.state = state;
            ev.listed = [0; 2];
        });
        let (idx, version) = split(key.data().as_ffi());
        if idx > SLOT_MASK {
            // 16 million futures pending at once: refuse the 16,777,217th.
            self.events.remove(key);
            log::error!(target: "wgpu_shim", "too many futures pending at once; the operation's callback gets CallbackCancelled");
            return None;
        }
        if self.issued.len() <= idx as usize {
            self.issued.resize(idx as usize + 1, 0);
        }
        self.issued[idx as usize] = version;
        if ready {
            let Inner { events, ready_process, ready_spontaneous, .. } = self;
            if let Some(ev) = events.get_mut(key) {
                ev.listed = list_ready(ready_process, ready_spontaneous, mode, seq, key);
            }
            self.sync_readiness();
        }
        let id = (u64::from(version) << 32) | u64::from(self.tag << 24) | u64::from(idx);
        Some((WGPUFuture { id }, key))
    }

    pub(super) fn lookup(&self, id: u64) -> Lookup {
        let (slot, version) = split(id);
        let idx = slot & SLOT_MASK;
        // slotmap hands out odd versions only; 0 is the null future.
        if id == 0 || version & 1 == 0 || slot >> 24 != self.tag {
            return Lookup::Unknown;
        }
        let key = DefaultKey::from(KeyData::from_ffi((u64::from(version) << 32) | u64::from(idx)));
        if self.events.contains_key(key) {
            return Lookup::Live(key);
        }
        match self.issued.get(idx as usize) {
            Some(&newest) if version <= newest => Lookup::Completed,
            _ => Lookup::Unknown,
        }
    }
}

impl<R: Send + 'static> Completer<R> {
    /// Completes the event with `result`: it becomes ready, waiting threads
    /// wake, and a spontaneous callback is queued for this thread to run
    /// once it is outside every lock. Does nothing after the instance was
    /// released (the callback already ran as cancelled).
    pub(crate) fn complete(mut self, result: R) {
        self.finish(Some(result));
    }

    fn finish(&mut self, result: Option<R>) {
        let Some(key) = self.key.take() else { return };
        let mut inner = self.registry.inner.lock();
        let (made, unused) = inner.make_ready(key, result);
        inner.sync_readiness();
        let sleepers = inner.sleepers_to_wake();
        drop(inner);
        // Dropped outside the lock: a result may own objects.
        drop(unused);
        if let Some(mode) = made {
            self.registry.after_ready(mode == Mode::AllowSpontaneous, sleepers);
        }
    }
}

impl Registry {
    /// Wakes waiting threads after events became ready (`sleepers`: those
    /// sleeping on a device fence, taken under the lock); queues spontaneous
    /// delivery for this thread when one of the events allows it.
    pub(super) fn after_ready(self: &Arc<Self>, spontaneous: bool, sleepers: Option<Vec<Arc<dyn DirectSleep>>>) {
        self.changed.notify_all();
        for s in sleepers.into_iter().flatten() {
            s.wake();
        }
        if spontaneous {
            super::note_spontaneous(self);
        }
    }
}

impl Inner {
    /// Stores `result` in a pending event and makes it ready (the caller
    /// then syncs the readiness handle). Returns its
    /// mode (`None` when the event was not pending: already complete, or
    /// cancelled by the instance's release) and whatever of `result` was not
    /// stored, for the caller to drop once the lock is released.
    #[inline]
    pub(super) fn make_ready<R: Send + 'static>(
        &mut self,
        key: DefaultKey,
        result: Option<R>,
    ) -> (Option<Mode>, Option<R>) {
        let Some(ev) = self.events.get_mut(key) else { return (None, result) };
        if ev.state != State::Pending {
            return (None, result);
        }
        let unused = match ev.body.as_mut().map(|body| body.set_result(result)) {
            Some(Err(unused)) => {
                // A completer of another result type than its event's: never
                // the case (both come from one `register::<R>`). The
                // callback still runs, as cancelled.
                debug_assert!(false, "a completer's result type differs from its event's");
                log::error!(target: "wgpu_shim", "internal error: an operation's result has the wrong type; its callback gets CallbackCancelled");
                unused
            }
            _ => None,
        };
        (self.mark_ready(key), unused)
    }

    /// Marks the pending event `key` ready with the result its body holds
    /// already, without touching the body (for work-done batches, whose
    /// bodies are made with their `()` result: completing a burst of them
    /// then reads one cache line of each event fewer). Returns its mode, or
    /// `None` when it was not pending.
    #[inline]
    pub(super) fn mark_ready(&mut self, key: DefaultKey) -> Option<Mode> {
        let ev = self.events.get_mut(key)?;
        if ev.state != State::Pending {
            return None;
        }
        ev.state = State::Ready;
        self.completions = self.completions.wrapping_add(1);
        let mode = ev.mode;
        ev.listed = list_ready(&mut self.ready_process, &mut self.ready_spontaneous, mode, ev.seq, key);
        Some(mode)
    }

    /// The direct sleepers to wake once the lock is released (`None`, with
    /// no allocation, when there are none). A sleeper's own thread is not
    /// asleep when it completes something (it is polling between sleeps and
    /// rescans next), and a wake-up is a driver call, so it is skipped.
    pub(super) fn sleepers_to_wake(&self) -> Option<Vec<Arc<dyn DirectSleep>>> {
        if self.sleepers.is_empty() {
            return None;
        }
        let me = ThreadKey::current();
        let others: Vec<_> = self.sleepers.iter().filter(|(t, _)| *t != me).map(|(_, s)| s.clone()).collect();
        (!others.is_empty()).then_some(others)
    }
}

/// Lists a ready event for the deliveries its mode allows; returns the
/// epochs to record in it.
#[inline]
fn list_ready(process: &mut ReadyList, spontaneous: &mut ReadyList, mode: Mode, seq: u64, key: DefaultKey) -> [u32; 2] {
    let mut listed = [0; 2];
    if mode != Mode::WaitAnyOnly {
        listed[0] = process.push(seq, key);
    }
    if mode == Mode::AllowSpontaneous {
        listed[1] = spontaneous.push(seq, key);
    }
    listed
}

impl<R: Send + 'static> Drop for Completer<R> {
    fn drop(&mut self) {
        if self.key.is_some() {
            // A drop may run while a panic unwinds: a second one would abort.
            let cancelled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                log::debug!(target: "wgpu_shim", "an operation ended without a result; its callback gets CallbackCancelled");
                self.finish(None);
            }));
            if cancelled.is_err() {
                let _ = std::panic::catch_unwind(|| {
                    log::error!(target: "wgpu_shim", "internal error while cancelling an operation");
                });
            }
        }
    }
}

/// The bits of a future id's low half that hold the slot index.
const SLOT_MASK: u32 = (1 << 24) - 1;

/// (slot index with tag, version) of a future id.
fn split(id: u64) -> (u32, u32) {
    (id as u32, (id >> 32) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn counter() -> (Arc<AtomicUsize>, Arc<AtomicUsize>) {
        (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)))
    }

    #[test]
    fn ids_are_nonzero_unique_and_recognised_after_completion() {
        let reg = Registry::new();
        let mut ids = Vec::new();
        for _ in 0..100 {
            let (f, c) = reg.register::<u32>(Mode::AllowProcessEvents, Source::Cpu, |_| {});
            assert_ne!(f.id, 0);
            c.complete(1);
            reg.process_events();
            ids.push(f.id);
        }
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 100, "a reused slot gets a new version");
        for id in ids {
            assert_eq!(reg.is_complete(id), Some(true));
        }
        assert_eq!(reg.is_complete(0), None);
        assert_eq!(reg.is_complete(0xffff_0000_0000_0001), None);
        assert_eq!(reg.is_complete(12345 | (3 << 32)), None);
        // Another registry's ids are foreign, even in a slot this one used.
        let other = Registry::new();
        let (f, c) = other.register::<u32>(Mode::WaitAnyOnly, Source::Cpu, |_| {});
        assert_eq!(reg.is_complete(f.id), None);
        assert_eq!(other.is_complete(f.id), Some(false));
        c.complete(0);
    }

    #[test]
    fn process_events_skips_wait_any_only_and_runs_in_order() {
        let reg = Registry::new();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut completers = Vec::new();
        for i in 0..4u32 {
            let mode = if i == 2 { Mode::WaitAnyOnly } else { Mode::AllowProcessEvents };
            let o = order.clone();
            let (_, c) = reg.register::<u32>(mode, Source::Cpu, move |out| {
                if let Outcome::Done(v) = out {
                    o.lock().push(v)
                }
            });
            completers.push(c);
        }
        // Complete in reverse; delivery still follows registration order.
        for (i, c) in completers.into_iter().enumerate().rev() {
            c.complete(i as u32);
        }
        reg.process_events();
        assert_eq!(*order.lock(), vec![0, 1, 3]);
    }

    #[test]
    fn close_cancels_each_pending_callback_once() {
        let reg = Registry::new();
        let (done, cancelled) = counter();
        let mut keep = Vec::new();
        for i in 0..10 {
            let (d, c) = (done.clone(), cancelled.clone());
            let (_, completer) = reg.register::<()>(Mode::WaitAnyOnly, Source::Cpu, move |out| match out {
                Outcome::Done(()) => {
                    d.fetch_add(1, Ordering::SeqCst);
                }
                Outcome::Cancelled => {
                    c.fetch_add(1, Ordering::SeqCst);
                }
            });
            if i % 2 == 0 {
                completer.complete(());
            } else {
                keep.push(completer);
            }
        }
        reg.close();
        assert_eq!(cancelled.load(Ordering::SeqCst), 10);
        // Completing after close does nothing.
        for c in keep {
            c.complete(());
        }
        assert_eq!(done.load(Ordering::SeqCst), 0);
        assert_eq!(cancelled.load(Ordering::SeqCst), 10);
        // New registrations are cancelled at once.
        let c2 = cancelled.clone();
        let (f, _) = reg.register::<()>(Mode::WaitAnyOnly, Source::Cpu, move |_| {
            c2.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(f.id, 0);
        assert_eq!(cancelled.load(Ordering::SeqCst), 11);
    }

    #[test]
    fn dropped_completer_delivers_cancelled() {
        let reg = Registry::new();
        let (done, cancelled) = counter();
        let (d, c) = (done.clone(), cancelled.clone());
        let (_, completer) = reg.register::<u8>(Mode::AllowProcessEvents, Source::Cpu, move |out| match out {
            Outcome::Done(_) => {
                d.fetch_add(1, Ordering::SeqCst);
            }
            Outcome::Cancelled => {
                c.fetch_add(1, Ordering::SeqCst);
            }
        });
        drop(completer);
        reg.process_events();
        assert_eq!((done.load(Ordering::SeqCst), cancelled.load(Ordering::SeqCst)), (0, 1));
    }
}
