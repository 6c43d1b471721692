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

thread_local! {
    /// Registries in which this thread made an `AllowSpontaneous` event
    /// ready; their callbacks run at [`flush_spontaneous`], when the thread
    /// is back outside every internal lock.
    static SPONTANEOUS: RefCell<Vec<Arc<Registry>>> = const { RefCell::new(Vec::new()) };
}

/// How many threads have a non-empty [`SPONTANEOUS`] list. Lets every API
/// call's return skip the thread-local lookup (a `__tls_get_addr` call in a
/// shared library) in the common case. Relaxed is enough: a thread always
/// sees its own increment, and only its own list matters to it.
static THREADS_WITH_SPONTANEOUS: AtomicUsize = AtomicUsize::new(0);

/// Notes that `registry` has a spontaneous event ready for this thread to
/// deliver.
pub(crate) fn note_spontaneous(registry: &Arc<Registry>) {
    SPONTANEOUS.with(|list| {
        let mut list = list.borrow_mut();
        if list.is_empty() {
            THREADS_WITH_SPONTANEOUS.fetch_add(1, Ordering::Relaxed);
        }
        if !list.iter().any(|r| Arc::ptr_eq(r, registry)) {
            list.push(registry.clone());
        }
    });
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
        let batch = SPONTANEOUS.with(|list| {
            let mut list = list.borrow_mut();
            if list.is_empty() {
                Vec::new()
            } else {
                THREADS_WITH_SPONTANEOUS.fetch_sub(1, Ordering::Relaxed);
                std::mem::take(&mut *list)
            }
        });
        if batch.is_empty() {
            return;
        }
        for registry in batch {
            registry.deliver_spontaneous();
        }
    }
}
