//! Per-wait records of the wait ladder's long waits, for finding where a
//! late wake-up comes from on a real GPU (`WGPU_SHIM_WAIT_TRACE`).
//!
//! A benchmark's medians say how late callbacks come after long jobs, not
//! why. With `WGPU_SHIM_WAIT_TRACE=PATH`, each long wait that the wait
//! ladder learns from appends one tab-separated line to `PATH`: which
//! thread waited, whether it counts from the job's submission (`since`:
//! `submit`) or from its own start (`wait`: the submission was not a recent
//! one), how many submissions were outstanding (`behind`), how long the job
//! took from there to the end the thread saw, what the ladder predicted and
//! with which lead and spread, when its nap and its window's spin were set
//! to end, how the sleep ended ([`EarlyEnd`]), and what length the wait
//! taught. The first line names
//! the columns. Short waits (those the first rung's spin covers) are not
//! recorded.
//!
//! A record is written when its wait has seen the job's end, before the
//! callbacks run: one `write` of about a hundred bytes, a microsecond or
//! two, under a lock shared by the process's waiters. So a traced run
//! measures wake-ups slightly later than an untraced one; the records are
//! for diagnosis, not for published figures. The file is opened (created,
//! or appended to) at the first long wait; if it cannot be, an error is
//! logged once and nothing is recorded.

use std::fs::File;
use std::io::Write;
use std::sync::OnceLock;
use std::time::Instant;

use parking_lot::Mutex;

use super::spin::{elapsed_ns, EarlyEnd};

/// Which thread waited.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Waiter {
    /// The device's progress thread (spontaneous callbacks).
    Progress,
    /// An application thread in `wgpuInstanceWaitAny` or `wgpuDevicePoll`.
    Direct,
}

/// One long wait, as the wait ladder saw it. Times count from the job's
/// submission, in nanoseconds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Record {
    pub(crate) waiter: Waiter,
    /// Whether the times count from the job's submission (else from the
    /// wait's start: the submission was not a recent one).
    pub(crate) since_submit: bool,
    /// How many submissions were not done when the wait began.
    pub(crate) behind: u64,
    /// Until the thread saw the job's end.
    pub(crate) waited_ns: u64,
    /// The predicted length before this wait was learned (0: none yet).
    pub(crate) predicted_ns: u64,
    /// The early wake's lead and its spread (how far recent jobs strayed).
    pub(crate) lead_ns: u64,
    pub(crate) spread_ns: u64,
    /// When the nap (or timed sleep) and the window's spin were set to end;
    /// `None` for a wait without an early wake.
    pub(crate) early: Option<(u64, u64, EarlyEnd)>,
    /// The length the wait taught the prediction.
    pub(crate) counted_ns: u64,
}

/// The header line: the columns of [`Record::line`].
const HEADER: &str =
    "t_ns\twaiter\tsince\tbehind\twaited_ns\tpredicted_ns\tlead_ns\tspread_ns\tnap_until_ns\twindow_until_ns\tend\tcounted_ns\n";

impl Record {
    /// The record as a line of `HEADER`'s columns; `t_ns` is when it was
    /// written, from the trace's start.
    fn line(&self, t_ns: u64) -> String {
        let waiter = match self.waiter {
            Waiter::Progress => "progress",
            Waiter::Direct => "direct",
        };
        let (nap, window, end) = match self.early {
            Some((nap, window, end)) => (nap.to_string(), window.to_string(), end_name(end)),
            None => ("-".to_string(), "-".to_string(), "none"),
        };
        let since = if self.since_submit { "submit" } else { "wait" };
        format!(
            "{t_ns}\t{waiter}\t{since}\t{}\t{}\t{}\t{}\t{}\t{nap}\t{window}\t{end}\t{}\n",
            self.behind, self.waited_ns, self.predicted_ns, self.lead_ns, self.spread_ns, self.counted_ns
        )
    }
}

