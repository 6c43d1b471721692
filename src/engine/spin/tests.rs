//! The wait ladder's unit tests (`spin.rs`).

use super::*;

fn spin(cpu: bool, cap: u64) -> Spin {
    Spin::new(cpu, std::sync::Arc::new(AtomicU64::new(cap)))
}

#[test]
fn long_waits_turn_the_spin_off_and_short_ones_bring_it_back() {
    let spin = spin(false, UNSET);
    assert_eq!(spin.budget_ns(), if env_cap_ns() == UNSET { DEFAULT_GPU_CAP_NS } else { env_cap_ns() });
    if env_cap_ns() != UNSET {
        return; // the environment fixes the cap; the rest assumes the default
    }
    spin.note(Duration::from_millis(100));
    assert_eq!(spin.budget_ns(), 0, "after a long wait the next one sleeps at once");
    let mut short = 0;
    while spin.budget_ns() == 0 {
        spin.note(Duration::from_micros(20));
        short += 1;
        assert!(short < 100);
    }
    assert!(short > 5, "one short wait does not undo a long one");
}

#[test]
fn the_wake_rung_follows_long_regular_waits() {
    if env_cap_ns() != UNSET {
        return;
    }
    let spin = spin(false, UNSET);
    assert_eq!(spin.wake_rung_with(Rung::On, WakeEnd::Timed), None, "no history: a plain sleep");
    for _ in 0..64 {
        spin.note(Duration::from_millis(100));
    }
    let (sleep, window) = spin.wake_rung_with(Rung::On, WakeEnd::Timed).expect("a long regular wait has a wake rung");
    let lead = LEAD_CAPS * DEFAULT_GPU_CAP_NS;
    assert!(sleep < 100_000_000 && sleep + lead >= 99_000_000, "sleeps until just before the end: {sleep}");
    assert_eq!(window, lead + DEFAULT_GPU_CAP_NS, "then spins at most the lead and one cap");
    assert_eq!(
        self::spin(true, UNSET).wake_rung_with(Rung::On, WakeEnd::Timed),
        None,
        "CPU adapters do not spin by default"
    );
    assert_eq!(self::spin(false, 0).wake_rung_with(Rung::On, WakeEnd::Timed), None, "a cap of 0 turns it off");
    assert_eq!(spin.wake_rung_with(Rung::Off, WakeEnd::Timed), None, "off: a plain sleep");
    assert_eq!(
        spin.wake_rung_with(Rung::Auto, WakeEnd::Timed),
        spin.wake_rung_with(Rung::On, WakeEnd::Timed),
        "auto: a 100 ms wait has it"
    );
    assert_eq!(
        spin.wake_rung(WakeEnd::Timed),
        spin.wake_rung_with(rung_setting(), WakeEnd::Timed),
        "the setting decides"
    );
}

#[test]
fn short_waits_between_long_ones_leave_the_wake_rung_alone() {
    if env_cap_ns() != UNSET {
        return;
    }
    let spin = spin(false, UNSET);
    let lead = LEAD_CAPS * DEFAULT_GPU_CAP_NS;
    // A 10 ms job, then a short readback, again and again.
    for _ in 0..8 {
        spin.note(Duration::from_millis(10));
        spin.note(Duration::from_micros(30));
    }
    assert_eq!(spin.wake_rung_with(Rung::On, WakeEnd::Timed), Some((10_000_000 - lead, lead + DEFAULT_GPU_CAP_NS)));
    assert_eq!(
        spin.wake_rung_with(Rung::Auto, WakeEnd::Timed),
        None,
        "auto, timed: a 10 ms wait sleeps until the GPU signals"
    );
    assert_eq!(
        spin.wake_rung_with(Rung::Auto, WakeEnd::Nap),
        spin.wake_rung_with(Rung::On, WakeEnd::Nap),
        "auto, napping: a 10 ms wait has it"
    );
    // A job of a new length is followed at its first wait.
    spin.note(Duration::from_millis(100));
    assert_eq!(spin.wake_rung_with(Rung::On, WakeEnd::Timed).map(|(early, _)| early), Some(100_000_000 - lead));
    // Small changes are averaged (and widen the window: the deviation,
    // a quarter of 4 ms, doubled, is over a 400th of the wait).
    spin.note(Duration::from_millis(104));
    let spread = 101_000_000 / SPREAD_DIVISOR;
    assert_eq!(
        spin.wake_rung_with(Rung::On, WakeEnd::Timed).map(|(early, _)| early),
        Some(101_000_000 - lead - spread)
    );
}

