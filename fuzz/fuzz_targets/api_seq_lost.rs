//! Sequences of API calls that may also destroy the device with work in
//! flight (the calls and the checks: `wgpu_shim_fuzz::api_seq`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| wgpu_shim_fuzz::api_seq::run(data, true));
