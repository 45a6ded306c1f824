//! Fuzz target: the family-generic decode invariants (`hookwire::invariants::check_decode`) for
//! the session inbox, on arbitrary bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some(v) = hookwire::invariants::json(data) {
        hookwire::invariants::check_decode(&hookwire::session_inbox::FAMILY, &v);
    }
});
