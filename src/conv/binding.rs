//! Bind group layout entries and bind group entries.

use std::num::{NonZeroU32, NonZeroU64};

use wgpu_types as wgt;

use crate::abi::*;

/// Shader stage flags; unknown bits are a validation error.
pub(crate) fn shader_stages(flags: WGPUShaderStage) -> Result<wgt::ShaderStages, String> {
    let known = WGPUShaderStage_Vertex | WGPUShaderStage_Fragment | WGPUShaderStage_Compute;
    if flags & !known != 0 {
        return Err(format!("visibility {flags:#x} has unknown WGPUShaderStage bits"));
    }
    let mut out = wgt::ShaderStages::NONE;
    if flags & WGPUShaderStage_Vertex != 0 {
        out |= wgt::ShaderStages::VERTEX;
    }
    if flags & WGPUShaderStage_Fragment != 0 {
        out |= wgt::ShaderStages::FRAGMENT;
    }
    if flags & WGPUShaderStage_Compute != 0 {
        out |= wgt::ShaderStages::COMPUTE;
    }
    Ok(out)
}

/// A buffer binding layout; `None` when `type` is `BindingNotUsed`.
fn buffer_layout(b: &WGPUBufferBindingLayout) -> Result<Option<wgt::BindingType>, String> {
    let ty = match b.r#type {
        WGPUBufferBindingType::BindingNotUsed => return Ok(None),
        WGPUBufferBindingType::Undefined | WGPUBufferBindingType::Uniform => wgt::BufferBindingType::Uniform,
        WGPUBufferBindingType::Storage => wgt::BufferBindingType::Storage { read_only: false },
        WGPUBufferBindingType::ReadOnlyStorage => wgt::BufferBindingType::Storage { read_only: true },
        other => return Err(format!("buffer.type {:#x} is not a WGPUBufferBindingType", other.0)),
    };
    Ok(Some(wgt::BindingType::Buffer {
        ty,
        has_dynamic_offset: b.hasDynamicOffset != 0,
        min_binding_size: NonZeroU64::new(b.minBindingSize),
    }))
}

/// A sampler binding layout; `None` when `type` is `BindingNotUsed`.
fn sampler_layout(s: &WGPUSamplerBindingLayout) -> Result<Option<wgt::BindingType>, String> {
    let ty = match s.r#type {
        WGPUSamplerBindingType::BindingNotUsed => return Ok(None),
        WGPUSamplerBindingType::Undefined | WGPUSamplerBindingType::Filtering => wgt::SamplerBindingType::Filtering,
        WGPUSamplerBindingType::NonFiltering => wgt::SamplerBindingType::NonFiltering,
        WGPUSamplerBindingType::Comparison => wgt::SamplerBindingType::Comparison,
        other => return Err(format!("sampler.type {:#x} is not a WGPUSamplerBindingType", other.0)),
    };
    Ok(Some(wgt::BindingType::Sampler(ty)))
}

/// A sampled texture binding layout; `None` when `sampleType` is
/// `BindingNotUsed`.
fn texture_layout(t: &WGPUTextureBindingLayout) -> Result<Option<wgt::BindingType>, String> {
    let sample_type = match t.sampleType {
        WGPUTextureSampleType::BindingNotUsed => return Ok(None),
        WGPUTextureSampleType::Undefined | WGPUTextureSampleType::Float => {
            wgt::TextureSampleType::Float { filterable: true }
        }
        WGPUTextureSampleType::UnfilterableFloat => wgt::TextureSampleType::Float { filterable: false },
        WGPUTextureSampleType::Depth => wgt::TextureSampleType::Depth,
        WGPUTextureSampleType::Sint => wgt::TextureSampleType::Sint,
        WGPUTextureSampleType::Uint => wgt::TextureSampleType::Uint,
        other => return Err(format!("texture.sampleType {:#x} is not a WGPUTextureSampleType", other.0)),
    };
    let view_dimension = super::format::view_dimension(t.viewDimension)
        .ok_or_else(|| format!("texture.viewDimension {:#x} is not a WGPUTextureViewDimension", t.viewDimension.0))?;
    Ok(Some(wgt::BindingType::Texture { sample_type, view_dimension, multisampled: t.multisampled != 0 }))
}