#[test]
fn a_napping_early_wake_takes_its_lead_from_the_naps_lateness() {
    if env_cap_ns() != UNSET {
        return;
    }
    let spin = spin(false, UNSET);
    let caps = LEAD_CAPS * DEFAULT_GPU_CAP_NS;
    for _ in 0..8 {
        spin.note(Duration::from_millis(10));
    }
    let rung = |end| spin.wake_rung_with(Rung::On, end);
    assert_eq!(rung(WakeEnd::Nap), Some((10_000_000 - caps, caps + DEFAULT_GPU_CAP_NS)), "no lateness seen: the caps");
    spin.note_nap(Duration::from_micros(12));
    let lead = 12_000 + NAP_MARGIN_NS;
    assert_eq!(rung(WakeEnd::Nap), Some((10_000_000 - lead, lead + DEFAULT_GPU_CAP_NS)), "the lateness and a margin");
    assert_eq!(rung(WakeEnd::Timed).map(|(early, _)| early), Some(10_000_000 - caps), "a timed wait keeps the caps");
    spin.nap_late.0.store(1, Ordering::Relaxed);
    assert_eq!(rung(WakeEnd::Nap).map(|(early, _)| early), Some(10_000_000 - NAP_MIN_LEAD_NS), "at least the minimum");
    for _ in 0..64 {
        spin.note_nap(Duration::from_millis(5));
    }
    let most = 10_000_000 / NAP_LEAD_DIVISOR;
    assert_eq!(rung(WakeEnd::Nap).map(|(early, _)| early), Some(10_000_000 - most), "slow naps: a 64th of the wait");
    for _ in 0..8 {
        spin.note(Duration::from_millis(200));
    }
    assert_eq!(rung(WakeEnd::Nap).map(|(early, _)| early), Some(200_000_000 - NAP_MAX_LEAD_NS), "at most 1 ms");
    for _ in 0..8 {
        spin.note(Duration::from_millis(4));
    }
    assert_eq!(rung(WakeEnd::Nap).map(|(early, _)| early), Some(4_000_000 - caps), "never less than the caps allow");
}

#[test]
fn the_lateness_estimate_sits_near_the_ninth_decile() {
    let spin = spin(false, UNSET);
    // Wakes 40 to 130 µs late, evenly spread, over and over.
    for i in 0..4000u64 {
        spin.note_nap(Duration::from_micros(40 + (i * 37) % 91));
    }
    let late = spin.nap_late.ns();
    assert!((105_000..=128_000).contains(&late), "about nine wakes in ten come before it: {late}");
    // A run of earlier wakes brings it down slowly, a later one up fast.
    spin.note_nap(Duration::from_micros(10));
    assert!(spin.nap_late.ns() > late - late / 16);
    spin.note_nap(Duration::from_micros(500));
    assert!(spin.nap_late.ns() > late + 80_000);
}

