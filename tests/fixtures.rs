//! Data-driven contract tests for every registered family (`hookwire::FAMILIES`): decode
//! fixtures, encode fixtures for every target with their byte-frozen outputs, frozen schemas,
//! negotiation fixtures and the registry guard — the shared checks of `hookwire::conformance`.
//! The file name is the case name.

mod common;

use common::root;
use hookwire::artifacts::blessing;
use hookwire::conformance::{
    cases, check_decode_fixtures, check_encode_fixtures, check_family, check_negotiate_fixtures,
    check_outputs_have_cases, check_schemas, decode_dirs,
};
use hookwire::FAMILIES;
use serde_json::Value;

fn each(check: impl Fn(&hookwire::family::FamilyDesc) -> Vec<String>) {
    let mut failures = Vec::new();
    for f in FAMILIES {
        failures.extend(check(f).into_iter().map(|m| format!("{}: {m}", f.name())));
    }
    common::report(failures);
}

#[test]
fn decode_fixtures() {
    each(|f| check_decode_fixtures(f, &root()));
}

#[test]
fn encode_fixtures_and_frozen_bytes() {
    each(|f| check_encode_fixtures(f, &root(), blessing()));
}

#[test]
fn every_frozen_output_has_its_case() {
    each(|f| check_outputs_have_cases(f, &root()));
}

#[test]
fn every_version_has_its_frozen_schema() {
    each(|f| check_schemas(f, &root(), blessing()));
}

#[test]
fn negotiate_fixtures() {
    each(|f| check_negotiate_fixtures(f, &root()));
}

#[test]
fn every_family_passes_the_whole_harness() {
    each(|f| check_family(f, &root(), false));
    for f in FAMILIES {
        let decoded: usize = decode_dirs(&root(), f.name())
            .iter()
            .map(|d| cases(&root(), f.name(), d).len())
            .sum();
        assert!(decoded >= 20, "{}: too few decode fixtures ({decoded})", f.name());
    }
}

/// Decode is idempotent on every unversioned value it decodes, and on every versioned value an
/// encoder could have written (one its version's frozen shape accepts): contract §4.5.
#[test]
fn decode_never_keeps_wire_only_fields_and_is_idempotent() {
    for f in FAMILIES {
        for dir in decode_dirs(&root(), f.name()) {
            for case in cases(&root(), f.name(), &dir) {
                let input = &case.data["input"];
                if let Ok(d) = (f.decode)(input) {
                    let m = d.as_object().unwrap();
                    assert!(
                        !m.contains_key("version") && !m.contains_key("payload"),
                        "{}",
                        case.name
                    );
                    let encodable = match input.get("version").and_then(Value::as_u64) {
                        None | Some(0) => true,
                        Some(n) => f.version(n as u32).is_some_and(|p| p.validate(input).is_ok()),
                    };
                    if encodable {
                        assert_eq!((f.decode)(&d), Ok(d.clone()), "{}", case.name);
                    }
                }
            }
        }
    }
}
