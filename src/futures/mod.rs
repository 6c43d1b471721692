//! Futures: the per-instance registry of asynchronous operations, and the
//! rules that decide when and where their callbacks run.
//!
//! See `docs/ARCHITECTURE.md` for how a completion travels from wgpu-core to
//! the application's callback.

mod readiness;
mod ready;
mod registry;
mod wait;

pub(crate) use readiness::Readiness;
pub(crate) use registry::{Completer, CompleterBatch, Mode, Outcome, Registry, Source};
pub(crate) use wait::{DirectSleep, WaitRules};

use std::cell::RefCell;
use std::sync::Arc;

thread_local! {
    /// Registries in which this thread made an `AllowSpontaneous` event
    /// ready; their callbacks run at [`flush_spontaneous`], when the thread
    /// is back outside every internal lock.
    static SPONTANEOUS: RefCell<Vec<Arc<Registry>>> = const { RefCell::new(Vec::new()) };
}

/// Notes that `registry` has a spontaneous event ready for this thread to
/// deliver.
pub(crate) fn note_spontaneous(registry: &Arc<Registry>) {
    SPONTANEOUS.with(|list| {
        let mut list = list.borrow_mut();
        if !list.iter().any(|r| Arc::ptr_eq(r, registry)) {
            list.push(registry.clone());
        }
    });
}

/// Delivers the spontaneous callbacks this thread made ready. Called when an
/// exported function returns and by the progress threads after polling:
/// places where no internal lock is held.
pub(crate) fn flush_spontaneous() {
    loop {
        let batch = SPONTANEOUS.with(|list| {
            let mut list = list.borrow_mut();
            // The common case, on every API call's return: nothing to do.
            if list.is_empty() {
                Vec::new()
            } else {
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