#[test]
fn jobs_that_stray_widen_the_window_within_a_bound() {
    if env_cap_ns() != UNSET {
        return;
    }
    let cap = DEFAULT_GPU_CAP_NS;
    let lead = LEAD_CAPS * cap;
    let spin = spin(false, UNSET);
    for _ in 0..32 {
        spin.note(Duration::from_millis(100));
    }
    assert_eq!(
        spin.wake_rung_with(Rung::On, WakeEnd::Timed),
        Some((100_000_000 - lead, lead + cap)),
        "steady: no spread"
    );
    // 100 ms jobs, 60 µs either side.
    for i in 0..64 {
        spin.note(Duration::from_micros(if i % 2 == 0 { 99_940 } else { 100_060 }));
    }
    let (early, window) = spin.wake_rung_with(Rung::On, WakeEnd::Timed).expect("a rung");
    let spread = spin.long_ns.load(Ordering::Relaxed) - lead - early;
    assert!((80_000..=140_000).contains(&spread), "about twice the deviation: {spread}");
    assert_eq!(window, lead + cap + 2 * spread, "on both sides of the predicted end");
    // Jobs that stray far: the spread stops at a 400th of the wait.
    for i in 0..64 {
        spin.note(Duration::from_micros(if i % 2 == 0 { 98_000 } else { 102_000 }));
    }
    let (early, _) = spin.wake_rung_with(Rung::On, WakeEnd::Timed).expect("a rung");
    let long = spin.long_ns.load(Ordering::Relaxed);
    assert_eq!(long - lead - early, long / SPREAD_DIVISOR);
    // A job of a new length starts without spread.
    spin.note(Duration::from_millis(50));
    assert_eq!(spin.wake_rung_with(Rung::On, WakeEnd::Timed), Some((50_000_000 - lead, lead + cap)));
}

#[test]
fn ends_a_driver_reported_are_learned_a_lead_earlier() {
    if env_cap_ns() != UNSET {
        return;
    }
    let job = Duration::from_millis(10);
    // The watcher's driver wake-up reports each end 120 µs late, beyond
    // the lead (naps wake 25 µs late: a lead of 35 µs).
    let nudged = job + Duration::from_micros(120);
    let warmed = || {
        let spin = spin(false, UNSET);
        spin.note_nap(Duration::from_micros(25));
        for _ in 0..8 {
            spin.note(nudged);
        }
        spin
    };
    let nap_end = |spin: &Spin| {
        let (early, window) = spin.wake_rung_with(Rung::On, WakeEnd::Nap).expect("a rung");
        (Duration::from_nanos(early), Duration::from_nanos(early + window))
    };
    // Learned as they come, nudged ends keep every nap past the job's end.
    let stuck = warmed();
    for _ in 0..64 {
        stuck.note(nudged);
    }
    assert!(nap_end(&stuck).0 > job, "the nap ends after the job: {:?}", nap_end(&stuck).0);
    // Counted a lead earlier and no later than the nap's time, a few
    // nudges bring the nap's end before the job's.
    let spin = warmed();
    let mut nudges = 0;
    while nap_end(&spin).0 >= job {
        let before = spin.long_ns.load(Ordering::Relaxed);
        spin.note_early(nudged, nap_end(&spin), EarlyEnd::Nudged);
        let after = spin.long_ns.load(Ordering::Relaxed);
        assert!(before - after >= 17_500, "at least half a lead a nudge: {before} -> {after}");
        nudges += 1;
        assert!(nudges <= 8, "still past the job after {nudges} nudges");
    }
    // Ends a spin saw count as they are.
    let long = spin.long_ns.load(Ordering::Relaxed);
    spin.note_early(job, nap_end(&spin), EarlyEnd::Seen);
    assert_eq!(spin.long_ns.load(Ordering::Relaxed), long - long / 4 + 10_000_000 / 4);
    // An end a driver sleep saw after the window counts no earlier than
    // the window's end.
    let spin = warmed();
    let (_, until) = nap_end(&spin);
    let check = warmed();
    spin.note_early(until + Duration::from_micros(10), nap_end(&spin), EarlyEnd::Slept);
    check.note(until);
    assert_eq!(spin.long_ns.load(Ordering::Relaxed), check.long_ns.load(Ordering::Relaxed));
}

#[test]
fn caps_and_the_cpu_default() {
    if env_cap_ns() != UNSET {
        return;
    }
    assert_eq!(spin(true, UNSET).budget_ns(), 0, "CPU adapters do not spin by default");
    assert_eq!(spin(true, 20_000).budget_ns(), 20_000, "the instance's setting applies");
    assert_eq!(spin(false, 0).budget_ns(), 0, "0 turns it off");
    assert_eq!(spin(false, u64::MAX - 1).cap_ns(), MAX_CAP_NS);
}

