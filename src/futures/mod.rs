//! Futures: the per-instance registry of asynchronous operations, and the
//! rules that decide when and where their callbacks run.
//!
//! See `docs/ARCHITECTURE.md` for how a completion travels from wgpu-core to
//! the application's callback.

mod batch;
mod body;
mod deliver;
mod readiness_handle;
mod ready_lists;
mod registry;
mod slots;
mod thread_key;
mod wait;

pub(crate) use batch::{BatchId, Joined};
pub(crate) use readiness_handle::Readiness;
pub(crate) use registry::{Completer, Mode, Outcome, Refused, Registry, Source};
pub(crate) use thread_key::ThreadKey;
pub(crate) use wait::{DirectSleep, WaitRules};

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use parking_lot::Mutex;

/// What this thread owes spontaneous callbacks, to be delivered at
/// [`flush_spontaneous`], when it is back outside every internal lock.
#[derive(Default)]
struct Owed {
    /// Registries in which this thread made an `AllowSpontaneous` event
    /// ready.
    registries: Vec<Arc<Registry>>,
    /// Callbacks of spontaneous operations that completed in the call that
    /// registered them, their ids already retired (`Registry::register_done`).
    at_once: Vec<body::Body>,
}

impl Owed {
    fn is_empty(&self) -> bool {
        self.registries.is_empty() && self.at_once.is_empty()
    }
}

thread_local! {
    static OWED: RefCell<Owed> = RefCell::new(Owed::default());
}

/// What threads whose [`OWED`] is already torn down owe (API calls from a
/// `pthread_key_create` destructor, an `atexit` handler or a C++ static
/// destructor: every `thread_local!` with a destructor is gone by then).
/// Delivered by the next flush of any thread, which is the end of the very
/// call that queued it unless another thread's flush comes first: either
/// way by a thread that holds no internal lock.
static ORPHANED: Mutex<Owed> = Mutex::new(Owed { registries: Vec::new(), at_once: Vec::new() });

/// [`ORPHANED`] is not empty (set and cleared under its lock), so that
/// flushes look at it only then.
static ORPHANS: AtomicBool = AtomicBool::new(false);

/// How many threads owe something ([`OWED`] not empty, with [`ORPHANED`]
/// counted as one thread). Lets every API call's return skip the
/// thread-local lookup (a `__tls_get_addr` call in a shared library) in the
/// common case. Relaxed is enough: a thread always sees its own increment,
/// and only its own list matters to it (the orphaned list is behind a
/// lock).
static THREADS_WITH_SPONTANEOUS: AtomicUsize = AtomicUsize::new(0);

/// Records something this thread owes, counting the thread in when it owed
/// nothing; in [`ORPHANED`] when this thread's storage is gone.
fn owe(add: impl FnOnce(&mut Owed)) {
    let mut add = Some(add);
    let mut record = |owed: &mut Owed| {
        if owed.is_empty() {
            THREADS_WITH_SPONTANEOUS.fetch_add(1, Ordering::Relaxed);
        }
        if let Some(add) = add.take() {
            add(owed);
        }
    };
    let in_thread = OWED.try_with(|owed| match owed.try_borrow_mut() {
        Ok(mut owed) => {
            record(&mut owed);
            true
        }
        // Never the case (no callback runs while it is borrowed); the
        // orphaned list is a defined fallback.
        Err(_) => false,
    });
    if in_thread != Ok(true) {
        let mut orphaned = ORPHANED.lock();
        record(&mut orphaned);
        ORPHANS.store(true, Ordering::Release);
    }
}

/// Callbacks the exit barrier cancelled (`Registry::close_at_exit`), for
/// the next API call of any thread to run at its return: the barrier is an
/// `atexit` handler, and the application's runtime (a Python interpreter,
/// say) may be finalized by then, so it runs no callback itself. Never run
/// if no call comes.
static DEFERRED_CANCELS: Mutex<Vec<body::Body>> = Mutex::new(Vec::new());

