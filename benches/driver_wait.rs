//! The Vulkan driver's own cost of waiting for the GPU, without wgpu: the
//! floor under every blocking wait the library (or wgpu-native) can do.
//!
//! For each way of waiting on a timeline semaphore that the GPU signals —
//! `spin` (`vkGetSemaphoreCounterValue` in a loop), `wait1`
//! (`vkWaitSemaphores` on that semaphore) and `wait_any2` (`vkWaitSemaphores`
//! with `WAIT_ANY` on it and a second, host-signalled semaphore: how
//! wgpu-shim's WaitAny sleeps) and, where the driver has
//! `VK_KHR_external_semaphore_fd`, `sync_fd` (the submission also signals a
//! binary semaphore, exported as a sync file and waited on with `poll()`:
//! a wait the kernel ends, with no driver thread in between) — it measures:
//!
//! - `trip`: an empty `vkQueueSubmit` that signals the semaphore, then the
//!   wait: µs from submit to wake-up, and the waiting thread's CPU ÷ wall;
//! - `late` / `late10`: the submission first waits on a host semaphore that
//!   another thread signals after 2 / 10 ms, while the waiting thread is
//!   already asleep: µs from that host signal to the wake-up (GPU queue hop
//!   included); `late10_two_waiters` with a second thread blocked on the
//!   same semaphore meanwhile (as wgpu-shim's progress thread may be);
//! - `timed`: `wait1` and `wait_any2` on semaphores nobody signals, with a
//!   timeout of 0.1, 1 or 5 ms, under the default 50 µs timer slack and
//!   under 1 ns: how late the timeout ends the wait, and the waiting
//!   thread's CPU ÷ wall meanwhile (wgpu-shim's wake rung slept in such a
//!   timed wait until shortly before a long job's predicted end);
//! - `host_wake`: what replaced it from 12c66ba to the fence watcher (an
//!   alarm thread, since removed): a thread sleeps in `wait_any2` with no
//!   deadline of its own, on a semaphore nobody signals and a second one
//!   that another thread, asleep on a precise OS timer (timer slack 1 ns),
//!   signals from the host 2 or 10 ms later: µs from that thread's time to
//!   its signal and to the waiter's wake-up, and each thread's CPU ÷ wall.
//!
//! ```text
//! cargo run --release --example driver_wait [-- --iterations N]
//! ```
//! Prints one JSON object per line. Uses the first Vulkan 1.2 device with
//! timeline semaphores (a discrete GPU when there is one).

use std::time::{Duration, Instant};

use ash::vk;

fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid clock id and a valid out pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

struct Gpu {
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    queue: vk::Queue,
    name: String,
    /// `VK_KHR_external_semaphore_fd`, when the device has it and can
    /// export a binary semaphore as a sync file.
    sync_fd: Option<ash::khr::external_semaphore_fd::Device>,
    /// Why there is no `sync_fd` measurement, if there is none.
    sync_fd_missing: Option<&'static str>,
}

