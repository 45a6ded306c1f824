//! Fuzz target: negotiation's invariants for the session inbox on arbitrary bytes — the
//! family-generic ones of one `negotiate --lines` request, and the family's own (its lookups).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some(v) = hookwire::invariants::json(data) {
        hookwire::invariants::check_negotiate(&hookwire::session_inbox::FAMILY, &v);
        hookwire::session_inbox::invariants::check_negotiate(&v);
    }
});
