//! The cost of the API-overhead operations in wgpu-core itself, without any
//! C API: the floor under wgpu-shim's `buffer_create_release` and
//! `empty_submit` figures (wgpu-shim is built on this same wgpu-core).
//!
//! It makes the same wgpu-core calls wgpu-shim makes for each operation, in
//! the same way `benches/bench.c` times them (one clock read before and
//! after each operation, after a warm-up), so `wgpu-shim − core_floor` is
//! what the C API layer costs. wgpu-native v29 is built on an older
//! wgpu-core, so its figure includes a different floor.
//!
//! `--roundtrip-trips N` also times `bench.c`'s map round trip (write,
//! copy, submit, map, wait, read and verify, unmap) with wgpu-core's own
//! blocking poll as the wait: the floor under a blocking wait of wgpu-shim
//! on this wgpu-core (the waiting thread's CPU time is read as `bench.c`
//! reads it).
//!
//! ```text
//! cargo run --release --example core_floor [-- --iterations N] [--roundtrip-trips N] [--size BYTES]
//! (`--iterations 0`: the round trip alone)
//! ```
//! Prints one JSON object per operation: median, p99 and mean in ns; the
//! round trip as one `map_roundtrip` object in microseconds.

use std::time::Instant;

use wgpu_core::global::Global;
use wgpu_types as wgt;

fn main() {
    let mut iterations: usize = 20_000;
    let mut trips: usize = 0;
    let mut size: usize = 256;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next().and_then(|v| v.parse().ok())) {
            // 0: the round trip alone.
            ("--iterations", Some(n)) => iterations = n,
            ("--roundtrip-trips", Some(n)) => trips = n,
            ("--size", Some(n)) if n >= 4 && n % 4 == 0 => size = n,
            _ => {
                eprintln!("usage: core_floor [--iterations N] [--roundtrip-trips N] [--size BYTES]");
                std::process::exit(2);
            }
        }
    }
    if let Err(why) = run(iterations, trips, size) {
        eprintln!("core_floor: {why}");
        std::process::exit(4);
    }
}

