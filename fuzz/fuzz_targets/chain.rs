//! Fuzz target: `hookwire::session_inbox::invariants::check_chain` on arbitrary bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some(v) = hookwire::invariants::json(data) {
        hookwire::session_inbox::invariants::check_chain(&v);
    }
});
