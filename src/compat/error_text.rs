//! Error messages in wgpu-native's form, which bindings written for it parse
//! and test (wgpu-py turns them into Python exceptions):
//!
//! ```text
//! Validation Error
//!
//! Caused by:
//!   In wgpuDeviceCreateBuffer
//!     Invalid usage flags BufferUsages(0x0)
//! ```
//!
//! The API function that reported the error comes first, then the error and
//! each of its sources, one per line, indented two spaces a level. A
//! multi-line error (a shader diagnostic) starts on a line of its own and is
//! followed by a blank line. The text is built only under wgpu-native
//! compatibility; otherwise errors read as `conv::describe` gives them.

use std::cell::RefCell;
use std::error::Error;
use std::fmt::Write as _;

thread_local! {
    /// The label of the descriptor an export read last, for
    /// ", label = '...'", with the number of that call (`ffi::frame`): a
    /// label is only shown in the call that read it.
    static LABEL: RefCell<(u64, String)> = const { RefCell::new((0, String::new())) };
}

/// Records the label of a descriptor the current export read.
pub(crate) fn note_label(label: &str) {
    let Some((_, call)) = crate::ffi::frame::current() else { return };
    let _ = LABEL.try_with(|l| {
        if let Ok(mut l) = l.try_borrow_mut() {
            l.0 = call;
            l.1.clear();
            l.1.push_str(label);
        }
    });
}

/// The "In ..." line of the current export, if it recorded itself.
fn context_line() -> Option<String> {
    let (name, call) = crate::ffi::frame::current()?;
    let label = LABEL
        .try_with(|l| l.try_borrow().ok().filter(|l| l.0 == call).map(|l| l.1.clone()))
        .ok()
        .flatten()
        .unwrap_or_default();
    Some(if label.is_empty() { format!("In {name}") } else { format!("In {name}, label = '{label}'") })
}

/// The export this thread is in, if it recorded itself.
fn current() -> Option<&'static str> {
    crate::ffi::frame::current().map(|(name, _)| name)
}

/// One error of the tree at `level`.
fn push(out: &mut String, level: usize, text: &str) {
    let _ = write!(out, "{:width$}{text}", "", width = level * 2);
    if text.trim_end_matches('\n').contains('\n') {
        // A diagnostic: exactly one blank line after it.
        out.truncate(out.trim_end_matches('\n').len());
        out.push_str("\n\n");
    }
    out.push('\n');
}

/// The text of a wgpu-core error reported during the current export.
pub(crate) fn native_error_text(err: &(dyn Error + 'static)) -> String {
    let mut out = String::from("Validation Error\n\nCaused by:\n");
    let mut level = 1;
    if let Some(line) = context_line() {
        push(&mut out, level, &line);
        level += 1;
    }
    tree(&mut out, level, err);
    out
}

/// The text of an error this library found itself (`message`), in the same
/// form.
pub(crate) fn native_message_text(message: &str) -> String {
    let mut out = String::from("Validation Error\n\nCaused by:\n");
    let mut level = 1;
    // Our own messages often start with the function's name, which the
    // "In ..." line already gives.
    let message = current()
        .and_then(|name| message.strip_prefix(name))
        .and_then(|rest| rest.strip_prefix(": "))
        .unwrap_or(message);
    if let Some(line) = context_line() {
        push(&mut out, level, &line);
        level += 1;
    }
    push(&mut out, level, message);
    out
}

fn tree(out: &mut String, level: usize, err: &(dyn Error + 'static)) {
    if let Some(multi) = err.downcast_ref::<wgpu_core::error::MultiError>() {
        for e in multi.errors() {
            chain(out, level, e);
        }
    } else {
        chain(out, level, err);
    }
}

fn chain(out: &mut String, level: usize, err: &(dyn Error + 'static)) {
    push(out, level, &err.to_string());
    if let Some(source) = err.source() {
        tree(out, level + 1, source);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct E(&'static str, Option<Box<E>>);
    impl std::fmt::Display for E {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }
    }
    impl Error for E {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            self.1.as_deref().map(|e| e as &(dyn Error + 'static))
        }
    }

    #[test]
    fn one_line_errors_indent_by_level() {
        let saved = crate::ffi::frame::enter("wgpuDeviceCreateBuffer");
        let err = E("outer", Some(Box::new(E("inner", None))));
        assert_eq!(
            native_error_text(&err),
            "Validation Error\n\nCaused by:\n  In wgpuDeviceCreateBuffer\n    outer\n      inner\n"
        );
        crate::ffi::frame::leave(saved.expect("storage"));
        assert_eq!(current(), None);
    }

    #[test]
    fn a_diagnostic_starts_on_its_own_line_and_ends_with_a_blank_one() {
        let saved = crate::ffi::frame::enter("wgpuDeviceCreateShaderModule");
        let err = E("\nShader '' parsing error: x\n  ┌─ wgsl:1:1\n", Some(Box::new(E("why", None))));
        assert_eq!(
            native_error_text(&err),
            "Validation Error\n\nCaused by:\n  In wgpuDeviceCreateShaderModule\n    \nShader '' parsing error: x\n  ┌─ wgsl:1:1\n\n\n      why\n"
        );
        crate::ffi::frame::leave(saved.expect("storage"));
    }

    #[test]
    fn a_label_joins_the_in_line() {
        let saved = crate::ffi::frame::enter("wgpuDeviceCreateBuffer");
        note_label("bb");
        assert_eq!(
            native_message_text("wgpuDeviceCreateBuffer: bad"),
            "Validation Error\n\nCaused by:\n  In wgpuDeviceCreateBuffer, label = 'bb'\n    bad\n"
        );
        crate::ffi::frame::leave(saved.expect("storage"));
        let again = crate::ffi::frame::enter("wgpuDeviceCreateBuffer");
        assert_eq!(
            native_message_text("bad"),
            "Validation Error\n\nCaused by:\n  In wgpuDeviceCreateBuffer\n    bad\n",
            "a label belongs to the call that read it"
        );
        crate::ffi::frame::leave(again.expect("storage"));
    }

    #[test]
    fn outside_any_export_there_is_no_in_line() {
        assert_eq!(native_message_text("bad"), "Validation Error\n\nCaused by:\n  bad\n");
    }
}
