//! `wgpuSurfaceConfigure`: reading and validating a configuration, and
//! handing it to wgpu-core.
//!
//! The checks of the standard (Surface-Configuration) are made here, before
//! wgpu-core sees the configuration, so that each failure is one validation
//! error with a message that says what to change, and so that a failed
//! configuration leaves the surface unconfigured (wgpu-core would keep the
//! previous one).

use std::sync::Arc;

use wgpu_types as wgt;

use super::{Config, State, Surface};
use crate::abi::native::WGPUSurfaceConfigurationExtras;
use crate::abi::*;
use crate::ffi::boundary::{self, call, reject};
use crate::ffi::chain_walk::Chain;
use crate::objects::device::Device;

/// wgpu.h's `WGPUSurfaceConfigurationExtras`.
const CONFIGURATION_EXTRAS: WGPUSType = WGPUSType(crate::abi::native::WGPUSType_SurfaceConfigurationExtras);

/// Frames in flight when `WGPUSurfaceConfigurationExtras` does not say.
const DEFAULT_FRAME_LATENCY: u32 = 2;

/// A configuration as read from C, before it is checked against the surface.
struct Request {
    format: WGPUTextureFormat,
    usage: WGPUTextureUsage,
    width: u32,
    height: u32,
    view_formats: Vec<wgt::TextureFormat>,
    alpha_mode: WGPUCompositeAlphaMode,
    present_mode: wgt::PresentMode,
    color_space: wgt::SurfaceColorSpace,
    frame_latency: u32,
}

/// The color space a `WGPUSurfaceColorManagement` asks for (0 members take
/// the JS defaults: sRGB, standard tone mapping).
fn color_space(cm: &WGPUSurfaceColorManagement) -> Result<wgt::SurfaceColorSpace, String> {
    use wgt::SurfaceColorSpace as S;
    let extended = match cm.toneMappingMode {
        WGPUToneMappingMode(0) | WGPUToneMappingMode::Standard => false,
        WGPUToneMappingMode::Extended => true,
        other => return Err(format!("toneMappingMode {:#x} is not a WGPUToneMappingMode", other.0)),
    };
    Ok(match (cm.colorSpace, extended) {
        (WGPUPredefinedColorSpace(0) | WGPUPredefinedColorSpace::SRGB, false) => S::Srgb,
        (WGPUPredefinedColorSpace(0) | WGPUPredefinedColorSpace::SRGB, true) => S::ExtendedSrgb,
        (WGPUPredefinedColorSpace::DisplayP3, false) => S::DisplayP3,
        (WGPUPredefinedColorSpace::DisplayP3, true) => S::ExtendedDisplayP3,
        (other, _) => return Err(format!("colorSpace {:#x} is not a WGPUPredefinedColorSpace", other.0)),
    })
}

