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
//! ```text
//! cargo run --release --example core_floor [-- --iterations N]
//! ```
//! Prints one JSON object per operation: median, p99 and mean in ns.

use std::time::Instant;

use wgpu_core::global::Global;
use wgpu_types as wgt;

fn main() {
    let mut iterations: usize = 20_000;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next().and_then(|v| v.parse().ok())) {
            ("--iterations", Some(n)) if n > 0 => iterations = n,
            _ => {
                eprintln!("usage: core_floor [--iterations N]");
                std::process::exit(2);
            }
        }
    }
    if let Err(why) = run(iterations) {
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

fn run(n: usize) -> Result<(), String> {
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
        let (commands, error) =
            global.command_encoder_finish(encoder, &wgt::CommandBufferDescriptor { label: None }, None);
        if let Some((_, e)) = error {
            return Err(format!("finish: {e}"));
        }
        let submitted = global.queue_submit(queue, &[commands]);
        global.command_buffer_drop(commands);
        global.command_encoder_drop(encoder);
        submitted.map(|_| ()).map_err(|(_, e)| format!("submit: {e}"))
    })?;
    report("empty_submit", &mut ns);
    global.device_poll(device, wgt::PollType::wait_indefinitely()).map_err(|e| format!("poll: {e}"))?;
    global.queue_drop(queue);
    global.device_drop(device);
    global.adapter_drop(adapter);
    Ok(())
}
