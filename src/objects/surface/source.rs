//! `wgpuInstanceCreateSurface`: reading the descriptor's source into window
//! handles, and making wgpu-core surfaces from them.
//!
//! Each source is accepted on the systems that have it: X11 and Wayland on
//! Linux and the other Unix systems (Vulkan), HWND on Windows (Vulkan,
//! DX12), the Metal layer on Apple systems (Metal), Android's native window
//! on Android. Elsewhere, and for wgpu.h's SwapChainPanel, the source is
//! refused with a message that says why.

use std::ffi::c_ulong;
use std::num::{NonZeroIsize, NonZeroU32};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;
use std::sync::Arc;

use parking_lot::Mutex;
use raw_window_handle as rwh;
use wgpu_core::global::Global;
use wgpu_core::id::SurfaceId;

use super::{State, Surface};
use crate::abi::*;
use crate::ffi::boundary::{self, call};
use crate::ffi::chain_walk::Chain;
use crate::ffi::handle::Handle;
use crate::objects::instance::Instance;

/// Whether this build can present to X11 and Wayland windows.
const UNIX_WINDOWS: bool = cfg!(all(unix, not(target_os = "android"), not(target_vendor = "apple")));

/// The window handles of a surface, kept to make its wgpu-core surface again
/// (see `Surface::replace_core`).
#[derive(Clone, Copy)]
pub(super) enum Source {
    /// A window of a window system.
    Window { display: rwh::RawDisplayHandle, window: rwh::RawWindowHandle },
    /// A `CAMetalLayer` (Apple systems only).
    #[cfg_attr(not(target_vendor = "apple"), allow(dead_code))]
    MetalLayer(NonNull<std::ffi::c_void>),
}

// SAFETY: the handles are identifiers of window-system objects the
// application owns; they are only passed to wgpu-core, whose surfaces made
// from them are themselves Send and Sync. Nothing here dereferences them.
unsafe impl Send for Source {}
// SAFETY: as above; the handles are never written.
unsafe impl Sync for Source {}

/// The refusal of a source this build cannot present to.
fn unsupported(what: &str, needs: &str) -> String {
    let here = if cfg!(windows) {
        "Windows HWNDs"
    } else if cfg!(target_vendor = "apple") {
        "Metal layers"
    } else {
        "X11 and Wayland windows"
    };
    format!("{what} needs {needs}; this build presents to {here} only")
}

/// A non-NULL pointer field, or a message naming it.
fn non_null(ptr: *mut std::ffi::c_void, field: &str) -> Result<NonNull<std::ffi::c_void>, String> {
    NonNull::new(ptr).ok_or_else(|| format!("{field} is NULL"))
}

