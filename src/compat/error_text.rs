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

use std::error::Error;
use std::fmt::Write as _;

/// The export an error was reported in, and the label of the descriptor it
/// read (empty: none); the boundary keeps both (`ffi::frame::context`).
pub(crate) struct CallContext {
    pub(crate) func: &'static str,
    pub(crate) label: String,
}

impl CallContext {
    /// The "In ..." line.
    fn line(&self) -> String {
        if self.label.is_empty() {
            format!("In {}", self.func)
        } else {
            format!("In {}, label = '{}'", self.func, self.label)
        }
    }
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

/// The text of a wgpu-core error reported during the export `context`
/// (`None`: outside any recorded export).
pub(crate) fn native_error_text(err: &(dyn Error + 'static), context: Option<&CallContext>) -> String {
    let mut out = String::from("Validation Error\n\nCaused by:\n");
    let mut level = 1;
    if let Some(context) = context {
        push(&mut out, level, &context.line());
        level += 1;
    }
    tree(&mut out, level, err);
    out
}

/// The text of an error this library found itself (`message`), in the same
/// form.
pub(crate) fn native_message_text(message: &str, context: Option<&CallContext>) -> String {
    let mut out = String::from("Validation Error\n\nCaused by:\n");
    let mut level = 1;
    // Our own messages often start with the function's name, which the
    // "In ..." line already gives.
    let message =
        context.and_then(|c| message.strip_prefix(c.func)).and_then(|rest| rest.strip_prefix(": ")).unwrap_or(message);
    if let Some(context) = context {
        push(&mut out, level, &context.line());
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

    fn within(func: &'static str, label: &str) -> CallContext {
        CallContext { func, label: label.to_string() }
    }

    #[test]
    fn one_line_errors_indent_by_level() {
        let err = E("outer", Some(Box::new(E("inner", None))));
        assert_eq!(
            native_error_text(&err, Some(&within("wgpuDeviceCreateBuffer", ""))),
            "Validation Error\n\nCaused by:\n  In wgpuDeviceCreateBuffer\n    outer\n      inner\n"
        );
    }

    #[test]
    fn a_diagnostic_starts_on_its_own_line_and_ends_with_a_blank_one() {
        let err = E("\nShader '' parsing error: x\n  ┌─ wgsl:1:1\n", Some(Box::new(E("why", None))));
        assert_eq!(
            native_error_text(&err, Some(&within("wgpuDeviceCreateShaderModule", ""))),
            "Validation Error\n\nCaused by:\n  In wgpuDeviceCreateShaderModule\n    \nShader '' parsing error: x\n  ┌─ wgsl:1:1\n\n\n      why\n"
        );
    }

    #[test]
    fn a_label_joins_the_in_line() {
        assert_eq!(
            native_message_text("wgpuDeviceCreateBuffer: bad", Some(&within("wgpuDeviceCreateBuffer", "bb"))),
            "Validation Error\n\nCaused by:\n  In wgpuDeviceCreateBuffer, label = 'bb'\n    bad\n"
        );
    }

    #[test]
    fn outside_any_export_there_is_no_in_line() {
        assert_eq!(native_message_text("bad", None), "Validation Error\n\nCaused by:\n  bad\n");
    }
}