/// A storage texture binding layout; `None` when `access` is
/// `BindingNotUsed`.
fn storage_texture_layout(t: &WGPUStorageTextureBindingLayout) -> Result<Option<wgt::BindingType>, String> {
    let access = match t.access {
        WGPUStorageTextureAccess::BindingNotUsed => return Ok(None),
        WGPUStorageTextureAccess::Undefined | WGPUStorageTextureAccess::WriteOnly => {
            wgt::StorageTextureAccess::WriteOnly
        }
        WGPUStorageTextureAccess::ReadOnly => wgt::StorageTextureAccess::ReadOnly,
        WGPUStorageTextureAccess::ReadWrite => wgt::StorageTextureAccess::ReadWrite,
        other => return Err(format!("storageTexture.access {:#x} is not a WGPUStorageTextureAccess", other.0)),
    };
    let format = match t.format {
        WGPUTextureFormat::Undefined => return Err("storageTexture.format is Undefined".to_string()),
        f => super::format::texture_format(f)
            .ok_or_else(|| format!("storageTexture.format {:#x} is not a WGPUTextureFormat", f.0))?,
    };
    let view_dimension = super::format::view_dimension(t.viewDimension).ok_or_else(|| {
        format!("storageTexture.viewDimension {:#x} is not a WGPUTextureViewDimension", t.viewDimension.0)
    })?;
    Ok(Some(wgt::BindingType::StorageTexture { access, format, view_dimension }))
}

/// Converts one bind group layout entry. `external_texture` says whether a
/// `WGPUExternalTextureBindingLayout` was chained to it. Exactly one of the
/// binding layouts must be used.
pub(crate) fn bgl_entry(
    e: &WGPUBindGroupLayoutEntry,
    external_texture: bool,
) -> Result<wgt::BindGroupLayoutEntry, String> {
    let visibility = shader_stages(e.visibility)?;
    let mut used: Vec<(&str, wgt::BindingType)> = Vec::with_capacity(1);
    if let Some(ty) = buffer_layout(&e.buffer)? {
        used.push(("buffer", ty));
    }
    if let Some(ty) = sampler_layout(&e.sampler)? {
        used.push(("sampler", ty));
    }
    if let Some(ty) = texture_layout(&e.texture)? {
        used.push(("texture", ty));
    }
    if let Some(ty) = storage_texture_layout(&e.storageTexture)? {
        used.push(("storageTexture", ty));
    }
    if external_texture {
        used.push(("externalTexture", wgt::BindingType::ExternalTexture));
    }
    let ty = match used.len() {
        1 => used.remove(0).1,
        0 => {
            return Err(format!(
                "entry for binding {} uses none of buffer, sampler, texture, storageTexture",
                e.binding
            ))
        }
        _ => {
            let names: Vec<&str> = used.iter().map(|(n, _)| *n).collect();
            return Err(format!(
                "entry for binding {} uses more than one binding type ({}); exactly one is allowed",
                e.binding,
                names.join(", ")
            ));
        }
    };
    Ok(wgt::BindGroupLayoutEntry { binding: e.binding, visibility, ty, count: NonZeroU32::new(e.bindingArraySize) })
}

/// What a bind group entry binds, from which of its members are set.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum EntryKind {
    Buffer,
    Sampler,
    TextureView,
    ExternalTexture,
    /// wgpu.h's `WGPUBindGroupEntryExtras.buffers`.
    BufferArray,
    /// wgpu.h's `WGPUBindGroupEntryExtras.samplers`.
    SamplerArray,
    /// wgpu.h's `WGPUBindGroupEntryExtras.textureViews`.
    TextureViewArray,
}

