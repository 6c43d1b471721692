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

use std::any::Any;
use std::sync::Arc;
use std::thread::ThreadId;

use parking_lot::{Condvar, Mutex, MutexGuard};
use slotmap::{DefaultKey, Key as _, KeyData, SlotMap};

use super::readiness::Readiness;
use super::ready::ReadyList;
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

/// A type-erased event body: the callback and, once complete, its result.
trait Body: Send {
    /// Runs the callback with the stored result, or as cancelled.
    fn run(self: Box<Self>, cancelled: bool);
    /// The result slot, an `Option<R>`.
    fn result_slot(&mut self) -> &mut dyn Any;
}

/// One allocation per operation: the result slot and the callback itself.
struct Op<R, F> {
    result: Option<R>,
    callback: F,
}

impl<R: Send + 'static, F: FnOnce(Outcome<R>) + Send> Body for Op<R, F> {
    fn run(self: Box<Self>, cancelled: bool) {
        let Op { result, callback } = *self;
        match result {
            Some(result) if !cancelled => callback(Outcome::Done(result)),
            other => {
                // Owned objects in a result nobody will see are released
                // before the application hears of the cancellation.
                drop(other);
                callback(Outcome::Cancelled)
            }
        }
    }

    fn result_slot(&mut self) -> &mut dyn Any {
        &mut self.result
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum State {
    Pending,
    Ready,
    Delivering(ThreadId),
}

pub(super) struct Event {
    pub(super) seq: u64,
    pub(super) mode: Mode,
    pub(super) source: Source,
    pub(super) state: State,
    body: Option<Box<dyn Body>>,
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
    pub(super) events: SlotMap<DefaultKey, Event>,
    /// Newest version issued per slot index.
    issued: Vec<u32>,
    next_seq: u64,
    /// Set when the instance is released: nothing new is tracked.
    closed: bool,
    /// Ready events that ProcessEvents may deliver, by sequence number.
    ready_process: ReadyList,
    /// Ready spontaneous events, by sequence number.
    ready_spontaneous: ReadyList,
    /// Threads in WaitAny sleeping on a device's fence: every event made
    /// ready by another thread wakes them (see `direct_wait.rs`).
    pub(super) sleepers: Vec<(ThreadId, Arc<dyn DirectSleep>)>,
    /// Readable while `ready_process` is not empty (when asked for).
    readiness: Option<Readiness>,
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
pub(crate) struct Refused(Option<Box<dyn Body>>);

impl Refused {
    /// Runs the callback with `CallbackCancelled`.
    pub(crate) fn cancel(self) {
        if let Some(body) = self.0 {
            body.run(true);
        }
    }
}

/// A taken event, to be delivered outside the lock.
pub(super) struct Taken {
    pub(super) seq: u64,
    pub(super) key: DefaultKey,
    /// Taken out when the callback runs.
    body: Option<Box<dyn Body>>,
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
                events: SlotMap::new(),
                issued: Vec::new(),
                next_seq: 1,
                closed: false,
                ready_process: ReadyList::default(),
                ready_spontaneous: ReadyList::default(),
                sleepers: Vec::new(),
                readiness,
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
        let body: Box<dyn Body> = Box::new(Op { result: None::<R>, callback });
        let (future, key) = match self.insert(mode, source, body, false) {
            Some((future, key)) => (future, Some(key)),
            None => (WGPUFuture { id: 0 }, None),
        };
        (future, Completer { registry: self.clone(), key, _result: Default::default() })
    }

    /// Registers an operation that has already completed with `result`, in
    /// one step: the same as [`Registry::register`] followed by
    /// [`Completer::complete`].
    pub(crate) fn register_done<R: Send + 'static>(
        self: &Arc<Self>,
        mode: Mode,
        source: Source,
        result: R,
        callback: impl FnOnce(Outcome<R>) + Send + 'static,
    ) -> WGPUFuture {
        let body: Box<dyn Body> = Box::new(Op { result: Some(result), callback });
        match self.insert(mode, source, body, true) {
            Some((future, _)) => {
                // Nobody waits for a future that did not exist when their
                // wait began (WaitAny lists existing futures only): no
                // condition variable or sleeper to wake.
                if mode == Mode::AllowSpontaneous {
                    super::note_spontaneous(self);
                }
                future
            }
            None => WGPUFuture { id: 0 },
        }
    }

    /// Whether the instance has a readiness handle.
    pub(crate) fn has_readiness(&self) -> bool {
        self.has_readiness
    }

    /// Registers a pending operation whose completion `batch` carries: its
    /// key goes straight into the batch, without a [`Completer`]. May be
    /// called with other locks held (the work-done state): when the event
    /// cannot be tracked, its callback is handed back in [`Refused`], to be
    /// run once those are released.
    pub(crate) fn register_into<R: Send + 'static>(
        self: &Arc<Self>,
        mode: Mode,
        source: Source,
        callback: impl FnOnce(Outcome<R>) + Send + 'static,
        batch: &mut CompleterBatch<R>,
    ) -> Result<WGPUFuture, Refused> {
        let body: Box<dyn Body> = Box::new(Op { result: None::<R>, callback });
        let (future, key) = self.try_insert(mode, source, body, false)?;
        if let Err(key) = batch.push_key(self, key) {
            // Another registry's batch (never the case: one device's queue
            // is one instance's): cancel the event rather than lose it.
            drop(Completer::<R> { registry: self.clone(), key: Some(key), _result: Default::default() });
        }
        Ok(future)
    }

    /// Adds an event, pending or (with its result in `body`) ready. `None`
    /// when it cannot be tracked: the callback has then run as cancelled.
    fn insert(&self, mode: Mode, source: Source, body: Box<dyn Body>, ready: bool) -> Option<(WGPUFuture, DefaultKey)> {
        match self.try_insert(mode, source, body, ready) {
            Ok(added) => Some(added),
            Err(refused) => {
                refused.cancel();
                None
            }
        }
    }

    /// [`Registry::insert`], handing back the callback of an event that
    /// cannot be tracked (instance closing, too many pending) instead of
    /// running it.
    fn try_insert(
        &self,
        mode: Mode,
        source: Source,
        body: Box<dyn Body>,
        ready: bool,
    ) -> Result<(WGPUFuture, DefaultKey), Refused> {
        let mut inner = self.inner.lock();
        if inner.closed {
            return Err(Refused(Some(body)));
        }
        let seq = inner.next_seq;
        inner.next_seq += 1;
        let state = if ready { State::Ready } else { State::Pending };
        let key = inner.events.insert(Event { seq, mode, source, state, body: Some(body) });
        let (idx, version) = split(key.data().as_ffi());
        if idx > SLOT_MASK {
            // 16 million futures pending at once: refuse the 16,777,217th.
            let body = inner.events.remove(key).and_then(|mut e| e.body.take());
            drop(inner);
            log::error!(target: "wgpu_shim", "too many futures pending at once; the operation's callback gets CallbackCancelled");
            return Err(Refused(body));
        }
        if inner.issued.len() <= idx as usize {
            inner.issued.resize(idx as usize + 1, 0);
        }
        inner.issued[idx as usize] = version;
        if ready {
            inner.list_ready(mode, key);
        }
        let id = (u64::from(version) << 32) | u64::from(inner.tag << 24) | u64::from(idx);
        Ok((WGPUFuture { id }, key))
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
        let mut inner = self.inner.lock();
        inner.closed = true;
        let mut taken: Vec<(u64, Box<dyn Body>)> = Vec::new();
        let keys: Vec<DefaultKey> =
            inner.events.iter().filter(|(_, ev)| !matches!(ev.state, State::Delivering(_))).map(|(k, _)| k).collect();
        for key in keys {
            if let Some(mut ev) = inner.events.remove(key) {
                if let Some(body) = ev.body.take() {
                    taken.push((ev.seq, body));
                }
            }
        }
        inner.ready_process.clear();
        inner.ready_spontaneous.clear();
        inner.sync_readiness();
        let sleepers = inner.sleepers_to_wake();
        drop(inner);
        self.changed.notify_all();
        for s in sleepers.into_iter().flatten() {
            s.wake();
        }
        taken.sort_by_key(|(seq, _)| *seq);
        for (_, body) in taken {
            run_guarded(body, true);
        }
    }

    /// Delivers the ready `AllowSpontaneous` callbacks. Called with no lock
    /// held.
    pub(crate) fn deliver_spontaneous(&self) {
        let taken = {
            let mut inner = self.inner.lock();
            let keys = inner.ready_spontaneous.drain();
            let taken = inner.take_for_delivery(&keys);
            inner.ready_spontaneous.recycle(keys);
            taken
        };
        self.deliver(taken);
    }

    /// Delivers the ready `AllowProcessEvents` and `AllowSpontaneous`
    /// callbacks (`wgpuInstanceProcessEvents`).
    pub(crate) fn process_events(&self) {
        let taken = {
            let mut inner = self.inner.lock();
            if !inner.ready_process.has_live() {
                // The common case in a ProcessEvents loop: nothing to run
                // (stale entries stay until the list is next drained or
                // swept).
                inner.sync_readiness();
                return;
            }
            let keys = inner.ready_process.drain();
            let taken = inner.take_for_delivery(&keys);
            inner.ready_process.recycle(keys);
            taken
        };
        self.deliver(taken);
    }

    /// Runs the taken callbacks in future order, then forgets their events
    /// and wakes threads waiting for them.
    pub(super) fn deliver(&self, mut taken: Vec<Taken>) {
        if taken.is_empty() {
            return;
        }
        taken.sort_by_key(|t| t.seq);
        for t in taken.iter_mut() {
            if let Some(body) = t.body.take() {
                run_guarded(body, false);
            }
        }
        let mut inner = self.inner.lock();
        for t in &taken {
            inner.events.remove(t.key);
        }
        drop(inner);
        self.changed.notify_all();
    }

    /// Whether the future `id` has completed (ready, being delivered, or
    /// delivered). `None` for an id this registry never issued.
    #[cfg(test)]
    pub(crate) fn is_complete(&self, id: u64) -> Option<bool> {
        let inner = self.inner.lock();
        match inner.lookup(id) {
            Lookup::Live(key) => Some(inner.events[key].state != State::Pending),
            Lookup::Completed => Some(true),
            Lookup::Unknown => None,
        }
    }
}