fn setup() -> Result<Gpu, String> {
    // SAFETY: loads the system's Vulkan loader.
    let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("no Vulkan loader: {e}"))?;
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_2);
    // SAFETY: valid create info; every object made here lives until exit.
    let instance = unsafe { entry.create_instance(&vk::InstanceCreateInfo::default().application_info(&app), None) }
        .map_err(|e| format!("vkCreateInstance: {e}"))?;
    // SAFETY: a live instance.
    let phys = unsafe { instance.enumerate_physical_devices() }.map_err(|e| format!("{e}"))?;
    // SAFETY: physical devices of this instance.
    let props = |p: vk::PhysicalDevice| unsafe { instance.get_physical_device_properties(p) };
    let pick = phys
        .iter()
        .copied()
        .filter(|&p| props(p).api_version >= vk::API_VERSION_1_2)
        .max_by_key(|&p| props(p).device_type == vk::PhysicalDeviceType::DISCRETE_GPU)
        .ok_or("no Vulkan 1.2 device")?;
    let name = props(pick).device_name_as_c_str().map(|c| c.to_string_lossy().into_owned()).unwrap_or_default();
    // SAFETY: as above.
    let families = unsafe { instance.get_physical_device_queue_family_properties(pick) };
    let family =
        families.iter().position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE)).ok_or("no compute queue")? as u32;
    let prio = [1.0f32];
    let qinfo = [vk::DeviceQueueCreateInfo::default().queue_family_index(family).queue_priorities(&prio)];
    let mut v12 = vk::PhysicalDeviceVulkan12Features::default().timeline_semaphore(true);
    // SAFETY: a physical device of this instance.
    let has_ext = unsafe { instance.enumerate_device_extension_properties(pick) }
        .map(|exts| exts.iter().any(|e| e.extension_name_as_c_str() == Ok(ash::khr::external_semaphore_fd::NAME)))
        .unwrap_or(false);
    let exportable = {
        let info = vk::PhysicalDeviceExternalSemaphoreInfo::default()
            .handle_type(vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD);
        let mut props = vk::ExternalSemaphoreProperties::default();
        // SAFETY: a physical device of this instance; valid structures.
        unsafe { instance.get_physical_device_external_semaphore_properties(pick, &info, &mut props) };
        props.external_semaphore_features.contains(vk::ExternalSemaphoreFeatureFlags::EXPORTABLE)
    };
    let sync_fd_missing = match (has_ext, exportable) {
        (false, _) => Some("the device has no VK_KHR_external_semaphore_fd"),
        (true, false) => Some("the driver cannot export a semaphore as a sync file (SYNC_FD not exportable)"),
        (true, true) => None,
    };
    let has_sync_fd = sync_fd_missing.is_none();
    let ext_names = [ash::khr::external_semaphore_fd::NAME.as_ptr()];
    let exts: &[*const std::ffi::c_char] = if has_sync_fd { &ext_names } else { &[] };
    let dinfo =
        vk::DeviceCreateInfo::default().queue_create_infos(&qinfo).enabled_extension_names(exts).push_next(&mut v12);
    // SAFETY: valid create info for this physical device.
    let device = unsafe { instance.create_device(pick, &dinfo, None) }.map_err(|e| format!("vkCreateDevice: {e}"))?;
    // SAFETY: the queue created above.
    let queue = unsafe { device.get_device_queue(family, 0) };
    let sync_fd = has_sync_fd.then(|| ash::khr::external_semaphore_fd::Device::new(&instance, &device));
    Ok(Gpu { _entry: entry, instance, device, queue, name, sync_fd, sync_fd_missing })
}

/// A failed Vulkan call, as a message.
fn vk_err(call: &'static str) -> impl Fn(vk::Result) -> String {
    move |e| format!("{call}: {e}")
}

fn timeline(device: &ash::Device) -> Result<vk::Semaphore, String> {
    let mut t = vk::SemaphoreTypeCreateInfo::default().semaphore_type(vk::SemaphoreType::TIMELINE);
    // SAFETY: valid create info.
    unsafe { device.create_semaphore(&vk::SemaphoreCreateInfo::default().push_next(&mut t), None) }
        .map_err(vk_err("vkCreateSemaphore"))
}

/// A binary semaphore that can be exported as a sync file.
fn exportable(device: &ash::Device) -> Result<vk::Semaphore, String> {
    let mut export =
        vk::ExportSemaphoreCreateInfo::default().handle_types(vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD);
    // SAFETY: valid create info.
    unsafe { device.create_semaphore(&vk::SemaphoreCreateInfo::default().push_next(&mut export), None) }
        .map_err(vk_err("vkCreateSemaphore"))
}

#[derive(Clone, Copy, PartialEq)]
enum How {
    Spin,
    Wait1,
    WaitAny2,
    SyncFd,
}

impl How {
    fn name(self) -> &'static str {
        match self {
            How::Spin => "spin",
            How::Wait1 => "wait1",
            How::WaitAny2 => "wait_any2",
            How::SyncFd => "sync_fd",
        }
    }
}

/// Waits for the pending signal of the binary semaphore `bin`: exports it
/// as a sync file and sleeps in `poll()` until the kernel reports it
/// signalled.
fn wait_sync_fd(gpu: &Gpu, bin: vk::Semaphore) -> Result<(), String> {
    let ext = gpu.sync_fd.as_ref().ok_or("no VK_KHR_external_semaphore_fd")?;
    let info =
        vk::SemaphoreGetFdInfoKHR::default().semaphore(bin).handle_type(vk::ExternalSemaphoreHandleTypeFlags::SYNC_FD);
    // SAFETY: a binary semaphore with a pending signal, made exportable as a
    // sync file.
    let fd = unsafe { ext.get_semaphore_fd(&info) }.map_err(vk_err("vkGetSemaphoreFdKHR"))?;
    if fd < 0 {
        // Already signalled: nothing to wait for.
        return Ok(());
    }
    let mut pfd = libc::pollfd { fd, events: libc::POLLIN, revents: 0 };
    loop {
        // SAFETY: one valid pollfd.
        let r = unsafe { libc::poll(&mut pfd, 1, -1) };
        if r > 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            break;
        }
    }
    // SAFETY: the descriptor the export returned, closed once.
    unsafe { libc::close(fd) };
    Ok(())
}

