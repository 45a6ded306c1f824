//! Adversarial tests of the typed layer (`session_inbox::{Command, Decoded}`,
//! `turn_control::Message`, the serde forms of `Target`, `Hook`, `Destination`): it adds no rule
//! to the JSON layer, so over fixtures mutated at random the two layers answer alike, and every
//! typed value round-trips through serde and through encode/decode.

mod common;

use common::{cases, root, Rng, DECODE_DIRS, ENCODE_DIRS};
use hookwire::session_inbox::target::{Destination, Hook, ReceiverAddress};
use hookwire::session_inbox::{self, Command, Decoded, Target};
use hookwire::turn_control::{self, Message};
use serde_json::{json, Value};

/// Keys either family's envelopes declare, and a few they do not.
const KEYS: &[&str] = &[
    "kind",
    "version",
    "payload",
    "payloads",
    "auth",
    "caller",
    "delivery",
    "deliveryMetadata",
    "requestId",
    "taskDeliveryId",
    "turnPolicy",
    "reason",
    "taskId",
    "tasks",
    "turnId",
    "action",
    "bufferedDeliveries",
    "error",
    "continuationToken",
    "inboxToken",
    "extra",
];

/// Every kind either family decodes, the unversioned `send`, and near-misses.
static KINDS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    let mut all = common::kind_names(
        session_inbox::KINDS,
        session_inbox::symbols::SYMBOLS,
        &["send", "sessionTimeout", "Clear"],
    );
    all.extend(common::kind_names(
        turn_control::KINDS,
        turn_control::symbols::SYMBOLS,
        &[],
    ));
    all
});

fn leaf(r: &mut Rng) -> Value {
    match r.below(12) {
        0 => Value::Null,
        1 => json!(true),
        2 => json!(false),
        3 => json!(0),
        4 => json!(1.5),
        5 => json!(6),
        6 => json!("queue"),
        7 => json!("steer"),
        8 => json!(""),
        9 => json!([]),
        10 => json!({}),
        _ => json!(KINDS[r.below(KINDS.len())]),
    }
}

/// `v` with one random edit: a key removed, set, or added, at the top or one level down.
fn mutate(r: &mut Rng, v: &mut Value, depth: u32) {
    let Value::Object(m) = v else {
        *v = leaf(r);
        return;
    };
    let keys: Vec<String> = m.keys().cloned().collect();
    match r.below(6) {
        0 if !keys.is_empty() => {
            let k = &keys[r.below(keys.len())];
            m.remove(k);
        }
        1 if !keys.is_empty() && depth == 0 => {
            let k = keys[r.below(keys.len())].clone();
            let inner = m.get_mut(&k).unwrap();
            match inner {
                Value::Array(a) if !a.is_empty() => {
                    let i = r.below(a.len());
                    mutate(r, &mut a[i], depth + 1);
                }
                _ => mutate(r, inner, depth + 1),
            }
        }
        2 => {
            m.insert("kind".into(), json!(KINDS[r.below(KINDS.len())]));
        }
        _ => {
            let k = KEYS[r.below(KEYS.len())];
            let x = leaf(r);
            m.insert(k.into(), x);
        }
    }
}

fn seeds(dirs: &[&str], key: &str) -> Vec<Value> {
    dirs.iter()
        .flat_map(|d| cases(d))
        .filter_map(|c| c.data.get(key).cloned())
        .collect()
}

fn turn_control_seeds(key: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let base = root().join("fixtures/turn-control");
    for dir in std::fs::read_dir(base).unwrap().flatten().filter(|d| d.path().is_dir()) {
        for file in std::fs::read_dir(dir.path()).unwrap().flatten() {
            let case: Value = serde_json::from_str(&std::fs::read_to_string(file.path()).unwrap()).unwrap();
            if let Some(v) = case.get(key) {
                out.push(v.clone());
            }
        }
    }
    out
}

