//! The C boundary's machinery, the one place where C pointers become Rust
//! values and the NULL and panic policy is applied.
//!
//! - [`boundary`]: every export runs through `boundary::call` (panic
//!   catching, rejection logging, spontaneous delivery on return); pointer,
//!   string and struct conversion; the `AddRef`/`Release`/`SetLabel` macros.
//! - [`handle`]: the header that starts every C object and the typed view of
//!   a handle (`Handle<T>`: borrow; `Arc` clones: library references).
//! - [`chain`]: `nextInChain` walking and validation.
//! - [`frame`]: the calling thread's API-call frame (export, nesting,
//!   queued log messages), one thread-local reached twice per call.
//! - [`array`]: arrays the library allocates for the application.
//! - [`callback`]: `*CallbackInfo` checks and the callback carried to its
//!   thread.
//! - [`procs`]: `wgpuGetProcAddress`'s signature-checked table.
//! - [`log`]: the log sink (stderr, `wgpuSetLogCallback`).

pub(crate) mod array;
pub(crate) mod boundary;
pub(crate) mod callback;
pub(crate) mod chain;
pub(crate) mod frame;
pub(crate) mod handle;
pub(crate) mod log;
pub(crate) mod procs;

/// Every file under `src/` with its text, for the tests that check a rule
/// over the whole source (every export inside `call`, thread-locals through
/// `try_with`).
#[cfg(test)]
pub(crate) fn source_files() -> Vec<(std::path::PathBuf, String)> {
    fn walk(dir: &std::path::Path, out: &mut Vec<(std::path::PathBuf, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((path, text));
            }
        }
    }
    let mut out = Vec::new();
    walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut out);
    out
}
