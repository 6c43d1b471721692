//! An event's body: its callback and the slot its result goes in.
//!
//! Most callbacks are a C function pointer and two userdata pointers (three
//! words), so a body that small is stored inline, in the event itself: the
//! registry then allocates nothing per future, and a burst of 100,000
//! work-done futures costs no `malloc`/`free` pair each. A larger body is
//! boxed. Either way it is type-erased behind a table of three functions,
//! made once per body type.

use std::any::TypeId;
use std::cell::Cell;
use std::marker::PhantomData;
use std::mem::{self, ManuallyDrop, MaybeUninit};
use std::ptr;

use super::registry::Outcome;

/// Inline storage: four words, word-aligned.
type Storage = MaybeUninit<[usize; 4]>;

/// The callback and its result, once the operation finished.
struct Op<R, F> {
    result: Option<R>,
    callback: F,
}

/// What a body of one type does.
struct VTable {
    /// Takes the op out of the storage and runs its callback (with the
    /// stored result, or as cancelled).
    run: unsafe fn(*mut Storage, bool),
    /// Drops the op in place without running it.
    drop: unsafe fn(*mut Storage),
    /// Whether the op lies in the storage itself (else the storage holds
    /// the pointer of its box).
    inline: bool,
    /// Where `Option<R>` lies in the op.
    result_offset: usize,
    /// `R`'s type id.
    result_type: fn() -> TypeId,
}

/// A type-erased `Op<R, F>`, inline or boxed.
pub(super) struct Body {
    vtable: &'static VTable,
    data: Storage,
    /// Not `Sync`: the erased callback need not be.
    _not_sync: PhantomData<Cell<()>>,
}

// SAFETY: a body is only made from an `Op<R, F>` with `R: Send` and
// `F: Send` (see `Body::new`), and owns it exclusively.
unsafe impl Send for Body {}

/// The vtables of one op type.
trait Erased {
    /// Whether the op fits the inline storage.
    const INLINE: bool;
    const VTABLE: &'static VTable;
}

impl<R: Send + 'static, F: FnOnce(Outcome<R>) + Send + 'static> Erased for Op<R, F> {
    const INLINE: bool =
        mem::size_of::<Self>() <= mem::size_of::<Storage>() && mem::align_of::<Self>() <= mem::align_of::<Storage>();

    const VTABLE: &'static VTable = &VTable {
        run: run::<R, F>,
        drop: drop_op::<R, F>,
        inline: Self::INLINE,
        result_offset: mem::offset_of!(Op<R, F>, result),
        result_type: TypeId::of::<R>,
    };
}

/// Moves the op out of a body's storage, freeing its box if it has one.
///
/// # Safety
/// `data` is the storage of a live body made from an `Op<R, F>`; the body
/// is dead afterwards (nothing may drop or read it again).
unsafe fn take<R: Send + 'static, F: FnOnce(Outcome<R>) + Send + 'static>(data: *mut Storage) -> Op<R, F> {
    if <Op<R, F> as Erased>::INLINE {
        // SAFETY: the storage holds a live `Op<R, F>` inline, moved out
        // exactly once (caller).
        unsafe { ptr::read(data.cast::<Op<R, F>>()) }
    } else {
        // SAFETY: the storage holds the pointer of a box made by `Body::new`,
        // taken back exactly once (caller).
        unsafe { *Box::from_raw(ptr::read(data.cast::<*mut Op<R, F>>())) }
    }
}

/// # Safety
/// As for [`take`].
unsafe fn run<R: Send + 'static, F: FnOnce(Outcome<R>) + Send + 'static>(data: *mut Storage, cancelled: bool) {
    // SAFETY: forwarded from the caller.
    let Op { result, callback } = unsafe { take::<R, F>(data) };
    match result {
        Some(result) if !cancelled => callback(Outcome::Done(result)),
        other => {
            // Owned objects in a result nobody will see are released before
            // the application hears of the cancellation.
            drop(other);
            callback(Outcome::Cancelled)
        }
    }
}

