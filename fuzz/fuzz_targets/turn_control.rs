//! Fuzz target: `hookwire::invariants::check_turn_control` on arbitrary bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hookwire::invariants::check_turn_control(data));
