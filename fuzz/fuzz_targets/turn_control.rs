//! Fuzz target: turn control on arbitrary bytes — every family-generic invariant
//! (`hookwire::invariants::check_family`) and the family's own (its round trip, negotiation from
//! any capabilities).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    hookwire::invariants::check_family(&hookwire::turn_control::FAMILY, data);
    if let Some(v) = hookwire::invariants::json(data) {
        hookwire::turn_control::invariants::check(&v);
    }
});
