//! Decode (contract §4), family-agnostic: run the chain, check `kind`, project the value onto the
//! kind's declared fields. Known current values are trusted: their interior is not checked.
//!
//! Invariant: decode returns a fresh top-level object holding only declared fields, or a
//! [`DecodeError`] — never a partial value, never anything else.
//! This module must never import the encoder or a shape.

use crate::chain::{self, Chain, Walked};
use crate::error::{DecodeError, Detail, ErrorCode};
use crate::host::{Host, Sym};

/// One kind of the current version and the fields its normalized form keeps.
pub struct KindSpec {
    /// The kind's string (a symbol).
    pub kind: Sym,
    /// The fields kept besides `kind`, in no particular order.
    pub fields: &'static [Sym],
}

/// Decode `value` for a family given its chain, its kinds and the symbols of those kinds.
pub fn decode<H: Host>(
    h: &mut H,
    chain: &Chain<'_, H>,
    kinds: &[KindSpec],
    kind_syms: &[Sym],
    value: &H::Value,
) -> Result<H::Value, DecodeError> {
    let migrated = chain::run(h, chain, value)?;
    let current = match &migrated {
        Walked::Current => value,
        Walked::Migrated(v) => v,
    };
    let unknown = DecodeError {
        code: ErrorCode::UnknownKind,
        version: None,
        current: chain.current,
        detail: Detail::None,
    };
    let Some(kind) = h.get(current, Sym::KIND)? else {
        return Err(unknown);
    };
    let Some(spec) = h.which(&kind, kind_syms).and_then(|i| kinds.get(i)) else {
        return Err(unknown);
    };
    let mut out = h.object();
    let kind_value = h.string(spec.kind);
    h.set(&mut out, Sym::KIND, kind_value);
    for &field in spec.fields {
        if let Some(v) = h.get(current, field)? {
            h.set(&mut out, field, v);
        }
    }
    Ok(out)
}
