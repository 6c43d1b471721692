//! The machinery that moves wgpu-core devices forward, below the C objects
//! and above the boundary: it knows fences, threads and drivers, never an
//! object (the queue's work-done batches and the device's direct waits,
//! which need the device itself, live with those objects).
//!
//! - [`progress`]: the per-device progress thread.
//! - [`fence`]: the device fence on each backend, the one interface
//!   between the engine and wgpu-hal.
//! - [`spin`]: the bounded fence check before a driver wait (the wait
//!   ladder's first rung) and the early wake of long waits.
//! - [`signal`]: host signals, which wake a thread asleep in the driver
//!   beside the fence or napping on a timer.
//! - [`watch`]: the fence watcher, which sleeps on a device's fence for
//!   threads that nap through the early wake.
//! - [`wait_trace`]: per-wait records of the long waits
//!   (`WGPU_SHIM_WAIT_TRACE`), for diagnosing late wake-ups on a GPU.
//! - [`tracking`]: the ever-mapped buffers `wgpuDeviceDestroy` unmaps.
//! - [`drivers`]: keeps drivers loaded until the process exits.
//! - [`exit`]: the exit barrier that keeps the library's threads out of a
//!   driver being torn down at exit.
//! - [`map_view`]: the views of mapped memory the application gets,
//!   which never go stale.
//! - `vk_memory` (Linux): host memory of the library's own behind
//!   host-visible Vulkan memory, so that views can be zero-copy.
//! - [`fault`]: test-only fault injection (feature `fault-injection`).

pub(crate) mod drivers;
pub(crate) mod exit;
pub(crate) mod fault;
pub(crate) mod fence;
#[cfg(all(unix, not(target_vendor = "apple")))]
pub(crate) mod gl_fence;
pub(crate) mod map_view;
pub(crate) mod progress;
pub(crate) mod signal;
pub(crate) mod spin;
pub(crate) mod tracking;
#[cfg(target_os = "linux")]
pub(crate) mod vk_memory;
pub(crate) mod wait_trace;
pub(crate) mod watch;