/// Waits until `sem` reaches `value`.
fn wait(device: &ash::Device, how: How, sem: vk::Semaphore, value: u64, other: vk::Semaphore) -> Result<(), String> {
    match how {
        How::Spin => {
            // SAFETY: a live timeline semaphore of `device`.
            while unsafe { device.get_semaphore_counter_value(sem) }.map_err(vk_err("vkGetSemaphoreCounterValue"))?
                < value
            {}
            Ok(())
        }
        // (A sync file is waited on by `wait_sync_fd`; here, the timeline.)
        How::Wait1 | How::SyncFd => {
            let (s, v) = ([sem], [value]);
            // SAFETY: a live timeline semaphore of `device`.
            unsafe { device.wait_semaphores(&vk::SemaphoreWaitInfo::default().semaphores(&s).values(&v), u64::MAX) }
                .map_err(vk_err("vkWaitSemaphores"))
        }
        How::WaitAny2 => {
            // `other` is never signalled here: only `sem` ends the wait, as in
            // wgpu-shim when nothing wakes the sleeper.
            let (s, v) = ([sem, other], [value, u64::MAX]);
            let info = vk::SemaphoreWaitInfo::default().flags(vk::SemaphoreWaitFlags::ANY).semaphores(&s).values(&v);
            // SAFETY: live timeline semaphores of `device`.
            unsafe { device.wait_semaphores(&info, u64::MAX) }.map_err(vk_err("vkWaitSemaphores"))
        }
    }
}

/// Submits an empty batch that (after `wait_on`) signals the timeline
/// `signal` to `value`, and the binary semaphore `also` when given.
fn submit(
    gpu: &Gpu,
    wait_on: Option<(vk::Semaphore, u64)>,
    signal: vk::Semaphore,
    value: u64,
    also: Option<vk::Semaphore>,
) -> Result<(), String> {
    let (ws, wv) = match wait_on {
        Some((s, v)) => (vec![s], vec![v]),
        None => (vec![], vec![]),
    };
    let stages = vec![vk::PipelineStageFlags::ALL_COMMANDS; ws.len()];
    let (mut ss, mut sv) = (vec![signal], vec![value]);
    if let Some(bin) = also {
        // A binary semaphore's value is ignored.
        ss.push(bin);
        sv.push(0);
    }
    let mut tl = vk::TimelineSemaphoreSubmitInfo::default().wait_semaphore_values(&wv).signal_semaphore_values(&sv);
    let info = vk::SubmitInfo::default()
        .wait_semaphores(&ws)
        .wait_dst_stage_mask(&stages)
        .signal_semaphores(&ss)
        .push_next(&mut tl);
    // SAFETY: valid submit info on this device's queue.
    unsafe { gpu.device.queue_submit(gpu.queue, &[info], vk::Fence::null()) }.map_err(vk_err("vkQueueSubmit"))
}

fn stats(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99))
}

/// The floor of a callback that wakes another thread: how late a thread
/// asleep on a condition variable (what an application waiting for a
/// spontaneous callback does, as `bench.c`'s `spontaneous` strategy) wakes
/// after another thread notifies it. No GPU is involved.
fn handoff(iterations: usize) -> Result<(), String> {
    use std::sync::{Arc, Condvar, Mutex};
    let shared = Arc::new((Mutex::new(None::<Instant>), Condvar::new()));
    let mut late = Vec::with_capacity(iterations);
    for _ in 0..iterations {
        let waiter = {
            let shared = shared.clone();
            std::thread::spawn(move || {
                let (lock, cond) = &*shared;
                let mut signalled = lock.lock().map_err(|_| "poisoned".to_string())?;
                while signalled.is_none() {
                    signalled = cond.wait(signalled).map_err(|_| "poisoned".to_string())?;
                }
                let woke = Instant::now();
                Ok::<f64, String>(woke.saturating_duration_since(signalled.take().unwrap_or(woke)).as_secs_f64() * 1e6)
            })
        };
        // Let the waiter fall asleep, as a thread waiting for GPU work has.
        std::thread::sleep(Duration::from_micros(300));
        {
            let (lock, cond) = &*shared;
            *lock.lock().map_err(|_| "poisoned".to_string())? = Some(Instant::now());
            cond.notify_one();
        }
        late.push(waiter.join().map_err(|_| "the waiting thread panicked".to_string())??);
    }
    let (med, p99) = stats(late);
    println!("{{\"scenario\":\"handoff\",\"how\":\"condvar\",\"median_us\":{med:.2},\"p99_us\":{p99:.2}}}");
    Ok(())
}

