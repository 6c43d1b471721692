//! wgpu-native compatibility: when it is on, and every rule it changes.
//!
//! Programs and bindings written for wgpu-native v29 rely on behaviour the
//! standard forbids or leaves open (callback mode 0, `GetMappedRange` on a
//! read mapping, wgpu-native's error text, ...). wgpu-shim gives them that
//! behaviour, and keeps the standard's strict rules for a program written
//! to `webgpu.h` alone. The rules themselves are applied where they belong
//! (each call site names its rule with a [`Rule`]); this module decides
//! whether they are on, and logs once which rule a program relied on.
//!
//! Compatibility is on for the whole process once any of these holds
//! (`docs/DECISIONS.md`, "Selecting wgpu-native compatibility"):
//!
//! 1. `WGPU_SHIM_COMPAT=wgpu-native` is set (`WGPU_SHIM_COMPAT=standard`
//!    turns every other trigger off);
//! 2. the library was loaded under wgpu-native's file name
//!    (`libwgpu_native*.so`, as when it stands in for wgpu-native);
//! 3. a `wgpu.h` function was called (`wgpuSetLogCallback`,
//!    `wgpuDevicePoll`, ...), or a `wgpu.h` struct was chained into a
//!    standard one (`WGPUInstanceExtras`, ...): only code written for
//!    wgpu-native does either. wgpu-py sets its log callback when it is
//!    imported, so it is in compatibility mode before its first request.
//!
//! Once on, it stays on: every rule is local to one call, so turning it on
//! in the middle of a program changes no object made before.

mod error_text;
mod shader;

pub(crate) use error_text::{native_error_text, native_message_text, CallContext};
pub(crate) use shader::{naga29_wgsl, rewrite_io_bindings};

use std::sync::atomic::{AtomicU8, Ordering};

/// Not decided yet: the environment and the file name were not read.
const UNDECIDED: u8 = 0;
/// The standard's rules; a `wgpu.h` call or struct turns compatibility on.
const STANDARD: u8 = 1;
/// wgpu-native's rules.
const NATIVE: u8 = 2;
/// `WGPU_SHIM_COMPAT=standard`: the standard's rules, whatever happens.
const FORCED_STANDARD: u8 = 3;

/// Whether the rules are on. The unit tests run on many threads of one
/// process, where one test reading a wgpu.h struct would switch the rules
/// of every other test: they keep the standard's (the `compat.*` C tests
/// check the switch itself).
static STATE: AtomicU8 = AtomicU8::new(if cfg!(test) { FORCED_STANDARD } else { UNDECIDED });

/// One place where wgpu-native's behaviour differs from the standard's. The
/// name is what the log says when a program first relies on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    /// Callback mode 0 (what the `*_CALLBACK_INFO_INIT` macros leave):
    /// CPU-timeline operations call back inside the call, queue operations
    /// inside `wgpuDevicePoll` / `wgpuInstanceProcessEvents`.
    CallbackModeZero,
    /// `wgpuBufferGetMappedRange` on a buffer mapped for reading.
    MutableRangeOfReadMapping,
    /// Overlapping ranges of one mapping.
    OverlappingMappedRanges,
    /// SPIR-V shader modules without the `ShaderSourceSPIRV` instance
    /// feature.
    SpirvWithoutInstanceFeature,
    /// More than one device from one adapter.
    SecondDeviceFromAdapter,
    /// Integer inter-stage variables without `@interpolate(flat)` get it
    /// (naga 29's default: `shader.rs`).
    IntegerIoDefaultsToFlat,
    /// `binding_array` types without `enable wgpu_binding_array;` (naga 29
    /// needed none: `shader.rs`).
    BindingArraysWithoutEnable,
    /// Required limits are taken as given, worse than the defaults too (the
    /// standard raises those to the defaults).
    RequiredLimitsAsGiven,
    /// A render bundle encoder with no color format and no depth format.
    RenderBundleWithoutAttachments,
    /// The `nextInChain` of an output struct (`WGPUSurfaceTexture`,
    /// `WGPUAdapterInfo`, ...) is not read: wgpu-native never reads it.
    UnreadOutputChain,
    /// Releasing a device's last reference does not call its lost callback.
    SilentDeviceRelease,
}

