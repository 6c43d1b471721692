//! Sequences of API calls: the bytes drive up to 48 calls on a lavapipe
//! device: buffers created (valid, invalid, mapped at creation), mapped in
//! any mode, range, callback mode (also invalid ones), unmapped, destroyed,
//! referenced and released in any order; writes, copies and submissions;
//! work-done futures and error scopes; WaitAny on any futures (also unknown
//! ids) with any timeout; ProcessEvents; polls; and, rarely, destroying the
//! device with work in flight (target `api_seq_lost` only).
//!
//! Two targets run it. `api_seq` never destroys the device, so every input
//! runs on the same one. `api_seq_lost` may; the next input then needs a
//! new adapter and device, which under AddressSanitizer and libFuzzer's
//! comparison hooks costs about 55 ms (lavapipe's `vkCreateDevice` alone
//! compares hundreds of entry-point names), against about 2 ms for an input
//! that keeps its device. Coverage guidance kept destroying inputs at about
//! 30 % of the corpus, which held one target to about 50 inputs a second.
//!
//! Checked after every call and at the end of each input:
//! - every callback runs exactly once (the end waits for each one; a second
//!   call or a call after the input is over is reported);
//! - WaitAnyOnly callbacks run only inside WaitAny, AllowProcessEvents ones
//!   only inside WaitAny or ProcessEvents, both on the calling thread;
//! - the map state follows the state machine (webgpu-behaviour.md section 9):
//!   Pending after an accepted MapAsync, Mapped after Success is delivered,
//!   Unmapped after Unmap or Destroy, whose pending map ends Aborted; a map
//!   with valid arguments on a valid, unmapped buffer ends Success, one
//!   with invalid arguments Error;
//! - WaitAny's statuses and `completed` flags agree with the callbacks.
//!
//! A hang is caught by libFuzzer's -timeout (scripts/fuzz.sh sets it).
use std::cell::Cell;
use std::ffi::c_void;
use std::sync::atomic::{AtomicPtr, AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::*;

thread_local! {
    /// 1 inside WaitAny, 2 inside ProcessEvents, on the fuzzing thread.
    static INSIDE: Cell<u8> = const { Cell::new(0) };
}

/// What one callback saw.
struct Rec {
    calls: AtomicU32,
    status: AtomicU32,
    mode: WGPUCallbackMode,
    /// The map state read inside a map callback (0: not a map, or not read).
    state_in_callback: AtomicU32,
    /// The buffer a map callback reads the state of (NULL once the input
    /// dropped its last reference).
    buffer: AtomicPtr<WGPUBufferImpl>,
    problem: Mutex<Option<String>>,
}

impl Rec {
    fn new(mode: WGPUCallbackMode, buffer: WGPUBuffer) -> Box<Rec> {
        Box::new(Rec {
            calls: AtomicU32::new(0),
            status: AtomicU32::new(0),
            mode,
            state_in_callback: AtomicU32::new(0),
            buffer: AtomicPtr::new(buffer),
            problem: Mutex::new(None),
        })
    }
    fn fired(&self) -> bool {
        self.calls.load(Ordering::Acquire) > 0
    }
    /// Records one call; checks the thread and the call it runs inside.
    fn called(&self, status: u32) {
        let inside = INSIDE.try_with(Cell::get).unwrap_or(0);
        let bad = match self.mode {
            WGPUCallbackMode::WaitAnyOnly => inside != 1,
            WGPUCallbackMode::AllowProcessEvents => inside == 0,
            _ => false,
        };
        if bad {
            *self.problem.lock().unwrap() =
                Some(format!("mode {:?} callback ran outside its call (inside = {inside})", self.mode.0));
        }
        self.status.store(status, Ordering::Relaxed);
        if self.calls.fetch_add(1, Ordering::AcqRel) != 0 {
            *self.problem.lock().unwrap() = Some("a callback ran twice".into());
        }
    }
}

unsafe extern "C" fn on_map(status: WGPUMapAsyncStatus, _m: WGPUStringView, u1: *mut c_void, _u2: *mut c_void) {
    // SAFETY: u1 is a Rec that lives until its call was seen.
    let rec = unsafe { &*u1.cast::<Rec>() };
    let buffer = rec.buffer.load(Ordering::Relaxed);
    if rec.mode != WGPUCallbackMode::AllowSpontaneous && !buffer.is_null() {
        // SAFETY: the input holds a reference to the buffer (else it is NULL).
        let s = unsafe { wgpuBufferGetMapState(buffer) };
        rec.state_in_callback.store(s.0, Ordering::Relaxed);
    }
    rec.called(status.0);
}

unsafe extern "C" fn on_done(status: WGPUQueueWorkDoneStatus, _m: WGPUStringView, u1: *mut c_void, _u2: *mut c_void) {
    // SAFETY: as in on_map.
    unsafe { &*u1.cast::<Rec>() }.called(status.0);
}

unsafe extern "C" fn on_pop(
    status: WGPUPopErrorScopeStatus,
    _t: WGPUErrorType,
    _m: WGPUStringView,
    u1: *mut c_void,
    _u2: *mut c_void,
) {
    // SAFETY: as in on_map.
    unsafe { &*u1.cast::<Rec>() }.called(status.0);
}

/// What the model expects of a pending map.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Expect {
    Success,
    Error,
    /// Aborted (unmap, destroy, device lost) or anything not modelled.
    Any,
}

