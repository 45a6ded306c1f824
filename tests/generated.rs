//! Generated files that CI checks but never writes: the JS contract module and the TypeScript
//! declarations of `pkg/`. `HOOKWIRE_BLESS=1 cargo test` rewrites them.

mod common;

use hookwire::jsgen::{
    contract_js, contract_js_for, encoder_declarations, turn_control_declarations, typescript_declarations,
    TURN_CONTROL,
};

fn compare(rel: &str, generated: &str) {
    let path = common::root().join(rel);
    if hookwire::artifacts::blessing() {
        std::fs::write(&path, generated).unwrap();
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == generated,
        "{rel} is stale: regenerate it with HOOKWIRE_BLESS=1 cargo test"
    );
}

#[test]
fn js_contract_is_current() {
    compare("js/contract.js", &contract_js());
}

#[test]
fn typescript_declarations_are_current() {
    compare("js/hookwire.d.ts", &typescript_declarations());
}

#[test]
fn declarations_name_every_kind_and_code() {
    let ts = typescript_declarations();
    for kind in [
        "\"deliver\"",
        "\"session-timeout\"",
        "\"clear\"",
        "\"compact\"",
        "\"reset\"",
        "\"cancel\"",
    ] {
        assert!(ts.contains(&format!("readonly kind: {kind};")), "{kind}");
    }
    // The decoded values (`export type SessionInbox<Kind> = {…}`) hold no wire-only field.
    for name in ["Deliver", "SessionTimeout", "Clear", "Compact", "Reset", "Cancel"] {
        let head = format!("export type SessionInbox{name} = {{");
        let start = ts.find(&head).unwrap_or_else(|| panic!("no {head}"));
        let body = ts[start..].split("};").next().unwrap_or("");
        assert!(
            !body.contains("readonly version")
                && !body.contains("readonly payload?:")
                && !body.contains("readonly payload:"),
            "wire-only fields are not decoded: {body}"
        );
    }
    assert!(!ts.contains(": any") && !ts.contains("<any>"));
    for code in hookwire::ErrorCode::ALL {
        assert!(ts.contains(code.as_str()));
    }
}

#[test]
fn encoder_declarations_are_current() {
    compare("js/encoder.d.ts", &encoder_declarations());
}

#[test]
fn turn_control_js_is_current() {
    compare("js/turn-control-contract.js", &contract_js_for(&TURN_CONTROL));
    compare("js/turn-control.d.ts", &turn_control_declarations());
}