#[test]
fn the_nap_learns_from_spins_and_shrinks_when_it_oversleeps() {
    assert!(std::env::var_os("WGPU_SHIM_NAP_US").is_some() || nap_lead_ns().is_none(), "napping is off by default");
    if env_cap_ns() != UNSET {
        return; // the environment changes the cap; the rest assumes the default
    }
    let lead = 8_000;
    let nap = |s: &Spin| s.nap_ns(s.budget_ns(), Some(lead));
    let s = spin(false, UNSET);
    assert_eq!(nap(&s), None, "nothing learned: no nap");
    let mut n = 0;
    assert!(s.short_with(Some(lead), || {
        n += 1;
        n == 50
    }));
    assert!(s.short_ns.load(Ordering::Relaxed) > 0, "a wait a spin saw end is learned");
    // A prediction longer than the budget, or too short to sleep through
    // part of, gives no nap.
    s.short_ns.store(DEFAULT_GPU_CAP_NS + 1, Ordering::Relaxed);
    assert_eq!(nap(&s), None);
    s.short_ns.store(lead + MIN_NAP_NS - 1, Ordering::Relaxed);
    assert_eq!(nap(&s), None);
    let predicted = lead + 30_000;
    s.short_ns.store(predicted, Ordering::Relaxed);
    assert_eq!(nap(&s), Some(30_000));
    // Not done before the nap, done after it: the prediction shrinks by
    // an eighth, whatever the nap's real length was.
    let mut checks = 0;
    assert!(s.short_with(Some(lead), || {
        checks += 1;
        checks == 2
    }));
    assert_eq!(checks, 2, "one check before the nap, one after");
    assert_eq!(s.short_ns.load(Ordering::Relaxed), predicted - predicted / 8);
    assert!(!self::spin(false, 0).short_with(Some(lead), || true), "a cap of 0: no rung at all");
    assert_eq!(s.nap_ns(s.budget_ns(), None), None, "no lead: no nap");
}

#[test]
fn spin_ends_when_done_or_at_the_budget() {
    let mut n = 0;
    assert!(Spin::spin(1_000_000_000, || {
        n += 1;
        n == 3
    }));
    let start = Instant::now();
    assert!(!Spin::spin(200_000, || false));
    assert!(start.elapsed() >= Duration::from_micros(200));
    assert!(!Spin::spin(0, || true), "a zero budget does not even look");
}

#[test]
fn trace_records_hold_long_waits_as_the_ladder_saw_them() {
    if env_cap_ns() != UNSET {
        return;
    }
    let spin = spin(false, UNSET);
    let from = |waiter, submitted| (waiter, Begun { at: Instant::now(), submitted, behind: 1 });
    // A short wait (within two caps) is the first rung's: no record.
    assert!(spin.trace_record(from(Waiter::Direct, true), Duration::from_micros(60), None).is_none());
    // A long one without an early wake is recorded with the prediction it
    // found (none yet).
    let first = spin.trace_record(from(Waiter::Progress, false), Duration::from_millis(10), None).expect("a record");
    assert_eq!(
        (first.waiter, first.since_submit, first.waited_ns, first.predicted_ns, first.early.is_none()),
        (Waiter::Progress, false, 10_000_000, 0, true)
    );
    spin.note(Duration::from_millis(10));
    // An early wake's times and end are kept, and the prediction is the
    // one before this wait is learned.
    let times = (Duration::from_micros(9_800), Duration::from_micros(10_050));
    let rec = spin
        .trace_record(from(Waiter::Direct, true), Duration::from_micros(10_030), Some((times, EarlyEnd::Seen)))
        .expect("a record");
    assert_eq!(rec.predicted_ns, 10_000_000);
    assert_eq!(rec.early, Some((9_800_000, 10_050_000, EarlyEnd::Seen)));
    assert_eq!(rec.lead_ns, spin.lead_ns(spin.cap_ns(), WakeEnd::Nap, 10_000_000));
}
