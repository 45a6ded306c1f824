//! The value-access trait the decode logic is written against, once, for every host.
//!
//! A host owns the representation: parsed JSON natively (`json.rs`), live JS objects in the wasm
//! decoder (`wasm.rs`). Keys and kind strings are [`Sym`]s — indexes into the family's static
//! symbol table — so a host can intern them once instead of building strings per decode.
//! [`Host::share`] hands out the same subtree again: a JS host passes the reference, so opaque
//! payloads are never copied. This module must never import a family, the encoder or `std`.

use crate::decode::FieldSpec;
use crate::error::Detail;
pub use core::convert::Infallible;

/// An index into a family's symbol table (`Family::SYMBOLS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sym(pub u8);

impl Sym {
    /// `"version"`: every family's symbol table starts with it.
    pub const VERSION: Sym = Sym(0);
    /// `"kind"`: every family's symbol table has it second.
    pub const KIND: Sym = Sym(1);
}

/// The JSON type of a value, as the decoder sees it. The discriminants are the codes the JS host
/// answers with (`TYPE_CODES` in the generated `js/contract.js`); 0 is no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Type {
    /// JSON `null`.
    Null = 1,
    /// A boolean.
    Bool = 2,
    /// A number.
    Number = 3,
    /// A string.
    String = 4,
    /// An array.
    Array = 5,
    /// A non-null, non-array object.
    Object = 6,
    /// Anything a JSON document cannot hold (`undefined`, a function, a symbol, a bigint).
    Other = 7,
}

impl Type {
    /// Every type, in code order.
    pub const ALL: [Type; 7] = [
        Type::Null,
        Type::Bool,
        Type::Number,
        Type::String,
        Type::Array,
        Type::Object,
        Type::Other,
    ];

    /// The type a host answers by `code`; a code of no type is `Other`.
    pub fn from_code(code: i32) -> Type {
        match Type::ALL.get((code as usize).wrapping_sub(1)) {
            Some(t) => *t,
            None => Type::Other,
        }
    }

    /// How the JS host names the type (`typeof`, with `null` and `array` apart).
    pub const fn js_name(self) -> &'static str {
        match self {
            Type::Null => "null",
            Type::Bool => "boolean",
            Type::Number => "number",
            Type::String => "string",
            Type::Array => "array",
            Type::Object => "object",
            Type::Other => "other",
        }
    }

    /// The decode error detail that names this type.
    pub const fn detail(self) -> Detail {
        match self {
            Type::Null => Detail::Null,
            Type::Bool => Detail::Bool,
            Type::Number => Detail::Number,
            Type::String => Detail::String,
            Type::Array => Detail::Array,
            Type::Object | Type::Other => Detail::NonJson,
        }
    }
}

/// What the own `version` property of an object holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Version {
    /// No `version` (absent, `undefined` in JS, or unreadable).
    Absent,
    /// A number.
    Number(f64),
    /// Something other than a number.
    NotNumber,
}

/// The head of a value, read in one question: its type and, when it is an object, its own
/// `version` and the symbol its own `kind` string is (`None` when absent, not a string, or no
/// symbol of the family).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Head {
    /// The value's type.
    pub ty: Type,
    /// Its `version` (always `Absent` for a non-object).
    pub version: Version,
    /// Its `kind`, as a symbol (always `None` for a non-object).
    pub kind: Option<Sym>,
}

/// Read and build values of one representation. The decode logic uses nothing else.
///
/// No method fails: a host that cannot read a value (a throwing getter in JS) answers as if it
/// were absent and reports the failure when the decode ends. The reads still return `Result`s
/// (with the uninhabited [`Infallible`] error, so the error paths compile to nothing) because the
/// frozen first step was written against them with `?`.
pub trait Host {
    /// A handle to a value.
    type Value;

