//! Negotiation (contract §6, §12, §16): every rule as data (`fixtures/session-inbox/negotiate`,
//! the exact requests and answers of `hookwire negotiate --lines`), and the state machine driven
//! the way Rust callers drive it: synchronously, and step by step as an async caller would.

mod common;

use hookwire::session_inbox::encode::{Target, V0Variant};
use hookwire::session_inbox::target::{negotiate, start, Destination, Hook, NegotiateError, Next, Options, Resume};
use hookwire::{EncodeError, ErrorCode};
use serde_json::{json, Value};

// The negotiation fixtures (`fixtures/session-inbox/negotiate`) run in tests/fixtures.rs.

fn hook(token: &str, run: &str, metadata: Option<Value>) -> Hook {
    Hook {
        token: token.into(),
        run_id: run.into(),
        metadata,
    }
}

#[test]
fn the_inspected_hook_object_is_what_gets_resumed() {
    let stamped = hook("cont-1", "run-1", Some(json!({"sessionInboxWireVersion": 4})));
    let mut calls = 0;
    let n = negotiate(
        &json!({"kind": "deliver", "payloads": []}),
        &Destination::Token("cont-1".into()),
        &Options::default(),
        |_| {
            calls += 1;
            Ok::<_, String>(Some(stamped.clone()))
        },
    )
    .unwrap();
    assert_eq!((n.target, n.lookups, calls), (Target::Version(4), 1, 1));
    assert_eq!(n.resume, Resume::Hook(stamped));
}

#[test]
fn a_failed_lookup_refuses_and_is_never_not_found() {
    let e = negotiate(
        &json!({"kind": "deliver", "payloads": []}),
        &Destination::Token("cont-1".into()),
        &Options::default(),
        |_| Err::<Option<Hook>, _>("connection reset"),
    )
    .unwrap_err();
    assert_eq!(e.code(), ErrorCode::LookupFailed);
    assert!(matches!(
        e,
        NegotiateError::Lookup {
            error: "connection reset",
            ..
        }
    ));
    let e = EncodeError::from(e);
    assert_eq!(e.code, ErrorCode::LookupFailed);
    assert!(e.message.contains("connection reset"), "{}", e.message);
}

#[test]
fn the_state_machine_can_be_driven_step_by_step() {
    // What an async caller does: each lookup is awaited between two steps of the machine.
    let command = json!({"kind": "deliver", "payloads": []});
    let Next::Lookup(first) = start::<Hook>(&command, &Destination::Token("c-1".into()), &Options::default()) else {
        panic!("a continuation token needs a lookup");
    };
    assert_eq!((first.token(), first.count()), ("c-1", 1));
    let Next::Lookup(second) = first.answer(Ok(Some(hook("c-1", "run-9", None)))) else {
        panic!("a markerless continuation needs its stable inbox");
    };
    assert_eq!((second.token(), second.count()), ("eve:session:run-9:inbox", 2));
    let Next::Done(Ok(n)) = second.answer(Ok(None)) else {
        panic!("no stable inbox: v0 deliver");
    };
    assert_eq!((n.target, n.lookups), (Target::V0(V0Variant::Deliver), 2));
    assert_eq!(n.resume, Resume::Hook(hook("c-1", "run-9", None)));
}

#[test]
fn the_write_ceiling_is_a_version_of_this_build() {
    for bad in [0, hookwire::session_inbox::WIRE_VERSION + 1] {
        assert!(Options::default().with_write_ceiling(bad).is_err(), "{bad}");
    }
    assert_eq!(Options::default().with_write_ceiling(5).unwrap().write_ceiling, 5);
}
