//! Turn control's own invariants, beside the family-generic ones of `crate::invariants` (the
//! fuzz target `turn_control` runs both): its round trip — a command written for any target
//! decodes to what the command itself decodes to — and negotiation from any capabilities.

use crate::chain::Chain;
use crate::decode;
use crate::family::target_json;
use crate::json::JsonHost;
use crate::turn_control::{self as tc, target::negotiate, FAMILY};
use crate::ErrorCode;
use serde_json::Value;

/// A command written for any target decodes to what the command itself decodes to (`action`
/// and every other field kept); negotiation from any capabilities answers a version up to the
/// current one, or `UNSUPPORTED_TARGET`; and decode answers what it answers running every step,
/// the deferred ones included ([`check_deferred`]).
pub fn check(v: &Value) {
    check_deferred(v);
    for name in FAMILY.targets {
        let answer = (FAMILY.encode)(v.clone(), &target_json(name));
        if let crate::Answer::Ok(wire) = answer {
            let decoded = tc::decode(&wire).unwrap_or_else(|e| panic!("{e} on {wire}"));
            let mut command = v.clone();
            if let Value::Object(c) = &mut command {
                c.retain(|k, _| k != "version");
            }
            assert_eq!(Ok(decoded), tc::decode(&command), "the round trip changed {v}");
        }
    }
    match negotiate(v, tc::WIRE_VERSION) {
        Ok(n) => assert!(n <= tc::WIRE_VERSION),
        Err(e) => assert_eq!(e.code, ErrorCode::UnsupportedTarget),
    }
}

/// Decode, which runs the steps below [`tc::DEFERRED_BELOW`] only when a decode without them
/// fails, answers exactly what a decode running every step answers: the deferred steps refuse
/// nothing that the current version's decode accepts.
pub fn check_deferred(v: &Value) {
    let steps = tc::steps::<JsonHost>();
    let chain = Chain {
        current: tc::WIRE_VERSION,
        initial: tc::REGISTRY.initial,
        steps: &steps,
        declared: None,
        unversioned: None,
    };
    let every_step = decode::decode(&mut JsonHost::new(tc::SYMBOLS), &chain, tc::KINDS, tc::KIND_SYMS, v);
    let deferring = tc::decode_on(&mut JsonHost::new(tc::SYMBOLS), v);
    assert_eq!(deferring, every_step, "a deferred step changed the decode of {v}");
}
