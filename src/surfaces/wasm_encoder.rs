//! The JS encoder's wasm module (feature `wasm-encoder`, built into `pkg/encoder.cjs`): every
//! registered family's encoder and negotiation, compiled unchanged, behind a JSON-text boundary.
//!
//! The JS side (`js/encoder-entry.js`) turns a producer's command into JSON text — checking
//! JSON-ness with paths and setting binary values aside — and this module answers exactly what
//! one `hookwire --family F encode --lines` line answers, so the two cannot differ. Each export
//! takes the family by name, as the CLI does. Server and step code only: the workflow-safe
//! decoder never links this.

use crate::{Answer, Transport};
use serde::Deserialize as _;
use serde_json::Value;
use wasm_bindgen::prelude::*;

fn parse(text: &str) -> Option<Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    Value::deserialize(&mut de).ok()
}

fn bad_request(message: &str) -> String {
    Answer::transport(Transport::InvalidRequest, message).to_text()
}

type Entry = (&'static str, fn(&Value, &Value, &mut String), fn(&Value) -> Value);

/// The registered family named `name`: its encoder's text answer and its negotiation's move.
fn family(name: &str) -> Result<&'static Entry, String> {
    crate::ENCODERS
        .iter()
        .find(|e| e.0 == name)
        .ok_or_else(|| bad_request("no such family in this build"))
}

/// Encode the command (JSON text) for the target (JSON text) with the family named `family`:
/// `{"ok": wire}` or `{"error": …}` (the family may write a valid command's answer straight from
/// the command).
#[wasm_bindgen]
pub fn encode_json(family_name: &str, command: &str, target: &str) -> String {
    let f = match family(family_name) {
        Ok(f) => f,
        Err(e) => return e,
    };
    match (parse(command), parse(target)) {
        (Some(c), Some(t)) => {
            let mut out = String::with_capacity(command.len() * 2 + 64);
            (f.1)(&c, &t, &mut out);
            out
        }
        _ => bad_request("the encoder's input is not JSON text"),
    }
}

/// One move of the family's negotiation (contract §12, §14), on JSON text, so the JS driver
/// re-implements no rule: the request and the answer are the family's (`negotiate_step`).
#[wasm_bindgen]
pub fn negotiate_json(family_name: &str, request: &str) -> String {
    let f = match family(family_name) {
        Ok(f) => f,
        Err(e) => return e,
    };
    match parse(request) {
        Some(req) => crate::canonical::to_string(&(f.2)(&req)),
        None => bad_request("the negotiation request is not JSON text"),
    }
}

/// The serde-wasm-bindgen route, for comparison only (feature `route-comparison`, never shipped):
/// the command and target as live JS values converted by serde-wasm-bindgen, the answer
/// converted back the same way.
#[cfg(feature = "route-comparison")]
#[wasm_bindgen]
pub fn encode_value(family_name: &str, command: JsValue, target: JsValue) -> Result<JsValue, JsValue> {
    use serde::Serialize as _;
    let err = |e: serde_wasm_bindgen::Error| JsValue::from(e);
    let f = crate::family(family_name).ok_or_else(|| JsValue::from("no such family"))?;
    let command: Value = serde_wasm_bindgen::from_value(command).map_err(err)?;
    let target: Value = serde_wasm_bindgen::from_value(target).map_err(err)?;
    (f.encode)(command, &target)
        .to_json()
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(err)
}
