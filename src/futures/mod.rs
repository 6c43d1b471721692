//! Futures: the per-instance registry of asynchronous operations, and the
//! rules that decide when and where their callbacks run.
//!
//! See `docs/ARCHITECTURE.md` for how a completion travels from wgpu-core to
//! the application's callback.

mod batch;
mod body;
mod deliver;
mod readiness;
mod ready;
mod registry;
mod wait;

pub(crate) use batch::{BatchId, Joined};
pub(crate) use readiness::Readiness;
pub(crate) use registry::{Completer, Mode, Outcome, Refused, Registry, Source};
pub(crate) use wait::{DirectSleep, WaitRules};

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

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

/// How many threads owe something ([`OWED`] not empty). Lets every API
/// call's return skip the thread-local lookup (a `__tls_get_addr` call in a
/// shared library) in the common case. Relaxed is enough: a thread always
/// sees its own increment, and only its own list matters to it.
static THREADS_WITH_SPONTANEOUS: AtomicUsize = AtomicUsize::new(0);

/// Records something this thread owes, counting the thread in when it owed
/// nothing.
fn owe(add: impl FnOnce(&mut Owed)) {
    OWED.with(|owed| {
        let mut owed = owed.borrow_mut();
        if owed.is_empty() {
            THREADS_WITH_SPONTANEOUS.fetch_add(1, Ordering::Relaxed);
        }
        add(&mut owed);
    });
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

/// Delivers the spontaneous callbacks this thread made ready. Called when an
/// exported function returns and by the progress threads after polling:
/// places where no internal lock is held.
#[inline]
pub(crate) fn flush_spontaneous() {
    // The common case, on every API call's return: no thread has anything.
    if THREADS_WITH_SPONTANEOUS.load(Ordering::Relaxed) != 0 {
        flush_spontaneous_now();
    }
}

/// [`flush_spontaneous`] when some thread has something.
#[inline(never)]
fn flush_spontaneous_now() {
    loop {
        let owed = OWED.with(|owed| {
            let mut owed = owed.borrow_mut();
            if owed.is_empty() {
                None
            } else {
                THREADS_WITH_SPONTANEOUS.fetch_sub(1, Ordering::Relaxed);
                Some((std::mem::take(&mut owed.registries), std::mem::take(&mut owed.at_once)))
            }
        });
        let Some((registries, mut at_once)) = owed else { return };
        for body in at_once.drain(..) {
            deliver::run_guarded(body, false);
        }
        // Keep the vector's memory for the next one (one per registering
        // call, in a loop of them).
        OWED.with(|owed| {
            let mut owed = owed.borrow_mut();
            if owed.at_once.is_empty() {
                owed.at_once = at_once;
            }
        });
        for registry in registries {
            registry.deliver_spontaneous();
        }
    }
}