impl Inner {
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

    /// Moves ready events to `Delivering` by this thread and takes their
    /// bodies. Keys that are not ready are skipped.
    pub(super) fn take_for_delivery(&mut self, keys: &[DefaultKey]) -> Vec<Taken> {
        let me = std::thread::current().id();
        let mut taken = Vec::with_capacity(keys.len());
        for &key in keys {
            let Some(ev) = self.events.get_mut(key) else { continue };
            if ev.state != State::Ready {
                continue;
            }
            ev.state = State::Delivering(me);
            let (seq, mode) = (ev.seq, ev.mode);
            if let Some(body) = ev.body.take() {
                taken.push(Taken { seq, key, body: Some(body) });
            }
            self.unlist_ready(mode);
        }
        self.sync_readiness();
        taken
    }

    /// Sets the readiness handle iff ProcessEvents has something to run.
    fn sync_readiness(&mut self) {
        let pending = self.ready_process.has_live();
        if let Some(r) = self.readiness.as_mut() {
            if pending {
                r.set()
            } else {
                r.clear()
            }
        }
    }

    fn unlist_ready(&mut self, mode: Mode) {
        let Inner { events, ready_process, ready_spontaneous, .. } = self;
        let ready = |k| events.get(k).is_some_and(|e: &Event| e.state == State::Ready);
        if mode != Mode::WaitAnyOnly && ready_process.unlist() {
            ready_process.sweep(|k| ready(k) && events[k].mode != Mode::WaitAnyOnly);
        }
        if mode == Mode::AllowSpontaneous && ready_spontaneous.unlist() {
            ready_spontaneous.sweep(|k| ready(k) && events[k].mode == Mode::AllowSpontaneous);
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
        let made = inner.make_ready(key, result);
        let sleepers = inner.sleepers_to_wake();
        drop(inner);
        match made {
            Ok(mode) => self.registry.after_ready(mode == Mode::AllowSpontaneous, sleepers),
            // Dropped outside the lock: a result may own objects.
            Err(unused) => drop(unused),
        }
    }
}

/// The right to complete many events of one registry with the same result,
/// in one step (one lock, one wake-up): work-done futures that wait for the
/// same queue work. Dropping it without completing cancels them all.
pub(crate) struct CompleterBatch<R: Send + 'static> {
    registry: Option<Arc<Registry>>,
    keys: Vec<DefaultKey>,
    _result: std::marker::PhantomData<fn(R)>,
}

