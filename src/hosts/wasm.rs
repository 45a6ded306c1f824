//! The wasm decoder's host: the decode logic over **live JS values** (no JSON round trip).
//!
//! Values never cross the boundary: the JS half (`js/host.js`, bundled as `hookwire:host`) keeps
//! them in an array and the decoder works with their indexes (handles), which are plain `i32`s:
//! nothing to allocate, reference-count or drop on the wasm side, so the decode logic compiles to
//! little more than its own branches and one import call per question. Keys and kind strings
//! travel as indexes into the symbol table, so no string crosses either. Every read that could
//! throw is caught on the JS side and counted; the package entry compares the count before and
//! after a decode, so a throwing getter or proxy trap is a `NOT_OBJECT` error, never an
//! exception. An error is reported by returning -1 and leaving its code, version and detail to
//! be read by the package entry, which builds the `SessionInboxWireError` (no strings are
//! formatted in wasm).
//! This module must never import the encoder, serde, or anything that formats.

use crate::decode::FieldSpec;
use crate::error::{DecodeError, ErrorCode};
use crate::host::{Head, Host, Infallible, Sym, Type, Version};
use core::cell::Cell;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "hookwire:host")]
// Every parameter and result is an i32 or f64: wasm-bindgen then imports the JS function as it
// is, without a shim per import (a u32 would need `>>> 0` in JS). And the imports have four
// signatures, (i32) -> i32, (i32, i32, i32) -> i32, (i32, i32) -> f64 and `number`'s
// (f64) -> i32, a parameter a question does not need passed as 0 (its JS function declares it
// all the same, js/host.js): V8 compiles one wasm-to-JS wrapper per distinct import signature
// and JS arity, with its optimizing compiler, whenever a module is compiled, which a fresh
// process pays before its first decode (the eight signatures the questions would have cost the
// decoder's compile there about 0.15 ms more: 2.25 against 2.10 ms, medians of 41 processes).
extern "C" {
    #[wasm_bindgen(js_name = type)]
    fn js_type(v: i32) -> i32;
    fn num(v: i32, _b: i32) -> f64;
    fn get(obj: i32, key: i32, _c: i32) -> i32;
    fn which(v: i32) -> i32;
    fn objects(arr: i32, key: i32, _c: i32) -> i32;
    fn len(arr: i32) -> i32;
    fn at(arr: i32, i: i32, _c: i32) -> i32;
    fn copy(obj: i32) -> i32;
    fn object(_a: i32) -> i32;
    fn array(_a: i32) -> i32;
    fn array1(v: i32) -> i32;
    fn push(arr: i32, v: i32, _c: i32) -> i32;
    fn symbol(key: i32) -> i32;
    fn number(n: f64) -> i32;
    fn set(obj: i32, key: i32, v: i32) -> i32;
    fn head(v: i32) -> i32;
    fn fields(obj: i32, kind: i32) -> f64;
}

/// The last error of a single-threaded module.
struct Last(Cell<DecodeError>);
// SAFETY: a wasm32-unknown-unknown module without threads has exactly one thread.
unsafe impl Sync for Last {}
static LAST: Last = Last(Cell::new(DecodeError::new(ErrorCode::NotObject)));

/// The decode logic over live JS values, by handle.
pub struct JsHost;

impl Host for JsHost {
    type Value = i32;

    fn type_of(&mut self, v: &i32) -> Type {
        Type::from_code(js_type(*v))
    }

    fn head(&mut self, v: &i32) -> Head {
        // 3 bits of type; 2 of version (absent, an integer from 0 to 32767 held in the top
        // bits, another number, not a number); 11 of the kind's symbol + 1 (0: none).
        let answer = head(*v);
        let version = match (answer >> 3) & 3 {
            0 => Version::Absent,
            1 => Version::Number(f64::from(answer >> 16)),
            // Read again (an ordinary question): `num` of an absent value is NaN.
            2 => Version::Number(num(get(*v, i32::from(Sym::VERSION.0), 0), 0)),
            _ => Version::NotNumber,
        };
        let kind = u8::try_from((answer >> 5) & 2047)
            .ok()
            .and_then(|k| Some(Sym(k.checked_sub(1)?)));
        Head {
            ty: Type::from_code(answer & 7),
            version,
            kind,
        }
    }

