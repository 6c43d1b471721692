//! A name for the calling thread that works at every point of its life.
//!
//! `std::thread::current()` panics once the thread's storage is torn down
//! (in a `pthread_key_create` destructor, an `atexit` handler or a C++
//! static destructor, where applications release their objects), and every
//! `thread_local!` whose value needs dropping is gone by then too. A
//! `const`-initialized `Cell<u64>` has no destructor: its slot is never torn
//! down, so [`ThreadKey::current`] answers the same key to a thread from its
//! first call to its last, during exit included.

use std::cell::Cell;
use std::num::NonZeroU64;
use std::sync::atomic::{AtomicU64, Ordering};

/// Identifies one thread (never reused within the process).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct ThreadKey(NonZeroU64);

/// The next key to hand out.
static NEXT: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// This thread's key; 0 until the first [`ThreadKey::current`].
    static KEY: Cell<u64> = const { Cell::new(0) };
}

impl ThreadKey {
    /// The calling thread's key.
    #[inline]
    pub(crate) fn current() -> ThreadKey {
        let key = KEY
            .try_with(|k| match k.get() {
                0 => {
                    let fresh = NEXT.fetch_add(1, Ordering::Relaxed);
                    k.set(fresh);
                    fresh
                }
                key => key,
            })
            // A type without a destructor is never torn down, so this is
            // not reached; a fresh key is still a defined answer.
            .unwrap_or_else(|_| NEXT.fetch_add(1, Ordering::Relaxed));
        ThreadKey(NonZeroU64::new(key).unwrap_or(NonZeroU64::MAX))
    }

    /// The key as a number (never 0), for atomics.
    pub(crate) fn get(self) -> u64 {
        self.0.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_key_per_thread() {
        let here = ThreadKey::current();
        assert_eq!(here, ThreadKey::current());
        let there = std::thread::spawn(ThreadKey::current).join().unwrap();
        assert_ne!(here, there);
        assert_ne!(here.get(), 0);
    }

    /// No thread-local of the library is reached with `LocalKey::with`,
    /// which panics once the thread's storage is torn down (calls from exit
    /// handlers and thread-storage destructors): `try_with` everywhere.
    #[test]
    fn thread_locals_are_reached_with_try_with() {
        let mut found = Vec::new();
        for (path, text) in crate::source_scan::source_files() {
            for (n, line) in text.lines().enumerate() {
                // A SCREAMING_CASE name right before `.with(`.
                for (at, _) in line.match_indices(".with(") {
                    let name = line[..at].rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next();
                    if name.is_some_and(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_uppercase() || c == '_')) {
                        found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                    }
                }
            }
        }
        assert!(found.is_empty(), "thread-locals reached with `with`: {found:#?}");
    }
}
