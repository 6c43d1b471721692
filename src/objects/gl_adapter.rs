//! One wgpu-core adapter per instance for OpenGL.
//!
//! wgpu-hal's GL backend has one EGL context per instance, and every adapter
//! it enumerates wraps that same context with a lock of its own. Two GL
//! adapters of one instance (two `wgpuInstanceRequestAdapter` calls) would
//! make the context current on two threads at once, which EGL refuses
//! (`EGL_BAD_ACCESS`, and wgpu-hal then panics), and every later enumeration
//! makes the context current behind every device's back. So an instance
//! enumerates its GL adapter once, keeps it, and hands the same wgpu-core
//! adapter to every `WGPUAdapter` that is a GL one: all GL devices then
//! share one context lock.

use wgpu_core::id::{AdapterId, SurfaceId};
use wgpu_types as wgt;

use crate::objects::instance::Instance;

/// What an adapter request asks for.
pub(crate) struct Wanted {
    pub(crate) power: wgt::PowerPreference,
    pub(crate) fallback: bool,
    pub(crate) surface: Option<SurfaceId>,
}

/// The instance's GL adapter (enumerated on the first call, then kept), if
/// it has one that suits `wanted`; else why not.
pub(crate) fn gl_adapter(instance: &Instance, wanted: &Wanted) -> Result<AdapterId, String> {
    let id = {
        let mut cached = instance.gl_adapter.lock();
        match *cached {
            Some(Some(id)) => id,
            Some(None) => return Err("the GL backend has no adapter".into()),
            None => {
                let opts = wgpu_core::instance::RequestAdapterOptions {
                    power_preference: wgt::PowerPreference::None,
                    force_fallback_adapter: false,
                    compatible_surface: None,
                    apply_limit_buckets: false,
                };
                let found =
                    crate::engine::drivers::pinning(|| instance.global.request_adapter(&opts, wgt::Backends::GL, None));
                *cached = Some(found.as_ref().ok().copied());
                found.map_err(|e| format!("the GL backend has no adapter ({e})"))?
            }
        }
    };
    let info = instance.global.adapter_get_info(id);
    if wanted.fallback && info.device_type != wgt::DeviceType::Cpu {
        return Err("the GL adapter is no fallback (CPU) adapter".into());
    }
    if let Some(surface) = wanted.surface {
        if !instance.global.adapter_is_surface_supported(id, surface) {
            return Err("the GL adapter cannot present to the surface (GL surfaces need the display in WGPUInstanceExtras.displayHandle)".into());
        }
    }
    Ok(id)
}

/// Whether `gl` comes before `other` (of another backend) for `power`, as
/// wgpu-core orders adapters: by device type for a power preference, else
/// in backend order (GL last).
pub(crate) fn gl_first(instance: &Instance, gl: AdapterId, other: AdapterId, power: wgt::PowerPreference) -> bool {
    let low = match power {
        wgt::PowerPreference::LowPower => true,
        wgt::PowerPreference::HighPerformance => false,
        _ => return false,
    };
    let order = |t: wgt::DeviceType| match t {
        wgt::DeviceType::DiscreteGpu if low => 2,
        wgt::DeviceType::IntegratedGpu if low => 1,
        wgt::DeviceType::DiscreteGpu => 1,
        wgt::DeviceType::IntegratedGpu => 2,
        wgt::DeviceType::Other => 3,
        wgt::DeviceType::VirtualGpu => 4,
        wgt::DeviceType::Cpu => 5,
    };
    let gl_type = instance.global.adapter_get_info(gl).device_type;
    let other_type = instance.global.adapter_get_info(other).device_type;
    order(gl_type) < order(other_type)
}
