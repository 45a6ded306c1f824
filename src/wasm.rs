//! The wasm decoder's host: the decode logic over **live JS values** (no JSON round trip).
//!
//! Keys and kind strings are interned once per instance; every read goes through imports that
//! catch what a getter or proxy trap throws, so no JS exception crosses the decoder. The output
//! object is fresh; opaque subtrees are the caller's own references. An error is reported by
//! returning `undefined` and leaving its code, version and detail to be read by the package
//! entry, which builds the `SessionInboxWireError` (no strings are formatted in wasm).
//! This module must never import the encoder, serde, or anything that formats.

use crate::error::{DecodeError, Detail, ErrorCode};
use crate::host::{Host, Sym, Type};
use crate::session_inbox::{self, symbols::SYMBOLS};
use core::cell::UnsafeCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// Any JS object, read by key.
    type Obj;
    #[wasm_bindgen(method, structural, indexing_getter, catch)]
    fn read(this: &Obj, key: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, indexing_getter, catch)]
    fn at(this: &Obj, index: u32) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, indexing_setter)]
    fn write(this: &Obj, key: &JsValue, value: &JsValue);
    #[wasm_bindgen(method, structural, getter, catch)]
    fn length(this: &Obj) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_namespace = Array, js_name = isArray, catch)]
    fn is_array(v: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(js_namespace = Object, js_name = assign, catch)]
    fn assign(target: &JsValue, source: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_namespace = Array, js_name = of)]
    fn array_of(v: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = Object)]
    fn new_object() -> JsValue;
}

/// Per-instance state of a single-threaded module: the interned symbols and the last error.
struct State {
    symbols: [Option<JsValue>; SYMBOLS.len()],
    error: DecodeError,
}

struct Global(UnsafeCell<State>);
// SAFETY: a wasm32-unknown-unknown module without threads has exactly one thread.
unsafe impl Sync for Global {}

static STATE: Global = Global(UnsafeCell::new(State {
    symbols: [const { None }; SYMBOLS.len()],
    error: DecodeError::new(ErrorCode::NotObject),
}));

fn state() -> *mut State {
    STATE.0.get()
}

/// The interned JS string of a symbol (created on first use).
fn sym(s: Sym) -> JsValue {
    // SAFETY: single-threaded; no reference into STATE outlives this function, so a reentrant
    // decode (a getter that calls decode) cannot alias it.
    let slot = unsafe { (*state()).symbols.get_mut(s.0 as usize) };
    match slot {
        Some(Some(v)) => v.clone(),
        Some(slot) => {
            let text = SYMBOLS.get(s.0 as usize).copied().unwrap_or("");
            let v = JsValue::from_str(text);
            *slot = Some(v.clone());
            v
        }
        None => JsValue::UNDEFINED,
    }
}

const UNREADABLE: DecodeError = DecodeError::new(ErrorCode::NotObject).at(Detail::Unreadable);

/// The decode logic over live JS values.
pub struct JsHost;

impl Host for JsHost {
    type Value = JsValue;

    fn type_of(&mut self, v: &JsValue) -> Type {
        if v.is_object() {
            return match is_array(v) {
                Ok(true) => Type::Array,
                Ok(false) => Type::Object,
                Err(_) => Type::Other,
            };
        }
        if v.is_null() {
            Type::Null
        } else if v.is_string() {
            Type::String
        } else if v.as_f64().is_some() {
            Type::Number
        } else if v.as_bool().is_some() {
            Type::Bool
        } else {
            Type::Other
        }
    }

    fn get(&mut self, obj: &JsValue, key: Sym) -> Result<Option<JsValue>, DecodeError> {
        let v = obj.unchecked_ref::<Obj>().read(&sym(key)).map_err(|_| UNREADABLE)?;
        Ok(if v.is_undefined() { None } else { Some(v) })
    }

    fn as_number(&mut self, v: &JsValue) -> Option<f64> {
        v.as_f64()
    }

    fn which(&mut self, v: &JsValue, among: &[Sym]) -> Option<usize> {
        if !v.is_string() {
            return None;
        }
        among.iter().position(|&s| *v == sym(s))
    }

    fn every_object(&mut self, arr: &JsValue) -> Result<bool, DecodeError> {
        let arr = arr.unchecked_ref::<Obj>();
        let len = arr.length().map_err(|_| UNREADABLE)?.as_f64().unwrap_or(0.0);
        let mut i = 0u32;
        while f64::from(i) < len {
            let item = arr.at(i).map_err(|_| UNREADABLE)?;
            if self.type_of(&item) != Type::Object {
                return Ok(false);
            }
            i += 1;
        }
        Ok(true)
    }

    fn object(&mut self) -> JsValue {
        new_object()
    }

    fn copy_object(&mut self, obj: &JsValue) -> Result<JsValue, DecodeError> {
        assign(&new_object(), obj).map_err(|_| UNREADABLE)
    }

    fn set(&mut self, obj: &mut JsValue, key: Sym, v: JsValue) {
        obj.unchecked_ref::<Obj>().write(&sym(key), &v);
    }

    fn array1(&mut self, v: JsValue) -> JsValue {
        array_of(&v)
    }

    fn string(&mut self, s: Sym) -> JsValue {
        sym(s)
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
    match session_inbox::decode_on(&mut JsHost, value) {
        Ok(v) => v,
        Err(e) => {
            // SAFETY: single-threaded; a plain write of a Copy value.
            unsafe { (*state()).error = e };
            JsValue::UNDEFINED
        }
    }
}

fn last() -> DecodeError {
    // SAFETY: single-threaded; a plain read of a Copy value.
    unsafe { (*state()).error }
}

/// The code of the last error, as `ErrorCode`'s `repr`.
#[wasm_bindgen]
pub fn error_code() -> u32 {
    last().code as u32
}

/// The version of the last error, or NaN when it names none.
#[wasm_bindgen]
pub fn error_version() -> f64 {
    last().version.unwrap_or(f64::NAN)
}

/// The detail of the last error, as `Detail`'s `repr`.
#[wasm_bindgen]
pub fn error_detail() -> u32 {
    last().detail as u32
}