impl Source {
    /// Reads the one source chained to a surface descriptor.
    ///
    /// # Safety
    /// The chain is valid, and each link is the struct its sType names.
    pub(super) unsafe fn read(next: *const WGPUChainedStruct) -> Result<Source, String> {
        // SAFETY: the chain is valid (caller).
        let chain = unsafe { Chain::walk(next, "WGPUSurfaceDescriptor") }.map_err(|r| r.0)?;
        // SAFETY: every link starts with a WGPUChainedStruct.
        let found: Vec<WGPUSType> = crate::ffi::chain_walk::accepted("WGPUSurfaceDescriptor")
            .iter()
            .copied()
            .filter(|s| unsafe { chain.get::<WGPUChainedStruct>(*s) }.is_some())
            .collect();
        let s_type = match found.as_slice() {
            [] => return Err("the descriptor chains no WGPUSurfaceSource* struct (exactly one is needed)".into()),
            [one] => *one,
            more => {
                return Err(format!("the descriptor chains {} surface sources; exactly one is allowed", more.len()))
            }
        };
        let missing = || "the chained source could not be read".to_string();
        match s_type {
            WGPUSType::SurfaceSourceXlibWindow => {
                // SAFETY: the sType names this struct.
                let s: &WGPUSurfaceSourceXlibWindow = unsafe { chain.get(s_type) }.ok_or_else(missing)?;
                if !UNIX_WINDOWS {
                    return Err(unsupported("WGPUSurfaceSourceXlibWindow", "X11"));
                }
                let display = non_null(s.display, "WGPUSurfaceSourceXlibWindow.display")?;
                if s.window == 0 {
                    return Err("WGPUSurfaceSourceXlibWindow.window is 0 (None)".into());
                }
                let window = c_ulong::try_from(s.window)
                    .map_err(|_| format!("WGPUSurfaceSourceXlibWindow.window {:#x} is out of range", s.window))?;
                Ok(Source::Window {
                    display: rwh::XlibDisplayHandle::new(Some(display), 0).into(),
                    window: rwh::XlibWindowHandle::new(window).into(),
                })
            }
            WGPUSType::SurfaceSourceXCBWindow => {
                // SAFETY: the sType names this struct.
                let s: &WGPUSurfaceSourceXCBWindow = unsafe { chain.get(s_type) }.ok_or_else(missing)?;
                if !UNIX_WINDOWS {
                    return Err(unsupported("WGPUSurfaceSourceXCBWindow", "X11"));
                }
                let connection = non_null(s.connection, "WGPUSurfaceSourceXCBWindow.connection")?;
                let window =
                    NonZeroU32::new(s.window).ok_or("WGPUSurfaceSourceXCBWindow.window is 0 (XCB_WINDOW_NONE)")?;
                Ok(Source::Window {
                    display: rwh::XcbDisplayHandle::new(Some(connection), 0).into(),
                    window: rwh::XcbWindowHandle::new(window).into(),
                })
            }
            WGPUSType::SurfaceSourceWaylandSurface => {
                // SAFETY: the sType names this struct.
                let s: &WGPUSurfaceSourceWaylandSurface = unsafe { chain.get(s_type) }.ok_or_else(missing)?;
                if !UNIX_WINDOWS {
                    return Err(unsupported("WGPUSurfaceSourceWaylandSurface", "Wayland"));
                }
                Ok(Source::Window {
                    display: rwh::WaylandDisplayHandle::new(non_null(
                        s.display,
                        "WGPUSurfaceSourceWaylandSurface.display",
                    )?)
                    .into(),
                    window: rwh::WaylandWindowHandle::new(non_null(
                        s.surface,
                        "WGPUSurfaceSourceWaylandSurface.surface",
                    )?)
                    .into(),
                })
            }
            WGPUSType::SurfaceSourceAndroidNativeWindow => {
                // SAFETY: the sType names this struct.
                let s: &WGPUSurfaceSourceAndroidNativeWindow = unsafe { chain.get(s_type) }.ok_or_else(missing)?;
                if !cfg!(target_os = "android") {
                    return Err(unsupported("WGPUSurfaceSourceAndroidNativeWindow", "Android"));
                }
                Ok(Source::Window {
                    display: rwh::AndroidDisplayHandle::new().into(),
                    window: rwh::AndroidNdkWindowHandle::new(non_null(
                        s.window,
                        "WGPUSurfaceSourceAndroidNativeWindow.window",
                    )?)
                    .into(),
                })
            }
            WGPUSType::SurfaceSourceWindowsHWND => {
                // SAFETY: the sType names this struct.
                let s: &WGPUSurfaceSourceWindowsHWND = unsafe { chain.get(s_type) }.ok_or_else(missing)?;
                if !cfg!(windows) {
                    return Err(unsupported("WGPUSurfaceSourceWindowsHWND", "Windows"));
                }
                let hwnd = NonZeroIsize::new(s.hwnd as isize).ok_or("WGPUSurfaceSourceWindowsHWND.hwnd is NULL")?;
                let mut window = rwh::Win32WindowHandle::new(hwnd);
                window.hinstance = NonZeroIsize::new(s.hinstance as isize);
                Ok(Source::Window { display: rwh::WindowsDisplayHandle::new().into(), window: window.into() })
            }
            WGPUSType::SurfaceSourceMetalLayer => {
                // SAFETY: the sType names this struct.
                let s: &WGPUSurfaceSourceMetalLayer = unsafe { chain.get(s_type) }.ok_or_else(missing)?;
                if !cfg!(target_vendor = "apple") {
                    return Err(unsupported("WGPUSurfaceSourceMetalLayer", "macOS or iOS (Metal)"));
                }
                Ok(Source::MetalLayer(non_null(s.layer, "WGPUSurfaceSourceMetalLayer.layer")?))
            }
            _ => Err(unsupported(
                "WGPUSurfaceSourceSwapChainPanel",
                "the DirectX 12 backend, which is not in this build",
            )),
        }
    }