struct Pending {
    future: WGPUFuture,
    rec: Box<Rec>,
    /// For maps: the slot and what is expected.
    map: Option<(usize, Expect)>,
    /// Unmap or destroy of the buffer came before the callback: Aborted.
    aborted: bool,
    /// MapAsync on a buffer that was not Unmapped: Error.
    want_error: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Model {
    Unmapped,
    Pending,
    Mapped,
}

struct Slot {
    buffer: WGPUBuffer,
    refs: u32,
    size: u64,
    usage: u64,
    /// Created from a descriptor known to be valid.
    valid: bool,
    destroyed: bool,
    state: Model,
    /// The index in `pending` of this buffer's map, while one is pending.
    map: Option<usize>,
}

struct State<'g> {
    gpu: &'g mut Gpu,
    slots: Vec<Slot>,
    pending: Vec<Pending>,
    lost: bool,
    scopes: u32,
    /// The input may destroy the device (the `api_seq_lost` target).
    device_loss: bool,
}

const GOOD_USAGES: [u64; 3] = [
    WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst,
    WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc,
    WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst | WGPUBufferUsage_Storage,
];

static DATA: [u8; 4096] = [7u8; 4096];

fn mode_of(b: &mut Bytes<'_>) -> WGPUCallbackMode {
    match b.u8() % 16 {
        0..=4 => WGPUCallbackMode::WaitAnyOnly,
        5..=9 => WGPUCallbackMode::AllowProcessEvents,
        10..=14 => WGPUCallbackMode::AllowSpontaneous,
        _ => WGPUCallbackMode(if b.u8() < 128 { 0 } else { b.u32() }),
    }
}

fn valid_mode(m: WGPUCallbackMode) -> bool {
    (1..=3).contains(&m.0)
}

