//! The typed layer (`session_inbox::{Command, Decoded}`, `turn_control::Message`) equals the
//! JSON layer it converts through: over every decode fixture, a typed decode serializes back to
//! exactly what `decode` answers (or fails with the same code); over every encode fixture, a
//! command that parses as a typed `Command` serializes back to itself and encodes, for every
//! target, to exactly what the dynamic `encode` writes.

mod common;

use common::{cases, report, root, DECODE_DIRS, ENCODE_DIRS};
use hookwire::session_inbox::{self, Command, Decoded, Target};
use hookwire::turn_control::{self, Message};
use serde_json::Value;

#[test]
fn typed_decode_is_the_json_decode() {
    let mut failures = Vec::new();
    for dir in DECODE_DIRS {
        for case in cases(dir) {
            let Some(input) = case.data.get("input") else { continue };
            let typed = Decoded::decode(input).map(|d| d.to_value());
            let dynamic = session_inbox::decode(input);
            match (&typed, &dynamic) {
                (Ok(t), Ok(d)) if t == d => {}
                (Err(t), Err(d)) if t.code == d.code => {}
                _ => failures.push(format!("{}: typed {typed:?}, json {dynamic:?}", case.name)),
            }
        }
    }
    report(failures);
}

#[test]
fn typed_commands_encode_as_their_json() {
    let mut failures = Vec::new();
    let mut typed_cases = 0;
    for dir in ENCODE_DIRS {
        for case in cases(dir) {
            let Some(json) = case.data.get("command") else { continue };
            let Ok(command) = serde_json::from_value::<Command>(json.clone()) else {
                continue;
            };
            typed_cases += 1;
            if command.to_value() != *json && json["kind"] != "send" {
                failures.push(format!(
                    "{}: the typed command reads back as {}",
                    case.name,
                    command.to_value()
                ));
            }
            for target in Target::all() {
                let typed = command.encode(target);
                let dynamic = session_inbox::encode::encode(&command.to_value(), target);
                if typed != dynamic {
                    failures.push(format!(
                        "{} for {}: typed {typed:?}, json {dynamic:?}",
                        case.name,
                        target.name()
                    ));
                }
            }
        }
    }
    report(failures);
    assert!(
        typed_cases > 10,
        "only {typed_cases} encode fixtures parse as typed commands"
    );
}

#[test]
fn strict_commands_refuse_unknown_keys_and_send_drops_them() {
    let unknown = serde_json::json!({"kind": "deliver", "payloads": [], "payload": {}});
    assert!(
        serde_json::from_value::<Command>(unknown).is_err(),
        "deliver computes its own mirror"
    );
    let clear = serde_json::json!({"kind": "clear", "payloads": []});
    assert!(
        serde_json::from_value::<Command>(clear).is_err(),
        "a control command is strict"
    );
    let null = serde_json::json!({"kind": "deliver", "payloads": [], "requestId": null});
    assert!(
        serde_json::from_value::<Command>(null).is_err(),
        "an optional string is a string when present"
    );
    let send = serde_json::json!({"kind": "send", "payload": {}, "extra": 1});
    let command: Command = serde_json::from_value(send).unwrap();
    assert_eq!(command.to_value(), serde_json::json!({"kind": "send", "payload": {}}));
}

#[test]
fn turn_control_typed_is_the_json_layer() {
    let mut failures = Vec::new();
    let base = root().join("fixtures/turn-control");
    for dir in std::fs::read_dir(&base)
        .unwrap()
        .flatten()
        .filter(|d| d.path().is_dir())
    {
        for file in std::fs::read_dir(dir.path()).unwrap().flatten() {
            let name = file.path().display().to_string();
            let case: Value = serde_json::from_str(&std::fs::read_to_string(file.path()).unwrap()).unwrap();
            if let Some(input) = case.get("input") {
                let typed = Message::decode(input).map(|m| m.to_value());
                let dynamic = turn_control::decode(input);
                match (&typed, &dynamic) {
                    (Ok(t), Ok(d)) if t == d => {}
                    (Err(t), Err(d)) if t.code == d.code => {}
                    _ => failures.push(format!("{name}: typed {typed:?}, json {dynamic:?}")),
                }
            }
            if let Some(Ok(command)) = case
                .get("command")
                .map(|c| serde_json::from_value::<Message>(c.clone()))
            {
                for target in 0..=turn_control::WIRE_VERSION {
                    let typed = command.encode(target);
                    let dynamic = turn_control::encode::encode(command.to_value(), target);
                    if typed != dynamic {
                        failures.push(format!("{name} for {target}: typed {typed:?}, json {dynamic:?}"));
                    }
                }
            }
        }
    }
    report(failures);
}