fn main() {
    let iterations: usize =
        std::env::args().skip_while(|a| a != "--iterations").nth(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    if let Err(e) = setup().and_then(|gpu| run(&gpu, iterations)) {
        eprintln!("driver_wait: {e}");
        std::process::exit(4);
    }
}

/// Every measurement on `gpu`; the device and instance are destroyed at
/// the end, also after a failure.
fn run(gpu: &Gpu, iterations: usize) -> Result<(), String> {
    match gpu.sync_fd_missing {
        Some(why) => println!("{{\"scenario\":\"info\",\"device\":{:?},\"sync_fd\":{why:?}}}", gpu.name),
        None => println!("{{\"scenario\":\"info\",\"device\":{:?},\"sync_fd\":\"measured\"}}", gpu.name),
    }
    let sems = [timeline(&gpu.device)?, timeline(&gpu.device)?, timeline(&gpu.device)?];
    let bin = match gpu.sync_fd {
        Some(_) => exportable(&gpu.device).map_err(|e| eprintln!("driver_wait: no sync_fd measurement: {e}")).ok(),
        None => None,
    };
    let result = measure(gpu, iterations, sems, bin)
        .and_then(|()| timed(&gpu.device, sems[1], sems[2]))
        .and_then(|()| host_wake(&gpu.device, sems[2], iterations))
        .and_then(|()| handoff(iterations));
    // SAFETY: idle device (waited for); objects destroyed once.
    unsafe {
        gpu.device.device_wait_idle().ok();
        for s in sems.into_iter().chain(bin) {
            gpu.device.destroy_semaphore(s, None);
        }
        gpu.device.destroy_device(None);
        gpu.instance.destroy_instance(None);
    }
    result
}

/// Timed waits that end by their timeout (`timed` in the module
/// documentation): `idle` and `never` are timeline semaphores whose waited
/// values are never reached.
fn timed(device: &ash::Device, idle: vk::Semaphore, never: vk::Semaphore) -> Result<(), String> {
    for slack_ns in [50_000u64, 1] {
        // SAFETY: PR_SET_TIMERSLACK takes the slack by value and changes
        // only this thread's timer slack.
        unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, slack_ns as libc::c_ulong, 0, 0, 0) };
        for (how, timeout_us, rounds) in
            [How::Wait1, How::WaitAny2].into_iter().flat_map(|h| [(h, 100u64, 200), (h, 1_000, 100), (h, 5_000, 20)])
        {
            let (mut late, mut cpu, mut wall) = (Vec::with_capacity(rounds), 0u64, 0u64);
            for _ in 0..rounds {
                let (s, v) = ([idle, never], [u64::MAX, u64::MAX]);
                let n = if how == How::Wait1 { 1 } else { 2 };
                let mut info = vk::SemaphoreWaitInfo::default().semaphores(&s[..n]).values(&v[..n]);
                if how == How::WaitAny2 {
                    info = info.flags(vk::SemaphoreWaitFlags::ANY);
                }
                let (t0, c0) = (Instant::now(), thread_cpu_ns());
                // SAFETY: live timeline semaphores of `device`.
                match unsafe { device.wait_semaphores(&info, timeout_us * 1000) } {
                    Err(vk::Result::TIMEOUT) => {}
                    other => return Err(format!("a timed wait on unsignalled semaphores returned {other:?}")),
                }
                let (dt, dc) = (t0.elapsed(), thread_cpu_ns() - c0);
                late.push(dt.as_secs_f64() * 1e6 - timeout_us as f64);
                cpu += dc;
                wall += dt.as_nanos() as u64;
            }
            let (med, p99) = stats(late);
            println!(
                "{{\"scenario\":\"timed\",\"how\":\"{}\",\"slack_ns\":{slack_ns},\"timeout_us\":{timeout_us},\"late_median_us\":{med:.2},\"late_p99_us\":{p99:.2},\"cpu_over_wall\":{:.3}}}",
                how.name(),
                cpu as f64 / wall as f64
            );
        }
    }
    // SAFETY: as above; 0 restores the thread's default slack.
    unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 0 as libc::c_ulong, 0, 0, 0) };
    Ok(())
}