impl Rule {
    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// Rules already logged (one `info` line each per process).
static USED: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Whether wgpu-native's rules are on.
#[inline]
pub(crate) fn active() -> bool {
    match STATE.load(Ordering::Acquire) {
        UNDECIDED => decide() == NATIVE,
        state => state == NATIVE,
    }
}

/// Whether `rule` applies now: compatibility is on. The first time a rule
/// applies, an `info` message names it, so a user can tell which of the
/// standard's rules their program does not follow.
#[inline]
pub(crate) fn allows(rule: Rule) -> bool {
    if !active() {
        return false;
    }
    let bit = rule.bit();
    if USED.load(Ordering::Relaxed) & bit == 0 && USED.fetch_or(bit, Ordering::Relaxed) & bit == 0 {
        log::info!(target: "wgpu_shim", "wgpu-native compatibility: {rule:?} applied");
    }
    true
}

/// Turns compatibility on because a `wgpu.h` function or struct was used
/// (`what` names it), unless `WGPU_SHIM_COMPAT=standard` holds.
#[inline]
pub(crate) fn native_api_used(what: &str) {
    if STATE.load(Ordering::Acquire) == NATIVE {
        return;
    }
    if decide() == STANDARD && STATE.compare_exchange(STANDARD, NATIVE, Ordering::AcqRel, Ordering::Acquire).is_ok() {
        log::info!(target: "wgpu_shim", "wgpu-native compatibility on: {what} is wgpu.h API");
    }
}

/// `WGPU_SHIM_COMPAT`'s value when it is set to neither known value (it is
/// then ignored), for the log sink's warning at start.
pub(crate) fn unknown_setting() -> Option<String> {
    std::env::var("WGPU_SHIM_COMPAT").ok().filter(|v| !matches!(v.as_str(), "" | "wgpu-native" | "standard"))
}

/// Reads the environment and the library's file name once.
#[cold]
fn decide() -> u8 {
    let current = STATE.load(Ordering::Acquire);
    if current != UNDECIDED {
        return current;
    }
    let decided = match std::env::var("WGPU_SHIM_COMPAT").as_deref() {
        Ok("wgpu-native") => NATIVE,
        Ok("standard") => FORCED_STANDARD,
        Ok("") | Err(_) => {
            if loaded_as_wgpu_native() {
                NATIVE
            } else {
                STANDARD
            }
        }
        // An unknown value is ignored; the log sink warns about it when it
        // starts (`unknown_setting`).
        Ok(_) => {
            if loaded_as_wgpu_native() {
                NATIVE
            } else {
                STANDARD
            }
        }
    };
    match STATE.compare_exchange(UNDECIDED, decided, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => decided,
        Err(raced) => raced,
    }
}

/// Whether the file this code was loaded from is named like wgpu-native's
/// library (`libwgpu_native.so`, `libwgpu_native-release.so`,
/// `wgpu_native.dll`, `wgpu_native-release.dll`, ...).
fn loaded_as_wgpu_native() -> bool {
    own_file_name().is_some_and(|path| is_native_file_name(&path))
}

/// The path of the file this code was loaded from (`dladdr`).
#[cfg(unix)]
fn own_file_name() -> Option<Vec<u8>> {
    // SAFETY: an all-zero `Dl_info` is valid (null pointers), and dladdr
    // only writes it.
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    let addr = loaded_as_wgpu_native as fn() -> bool as *const libc::c_void;
    // SAFETY: `addr` is an address inside this library, `info` is writable.
    if unsafe { libc::dladdr(addr, &mut info) } == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: dladdr succeeded, so `dli_fname` is a NUL-terminated path that
    // lives as long as the library stays loaded.
    Some(unsafe { std::ffi::CStr::from_ptr(info.dli_fname) }.to_bytes().to_vec())
}

/// The path of the DLL this code was loaded from (`GetModuleFileNameW` of
/// the module that holds this function).
#[cfg(windows)]
fn own_file_name() -> Option<Vec<u8>> {
    use std::ffi::c_void;
    const FROM_ADDRESS: u32 = 0x4;
    const UNCHANGED_REFCOUNT: u32 = 0x2;
    #[link(name = "kernel32")]
    extern "system" {
        fn GetModuleHandleExW(flags: u32, name: *const u16, module: *mut *mut c_void) -> i32;
        fn GetModuleFileNameW(module: *mut c_void, name: *mut u16, size: u32) -> u32;
    }
    let mut module = std::ptr::null_mut();
    let addr = loaded_as_wgpu_native as fn() -> bool as *const u16;
    // SAFETY: with FROM_ADDRESS, `name` is an address inside this DLL;
    // `module` is writable; the reference count is left alone.
    if unsafe { GetModuleHandleExW(FROM_ADDRESS | UNCHANGED_REFCOUNT, addr, &mut module) } == 0 {
        return None;
    }
    let mut buf = vec![0u16; 1024];
    // SAFETY: `buf` holds `len` writable UTF-16 units.
    let len = unsafe { GetModuleFileNameW(module, buf.as_mut_ptr(), buf.len() as u32) } as usize;
    if len == 0 || len >= buf.len() {
        return None;
    }
    Some(String::from_utf16_lossy(&buf[..len]).into_bytes())
}

/// The rule behind [`loaded_as_wgpu_native`], on a path: the file's own
/// name (after the last `/`, or `\\` on Windows) starts with
/// `libwgpu_native` or `wgpu_native`, in any case on Windows, whose file
/// names ignore it.
fn is_native_file_name(path: &[u8]) -> bool {
    let base = path.rsplit(|&b| b == b'/' || (cfg!(windows) && b == b'\\')).next().unwrap_or(path);
    let base = if cfg!(windows) { base.to_ascii_lowercase() } else { base.to_vec() };
    base.starts_with(b"libwgpu_native") || base.starts_with(b"wgpu_native")
}

#[cfg(test)]
mod tests {
    use super::is_native_file_name;

    #[test]
    fn wgpu_native_file_names() {
        assert!(is_native_file_name(b"/usr/lib/libwgpu_native.so"));
        assert!(is_native_file_name(b"libwgpu_native-release.so"));
        assert!(is_native_file_name(b"/x/wgpu_native.dll"));
        assert!(!is_native_file_name(b"/usr/lib/libwgpu_shim.so"));
        assert!(!is_native_file_name(b"/opt/libwgpu_native/libwgpu_shim.so"), "only the file's own name counts");
        assert!(!is_native_file_name(b"/usr/bin/app"));
    }
}
