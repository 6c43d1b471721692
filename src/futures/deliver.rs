//! Running ready callbacks: ProcessEvents, spontaneous delivery, and the
//! delivery step of WaitAny.
//!
//! A delivery has a list of ready events in future order. It takes them a
//! chunk at a time: under the registry lock it marks each still-ready event
//! `Delivering` by this thread and moves its body out; with no lock held it
//! runs the chunk's callbacks; under the lock again it forgets those events
//! (and takes the next chunk). A WaitAny on another thread that lists one of
//! them therefore returns only once its callback has run (behaviour §8.3,
//! I#552), and the chunk's working set stays in cache however many futures
//! complete at once: no pass over all of them, no temporary buffer the size
//! of the burst.

use std::cell::Cell;
use std::ptr;

use parking_lot::MutexGuard;
use slotmap::DefaultKey;

use super::body::Body;
use super::registry::{Inner, Mode, Registry, State};
use super::ThreadKey;

/// Events a delivery takes out of the registry at a time.
const CHUNK: usize = 64;

impl Registry {
    /// Delivers the ready `AllowSpontaneous` callbacks. Called with no lock
    /// held. One thread at a time: while another delivers (or this thread,
    /// further up its stack), what is ready now is left to it, and it runs
    /// it after what it took before, so callbacks keep future order across
    /// threads.
    pub(crate) fn deliver_spontaneous(&self) {
        let mut inner = self.lock();
        if inner.spontaneous_busy || !inner.ready_spontaneous.has_live() {
            return;
        }
        inner.spontaneous_busy = true;
        while inner.ready_spontaneous.has_live() {
            let list = inner.ready_spontaneous.drain();
            inner = self.deliver_items(inner, &list, |&(_, key)| key, |_| {});
            inner.ready_spontaneous.recycle(list);
        }
        inner.spontaneous_busy = false;
    }

    /// Delivers the ready `AllowProcessEvents` and `AllowSpontaneous`
    /// callbacks (`wgpuInstanceProcessEvents`).
    pub(crate) fn process_events(&self) {
        let mut inner = self.lock();
        if !inner.ready_process.has_live() {
            // The common case in a ProcessEvents loop: nothing to run.
            inner.sync_readiness();
            return;
        }
        let list = inner.ready_process.drain();
        let mut inner = self.deliver_items(inner, &list, |&(_, key)| key, |_| {});
        inner.ready_process.recycle(list);
    }

    /// Delivers the events of `items` (in future order) that are still
    /// ready, [`CHUNK`] at a time (see the module's documentation).
    /// `on_taken` sees each item whose event this call takes, under the
    /// lock, before its callback runs. Called and returns with the lock held
    /// (`inner`); it is released while callbacks run.
    pub(super) fn deliver_items<'a, T>(
        &'a self,
        mut inner: MutexGuard<'a, Inner>,
        items: &[T],
        key_of: impl Fn(&T) -> DefaultKey,
        mut on_taken: impl FnMut(&T),
    ) -> MutexGuard<'a, Inner> {
        let me = ThreadKey::current();
        // The last delivery's vector, when no other delivery holds it (one
        // on another thread, or further up this one's stack, makes its own).
        let mut chunk = std::mem::take(&mut inner.spare_chunk);
        chunk.reserve(items.len().min(CHUNK));
        let mut rest = items.iter();
        loop {
            let delivered = !chunk.is_empty();
            for (key, _) in &chunk {
                inner.retire_taken(*key);
            }
            chunk.clear();
            for item in rest.by_ref() {
                let key = key_of(item);
                if inner.take_into(key, me, &mut chunk) {
                    on_taken(item);
                    if chunk.len() == CHUNK {
                        break;
                    }
                }
            }
            inner.sync_readiness();
            if delivered {
                // Threads in WaitAny waiting for these callbacks to finish.
                self.changed.notify_all();
            }
            if chunk.is_empty() {
                if chunk.capacity() <= CHUNK && chunk.capacity() >= inner.spare_chunk.capacity() {
                    inner.spare_chunk = chunk;
                }
                return inner;
            }
            drop(inner);
            run_chunk(self, &chunk);
            inner = self.lock();
        }
    }
}

/// A chunk being delivered: each event's key and, until its callback runs,
/// its body.
type Chunk = [(DefaultKey, Cell<Option<Body>>)];

/// Where a delivery collects its chunk. A `Vec`, not a `SmallVec` with a
/// few inline slots: that saved a wait on a few futures one allocation but
/// cost every event of a burst the inline-or-heap branch on each access
/// (delivering 10,000 went from 119 to 158 µs on one CPU).
pub(super) type ChunkVec = Vec<(DefaultKey, Cell<Option<Body>>)>;

