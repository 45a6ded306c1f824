//! Decode (contract §4, §15, §16), family-agnostic: run the chain, check `kind`, check the
//! envelope of the kind (each declared top-level field that is present has its declared JSON
//! type), and project the value onto the kind's declared fields. Interiors are passed through
//! untouched: the cost of a decode does not grow with the size of a payload.
//!
//! Invariant: decode returns a fresh top-level object holding only declared fields, or a
//! [`DecodeError`] — never a partial value, never anything else.
//! This module must never import the encoder or a shape.

use crate::chain::{self, Chain, Walked};
use crate::error::{DecodeError, Detail, ErrorCode};
use crate::host::{Host, Sym, Type};

/// The JSON type a top-level field of a kind must have at decode (contract §15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// Not checked: any value passes (an opaque field).
    Any,
    /// Any JSON value (not `undefined`, a function, a symbol or a bigint).
    Json,
    /// A string.
    Str,
    /// A boolean.
    Bool,
    /// A non-null, non-array object.
    Object,
    /// An object or `null`.
    ObjectOrNull,
    /// An object whose `kind` is a string.
    KindedObject,
    /// An array whose every element is a non-null, non-array object.
    ArrayOfObjects,
    /// One of these strings.
    OneOf(&'static [Sym]),
}

/// A top-level field of a kind: kept by the projection and checked by the envelope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldSpec {
    /// The key.
    pub key: Sym,
    /// Its type.
    pub check: Check,
    /// Whether the envelope requires it.
    pub required: bool,
}

/// The most fields a kind keeps besides `kind` (the conformance checks hold every family to it).
pub const MAX_FIELDS: usize = 8;

/// Whether every kind keeps at most [`MAX_FIELDS`] fields: each family asserts it of its kind
/// table at compile time (`const _: () = assert!(kinds_fit(KINDS));`).
pub const fn kinds_fit(kinds: &[KindSpec]) -> bool {
    let mut i = 0;
    while i < kinds.len() {
        if kinds[i].fields.len() > MAX_FIELDS {
            return false;
        }
        i += 1;
    }
    true
}

/// A checked, optional field.
pub const fn opt(key: Sym, check: Check) -> FieldSpec {
    FieldSpec {
        key,
        check,
        required: false,
    }
}

/// A checked, required field.
pub const fn req(key: Sym, check: Check) -> FieldSpec {
    FieldSpec {
        key,
        check,
        required: true,
    }
}

/// One kind of the current version and the fields its normalized form keeps, in the order the
/// envelope checks them (at most [`MAX_FIELDS`]: a field is a bit of a `u32` mask, and the wasm
/// host's bulk read packs 3 bits of type per field into 24).
pub struct KindSpec {
    /// The kind's string (a symbol).
    pub kind: Sym,
    /// The fields kept besides `kind`.
    pub fields: &'static [FieldSpec],
}

/// Decode `value` for a family given its chain, its kinds and the symbols of those kinds. An
/// unversioned value the family's shortcut takes as current ([`chain::Unversioned`]) is decoded
/// as it is, with the answer running every step gives.
pub fn decode<H: Host>(
    h: &mut H,
    chain: &Chain<'_, H>,
    kinds: &[KindSpec],
    kind_syms: &[Sym],
    value: &H::Value,
) -> Result<H::Value, DecodeError> {
    decode_walked(h, chain, kinds, kind_syms, value, 0, &mut false)
}

