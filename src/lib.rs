//! wgpu-shim: the standard `webgpu.h` C API on wgpu-core, with exact futures.
//!
//! The folders name the kinds of code (`docs/ARCHITECTURE.md`, "Layout"):
//!
//! - [`abi`]: the Rust mirror of `webgpu.h`, generated from the API data;
//! - [`ffi`]: the C boundary: pointer conversion, handles, chains, the NULL
//!   and panic policy;
//! - [`futures`]: the per-instance registry, WaitAny and callback delivery;
//! - [`engine`]: what moves each device forward (progress thread, work-done
//!   batches, direct fence waits, mapped-buffer tracking);
//! - [`objects`]: one module per C object;
//! - [`conv`]: descriptor and enum conversions to wgpu-types / wgpu-core;
//! - [`native`]: wgpu-native's extension API (`wgpu.h`);
//! - [`ext`]: wgpu-shim's own extensions (`wgpu_shim.h`);
//! - [`compat`]: when wgpu-native's rules apply instead of the standard's;
//! - `procs`: `wgpuGetProcAddress`, the table of every export (it names
//!   every API folder, so it sits above them all).
//!
//! Each folder names only the folders below it in `docs/ARCHITECTURE.md`'s
//! diagram; the unit test `source_scan::tests::folders_name_only_lower_folders`
//! enforces it.

#[rustfmt::skip]
pub mod abi;

mod compat;
mod conv;
mod engine;
mod ext;
mod ffi;
mod futures;
#[cfg(fuzzing)]
#[doc(hidden)]
pub mod fuzz_hooks;
mod native;
mod objects;
mod procs;
#[cfg(test)]
mod source_scan;
