//! wgpu-shim: the standard `webgpu.h` C API on wgpu-core, with exact futures.
//!
//! One module per C object; the C boundary policy lives in [`boundary`] and
//! [`handle`]; futures and callback delivery live in [`futures`] and
//! [`progress`]. `docs/ARCHITECTURE.md` describes the design.

#[rustfmt::skip]
pub mod abi;

mod adapter;
mod array;
mod bind_group;
mod bind_group_layout;
mod boundary;
mod buffer;
mod callback;
mod chain;
mod command_buffer;
mod command_encoder;
mod compute_pass;
mod compute_pipeline;
mod conv;
mod conv_device;
mod device;
mod direct_wait;
mod drivers;
mod error_scope;
mod ext;
mod external_texture;
mod futures;
mod handle;
mod instance;
mod log;
mod native;
mod pipeline_common;
mod pipeline_layout;
mod procs;
mod progress;
mod query_set;
mod queue;
mod render_bundle;
mod render_bundle_encoder;
mod render_pass;
mod render_pass_commands;
mod render_pipeline;
mod sampler;
mod shader_module;
mod surface;
mod texel_copy;
mod texture;
mod texture_view;
mod tracking;
mod work_done;
