//! `WGPUSurface`: presenting to a window (webgpu-behaviour §10).
//!
//! - A surface wraps one wgpu-core surface made from the window handles its
//!   descriptor names (`source.rs`). A descriptor that does not name exactly
//!   one usable window gives an *error surface*, which has none: every later
//!   use fails as the standard says (Configure: a device error;
//!   GetCurrentTexture: `Error`; Present and GetCapabilities: `Error`).
//! - wgpu-core has no "unconfigure", and its configuration holds the
//!   wgpu-core device and a swapchain. Unconfigure (and a Configure that
//!   fails, which unconfigures first) therefore replaces the wgpu-core
//!   surface with a new one made from the same handles: dropping the old one
//!   releases its swapchain and its device.
//! - The current frame (`frame.rs`) is a [`Texture`] of ours wrapping the
//!   wgpu-core surface texture, so views, getters and passes work on it. The
//!   surface keeps one reference until Present (which presents it) or
//!   Configure / Unconfigure / the last release (which give the image back
//!   unpresented); the texture is destroyed from then on.
//! - A frame whose device became invalid cannot give its image back to
//!   wgpu-core, and wgpu-hal cannot release a swapchain while one of its
//!   images is held. The wgpu-core surface is then retired into the frame
//!   texture ([`Texture::drop_after`]) and dropped after it.
//!
//! Lock order: a surface's `state`, then its device's maintenance locks.
//! No user callback runs while `state` is held (device errors are reported
//! after it is released).

mod config;
mod frame;
mod source;

use std::sync::Arc;

use parking_lot::Mutex;
use wgpu_core::global::Global;
use wgpu_core::id::SurfaceId;
use wgpu_types as wgt;

use crate::abi::*;
use crate::ffi::boundary::{self, call, refcounted, reject, set_label};
use crate::ffi::handle::Object;
use crate::objects::adapter::Adapter;
use crate::objects::device::Device;
use crate::objects::instance::Instance;
use crate::objects::texture::Texture;

pub use config::wgpuSurfaceConfigure;
pub use frame::{wgpuSurfaceGetCurrentTexture, wgpuSurfacePresent};
pub use source::wgpuInstanceCreateSurface;

/// A `WGPUSurface`.
#[repr(C)]
pub(crate) struct Surface {
    /// Makes the address of this object its C handle.
    pub(crate) header: crate::ffi::handle::Header,
    pub(crate) instance: Arc<Instance>,
    pub(crate) label: Mutex<String>,
    /// The window handles; `None` for an error surface.
    source: Option<source::Source>,
    state: Mutex<State>,
}

/// What a surface holds besides its window.
#[derive(Default)]
struct State {
    /// The wgpu-core surface: `None` for an error surface (or when making a
    /// new one after an unconfigure failed, logged).
    core: Option<SurfaceId>,
    /// Whether `core` was handed a configuration (it then holds a swapchain
    /// and the wgpu-core device).
    core_configured: bool,
    /// The configuration, while the surface is configured.
    config: Option<Config>,
    /// The current frame, from GetCurrentTexture until Present.
    frame: Option<Frame>,
}

/// A stored configuration (the parts later calls need).
struct Config {
    /// Kept alive by the configuration.
    device: Arc<Device>,
    format: WGPUTextureFormat,
    usage: WGPUTextureUsage,
    /// The configuration as wgpu-core took it.
    core: wgt::SurfaceConfiguration<Vec<wgt::TextureFormat>>,
}

/// The current frame.
struct Frame {
    texture: Arc<Texture>,
    /// Acquired from wgpu-core; `false` for the invalid texture handed out
    /// while the device is lost.
    acquired: bool,
}

/// A wgpu-core surface dropped when this value is: kept by a frame texture
/// that still holds one of its images ([`Surface::retire`]).
struct Retired {
    global: Arc<Global>,
    id: SurfaceId,
    /// The frame's device, whose work in flight may still hold the image.
    device: Arc<Device>,
}

