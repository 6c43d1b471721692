//! The device progress thread: drives wgpu-core forward while queue work is
//! pending, so callbacks arrive without the application polling.
//!
//! Each device has one thread. While no map or work-done operation is
//! pending it sleeps on a condition variable. While some are, it loops:
//! a non-blocking `device_poll` (which runs wgpu-core's completion closures:
//! they only mark registry events ready), delivery of ready spontaneous
//! callbacks, then a sleep in the OS until the GPU signals more progress.
//!
//! The sleep does not hold any wgpu-core lock. On Vulkan with timeline
//! semaphores the thread waits in `vkWaitSemaphores` on two semaphores at
//! once: wgpu-hal's device fence (value > the last one seen) and a wake
//! semaphore of ours, which API calls signal when they register new work
//! that may complete without GPU progress, or at shutdown. Elsewhere it
//! falls back to bounded waits on the fence through wgpu-hal (`WAIT_SLICE`),
//! still outside wgpu-core's locks.

use std::sync::Arc;
use std::time::Duration;

use ash::vk;
use parking_lot::{Condvar, Mutex, RwLock};
use wgpu_core::global::Global;
use wgpu_core::id::DeviceId;

/// How long one fallback wait lasts before the thread rechecks its state.
const WAIT_SLICE: Duration = Duration::from_millis(2);

/// Shared between the device, the completion closures and the thread.
pub(crate) struct Progress {
    state: Mutex<State>,
    cond: Condvar,
    waker: Option<VkWaker>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
    /// Drops the wgpu-core ids once the thread is done with them.
    on_exit: Mutex<Option<Box<dyn FnOnce() + Send>>>,
}

struct State {
    /// Queue operations registered with wgpu-core and not completed yet.
    pending: usize,
    /// Set by API calls that registered work: poll before sleeping again.
    poll_requested: bool,
    /// The thread is (about to be) inside `vkWaitSemaphores`.
    in_gpu_wait: bool,
    /// Last value signalled on the wake semaphore.
    wake_value: u64,
    shutdown: bool,
}

/// The Vulkan objects the interruptible wait uses.
struct VkWaker {
    device: ash::Device,
    fence: vk::Semaphore,
    wake: vk::Semaphore,
}

impl Progress {
    /// Starts the progress thread of `device_id`. `on_exit` runs once the
    /// thread stopped (it drops the wgpu-core ids): see [`Progress::stop`].
    pub(crate) fn start(
        global: Arc<Global>,
        device_id: DeviceId,
        maintain_lock: Arc<RwLock<()>>,
        name: String,
        on_exit: Box<dyn FnOnce() + Send>,
    ) -> Arc<Progress> {
        let waker = VkWaker::new(&global, device_id);
        if waker.is_none() {
            log::info!(target: "wgpu_shim", "device {name:?}: no timeline semaphores; the progress thread waits in {WAIT_SLICE:?} slices");
        }
        let progress = Arc::new(Progress {
            state: Mutex::new(State {
                pending: 0,
                poll_requested: false,
                in_gpu_wait: false,
                wake_value: 0,
                shutdown: false,
            }),
            cond: Condvar::new(),
            waker,
            thread: Mutex::new(None),
            on_exit: Mutex::new(Some(on_exit)),
        });
        let thread_progress = progress.clone();
        let spawned = std::thread::Builder::new().name(format!("wgpu-shim progress ({name})")).spawn(move || {
            thread_progress.run(&global, device_id, &maintain_lock);
            thread_progress.finish();
        });
        match spawned {
            Ok(handle) => *progress.thread.lock() = Some(handle),
            // Without a thread, callbacks would never arrive: say so loudly.
            Err(err) => log::error!(target: "wgpu_shim", "device {name:?}: cannot start its progress thread: {err}"),
        }
        progress
    }

    /// A queue operation was handed to wgpu-core: keep polling until it
    /// completes, starting with a poll now.
    pub(crate) fn begin_op(&self) {
        let mut st = self.state.lock();
        st.pending += 1;
        self.wake(&mut st);
    }

    /// A queue operation completed (called from wgpu-core's closures).
    pub(crate) fn end_op(&self) {
        let mut st = self.state.lock();
        st.pending = st.pending.saturating_sub(1);
    }

    /// Something changed that a poll may act on (a submit, an unmap).
    pub(crate) fn nudge(&self) {
        let mut st = self.state.lock();
        if st.pending > 0 {
            self.wake(&mut st);
        }
    }

    /// Stops the thread and tears down (the device is being dropped). The
    /// thread is joined, so the wgpu-core device, and with it possibly the
    /// driver, is gone when this returns; called on the progress thread
    /// itself (the device's last reference dropped in a callback it
    /// delivered), the thread tears down when the callback returns.
    pub(crate) fn stop(&self) {
        {
            let mut st = self.state.lock();
            st.shutdown = true;
            self.wake(&mut st);
        }
        let handle = self.thread.lock().take();
        if let Some(h) = handle {
            if h.thread().id() == std::thread::current().id() {
                return;
            }
            let joined = h.join();
            if joined.is_err() {
                log::error!(target: "wgpu_shim", "the progress thread panicked");
            }
        }
        self.finish();
    }

    /// Destroys the wake semaphore and drops the ids, once.
    fn finish(&self) {
        let Some(on_exit) = self.on_exit.lock().take() else { return };
        self.destroy_waker();
        on_exit();
    }