impl State<'_> {
    fn check(&self, ok: bool, what: &str) {
        assert!(ok, "invariant broken: {what}");
    }

    /// A call with an invalid callback mode is rejected, and still calls
    /// back exactly once, with Error (0x3 for every status enum used here),
    /// by its return, and returns the null future, as Dawn does
    /// (docs/DECISIONS.md, "A rejected asynchronous call").
    fn check_rejected(&self, future: WGPUFuture, rec: &Rec, what: &str) {
        self.check(future.id == 0, &format!("{what} with an invalid mode returned a future other than the null one"));
        self.check(
            rec.calls.load(Ordering::Acquire) == 1,
            &format!("{what} with an invalid mode did not call back once"),
        );
        self.check(
            rec.status.load(Ordering::Relaxed) == 3,
            &format!("{what} with an invalid mode: status is not Error"),
        );
    }

    fn map_state(&self, i: usize) -> WGPUBufferMapState {
        // SAFETY: the slot holds a reference.
        unsafe { wgpuBufferGetMapState(self.slots[i].buffer) }
    }

    /// Applies delivered map callbacks to the model and checks them.
    fn settle(&mut self) {
        for p in 0..self.pending.len() {
            let Some((slot, expect)) = self.pending[p].map else { continue };
            if !self.pending[p].rec.fired() || self.slots[slot].map != Some(p) {
                continue;
            }
            let status = WGPUMapAsyncStatus(self.pending[p].rec.status.load(Ordering::Relaxed));
            let spont = self.pending[p].rec.mode == WGPUCallbackMode::AllowSpontaneous;
            if !spont {
                match expect {
                    Expect::Success => self.check(status == WGPUMapAsyncStatus::Success, "valid map did not succeed"),
                    Expect::Error => self.check(status == WGPUMapAsyncStatus::Error, "invalid map did not give Error"),
                    Expect::Any => {}
                }
                let seen = self.pending[p].rec.state_in_callback.load(Ordering::Relaxed);
                let want = if status == WGPUMapAsyncStatus::Success {
                    WGPUBufferMapState::Mapped
                } else {
                    WGPUBufferMapState::Unmapped
                };
                self.check(seen == 0 || seen == want.0, "map state inside the map callback");
            }
            self.slots[slot].state =
                if status == WGPUMapAsyncStatus::Success { Model::Mapped } else { Model::Unmapped };
            self.slots[slot].map = None;
        }
        for (i, s) in self.slots.iter().enumerate() {
            if s.refs == 0 {
                continue;
            }
            let real = self.map_state(i);
            let spont = s.map.is_some_and(|p| self.pending[p].rec.mode == WGPUCallbackMode::AllowSpontaneous);
            let expect = s.map.and_then(|p| self.pending[p].map).map(|(_, e)| e);
            let ok = match s.state {
                Model::Unmapped => real == WGPUBufferMapState::Unmapped,
                Model::Mapped => real == WGPUBufferMapState::Mapped,
                // A map that fails validation may put the state back to
                // Unmapped at once (before its callback is delivered).
                Model::Pending => {
                    real == WGPUBufferMapState::Pending
                        || (spont && real != WGPUBufferMapState(0))
                        || (expect != Some(Expect::Success) && real == WGPUBufferMapState::Unmapped)
                }
            };
            self.check(
                ok,
                &format!(
                    "map state {} where the model says {:?} (valid {}, destroyed {}, lost {}, pending map expects {:?})",
                    real.0, s.state as u8, s.valid, s.destroyed, self.lost, expect
                ),
            );
        }
        for p in &self.pending {
            if let Some(problem) = p.rec.problem.lock().unwrap().as_ref() {
                panic!("invariant broken: {problem}");
            }
            if p.want_error && p.rec.fired() && p.rec.mode != WGPUCallbackMode::AllowSpontaneous {
                let s = p.rec.status.load(Ordering::Relaxed);
                self.check(s == WGPUMapAsyncStatus::Error.0, "MapAsync on a mapped or pending buffer was not Error");
            }
            if p.aborted && p.rec.fired() && p.rec.mode != WGPUCallbackMode::AllowSpontaneous {
                // Aborted unless it had been delivered before the unmap
                // (then `aborted` is not set).
                let s = p.rec.status.load(Ordering::Relaxed);
                self.check(s == WGPUMapAsyncStatus::Aborted.0, "map pending at unmap/destroy was not Aborted");
            }
        }
    }

    fn slot_pick(&self, b: &mut Bytes<'_>) -> Option<usize> {
        let live: Vec<usize> = (0..self.slots.len()).filter(|&i| self.slots[i].refs > 0).collect();
        if live.is_empty() {
            None
        } else {
            Some(live[usize::from(b.u8()) % live.len()])
        }
    }

    /// Ends a pending map's model on unmap or destroy; `was_pending`: the
    /// buffer's real state just before was Pending (a map that failed
    /// validation may already be back to Unmapped: its Error stands).
    fn abort_map(&mut self, i: usize, was_pending: bool) {
        if let Some(p) = self.slots[i].map.take() {
            if !self.pending[p].rec.fired() && was_pending {
                self.pending[p].aborted = true;
            }
            if self.pending[p].rec.mode == WGPUCallbackMode::AllowSpontaneous {
                self.pending[p].map = None;
            }
        }
        self.slots[i].state = Model::Unmapped;
    }

    unsafe fn op(&mut self, b: &mut Bytes<'_>) {
        let dev = self.gpu.device;
        match b.u8() % 16 {
            0 | 1 => {
                if self.slots.len() >= 8 {
                    return;
                }
                let mut d: WGPUBufferDescriptor = zeroed();
                d.label = WGPU_STRING_VIEW_INIT;
                let pick = b.u8();
                d.usage = if pick < 220 { GOOD_USAGES[usize::from(pick) % 3] } else { b.u64() };
                d.size = match b.u8() % 4 {
                    0 => 0,
                    1 => u64::from(b.u8()) * 4,
                    2 => 256,
                    _ => u64::from(b.u16()) % 4099,
                };
                d.mappedAtCreation = u32::from(b.u8() > 200);
                let buffer = wgpuDeviceCreateBuffer(dev, &d);
                self.check(!buffer.is_null(), "CreateBuffer returned NULL");
                let valid = pick < 220 && (d.mappedAtCreation == 0 || d.size % 4 == 0) && !self.lost;
                let state = if d.mappedAtCreation != 0 && (valid || !self.lost) && d.size % 4 == 0 {
                    Model::Mapped
                } else {
                    Model::Unmapped
                };
                self.slots.push(Slot {
                    buffer,
                    refs: 1,
                    size: d.size,
                    usage: d.usage,
                    valid,
                    destroyed: false,
                    state,
                    map: None,
                });
                let i = self.slots.len() - 1;
                // An invalid descriptor's mappedAtCreation: take what the
                // library says (it is still mapped if the size allows).
                if !valid {
                    self.slots[i].state = match self.map_state(i) {
                        WGPUBufferMapState::Mapped => Model::Mapped,
                        _ => Model::Unmapped,
                    };
                }
            }
            2..=4 => {
                let Some(i) = self.slot_pick(b) else { return };
                let mode_bits = match b.u8() % 8 {
                    0..=2 => WGPUMapMode_Read,
                    3..=5 => WGPUMapMode_Write,
                    6 => WGPUMapMode_Read | WGPUMapMode_Write,
                    _ => u64::from(b.u8()),
                };
                let offset = match b.u8() % 4 {
                    0 | 1 => 0,
                    2 => usize::from(b.u8()) * 8,
                    _ => usize::from(b.u16()),
                };
                let size = match b.u8() % 4 {
                    0 => WGPU_WHOLE_MAP_SIZE,
                    1 => usize::from(b.u8()) * 4,
                    2 => 0,
                    _ => usize::from(b.u16()),
                };
                let mode = mode_of(b);
                let rec = Rec::new(mode, self.slots[i].buffer);
                let mut info: WGPUBufferMapCallbackInfo = zeroed();
                info.mode = mode;
                info.callback = Some(on_map);
                info.userdata1 = (&*rec as *const Rec).cast_mut().cast();
                let s = &self.slots[i];
                let range =
                    if size == WGPU_WHOLE_MAP_SIZE { s.size.saturating_sub(offset as u64) } else { size as u64 };
                let args_ok = offset % 8 == 0
                    && range % 4 == 0
                    && (offset as u64).checked_add(range).is_some_and(|e| e <= s.size)
                    && ((mode_bits == WGPUMapMode_Read && s.usage & WGPUBufferUsage_MapRead != 0)
                        || (mode_bits == WGPUMapMode_Write && s.usage & WGPUBufferUsage_MapWrite != 0));
                let was = s.state;
                let expect = if self.lost || !s.valid {
                    Expect::Any
                } else if was != Model::Unmapped || s.destroyed || !args_ok {
                    Expect::Error
                } else {
                    Expect::Success
                };
                let future = wgpuBufferMapAsync(s.buffer, mode_bits, offset, size, info);
                if !valid_mode(mode) {
                    self.check_rejected(future, &rec, "MapAsync");
                    return;
                }
                self.check(future.id != 0, "MapAsync returned future 0");
                let p = self.pending.len();
                // On a buffer that is not Unmapped the existing map is not
                // touched, and this one gets Error (unless the device is lost).
                let want_error = was != Model::Unmapped && !self.lost && s.valid;
                self.pending.push(Pending { future, rec, map: None, aborted: false, want_error });
                if was == Model::Unmapped {
                    if expect != Expect::Success && self.map_state(i) == WGPUBufferMapState::Unmapped {
                        // Failed validation at once: back to Unmapped
                        // already, the callback (Error) still to come; the
                        // buffer can be mapped again meanwhile.
                        self.pending[p].want_error = expect == Expect::Error;
                    } else {
                        self.pending[p].map = Some((i, expect));
                        self.slots[i].state = Model::Pending;
                        self.slots[i].map = Some(p);
                    }
                }
            }
            5 => {
                let Some(i) = self.slot_pick(b) else { return };
                let was_pending = self.map_state(i) == WGPUBufferMapState::Pending;
                wgpuBufferUnmap(self.slots[i].buffer);
                self.abort_map(i, was_pending);
            }
            6 => {
                let Some(i) = self.slot_pick(b) else { return };
                let was_pending = self.map_state(i) == WGPUBufferMapState::Pending;
                wgpuBufferDestroy(self.slots[i].buffer);
                self.abort_map(i, was_pending);
                self.slots[i].destroyed = true;
            }
            7 => {
                let Some(i) = self.slot_pick(b) else { return };
                if b.u8() < 100 {
                    wgpuBufferAddRef(self.slots[i].buffer);
                    self.slots[i].refs += 1;
                } else {
                    wgpuBufferRelease(self.slots[i].buffer);
                    self.slots[i].refs -= 1;
                    if self.slots[i].refs == 0 {
                        // Its map callbacks still come once; they no longer
                        // read its state, and the model forgets it.
                        let buffer = self.slots[i].buffer;
                        for p in &mut self.pending {
                            if p.rec.buffer.load(Ordering::Relaxed) == buffer {
                                p.rec.buffer.store(std::ptr::null_mut(), Ordering::Relaxed);
                                p.map = None;
                                p.aborted = false;
                                p.want_error = false;
                            }
                        }
                        self.slots[i].map = None;
                        self.slots[i].state = Model::Unmapped;
                    }
                }
            }
            8 => {
                let Some(i) = self.slot_pick(b) else { return };
                let offset = u64::from(b.u16() & 0x1ffc);
                let size = usize::from(b.u16()) % (DATA.len() + 1);
                wgpuQueueWriteBuffer(self.gpu.queue, self.slots[i].buffer, offset, DATA.as_ptr().cast(), size);
            }
            9 => {
                let enc = wgpuDeviceCreateCommandEncoder(dev, std::ptr::null());
                for _ in 0..b.count(2) {
                    let (Some(s), Some(d)) = (self.slot_pick(b), self.slot_pick(b)) else { break };
                    let (so, dof, n) = (u64::from(b.u8()) * 4, u64::from(b.u8()) * 4, u64::from(b.u8()) * 4);
                    if b.u8() < 128 {
                        wgpuCommandEncoderCopyBufferToBuffer(
                            enc,
                            self.slots[s].buffer,
                            so,
                            self.slots[d].buffer,
                            dof,
                            n,
                        );
                    } else {
                        wgpuCommandEncoderClearBuffer(
                            enc,
                            self.slots[d].buffer,
                            dof,
                            if n == 0 { u64::MAX } else { n },
                        );
                    }
                }
                let cb = wgpuCommandEncoderFinish(enc, std::ptr::null());
                let twice = b.u8() > 230;
                wgpuQueueSubmit(self.gpu.queue, 1, &cb);
                if twice {
                    wgpuQueueSubmit(self.gpu.queue, 1, &cb);
                }
                wgpuCommandBufferRelease(cb);
                wgpuCommandEncoderRelease(enc);
            }
            10 => {
                let mode = mode_of(b);
                let rec = Rec::new(mode, std::ptr::null_mut());
                let mut info: WGPUQueueWorkDoneCallbackInfo = zeroed();
                info.mode = mode;
                info.callback = Some(on_done);
                info.userdata1 = (&*rec as *const Rec).cast_mut().cast();
                let future = wgpuQueueOnSubmittedWorkDone(self.gpu.queue, info);
                if valid_mode(mode) {
                    self.pending.push(Pending { future, rec, map: None, aborted: false, want_error: false });
                } else {
                    self.check_rejected(future, &rec, "OnSubmittedWorkDone");
                }
            }
            11 => {
                if b.u8() < 128 && self.scopes < 4 {
                    wgpuDevicePushErrorScope(dev, WGPUErrorFilter(b.enum_u32(4)));
                    self.scopes += 1;
                } else {
                    let mode = mode_of(b);
                    let rec = Rec::new(mode, std::ptr::null_mut());
                    let mut info: WGPUPopErrorScopeCallbackInfo = zeroed();
                    info.mode = mode;
                    info.callback = Some(on_pop);
                    info.userdata1 = (&*rec as *const Rec).cast_mut().cast();
                    let future = wgpuDevicePopErrorScope(dev, info);
                    if valid_mode(mode) {
                        self.scopes = self.scopes.saturating_sub(1);
                        self.pending.push(Pending { future, rec, map: None, aborted: false, want_error: false });
                    } else {
                        self.check_rejected(future, &rec, "PopErrorScope");
                    }
                }
            }
            12 | 13 => {
                // WaitAny on some pending futures, perhaps with unknown ids.
                let mut infos = Vec::new();
                let mut which = Vec::new();
                for _ in 0..b.count(4) {
                    if !self.pending.is_empty() && b.u8() < 230 {
                        let p = usize::from(b.u8()) % self.pending.len();
                        infos.push(WGPUFutureWaitInfo { future: self.pending[p].future, completed: 0 });
                        which.push(Some(p));
                    } else {
                        infos.push(WGPUFutureWaitInfo { future: WGPUFuture { id: b.u64() | 1 << 63 }, completed: 0 });
                        which.push(None);
                    }
                }
                let timeout = match b.u8() % 4 {
                    0 | 1 => 0,
                    2 => 1_000_000,
                    _ => u64::from(b.u16()) * 1000,
                };
                INSIDE.with(|c| c.set(1));
                let st = wgpuInstanceWaitAny(self.gpu.instance, infos.len(), infos.as_mut_ptr(), timeout);
                INSIDE.with(|c| c.set(0));
                let unknown = which.iter().any(Option::is_none);
                if infos.is_empty() {
                    // Nothing to check of an empty wait.
                } else if unknown {
                    self.check(st == WGPUWaitStatus::Error, "WaitAny with an unknown future id did not give Error");
                } else if st == WGPUWaitStatus::Success {
                    self.check(infos.iter().any(|i| i.completed != 0), "WaitAny Success with nothing completed");
                }
                if st == WGPUWaitStatus::Success {
                    for (info, p) in infos.iter().zip(&which) {
                        if let (true, Some(p)) = (info.completed != 0, p) {
                            let rec = &self.pending[*p].rec;
                            let mode = rec.mode;
                            if mode != WGPUCallbackMode::AllowSpontaneous {
                                self.check(rec.fired(), "completed future whose callback did not run");
                            }
                        }
                    }
                }
            }
            14 => {
                INSIDE.with(|c| c.set(2));
                wgpuInstanceProcessEvents(self.gpu.instance);
                INSIDE.with(|c| c.set(0));
            }
            _ => {
                if b.u8() == 255 && b.u8() > 250 && self.device_loss {
                    // Rarely: the device dies with everything in flight
                    // (`api_seq_lost` only; `api_seq` polls instead).
                    let was: Vec<bool> = (0..self.slots.len())
                        .map(|i| self.slots[i].refs > 0 && self.map_state(i) == WGPUBufferMapState::Pending)
                        .collect();
                    wgpuDeviceDestroy(dev);
                    self.lost = true;
                    // Destroying the device destroys every buffer: each is
                    // Unmapped, its pending map Aborted.
                    for i in 0..self.slots.len() {
                        if self.slots[i].refs > 0 {
                            self.abort_map(i, was[i]);
                            self.slots[i].destroyed = true;
                        }
                    }
                } else {
                    // wgpu.h's poll runs AllowProcessEvents callbacks too.
                    INSIDE.with(|c| c.set(2));
                    wgpuDevicePoll(dev, u32::from(b.u8() > 200), std::ptr::null());
                    INSIDE.with(|c| c.set(0));
                }
            }
        }
    }

    /// Waits for every callback still owed, then checks each ran once.
    unsafe fn drain(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        for p in 0..self.pending.len() {
            if self.pending[p].rec.fired() {
                continue;
            }
            match self.pending[p].rec.mode {
                WGPUCallbackMode::WaitAnyOnly => {
                    let mut info = WGPUFutureWaitInfo { future: self.pending[p].future, completed: 0 };
                    INSIDE.with(|c| c.set(1));
                    let st = wgpuInstanceWaitAny(self.gpu.instance, 1, &mut info, u64::MAX);
                    INSIDE.with(|c| c.set(0));
                    self.check(st == WGPUWaitStatus::Success && info.completed != 0, "final WaitAny");
                }
                _ => {
                    while !self.pending[p].rec.fired() {
                        self.check(Instant::now() < deadline, "a callback never came (20 s)");
                        INSIDE.with(|c| c.set(2));
                        wgpuInstanceProcessEvents(self.gpu.instance);
                        INSIDE.with(|c| c.set(0));
                        if !self.pending[p].rec.fired() {
                            std::thread::sleep(Duration::from_micros(100));
                        }
                    }
                }
            }
            self.settle();
        }
        self.settle();
        for p in &self.pending {
            self.check(p.rec.calls.load(Ordering::Acquire) == 1, "a callback did not run exactly once");
        }
    }
}