/// A precise timer's sleep until `at` (Linux: `clock_nanosleep` to an
/// absolute time, with this thread's timer slack at 1 ns).
fn sleep_until(at: Instant) {
    // SAFETY: PR_SET_TIMERSLACK takes the slack by value and changes only
    // this thread's.
    unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong, 0, 0, 0) };
    let left = at.saturating_duration_since(Instant::now());
    let ts = libc::timespec { tv_sec: left.as_secs() as libc::time_t, tv_nsec: left.subsec_nanos() as libc::c_long };
    // SAFETY: a valid timespec; no remainder is asked for.
    unsafe { libc::clock_nanosleep(libc::CLOCK_MONOTONIC, 0, &ts, std::ptr::null_mut()) };
}

/// Host-signalled wake-ups (`host_wake` in the module documentation):
/// `never` is a timeline semaphore whose waited value is never reached.
fn host_wake(device: &ash::Device, never: vk::Semaphore, iterations: usize) -> Result<(), String> {
    let alarm = timeline(device)?;
    let mut value = 0u64;
    let mut result = Ok(());
    for sleep_ms in [2u64, 10] {
        let rounds = (iterations / if sleep_ms > 2 { 20 } else { 10 }).max(20);
        let (mut signal_late, mut wake_late, mut wake_after_signal) = (Vec::new(), Vec::new(), Vec::new());
        let (mut cpu, mut wall, mut timer_cpu) = (0u64, 0u64, 0u64);
        for _ in 0..rounds {
            value += 1;
            let (t0, c0) = (Instant::now(), thread_cpu_ns());
            let at = t0 + Duration::from_millis(sleep_ms);
            let signaller = {
                let device = device.clone();
                let v = value;
                std::thread::spawn(move || {
                    let c = thread_cpu_ns();
                    sleep_until(at);
                    let t = Instant::now();
                    // SAFETY: a live timeline semaphore, signalled upwards.
                    unsafe { device.signal_semaphore(&vk::SemaphoreSignalInfo::default().semaphore(alarm).value(v)) }
                        .map_err(vk_err("vkSignalSemaphore"))
                        .map(|()| (t, thread_cpu_ns() - c))
                })
            };
            let (s, v) = ([never, alarm], [u64::MAX, value]);
            let info = vk::SemaphoreWaitInfo::default().flags(vk::SemaphoreWaitFlags::ANY).semaphores(&s).values(&v);
            // SAFETY: live timeline semaphores of `device`.
            let waited = unsafe { device.wait_semaphores(&info, 1_000_000_000) }.map_err(vk_err("vkWaitSemaphores"));
            let (woke, dc) = (Instant::now(), thread_cpu_ns() - c0);
            let signalled = signaller.join().map_err(|_| "the signalling thread panicked".to_string())?;
            if let Err(e) = waited.and(signalled.clone().map(|_| ())) {
                result = Err(e);
                break;
            }
            let (signal_at, tc) = signalled?;
            signal_late.push(signal_at.saturating_duration_since(at).as_secs_f64() * 1e6);
            wake_late.push(woke.saturating_duration_since(at).as_secs_f64() * 1e6);
            wake_after_signal.push(woke.saturating_duration_since(signal_at).as_secs_f64() * 1e6);
            cpu += dc;
            wall += (woke - t0).as_nanos() as u64;
            timer_cpu += tc;
        }
        if result.is_err() {
            break;
        }
        let ((sm, sp), (wm, wp), (am, ap)) = (stats(signal_late), stats(wake_late), stats(wake_after_signal));
        println!(
            "{{\"scenario\":\"host_wake\",\"how\":\"wait_any2\",\"sleep_ms\":{sleep_ms},\"signal_late_median_us\":{sm:.2},\"signal_late_p99_us\":{sp:.2},\"wake_after_signal_median_us\":{am:.2},\"wake_after_signal_p99_us\":{ap:.2},\"wake_late_median_us\":{wm:.2},\"wake_late_p99_us\":{wp:.2},\"cpu_over_wall\":{:.4},\"timer_cpu_over_wall\":{:.4}}}",
            cpu as f64 / wall as f64,
            timer_cpu as f64 / wall as f64
        );
    }
    // SAFETY: no wait on it is left (every round was joined).
    unsafe { device.destroy_semaphore(alarm, None) };
    result
}