/// # Safety
/// As for [`take`].
unsafe fn drop_op<R: Send + 'static, F: FnOnce(Outcome<R>) + Send + 'static>(data: *mut Storage) {
    // SAFETY: forwarded from the caller.
    drop(unsafe { take::<R, F>(data) });
}

impl Body {
    /// A body for `callback`, with `result` already stored when the
    /// operation finished before it was registered.
    #[inline(always)]
    pub(super) fn new<R: Send + 'static, F: FnOnce(Outcome<R>) + Send + 'static>(
        result: Option<R>,
        callback: F,
    ) -> Body {
        let op = Op { result, callback };
        let mut data = Storage::uninit();
        if <Op<R, F> as Erased>::INLINE {
            // SAFETY: the op fits the storage in size and alignment (INLINE).
            unsafe { ptr::write(data.as_mut_ptr().cast::<Op<R, F>>(), op) };
        } else {
            // SAFETY: a pointer fits in four words.
            unsafe { ptr::write(data.as_mut_ptr().cast::<*mut Op<R, F>>(), Box::into_raw(Box::new(op))) };
        }
        Body { vtable: <Op<R, F> as Erased>::VTABLE, data, _not_sync: PhantomData }
    }

    /// Runs the callback with the stored result, or as cancelled (always
    /// when `cancelled`, and when no result was stored).
    pub(super) fn run(self, cancelled: bool) {
        let mut this = ManuallyDrop::new(self);
        // SAFETY: the body is live and of the vtable's type; `ManuallyDrop`
        // keeps its `Drop` from touching the storage again.
        unsafe { (this.vtable.run)(&mut this.data, cancelled) }
    }

    /// Stores the operation's result. Gives it back when the body's result
    /// type is not `R` (never the case: a completer is typed like its
    /// event), to be dropped by the caller.
    #[inline]
    pub(super) fn set_result<R: Send + 'static>(&mut self, result: Option<R>) -> Result<(), Option<R>> {
        if (self.vtable.result_type)() != TypeId::of::<R>() {
            return Err(result);
        }
        let data: *mut Storage = &mut self.data;
        // SAFETY: the body is live and of the vtable's type: its op lies in
        // the storage, or in the box whose pointer the storage holds
        // (`inline`), and its result field is an `Option<R>` (checked just
        // above) at `result_offset`.
        unsafe {
            let op = if self.vtable.inline { data.cast::<u8>() } else { ptr::read(data.cast::<*mut u8>()) };
            *op.add(self.vtable.result_offset).cast::<Option<R>>() = result;
        }
        Ok(())
    }
}

