//! The JS encoder's wasm module (feature `wasm-encoder`, built into `pkg/encoder.cjs`): the
//! native encoder and negotiation, compiled unchanged, behind a JSON-text boundary.
//!
//! The JS side (`js/encoder-entry.js`) turns a producer's command into JSON text — checking
//! JSON-ness with paths and setting binary values aside — and this module answers exactly what
//! one `hookwire encode --lines` line answers, so the two cannot differ. Server and step code
//! only: the workflow-safe decoder never links this.

use crate::session_inbox::encode::encode_answer_into;
use crate::session_inbox::target::{self, Destination, InboxTokens, Next, Options};
use serde::Deserialize as _;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

fn parse(text: &str) -> Option<Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    Value::deserialize(&mut de).ok()
}

fn answer(v: Value) -> String {
    crate::canonical::to_string(&v)
}

fn bad_request(message: &str) -> String {
    answer(json!({"error": {"code": "INVALID_REQUEST", "message": message}}))
}

/// Encode the command (JSON text) for the target (JSON text): `{"ok": wire}` or `{"error": …}`,
/// written straight from the command for a valid one.
#[wasm_bindgen]
pub fn encode_json(command: &str, target: &str) -> String {
    match (parse(command), parse(target)) {
        (Some(c), Some(t)) => {
            let mut out = String::with_capacity(command.len() * 2 + 64);
            encode_answer_into(&c, &t, &mut out);
            out
        }
        _ => bad_request("the encoder's input is not JSON text"),
    }
}

/// Encode a turn-control command (JSON text) for a target (JSON text): `{"ok": wire}` or `{"error": …}`.
#[wasm_bindgen]
pub fn turn_control_encode_json(command: &str, target: &str) -> String {
    match (parse(command), parse(target)) {
        (Some(c), Some(t)) => answer(crate::turn_control::encode::encode_result(c, &t)),
        _ => bad_request("the encoder's input is not JSON text"),
    }
}

/// Negotiate a turn-control target from a driver's capabilities (contract §14):
/// `{"capabilities": …, "writeAtMost"?: N}` → `{"ok": {"target"}}` or `{"error": …}`.
#[wasm_bindgen]
pub fn turn_control_negotiate_json(request: &str) -> String {
    let Some(req) = parse(request) else {
        return bad_request("the negotiation request is not JSON text");
    };
    let current = crate::turn_control::WIRE_VERSION;
    let ceiling = match req.get("writeAtMost").filter(|w| !w.is_null()) {
        None => current,
        Some(w) => match w.as_u64().and_then(|n| u32::try_from(n).ok()) {
            Some(n) if (1..=current).contains(&n) => n,
            _ => return bad_request(&format!("the write ceiling must be a version from 1 to {current}")),
        },
    };
    answer(crate::turn_control::target::answer_request(&req, ceiling))
}

fn next_json(next: Next<target::Hook>) -> Value {
    match next {
        Next::Done(result) => target::answer_json(&result),
        Next::Lookup(pending) => json!({"lookup": pending.token(), "state": target::lookup_state(&pending)}),
    }
}

fn options(req: &Value) -> Result<Options, String> {
    let mut options = Options::default();
    if let Some(t) = req.get("stableInboxToken").filter(|t| !t.is_null()) {
        options.tokens = InboxTokens::from_template(t.as_str().unwrap_or(""))?;
    }
    if let Some(w) = req.get("writeAtMost").filter(|w| !w.is_null()) {
        let ceiling = w.as_u64().and_then(|n| u32::try_from(n).ok()).unwrap_or(0);
        options = options.with_write_ceiling(ceiling)?;
    }
    Ok(options)
}

/// One move of the negotiation state machine (contract §12), on JSON text, so the JS driver can
/// await its own lookups and re-implements no rule:
/// `{"start": {command, destination, writeAtMost?, stableInboxToken?}}` or
/// `{"resume": <state>, "answer": {"hook": …} | {"failed": "…"}}` →
/// `{"ok": {target, lookups, resume}}`, `{"error": …}`, or `{"lookup": token, "state": …}`.
#[wasm_bindgen]
pub fn negotiate_json(request: &str) -> String {
    let Some(req) = parse(request) else {
        return bad_request("the negotiation request is not JSON text");
    };
    if let Some(start) = req.get("start") {
        let options = match options(start) {
            Ok(o) => o,
            Err(e) => return bad_request(&e),
        };
        let dest = match Destination::from_json(&start["destination"]) {
            Ok(d) => d,
            Err(e) => return bad_request(&e),
        };
        return answer(next_json(target::start(&start["command"], &dest, &options)));
    }
    match target::resume_json(&req["resume"], &req["answer"]) {
        Some(next) => answer(next_json(next)),
        None => bad_request("the negotiation state is not one this build wrote"),
    }
}

/// The serde-wasm-bindgen route, for comparison only (feature `route-comparison`, never shipped):
/// the command and target as live JS values converted by serde-wasm-bindgen, the answer
/// converted back the same way.
#[cfg(feature = "route-comparison")]
#[wasm_bindgen]
pub fn encode_value(command: JsValue, target: JsValue) -> Result<JsValue, JsValue> {
    use serde::Serialize as _;
    let err = |e: serde_wasm_bindgen::Error| JsValue::from(e);
    let command: Value = serde_wasm_bindgen::from_value(command).map_err(err)?;
    let target: Value = serde_wasm_bindgen::from_value(target).map_err(err)?;
    crate::session_inbox::encode::encode_result(command, &target)
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(err)
}
