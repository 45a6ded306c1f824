//! Turn control's own invariants, beside the family-generic ones of `crate::invariants` (the
//! fuzz target `turn_control` runs both): its round trip — a command written for any target
//! decodes to what the command itself decodes to — and negotiation from any capabilities.

use crate::family::target_json;
use crate::turn_control::{self as tc, target::negotiate, FAMILY};
use crate::ErrorCode;
use serde_json::Value;

/// A command written for any target decodes to what the command itself decodes to (`action`
/// and every other field kept); negotiation from any capabilities answers a version up to the
/// current one, or `UNSUPPORTED_TARGET`.
pub fn check(v: &Value) {
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