impl Drop for Body {
    fn drop(&mut self) {
        // A drop may run while a panic unwinds: a second one would abort.
        let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // SAFETY: a body not run is live and of the vtable's type; this
            // is its last use.
            unsafe { (self.vtable.drop)(&mut self.data) }
        }));
        if dropped.is_err() {
            let _ = std::panic::catch_unwind(
                || log::error!(target: "wgpu_shim", "internal error while dropping a callback"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    /// Counts its drops.
    struct Tracked(Arc<AtomicUsize>);
    impl Drop for Tracked {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn is_inline<R: Send + 'static, F: FnOnce(Outcome<R>) + Send + 'static>(_: &F) -> bool {
        <Op<R, F> as Erased>::INLINE
    }

    #[test]
    fn small_bodies_are_inline_and_large_ones_boxed() {
        let words = [0usize; 3];
        assert!(
            is_inline(&move |_: Outcome<()>| {
                std::hint::black_box(words);
            }),
            "three words and a unit result"
        );
        let big = [0u64; 8];
        assert!(!is_inline(&move |_: Outcome<u64>| {
            std::hint::black_box(big);
        }));
        // A boxed closure is two words: always inline.
        let f: Box<dyn FnOnce() + Send> = Box::new(move || {
            std::hint::black_box(big);
        });
        assert!(is_inline(&move |_: Outcome<u32>| f()));
    }

    /// A body whose closure captures `pad` by value (inline for a small pad,
    /// boxed for a large one) and records what it was called with.
    fn recording<R: Send + 'static, P: Send + 'static>(
        pad: P,
        log: &Arc<parking_lot::Mutex<Vec<Option<R>>>>,
    ) -> (Body, bool) {
        let log = log.clone();
        let callback = move |out: Outcome<R>| {
            let _pad = pad;
            log.lock().push(match out {
                Outcome::Done(v) => Some(v),
                Outcome::Cancelled => None,
            });
        };
        let inline = is_inline(&callback);
        (Body::new(None, callback), inline)
    }

    #[test]
    fn results_reach_the_callback_inline_and_boxed() {
        for boxed in [false, true] {
            let log = Arc::new(parking_lot::Mutex::new(Vec::new()));
            let (mut body, inline) =
                if boxed { recording::<String, _>([0u64; 8], &log) } else { recording::<String, _>((), &log) };
            assert_eq!(inline, !boxed);
            assert!(body.set_result(Some(String::from("first"))).is_ok());
            assert!(body.set_result(Some(String::from("second"))).is_ok(), "a later result replaces the first");
            assert_eq!(body.set_result(Some(5u32)), Err(Some(5)), "a result of another type is refused");
            body.run(false);
            assert_eq!(*log.lock(), vec![Some("second".to_string())]);
        }
    }

    #[test]
    fn cancelled_and_resultless_bodies_run_as_cancelled_and_drop_the_result_first() {
        for boxed in [false, true] {
            let drops = Arc::new(AtomicUsize::new(0));
            let log = Arc::new(parking_lot::Mutex::new(Vec::new()));
            let (mut body, _) =
                if boxed { recording::<Tracked, _>([0u64; 8], &log) } else { recording::<Tracked, _>((), &log) };
            assert!(body.set_result(Some(Tracked(drops.clone()))).is_ok());
            body.run(true);
            assert_eq!(log.lock().len(), 1);
            assert!(log.lock()[0].is_none(), "cancelled");
            assert_eq!(drops.load(Ordering::SeqCst), 1, "the unseen result was released");

            let (body, _) =
                if boxed { recording::<Tracked, _>([0u64; 8], &log) } else { recording::<Tracked, _>((), &log) };
            body.run(false);
            assert_eq!(log.lock().len(), 2);
            assert!(log.lock()[1].is_none(), "no result stored: cancelled");
        }
    }

    #[test]
    fn dropping_an_unrun_body_drops_its_callback_and_result_once() {
        fn unrun<P: Send + 'static>(pad: P, inline: bool) {
            let drops = Arc::new(AtomicUsize::new(0));
            let captured = Tracked(drops.clone());
            let callback = move |_: Outcome<Tracked>| {
                let _keep = (&captured, &pad);
                panic!("never run");
            };
            assert_eq!(is_inline(&callback), inline);
            drop(Body::new(Some(Tracked(drops.clone())), callback));
            assert_eq!(drops.load(Ordering::SeqCst), 2, "the result and the captured value, once each");
        }
        unrun((), true);
        unrun([0u64; 8], false);
        for boxed in [false, true] {
            let drops = Arc::new(AtomicUsize::new(0));
            let log = Arc::new(parking_lot::Mutex::new(Vec::<Option<Tracked>>::new()));
            let (mut body, _) =
                if boxed { recording::<Tracked, _>([0u64; 8], &log) } else { recording::<Tracked, _>((), &log) };
            assert!(body.set_result(Some(Tracked(drops.clone()))).is_ok());
            drop(body);
            assert_eq!(drops.load(Ordering::SeqCst), 1);
            assert!(log.lock().is_empty(), "a dropped body never calls back");
        }
    }

    #[test]
    fn bodies_keep_their_state_when_moved() {
        // Inline bodies move with the vector's storage as it grows.
        let log = Arc::new(parking_lot::Mutex::new(Vec::new()));
        let mut bodies = Vec::new();
        for i in 0..100u64 {
            let (mut body, _) =
                if i % 2 == 0 { recording::<u64, _>((), &log) } else { recording::<u64, _>([i; 8], &log) };
            assert!(body.set_result(Some(i)).is_ok());
            bodies.push(body);
        }
        for body in bodies {
            body.run(false);
        }
        assert_eq!(*log.lock(), (0..100).map(Some).collect::<Vec<_>>());
    }
}