fn mutants(seeds: &[Value], per_seed: usize, salt: u64) -> Vec<Value> {
    let scale: usize = std::env::var("ADV_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let per_seed = per_seed * scale;
    let mut r = Rng(0x5DEE_CE66_D1CE_4E5B ^ salt);
    let mut out = Vec::new();
    for s in seeds {
        out.push(s.clone());
        for _ in 0..per_seed {
            let mut v = s.clone();
            for _ in 0..(1 + r.below(3)) {
                mutate(&mut r, &mut v, 0);
            }
            out.push(v);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Session inbox

#[test]
fn typed_decode_answers_what_the_json_decode_answers_over_mutated_wire_values() {
    let mut failures = Vec::new();
    for v in mutants(&seeds(DECODE_DIRS, "input"), 12, 1) {
        let typed = Decoded::decode(&v).map(|d| d.to_value());
        let dynamic = session_inbox::decode(&v);
        match (&typed, &dynamic) {
            (Ok(t), Ok(d)) if t == d => {}
            (Err(t), Err(d)) if t.code == d.code => {}
            _ => failures.push(format!("{v}: typed {typed:?}, json {dynamic:?}")),
        }
        if let Ok(d) = Decoded::decode(&v) {
            let back: Result<Decoded, _> = serde_json::from_value(d.to_value());
            if back.as_ref().ok() != Some(&d) {
                failures.push(format!("{v}: decoded {d:?} reads back as {back:?}"));
            }
        }
    }
    common::report(failures);
}

#[test]
fn a_command_the_typed_layer_parses_encodes_as_its_json_and_one_it_refuses_is_refused() {
    let mut failures = Vec::new();
    let mut parsed = 0;
    for v in mutants(&seeds(ENCODE_DIRS, "command"), 12, 2) {
        match serde_json::from_value::<Command>(v.clone()) {
            Ok(c) => {
                parsed += 1;
                let back: Result<Command, _> = serde_json::from_value(c.to_value());
                if back.as_ref().ok() != Some(&c) {
                    failures.push(format!("{v}: {c:?} reads back as {back:?}"));
                }
                for t in Target::all() {
                    let typed = c.encode(t);
                    let dynamic = session_inbox::encode::encode(&v, t);
                    if typed != dynamic {
                        failures.push(format!("{v} for {}: typed {typed:?}, json {dynamic:?}", t.name()));
                    }
                    // What is written decodes, typed, to what the JSON decode answers.
                    if let Ok(wire) = &typed {
                        let d = Decoded::decode(wire).map(|d| d.to_value());
                        if d != session_inbox::decode(wire) {
                            failures.push(format!("{v} for {}: typed decode of {wire} differs", t.name()));
                        }
                    }
                }
            }
            Err(e) => {
                // The JSON layer refuses what the typed one cannot hold.
                if let Ok(wire) = session_inbox::encode::encode(&v, Target::CURRENT) {
                    failures.push(format!(
                        "{v}: the typed layer refuses it ({e}), the JSON one writes {wire}"
                    ));
                }
            }
        }
    }
    assert!(parsed > 50, "only {parsed} mutants parse");
    common::report(failures);
}

// ---------------------------------------------------------------------------------------------
// Turn control

#[test]
fn turn_control_typed_and_json_layers_agree_over_mutated_values() {
    let mut failures = Vec::new();
    for v in mutants(&turn_control_seeds("input"), 20, 3) {
        let typed = Message::decode(&v).map(|m| m.to_value());
        let dynamic = turn_control::decode(&v);
        match (&typed, &dynamic) {
            (Ok(t), Ok(d)) if t == d => {}
            (Err(t), Err(d)) if t.code == d.code => {}
            _ => failures.push(format!("decode {v}: typed {typed:?}, json {dynamic:?}")),
        }
    }
    for v in mutants(&turn_control_seeds("command"), 20, 4) {
        match serde_json::from_value::<Message>(v.clone()) {
            Ok(m) => {
                let back: Result<Message, _> = serde_json::from_value(m.to_value());
                if back.as_ref().ok() != Some(&m) {
                    failures.push(format!("{v}: {m:?} reads back as {back:?}"));
                }
                for target in 0..=turn_control::WIRE_VERSION {
                    let typed = m.encode(target);
                    let dynamic = turn_control::encode::encode(v.clone(), target);
                    if typed != dynamic {
                        failures.push(format!("encode {v} for {target}: typed {typed:?}, json {dynamic:?}"));
                    }
                }
            }
            Err(e) => {
                if let Ok(wire) = turn_control::encode::encode(v.clone(), turn_control::WIRE_VERSION) {
                    failures.push(format!(
                        "{v}: the typed layer refuses it ({e}), the JSON one writes {wire}"
                    ));
                }
            }
        }
    }
    common::report(failures);
}

// ---------------------------------------------------------------------------------------------
// Target, Hook, Destination

#[test]
fn every_target_round_trips_through_serde_and_its_json_form() {
    for t in Target::all() {
        let v = serde_json::to_value(t).unwrap();
        assert_eq!(v, t.to_json());
        assert_eq!(serde_json::from_value::<Target>(v.clone()).unwrap(), t, "{v}");
        assert_eq!(Target::from_json(&v).unwrap(), t);
    }
}

#[test]
fn target_serde_refuses_exactly_what_from_json_refuses() {
    let probes = [
        json!({"version": 0}),
        json!({"version": 1, "variant": "send"}),
        json!({"version": 0, "variant": "deliver", "x": 1}),
        json!({"version": 0, "variant": null}),
        json!({"version": 2.5}),
        json!({"version": "3"}),
        json!({"version": 6.0}),
        json!({"version": -0.0, "variant": "send"}),
        json!({"version": 1e300}),
        json!([1]),
        json!(null),
        json!({"version": session_inbox::WIRE_VERSION + 1}),
    ];
    for p in probes {
        let serde = serde_json::from_value::<Target>(p.clone()).ok();
        let json = Target::from_json(&p).ok();
        assert_eq!(serde, json, "{p}");
    }
}

#[test]
fn hook_serde_and_json_forms_agree() {
    let probes = [
        json!({"token": "c-1", "runId": "r"}),
        json!({"token": "c-1", "runId": "r", "metadata": null}),
        json!({"token": "c-1", "runId": "r", "metadata": {"sessionInboxWireVersion": 3}}),
        json!({"token": "c-1", "runId": "r", "metadata": 5}),
        json!({"token": "c-1", "runId": "r", "extra": true}),
        json!({"token": "c-1"}),
        json!({"token": 1, "runId": "r"}),
    ];
    for p in probes {
        let serde = serde_json::from_value::<Hook>(p.clone()).ok();
        let json = Hook::from_json(&p).ok().flatten();
        assert_eq!(serde, json, "{p}");
        if let Some(h) = serde {
            assert_eq!(serde_json::to_value(&h).unwrap(), h.to_json());
            assert_eq!(Hook::from_json(&h.to_json()).unwrap(), Some(h));
        }
    }
}

/// A hook whose metadata is JSON `null` is written with `"metadata": null`, and that reads back
/// as a hook without metadata: the value changes on the round trip.
#[test]
fn a_hook_with_null_metadata_round_trips() {
    let h = Hook {
        token: "c-1".into(),
        run_id: "r".into(),
        metadata: Some(Value::Null),
    };
    let back: Hook = serde_json::from_value(serde_json::to_value(&h).unwrap()).unwrap();
    assert_eq!(Hook::from_json(&h.to_json()).unwrap(), Some(back.clone()));
    // Both forms agree with each other; what the hook meant (no marker) is kept.
    assert_eq!(back.metadata, None);
}

#[test]
fn destination_serde_round_trips() {
    let dests = [
        Destination::Token("c-1".into()),
        Destination::Token(String::new()),
        Destination::Address(ReceiverAddress {
            session_id: "s-1".into(),
            version: 3.0,
        }),
    ];
    for d in dests {
        let v = serde_json::to_value(&d).unwrap();
        assert_eq!(serde_json::from_value::<Destination>(v.clone()).unwrap(), d, "{v}");
        assert_eq!(Destination::from_json(&v).unwrap(), d, "{v}");
    }
}

#[test]
fn destination_serde_accepts_only_forms_from_json_accepts() {
    let probes = [
        json!({"token": "c-1", "address": {"sessionId": "s", "version": 1}}),
        json!({}),
        json!({"token": null}),
        json!({"address": {"sessionId": "s", "version": 1}, "extra": 1}),
        json!({"token": "c-1", "extra": 1}),
    ];
    for p in probes {
        let serde = serde_json::from_value::<Destination>(p.clone()).ok();
        if let Some(d) = serde {
            assert_eq!(Destination::from_json(&p).ok(), Some(d), "{p}");
        }
    }
}

/// Guard against a mutation generator that never leaves the fixtures' own forms.
#[test]
fn mutants_reach_both_answers() {
    let vs = mutants(&seeds(DECODE_DIRS, "input"), 12, 1);
    let ok = vs.iter().filter(|v| session_inbox::decode(v).is_ok()).count();
    assert!(ok > 100 && ok < vs.len(), "{ok} of {}", vs.len());
}
