//! Objects of one instance handed to a device of another. wgpu-core checks
//! that the objects of a call belong to one device only within one
//! instance: each instance has its own registries, where another
//! instance's id names nothing (wgpu-core panics) or another object. The
//! calls that take several objects check [`same_instance`] first and treat
//! a mismatch as the device mismatch it is: a validation error.

use crate::objects::device::Device;

/// An object made on a device.
pub(crate) trait Owned {
    /// The device it was made on.
    fn owner(&self) -> &Device;
}

macro_rules! owned_by_field {
    ($($ty:ty),* $(,)?) => {
        $(impl Owned for $ty {
            fn owner(&self) -> &Device {
                &self.device
            }
        })*
    };
}

owned_by_field!(
    crate::objects::bind_group::BindGroup,
    crate::objects::bind_group_layout::BindGroupLayout,
    crate::objects::buffer::Buffer,
    crate::objects::command_buffer::CommandBuffer,
    crate::objects::compute_pipeline::ComputePipeline,
    crate::objects::pipeline_layout::PipelineLayout,
    crate::objects::query_set::QuerySet,
    crate::objects::render_bundle::RenderBundle,
    crate::objects::render_pipeline::RenderPipeline,
    crate::objects::sampler::Sampler,
    crate::objects::shader_module::ShaderModule,
    crate::objects::texture::Texture,
);

impl Owned for crate::objects::texture_view::TextureView {
    fn owner(&self) -> &Device {
        &self.texture.device
    }
}

/// Whether `object` belongs to a device of another instance than `device`.
pub(crate) fn is_foreign<T: Owned + ?Sized>(device: &Device, object: &T) -> bool {
    !std::ptr::eq(device.global(), object.owner().global())
}

/// The validation error for a foreign object, named `what`.
pub(crate) fn foreign_error(what: &str) -> String {
    format!("{what} belongs to a device of another WGPUInstance")
}

/// `Err` naming `what` when `object` belongs to a device of another
/// instance than `device`.
pub(crate) fn same_instance<T: Owned + ?Sized>(device: &Device, object: &T, what: &str) -> Result<(), String> {
    if is_foreign(device, object) {
        Err(foreign_error(what))
    } else {
        Ok(())
    }
}
