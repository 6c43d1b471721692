//! Compilation messages: what `wgpuShaderModuleGetCompilationInfo` reports
//! about a shader module, kept from its creation.

use std::panic::{catch_unwind, AssertUnwindSafe};

use wgpu_core::naga;
use wgpu_core::pipeline::CreateShaderModuleError;

use crate::abi::WGPUCompilationMessageType;

/// One compilation message, owned (the C view borrows from it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Message {
    pub(crate) text: String,
    pub(crate) kind: WGPUCompilationMessageType,
    /// 1-based; 0 when the message has no location.
    pub(crate) line_num: u64,
    /// 1-based, in UTF-8 bytes; 0 when the message has no location.
    pub(crate) line_pos: u64,
    /// 0-based, in UTF-8 bytes from the start of the source.
    pub(crate) offset: u64,
    /// In UTF-8 bytes.
    pub(crate) length: u64,
}

impl Message {
    /// An error message that points at no place in the source.
    pub(crate) fn error(text: impl Into<String>) -> Message {
        Message {
            text: text.into(),
            kind: WGPUCompilationMessageType::Error,
            line_num: 0,
            line_pos: 0,
            offset: 0,
            length: 0,
        }
    }

    fn at(mut self, loc: Option<naga::SourceLocation>) -> Message {
        if let Some(loc) = loc {
            self.line_num = u64::from(loc.line_number);
            self.line_pos = u64::from(loc.line_position);
            self.offset = u64::from(loc.offset);
            self.length = u64::from(loc.length);
        }
        self
    }
}

/// Computes a source location, treating a panic in the computation (a span
/// that does not fall on character boundaries) as "no location".
fn location(f: impl FnOnce() -> Option<naga::SourceLocation>) -> Option<naga::SourceLocation> {
    catch_unwind(AssertUnwindSafe(f)).ok().flatten()
}

/// The compilation message for a failed shader module creation: the error's
/// text and, for WGSL and GLSL parse errors and validation errors, where in
/// the source it is.
pub(crate) fn error_message(err: &CreateShaderModuleError) -> Message {
    match err {
        CreateShaderModuleError::Parsing(e) => {
            let mut text = e.inner.message().to_string();
            for note in e.inner.notes() {
                text.push_str("\nnote: ");
                text.push_str(note);
            }
            Message::error(text).at(location(|| e.inner.location(&e.source)))
        }
        CreateShaderModuleError::ParsingGlsl(e) => {
            let lines: Vec<String> = e.inner.errors.iter().map(|err| err.kind.to_string()).collect();
            let first = e.inner.errors.first();
            Message::error(lines.join("\n")).at(location(|| first.and_then(|err| err.location(&e.source))))
        }
        CreateShaderModuleError::Validation(e) => {
            Message::error(crate::conv::describe(&*e.inner)).at(location(|| e.inner.location(&e.source)))
        }
        other => Message::error(crate::conv::describe(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use naga::error::ShaderError;

    fn parse_error(source: &str) -> CreateShaderModuleError {
        let inner = naga::front::wgsl::parse_str(source).expect_err("the source is invalid");
        CreateShaderModuleError::Parsing(ShaderError {
            source: source.to_string(),
            label: None,
            inner: Box::new(inner),
        })
    }

    #[test]
    fn parse_errors_have_one_based_locations_in_bytes() {
        let source = "// é\nfn main() {\n  let x = ;\n}\n";
        let m = error_message(&parse_error(source));
        assert_eq!(m.kind, WGPUCompilationMessageType::Error);
        assert!(!m.text.is_empty());
        assert_eq!(m.line_num, 3);
        let line_start = source.find("  let").unwrap() as u64;
        assert_eq!(m.offset, line_start + m.line_pos - 1);
        assert!(m.line_pos >= 1);
        // The offset is in bytes: the 2-byte 'é' on line 1 counts twice.
        assert_eq!(line_start, 18);
    }

    #[test]
    fn glsl_parse_errors_have_locations() {
        let source = "#version 450\nvoid main() {\n  int x = ;\n}\n";
        let options = naga::front::glsl::Options::from(naga::ShaderStage::Compute);
        let inner = naga::front::glsl::Frontend::default().parse(&options, source).expect_err("the source is invalid");
        let err = CreateShaderModuleError::ParsingGlsl(ShaderError {
            source: source.to_string(),
            label: None,
            inner: Box::new(inner),
        });
        let m = error_message(&err);
        assert!(!m.text.is_empty() && !m.text.contains("Error {"), "{}", m.text);
        assert_eq!(m.line_num, 3);
    }

    #[test]
    fn validation_errors_have_locations() {
        let source = "@compute @workgroup_size(1) fn main() { var x: u32 = 1u; x = 1.5; }";
        let module = naga::front::wgsl::parse_str(source);
        let err = match module {
            Err(inner) => CreateShaderModuleError::Parsing(ShaderError {
                source: source.into(),
                label: None,
                inner: Box::new(inner),
            }),
            Ok(module) => {
                let inner =
                    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
                        .validate(&module)
                        .expect_err("the module is invalid");
                CreateShaderModuleError::Validation(ShaderError {
                    source: source.into(),
                    label: None,
                    inner: Box::new(inner),
                })
            }
        };
        let m = error_message(&err);
        assert_eq!(m.line_num, 1);
        assert!(m.line_pos >= 1);
        assert!(m.length > 0);
    }

    #[test]
    fn other_errors_have_no_location() {
        let m = error_message(&CreateShaderModuleError::Generation);
        assert_eq!((m.line_num, m.line_pos, m.offset, m.length), (0, 0, 0, 0));
        assert!(!m.text.is_empty());
    }
}