impl<R: Send + 'static> Default for CompleterBatch<R> {
    fn default() -> Self {
        CompleterBatch { registry: None, keys: Vec::new(), _result: Default::default() }
    }
}

impl<R: Clone + Send + 'static> CompleterBatch<R> {
    /// Adds `completer`'s event. A batch holds the events of one registry
    /// (one device's queue is one instance's); a completer of another is
    /// dropped, which cancels its event rather than losing it.
    pub(crate) fn push(&mut self, mut completer: Completer<R>) {
        if let Some(key) = completer.key.take() {
            // Refused: the completer keeps its key, and dropping it cancels
            // the event.
            completer.key = self.push_key(&completer.registry, key).err();
        }
    }

    /// Completes every event with a clone of `result`, in the order they
    /// were added.
    pub(crate) fn complete_all(mut self, result: R) {
        self.finish_all(|| Some(result.clone()));
    }
}

impl<R: Send + 'static> CompleterBatch<R> {
    /// Adds the event `key` of `registry` (see [`CompleterBatch::push`]);
    /// gives the key back when it belongs to another registry than the
    /// batch's.
    fn push_key(&mut self, registry: &Arc<Registry>, key: DefaultKey) -> Result<(), DefaultKey> {
        let same = self.registry.as_ref().is_none_or(|r| Arc::ptr_eq(r, registry));
        debug_assert!(same, "a completer batch mixes registries");
        if !same {
            return Err(key);
        }
        self.registry.get_or_insert_with(|| registry.clone());
        self.keys.push(key);
        Ok(())
    }

    fn finish_all(&mut self, mut result: impl FnMut() -> Option<R>) {
        let Some(registry) = self.registry.take() else { return };
        let keys = std::mem::take(&mut self.keys);
        if keys.is_empty() {
            return;
        }
        let mut spontaneous = false;
        let mut unused = Vec::new();
        let mut inner = registry.inner.lock();
        for key in keys {
            match inner.make_ready(key, result()) {
                Ok(mode) => spontaneous |= mode == Mode::AllowSpontaneous,
                Err(r) => unused.push(r),
            }
        }
        let sleepers = inner.sleepers_to_wake();
        drop(inner);
        // Dropped outside the lock: a result may own objects.
        drop(unused);
        registry.after_ready(spontaneous, sleepers);
    }
}