fn end_name(end: EarlyEnd) -> &'static str {
    match end {
        EarlyEnd::Seen => "seen",
        EarlyEnd::Nudged => "nudged",
        EarlyEnd::Slept => "slept",
        EarlyEnd::Failed => "failed",
    }
}

/// An open trace file.
pub(crate) struct Trace {
    file: Mutex<File>,
    start: Instant,
}

impl Trace {
    /// Opens `path` for appending (created if missing) and writes the
    /// header.
    pub(crate) fn open(path: &std::path::Path) -> std::io::Result<Trace> {
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
        file.write_all(HEADER.as_bytes())?;
        Ok(Trace { file: Mutex::new(file), start: Instant::now() })
    }

    /// Appends `record`. A failed write is logged once per trace and the
    /// record is dropped: tracing never fails a wait.
    pub(crate) fn write(&self, record: &Record) {
        let t_ns = elapsed_ns(self.start);
        let line = record.line(t_ns);
        if let Err(err) = self.file.lock().write_all(line.as_bytes()) {
            static LOGGED: std::sync::Once = std::sync::Once::new();
            LOGGED.call_once(
                || log::error!(target: "wgpu_shim", "WGPU_SHIM_WAIT_TRACE: a record could not be written ({err})"),
            );
        }
    }
}

/// The process's trace, opened from `WGPU_SHIM_WAIT_TRACE` at the first
/// call; `None` when the variable is unset or empty, or the file cannot be
/// opened (logged).
fn trace() -> Option<&'static Trace> {
    static TRACE: OnceLock<Option<Trace>> = OnceLock::new();
    TRACE
        .get_or_init(|| {
            let path = std::env::var_os("WGPU_SHIM_WAIT_TRACE").filter(|p| !p.is_empty())?;
            match Trace::open(std::path::Path::new(&path)) {
                Ok(trace) => Some(trace),
                Err(err) => {
                    log::error!(target: "wgpu_shim", "WGPU_SHIM_WAIT_TRACE={path:?}: cannot open it ({err}); waits are not recorded");
                    None
                }
            }
        })
        .as_ref()
}

/// Whether long waits are being recorded.
#[inline]
pub(crate) fn on() -> bool {
    trace().is_some()
}

/// Records a long wait, when tracing is on.
pub(crate) fn record(record: &Record) {
    if let Some(trace) = trace() {
        trace.write(record);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_lines_under_the_header() {
        let dir = std::env::temp_dir().join(format!("wgpu-shim-wait-trace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("trace.tsv");
        let _ = std::fs::remove_file(&path);
        let trace = Trace::open(&path).expect("open");
        trace.write(&Record {
            waiter: Waiter::Direct,
            since_submit: true,
            behind: 1,
            waited_ns: 10_100_000,
            predicted_ns: 10_050_000,
            lead_ns: 40_000,
            spread_ns: 6_000,
            early: Some((10_004_000, 10_106_000, EarlyEnd::Nudged)),
            counted_ns: 9_964_000,
        });
        trace.write(&Record {
            waiter: Waiter::Progress,
            since_submit: false,
            behind: 2,
            waited_ns: 200_000,
            predicted_ns: 0,
            lead_ns: 150_000,
            spread_ns: 0,
            early: None,
            counted_ns: 200_000,
        });
        let text = std::fs::read_to_string(&path).expect("read");
        let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
        assert_eq!(lines.len(), 3, "{text}");
        let columns = HEADER.trim_end().split('\t').count();
        assert!(lines.iter().all(|l| l.len() == columns), "every line has the header's columns: {text}");
        assert_eq!(
            &lines[1][1..],
            [
                "direct", "submit", "1", "10100000", "10050000", "40000", "6000", "10004000", "10106000", "nudged",
                "9964000"
            ]
        );
        assert_eq!(&lines[2][1..], ["progress", "wait", "2", "200000", "0", "150000", "0", "-", "-", "none", "200000"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_path_that_cannot_be_opened_is_an_error() {
        let path = std::env::temp_dir().join("wgpu-shim-no-such-dir").join("x").join("trace.tsv");
        assert!(Trace::open(&path).is_err());
    }
}
