//! Every input the fuzzers ever found (`fuzz/regressions/<target>/*`) and every fixture, run
//! through the same invariant checks the fuzz targets run (`hookwire::invariants`).

mod common;

use hookwire::invariants::{self as generic, json};
use hookwire::session_inbox::{invariants as inbox, FAMILY as INBOX};
use hookwire::turn_control::{invariants as turn, FAMILY as TURN};

type Check = fn(&[u8]);

// What each fuzz target (`fuzz/fuzz_targets/*.rs`) runs on its bytes.
fn check_decode(bytes: &[u8]) {
    if let Some(v) = json(bytes) {
        generic::check_decode(&INBOX, &v);
    }
}
fn check_encode(bytes: &[u8]) {
    if let Some(v) = json(bytes) {
        generic::check_encode(&INBOX, &v);
    }
}
fn check_chain(bytes: &[u8]) {
    if let Some(v) = json(bytes) {
        inbox::check_chain(&v);
    }
}
fn check_negotiate(bytes: &[u8]) {
    if let Some(v) = json(bytes) {
        generic::check_negotiate(&INBOX, &v);
        inbox::check_negotiate(&v);
    }
}
fn check_turn_control(bytes: &[u8]) {
    generic::check_family(&TURN, bytes);
    if let Some(v) = json(bytes) {
        turn::check(&v);
    }
}

const TARGETS: &[(&str, Check)] = &[
    ("decode", check_decode),
    ("encode", check_encode),
    ("chain", check_chain),
    ("negotiate", check_negotiate),
    ("turn_control", check_turn_control),
];

#[test]
fn fuzz_regressions_hold() {
    for (target, check) in TARGETS {
        let dir = common::root().join("fuzz/regressions").join(target);
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            check(&std::fs::read(entry.path()).unwrap());
        }
    }
}

#[test]
fn fixtures_hold_the_fuzz_invariants() {
    for dir in common::DECODE_DIRS {
        for case in common::cases(dir) {
            let bytes = serde_json::to_vec(&case.data["input"]).unwrap();
            check_decode(&bytes);
            check_chain(&bytes);
        }
    }
    for dir in common::ENCODE_DIRS {
        for case in common::cases(dir) {
            check_encode(&serde_json::to_vec(&case.data["command"]).unwrap());
        }
    }
    let root = common::root();
    for dir in ["v0", "v1", "chain", "encode", "negotiate"] {
        for case in hookwire::conformance::cases(&root, "turn-control", dir) {
            for key in ["input", "command"] {
                if let Some(v) = case.data.get(key) {
                    check_turn_control(&serde_json::to_vec(v).unwrap());
                }
            }
            if let Some(c) = case.data.pointer("/request/capabilities") {
                check_turn_control(&serde_json::to_vec(c).unwrap());
            }
        }
    }
}
