//! The C boundary's machinery, the one place where C pointers become Rust
//! values and the NULL and panic policy is applied.
//!
//! - [`boundary`]: every export runs through `boundary::call` (panic
//!   catching, rejection logging, spontaneous delivery on return); pointer,
//!   string and struct conversion; the `AddRef`/`Release`/`SetLabel` macros.
//! - [`handle`]: the header that starts every C object and the typed view of
//!   a handle (`Handle<T>`: borrow; `Arc` clones: library references).
//! - [`chain_walk`]: `nextInChain` walking and validation (the chained
//!   structs themselves are read in `conv`).
//! - [`frame`]: the calling thread's API-call frame (export, nesting,
//!   queued log messages), one thread-local reached twice per call.
//! - [`array`]: arrays the library allocates for the application.
//! - [`callback`]: `*CallbackInfo` checks and the callback carried to its
//!   thread.
//! - [`exit`]: the process-exit flags (`engine::exit` sets them).
//! - [`log`]: the log sink (stderr, `wgpuSetLogCallback`).

pub(crate) mod array;
pub(crate) mod boundary;
pub(crate) mod callback;
pub(crate) mod chain_walk;
pub(crate) mod exit;
pub(crate) mod frame;
pub(crate) mod handle;
pub(crate) mod log;
