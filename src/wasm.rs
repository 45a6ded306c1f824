//! The wasm decoder's host: the decode logic over **live JS values** (no JSON round trip).
//!
//! Each question is one import call into `js/host.js` (bundled as `hookwire:host`): keys and
//! kind strings travel as indexes into the symbol table, so no string crosses the boundary, and
//! every read that could throw is caught there and counted. A decode compares the count before
//! and after, so a throwing getter or proxy trap is a `NOT_OBJECT` error, never an exception.
//! The output object is fresh; opaque subtrees are the caller's own references. An error is
//! reported by returning `undefined` and leaving its code, version and detail to be read by the
//! package entry, which builds the `SessionInboxWireError` (no strings are formatted in wasm).
//! This module must never import the encoder, serde, or anything that formats.

use crate::error::{DecodeError, Detail, ErrorCode};
use crate::host::{Host, Sym, Type};
use crate::session_inbox;
use core::cell::Cell;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "hookwire:host")]
extern "C" {
    #[wasm_bindgen(js_name = type)]
    fn js_type(v: &JsValue) -> u32;
    fn num(v: &JsValue) -> f64;
    fn get(obj: &JsValue, key: u32) -> JsValue;
    fn which(v: &JsValue) -> i32;
    fn objects(arr: &JsValue) -> i32;
    fn len(arr: &JsValue) -> u32;
    fn at(arr: &JsValue, i: u32) -> JsValue;
    fn array() -> JsValue;
    fn push(arr: &JsValue, v: &JsValue);
    fn copy(obj: &JsValue) -> JsValue;
    fn object() -> JsValue;
    fn array1(v: &JsValue) -> JsValue;
    fn symbol(key: u32) -> JsValue;
    fn set(obj: &JsValue, key: u32, v: &JsValue);
    fn mark() -> u32;
    fn settle(mark: u32) -> bool;
}

/// The last error of a single-threaded module.
struct Last(Cell<DecodeError>);
// SAFETY: a wasm32-unknown-unknown module without threads has exactly one thread.
unsafe impl Sync for Last {}
static LAST: Last = Last(Cell::new(DecodeError::new(ErrorCode::NotObject)));

/// The decode logic over live JS values.
pub struct JsHost;

impl Host for JsHost {
    type Value = JsValue;

    fn type_of(&mut self, v: &JsValue) -> Type {
        match js_type(v) {
            1 => Type::Null,
            2 => Type::Bool,
            3 => Type::Number,
            4 => Type::String,
            5 => Type::Array,
            6 => Type::Object,
            _ => Type::Other,
        }
    }

    fn get(&mut self, obj: &JsValue, key: Sym) -> Result<Option<JsValue>, DecodeError> {
        let v = get(obj, u32::from(key.0));
        Ok(if v.is_undefined() { None } else { Some(v) })
    }

    fn as_number(&mut self, v: &JsValue) -> Option<f64> {
        (js_type(v) == 3).then(|| num(v))
    }

    fn which(&mut self, v: &JsValue, among: &[Sym]) -> Option<usize> {
        let index = which(v);
        among.iter().position(|s| i32::from(s.0) == index)
    }

    fn first_non_object(&mut self, arr: &JsValue) -> Result<Option<u32>, DecodeError> {
        let i = objects(arr);
        Ok((i >= 0).then_some(i as u32))
    }

    fn len(&mut self, arr: &JsValue) -> Result<u32, DecodeError> {
        Ok(len(arr))
    }

    fn at(&mut self, arr: &JsValue, i: u32) -> Result<JsValue, DecodeError> {
        Ok(at(arr, i))
    }

    fn object(&mut self) -> JsValue {
        object()
    }

    fn copy_object(&mut self, obj: &JsValue) -> Result<JsValue, DecodeError> {
        Ok(copy(obj))
    }

    fn set(&mut self, obj: &mut JsValue, key: Sym, v: JsValue) {
        set(obj, u32::from(key.0), &v);
    }

    fn array1(&mut self, v: JsValue) -> JsValue {
        array1(&v)
    }

    fn array(&mut self) -> JsValue {
        array()
    }

    fn push(&mut self, arr: &mut JsValue, v: JsValue) {
        push(arr, &v);
    }

    fn string(&mut self, s: Sym) -> JsValue {
        symbol(u32::from(s.0))
    }

    fn number(&mut self, n: f64) -> JsValue {
        JsValue::from_f64(n)
    }

    fn share(&mut self, v: &JsValue) -> JsValue {
        v.clone()
    }
}

/// Decode a session inbox value: the normalized object, or `undefined` with the error left for
/// [`error_code`], [`error_version`] and [`error_detail`].
#[wasm_bindgen]
pub fn decode(value: &JsValue) -> JsValue {
    let before = mark();
    let result = session_inbox::decode_on(&mut JsHost, value);
    let unreadable = settle(before);
    match result {
        _ if unreadable => fail(DecodeError::new(ErrorCode::NotObject).at(Detail::Unreadable)),
        Ok(v) => v,
        Err(e) => fail(e),
    }
}

fn fail(e: DecodeError) -> JsValue {
    LAST.0.set(e);
    JsValue::UNDEFINED
}

/// The code of the last error, as `ErrorCode`'s `repr`.
#[wasm_bindgen]
pub fn error_code() -> u32 {
    LAST.0.get().code as u32
}

/// The version of the last error, or NaN when it names none.
#[wasm_bindgen]
pub fn error_version() -> f64 {
    LAST.0.get().version.unwrap_or(f64::NAN)
}

/// The detail of the last error: `What`'s `repr`, plus 256 × (1 + the symbol of its field)
/// when it has a place (`INVALID` envelopes).
#[wasm_bindgen]
pub fn error_detail() -> u32 {
    let detail = LAST.0.get().detail;
    let key = detail.at.map_or(0, |at| 1 + u32::from(at.key.0));
    detail.what as u32 + (key << 8)
}

/// The element index of the last error's place, or -1.
#[wasm_bindgen]
pub fn error_index() -> i32 {
    match LAST.0.get().detail.at.and_then(|at| at.index) {
        Some(i) => i as i32,
        None => -1,
    }
}