fn measure(
    gpu: &Gpu,
    iterations: usize,
    [sem, other, gate]: [vk::Semaphore; 3],
    bin: Option<vk::Semaphore>,
) -> Result<(), String> {
    let mut value = 0u64;
    let mut gate_value = 0u64;
    let hows: &[How] = if bin.is_some() {
        &[How::Spin, How::Wait1, How::WaitAny2, How::SyncFd]
    } else {
        &[How::Spin, How::Wait1, How::WaitAny2]
    };
    // The main thread's wait: a sync file when measuring `sync_fd`, else
    // the timeline semaphore.
    let main_wait = |how: How, value: u64| match (how, bin) {
        (How::SyncFd, Some(b)) => wait_sync_fd(gpu, b),
        _ => wait(&gpu.device, how, sem, value, other),
    };
    for &how in hows {
        let also = if how == How::SyncFd { bin } else { None };
        // Submit-to-wake round trips.
        let (mut trip, mut cpu, mut wall) = (Vec::with_capacity(iterations), 0u64, 0u64);
        for i in 0..iterations + 50 {
            value += 1;
            let (t0, c0) = (Instant::now(), thread_cpu_ns());
            submit(gpu, None, sem, value, also)?;
            main_wait(how, value)?;
            let (dt, dc) = (t0.elapsed(), thread_cpu_ns() - c0);
            if i >= 50 {
                trip.push(dt.as_secs_f64() * 1e6);
                cpu += dc;
                wall += dt.as_nanos() as u64;
            }
        }
        let (med, p99) = stats(trip);
        println!(
            "{{\"scenario\":\"trip\",\"how\":\"{}\",\"median_us\":{med:.2},\"p99_us\":{p99:.2},\"cpu_over_wall\":{:.3}}}",
            how.name(),
            cpu as f64 / wall as f64
        );
        // Wake-up after a host signal, the waiter asleep for 2 or 10 ms;
        // also with a second thread blocked on the same semaphore (as
        // wgpu-shim's progress thread may be).
        for (sleep_ms, second) in [(2u64, false), (10, false), (10, true)] {
            let rounds = (iterations / if sleep_ms > 2 { 60 } else { 20 }).max(20);
            let mut late = Vec::with_capacity(rounds);
            for _ in 0..rounds {
                value += 1;
                gate_value += 1;
                submit(gpu, Some((gate, gate_value)), sem, value, also)?;
                let device = gpu.device.clone();
                let g = gate_value;
                let signaller = std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(sleep_ms));
                    let t = Instant::now();
                    // SAFETY: a live timeline semaphore, signalled upwards.
                    unsafe { device.signal_semaphore(&vk::SemaphoreSignalInfo::default().semaphore(gate).value(g)) }
                        .map_err(vk_err("vkSignalSemaphore"))
                        .map(|()| t)
                });
                let other_waiter = second.then(|| {
                    let device = gpu.device.clone();
                    std::thread::spawn(move || wait(&device, How::Wait1, sem, value, other))
                });
                let waited = main_wait(how, value);
                let woke = Instant::now();
                let signalled = signaller.join().map_err(|_| "the signalling thread panicked".to_string())??;
                if let Some(t) = other_waiter {
                    t.join().map_err(|_| "the second waiter panicked".to_string())??;
                }
                waited?;
                late.push(woke.saturating_duration_since(signalled).as_secs_f64() * 1e6);
            }
            let (med, p99) = stats(late);
            let scenario = match (sleep_ms, second) {
                (2, _) => "late",
                (_, false) => "late10",
                _ => "late10_two_waiters",
            };
            println!(
                "{{\"scenario\":\"{scenario}\",\"how\":\"{}\",\"median_us\":{med:.2},\"p99_us\":{p99:.2}}}",
                how.name()
            );
        }
    }
    Ok(())
}