impl<R: Send + 'static> Drop for CompleterBatch<R> {
    fn drop(&mut self) {
        if !self.keys.is_empty() {
            log::debug!(target: "wgpu_shim", "queue work ended without a result; its callbacks get CallbackCancelled");
            self.finish_all(|| None);
        }
    }
}

impl Registry {
    /// Wakes waiting threads after events became ready (`sleepers`: those
    /// sleeping on a device fence, taken under the lock); queues spontaneous
    /// delivery for this thread when one of the events allows it.
    fn after_ready(self: &Arc<Self>, spontaneous: bool, sleepers: Option<Vec<Arc<dyn DirectSleep>>>) {
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
    /// Stores `result` in a pending event and makes it ready. Returns its
    /// mode, or gives `result` back when the event was not pending (already
    /// complete, or cancelled by the instance's release): the caller drops
    /// it once the lock is released.
    fn make_ready<R: Send + 'static>(&mut self, key: DefaultKey, result: Option<R>) -> Result<Mode, Option<R>> {
        let Some(ev) = self.events.get_mut(key) else { return Err(result) };
        if ev.state != State::Pending {
            return Err(result);
        }
        if let Some(slot) = ev.body.as_mut().and_then(|b| b.result_slot().downcast_mut::<Option<R>>()) {
            *slot = result;
        }
        ev.state = State::Ready;
        let mode = ev.mode;
        self.list_ready(mode, key);
        Ok(mode)
    }