    /// The JSON type of `v`.
    fn type_of(&mut self, v: &Self::Value) -> Type;
    /// The head of `v` (its type, `version` and `kind`): what every decode asks first, in one
    /// question where a host pays per question.
    fn head(&mut self, v: &Self::Value) -> Head;
    /// The own property `key` of the object `obj`; `None` when absent (or `undefined` in JS, or
    /// unreadable).
    fn get(&mut self, obj: &Self::Value, key: Sym) -> Result<Option<Self::Value>, Infallible>;
    /// The number `v` holds, if it is a number.
    fn as_number(&mut self, v: &Self::Value) -> Option<f64>;
    /// The position in `among` of the symbol whose text equals the string `v`.
    fn which(&mut self, v: &Self::Value, among: &[Sym]) -> Option<usize>;
    /// Every element of the array `arr` is a non-null, non-array object.
    fn every_object(&mut self, arr: &Self::Value) -> Result<bool, Infallible> {
        Ok(self.first_non_object(arr)?.is_none())
    }
    /// The index of the first element of the array `arr` that is not a non-null, non-array
    /// object (one question per array, whatever its length).
    fn first_non_object(&mut self, arr: &Self::Value) -> Result<Option<u32>, Infallible>;
    /// Whether `arr` is an array whose every element is a non-null, non-array object with no own
    /// property `key`, in one question where a host pays per question. A read that fails makes
    /// it `false` and is not reported: the decode asks it only before steps that make the same
    /// reads (and report what fails), which it runs when the answer is `false`.
    fn objects_without(&mut self, arr: &Self::Value, key: Sym) -> bool {
        if self.type_of(arr) != Type::Array || !matches!(self.first_non_object(arr), Ok(None)) {
            return false;
        }
        let Ok(n) = self.len(arr);
        (0..n).all(|i| {
            let Ok(x) = self.at(arr, i);
            matches!(self.get(&x, key), Ok(None))
        })
    }
    /// The length of the array `arr`.
    fn len(&mut self, arr: &Self::Value) -> Result<u32, Infallible>;
    /// The element `i` of the array `arr`, as it is (`undefined` for a hole in JS).
    fn at(&mut self, arr: &Self::Value, i: u32) -> Result<Self::Value, Infallible>;

    /// A new empty plain object.
    fn object(&mut self) -> Self::Value;
    /// A new plain object with the own enumerable properties of `obj` (a shallow copy).
    fn copy_object(&mut self, obj: &Self::Value) -> Result<Self::Value, Infallible>;
    /// Whether the object `obj` reads as its copy ([`Host::copy_object`]) would: every own
    /// property of it is one a copy takes. Nothing is built. A read that fails makes it `false`
    /// and is not reported: the decode asks it only before steps that copy `obj` (and report
    /// what fails), which it runs when the answer is `false`. A host whose copies take every
    /// property (parsed JSON) answers `true` without reading.
    fn reads_as_copy(&mut self, obj: &Self::Value) -> bool {
        let _ = obj;
        true
    }
    /// Set `key` on an object this host built.
    fn set(&mut self, obj: &mut Self::Value, key: Sym, v: Self::Value);
    /// A one-element array.
    fn array1(&mut self, v: Self::Value) -> Self::Value;
    /// A new empty array.
    fn array(&mut self) -> Self::Value;
    /// Append `v` to an array this host built.
    fn push(&mut self, arr: &mut Self::Value, v: Self::Value);
    /// The string value of a symbol.
    fn string(&mut self, s: Sym) -> Self::Value;
    /// A number value.
    fn number(&mut self, n: f64) -> Self::Value;
    /// The same value again: a reference where the host has them (JS), a copy where not.
    fn share(&mut self, v: &Self::Value) -> Self::Value;

    /// What a host holds of a kind's fields after reading them at once.
    type Fields;
    /// Read the own properties `fields` of the object `obj` at once (one question where a host
    /// pays per question: the wasm decoder's JS boundary). `kind` is the kind's position in its
    /// family's kind table, which a host with a generated copy of that table needs alone.
    fn fields(&mut self, obj: &Self::Value, kind: usize, fields: &[FieldSpec]) -> Self::Fields;
    /// The field `i` of what [`Host::fields`] read: its value and type, `None` when absent (or
    /// `undefined` in JS, or unreadable).
    fn field(&mut self, read: &Self::Fields, i: usize) -> Option<(Self::Value, Type)>;
    /// Whether the host already checked, while reading, what the field `i`'s check asks beyond
    /// its type (every element of an array an object; an object's `kind` a string): when it
    /// did, the decode does not ask again.
    fn field_checked(&mut self, read: &Self::Fields, i: usize) -> bool {
        let _ = (read, i);
        false
    }
    /// A new plain object `{kind, …}` holding the fields read whose bit (1 << i) is set in
    /// `present`: the normalized output of a decode, built in one step. Decode asks it only
    /// once every field read passed its check, so `present` is exactly the fields found: a host
    /// may build the object while it reads them (the JS host does).
    fn project(
        &mut self,
        kind: usize,
        kind_sym: Sym,
        fields: &[FieldSpec],
        read: Self::Fields,
        present: u32,
    ) -> Self::Value;
}

#[cfg(test)]
mod tests {
    use super::Type;

    #[test]
    fn a_type_is_read_back_from_its_code_and_no_other_code_is_a_json_type() {
        for t in Type::ALL {
            assert_eq!(Type::from_code(i32::from(t as u8)), t);
        }
        for code in [0, 8, 255, -1, i32::MIN, i32::MAX] {
            assert_eq!(Type::from_code(code), Type::Other, "{code}");
        }
    }
}