/// Runs one input: up to 48 calls, then waits for every callback owed and
/// releases what the input holds. With `device_loss` an input may destroy
/// the device (a new one is made for the next input); without, that call
/// is a poll.
pub fn run(data: &[u8], device_loss: bool) {
    static GPU: Mutex<Option<Gpu>> = Mutex::new(None);
    let mut guard = GPU.lock().unwrap_or_else(|e| e.into_inner());
    let gpu = guard.get_or_insert_with(make_gpu);
    let mut b = Bytes::new(data);
    let mut st = State { gpu, slots: Vec::new(), pending: Vec::new(), lost: false, scopes: 0, device_loss };
    for _ in 0..48 {
        if b.is_empty() {
            break;
        }
        // SAFETY: every handle used is held by the state; descriptors are
        // built in place.
        unsafe { st.op(&mut b) };
        st.settle();
    }
    // SAFETY: as above.
    unsafe {
        st.drain();
        // Close the error scopes this input left open (their callbacks are
        // drained by the same rule).
        for _ in 0..st.scopes {
            let rec = Rec::new(WGPUCallbackMode::AllowProcessEvents, std::ptr::null_mut());
            let mut info: WGPUPopErrorScopeCallbackInfo = zeroed();
            info.mode = WGPUCallbackMode::AllowProcessEvents;
            info.callback = Some(on_pop);
            info.userdata1 = (&*rec as *const Rec).cast_mut().cast();
            let future = wgpuDevicePopErrorScope(st.gpu.device, info);
            st.pending.push(Pending { future, rec, map: None, aborted: false, want_error: false });
        }
        st.drain();
        for s in &st.slots {
            for _ in 0..s.refs {
                wgpuBufferRelease(s.buffer);
            }
        }
        let lost = st.lost;
        drop(st);
        if lost {
            // A new device for the next input.
            let g = guard.as_mut().unwrap();
            wgpuQueueRelease(g.queue);
            wgpuDeviceRelease(g.device);
            wgpuAdapterRelease(g.adapter);
            g.adapter = make_adapter(g.instance);
            g.device = make_device(g.instance, g.adapter);
            g.queue = wgpuDeviceGetQueue(g.device);
        }
    }
}
