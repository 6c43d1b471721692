//! The log sink C users see.
//!
//! Messages from wgpu-shim, wgpu-core, wgpu-hal and naga go to stderr, one line
//! each, prefixed with `[wgpu-shim LEVEL target]`. The level comes from the
//! `WGPU_SHIM_LOG` environment variable (`off`, `error`, `warn`, `info`,
//! `debug`, `trace`; default `warn`), read once when the first instance is
//! created or the first message is logged. `wgpuSetLogCallback` and
//! `wgpuSetLogLevel` (wgpu.h, `native/log.rs`) redirect and filter them.

use std::io::Write;
use std::sync::Once;

struct StderrSink;

impl log::Log for StderrSink {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= log::max_level()
    }

    fn log(&self, record: &log::Record<'_>) {
        if !self.enabled(record.metadata()) || crate::native::log::forward(record) {
            return;
        }
        // One write per line so that lines from different threads do not mix.
        let line = format!("[wgpu-shim {} {}] {}\n", record.level(), record.target(), record.args());
        let _ = std::io::stderr().lock().write_all(line.as_bytes());
    }

    fn flush(&self) {
        let _ = std::io::stderr().flush();
    }
}

static SINK: StderrSink = StderrSink;
static INIT: Once = Once::new();

/// Parses a `WGPU_SHIM_LOG` value; `None` for an unknown one.
pub(crate) fn parse_level(value: &str) -> Option<log::LevelFilter> {
    match value.trim().to_ascii_lowercase().as_str() {
        "off" | "none" | "0" => Some(log::LevelFilter::Off),
        "error" => Some(log::LevelFilter::Error),
        "warn" | "warning" => Some(log::LevelFilter::Warn),
        "info" => Some(log::LevelFilter::Info),
        "debug" => Some(log::LevelFilter::Debug),
        "trace" => Some(log::LevelFilter::Trace),
        _ => None,
    }
}

/// Installs the stderr sink unless the host process already installed a
/// `log` logger of its own (a Rust program linking the rlib), in which case
/// messages go there.
pub(crate) fn init() {
    INIT.call_once(|| {
        let requested = std::env::var("WGPU_SHIM_LOG").ok();
        let level = requested
            .as_deref()
            .and_then(parse_level)
            .unwrap_or(log::LevelFilter::Warn);
        if log::set_logger(&SINK).is_ok() {
            log::set_max_level(level);
            if let Some(value) = requested.filter(|v| parse_level(v).is_none()) {
                log::warn!(target: "wgpu_shim", "WGPU_SHIM_LOG={value:?} is not a level (off, error, warn, info, debug, trace); using warn");
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::parse_level;

    #[test]
    fn levels_parse() {
        assert_eq!(parse_level("TRACE"), Some(log::LevelFilter::Trace));
        assert_eq!(parse_level(" warn "), Some(log::LevelFilter::Warn));
        assert_eq!(parse_level("off"), Some(log::LevelFilter::Off));
        assert_eq!(parse_level("loud"), None);
    }
}