/// Classifies a bind group entry by the resources it names (`set` says,
/// for each kind, whether the entry names it): exactly one must be set.
pub(crate) fn entry_kind(binding: u32, set: &[(EntryKind, bool)]) -> Result<EntryKind, String> {
    let named: Vec<EntryKind> = set.iter().filter_map(|&(k, on)| on.then_some(k)).collect();
    match named.as_slice() {
        [one] => Ok(*one),
        [] => Err(format!("entry for binding {binding} names no resource (buffer, sampler and textureView are NULL)")),
        _ => {
            Err(format!("entry for binding {binding} names more than one resource ({named:?}); exactly one is allowed"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> WGPUBindGroupLayoutEntry {
        WGPUBindGroupLayoutEntry { binding: 3, visibility: WGPUShaderStage_Compute, ..Default::default() }
    }

    #[test]
    fn stages() {
        assert_eq!(shader_stages(0).unwrap(), wgt::ShaderStages::NONE);
        assert_eq!(
            shader_stages(WGPUShaderStage_Vertex | WGPUShaderStage_Fragment).unwrap(),
            wgt::ShaderStages::VERTEX_FRAGMENT
        );
        assert!(shader_stages(8).is_err());
    }

    #[test]
    fn buffer_defaults() {
        let mut e = entry();
        e.buffer.r#type = WGPUBufferBindingType::Undefined;
        let out = bgl_entry(&e, false).unwrap();
        assert_eq!(out.binding, 3);
        assert_eq!(out.visibility, wgt::ShaderStages::COMPUTE);
        assert_eq!(out.count, None);
        assert_eq!(
            out.ty,
            wgt::BindingType::Buffer {
                ty: wgt::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None
            }
        );
        e.buffer.r#type = WGPUBufferBindingType::ReadOnlyStorage;
        e.buffer.hasDynamicOffset = 1;
        e.buffer.minBindingSize = 16;
        e.bindingArraySize = 4;
        let out = bgl_entry(&e, false).unwrap();
        assert_eq!(
            out.ty,
            wgt::BindingType::Buffer {
                ty: wgt::BufferBindingType::Storage { read_only: true },
                has_dynamic_offset: true,
                min_binding_size: NonZeroU64::new(16),
            }
        );
        assert_eq!(out.count, NonZeroU32::new(4));
        e.buffer.r#type = WGPUBufferBindingType(77);
        assert!(bgl_entry(&e, false).is_err());
    }

    #[test]
    fn exactly_one_layout() {
        let e = entry();
        assert!(bgl_entry(&e, false).unwrap_err().contains("none"));
        let mut e = entry();
        e.buffer.r#type = WGPUBufferBindingType::Storage;
        e.sampler.r#type = WGPUSamplerBindingType::Undefined;
        assert!(bgl_entry(&e, false).unwrap_err().contains("more than one"));
        let e = entry();
        assert_eq!(bgl_entry(&e, true).unwrap().ty, wgt::BindingType::ExternalTexture);
    }

    #[test]
    fn sampler_and_textures() {
        let mut e = entry();
        e.sampler.r#type = WGPUSamplerBindingType::Undefined;
        assert_eq!(bgl_entry(&e, false).unwrap().ty, wgt::BindingType::Sampler(wgt::SamplerBindingType::Filtering));

        let mut e = entry();
        e.texture.sampleType = WGPUTextureSampleType::Undefined;
        assert_eq!(
            bgl_entry(&e, false).unwrap().ty,
            wgt::BindingType::Texture {
                sample_type: wgt::TextureSampleType::Float { filterable: true },
                view_dimension: wgt::TextureViewDimension::D2,
                multisampled: false,
            }
        );
        e.texture.sampleType = WGPUTextureSampleType::UnfilterableFloat;
        e.texture.viewDimension = WGPUTextureViewDimension::Cube;
        e.texture.multisampled = 1;
        assert_eq!(
            bgl_entry(&e, false).unwrap().ty,
            wgt::BindingType::Texture {
                sample_type: wgt::TextureSampleType::Float { filterable: false },
                view_dimension: wgt::TextureViewDimension::Cube,
                multisampled: true,
            }
        );

        let mut e = entry();
        e.storageTexture.access = WGPUStorageTextureAccess::Undefined;
        assert!(bgl_entry(&e, false).unwrap_err().contains("format"));
        e.storageTexture.format = WGPUTextureFormat::RGBA8Unorm;
        assert_eq!(
            bgl_entry(&e, false).unwrap().ty,
            wgt::BindingType::StorageTexture {
                access: wgt::StorageTextureAccess::WriteOnly,
                format: wgt::TextureFormat::Rgba8Unorm,
                view_dimension: wgt::TextureViewDimension::D2,
            }
        );
        e.storageTexture.viewDimension = WGPUTextureViewDimension(42);
        assert!(bgl_entry(&e, false).is_err());
    }

    #[test]
    fn entry_kinds() {
        use EntryKind as K;
        assert_eq!(entry_kind(0, &[(K::Buffer, true), (K::Sampler, false)]), Ok(K::Buffer));
        assert_eq!(entry_kind(0, &[(K::Buffer, false), (K::TextureViewArray, true)]), Ok(K::TextureViewArray));
        assert!(entry_kind(0, &[(K::Buffer, false), (K::Sampler, false)]).is_err());
        assert!(entry_kind(0, &[(K::Buffer, true), (K::BufferArray, true)]).unwrap_err().contains("more than one"));
    }
}