    /// Makes a wgpu-core surface for these handles.
    pub(super) fn create_core(&self, global: &Global) -> Result<SurfaceId, String> {
        // wgpu-hal panics when the driver fails to make the surface; that
        // becomes an error here rather than a failed call.
        let made = catch_unwind(AssertUnwindSafe(|| {
            match *self {
                // SAFETY: the application promises (webgpu.h) that the
                // window handles are valid and outlive the surface.
                Source::Window { display, window } => unsafe {
                    global.instance_create_surface(Some(display), window, None)
                },
                // SAFETY: the application promises that the layer is a live
                // `CAMetalLayer` that outlives the surface.
                #[cfg(target_vendor = "apple")]
                Source::MetalLayer(layer) => unsafe { global.instance_create_surface_metal(layer.as_ptr(), None) },
                #[cfg(not(target_vendor = "apple"))]
                Source::MetalLayer(_) => {
                    Err(wgpu_core::instance::CreateSurfaceError::BackendNotEnabled(wgpu_types::Backend::Metal))
                }
            }
        }));
        match made {
            Ok(Ok(id)) => Ok(id),
            Ok(Err(err)) => Err(crate::conv::describe(&err)),
            Err(_) => Err("the driver failed to create a surface for this window".into()),
        }
    }
}

/// Creates a surface for the window that the descriptor's one chained
/// `WGPUSurfaceSource*` names. A descriptor without exactly one known
/// source, or whose source is invalid or not presentable by this build,
/// gives an error surface (logged), never NULL. NULL is returned (logged)
/// only for a NULL or invalid instance or descriptor.
///
/// # Safety
/// `instance` is a live instance; `descriptor` is NULL or valid, its chain
/// valid, and the window handles it names valid while the surface lives.
#[no_mangle]
pub unsafe extern "C" fn wgpuInstanceCreateSurface(
    instance: WGPUInstance,
    descriptor: *const WGPUSurfaceDescriptor,
) -> WGPUSurface {
    call("wgpuInstanceCreateSurface", std::ptr::null_mut(), || {
        // SAFETY: the C caller passes a live handle and NULL or a valid
        // descriptor with a valid label.
        let (instance, desc, label) = unsafe {
            let instance = boundary::arg::<Instance>(instance, "instance")?.arc();
            let desc = boundary::ptr_arg(descriptor, "descriptor")?;
            (instance, desc, boundary::label_arg(desc.label, "label")?)
        };
        // SAFETY: the chain is valid (caller).
        let made = unsafe { Source::read(desc.nextInChain) }
            .and_then(|source| source.create_core(&instance.global).map(|id| (source, id)));
        let (source, core) = match made {
            Ok((source, id)) => (Some(source), Some(id)),
            Err(why) => {
                log::error!(target: "wgpu_shim", "wgpuInstanceCreateSurface {label:?}: {why}; the surface is an error surface");
                (None, None)
            }
        };
        let surface = Surface {
            header: Default::default(),
            instance,
            label: Mutex::new(label),
            source,
            state: Mutex::new(State { core, ..State::default() }),
        };
        Ok(Handle::into_raw(Arc::new(surface)))
    })
}