/// Hands cancelled callbacks (in future order) to the next API call.
#[cfg_attr(windows, allow(dead_code))] // The exit barrier's work, which Windows skips (exit.rs).
fn defer_cancelled(bodies: Vec<body::Body>) {
    if bodies.is_empty() {
        return;
    }
    let mut deferred = DEFERRED_CANCELS.lock();
    if deferred.is_empty() {
        // Counted as one more thread that owes something, until run.
        THREADS_WITH_SPONTANEOUS.fetch_add(1, Ordering::Relaxed);
    }
    deferred.extend(bodies);
}

/// Runs what [`defer_cancelled`] queued, if anything.
fn run_deferred_cancels() {
    let bodies = {
        let mut deferred = DEFERRED_CANCELS.lock();
        if deferred.is_empty() {
            return;
        }
        THREADS_WITH_SPONTANEOUS.fetch_sub(1, Ordering::Relaxed);
        std::mem::take(&mut *deferred)
    };
    for body in bodies {
        deliver::run_guarded(body, true);
    }
}

/// Notes that `registry` has a spontaneous event ready for this thread to
/// deliver.
pub(crate) fn note_spontaneous(registry: &Arc<Registry>) {
    owe(|owed| {
        if !owed.registries.iter().any(|r| Arc::ptr_eq(r, registry)) {
            owed.registries.push(registry.clone());
        }
    });
}

/// Queues the callback of a spontaneous operation that completed in its
/// registering call, for this thread's next flush.
fn run_at_flush(body: body::Body) {
    owe(|owed| owed.at_once.push(body));
}

/// Runs `callback` with `result` when this thread's API call returns, as a
/// spontaneous callback completed in the call would run: for a rejected
/// operation that no registry can track (its handle is NULL or invalid, so
/// its instance is unknown).
pub(crate) fn run_untracked<R: Send + 'static>(result: R, callback: impl FnOnce(Outcome<R>) + Send + 'static) {
    run_at_flush(body::Body::new(Some(result), callback));
}

/// Delivers the spontaneous callbacks this thread made ready. Called when an
/// exported function returns and by the progress threads after polling:
/// places where no internal lock is held.
#[inline]
pub(crate) fn flush_spontaneous() {
    if spontaneous_owed() {
        flush_spontaneous_now();
    }
}

/// Whether some thread may owe spontaneous callbacks: false in the common
/// case, on every API call's return, which then needs no flush.
#[inline]
pub(crate) fn spontaneous_owed() -> bool {
    THREADS_WITH_SPONTANEOUS.load(Ordering::Relaxed) != 0
}

/// Takes everything out of `owed`, counting it out.
fn take_owed(owed: &mut Owed) -> Option<(Vec<Arc<Registry>>, Vec<body::Body>)> {
    if owed.is_empty() {
        return None;
    }
    THREADS_WITH_SPONTANEOUS.fetch_sub(1, Ordering::Relaxed);
    Some((std::mem::take(&mut owed.registries), std::mem::take(&mut owed.at_once)))
}

/// Takes what threads without storage owe, if anything.
fn take_orphaned() -> Option<(Vec<Arc<Registry>>, Vec<body::Body>)> {
    if !ORPHANS.load(Ordering::Acquire) {
        return None;
    }
    let mut orphaned = ORPHANED.lock();
    ORPHANS.store(false, Ordering::Release);
    take_owed(&mut orphaned)
}

/// [`flush_spontaneous`] when some thread has something.
#[inline(never)]
fn flush_spontaneous_now() {
    run_deferred_cancels();
    loop {
        // This thread's list (none once its storage is gone), else the
        // orphaned one.
        let owed = OWED
            .try_with(|owed| owed.try_borrow_mut().ok().and_then(|mut owed| take_owed(&mut owed)))
            .ok()
            .flatten()
            .or_else(take_orphaned);
        let Some((registries, mut at_once)) = owed else { return };
        for body in at_once.drain(..) {
            deliver::run_guarded(body, false);
        }
        // Keep the vector's memory for the next one (one per registering
        // call, in a loop of them).
        let _ = OWED.try_with(|owed| {
            if let Ok(mut owed) = owed.try_borrow_mut() {
                if owed.at_once.is_empty() {
                    owed.at_once = at_once;
                }
            }
        });
        for registry in registries {
            registry.deliver_spontaneous();
        }
    }
}
