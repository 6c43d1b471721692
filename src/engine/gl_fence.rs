//! The device fence of a GL device: EGL fence syncs that the library
//! inserts itself, waited on with no GL context and no wgpu-hal lock held.
//!
//! wgpu-hal's GL fence is a list of GL sync objects. Reading or waiting on
//! them needs the device's one GL context current, which wgpu-hal guards
//! with a lock (`AdapterContext::lock`): its own `wait` holds that lock
//! while it sleeps, so every submit, write and poll of the device would
//! stall behind a sleeping progress thread (and wgpu-hal panics after six
//! seconds without the lock). So the engine does not use it. Instead:
//!
//! - `wgpuQueueSubmit` only records its submission index
//!   ([`Submissions::note`], an atomic store): submitting costs nothing more
//!   than on Vulkan.
//! - When the progress thread needs to know or wait for progress beyond what
//!   its syncs cover, it takes the context lock once, inserts an EGL fence
//!   sync (`eglCreateSyncKHR`, `EGL_KHR_fence_sync`) behind all the work
//!   submitted so far, flushes, and releases the lock: one sync covers every
//!   submission up to the newest index read before it was made.
//! - EGL syncs belong to the display, not a context: the thread reads them
//!   (`eglGetSyncAttribKHR`) and sleeps on them (`eglClientWaitSyncKHR`) with
//!   no context current, so a long wait costs no CPU and no lock.
//!
//! When a sync is signalled, every GL sync wgpu-hal made for those
//! submissions is too (they come earlier in the same command stream), so
//! wgpu-core's poll, which reads wgpu-hal's fence, completes their work.

use std::collections::VecDeque;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use wgpu_core::global::Global;
use wgpu_core::id::DeviceId;

use super::fence::{DeviceFence, Submissions};

const EGL_SYNC_FENCE_KHR: u32 = 0x30F9;
const EGL_SYNC_STATUS_KHR: i32 = 0x30F1;
const EGL_SIGNALED_KHR: i32 = 0x30F2;
const EGL_TIMEOUT_EXPIRED_KHR: i32 = 0x30F5;
const EGL_CONDITION_SATISFIED_KHR: i32 = 0x30F6;
const EGL_NONE: i32 = 0x3038;
const EGL_EXTENSIONS: i32 = 0x3055;

type CreateSync = unsafe extern "system" fn(*mut c_void, u32, *const i32) -> *mut c_void;
type DestroySync = unsafe extern "system" fn(*mut c_void, *mut c_void) -> u32;
type ClientWaitSync = unsafe extern "system" fn(*mut c_void, *mut c_void, i32, u64) -> i32;
type GetSyncAttrib = unsafe extern "system" fn(*mut c_void, *mut c_void, i32, *mut i32) -> u32;
type Flush = unsafe extern "system" fn();

/// The EGL and GL entry points the fence calls.
#[derive(Clone, Copy)]
struct Egl {
    display: *mut c_void,
    create: CreateSync,
    destroy: DestroySync,
    client_wait: ClientWaitSync,
    get_attrib: GetSyncAttrib,
    flush: Flush,
}

// SAFETY: function pointers and the display handle, which EGL lets any
// thread use; libEGL is never unloaded ([`pin_library`]).
unsafe impl Send for Egl {}
// SAFETY: as above.
unsafe impl Sync for Egl {}

/// One EGL fence sync; destroyed when the last holder (the list, a waiter)
/// lets it go.
struct EglSync {
    egl: Egl,
    raw: *mut c_void,
}

// SAFETY: an EGL sync may be read, waited on and destroyed from any thread.
unsafe impl Send for EglSync {}
// SAFETY: as above.
unsafe impl Sync for EglSync {}

impl Drop for EglSync {
    fn drop(&mut self) {
        if crate::ffi::exit::detached() {
            return;
        }
        // SAFETY: a sync of this display that no one else holds.
        unsafe { (self.egl.destroy)(self.egl.display, self.raw) };
    }
}