    fn wake(&self, st: &mut State) {
        st.poll_requested = true;
        if st.in_gpu_wait {
            if let Some(w) = &self.waker {
                st.wake_value += 1;
                w.signal(st.wake_value);
            }
        }
        self.cond.notify_one();
    }

    fn run(&self, global: &Global, device_id: DeviceId, maintain_lock: &RwLock<()>) {
        loop {
            {
                let mut st = self.state.lock();
                while st.pending == 0 && !st.shutdown {
                    st.poll_requested = false;
                    self.cond.wait(&mut st);
                }
                if st.shutdown {
                    return;
                }
                st.poll_requested = false;
            }
            // Completion closures run in here and only mark events ready.
            let fence_before = self.waker.as_ref().map(|w| w.fence_value());
            let polled = {
                let _shared = maintain_lock.read();
                global.device_poll(device_id, wgpu_types::PollType::Poll)
            };
            if let Err(err) = polled {
                log::debug!(target: "wgpu_shim", "device poll: {err}");
            }
            crate::futures::flush_spontaneous();

            let wake_target = {
                let mut st = self.state.lock();
                if st.shutdown {
                    return;
                }
                if st.pending == 0 || st.poll_requested {
                    continue;
                }
                st.in_gpu_wait = true;
                st.wake_value + 1
            };
            match (&self.waker, fence_before) {
                (Some(w), Some(Ok(seen))) => w.wait(seen + 1, wake_target),
                _ => {
                    let wait = wgpu_types::PollType::Wait { submission_index: None, timeout: Some(WAIT_SLICE) };
                    // Fallback: a bounded wait (it holds wgpu-core's snatch
                    // lock for at most WAIT_SLICE).
                    let _shared = maintain_lock.read();
                    let _ = global.device_poll(device_id, wait);
                }
            }
            self.state.lock().in_gpu_wait = false;
        }
    }

    fn destroy_waker(&self) {
        if let Some(w) = &self.waker {
            // SAFETY: the thread that waits on the semaphore has left its
            // loop, and `wake` is only signalled under the state lock while
            // `in_gpu_wait` is set, which it no longer is.
            unsafe { w.device.destroy_semaphore(w.wake, None) };
        }
    }
}

impl VkWaker {
    fn new(global: &Global, device_id: DeviceId) -> Option<VkWaker> {
        // SAFETY: we do not destroy the raw device or fence; they live until
        // the wgpu-core device is dropped, which happens only after this
        // thread exits (`on_exit`).
        let hal_device = unsafe { global.device_as_hal::<wgpu_hal::api::Vulkan>(device_id) }?;
        // SAFETY: as above.
        let hal_fence = unsafe { global.device_fence_as_hal::<wgpu_hal::api::Vulkan>(device_id) }?;
        let fence = match &*hal_fence {
            wgpu_hal::vulkan::Fence::TimelineSemaphore(sem) => *sem,
            wgpu_hal::vulkan::Fence::FencePool(_) => return None,
        };
        let shared = hal_device.shared_instance();
        // SAFETY: a valid physical device of this instance.
        let props = unsafe { shared.raw_instance().get_physical_device_properties(hal_device.raw_physical_device()) };
        if shared.instance_api_version() < vk::API_VERSION_1_2 || props.api_version < vk::API_VERSION_1_2 {
            return None;
        }
        let device = hal_device.raw_device().clone();
        let mut type_info =
            vk::SemaphoreTypeCreateInfo::default().semaphore_type(vk::SemaphoreType::TIMELINE).initial_value(0);
        let info = vk::SemaphoreCreateInfo::default().push_next(&mut type_info);
        // SAFETY: a valid device with timeline semaphores enabled (its fence
        // is one).
        let wake = unsafe { device.create_semaphore(&info, None) }.ok()?;
        Some(VkWaker { device, fence, wake })
    }

    fn fence_value(&self) -> Result<u64, vk::Result> {
        // SAFETY: the fence is a live timeline semaphore of this device.
        unsafe { self.device.get_semaphore_counter_value(self.fence) }
    }

    /// Sleeps until the fence reaches `fence_target` or the wake semaphore
    /// reaches `wake_target`.
    fn wait(&self, fence_target: u64, wake_target: u64) {
        let semaphores = [self.fence, self.wake];
        let values = [fence_target, wake_target];
        let info =
            vk::SemaphoreWaitInfo::default().flags(vk::SemaphoreWaitFlags::ANY).semaphores(&semaphores).values(&values);
        // SAFETY: both semaphores are live timeline semaphores of `device`.
        if let Err(err) = unsafe { self.device.wait_semaphores(&info, u64::MAX) } {
            log::warn!(target: "wgpu_shim", "vkWaitSemaphores failed ({err}); falling back to a short sleep");
            std::thread::sleep(WAIT_SLICE);
        }
    }

    fn signal(&self, value: u64) {
        let info = vk::SemaphoreSignalInfo::default().semaphore(self.wake).value(value);
        // SAFETY: `wake` is our own live timeline semaphore and values only
        // grow (they are taken under the state lock).
        if let Err(err) = unsafe { self.device.signal_semaphore(&info) } {
            log::warn!(target: "wgpu_shim", "vkSignalSemaphore failed: {err}");
        }
    }
}