    fn get(&mut self, obj: &i32, key: Sym) -> Result<Option<i32>, Infallible> {
        let v = get(*obj, i32::from(key.0), 0);
        Ok((v >= 0).then_some(v))
    }

    fn as_number(&mut self, v: &i32) -> Option<f64> {
        // One question: `num` answers NaN for a non-number, and only then is the type asked.
        let n = num(*v, 0);
        (!n.is_nan() || js_type(*v) == 3).then_some(n)
    }

    fn which(&mut self, v: &i32, among: &[Sym]) -> Option<usize> {
        let index = which(*v);
        among.iter().position(|s| i32::from(s.0) == index)
    }

    fn first_non_object(&mut self, arr: &i32) -> Result<Option<u32>, Infallible> {
        let i = objects(*arr, 0, 0);
        Ok((i >= 0).then_some(i as u32))
    }

    fn objects_without(&mut self, arr: &i32, key: Sym) -> bool {
        // `objects` reads the length of arrays only (of anything else, it counts a failed read).
        self.type_of(arr) == Type::Array && objects(*arr, i32::from(key.0), 0) < 0
    }

    fn len(&mut self, arr: &i32) -> Result<u32, Infallible> {
        Ok(len(*arr) as u32)
    }

    fn at(&mut self, arr: &i32, i: u32) -> Result<i32, Infallible> {
        Ok(at(*arr, i as i32, 0))
    }

    fn object(&mut self) -> i32 {
        object(0)
    }

    fn copy_object(&mut self, obj: &i32) -> Result<i32, Infallible> {
        Ok(copy(*obj))
    }

    fn reads_as_copy(&mut self, obj: &i32) -> bool {
        // A dry copy (a handle's bitwise not): nothing built.
        copy(!*obj) != 0
    }

    fn set(&mut self, obj: &mut i32, key: Sym, v: i32) {
        set(*obj, i32::from(key.0), v);
    }

    fn array1(&mut self, v: i32) -> i32 {
        array1(v)
    }

    fn array(&mut self) -> i32 {
        array(0)
    }

    fn push(&mut self, arr: &mut i32, v: i32) {
        push(*arr, v, 0);
    }

    fn string(&mut self, s: Sym) -> i32 {
        symbol(i32::from(s.0))
    }

    fn number(&mut self, n: f64) -> i32 {
        number(n)
    }

    fn share(&mut self, v: &i32) -> i32 {
        *v
    }

    /// The first handle of the values read, and 3 bits of type per field.
    type Fields = (i32, u32);

    fn fields(&mut self, obj: &i32, kind: usize, _: &[FieldSpec]) -> (i32, u32) {
        // JS reads the keys from its generated copy of the kind table (`KINDS`), makes the check
        // each field's entry there names, and builds the projection of every field it found
        // (held after the fields): a decode that passes the envelope answers it as it is.
        let answer = fields(*obj, kind as i32);
        ((answer / 16_777_216.0) as i32, (answer % 16_777_216.0) as u32)
    }

    fn field(&mut self, &(base, types): &(i32, u32), i: usize) -> Option<(i32, Type)> {
        // 0: absent; 7: a value JSON cannot hold, or one that failed the check JS made (its type
        // is then asked); else `type`'s code.
        let v = base + i as i32;
        match (types >> (3 * i)) & 7 {
            0 => None,
            7 => Some((v, Type::from_code(js_type(v)))),
            code => Some((v, Type::from_code(code as i32))),
        }
    }

    fn field_checked(&mut self, &(_, types): &(i32, u32), i: usize) -> bool {
        // Every value that fails the check JS makes is answered 7.
        (types >> (3 * i)) & 7 != 7
    }

    fn project(&mut self, _: usize, _: Sym, specs: &[FieldSpec], (base, _): (i32, u32), _: u32) -> i32 {
        // Every field read is kept (a decode that reaches the projection found each one valid):
        // the object JS built while reading is the projection.
        base + specs.len() as i32
    }
}

/// Decode the value held at handle `value` (of the family this module serves): the handle of the normalized object,
/// or -1 with the error left for [`error_code`], [`error_version`], [`error_detail`] and
/// [`error_index`].
#[wasm_bindgen]
pub fn decode(value: i32) -> i32 {
    match crate::wasm_decode_on(&mut JsHost, &value) {
        Ok(v) => v,
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
