//! The per-frame calls: `wgpuSurfaceGetCurrentTexture` and
//! `wgpuSurfacePresent`.

use std::sync::Arc;

use wgpu_core::present::SurfaceError;
use wgpu_types as wgt;

use super::{Frame, State, Surface};
use crate::abi::*;
use crate::ffi::boundary::{self, call, reject, ApiResult};
use crate::ffi::handle::Handle;
use crate::objects::device::Device;
use crate::objects::texture::Texture;

/// wgpu.h's extra status: the window is not visible.
const OCCLUDED: WGPUSurfaceGetCurrentTextureStatus =
    WGPUSurfaceGetCurrentTextureStatus(crate::abi::native::WGPUSurfaceGetCurrentTextureStatus_Occluded);

/// What GetCurrentTexture hands out, and a device error to report once the
/// surface's lock is released.
struct Acquired {
    status: WGPUSurfaceGetCurrentTextureStatus,
    texture: Option<Arc<Texture>>,
    error: Option<(Arc<Device>, SurfaceError)>,
}

impl Acquired {
    fn status(status: WGPUSurfaceGetCurrentTextureStatus) -> Acquired {
        Acquired { status, texture: None, error: None }
    }
}

/// The status webgpu.h gives a wgpu-core acquire status that came without a
/// texture.
fn status_without_texture(status: wgt::SurfaceStatus) -> WGPUSurfaceGetCurrentTextureStatus {
    match status {
        wgt::SurfaceStatus::Timeout => WGPUSurfaceGetCurrentTextureStatus::Timeout,
        wgt::SurfaceStatus::Outdated => WGPUSurfaceGetCurrentTextureStatus::Outdated,
        wgt::SurfaceStatus::Occluded => OCCLUDED,
        _ => WGPUSurfaceGetCurrentTextureStatus::Lost,
    }
}

impl Surface {
    /// Makes the frame: a wgpu-core surface texture, or an invalid texture
    /// while the device is lost.
    fn acquire(&self) -> ApiResult<Acquired> {
        let mut st = self.state.lock();
        let Some(core) = st.core else {
            return Err(reject!("surface {:?} is an error surface", self.label.lock()));
        };
        let Some(config) = &st.config else {
            return Err(reject!("surface {:?} is not configured", self.label.lock()));
        };
        if st.frame.is_some() {
            return Err(reject!(
                "surface {:?} already has a current texture: present it (wgpuSurfacePresent) first",
                self.label.lock()
            ));
        }
        let device = config.device.clone();
        if device.is_lost() {
            return Ok(self.invalid_frame(&mut st));
        }
        let (width, height, format, usage) = (config.core.width, config.core.height, config.format, config.usage);
        match self.global().surface_get_current_texture(core, None) {
            Ok(out) => {
                let Some(id) = out.texture else { return Ok(Acquired::status(status_without_texture(out.status))) };
                let texture = Arc::new(Texture::surface_frame(device, id, (width, height), format, usage));
                st.frame = Some(Frame { texture: texture.clone(), acquired: true });
                let status = match out.status {
                    wgt::SurfaceStatus::Good => WGPUSurfaceGetCurrentTextureStatus::SuccessOptimal,
                    _ => WGPUSurfaceGetCurrentTextureStatus::SuccessSuboptimal,
                };
                Ok(Acquired { status, texture: Some(texture), error: None })
            }
            // Losing the device on the way is the lost-device case.
            Err(SurfaceError::Device(_)) if device.is_lost() => Ok(self.invalid_frame(&mut st)),
            Err(err @ SurfaceError::Device(_)) => Ok(Acquired {
                status: WGPUSurfaceGetCurrentTextureStatus::Lost,
                texture: None,
                error: Some((device, err)),
            }),
            Err(err) => Err(reject!("surface {:?}: {err}", self.label.lock())),
        }
    }