/// How long dropping a retired surface waits for its device's work.
const RETIRE_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

impl Drop for Retired {
    fn drop(&mut self) {
        if crate::ffi::exit::detached() {
            // The driver may be torn down at exit: the swapchain leaks.
            return;
        }
        // The frame texture is gone; submissions that used it may still hold
        // its image until the device's maintenance lets them go.
        {
            let _maintenance = self.device.locks.maintenance();
            let wait = wgt::PollType::Wait { submission_index: None, timeout: Some(RETIRE_WAIT) };
            let _ = self.global.device_poll(self.device.id, wait);
        }
        // wgpu-hal panics when a swapchain image is still held (a bind group
        // of the application may hold it); the swapchain then leaks rather
        // than the call failing.
        let (global, id) = (&self.global, self.id);
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| global.surface_drop(id))).is_err() {
            log::error!(
                target: "wgpu_shim",
                "a surface whose device was lost while a frame was out could not release its swapchain; it leaks"
            );
        }
    }
}

impl Object for Surface {
    type Raw = WGPUSurfaceImpl;
    const NAME: &'static str = "WGPUSurface";
    const HEADER_OFFSET: usize = std::mem::offset_of!(Surface, header);
}

refcounted!(Surface, WGPUSurface, wgpuSurfaceAddRef, wgpuSurfaceRelease);
set_label!(Surface, WGPUSurface, wgpuSurfaceSetLabel);

impl Drop for Surface {
    fn drop(&mut self) {
        let mut st = std::mem::take(self.state.get_mut());
        crate::ffi::boundary::in_drop("a surface", || {
            let stuck = self.end_frame(&mut st);
            self.retire(&mut st, stuck);
        });
        // The configuration, and with it the device reference, goes last.
    }
}

impl Surface {
    fn global(&self) -> &Global {
        &self.instance.global
    }

    /// Ends the current frame without presenting it: wgpu-core takes the
    /// image back and the texture is destroyed. Returns the frame texture
    /// when wgpu-core could not take its image back (its device is invalid):
    /// the wgpu-core surface must then outlive that texture.
    fn end_frame(&self, st: &mut State) -> Option<Arc<Texture>> {
        let frame = st.frame.take()?;
        let core = st.core.filter(|_| frame.acquired)?;
        match self.global().surface_texture_discard(core) {
            Ok(()) => None,
            Err(err) => {
                log::debug!(target: "wgpu_shim", "surface frame not given back ({err}); the wgpu-core surface outlives it");
                // Only wgpu-core's own reference goes; the image stays with
                // the texture.
                let _ = self.global().surface_texture_release(core);
                Some(frame.texture)
            }
        }
    }

    /// Drops the wgpu-core surface: now, or after `stuck` (a frame texture
    /// still holding one of its images) goes.
    fn retire(&self, st: &mut State, stuck: Option<Arc<Texture>>) {
        st.core_configured = false;
        let Some(id) = st.core.take() else { return };
        match stuck {
            Some(texture) => {
                let retired = Retired { global: self.instance.global.clone(), id, device: texture.device.clone() };
                *texture.drop_after.lock() = Some(Box::new(retired));
            }
            None => self.global().surface_drop(id),
        }
    }

    /// Replaces the wgpu-core surface with a new, unconfigured one made from
    /// the same window handles (see [`Surface::retire`] for `stuck`).
    fn replace_core(&self, st: &mut State, stuck: Option<Arc<Texture>>) {
        self.retire(st, stuck);
        if let Some(source) = &self.source {
            match source.create_core(self.global()) {
                Ok(id) => st.core = Some(id),
                Err(why) => log::error!(
                    target: "wgpu_shim",
                    "surface {:?}: could not make the surface again after unconfiguring it ({why}); it is an error surface now",
                    self.label.lock()
                ),
            }
        }
    }

