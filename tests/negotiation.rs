//! Negotiation (contract §6): every rule, with the lookups counted and the inspected hook handed
//! back for the resume.

use hookwire::session_inbox::encode::{Target, V0Variant};
use hookwire::session_inbox::target::{
    classify, classify_continuation, negotiate, Classified, Destination, Hook, InboxTokens, ReceiverAddress, Resume,
};
use hookwire::ErrorCode;
use serde_json::{json, Value};
use std::cell::Cell;

fn hook(token: &str, run: &str, metadata: Option<Value>) -> Hook {
    Hook {
        token: token.into(),
        run_id: run.into(),
        metadata,
    }
}

/// A fake hook store that counts lookups.
struct Store {
    hooks: Vec<Hook>,
    calls: Cell<u32>,
}

impl Store {
    fn lookup(&self) -> impl FnMut(&str) -> Option<Hook> + '_ {
        move |token| {
            self.calls.set(self.calls.get() + 1);
            self.hooks.iter().find(|h| h.token == token).cloned()
        }
    }
}

const DELIVER: &str = r#"{"kind":"deliver","payloads":[]}"#;

fn deliver() -> Value {
    serde_json::from_str(DELIVER).unwrap()
}

#[test]
fn a_stamped_hook_gets_its_version_after_one_lookup_and_is_resumed_as_inspected() {
    let stamped = hook(
        "cont-1",
        "run-1",
        Some(json!({"sessionInboxWireVersion": 1, "other": true})),
    );
    let store = Store {
        hooks: vec![stamped.clone()],
        calls: Cell::new(0),
    };
    let n = negotiate(
        &deliver(),
        &Destination::Token("cont-1".into()),
        &InboxTokens::default(),
        store.lookup(),
    )
    .unwrap();
    assert_eq!(n.target, Target::Version(1));
    assert_eq!((n.lookups, store.calls.get()), (1, 1));
    assert_eq!(n.resume, Resume::Hook(stamped));
}

#[test]
fn an_unsupported_stamp_fails_before_anything_is_written() {
    for stamp in [json!(2), json!(0), json!("1"), json!(null), json!(1.5)] {
        let h = hook("cont-1", "run-1", Some(json!({ "sessionInboxWireVersion": stamp })));
        let e = classify(&h, &InboxTokens::default()).unwrap_err();
        assert_eq!(e.code, ErrorCode::UnsupportedTarget, "{stamp}");
    }
}

#[test]
fn a_markerless_stable_inbox_gets_raw_send() {
    let h = hook("eve:session:run-1:inbox", "run-1", None);
    assert_eq!(
        classify(&h, &InboxTokens::default()).unwrap(),
        Classified::Target(Target::V0(V0Variant::Send))
    );
    let h = hook("eve:session:run-1:inbox", "run-1", Some(json!({"unrelated": 1})));
    assert_eq!(
        classify(&h, &InboxTokens::default()).unwrap(),
        Classified::Target(Target::V0(V0Variant::Send))
    );
}

#[test]
fn a_markerless_continuation_looks_up_the_stable_inbox() {
    let tokens = InboxTokens::default();
    let cont = hook("cont-1", "run-1", None);
    assert_eq!(
        classify(&cont, &tokens).unwrap(),
        Classified::LookupStableInbox("eve:session:run-1:inbox".into())
    );
    let same = hook("eve:session:run-1:inbox", "run-1", None);
    let other = hook("eve:session:run-1:inbox", "run-2", None);
    assert_eq!(
        classify_continuation(&cont, Some(&same)).unwrap(),
        Target::V0(V0Variant::Send)
    );
    assert_eq!(
        classify_continuation(&cont, None::<&Hook>).unwrap(),
        Target::V0(V0Variant::Deliver)
    );
    assert_eq!(
        classify_continuation(&cont, Some(&other)).unwrap_err().code,
        ErrorCode::RunMismatch
    );
}

#[test]
fn negotiate_counts_two_lookups_for_a_markerless_continuation() {
    let tokens = InboxTokens::default();
    let cont = hook("cont-1", "run-1", None);
    for (inbox, expected) in [
        (
            Some(hook("eve:session:run-1:inbox", "run-1", None)),
            Ok(Target::V0(V0Variant::Send)),
        ),
        (None, Ok(Target::V0(V0Variant::Deliver))),
        (
            Some(hook("eve:session:run-1:inbox", "run-9", None)),
            Err(ErrorCode::RunMismatch),
        ),
    ] {
        let store = Store {
            hooks: std::iter::once(cont.clone()).chain(inbox).collect(),
            calls: Cell::new(0),
        };
        let got = negotiate(
            &deliver(),
            &Destination::Token("cont-1".into()),
            &tokens,
            store.lookup(),
        );
        assert_eq!(got.as_ref().map(|n| n.target).map_err(|e| e.code), expected);
        assert_eq!(store.calls.get(), 2);
        if let Ok(n) = got {
            assert_eq!((n.lookups, n.resume), (2, Resume::Hook(cont.clone())));
        }
    }
}

#[test]
fn fast_paths_make_zero_lookups() {
    let tokens = InboxTokens::default();
    let store = Store {
        hooks: vec![],
        calls: Cell::new(0),
    };
    let addr = Destination::Address(ReceiverAddress {
        session_id: "s-1".into(),
        version: 1,
    });
    let n = negotiate(&deliver(), &addr, &tokens, store.lookup()).unwrap();
    assert_eq!((n.target, n.lookups), (Target::Version(1), 0));

    let stable = Destination::Token("eve:session:run-1:inbox".into());
    for command in [
        json!({"kind": "send", "payload": {}}),
        json!({"kind": "cancel"}),
        json!({"kind": "reset"}),
    ] {
        let n = negotiate(&command, &stable, &tokens, store.lookup()).unwrap();
        assert_eq!((n.target, n.lookups), (Target::V0(V0Variant::Send), 0));
        assert_eq!(n.resume, Resume::Token("eve:session:run-1:inbox".into()));
    }
    assert_eq!(store.calls.get(), 0);

    let bad = Destination::Address(ReceiverAddress {
        session_id: "s-1".into(),
        version: 7,
    });
    assert_eq!(
        negotiate(&deliver(), &bad, &tokens, store.lookup()).unwrap_err().code,
        ErrorCode::UnsupportedTarget
    );
}

#[test]
fn a_deliver_to_a_stable_token_is_inspected() {
    let tokens = InboxTokens::default();
    let inbox = hook(
        "eve:session:run-1:inbox",
        "run-1",
        Some(json!({"sessionInboxWireVersion": 1})),
    );
    let store = Store {
        hooks: vec![inbox.clone()],
        calls: Cell::new(0),
    };
    let n = negotiate(
        &deliver(),
        &Destination::Token(inbox.token.clone()),
        &tokens,
        store.lookup(),
    )
    .unwrap();
    assert_eq!((n.target, n.lookups), (Target::Version(1), 1));
}

#[test]
fn the_stable_token_form_is_configurable() {
    let tokens = InboxTokens {
        prefix: "app:".into(),
        suffix: ":in".into(),
    };
    let h = hook("app:run-1:in", "run-1", None);
    assert_eq!(
        classify(&h, &tokens).unwrap(),
        Classified::Target(Target::V0(V0Variant::Send))
    );
    assert!(!tokens.is_stable("eve:session:run-1:inbox"));
}