/// Median, 99th percentile and mean of `ns`.
fn stats(ns: &mut [f64]) -> (f64, f64, f64) {
    ns.sort_by(f64::total_cmp);
    let at = |q: f64| ns[((ns.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99), ns.iter().sum::<f64>() / ns.len() as f64)
}

fn report(variant: &str, ns: &mut [f64]) {
    let (median, p99, mean) = stats(ns);
    println!(
        "{{\"scenario\":\"api_overhead\",\"variant\":\"{variant}\",\"library\":\"wgpu-core\",\"median_ns\":{median:.1},\"p99_ns\":{p99:.1},\"mean_ns\":{mean:.1},\"n\":{}}}",
        ns.len()
    );
}

/// Times `op` `n` times after `n / 10 + 10` warm-up runs: ns per run.
fn time(n: usize, mut op: impl FnMut() -> Result<(), String>) -> Result<Vec<f64>, String> {
    let warm = n / 10 + 10;
    let mut ns = Vec::with_capacity(n);
    for i in 0..warm + n {
        let t0 = Instant::now();
        op()?;
        let dt = t0.elapsed().as_nanos() as f64;
        if i >= warm {
            ns.push(dt);
        }
    }
    Ok(ns)
}

fn run(n: usize, trips: usize, size: usize) -> Result<(), String> {
    // As wgpu-shim's wgpuCreateInstance, RequestAdapter and RequestDevice.
    let mut instance_desc = wgt::InstanceDescriptor::new_without_display_handle_from_env();
    instance_desc.backends = wgt::Backends::VULKAN;
    let global = Global::new("core_floor", instance_desc, None);
    let options = wgpu_core::instance::RequestAdapterOptions {
        power_preference: wgt::PowerPreference::HighPerformance,
        force_fallback_adapter: false,
        compatible_surface: None,
        apply_limit_buckets: false,
    };
    let adapter =
        global.request_adapter(&options, wgt::Backends::VULKAN, None).map_err(|e| format!("no adapter: {e}"))?;
    let device_desc = wgt::DeviceDescriptor { required_limits: wgt::Limits::default(), ..Default::default() };
    let (device, queue) =
        global.adapter_request_device(adapter, &device_desc, None, None).map_err(|e| format!("no device: {e}"))?;

    if n > 0 {
        api_overhead(&global, device, queue, n)?;
    }
    global.device_poll(device, wgt::PollType::wait_indefinitely()).map_err(|e| format!("poll: {e}"))?;
    if trips > 0 {
        roundtrip(&global, device, queue, trips, size)?;
    }
    global.device_poll(device, wgt::PollType::wait_indefinitely()).map_err(|e| format!("poll: {e}"))?;
    global.queue_drop(queue);
    global.device_drop(device);
    global.adapter_drop(adapter);
    Ok(())
}

/// Buffer create + release and an empty submit, each `n` times.
fn api_overhead(
    global: &Global,
    device: wgpu_core::id::DeviceId,
    queue: wgpu_core::id::QueueId,
    n: usize,
) -> Result<(), String> {
    // Buffer create + release (the buffer `benches/bench.c` makes).
    let buffer_desc = wgpu_core::resource::BufferDescriptor {
        label: Some("small".into()),
        size: 256,
        usage: wgt::BufferUsages::STORAGE | wgt::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    };
    let mut ns = time(n, || {
        let (id, error) = global.device_create_buffer(device, &buffer_desc, None);
        global.buffer_drop(id);
        error.map_or(Ok(()), |e| Err(format!("create buffer: {e}")))
    })?;
    report("buffer_create_release", &mut ns);

    // Empty command buffer: encode, finish, submit, drop.
    global.device_poll(device, wgt::PollType::wait_indefinitely()).map_err(|e| format!("poll: {e}"))?;
    let mut ns = time(n, || {
        let (encoder, error) =
            global.device_create_command_encoder(device, &wgt::CommandEncoderDescriptor { label: None }, None);
        if let Some(e) = error {
            return Err(format!("create encoder: {e}"));
        }
        finish_and_submit(global, queue, encoder).map(|_| ())
    })?;
    report("empty_submit", &mut ns);
    Ok(())
}

/// Finishes `encoder`, submits it and drops both ids, as wgpu-shim's Finish,
/// Submit and the two Releases do; the submission index.
fn finish_and_submit(
    global: &Global,
    queue: wgpu_core::id::QueueId,
    encoder: wgpu_core::id::CommandEncoderId,
) -> Result<u64, String> {
    let (commands, error) = global.command_encoder_finish(encoder, &wgt::CommandBufferDescriptor { label: None }, None);
    if let Some((_, e)) = error {
        return Err(format!("finish: {e}"));
    }
    let submitted = global.queue_submit(queue, &[commands]);
    global.command_buffer_drop(commands);
    global.command_encoder_drop(encoder);
    submitted.map_err(|(_, e)| format!("submit: {e}"))
}

/// This thread's CPU time, in ns (as `bench.c`'s `thread_cpu_ns`).
fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid timespec to write; the clock id is a constant.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// `bench.c`'s map round trip on wgpu-core alone: the wait is wgpu-core's
/// blocking `device_poll`, as wgpu-native's `wgpuDevicePoll(wait)` is.
fn roundtrip(
    global: &Global,
    device: wgpu_core::id::DeviceId,
    queue: wgpu_core::id::QueueId,
    trips: usize,
    size: usize,
) -> Result<(), String> {
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Arc;

    let make = |label: &str, usage: wgt::BufferUsages| {
        let desc = wgpu_core::resource::BufferDescriptor {
            label: Some(label.to_owned().into()),
            size: size as u64,
            usage,
            mapped_at_creation: false,
        };
        let (id, error) = global.device_create_buffer(device, &desc, None);
        error.map_or(Ok(id), |e| Err(format!("create buffer: {e}")))
    };
    let src = make("roundtrip src", wgt::BufferUsages::COPY_DST | wgt::BufferUsages::COPY_SRC)?;
    let dst = make("roundtrip dst", wgt::BufferUsages::COPY_DST | wgt::BufferUsages::MAP_READ)?;
    let warm = trips / 10 + 10;
    let mut data = vec![0u8; size];
    let mut seed = 0x1234567u32;
    let (mut trip_us, mut wait_us, mut submit_us) = (Vec::new(), Vec::new(), Vec::new());
    let (mut wait_ns, mut cpu_ns) = (0u64, 0u64);
    for i in 0..warm + trips {
        for word in data.chunks_exact_mut(4) {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            word.copy_from_slice(&seed.to_le_bytes());
        }
        let t0 = Instant::now();
        global.queue_write_buffer(queue, src, 0, &data).map_err(|e| format!("write buffer: {e}"))?;
        let (encoder, error) =
            global.device_create_command_encoder(device, &wgt::CommandEncoderDescriptor { label: None }, None);
        if let Some(e) = error {
            return Err(format!("create encoder: {e}"));
        }
        global
            .command_encoder_copy_buffer_to_buffer(encoder, src, 0, dst, 0, Some(size as u64))
            .map_err(|e| format!("copy: {e}"))?;
        finish_and_submit(global, queue, encoder)?;
        let t_sub = Instant::now();
        // 0: pending, 1: mapped, 2: failed.
        let state = Arc::new(AtomicU32::new(0));
        let seen = state.clone();
        let op = wgpu_core::resource::BufferMapOperation {
            host: wgpu_core::device::HostMap::Read,
            callback: Some(Box::new(move |result| seen.store(if result.is_ok() { 1 } else { 2 }, Ordering::Release))),
        };
        global.buffer_map_async(dst, 0, Some(size as u64), op).map_err(|e| format!("map: {e}"))?;
        let w0 = Instant::now();
        let c0 = thread_cpu_ns();
        while state.load(Ordering::Acquire) == 0 {
            global.device_poll(device, wgt::PollType::wait_indefinitely()).map_err(|e| format!("poll: {e}"))?;
        }
        let c1 = thread_cpu_ns();
        let w1 = Instant::now();
        if state.load(Ordering::Acquire) != 1 {
            return Err("the map failed".into());
        }
        let (ptr, len) =
            global.buffer_get_mapped_range(dst, 0, Some(size as u64)).map_err(|e| format!("mapped range: {e}"))?;
        // SAFETY: wgpu-core maps `len` bytes for reading at `ptr` until the unmap below.
        let mapped = unsafe { std::slice::from_raw_parts(ptr.as_ptr(), len as usize) };
        if mapped[..size] != data[..] {
            return Err(format!("read-back data differ (trip {i})"));
        }
        global.buffer_unmap(dst).map_err(|e| format!("unmap: {e}"))?;
        let t1 = Instant::now();
        if i >= warm {
            trip_us.push((t1 - t0).as_nanos() as f64 / 1e3);
            wait_us.push((w1 - w0).as_nanos() as f64 / 1e3);
            submit_us.push((t_sub - t0).as_nanos() as f64 / 1e3);
            wait_ns += (w1 - w0).as_nanos() as u64;
            cpu_ns += c1 - c0;
        }
    }
    global.buffer_drop(src);
    global.buffer_drop(dst);
    let (median, p99, mean) = stats(&mut trip_us);
    let (wait_median, _, _) = stats(&mut wait_us);
    let (submit_median, _, _) = stats(&mut submit_us);
    println!(
        "{{\"scenario\":\"map_roundtrip\",\"strategy\":\"poll\",\"library\":\"wgpu-core\",\"n\":{trips},\"bytes\":{size},\"median_us\":{median:.3},\"p99_us\":{p99:.3},\"mean_us\":{mean:.3},\"wait_median_us\":{wait_median:.3},\"submit_median_us\":{submit_median:.3},\"cpu_over_wall\":{:.4},\"cpu_us_per_wait\":{:.3}}}",
        cpu_ns as f64 / wait_ns.max(1) as f64,
        cpu_ns as f64 / trips as f64 / 1e3,
    );
    Ok(())
}