/// Reads a configuration (enum values and chain; not yet the capabilities).
///
/// # Safety
/// The chain and the view format array are valid.
unsafe fn read(config: &WGPUSurfaceConfiguration) -> Result<Request, String> {
    // SAFETY: the chain is valid (caller).
    let chain =
        unsafe { Chain::walk(config.nextInChain, "WGPUSurfaceConfiguration") }.map_err(crate::conv::chain_error)?;
    // SAFETY: the sTypes name these structs.
    let (management, extras) = unsafe {
        (
            chain.get::<WGPUSurfaceColorManagement>(WGPUSType::SurfaceColorManagement),
            chain.get::<WGPUSurfaceConfigurationExtras>(CONFIGURATION_EXTRAS),
        )
    };
    // SAFETY: the array is valid (caller).
    let view_formats = unsafe { boundary::slice_arg(config.viewFormats, config.viewFormatCount, "viewFormats") }
        .map_err(|r| r.0)?
        .iter()
        .map(|f| {
            crate::conv::format::texture_format(*f)
                .ok_or_else(|| format!("viewFormats holds {:#x}, which is not a defined WGPUTextureFormat", f.0))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let present_mode = match config.presentMode {
        WGPUPresentMode::Undefined | WGPUPresentMode::Fifo => wgt::PresentMode::Fifo,
        WGPUPresentMode::FifoRelaxed => wgt::PresentMode::FifoRelaxed,
        WGPUPresentMode::Immediate => wgt::PresentMode::Immediate,
        WGPUPresentMode::Mailbox => wgt::PresentMode::Mailbox,
        other => return Err(format!("presentMode {:#x} is not a WGPUPresentMode", other.0)),
    };
    if config.alphaMode.0 > WGPUCompositeAlphaMode::Inherit.0 {
        return Err(format!("alphaMode {:#x} is not a WGPUCompositeAlphaMode", config.alphaMode.0));
    }
    Ok(Request {
        format: config.format,
        usage: config.usage,
        width: config.width,
        height: config.height,
        view_formats,
        alpha_mode: config.alphaMode,
        present_mode,
        color_space: management.map(color_space).transpose()?.unwrap_or(wgt::SurfaceColorSpace::Auto),
        frame_latency: extras.map_or(DEFAULT_FRAME_LATENCY, |e| e.desiredMaximumFrameLatency),
    })
}

/// The alpha mode `Auto` stands for: `Inherit` where the surface supports
/// it (as the header says native implementations do), else `Opaque`, else
/// the first mode it supports.
fn auto_alpha(supported: &[wgt::CompositeAlphaMode]) -> wgt::CompositeAlphaMode {
    use wgt::CompositeAlphaMode as A;
    [A::Inherit, A::Opaque]
        .into_iter()
        .find(|m| supported.contains(m))
        .or_else(|| supported.first().copied())
        .unwrap_or(A::Opaque)
}

impl Surface {
    /// Checks a request against the surface, the device and the
    /// capabilities of the device's adapter: the standard's list, ending with
    /// "an equivalent wgpuDeviceCreateTexture would succeed".
    fn check(
        &self,
        st: &State,
        device: &Device,
        req: Request,
    ) -> Result<wgt::SurfaceConfiguration<Vec<wgt::TextureFormat>>, String> {
        let core = self.core_for(st, &device.instance)?;
        if device.is_lost() {
            return Err("the device is lost".into());
        }
        let caps = self
            .global()
            .surface_get_capabilities(core, device.adapter.id)
            .map_err(|err| format!("the device's adapter cannot present to this surface: {err}"))?;
        let format = crate::conv::format::texture_format(req.format)
            .ok_or_else(|| format!("format {:#x} is not a defined WGPUTextureFormat", req.format.0))?;
        if !caps.formats.contains(&format) {
            return Err(format!("format {format:?} is not one of the surface's formats {:?}", caps.formats));
        }
        let usage = crate::objects::texture::texture_usage(req.usage)?;
        if usage.is_empty() {
            return Err("usage is empty".into());
        }
        if !caps.usages.contains(usage) {
            return Err(format!("usage {usage:?} is not within the surface's usages {:?}", caps.usages));
        }
        if !caps.present_modes.contains(&req.present_mode) {
            return Err(format!(
                "presentMode {:?} is not one of the surface's present modes {:?}",
                req.present_mode, caps.present_modes
            ));
        }
        let alpha_mode = match req.alpha_mode {
            WGPUCompositeAlphaMode::Auto => auto_alpha(&caps.alpha_modes),
            WGPUCompositeAlphaMode::Opaque => wgt::CompositeAlphaMode::Opaque,
            WGPUCompositeAlphaMode::Premultiplied => wgt::CompositeAlphaMode::PreMultiplied,
            WGPUCompositeAlphaMode::Unpremultiplied => wgt::CompositeAlphaMode::PostMultiplied,
            _ => wgt::CompositeAlphaMode::Inherit,
        };
        if !caps.alpha_modes.contains(&alpha_mode) {
            return Err(format!(
                "alphaMode {alpha_mode:?} is not one of the surface's alpha modes {:?}",
                caps.alpha_modes
            ));
        }
        // What creating the equivalent texture (2D, one mip level, one
        // sample) would check.
        let max = device.limits.max_texture_dimension_2d;
        if req.width == 0 || req.height == 0 || req.width > max || req.height > max {
            return Err(format!(
                "size {}x{} is not within 1..={max} (maxTextureDimension2D) in each dimension",
                req.width, req.height
            ));
        }
        if let Some(bad) = req.view_formats.iter().find(|v| v.remove_srgb_suffix() != format.remove_srgb_suffix()) {
            return Err(format!("view format {bad:?} differs from {format:?} in more than sRGB-ness"));
        }
        let adapter_specific = device.features.contains(wgt::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES);
        let allowed = match adapter_specific {
            true => self.global().adapter_get_texture_format_features(device.adapter.id, format).allowed_usages,
            false => format.guaranteed_format_features(device.features).allowed_usages,
        };
        if !allowed.contains(usage) {
            return Err(format!("format {format:?} does not support usage {usage:?} on this device"));
        }
        Ok(wgt::SurfaceConfiguration {
            usage,
            format,
            color_space: req.color_space,
            width: req.width,
            height: req.height,
            present_mode: req.present_mode,
            desired_maximum_frame_latency: req.frame_latency,
            alpha_mode,
            view_formats: req.view_formats,
        })
    }

    /// Hands a checked configuration to wgpu-core, replacing the current
    /// one. Returns wgpu-core's error, after which the surface is
    /// unconfigured.
    fn apply(
        &self,
        st: &mut State,
        device: &Arc<Device>,
        request: (WGPUTextureFormat, WGPUTextureUsage),
        core_config: wgt::SurfaceConfiguration<Vec<wgt::TextureFormat>>,
    ) -> Option<wgpu_core::present::ConfigureSurfaceError> {
        // The frame goes first: wgpu-core refuses to configure while one is
        // out. A frame it cannot take back, or another device, needs a new
        // wgpu-core surface (the swapchain belongs to the old device).
        let stuck = self.end_frame(st);
        let same_device = st.config.as_ref().is_some_and(|c| Arc::ptr_eq(&c.device, device));
        if stuck.is_some() || (st.core_configured && !same_device) {
            self.replace_core(st, stuck);
        }
        st.config = None;
        let Some(core) = st.core else {
            // Making the surface again failed (logged).
            return Some(wgpu_core::present::ConfigureSurfaceError::InvalidSurface);
        };
        st.core_configured = true;
        let error = {
            // wgpu-core waits for the device to be idle and runs its
            // maintenance, as a blocking poll does.
            let _maintenance = device.locks.maintenance();
            self.global().surface_configure(core, device.id, &core_config)
        };
        match error {
            None => {
                let (format, usage) = request;
                st.config = Some(Config { device: device.clone(), format, usage, core: core_config });
                None
            }
            Some(err) => {
                self.unconfigure(st);
                Some(err)
            }
        }
    }
}

/// A configuration problem, reported on the device once the surface's lock
/// is released (the uncaptured-error callback may call back into the
/// surface).
enum Failure {
    Ours(String),
    Core(wgpu_core::present::ConfigureSurfaceError),
}

/// Configures the surface for `config->device` (webgpu-behaviour §10): the
/// surface is unconfigured first; a NULL device is logged; a configuration
/// the surface or device cannot take is a validation error on the device
/// (silent when the device is lost) and leaves the surface unconfigured.
/// Otherwise later frames follow the new configuration, and the surface
/// keeps the device alive until it is unconfigured or released.
///
/// # Safety
/// `surface` is a live surface; `config` is NULL or valid, with a valid chain
/// and view format array.
#[no_mangle]
pub unsafe extern "C" fn wgpuSurfaceConfigure(surface: WGPUSurface, config: *const WGPUSurfaceConfiguration) {
    call("wgpuSurfaceConfigure", (), || {
        // SAFETY: the C caller passes a live handle and NULL or a valid
        // configuration.
        let (surface, config) =
            unsafe { (boundary::arg::<Surface>(surface, "surface")?, boundary::ptr_arg(config, "config")?) };
        // SAFETY: `config.device` is NULL or a live handle (caller).
        let device = unsafe { boundary::opt_arg::<Device>(config.device, "config.device") };
        let mut st = surface.state.lock();
        let device = match device {
            Ok(Some(device)) => device.arc(),
            Ok(None) => {
                surface.unconfigure(&mut st);
                return Err(reject!("config.device is NULL; the surface is left unconfigured"));
            }
            Err(why) => {
                surface.unconfigure(&mut st);
                return Err(why);
            }
        };
        // SAFETY: the chain and array are valid (caller).
        let checked = unsafe { read(config) }.and_then(|req| surface.check(&st, &device, req));
        let failure = match checked {
            Ok(core_config) => {
                surface.apply(&mut st, &device, (config.format, config.usage), core_config).map(Failure::Core)
            }
            Err(why) => {
                surface.unconfigure(&mut st);
                Some(Failure::Ours(why))
            }
        };
        drop(st);
        match failure {
            None => {}
            Some(_) if device.is_lost() => log::warn!(
                target: "wgpu_shim",
                "wgpuSurfaceConfigure: the device is lost; surface {:?} is left unconfigured",
                surface.label.lock()
            ),
            Some(Failure::Ours(why)) => device.report_validation(format!("wgpuSurfaceConfigure: {why}")),
            Some(Failure::Core(err)) => device.report(err),
        }
        Ok(())
    })
}
