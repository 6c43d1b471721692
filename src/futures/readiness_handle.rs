//! The readiness handle: an OS object that is readable (signalled) exactly
//! while the registry holds a ready, undelivered callback that
//! `wgpuInstanceProcessEvents` would run.
//!
//! Linux: an eventfd. Other Unix systems: a non-blocking pipe. Windows: a
//! manual-reset event. It is set and cleared under the registry lock, in the
//! same step that changes the set of ready events, so a completion racing
//! with a drain always leaves it set, and an empty set always leaves it clear.

use std::io;

/// The OS object and whether it is currently set.
pub(crate) struct Readiness {
    os: imp::Handle,
    set: bool,
}

impl Readiness {
    pub(crate) fn new() -> io::Result<Readiness> {
        Ok(Readiness { os: imp::Handle::new()?, set: false })
    }

    /// Makes the handle readable (idempotent).
    pub(crate) fn set(&mut self) {
        if !self.set {
            self.os.set();
            self.set = true;
        }
    }

    /// Makes the handle unreadable (idempotent).
    pub(crate) fn clear(&mut self) {
        if self.set {
            self.os.clear();
            self.set = false;
        }
    }

    /// The descriptor to poll for readability.
    #[cfg(unix)]
    pub(crate) fn fd(&self) -> std::os::fd::RawFd {
        self.os.fd()
    }

    /// The event handle to wait on.
    #[cfg(windows)]
    pub(crate) fn event(&self) -> *mut std::ffi::c_void {
        self.os.event()
    }
}

#[cfg(target_os = "linux")]
mod imp {
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

    pub(super) struct Handle(OwnedFd);

    impl Handle {
        pub(super) fn new() -> io::Result<Handle> {
            // SAFETY: plain system call; the descriptor is owned below.
            let fd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) };
            if fd < 0 {
                return Err(io::Error::last_os_error());
            }
            // SAFETY: `fd` is a fresh descriptor nobody else owns.
            Ok(Handle(unsafe { OwnedFd::from_raw_fd(fd) }))
        }

        pub(super) fn set(&self) {
            let one: u64 = 1;
            // SAFETY: writes 8 bytes from a live u64 to our eventfd.
            let n = unsafe { libc::write(self.0.as_raw_fd(), (&one as *const u64).cast(), 8) };
            if n != 8 {
                log::error!(target: "wgpu_shim", "readiness eventfd: write failed: {}", io::Error::last_os_error());
            }
        }

        pub(super) fn clear(&self) {
            let mut value: u64 = 0;
            // SAFETY: reads 8 bytes into a live u64 (non-blocking: EAGAIN
            // when already clear).
            unsafe { libc::read(self.0.as_raw_fd(), (&mut value as *mut u64).cast(), 8) };
        }

        pub(super) fn fd(&self) -> RawFd {
            self.0.as_raw_fd()
        }
    }
}

#[cfg(all(unix, not(target_os = "linux")))]
mod imp {
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

    /// (read end, write end) of a non-blocking pipe.
    pub(super) struct Handle(OwnedFd, OwnedFd);

    impl Handle {
        pub(super) fn new() -> io::Result<Handle> {
            let mut fds = [0; 2];
            // SAFETY: `fds` has room for the two descriptors.
            if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
                return Err(io::Error::last_os_error());
            }
            for fd in fds {
                // SAFETY: fcntl on descriptors we just made.
                unsafe {
                    libc::fcntl(fd, libc::F_SETFL, libc::fcntl(fd, libc::F_GETFL) | libc::O_NONBLOCK);
                    libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
                }
            }
            // SAFETY: fresh descriptors nobody else owns.
            Ok(unsafe { Handle(OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
        }

        pub(super) fn set(&self) {
            let byte = 1u8;
            // SAFETY: writes one byte from a live local.
            unsafe { libc::write(self.1.as_raw_fd(), (&byte as *const u8).cast(), 1) };
        }

        pub(super) fn clear(&self) {
            let mut buf = [0u8; 64];
            // SAFETY: reads into a live buffer until the pipe is empty.
            while unsafe { libc::read(self.0.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) } > 0 {}
        }

        pub(super) fn fd(&self) -> RawFd {
            self.0.as_raw_fd()
        }
    }
}

#[cfg(windows)]
mod imp {
    use std::ffi::c_void;
    use std::io;

    #[link(name = "kernel32")]
    extern "system" {
        fn CreateEventW(attrs: *mut c_void, manual_reset: i32, initial: i32, name: *const u16) -> *mut c_void;
        fn SetEvent(event: *mut c_void) -> i32;
        fn ResetEvent(event: *mut c_void) -> i32;
        fn CloseHandle(handle: *mut c_void) -> i32;
    }

    /// A manual-reset event.
    pub(super) struct Handle(*mut c_void);

    // SAFETY: event handles may be used from any thread.
    unsafe impl Send for Handle {}

    impl Handle {
        pub(super) fn new() -> io::Result<Handle> {
            // SAFETY: an unnamed manual-reset event, initially clear.
            let event = unsafe { CreateEventW(std::ptr::null_mut(), 1, 0, std::ptr::null()) };
            if event.is_null() {
                return Err(io::Error::last_os_error());
            }
            Ok(Handle(event))
        }

        pub(super) fn set(&self) {
            // SAFETY: our live event handle.
            unsafe { SetEvent(self.0) };
        }

        pub(super) fn clear(&self) {
            // SAFETY: our live event handle.
            unsafe { ResetEvent(self.0) };
        }

        pub(super) fn event(&self) -> *mut c_void {
            self.0
        }
    }

    impl Drop for Handle {
        fn drop(&mut self) {
            // SAFETY: closes the handle we own, once.
            unsafe { CloseHandle(self.0) };
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::Readiness;

    fn readable(fd: std::os::fd::RawFd) -> bool {
        let mut p = libc::pollfd { fd, events: libc::POLLIN, revents: 0 };
        // SAFETY: polls one live descriptor without waiting.
        unsafe { libc::poll(&mut p, 1, 0) == 1 }
    }

    #[test]
    fn set_and_clear() {
        let mut r = Readiness::new().unwrap();
        assert!(!readable(r.fd()));
        r.set();
        r.set();
        assert!(readable(r.fd()));
        r.clear();
        assert!(!readable(r.fd()));
        r.clear();
        assert!(!readable(r.fd()));
    }
}