    /// The frame of a lost device: an invalid texture, as
    /// `wgpuDeviceCreateTexture` with the configuration's descriptor gives
    /// there, with `SuccessOptimal`.
    fn invalid_frame(&self, st: &mut State) -> Acquired {
        let Some(config) = &st.config else { return Acquired::status(WGPUSurfaceGetCurrentTextureStatus::Error) };
        let device = config.device.clone();
        let desc = wgpu_core::resource::TextureDescriptor {
            label: None,
            size: wgt::Extent3d { width: config.core.width, height: config.core.height, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgt::TextureDimension::D2,
            format: config.core.format,
            usage: config.core.usage,
            view_formats: config.core.view_formats.clone(),
        };
        // The error (a lost device) is not reported, as for any call on a
        // lost device.
        let (id, _) = device.global().device_create_texture(device.id, &desc, None);
        let size = (config.core.width, config.core.height);
        let texture = Arc::new(Texture::surface_frame(device, id, size, config.format, config.usage));
        st.frame = Some(Frame { texture: texture.clone(), acquired: false });
        Acquired { status: WGPUSurfaceGetCurrentTextureStatus::SuccessOptimal, texture: Some(texture), error: None }
    }

    /// Presents the frame. Returns a device error to report once the lock
    /// is released.
    fn present(&self) -> ApiResult<Option<(Arc<Device>, SurfaceError)>> {
        let mut st = self.state.lock();
        let Some(core) = st.core else {
            return Err(reject!("surface {:?} is an error surface", self.label.lock()));
        };
        let Some(frame) = st.frame.take() else {
            return Err(reject!(
                "surface {:?} has no current texture (call wgpuSurfaceGetCurrentTexture first)",
                self.label.lock()
            ));
        };
        if !frame.acquired {
            // The device is lost: there is nothing to show.
            return Ok(None);
        }
        let device = frame.texture.device.clone();
        let result = {
            // Presenting submits (the frame's clear or layout transition,
            // and pending queue writes), as a queue submit does.
            let _maintenance = device.locks.maintenance();
            self.global().surface_present(core)
        };
        device.work_done.note_work();
        match result {
            Ok(wgt::SurfaceStatus::Good) => Ok(None),
            Ok(status) => {
                log::debug!(target: "wgpu_shim", "surface {:?}: present: {status:?}", self.label.lock());
                Ok(None)
            }
            Err(err @ SurfaceError::Device(_)) => {
                // The device is invalid: wgpu-core kept the image, so its
                // surface must outlive the frame texture. A new one takes
                // its place; the configuration stays (its device is lost, so
                // later frames are invalid textures).
                let _ = self.global().surface_texture_release(core);
                self.replace_core(&mut st, Some(frame.texture));
                Ok(Some((device, err)))
            }
            Err(err) => {
                log::error!(target: "wgpu_shim", "surface {:?}: present failed: {err}", self.label.lock());
                Ok(None)
            }
        }
    }
}

/// Gets the texture to render this frame into. `surfaceTexture->texture` is
/// a new reference the application releases (the surface keeps its own
/// until Present); its status is `SuccessOptimal` or `SuccessSuboptimal`
/// with a texture, `Timeout`, `Outdated`, `Lost` (or wgpu.h's `Occluded`)
/// without one, or `Error` (logged) for an error surface, an unconfigured
/// surface, a frame not yet presented, or an unknown chain. While the device
/// is lost the texture is an invalid texture, with `SuccessOptimal`.
///
/// # Safety
/// `surface` is a live surface; `surface_texture` is NULL or writable with a
/// valid chain.
#[no_mangle]
pub unsafe extern "C" fn wgpuSurfaceGetCurrentTexture(surface: WGPUSurface, surface_texture: *mut WGPUSurfaceTexture) {
    call("wgpuSurfaceGetCurrentTexture", (), || {
        // SAFETY: the C caller passes a live handle and NULL or a writable
        // struct.
        let (surface, out) = unsafe {
            (boundary::arg::<Surface>(surface, "surface")?, boundary::out_arg(surface_texture, "surfaceTexture")?)
        };
        out.texture = std::ptr::null_mut();
        out.status = WGPUSurfaceGetCurrentTextureStatus::Error;
        // SAFETY: the chain is valid (caller).
        unsafe { crate::ffi::chain_walk::expect_none_out(out.nextInChain, "WGPUSurfaceTexture") }?;
        let acquired = surface.acquire()?;
        out.status = acquired.status;
        out.texture = acquired.texture.map_or(std::ptr::null_mut(), Handle::into_raw);
        if let Some((device, err)) = acquired.error {
            device.report(err);
        }
        Ok(())
    })
}

/// Shows the current texture and ends the frame: the texture is destroyed
/// from then on. Returns `WGPUStatus_Error` (logged) when there is no
/// current texture or the surface is an error surface. Problems of the
/// window system are logged and show up at the next GetCurrentTexture;
/// device errors go to the device.
///
/// # Safety
/// `surface` is a live surface.
#[no_mangle]
pub unsafe extern "C" fn wgpuSurfacePresent(surface: WGPUSurface) -> WGPUStatus {
    call("wgpuSurfacePresent", WGPUStatus::Error, || {
        // SAFETY: the C caller passes a live handle.
        let surface = unsafe { boundary::arg::<Surface>(surface, "surface") }?;
        if let Some((device, err)) = surface.present()? {
            device.report(err);
        }
        Ok(WGPUStatus::Success)
    })
}
