//! Keeps the graphics drivers that an instance loaded in memory until the
//! process exits.
//!
//! The Vulkan loader unloads its drivers (`dlclose`) when the last Vulkan
//! instance is destroyed. Some drivers do not survive that: Mesa's lavapipe
//! leaves an exit handler behind that points into its unloaded code, and the
//! process then crashes in `exit()` after the program is done. So, around
//! each wgpu-core instance creation, every shared object that the creation
//! loaded is opened once more with `RTLD_NODELETE`, which makes its
//! unloading a no-op. Drivers loaded again by a later instance just gain a
//! reference.
//!
//! Pinning does not keep a driver's state alive through `exit()`: a driver
//! written in C++ destroys its globals in static destructors. The exit
//! barrier (`exit.rs`) keeps the library's own threads out of it by then.

#[cfg(target_os = "linux")]
mod imp {
    use std::collections::HashSet;
    use std::ffi::{c_int, c_void, CStr, CString};

    /// Paths of the shared objects mapped in the process now.
    pub(crate) fn loaded() -> HashSet<CString> {
        unsafe extern "C" fn visit(info: *mut libc::dl_phdr_info, _size: usize, data: *mut c_void) -> c_int {
            // Called by libc: nothing may unwind out of here.
            let _ = std::panic::catch_unwind(|| {
                // SAFETY: glibc passes a valid entry and our `data` pointer.
                let (info, out) = unsafe { (&*info, &mut *(data as *mut HashSet<CString>)) };
                if !info.dlpi_name.is_null() {
                    // SAFETY: `dlpi_name` is a NUL-terminated path (maybe empty).
                    let name = unsafe { CStr::from_ptr(info.dlpi_name) };
                    if !name.to_bytes().is_empty() {
                        out.insert(name.to_owned());
                    }
                }
            });
            0
        }
        let mut set = HashSet::new();
        // SAFETY: `visit` only reads the entries and writes into `set`,
        // which outlives the call.
        unsafe { libc::dl_iterate_phdr(Some(visit), (&mut set as *mut HashSet<CString>).cast()) };
        set
    }

    /// Pins every object loaded now that was not in `before`; whether
    /// there was any.
    pub(crate) fn pin_new(before: &HashSet<CString>) -> bool {
        let now = loaded();
        let mut any = false;
        for path in now.difference(before) {
            any = true;
            // SAFETY: RTLD_NOLOAD only takes a reference to an object that is
            // already loaded; RTLD_NODELETE keeps it loaded for good. The
            // handle is deliberately never closed.
            let handle =
                unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_NOLOAD | libc::RTLD_NODELETE) };
            if handle.is_null() {
                log::debug!(target: "wgpu_shim", "could not pin {path:?}");
            }
        }
        any
    }
}

/// Runs `create` (an instance, adapter or device creation) and keeps
/// whatever it loaded loaded. When it loaded something, the exit barrier is
/// registered again, so that it runs before the new objects' destructors
/// (`exit.rs`).
pub(crate) fn pinning<T>(create: impl FnOnce() -> T) -> T {
    #[cfg(target_os = "linux")]
    {
        let before = imp::loaded();
        let out = create();
        if imp::pin_new(&before) {
            crate::engine::exit::arm();
        }
        out
    }
    // Elsewhere nothing is pinned: on Windows the process's exit ends every
    // other thread before any DLL is unloaded, and Metal is part of the
    // system. The barrier is registered once (`exit.rs`).
    #[cfg(not(target_os = "linux"))]
    {
        let out = create();
        crate::engine::exit::arm_once();
        out
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    #[test]
    fn lists_loaded_objects() {
        let objects = super::imp::loaded();
        assert!(objects.iter().any(|p| p.to_string_lossy().contains("libc.so")), "{objects:?}");
    }
}
