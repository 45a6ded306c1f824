//! The wasm decoder's host: the decode logic over **live JS values** (no JSON round trip).
//!
//! Values never cross the boundary: the JS half (`js/host.js`, bundled as `hookwire:host`) keeps
//! them in an array and the decoder works with their indexes (handles), which are plain `u32`s:
//! nothing to allocate, reference-count or drop on the wasm side, so the decode logic compiles to
//! little more than its own branches and one import call per question. Keys and kind strings
//! travel as indexes into the symbol table, so no string crosses either. Every read that could
//! throw is caught on the JS side and counted; the package entry compares the count before and
//! after a decode, so a throwing getter or proxy trap is a `NOT_OBJECT` error, never an
//! exception. An error is reported by returning -1 and leaving its code, version and detail to
//! be read by the package entry, which builds the `SessionInboxWireError` (no strings are
//! formatted in wasm).
//! This module must never import the encoder, serde, or anything that formats.

use crate::error::{DecodeError, ErrorCode};
use crate::host::{Host, Infallible, Sym, Type};
use core::cell::Cell;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "hookwire:host")]
extern "C" {
    #[wasm_bindgen(js_name = type)]
    fn js_type(v: u32) -> u32;
    fn num(v: u32) -> f64;
    fn get(obj: u32, key: u32) -> i32;
    fn which(v: u32) -> i32;
    fn objects(arr: u32) -> i32;
    fn len(arr: u32) -> u32;
    fn at(arr: u32, i: u32) -> u32;
    fn copy(obj: u32) -> u32;
    fn object() -> u32;
    fn array() -> u32;
    fn array1(v: u32) -> u32;
    fn push(arr: u32, v: u32);
    fn symbol(key: u32) -> u32;
    fn number(n: f64) -> u32;
    fn set(obj: u32, key: u32, v: u32);
}

/// The last error of a single-threaded module.
struct Last(Cell<DecodeError>);
// SAFETY: a wasm32-unknown-unknown module without threads has exactly one thread.
unsafe impl Sync for Last {}
static LAST: Last = Last(Cell::new(DecodeError::new(ErrorCode::NotObject)));

/// The decode logic over live JS values, by handle.
pub struct JsHost;

impl Host for JsHost {
    type Value = u32;

    fn type_of(&mut self, v: &u32) -> Type {
        match js_type(*v) {
            1 => Type::Null,
            2 => Type::Bool,
            3 => Type::Number,
            4 => Type::String,
            5 => Type::Array,
            6 => Type::Object,
            _ => Type::Other,
        }
    }

    fn get(&mut self, obj: &u32, key: Sym) -> Result<Option<u32>, Infallible> {
        let v = get(*obj, u32::from(key.0));
        Ok((v >= 0).then_some(v as u32))
    }

    fn as_number(&mut self, v: &u32) -> Option<f64> {
        (js_type(*v) == 3).then(|| num(*v))
    }

    fn which(&mut self, v: &u32, among: &[Sym]) -> Option<usize> {
        let index = which(*v);
        among.iter().position(|s| i32::from(s.0) == index)
    }

    fn first_non_object(&mut self, arr: &u32) -> Result<Option<u32>, Infallible> {
        let i = objects(*arr);
        Ok((i >= 0).then_some(i as u32))
    }

    fn len(&mut self, arr: &u32) -> Result<u32, Infallible> {
        Ok(len(*arr))
    }

    fn at(&mut self, arr: &u32, i: u32) -> Result<u32, Infallible> {
        Ok(at(*arr, i))
    }

    fn object(&mut self) -> u32 {
        object()
    }

    fn copy_object(&mut self, obj: &u32) -> Result<u32, Infallible> {
        Ok(copy(*obj))
    }

    fn set(&mut self, obj: &mut u32, key: Sym, v: u32) {
        set(*obj, u32::from(key.0), v);
    }

    fn array1(&mut self, v: u32) -> u32 {
        array1(v)
    }

    fn array(&mut self) -> u32 {
        array()
    }

    fn push(&mut self, arr: &mut u32, v: u32) {
        push(*arr, v);
    }

    fn string(&mut self, s: Sym) -> u32 {
        symbol(u32::from(s.0))
    }

    fn number(&mut self, n: f64) -> u32 {
        number(n)
    }

    fn share(&mut self, v: &u32) -> u32 {
        *v
    }
}

/// Decode the value held at handle `value` (of the family this module serves): the handle of the normalized object,
/// or -1 with the error left for [`error_code`], [`error_version`], [`error_detail`] and
/// [`error_index`].
#[wasm_bindgen]
pub fn decode(value: u32) -> i32 {
    match crate::wasm_decode_on(&mut JsHost, &value) {
        Ok(v) => v as i32,
        Err(e) => {
            LAST.0.set(e);
            -1
        }
    }
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