    /// The direct sleepers to wake once the lock is released (`None`, with
    /// no allocation, when there are none). A sleeper's own thread is not
    /// asleep when it completes something (it is polling between sleeps and
    /// rescans next), and a wake-up is a driver call, so it is skipped.
    fn sleepers_to_wake(&self) -> Option<Vec<Arc<dyn DirectSleep>>> {
        if self.sleepers.is_empty() {
            return None;
        }
        let me = std::thread::current().id();
        let others: Vec<_> = self.sleepers.iter().filter(|(t, _)| *t != me).map(|(_, s)| s.clone()).collect();
        (!others.is_empty()).then_some(others)
    }

    /// Lists a ready event for the deliveries its mode allows.
    fn list_ready(&mut self, mode: Mode, key: DefaultKey) {
        if mode != Mode::WaitAnyOnly {
            self.ready_process.push(key);
            self.sync_readiness();
        }
        if mode == Mode::AllowSpontaneous {
            self.ready_spontaneous.push(key);
        }
    }
}

impl<R: Send + 'static> Drop for Completer<R> {
    fn drop(&mut self) {
        if self.key.is_some() {
            log::debug!(target: "wgpu_shim", "an operation ended without a result; its callback gets CallbackCancelled");
            self.finish(None);
        }
    }
}

/// Runs one callback, keeping a panic in our conversion code from skipping
/// the bookkeeping that follows.
fn run_guarded(body: Box<dyn Body>, cancelled: bool) {
    if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body.run(cancelled))).is_err() {
        log::error!(target: "wgpu_shim", "internal error while delivering a callback");
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
    fn register_into_batch_completes_in_order_and_hands_back_when_closed() {
        let reg = Registry::new();
        let order = Arc::new(parking_lot::Mutex::new(Vec::new()));
        let mut batch = CompleterBatch::<()>::default();
        for i in 0..5 {
            let o = order.clone();
            let f = reg
                .register_into(
                    Mode::AllowProcessEvents,
                    Source::Cpu,
                    move |out: Outcome<()>| {
                        assert!(matches!(out, Outcome::Done(())));
                        o.lock().push(i);
                    },
                    &mut batch,
                )
                .ok()
                .expect("an open registry tracks the event");
            assert_ne!(f.id, 0);
        }
        reg.process_events();
        assert!(order.lock().is_empty(), "nothing is ready before the batch completes");
        batch.complete_all(());
        reg.process_events();
        assert_eq!(*order.lock(), vec![0, 1, 2, 3, 4]);
        // Closed: the callback is handed back, not run, until `cancel`.
        reg.close();
        let (done, cancelled) = counter();
        let c = cancelled.clone();
        let mut batch = CompleterBatch::<()>::default();
        let refused = reg.register_into(
            Mode::WaitAnyOnly,
            Source::Cpu,
            move |out: Outcome<()>| {
                assert!(matches!(out, Outcome::Cancelled));
                c.fetch_add(1, Ordering::SeqCst);
            },
            &mut batch,
        );
        let Err(refused) = refused else { panic!("a closed registry refuses") };
        assert_eq!(cancelled.load(Ordering::SeqCst), 0);
        refused.cancel();
        assert_eq!((done.load(Ordering::SeqCst), cancelled.load(Ordering::SeqCst)), (0, 1));
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
