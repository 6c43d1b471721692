//! The per-device engine that moves wgpu-core forward and completes queue
//! work, below the C objects and above `futures`.
//!
//! - [`progress`]: the per-device progress thread.
//! - [`work_done`]: work-done futures of a queue, completed in batches.
//! - [`direct_wait`]: `wgpuInstanceWaitAny` sleeping on the device fence.
//! - [`spin`]: the bounded fence check before a driver wait (the wait
//!   ladder's first rung).
//! - [`tracking`]: the ever-mapped buffers `wgpuDeviceDestroy` unmaps.
//! - [`drivers`]: keeps drivers loaded until the process exits.
//! - [`exit`]: the exit barrier that keeps the library's threads out of a
//!   driver being torn down at exit.
//! - [`fault`]: test-only fault injection (feature `fault-injection`).

pub(crate) mod direct_wait;
pub(crate) mod drivers;
pub(crate) mod exit;
pub(crate) mod fault;
pub(crate) mod progress;
pub(crate) mod spin;
pub(crate) mod tracking;
pub(crate) mod work_done;
