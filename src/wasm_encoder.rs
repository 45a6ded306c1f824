//! The JS encoder's wasm module (feature `wasm-encoder`, built into `pkg/encoder.cjs`): the
//! native encoder and negotiation, compiled unchanged, behind a JSON-text boundary.
//!
//! The JS side (`js/encoder-entry.js`) turns a producer's command into JSON text — checking
//! JSON-ness with paths and setting binary values aside — and this module answers exactly what
//! one `hookwire encode --lines` line answers, so the two cannot differ. Server and step code
//! only: the workflow-safe decoder never links this.

use crate::session_inbox::encode::{encode_result, Target};
use crate::session_inbox::target::{
    classify, classify_continuation, fast_path, Classified, Destination, Hook, InboxTokens, ReceiverAddress,
};
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

fn bad_input() -> String {
    answer(json!({"error": {"code": "INVALID_REQUEST", "message": "the encoder's input is not JSON text"}}))
}

/// Encode the command (JSON text) for the target (JSON text): `{"ok": wire}` or `{"error": …}`.
#[wasm_bindgen]
pub fn encode_json(command: &str, target: &str) -> String {
    match (parse(command), parse(target)) {
        (Some(c), Some(t)) => answer(encode_result(c, &t)),
        _ => bad_input(),
    }
}

fn hook(v: &Value) -> Option<Hook> {
    Some(Hook {
        token: v.get("token")?.as_str()?.into(),
        run_id: v.get("runId")?.as_str()?.into(),
        metadata: v.get("metadata").filter(|m| !m.is_null()).cloned(),
    })
}

fn tokens(v: &Value) -> InboxTokens {
    let d = InboxTokens::default();
    InboxTokens {
        prefix: v.get("prefix").and_then(Value::as_str).map_or(d.prefix, Into::into),
        suffix: v.get("suffix").and_then(Value::as_str).map_or(d.suffix, Into::into),
    }
}

fn target_answer(t: Result<Target, crate::EncodeError>) -> Value {
    match t {
        Ok(t) => json!({ "target": t.to_json() }),
        Err(e) => json!({ "error": crate::session_inbox::encode::error_json(&e) }),
    }
}

/// One step of negotiation (contract §6) on JSON text, so the JS driver can await its own lookups:
/// `{"step":"fast", command, destination, tokens}` → `{"target"}` or `{"inspect": true}`;
/// `{"step":"classify", hook, tokens}` → `{"target"}` or `{"lookup": token}`;
/// `{"step":"continuation", hook, stableInbox}` → `{"target"}`; any of them → `{"error"}`.
#[wasm_bindgen]
pub fn negotiate_json(request: &str) -> String {
    let Some(req) = parse(request) else { return bad_input() };
    let tokens = tokens(&req["tokens"]);
    let out = match req["step"].as_str() {
        Some("fast") => {
            let d = &req["destination"];
            let dest = match (d.get("token").and_then(Value::as_str), d.get("address")) {
                (Some(t), _) => Destination::Token(t.into()),
                (None, Some(a)) => Destination::Address(ReceiverAddress {
                    session_id: a.get("sessionId").and_then(Value::as_str).unwrap_or("").into(),
                    version: a
                        .get("version")
                        .and_then(Value::as_u64)
                        .map_or(u32::MAX, |v| u32::try_from(v).unwrap_or(u32::MAX)),
                }),
                _ => return bad_input(),
            };
            match fast_path(&req["command"], &dest, &tokens) {
                Some(t) => target_answer(t),
                None => json!({ "inspect": true }),
            }
        }
        Some("classify") => match hook(&req["hook"]).map(|h| classify(&h, &tokens)) {
            Some(Ok(Classified::Target(t))) => target_answer(Ok(t)),
            Some(Ok(Classified::LookupStableInbox(token))) => json!({ "lookup": token }),
            Some(Err(e)) => target_answer(Err(e)),
            None => return bad_input(),
        },
        Some("continuation") => match hook(&req["hook"]) {
            Some(h) => target_answer(classify_continuation(&h, hook(&req["stableInbox"]).as_ref())),
            None => return bad_input(),
        },
        _ => return bad_input(),
    };
    answer(out)
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
    encode_result(command, &target)
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(err)
}
