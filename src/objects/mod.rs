//! One module per C object of `webgpu.h` (`WGPUInstance` through
//! `WGPURenderBundle`, `WGPUSurface`), plus the per-thread error scopes and
//! texel-copy descriptors the objects share. Each module holds the object's
//! Rust type and its exported functions.

pub(crate) mod adapter;
pub(crate) mod bind_group;
pub(crate) mod bind_group_layout;
pub(crate) mod buffer;
pub(crate) mod command_buffer;
pub(crate) mod command_encoder;
pub(crate) mod compute_pass;
pub(crate) mod compute_pipeline;
pub(crate) mod device;
pub(crate) mod error_scope;
pub(crate) mod external_texture;
pub(crate) mod gl_adapter;
pub(crate) mod instance;
pub(crate) mod invalid;
pub(crate) mod owner;
pub(crate) mod pipeline_common;
pub(crate) mod pipeline_layout;
pub(crate) mod query_set;
pub(crate) mod queue;
pub(crate) mod render_bundle;
pub(crate) mod render_bundle_encoder;
pub(crate) mod render_pass;
pub(crate) mod render_pass_commands;
pub(crate) mod render_pipeline;
pub(crate) mod sampler;
pub(crate) mod shader_module;
pub(crate) mod surface;
pub(crate) mod texel_copy;
pub(crate) mod texture;
pub(crate) mod texture_view;