/// [`decode`], first without running the steps that start below version `below`
/// ([`chain::walk_deferring`]): steps that only refuse, each refusing nothing that the kind
/// check, the envelope checks and the projection of the current version accept (the families'
/// fuzz invariants hold them to it). A value this first decode accepts is one those steps
/// answer `None` for; on any failure after one was passed over, the value is decoded again with
/// every step, so the answer is always [`decode`]'s.
pub fn decode_deferring<H: Host>(
    h: &mut H,
    chain: &Chain<'_, H>,
    kinds: &[KindSpec],
    kind_syms: &[Sym],
    value: &H::Value,
    mut below: u32,
) -> Result<H::Value, DecodeError> {
    // At most twice: the second decode passes over nothing. One call site, so one copy.
    loop {
        let mut passed_over = false;
        match decode_walked(h, chain, kinds, kind_syms, value, below, &mut passed_over) {
            Err(_) if passed_over => below = 0,
            answer => return answer,
        }
    }
}

/// Decode, passing over the steps below `below` ([`chain::walk_deferring`]).
fn decode_walked<H: Host>(
    h: &mut H,
    chain: &Chain<'_, H>,
    kinds: &[KindSpec],
    kind_syms: &[Sym],
    value: &H::Value,
    below: u32,
    passed_over: &mut bool,
) -> Result<H::Value, DecodeError> {
    // The kind comes with the head of what the chain answers (the input's, or the last rewrite's).
    let (migrated, head) = chain::walk_deferring(h, chain, value, below, passed_over)?;
    let unknown = DecodeError::new(ErrorCode::UnknownKind).with_current(chain.current);
    let current = match &migrated {
        Walked::Current => value,
        Walked::Migrated(v) => v,
    };
    let index = head.kind.and_then(|k| kind_syms.iter().position(|&s| s == k));
    let Some((index, spec)) = index.and_then(|i| Some((i, kinds.get(i)?))) else {
        return Err(unknown);
    };
    let read = h.fields(current, index, spec.fields);
    let mut present = 0;
    for (i, field) in spec.fields.iter().enumerate() {
        let invalid = |detail, index| {
            DecodeError::new(ErrorCode::Invalid)
                .with_current(chain.current)
                .at(detail)
                .place(field.key, index)
        };
        match h.field(&read, i) {
            Some((v, ty)) => {
                let checked = h.field_checked(&read, i);
                if let Err((detail, index)) = check(h, &v, ty, field.check, checked)? {
                    return Err(invalid(detail, index));
                }
                present |= 1 << i;
            }
            None if field.required => return Err(invalid(Detail::Required, None)),
            None => {}
        }
    }
    Ok(h.project(index, spec.kind, spec.fields, read, present))
}

/// Whether `v` has the type `check` asks for: `Err((expected, element))` when not. `checked`: the
/// host already found what the check asks beyond the type (see [`Host::field_checked`]).
fn check<H: Host>(
    h: &mut H,
    v: &H::Value,
    ty: Type,
    check: Check,
    checked: bool,
) -> Result<Result<(), (Detail, Option<u32>)>, DecodeError> {
    let (ok, expected) = match check {
        Check::Any => (true, Detail::None),
        Check::Json => (ty != Type::Other, Detail::ExpectJson),
        Check::Str => (ty == Type::String, Detail::ExpectString),
        Check::Bool => (ty == Type::Bool, Detail::ExpectBool),
        Check::Object => (ty == Type::Object, Detail::ExpectObject),
        Check::ObjectOrNull => (matches!(ty, Type::Object | Type::Null), Detail::ExpectObjectOrNull),
        Check::KindedObject => {
            let kinded = ty == Type::Object
                && (checked || matches!(h.get(v, Sym::KIND)?, Some(k) if h.type_of(&k) == Type::String));
            (kinded, Detail::ExpectKindedObject)
        }
        Check::OneOf(among) => (h.which(v, among).is_some(), Detail::ExpectEnum),
        Check::ArrayOfObjects => {
            if ty != Type::Array {
                return Ok(Err((Detail::ExpectArrayOfObjects, None)));
            }
            if !checked {
                if let Some(i) = h.first_non_object(v)? {
                    return Ok(Err((Detail::ExpectObject, Some(i))));
                }
            }
            (true, Detail::None)
        }
    };
    Ok(if ok { Ok(()) } else { Err((expected, None)) })
}