impl EglSync {
    fn signalled(&self) -> bool {
        let mut status = 0;
        // SAFETY: a live sync of this display; `status` is writable.
        let ok = unsafe { (self.egl.get_attrib)(self.egl.display, self.raw, EGL_SYNC_STATUS_KHR, &mut status) };
        ok != 0 && status == EGL_SIGNALED_KHR
    }
}

/// A GL device's fence (see the module documentation).
pub(crate) struct GlFence {
    device: Box<dyn std::ops::Deref<Target = wgpu_hal::gles::Device> + Send + Sync>,
    egl: Egl,
    submissions: Arc<Submissions>,
    /// The newest submission index every work of which is done.
    completed: AtomicU64,
    /// The syncs not yet seen signalled, each with the newest submission
    /// index it covers, oldest first.
    syncs: Mutex<VecDeque<(u64, Arc<EglSync>)>>,
}

impl GlFence {
    /// The fence of `device_id` when it is a GL device on EGL with
    /// `EGL_KHR_fence_sync`.
    pub(crate) fn new(global: &Global, device_id: DeviceId, submissions: Arc<Submissions>) -> Option<GlFence> {
        // SAFETY: the device is not destroyed through this; the guard keeps
        // the wgpu-core device alive while held (dropped before the ids go,
        // as `HalFence`'s are).
        let device = unsafe { global.device_as_hal::<wgpu_hal::api::Gles>(device_id) }?;
        let egl = match load_egl(device.context()) {
            Ok(egl) => egl,
            Err(why) => {
                log::info!(target: "wgpu_shim", "GL device: {why}; the progress thread polls instead of sleeping on a fence");
                return None;
            }
        };
        Some(GlFence {
            device: Box::new(device),
            egl,
            submissions,
            completed: AtomicU64::new(0),
            syncs: Mutex::new(VecDeque::new()),
        })
    }

    /// Pops the signalled syncs off the front, raising `completed`.
    fn reap(&self) {
        let mut syncs = self.syncs.lock();
        while let Some((value, sync)) = syncs.front() {
            if !sync.signalled() {
                break;
            }
            self.completed.fetch_max(*value, Ordering::AcqRel);
            syncs.pop_front();
        }
    }

    /// The sync covering `target`, inserting one behind all work submitted
    /// so far when none does yet. `None` when `target` is not submitted yet
    /// or the sync cannot be made.
    fn sync_for(&self, target: u64) -> Option<(u64, Arc<EglSync>)> {
        if let Some((v, s)) = self.syncs.lock().iter().find(|(v, _)| *v >= target) {
            return Some((*v, s.clone()));
        }
        // Read before the sync is made: it covers every index up to this.
        let newest = self.submissions.newest();
        if newest < target {
            return None;
        }
        let raw = {
            let _gl = self.device.context().lock();
            // SAFETY: the device's context is current on this thread (the
            // lock makes it so); the attribute list is terminated.
            let raw = unsafe { (self.egl.create)(self.egl.display, EGL_SYNC_FENCE_KHR, [EGL_NONE].as_ptr()) };
            // SAFETY: as above: a GL call with the context current.
            unsafe { (self.egl.flush)() };
            raw
        };
        if raw.is_null() {
            log::warn!(target: "wgpu_shim", "eglCreateSyncKHR failed; the progress thread polls this time");
            return None;
        }
        let sync = Arc::new(EglSync { egl: self.egl, raw });
        let mut syncs = self.syncs.lock();
        // Two calls may race here (value and wait run on one thread, but
        // keep the list ordered regardless).
        let at = syncs.iter().position(|(v, _)| *v > newest).unwrap_or(syncs.len());
        syncs.insert(at, (newest, sync.clone()));
        Some((newest, sync))
    }
}

impl DeviceFence for GlFence {
    fn value(&self) -> Result<u64, String> {
        if crate::ffi::exit::detached() {
            return Err("the library is detached from the driver".into());
        }
        self.reap();
        let completed = self.completed.load(Ordering::Acquire);
        let newest = self.submissions.newest();
        if completed < newest {
            // A sync for the newest work, so that reading again sees it end.
            let _ = self.sync_for(newest);
            self.reap();
        }
        Ok(self.completed.load(Ordering::Acquire))
    }

