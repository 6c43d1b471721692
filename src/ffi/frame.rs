//! The calling thread's API-call frame: which export it is in, how deeply
//! calls are nested (a callback may call the API), and whether messages for
//! the log callback wait for the outermost call's return.
//!
//! All of it is one `const`-initialized `Cell` of plain data, so an API call
//! reaches thread storage once, on entry (each reach costs a `__tls_get_addr`
//! call in a shared library): [`enter`] keeps the cell's address, and
//! [`leave`] uses it. It has no destructor, so it is never torn down: calls
//! from thread-storage destructors and exit handlers find it too.
//!
//! A frame is kept only while someone needs it: a log callback is set
//! (`ffi::log`: messages logged inside a call wait for its return) or
//! wgpu-native compatibility is on (`compat`: error text names the export).
//! Otherwise [`crate::ffi::boundary::call`] skips it and an API call touches
//! no thread storage at all.
//!
//! [`enter`] and [`leave`] run outside the boundary's `catch_unwind`, on
//! every call's path, so they must not panic: they only get and set the
//! cell, with saturating and wrapping arithmetic.

use std::cell::{Cell, RefCell};

#[derive(Clone, Copy)]
struct State {
    /// API calls in progress on this thread.
    depth: u32,
    /// Messages were queued for the log callback during the outermost call.
    queued: bool,
    /// The innermost export this thread is in.
    current: Option<&'static str>,
    /// The number of that call (0: none), unique on this thread.
    call: u64,
    /// The number the next call gets.
    next: u64,
}

thread_local! {
    static STATE: Cell<State> =
        const { Cell::new(State { depth: 0, queued: false, current: None, call: 0, next: 1 }) };
}

/// What [`enter`] replaced, for [`leave`] to restore, and where this
/// thread's cell is. The raw pointer keeps it on the thread that entered
/// (neither `Send` nor `Sync`).
pub(crate) struct Entered {
    current: Option<&'static str>,
    call: u64,
    cell: *const Cell<State>,
}

/// What [`leave`] found.
pub(crate) struct Left {
    /// The outermost call returned.
    pub(crate) outermost: bool,
    /// … and messages for the log callback were queued during it.
    pub(crate) queued: bool,
}

/// This thread enters the export `func`. `None` if thread storage cannot
/// be reached (never the case for a `const` cell without destructor, but
/// the call must run regardless).
#[inline]
pub(crate) fn enter(func: &'static str) -> Option<Entered> {
    STATE
        .try_with(|s| {
            let mut st = s.get();
            let saved = Entered { current: st.current, call: st.call, cell: s as *const Cell<State> };
            st.depth = st.depth.saturating_add(1);
            st.current = Some(func);
            st.call = st.next;
            st.next = st.next.wrapping_add(1);
            s.set(st);
            saved
        })
        .ok()
}

/// The call [`enter`] began returns: restores the outer call's frame,
/// through the address `enter` found (no second reach of thread storage).
#[inline]
pub(crate) fn leave(saved: Entered) -> Left {
    // SAFETY: `enter` took this address from `STATE` on this thread
    // (`Entered` cannot leave it), and that cell is never destroyed: it is
    // `const`-initialized plain data without destructor, whose storage
    // lives as long as the thread. Only `Cell::get`/`set` are used, as
    // through the thread-local itself.
    let s = unsafe { &*saved.cell };
    let mut st = s.get();
    st.depth = st.depth.saturating_sub(1);
    st.current = saved.current;
    st.call = saved.call;
    let outermost = st.depth == 0;
    let queued = outermost && std::mem::take(&mut st.queued);
    s.set(st);
    Left { outermost, queued }
}

/// API calls in progress on this thread (counted while a frame is kept).
pub(crate) fn depth() -> u32 {
    STATE.try_with(|s| s.get().depth).unwrap_or(0)
}

/// The innermost export this thread is in, and that call's number.
pub(crate) fn current() -> Option<(&'static str, u64)> {
    STATE.try_with(|s| s.get()).ok().and_then(|st| Some((st.current?, st.call)))
}

thread_local! {
    /// The label of the descriptor an export read last, with the number of
    /// that call: wgpu-native's error text shows a label only in the call
    /// that read it (`compat::CallContext`).
    static LABEL: RefCell<(u64, String)> = const { RefCell::new((0, String::new())) };
}

/// Records the label of a descriptor the current export read.
pub(crate) fn note_label(label: &str) {
    let Some((_, call)) = current() else { return };
    let _ = LABEL.try_with(|l| {
        if let Ok(mut l) = l.try_borrow_mut() {
            l.0 = call;
            l.1.clear();
            l.1.push_str(label);
        }
    });
}

/// The export this thread is in and the label it read, for error text.
pub(crate) fn context() -> Option<crate::compat::CallContext> {
    let (func, call) = current()?;
    let label = LABEL
        .try_with(|l| l.try_borrow().ok().filter(|l| l.0 == call).map(|l| l.1.clone()))
        .ok()
        .flatten()
        .unwrap_or_default();
    Some(crate::compat::CallContext { func, label })
}

/// A message was queued for the log callback: the outermost call hands it
/// over when it returns.
pub(crate) fn note_queued() {
    let _ = STATE.try_with(|s| {
        let mut st = s.get();
        st.queued = true;
        s.set(st);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_calls_restore_the_outer_frame() {
        assert_eq!(depth(), 0);
        assert!(current().is_none());
        let outer = enter("wgpuA").expect("storage");
        let (name, outer_call) = current().expect("in a call");
        assert_eq!(name, "wgpuA");
        let inner = enter("wgpuB").expect("storage");
        let (name, inner_call) = current().expect("in a call");
        assert_eq!((name, depth()), ("wgpuB", 2));
        assert_ne!(inner_call, outer_call, "every call has its own number");
        note_queued();
        let left = leave(inner);
        assert!(!left.outermost && !left.queued, "messages wait for the outermost call");
        assert_eq!(current(), Some(("wgpuA", outer_call)));
        let left = leave(outer);
        assert!(left.outermost && left.queued);
        assert!(current().is_none());
        let again = enter("wgpuA").expect("storage");
        assert_ne!(current().map(|c| c.1), Some(outer_call), "a later call of the same export is another call");
        let left = leave(again);
        assert!(left.outermost && !left.queued, "the queued mark was taken");
    }

    #[test]
    fn a_label_belongs_to_the_call_that_read_it() {
        let first = enter("wgpuDeviceCreateBuffer").expect("storage");
        note_label("bb");
        let c = context().expect("in a call");
        assert_eq!((c.func, c.label.as_str()), ("wgpuDeviceCreateBuffer", "bb"));
        leave(first);
        let again = enter("wgpuDeviceCreateBuffer").expect("storage");
        assert_eq!(context().expect("in a call").label, "");
        leave(again);
        assert!(context().is_none());
    }
}