    /// `wgpuSurfaceUnconfigure`: ends the frame and drops the configuration,
    /// wgpu-core's included (its swapchain and device reference).
    fn unconfigure(&self, st: &mut State) {
        let stuck = self.end_frame(st);
        if st.core_configured || stuck.is_some() {
            self.replace_core(st, stuck);
        }
        st.config = None;
    }

    /// Why this surface cannot be used with `instance`'s objects, if it
    /// cannot: it is an error surface, or it belongs to another instance.
    fn core_for(&self, st: &State, instance: &Arc<Instance>) -> Result<SurfaceId, String> {
        if !Arc::ptr_eq(&self.instance, instance) {
            return Err("the surface and the adapter or device come from different instances".into());
        }
        st.core.ok_or_else(|| "the surface is an error surface".to_string())
    }
}

/// Runs `request` with the wgpu-core id of `RequestAdapterOptions`'s
/// `compatibleSurface` (or `None` for NULL), while the surface cannot
/// change. An error surface or one of another instance is an error.
///
/// # Safety
/// `raw` is NULL or a live surface handle.
pub(crate) unsafe fn with_compatible<R>(
    instance: &Arc<Instance>,
    raw: WGPUSurface,
    request: impl FnOnce(Option<SurfaceId>) -> R,
) -> Result<R, String> {
    // SAFETY: forwarded from the caller.
    let Some(surface) = (unsafe { boundary::opt_arg::<Surface>(raw, "compatibleSurface") }).map_err(|r| r.0)? else {
        return Ok(request(None));
    };
    let st = surface.state.lock();
    let id = surface.core_for(&st, instance).map_err(|why| format!("compatibleSurface: {why}"))?;
    Ok(request(Some(id)))
}

/// Removes the configuration: the current frame (if any) is destroyed, and
/// the device is no longer referenced by the surface.
///
/// # Safety
/// `surface` is a live surface.
#[no_mangle]
pub unsafe extern "C" fn wgpuSurfaceUnconfigure(surface: WGPUSurface) {
    call("wgpuSurfaceUnconfigure", (), || {
        // SAFETY: the C caller passes a live handle.
        let surface = unsafe { boundary::arg::<Surface>(surface, "surface") }?;
        let mut st = surface.state.lock();
        surface.unconfigure(&mut st);
        Ok(())
    })
}

/// The standard usage bits a surface can report.
const REPORTED_USAGES: WGPUTextureUsage = WGPUTextureUsage_CopySrc
    | WGPUTextureUsage_CopyDst
    | WGPUTextureUsage_TextureBinding
    | WGPUTextureUsage_StorageBinding
    | WGPUTextureUsage_RenderAttachment;

/// A present mode as webgpu.h names it (wgpu's automatic modes have no name
/// there and are never reported by a driver).
pub(crate) fn present_mode_to_c(mode: wgt::PresentMode) -> Option<WGPUPresentMode> {
    Some(match mode {
        wgt::PresentMode::Fifo => WGPUPresentMode::Fifo,
        wgt::PresentMode::FifoRelaxed => WGPUPresentMode::FifoRelaxed,
        wgt::PresentMode::Immediate => WGPUPresentMode::Immediate,
        wgt::PresentMode::Mailbox => WGPUPresentMode::Mailbox,
        _ => return None,
    })
}

/// An alpha mode as webgpu.h names it (`Auto` is never reported).
pub(crate) fn alpha_mode_to_c(mode: wgt::CompositeAlphaMode) -> Option<WGPUCompositeAlphaMode> {
    Some(match mode {
        wgt::CompositeAlphaMode::Opaque => WGPUCompositeAlphaMode::Opaque,
        wgt::CompositeAlphaMode::PreMultiplied => WGPUCompositeAlphaMode::Premultiplied,
        wgt::CompositeAlphaMode::PostMultiplied => WGPUCompositeAlphaMode::Unpremultiplied,
        wgt::CompositeAlphaMode::Inherit => WGPUCompositeAlphaMode::Inherit,
        _ => return None,
    })
}