    fn wait_ns(&self, target: u64, timeout_ns: u64) -> bool {
        let deadline = Instant::now() + Duration::from_nanos(timeout_ns);
        if self.completed.load(Ordering::Acquire) >= target || crate::ffi::exit::detached() {
            return true;
        }
        let (value, sync) = loop {
            if let Some(found) = self.sync_for(target) {
                break found;
            }
            // Not submitted yet: sleep until it is (or the time is up).
            if !self.submissions.wait_beyond(target - 1, deadline) {
                return true;
            }
        };
        let left = super::spin::ns_until(deadline);
        // SAFETY: a live sync of this display (held by `sync`); no context
        // is needed, so no flag.
        match unsafe { (self.egl.client_wait)(self.egl.display, sync.raw, 0, left) } {
            EGL_CONDITION_SATISFIED_KHR => {
                self.completed.fetch_max(value, Ordering::AcqRel);
                true
            }
            EGL_TIMEOUT_EXPIRED_KHR => true,
            other => {
                log::warn!(target: "wgpu_shim", "eglClientWaitSyncKHR failed ({other:#x}); polling instead");
                false
            }
        }
    }
}

/// The entry points of the fence, when the context's display has
/// `EGL_KHR_fence_sync`.
fn load_egl(context: &wgpu_hal::gles::AdapterContext) -> Result<Egl, String> {
    let (Some(egl), Some(display)) = (context.egl_instance(), context.raw_display()) else {
        return Err("the context is not an EGL one".into());
    };
    let extensions = egl.query_string(Some(*display), EGL_EXTENSIONS).map_err(|e| format!("eglQueryString: {e}"))?;
    if !extensions.to_string_lossy().split_whitespace().any(|e| e == "EGL_KHR_fence_sync") {
        return Err("the EGL display lacks EGL_KHR_fence_sync".into());
    }
    let find = |name: &str| {
        let f = egl.get_proc_address(name).ok_or_else(|| format!("EGL has no {name}"))?;
        pin_library(f as *const c_void);
        Ok::<_, String>(f)
    };
    // SAFETY: each pointer is the entry point of that name, whose C
    // signature the type spells (EGL_KHR_fence_sync; glFlush).
    unsafe {
        Ok(Egl {
            display: display.as_ptr(),
            create: std::mem::transmute::<extern "system" fn(), CreateSync>(find("eglCreateSyncKHR")?),
            destroy: std::mem::transmute::<extern "system" fn(), DestroySync>(find("eglDestroySyncKHR")?),
            client_wait: std::mem::transmute::<extern "system" fn(), ClientWaitSync>(find("eglClientWaitSyncKHR")?),
            get_attrib: std::mem::transmute::<extern "system" fn(), GetSyncAttrib>(find("eglGetSyncAttribKHR")?),
            flush: std::mem::transmute::<extern "system" fn(), Flush>(find("glFlush")?),
        })
    }
}

/// Keeps the library that holds `symbol` (libEGL) loaded for the rest of
/// the process: wgpu-hal unloads it with its instance, and a sync may
/// outlive that by a little (it is destroyed with the device's last
/// reference).
fn pin_library(symbol: *const c_void) {
    let mut info: libc::Dl_info = libc::Dl_info {
        dli_fname: std::ptr::null(),
        dli_fbase: std::ptr::null_mut(),
        dli_sname: std::ptr::null(),
        dli_saddr: std::ptr::null_mut(),
    };
    // SAFETY: `info` is writable; `symbol` is only looked up.
    if unsafe { libc::dladdr(symbol, &mut info) } == 0 || info.dli_fname.is_null() {
        return;
    }
    // SAFETY: a path dladdr returned; NOLOAD only takes another reference
    // to the already loaded library, which NODELETE then keeps.
    unsafe { libc::dlopen(info.dli_fname, libc::RTLD_NOW | libc::RTLD_NOLOAD | libc::RTLD_NODELETE) };
}