/// One chunk this thread is running, linked to the one further up its
/// stack: the list lives in `run_chunk`'s stack frames.
struct Running {
    /// Its registry: keys of different instances may be equal.
    registry: *const Registry,
    chunk: *const Chunk,
    /// The next chunk out (NULL for none).
    outer: *const Running,
}

thread_local! {
    /// The innermost chunk this thread is running (NULL for none). A WaitAny
    /// nested in one of their callbacks that lists a later future of the
    /// chunk runs that callback itself (`steal`), as WaitAny must for a
    /// future whose callback has not run yet (behaviour §8.3). A raw pointer
    /// in a `Cell` has no destructor, so this is never torn down: it works
    /// in exit handlers and thread-storage destructors too.
    static RUNNING: Cell<*const Running> = const { Cell::new(ptr::null()) };
}

/// Runs the callbacks of `chunk`, taken from `registry`, in order, skipping
/// those a nested WaitAny ran already.
#[inline]
fn run_chunk(registry: &Registry, chunk: &Chunk) {
    /// Unlinks the chunk however the loop ends.
    struct Registered(*const Running);
    impl Drop for Registered {
        fn drop(&mut self) {
            let _ = RUNNING.try_with(|r| r.set(self.0));
        }
    }
    let frame = Running { registry, chunk, outer: RUNNING.try_with(Cell::get).unwrap_or(ptr::null()) };
    let _registered = Registered(frame.outer);
    // `frame` stays where it is until `_registered`, declared after it, has
    // unlinked it.
    let _ = RUNNING.try_with(|r| r.set(&frame));
    for (_, body) in chunk {
        if let Some(body) = body.take() {
            run_guarded(body, false);
        }
    }
}

/// Takes the body of `registry`'s event `key` out of a chunk this thread is
/// running, if its callback has not started: the caller (a nested WaitAny)
/// runs it instead.
pub(super) fn steal(registry: &Registry, key: DefaultKey) -> Option<Body> {
    let registry: *const Registry = registry;
    let mut at = RUNNING.try_with(Cell::get).unwrap_or(ptr::null());
    // SAFETY: a linked frame lives in `run_chunk` further up this thread's
    // stack, which unlinks it before it goes; so do the chunk it points at
    // (borrowed by that `run_chunk`) and the frames further out. They are
    // only read through shared references, and the bodies are behind
    // `Cell`s.
    while let Some(frame) = unsafe { at.as_ref() } {
        if frame.registry == registry {
            // SAFETY: as above.
            let chunk = unsafe { &*frame.chunk };
            if let Some(body) = chunk.iter().find(|(k, _)| *k == key).and_then(|(_, body)| body.take()) {
                return Some(body);
            }
        }
        at = frame.outer;
    }
    None
}

impl Inner {
    /// Marks the event `key` as being delivered by thread `me` and moves it
    /// to the end of `chunk` with its body, if it is ready; `false`
    /// otherwise (not ready yet, or taken by another route).
    ///
    /// The body goes straight from the event into the chunk: staged in a
    /// return value, it was copied through the stack in pieces of other
    /// sizes than it was written in, and every load stalled on store
    /// forwarding (a third of a delivery's time, in `perf`).
    #[inline(always)]
    fn take_into(&mut self, key: DefaultKey, me: ThreadKey, chunk: &mut ChunkVec) -> bool {
        let Some(ev) = self.events.get_mut(key) else { return false };
        if ev.state != State::Ready {
            return false;
        }
        ev.state = State::Delivering;
        ev.deliverer = Some(me);
        let (mode, listed) = (ev.mode, ev.listed);
        let len = chunk.len();
        if len == chunk.capacity() {
            chunk.reserve(1);
        }
        let body: *mut Option<Body> = &mut ev.body;
        // SAFETY: the chunk has room for one more element at `len` (made just above when it was full). The
        // body is moved bitwise from the event into that element (the two
        // do not overlap: one is in the slot map, the other in the chunk),
        // then the event's copy is overwritten with `None` without being
        // dropped, so it is owned once; the key is written beside it, and
        // the element is complete before `set_len` counts it.
        unsafe {
            let dst = chunk.as_mut_ptr().add(len);
            ptr::addr_of_mut!((*dst).0).write(key);
            ptr::copy_nonoverlapping(body, (*dst).1.as_ptr(), 1);
            ptr::write(body, None);
            chunk.set_len(len + 1);
        }
        self.counted_out(mode, listed);
        true
    }

