//! Fuzz target: the family-generic encode invariants (`hookwire::invariants::check_encode`) for
//! the session inbox, on arbitrary bytes (a command for every target, or `{command, target}`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some(v) = hookwire::invariants::json(data) {
        hookwire::invariants::check_encode(&hookwire::session_inbox::FAMILY, &v);
    }
});