/// What `adapter` can do with this surface (wgpu-core's view).
fn core_capabilities(surface: &Surface, adapter: &Adapter) -> Result<wgt::SurfaceCapabilities, String> {
    let st = surface.state.lock();
    let core = surface.core_for(&st, &adapter.instance)?;
    surface
        .global()
        .surface_get_capabilities(core, adapter.id)
        .map_err(|err| format!("the adapter cannot present to this surface: {err}"))
}

/// Writes what `adapter` supports for presenting to `surface`: usages,
/// formats (preferred first), present modes and alpha modes. The arrays
/// belong to the application, which frees them with
/// `wgpuSurfaceCapabilitiesFreeMembers`. Returns `WGPUStatus_Error`
/// (logged, output untouched) for an unknown chain on `capabilities`, an
/// error surface, a surface and adapter of different instances, or an
/// adapter that cannot present to the surface.
///
/// # Safety
/// `surface` and `adapter` are live; `capabilities` is NULL or writable with
/// a valid chain.
#[no_mangle]
pub unsafe extern "C" fn wgpuSurfaceGetCapabilities(
    surface: WGPUSurface,
    adapter: WGPUAdapter,
    capabilities: *mut WGPUSurfaceCapabilities,
) -> WGPUStatus {
    call("wgpuSurfaceGetCapabilities", WGPUStatus::Error, || {
        // SAFETY: the C caller passes live handles and NULL or a writable
        // struct with a valid chain.
        let (surface, adapter, out) = unsafe {
            let handles = (
                boundary::arg::<Surface>(surface, "surface")?,
                boundary::arg::<Adapter>(adapter, "adapter")?,
                boundary::out_arg(capabilities, "capabilities")?,
            );
            crate::ffi::chain_walk::expect_none_out(handles.2.nextInChain, "WGPUSurfaceCapabilities")?;
            handles
        };
        let caps = core_capabilities(surface, adapter).map_err(|why| reject!("{why}"))?;
        let usages = (u64::from(caps.usages.bits()) & REPORTED_USAGES) | WGPUTextureUsage_RenderAttachment;
        let formats: Vec<_> = caps.formats.iter().filter_map(|f| crate::conv::format::standard_format(*f)).collect();
        let present_modes: Vec<_> = caps.present_modes.iter().filter_map(|m| present_mode_to_c(*m)).collect();
        let alpha_modes: Vec<_> = caps.alpha_modes.iter().filter_map(|m| alpha_mode_to_c(*m)).collect();
        out.usages = usages;
        (out.formatCount, out.formats) = crate::ffi::array::into_raw(formats);
        (out.presentModeCount, out.presentModes) = crate::ffi::array::into_raw(present_modes);
        (out.alphaModeCount, out.alphaModes) = crate::ffi::array::into_raw(alpha_modes);
        Ok(WGPUStatus::Success)
    })
}

/// Frees the arrays `wgpuSurfaceGetCapabilities` wrote (not the chain).
///
/// # Safety
/// The arrays are exactly what this library wrote (or zero and NULL), not
/// freed before.
#[no_mangle]
pub unsafe extern "C" fn wgpuSurfaceCapabilitiesFreeMembers(surface_capabilities: WGPUSurfaceCapabilities) {
    call("wgpuSurfaceCapabilitiesFreeMembers", (), || {
        let caps = surface_capabilities;
        // SAFETY: the arrays came from `array::into_raw` (caller).
        unsafe {
            crate::ffi::array::free(caps.formats, caps.formatCount);
            crate::ffi::array::free(caps.presentModes, caps.presentModeCount);
            crate::ffi::array::free(caps.alphaModes, caps.alphaModeCount);
        }
        Ok(())
    })
}