    /// Removes event `key`, whose body was taken (into a chunk, or never
    /// put in). Nothing else in an event owns anything, so the event is
    /// not read back to be dropped: its slot is marked vacant.
    #[inline(always)]
    pub(super) fn retire_taken(&mut self, key: DefaultKey) {
        debug_assert!(self.events.get(key).is_none_or(|ev| ev.body.is_none()), "a retired event still had its body");
        self.events.retire(key);
    }

    /// A ready event of `mode`, listed in epochs `listed`, was taken: the
    /// ready lists it is still on count it out, sweeping their stale entries
    /// when there are many.
    fn counted_out(&mut self, mode: Mode, listed: [u32; 2]) {
        let Inner { events, ready_process, ready_spontaneous, .. } = self;
        let ready =
            |k, listed: fn(Mode) -> bool| events.get(k).is_some_and(|e| e.state == State::Ready && listed(e.mode));
        if mode != Mode::WaitAnyOnly && ready_process.taken(listed[0]) {
            ready_process.sweep(|k| ready(k, |m| m != Mode::WaitAnyOnly));
        }
        if mode == Mode::AllowSpontaneous && ready_spontaneous.taken(listed[1]) {
            ready_spontaneous.sweep(|k| ready(k, |m| m == Mode::AllowSpontaneous));
        }
    }

    /// Sets the readiness handle iff ProcessEvents has something to run.
    #[inline]
    pub(super) fn sync_readiness(&mut self) {
        let pending = self.ready_process.has_live();
        if let Some(r) = self.readiness.as_mut() {
            if pending {
                r.set()
            } else {
                r.clear()
            }
        }
    }
}

/// Runs one callback, keeping a panic in our conversion code from skipping
/// the bookkeeping that follows.
#[inline]
pub(super) fn run_guarded(body: Body, cancelled: bool) {
    if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body.run(cancelled))).is_err() {
        log::error!(target: "wgpu_shim", "internal error while delivering a callback");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::{WGPUFutureWaitInfo, WGPUWaitStatus};
    use crate::futures::registry::{Lookup, Mode, Source};
    use crate::futures::WaitRules;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    /// A WaitAny nested in a delivery of another instance, on a future whose
    /// key equals one in that instance's chunk, runs its own future's
    /// callback, not the other instance's.
    #[test]
    fn a_nested_wait_steals_from_its_own_registry_only() {
        let (a, b) = (Registry::new(), Registry::new());
        let (a1_ran, b1_ran) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)));
        let seen = Arc::new(parking_lot::Mutex::new(None));

        // b0 runs a's delivery; b1 records that it ran.
        let a_for_b0 = a.clone();
        let (_, b0) = b.register::<()>(Mode::AllowProcessEvents, Source::Cpu, move |_| a_for_b0.process_events());
        let flag = b1_ran.clone();
        let (fb1, b1) =
            b.register::<()>(Mode::AllowProcessEvents, Source::Cpu, move |_| flag.store(true, Ordering::SeqCst));

        // a0 waits on b1 from inside a's chunk; a1 records that it ran.
        let (b_for_a0, flags, seen_in) = (b.clone(), (a1_ran.clone(), b1_ran.clone()), seen.clone());
        let (_, a0) = a.register::<()>(Mode::AllowProcessEvents, Source::Cpu, move |_| {
            let rules = WaitRules { timed: true, max_count: 4, mixed_sources: true };
            let mut infos = [WGPUFutureWaitInfo { future: fb1, completed: 0 }];
            let status = b_for_a0.wait_any(&mut infos, 0, &rules, &|_| None, &|_| true);
            *seen_in.lock() =
                Some((status, infos[0].completed, flags.1.load(Ordering::SeqCst), flags.0.load(Ordering::SeqCst)));
        });
        let flag = a1_ran.clone();
        let (fa1, a1) =
            a.register::<()>(Mode::AllowProcessEvents, Source::Cpu, move |_| flag.store(true, Ordering::SeqCst));

        // The second events of the two registries have the same key.
        let key = |r: &Registry, id: u64| match r.inner.lock().lookup(id) {
            Lookup::Live(k) => Some(k),
            _ => None,
        };
        assert!(key(&a, fa1.id).is_some() && key(&a, fa1.id) == key(&b, fb1.id));

        for c in [a0, a1, b0, b1] {
            c.complete(());
        }
        b.process_events();
        assert_eq!(
            *seen.lock(),
            Some((Ok(WGPUWaitStatus::Success), 1, true, false)),
            "the nested wait ran b1's callback, and not a1's"
        );
        assert!(a1_ran.load(Ordering::SeqCst) && b1_ran.load(Ordering::SeqCst), "each callback ran");
    }
}
