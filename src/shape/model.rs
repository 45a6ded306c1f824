//! The shape model: a static description of a wire shape from which the encoder's validator,
//! the frozen JSON Schema and the TypeScript declarations are all derived, so none can drift.
//!
//! Alternatives of an [`Shape::AnyOf`] must differ in their JSON type; the validator picks the
//! alternative by type, which is then exactly JSON Schema's `anyOf`.
//! This module must never import a family or the decoder.

use crate::error::EncodeError;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A wire shape (`Copy`: its parts are leaked or static, held by reference).
#[derive(Debug, Clone, Copy)]
pub enum Shape {
    /// Any string.
    Str,
    /// Binary data: a string in JSON (base64, a data URL or a URL); in JS also a `Uint8Array`,
    /// an `ArrayBuffer` or a `URL`, which the JS decoder passes through unchanged.
    Binary,
    /// Any finite number.
    Number,
    /// `true` or `false`.
    Bool,
    /// An integer in `min ..= max`.
    Integer {
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// Exactly `null`.
    Null,
    /// Exactly this string.
    Const(&'static str),
    /// Exactly this number (a version tag).
    ConstNumber(u32),
    /// One of these strings (a closed set).
    Enum(&'static [&'static str]),
    /// An array of the shape.
    Array(&'static Shape),
    /// An object with declared fields.
    Object(&'static Fields),
    /// An object mapping any string to the shape.
    Map(&'static Shape),
    /// One of several shapes that differ in JSON type.
    AnyOf(&'static [&'static Shape]),
    /// Objects selected by the string under `tag`; each variant is an `Object` with a `Const` tag.
    Tagged {
        /// The discriminating key.
        tag: &'static str,
        /// The variants.
        variants: &'static [&'static Shape],
    },
    /// Any JSON value.
    Json,
    /// Any JSON object.
    JsonObject,
    /// A named, reusable shape (a `$defs` entry, a TypeScript type).
    Named(&'static Def),
    /// An object of the shape `shape` (an `Object`) in which exactly one of `keys` is present.
    ExactlyOne {
        /// The keys of which exactly one must be present.
        keys: &'static [&'static str],
        /// The object shape (declaring every one of `keys` as optional).
        shape: &'static Shape,
    },
}

/// The declared fields of an object.
#[derive(Debug)]
pub struct Fields {
    /// The fields, in declaration order (validation reports the first failing one).
    pub fields: &'static [Field],
    /// Strict objects reject undeclared keys; loose ones pass them through.
    pub strict: bool,
}

/// One declared field.
#[derive(Debug)]
pub struct Field {
    /// The key.
    pub name: &'static str,
    /// Its shape.
    pub shape: &'static Shape,
    /// Whether it must be present.
    pub required: bool,
}

/// A named shape with its stable identifier.
#[derive(Debug)]
pub struct Def {
    /// The name used in `$defs` and TypeScript (`AuthContext`).
    pub name: &'static str,
    /// The stable, unique identifier (`SessionInbox.AuthContext`).
    pub id: &'static str,
    /// What it is.
    pub doc: &'static str,
    /// The shape.
    pub shape: Shape,
}

/// A required field.
pub const fn req(name: &'static str, shape: &'static Shape) -> Field {
    Field {
        name,
        shape,
        required: true,
    }
}

/// An optional field.
pub const fn opt(name: &'static str, shape: &'static Shape) -> Field {
    Field {
        name,
        shape,
        required: false,
    }
}

/// The JSON type of a value, for messages and `AnyOf` selection.
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

impl Shape {
    fn resolved(&self) -> &Shape {
        match self {
            Shape::Named(d) => d.shape.resolved(),
            Shape::ExactlyOne { shape, .. } => shape.resolved(),
            s => s,
        }
    }

    /// Whether this shape can accept `v`'s JSON type at its top (the type compared as the value's
    /// variant, not by name).
    fn accepts_type(&self, v: &Value) -> bool {
        match self.resolved() {
            Shape::Str | Shape::Binary | Shape::Const(_) | Shape::Enum(_) => v.is_string(),
            Shape::Number | Shape::Integer { .. } | Shape::ConstNumber(_) => v.is_number(),
            Shape::Bool => v.is_boolean(),
            Shape::Null => v.is_null(),
            Shape::Array(_) => v.is_array(),
            Shape::Object(_) | Shape::Map(_) | Shape::Tagged { .. } | Shape::JsonObject => v.is_object(),
            Shape::AnyOf(alts) => alts.iter().any(|a| a.accepts_type(v)),
            Shape::Json => true,
            Shape::Named(_) | Shape::ExactlyOne { .. } => false,
        }
    }

    /// A short description of what this shape expects, for error messages.
    pub fn describe(&self) -> String {
        match self {
            Shape::Str => "a string".into(),
            Shape::Binary => "binary data (a base64, data URL or URL string)".into(),
            Shape::Number => "a finite number".into(),
            Shape::Bool => "a boolean".into(),
            Shape::Integer { min, max } => format!("an integer from {min} to {max}"),
            Shape::Null => "null".into(),
            Shape::Const(c) => format!("\"{c}\""),
            Shape::ConstNumber(n) => format!("{n}"),
            Shape::Enum(set) => set.iter().map(|s| format!("\"{s}\"")).collect::<Vec<_>>().join(" | "),
            Shape::Array(item) => format!("an array of {}", item.describe()),
            Shape::Object(_) => "an object".into(),
            Shape::Map(_) | Shape::JsonObject => "an object".into(),
            Shape::AnyOf(alts) => alts.iter().map(|a| a.describe()).collect::<Vec<_>>().join(" or "),
            Shape::Tagged { .. } => "an object".into(),
            Shape::Json => "a JSON value".into(),
            Shape::Named(d) => d.name.into(),
            Shape::ExactlyOne { keys, .. } => format!("an object with exactly one of {}", keys.join(", ")),
        }
    }

    /// Validate `value` against this shape; the error names the first failing place.
    ///
    /// A value that passes costs one allocation-free walk ([`Shape::accepts`]); only a failing
    /// one is walked again in declaration order to name the first failing place.
    pub fn validate(&self, value: &Value) -> Result<(), EncodeError> {
        let accepted = self.accepts(value);
        let mut path = String::new();
        if accepted {
            debug_assert!(
                self.check(value, &mut path).is_ok(),
                "accepts and check disagree on {value}"
            );
            return Ok(());
        }
        let result = self.check(value, &mut path);
        debug_assert!(result.is_err(), "accepts and check disagree on {value}");
        result
    }

    /// Whether `value` has this shape: the fast path of [`Shape::validate`], with no path and no
    /// allocation; each object is walked once, key by key.
    pub fn accepts(&self, v: &Value) -> bool {
        match self {
            Shape::Named(d) => d.shape.accepts(v),
            Shape::Str | Shape::Binary => v.is_string(),
            Shape::Number => v.is_number(),
            Shape::Bool => v.is_boolean(),
            Shape::ExactlyOne { keys, shape } => shape.accepts(v) && present(v, keys) == 1,
            Shape::Integer { min, max } => v
                .as_f64()
                .is_some_and(|n| n.fract() == 0.0 && n >= *min as f64 && n <= *max as f64),
            Shape::Null => v.is_null(),
            Shape::ConstNumber(n) => v.as_f64() == Some(f64::from(*n)),
            Shape::Const(c) => v.as_str().is_some_and(|s| same_key(s, c)),
            Shape::Enum(set) => v.as_str().is_some_and(|s| set.iter().any(|c| same_key(s, c))),
            Shape::Array(item) => v.as_array().is_some_and(|a| a.iter().all(|x| item.accepts_inline(x))),
            Shape::Object(fields) => {
                let Some(map) = v.as_object() else { return false };
                let mut required = 0;
                let mut cursor = FieldCursor::default();
                for (k, x) in map {
                    match cursor.find(fields, k) {
                        Some(f) if f.shape.accepts_inline(x) => required += usize::from(f.required),
                        Some(_) => return false,
                        None if fields.strict => return false,
                        None => {}
                    }
                }
                required == fields.fields.iter().filter(|f| f.required).count()
            }
            Shape::Map(value_shape) => v
                .as_object()
                .is_some_and(|m| m.values().all(|x| value_shape.accepts_inline(x))),
            Shape::AnyOf(alts) => alts.iter().find(|a| a.accepts_type(v)).is_some_and(|a| a.accepts(v)),
            Shape::Tagged { tag, variants } => {
                let Some(t) = v.as_object().and_then(|m| find_key(m, tag)).and_then(Value::as_str) else {
                    return false;
                };
                variants
                    .iter()
                    .find(|s| variant_tag(s, tag).is_some_and(|c| same_key(c, t)))
                    .is_some_and(|s| s.accepts(v))
            }
            Shape::Json => true,
            Shape::JsonObject => v.is_object(),
        }
    }

    /// [`Shape::accepts`], with the leaves most fields are (a string, a number) answered in the
    /// caller's loop rather than by a call.
    #[inline(always)]
    pub fn accepts_inline(&self, v: &Value) -> bool {
        match self {
            Shape::Str | Shape::Binary => v.is_string(),
            Shape::Number => v.is_number(),
            _ => self.accepts(v),
        }
    }

    /// [`Shape::validate`] of a value found at `path` (a JSON pointer, which the error extends):
    /// for a caller that checks an object's fields itself ([`Fields::missing`],
    /// [`Fields::undeclared`]) and names the first failing place exactly as `validate` would.
    pub fn validate_at(&self, v: &Value, path: &mut String) -> Result<(), EncodeError> {
        if self.accepts(v) {
            return Ok(());
        }
        self.check(v, path)
    }

    fn check(&self, v: &Value, path: &mut String) -> Result<(), EncodeError> {
        let fail = |path: &String, expected: String| {
            Err(EncodeError::invalid(
                path,
                format!("{expected}, found {}", type_name(v)),
            ))
        };
        match self {
            Shape::Named(d) => {
                let here = path.len();
                match d.shape.check(v, path) {
                    // A union that failed at its own place: name it instead of listing its parts.
                    Err(e) if e.path.len() == here && matches!(d.shape, Shape::Tagged { .. } | Shape::AnyOf(_)) => {
                        Err(EncodeError::invalid(&e.path, format!("{} ({})", d.name, e.expected)))
                    }
                    r => r,
                }
            }
            Shape::Str | Shape::Binary => {
                if v.is_string() {
                    Ok(())
                } else {
                    fail(path, "a string".into())
                }
            }
            Shape::Number => {
                if v.is_number() {
                    Ok(())
                } else {
                    fail(path, "a finite number".into())
                }
            }
            Shape::Bool => {
                if v.is_boolean() {
                    Ok(())
                } else {
                    fail(path, "a boolean".into())
                }
            }
            Shape::ExactlyOne { keys, shape } => {
                shape.check(v, path)?;
                match present(v, keys) {
                    1 => Ok(()),
                    n => Err(EncodeError::invalid(
                        path,
                        format!("exactly one of {} (found {n})", keys.join(", ")),
                    )),
                }
            }
            Shape::Integer { min, max } => match v.as_f64() {
                Some(n) if n.fract() == 0.0 && n >= *min as f64 && n <= *max as f64 => Ok(()),
                _ => fail(path, self.describe()),
            },
            Shape::Null => {
                if v.is_null() {
                    Ok(())
                } else {
                    fail(path, "null".into())
                }
            }
            Shape::ConstNumber(n) => {
                if v.as_f64() == Some(f64::from(*n)) {
                    Ok(())
                } else {
                    fail(path, format!("the number {n}"))
                }
            }
            Shape::Const(c) => {
                if v.as_str() == Some(c) {
                    Ok(())
                } else {
                    Err(EncodeError::invalid(path, format!("\"{c}\"")))
                }
            }
            Shape::Enum(set) => match v.as_str() {
                Some(s) if set.contains(&s) => Ok(()),
                _ => Err(EncodeError::invalid(path, format!("one of {}", self.describe()))),
            },
            Shape::Array(item) => {
                let Some(items) = v.as_array() else {
                    return fail(path, self.describe());
                };
                // Only the first item that fails is walked again to name its place.
                if let Some((i, x)) = items.iter().enumerate().find(|(_, x)| !item.accepts(x)) {
                    let len = path.len();
                    let _ = write!(path, "/{i}");
                    item.check(x, path)?;
                    path.truncate(len);
                }
                Ok(())
            }
            Shape::Object(fields) => {
                let Some(map) = v.as_object() else {
                    return fail(path, "an object".into());
                };
                check_fields(fields, map, path)
            }
            Shape::Map(value_shape) => {
                let Some(map) = v.as_object() else {
                    return fail(path, "an object".into());
                };
                if let Some((k, x)) = map.iter().find(|(_, x)| !value_shape.accepts(x)) {
                    let len = path.len();
                    push_key(path, k);
                    value_shape.check(x, path)?;
                    path.truncate(len);
                }
                Ok(())
            }
            Shape::AnyOf(alts) => match alts.iter().find(|a| a.accepts_type(v)) {
                Some(alt) => alt.check(v, path),
                None => fail(path, self.describe()),
            },
            Shape::Tagged { tag, variants } => {
                let Some(map) = v.as_object() else {
                    return fail(path, "an object".into());
                };
                let tags: Vec<&str> = variants.iter().filter_map(|s| variant_tag(s, tag)).collect();
                let found = map.get(*tag).and_then(Value::as_str);
                let Some(i) = found.and_then(|t| tags.iter().position(|x| *x == t)) else {
                    let len = path.len();
                    push_key(path, tag);
                    let list = tags.iter().map(|t| format!("\"{t}\"")).collect::<Vec<_>>().join(" | ");
                    let e = EncodeError::invalid(path, format!("one of {list}"));
                    path.truncate(len);
                    return Err(e);
                };
                variants[i].check(v, path)
            }
            Shape::Json => Ok(()),
            Shape::JsonObject => {
                if v.is_object() {
                    Ok(())
                } else {
                    fail(path, "a JSON object".into())
                }
            }
        }
    }
}

/// How many of `keys` the object `v` has.
fn present(v: &Value, keys: &[&str]) -> usize {
    keys.iter().filter(|k| v.get(**k).is_some()).count()
}

fn check_fields(fields: &Fields, map: &Map<String, Value>, path: &mut String) -> Result<(), EncodeError> {
    for f in fields.fields {
        let x = map.get(f.name);
        // A field that passes needs no place: only the first failing one is walked again.
        if x.is_some_and(|x| f.shape.accepts(x)) {
            continue;
        }
        let len = path.len();
        push_key(path, f.name);
        match x {
            Some(x) => f.shape.check(x, path)?,
            None if f.required => return Err(Fields::missing(f, path)),
            None => {}
        }
        path.truncate(len);
    }
    if fields.strict {
        if let Some(k) = map.keys().find(|k| !fields.fields.iter().any(|f| f.name == k.as_str())) {
            let len = path.len();
            push_key(path, k);
            let e = fields.undeclared(path);
            path.truncate(len);
            return Err(e);
        }
    }
    Ok(())
}

impl Fields {
    /// The error for the required field `f`, absent at `path` (the field's own pointer).
    pub fn missing(f: &Field, path: &str) -> EncodeError {
        EncodeError::invalid(path, format!("{} (required)", f.shape.describe()))
    }

    /// The error for an undeclared key of a strict object, at `path` (the key's own pointer).
    pub fn undeclared(&self, path: &str) -> EncodeError {
        let declared = self.fields.iter().map(|f| f.name).collect::<Vec<_>>().join(", ");
        EncodeError::invalid(path, format!("no such key (undeclared; declared keys: {declared})"))
    }
}

/// Append `key` to a JSON pointer, escaped as RFC 6901 says.
pub fn push_key(path: &mut String, key: &str) {
    path.push('/');
    if !key.contains(['~', '/']) {
        path.push_str(key);
        return;
    }
    for c in key.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

/// Whether two keys are equal: lengths and first bytes first, since the keys a shape declares
/// mostly differ there; then the bytes, compared inline a word at a time (a key is short: a
/// call to the C library's comparison costs more than the comparison).
#[inline(always)]
pub fn same_key(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.first() == b.first() && same_bytes(a, b)
}

/// Whether two byte strings are equal: their lengths, then their bytes compared inline a word at
/// a time (most strings of a command are short: a call to the C library's comparison, which
/// compares a byte at a time in wasm, costs more than the comparison).
#[inline(always)]
pub fn same_text(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && same_bytes(a, b)
}

/// The value of `key` in `map`: a small map (the objects of a command mostly are) is walked with
/// [`same_key`]'s inline comparisons, which cost less than a search calling the C library's
/// comparison at every node; a large one is searched.
#[inline]
pub fn find_key<'m>(map: &'m Map<String, Value>, key: &str) -> Option<&'m Value> {
    if map.len() > 12 {
        return map.get(key);
    }
    map.iter().find(|(k, _)| same_key(k, key)).map(|(_, v)| v)
}

/// Whether two byte strings of the same length are equal.
#[inline(always)]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    fn word(s: &[u8], at: usize) -> u64 {
        let mut w = [0u8; 8];
        w.copy_from_slice(&s[at..at + 8]);
        u64::from_ne_bytes(w)
    }
    fn half(s: &[u8], at: usize) -> u32 {
        let mut w = [0u8; 4];
        w.copy_from_slice(&s[at..at + 4]);
        u32::from_ne_bytes(w)
    }
    let n = a.len().min(b.len());
    if n >= 8 {
        // Whole words, then the last word (overlapping the one before it).
        (0..n / 8).all(|i| word(a, i * 8) == word(b, i * 8)) && word(a, n - 8) == word(b, n - 8)
    } else if n >= 4 {
        half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4)
    } else {
        (0..n).all(|i| a[i] == b[i])
    }
}

/// Finds an object's keys among its shape's declared fields, searching from just after the
/// field found last: an object's keys come in sorted order, and most shapes declare their fields
/// in that order too, so the next key is mostly the next field or one of the few after it.
#[derive(Default)]
pub struct FieldCursor {
    next: usize,
}

impl FieldCursor {
    /// The declared field `key` of `fields`.
    #[inline(always)]
    pub fn find(&mut self, fields: &'static Fields, key: &str) -> Option<&'static Field> {
        let all = fields.fields;
        let start = self.next.min(all.len());
        // Mostly the next key is the next field.
        if let Some(f) = all.get(start).filter(|f| same_key(f.name, key)) {
            self.next = start + 1;
            return Some(f);
        }
        let (after, before) = (&all[start..], &all[..start]);
        let at = match after.iter().position(|f| same_key(f.name, key)) {
            Some(i) => start + i,
            None => before.iter().position(|f| same_key(f.name, key))?,
        };
        self.next = at + 1;
        Some(&all[at])
    }

    /// The index among the declared fields of the field [`FieldCursor::find`] found last.
    #[inline(always)]
    pub fn last(&self) -> usize {
        self.next.wrapping_sub(1)
    }
}

/// The value of a variant's tag `tag` (its `Const` field), if it has one.
pub fn variant_tag(s: &Shape, tag: &str) -> Option<&'static str> {
    match s.resolved() {
        Shape::Object(fields) => fields
            .fields
            .iter()
            .find(|f| same_key(f.name, tag))
            .and_then(|f| match f.shape {
                Shape::Const(c) => Some(*c),
                _ => None,
            }),
        _ => None,
    }
}

/// Render `root` as a canonical JSON Schema (draft 2020-12) document with the given `$id`.
pub fn json_schema(root: &'static Shape, id: &str, title: &str) -> Value {
    let mut defs = BTreeMap::new();
    let body = schema_of(root, &mut defs);
    let mut doc = match body {
        Value::Object(m) => m,
        other => {
            let mut m = Map::new();
            m.insert("allOf".into(), json!([other]));
            m
        }
    };
    doc.insert("$schema".into(), json!("https://json-schema.org/draft/2020-12/schema"));
    doc.insert("$id".into(), json!(id));
    doc.insert("title".into(), json!(title));
    if !defs.is_empty() {
        doc.insert("$defs".into(), Value::Object(defs.into_iter().collect()));
    }
    Value::Object(doc)
}

fn schema_of(s: &'static Shape, defs: &mut BTreeMap<String, Value>) -> Value {
    match s {
        Shape::Str | Shape::Binary => json!({"type": "string"}),
        Shape::Number => json!({"type": "number"}),
        Shape::Bool => json!({"type": "boolean"}),
        Shape::ExactlyOne { keys, shape } => {
            let mut inner = schema_of(shape, defs);
            let one: Vec<Value> = keys.iter().map(|k| json!({"required": [k]})).collect();
            if let Value::Object(m) = &mut inner {
                m.insert("oneOf".into(), Value::Array(one));
            }
            inner
        }
        Shape::Integer { min, max } => json!({"type": "integer", "minimum": min, "maximum": max}),
        Shape::Null => json!({"type": "null"}),
        Shape::Const(c) => json!({"const": c}),
        Shape::Enum(set) => json!({"enum": set}),
        Shape::Array(item) => json!({"type": "array", "items": schema_of(item, defs)}),
        Shape::Object(fields) => {
            let props: Map<String, Value> = fields
                .fields
                .iter()
                .map(|f| (f.name.to_string(), schema_of(f.shape, defs)))
                .collect();
            let required: Vec<&str> = fields.fields.iter().filter(|f| f.required).map(|f| f.name).collect();
            let mut m = Map::new();
            m.insert("type".into(), json!("object"));
            m.insert("properties".into(), Value::Object(props));
            if !required.is_empty() {
                m.insert("required".into(), json!(required));
            }
            if fields.strict {
                m.insert("additionalProperties".into(), json!(false));
            }
            Value::Object(m)
        }
        Shape::Map(v) => json!({"type": "object", "additionalProperties": schema_of(v, defs)}),
        Shape::AnyOf(alts) => {
            json!({"anyOf": alts.iter().map(|a| schema_of(a, defs)).collect::<Vec<_>>()})
        }
        Shape::Tagged { variants, .. } => {
            json!({"oneOf": variants.iter().map(|a| schema_of(a, defs)).collect::<Vec<_>>()})
        }
        Shape::Json => json!({}),
        Shape::ConstNumber(n) => json!({"const": n}),
        Shape::JsonObject => json!({"type": "object"}),
        Shape::Named(d) => {
            if !defs.contains_key(d.name) {
                defs.insert(d.name.into(), Value::Null);
                let mut body = schema_of(&d.shape, defs);
                if let Value::Object(m) = &mut body {
                    m.insert("title".into(), json!(d.id));
                    m.insert("description".into(), json!(d.doc));
                }
                defs.insert(d.name.into(), body);
            }
            json!({"$ref": format!("#/$defs/{}", d.name)})
        }
    }
}

/// Every named shape reachable from `root`, each once, in first-reached order.
pub fn named_defs(root: &'static Shape) -> Vec<&'static Def> {
    fn walk(s: &'static Shape, out: &mut Vec<&'static Def>) {
        match s {
            Shape::Named(d) if !out.iter().any(|x| std::ptr::eq(*x, *d)) => {
                out.push(d);
                walk(&d.shape, out);
            }
            Shape::Array(x) | Shape::Map(x) | Shape::ExactlyOne { shape: x, .. } => walk(x, out),
            Shape::Object(f) => f.fields.iter().for_each(|f| walk(f.shape, out)),
            Shape::AnyOf(a) | Shape::Tagged { variants: a, .. } => a.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(root, &mut out);
    out
}

/// A TypeScript type expression for `s` (named shapes by name).
pub fn typescript(s: &Shape) -> String {
    match s {
        Shape::Str => "string".into(),
        Shape::Binary => "Binary".into(),
        Shape::Number | Shape::Integer { .. } => "number".into(),
        Shape::Bool => "boolean".into(),
        Shape::ExactlyOne { keys, shape } => {
            let Shape::Object(fields) = shape else {
                return typescript(shape);
            };
            let arms: Vec<String> = keys
                .iter()
                .map(|k| {
                    let mut arm = String::from("{ ");
                    for other in *keys {
                        let f = fields.fields.iter().find(|f| f.name == *other);
                        let ts = f.map_or_else(|| "unknown".into(), |f| typescript(f.shape));
                        if other == k {
                            let _ = write!(arm, "readonly {}: {ts}; ", ts_key(other));
                        } else {
                            let _ = write!(arm, "readonly {}?: never; ", ts_key(other));
                        }
                    }
                    arm.push('}');
                    arm
                })
                .collect();
            format!("{} & ({})", typescript(shape), arms.join(" | "))
        }
        Shape::Null => "null".into(),
        Shape::Const(c) => format!("\"{c}\""),
        Shape::ConstNumber(n) => format!("{n}"),
        Shape::Enum(set) => set.iter().map(|s| format!("\"{s}\"")).collect::<Vec<_>>().join(" | "),
        Shape::Array(item) => match item {
            Shape::AnyOf(_) | Shape::Enum(_) | Shape::Tagged { .. } => format!("ReadonlyArray<{}>", typescript(item)),
            _ => format!("readonly {}[]", typescript(item)),
        },
        Shape::Object(fields) => {
            let mut out = String::from("{ ");
            for f in fields.fields {
                let _ = write!(
                    out,
                    "readonly {}{}: {}; ",
                    ts_key(f.name),
                    if f.required { "" } else { "?" },
                    typescript(f.shape)
                );
            }
            if !fields.strict {
                out.push_str("readonly [extension: string]: unknown; ");
            }
            out.push('}');
            out
        }
        Shape::Map(v) => format!("{{ readonly [key: string]: {} }}", typescript(v)),
        Shape::AnyOf(alts) | Shape::Tagged { variants: alts, .. } => {
            alts.iter().map(|a| typescript(a)).collect::<Vec<_>>().join(" | ")
        }
        Shape::Json => "JsonValue".into(),
        Shape::JsonObject => "JsonObject".into(),
        Shape::Named(d) => d.name.into(),
    }
}

fn ts_key(k: &str) -> String {
    if k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !k.starts_with(|c: char| c.is_ascii_digit()) {
        k.into()
    } else {
        format!("\"{k}\"")
    }
}

/// Read a JSON Schema this module rendered (`json_schema`) back into a shape, so a frozen schema
/// — one committed at another git revision, say — can be compared with the code's shapes by the
/// breaking-change classifier. The shapes are leaked: this is for short-lived tools (the guard,
/// `hookwire diff`). Only the vocabulary `json_schema` writes is understood.
pub fn from_json_schema(doc: &Value) -> Result<&'static Shape, String> {
    let defs = doc.get("$defs").and_then(Value::as_object).cloned().unwrap_or_default();
    let mut cache: BTreeMap<String, Option<&'static Shape>> = BTreeMap::new();
    read_schema(doc, &defs, &mut cache)
}

fn leak_str(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

fn leak(s: Shape) -> &'static Shape {
    Box::leak(Box::new(s))
}

fn read_schema(
    v: &Value,
    defs: &Map<String, Value>,
    // A `$defs` entry's shape once read; `None` while it is being read (a `$ref` to it then is a
    // cycle: `json_schema` never writes a recursive shape, and reading one would never end).
    cache: &mut BTreeMap<String, Option<&'static Shape>>,
) -> Result<&'static Shape, String> {
    if let Some(r) = v.get("$ref").and_then(Value::as_str) {
        let name = r
            .strip_prefix("#/$defs/")
            .ok_or_else(|| format!("unsupported $ref {r}"))?;
        let named = match cache.get(name) {
            Some(Some(s)) => s,
            Some(None) => return Err(format!("unsupported $ref {r}: {name} refers to itself")),
            None => {
                let body = defs.get(name).ok_or_else(|| format!("no $defs entry {name}"))?;
                cache.insert(name.into(), None);
                let inner = read_schema(body, defs, cache)?;
                let def = Box::leak(Box::new(Def {
                    name: leak_str(name),
                    id: leak_str(body.get("title").and_then(Value::as_str).unwrap_or(name)),
                    doc: leak_str(body.get("description").and_then(Value::as_str).unwrap_or("")),
                    shape: *inner,
                }));
                let named = leak(Shape::Named(def));
                cache.insert(name.into(), Some(named));
                named
            }
        };
        // `json_schema` writes an exactly-one constraint over a named shape beside its `$ref`.
        return Ok(exactly_one(v, named));
    }
    if let Some(c) = v.get("const") {
        return match c {
            Value::String(s) => Ok(leak(Shape::Const(leak_str(s)))),
            Value::Number(n) => n
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .map(|n| leak(Shape::ConstNumber(n)))
                .ok_or_else(|| format!("unsupported const {c}")),
            _ => Err(format!("unsupported const {c}")),
        };
    }
    if let Some(Value::Array(values)) = v.get("enum") {
        let set: Vec<&'static str> = values.iter().filter_map(Value::as_str).map(leak_str).collect();
        return Ok(leak(Shape::Enum(Box::leak(set.into_boxed_slice()))));
    }
    if let Some(Value::Array(alts)) = v.get("anyOf") {
        let parts = alts
            .iter()
            .map(|a| read_schema(a, defs, cache))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(leak(Shape::AnyOf(Box::leak(parts.into_boxed_slice()))));
    }
    if v.get("type").is_none() {
        if let Some(Value::Array(alts)) = v.get("oneOf") {
            let variants = alts
                .iter()
                .map(|a| read_schema(a, defs, cache))
                .collect::<Result<Vec<_>, _>>()?;
            let tag = ["kind", "type"]
                .into_iter()
                .find(|t| variants.iter().all(|s| variant_tag(s, t).is_some()))
                .ok_or("a oneOf whose variants share no const tag")?;
            return Ok(leak(Shape::Tagged {
                tag,
                variants: Box::leak(variants.into_boxed_slice()),
            }));
        }
        return Ok(leak(Shape::Json));
    }
    match v["type"].as_str() {
        Some("string") => Ok(leak(Shape::Str)),
        Some("number") => Ok(leak(Shape::Number)),
        Some("boolean") => Ok(leak(Shape::Bool)),
        Some("null") => Ok(leak(Shape::Null)),
        Some("integer") => Ok(leak(Shape::Integer {
            min: v.get("minimum").and_then(Value::as_i64).unwrap_or(i64::MIN),
            max: v.get("maximum").and_then(Value::as_i64).unwrap_or(i64::MAX),
        })),
        Some("array") => Ok(leak(Shape::Array(read_schema(&v["items"], defs, cache)?))),
        Some("object") => {
            let props = v.get("properties").and_then(Value::as_object);
            let extra = v.get("additionalProperties");
            let Some(props) = props else {
                return match extra {
                    Some(x @ Value::Object(_)) => Ok(leak(Shape::Map(read_schema(x, defs, cache)?))),
                    _ => Ok(leak(Shape::JsonObject)),
                };
            };
            let required: Vec<&str> = v
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let mut fields = Vec::new();
            for (name, schema) in props {
                let shape = read_schema(schema, defs, cache)?;
                let name = leak_str(name);
                fields.push(Field {
                    name,
                    shape,
                    required: required.contains(&name),
                });
            }
            let object = Shape::Object(Box::leak(Box::new(Fields {
                fields: Box::leak(fields.into_boxed_slice()),
                strict: extra == Some(&Value::Bool(false)),
            })));
            Ok(exactly_one(v, leak(object)))
        }
        other => Err(format!("unsupported type {other:?}")),
    }
}

/// `shape`, under the exactly-one constraint the schema node `v` holds beside it (a `oneOf` of
/// `{"required": [key]}`, as `json_schema` writes [`Shape::ExactlyOne`]), if it holds one.
fn exactly_one(v: &Value, shape: &'static Shape) -> &'static Shape {
    match v.get("oneOf").and_then(Value::as_array) {
        Some(one) => {
            let keys: Vec<&'static str> = one
                .iter()
                .filter_map(|r| r["required"].get(0).and_then(Value::as_str))
                .map(leak_str)
                .collect();
            if keys.is_empty() || keys.len() != one.len() {
                return shape;
            }
            leak(Shape::ExactlyOne {
                keys: Box::leak(keys.into_boxed_slice()),
                shape,
            })
        }
        None => shape,
    }
}

/// `export type Name = …;` for a named shape, with its doc and stable identifier.
pub fn render_ts_def(out: &mut String, d: &Def) {
    use std::fmt::Write as _;
    let _ = writeln!(
        out,
        "/** {} ({}) */\nexport type {} = {};\n",
        d.doc,
        d.id,
        d.name,
        typescript(&d.shape)
    );
}

/// Whether `d` is the wire shape `wire` or one of its variants (the encoder's declarations
/// render those; the decoder's render the decoded values instead).
pub fn is_variant_of(wire: &'static Shape, d: &Def) -> bool {
    let Shape::Named(w) = wire else { return false };
    let Shape::Tagged { variants, .. } = &w.shape else {
        return false;
    };
    std::ptr::eq(*w, d)
        || variants
            .iter()
            .any(|v| matches!(v, Shape::Named(x) if std::ptr::eq(*x, d)))
}

/// The fields of the variant of the tagged shape `wire` whose tag is `value` (`kind: "deliver"`),
/// or none.
pub fn variant_fields(wire: &'static Shape, value: &str) -> &'static [Field] {
    let Shape::Named(def) = wire else { return &[] };
    let Shape::Tagged { tag, variants } = &def.shape else {
        return &[];
    };
    variants
        .iter()
        .find(|v| variant_tag(v, tag) == Some(value))
        .and_then(|v| match v.resolved() {
            Shape::Object(f) => Some(f.fields),
            _ => None,
        })
        .unwrap_or(&[])
}

/// The JSON pointers of `shape`'s binary places, `*` standing for any array index or map key
/// (`/payloads/*/message/*/image`), each with the tag value of the variant it is in (`""` when
/// the shape is not tagged).
pub fn binary_places(shape: &'static Shape) -> Vec<(String, String)> {
    fn walk(s: &'static Shape, at: &str, tag: &str, out: &mut Vec<(String, String)>) {
        match s {
            Shape::Binary => out.push((tag.to_string(), at.to_string())),
            Shape::Named(d) => walk(&d.shape, at, tag, out),
            Shape::Object(f) => {
                for field in f.fields {
                    walk(field.shape, &format!("{at}/{}", field.name), tag, out);
                }
            }
            Shape::Array(inner) | Shape::Map(inner) => walk(inner, &format!("{at}/*"), tag, out),
            Shape::AnyOf(all) => {
                for inner in all.iter() {
                    walk(inner, at, tag, out);
                }
            }
            Shape::Tagged { tag: key, variants } => {
                for v in variants.iter() {
                    walk(
                        v,
                        at,
                        if at.is_empty() {
                            variant_tag(v, key).unwrap_or("")
                        } else {
                            tag
                        },
                        out,
                    );
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(shape, "", "", &mut out);
    out.sort();
    out.dedup();
    out
}

/// The JSON types a shape can accept at its top, one bit each (null, boolean, number, string,
/// array, object), as [`Shape::accepts_type`] answers them.
fn type_bits(s: &Shape) -> u8 {
    const NULL: u8 = 1;
    const BOOL: u8 = 2;
    const NUMBER: u8 = 4;
    const STRING: u8 = 8;
    const ARRAY: u8 = 16;
    const OBJECT: u8 = 32;
    match s.resolved() {
        Shape::Str | Shape::Binary | Shape::Const(_) | Shape::Enum(_) => STRING,
        Shape::Number | Shape::Integer { .. } | Shape::ConstNumber(_) => NUMBER,
        Shape::Bool => BOOL,
        Shape::Null => NULL,
        Shape::Array(_) => ARRAY,
        Shape::Object(_) | Shape::Map(_) | Shape::Tagged { .. } | Shape::JsonObject => OBJECT,
        Shape::AnyOf(alts) => alts.iter().fold(0, |bits, a| bits | type_bits(a)),
        Shape::Json => NULL | BOOL | NUMBER | STRING | ARRAY | OBJECT,
        Shape::Named(_) | Shape::ExactlyOne { .. } => 0,
    }
}

/// Whether every value `narrow` accepts, `wide` accepts too, as far as the two shapes prove it:
/// `false` means "not shown", never "some value fails". Decided from the shapes alone (no value
/// is looked at), so a caller that already knows a value has `narrow` can skip checking it
/// against `wide`. The rules follow [`Shape::accepts`] form by form: the same or a wider
/// primitive; any JSON, or any object for an object-like shape; an array's items; a map's values;
/// an object's fields by name (a field `wide` requires is required in `narrow`, a field `narrow`
/// declares is declared by `wide` unless `wide` is loose, and a loose `narrow` only into a loose
/// `wide` that declares nothing `narrow` does not); a tagged union variant by variant, and any
/// union by the alternative `wide` picks for each JSON type `narrow` can hold.
pub fn fits(narrow: &Shape, wide: &Shape) -> bool {
    if core::ptr::eq(narrow, wide) {
        return true;
    }
    match (narrow, wide) {
        (Shape::Named(d), _) => return fits(&d.shape, wide),
        (_, Shape::Named(d)) => return fits(narrow, &d.shape),
        _ => {}
    }
    match (narrow, wide) {
        (_, Shape::Json) => true,
        (Shape::ExactlyOne { keys: kn, shape: n }, Shape::ExactlyOne { keys: kw, shape: w }) => kn == kw && fits(n, w),
        // Every value of an `ExactlyOne` has its object shape.
        (Shape::ExactlyOne { shape, .. }, _) => fits(shape, wide),
        (_, Shape::ExactlyOne { .. }) => false,
        (Shape::Object(_) | Shape::Map(_) | Shape::Tagged { .. } | Shape::JsonObject, Shape::JsonObject) => true,
        (Shape::Str | Shape::Binary | Shape::Const(_) | Shape::Enum(_), Shape::Str | Shape::Binary) => true,
        (Shape::Number | Shape::Integer { .. } | Shape::ConstNumber(_), Shape::Number) => true,
        (Shape::Bool, Shape::Bool) | (Shape::Null, Shape::Null) => true,
        (Shape::Integer { min: a, max: b }, Shape::Integer { min, max }) => min <= a && b <= max,
        (Shape::ConstNumber(n), Shape::Integer { min, max }) => (*min..=*max).contains(&i64::from(*n)),
        (Shape::ConstNumber(n), Shape::ConstNumber(m)) => n == m,
        (Shape::Const(c), Shape::Const(d)) => c == d,
        (Shape::Const(c), Shape::Enum(set)) => set.contains(c),
        (Shape::Enum(own), Shape::Enum(set)) => own.iter().all(|c| set.contains(c)),
        (Shape::Enum(own), Shape::Const(d)) => own.iter().all(|c| c == d),
        (Shape::Array(n), Shape::Array(w)) | (Shape::Map(n), Shape::Map(w)) => fits(n, w),
        (Shape::Object(n), Shape::Object(w)) => fields_fit(n, w),
        (Shape::Tagged { tag: tn, variants: vn }, Shape::Tagged { tag, variants }) if tn == tag => {
            // `wide` checks a value against its first variant with the value's tag.
            vn.iter().all(|n| {
                let wide_variant = variant_tag(n, tag).and_then(|t| {
                    variants
                        .iter()
                        .find(|w| variant_tag(w, tag).is_some_and(|c| same_key(c, t)))
                });
                wide_variant.is_some_and(|w| fits(n, w))
            })
        }
        (_, Shape::AnyOf(alts)) => {
            // `wide` checks a value against its first alternative that takes the value's JSON
            // type: each alternative of `narrow` must meet one and the same one of those.
            let narrow_alts: &[&Shape] = match narrow {
                Shape::AnyOf(own) => own,
                _ => core::slice::from_ref(&narrow),
            };
            narrow_alts.iter().all(|n| {
                let bits = type_bits(n);
                let mut picked = (0..8)
                    .filter(|b| bits & (1 << b) != 0)
                    .map(|b| alts.iter().position(|w| type_bits(w) & (1 << b) != 0));
                match picked.next().flatten() {
                    Some(i) => picked.all(|p| p == Some(i)) && fits(n, alts[i]),
                    None => false,
                }
            })
        }
        (Shape::AnyOf(own), _) => own.iter().all(|n| fits(n, wide)),
        _ => false,
    }
}

/// [`fits`] for the values of `narrow` that lack some keys: `Some(keys)` when every value of
/// `narrow` without any of `keys` at its top (an array's: in each of its items) is accepted by
/// `wide` — the fields an object shape declares that a strict `wide` does not, one level down for
/// arrays; `Some` of nothing when `narrow` fits `wide` outright, `None` when neither is shown.
pub fn fits_without(narrow: &Shape, wide: &Shape) -> Option<Vec<&'static str>> {
    if fits(narrow, wide) {
        return Some(Vec::new());
    }
    match (narrow, wide) {
        (Shape::Named(d), _) => fits_without(&d.shape, wide),
        (_, Shape::Named(d)) => fits_without(narrow, &d.shape),
        (Shape::Array(n), Shape::Array(w)) => fits_without(n, w),
        (Shape::Object(n), Shape::Object(w)) if n.strict && w.strict => {
            let keys: Vec<&'static str> = n
                .fields
                .iter()
                .filter(|f| !w.fields.iter().any(|x| same_key(x.name, f.name)))
                .map(|f| f.name)
                .collect();
            fields_fit_except(n, w, &keys).then_some(keys)
        }
        _ => None,
    }
}

/// Whether `v` lacks every one of `keys` at its top: an object holds none of them, an array's
/// items each lack them ([`fits_without`]'s condition).
pub fn lacks(v: &Value, keys: &[&str]) -> bool {
    match v {
        Value::Object(m) => !keys.iter().any(|k| find_key(m, k).is_some()),
        Value::Array(items) => items.iter().all(|x| lacks(x, keys)),
        _ => true,
    }
}

/// [`fits`] of two objects' declared fields.
fn fields_fit(narrow: &Fields, wide: &Fields) -> bool {
    fields_fit_except(narrow, wide, &[])
}

/// [`fields_fit`] for the values of `narrow` that hold none of `absent`.
fn fields_fit_except(narrow: &Fields, wide: &Fields, absent: &[&str]) -> bool {
    let declared = |fields: &Fields, name: &str| fields.fields.iter().find(|f| same_key(f.name, name));
    // A key `narrow` leaves undeclared may hold anything: `wide` must pass it through too.
    if !narrow.strict && (wide.strict || wide.fields.iter().any(|w| declared(narrow, w.name).is_none())) {
        return false;
    }
    let required = wide
        .fields
        .iter()
        .filter(|w| w.required)
        .all(|w| declared(narrow, w.name).is_some_and(|n| n.required && !absent.contains(&n.name)));
    required
        && narrow
            .fields
            .iter()
            .filter(|n| !absent.contains(&n.name))
            .all(|n| match declared(wide, n.name) {
                Some(w) => fits(n.shape, w.shape),
                None => !wide.strict,
            })
}

#[cfg(test)]
mod tests {
    use super::{fits, fits_without, lacks, opt, req, Fields, Shape};
    use serde_json::json;

    static STR: Shape = Shape::Str;
    static NUM: Shape = Shape::Number;
    static JSON: Shape = Shape::Json;
    static OBJ: Shape = Shape::JsonObject;
    static SMALL: Shape = Shape::Integer { min: 0, max: 9 };
    static BIG: Shape = Shape::Integer { min: -1, max: 99 };
    static A: Shape = Shape::Const("a");
    static AB: Shape = Shape::Enum(&["a", "b"]);
    static STRICT: Shape = Shape::Object(&Fields {
        strict: true,
        fields: &[req("x", &SMALL), opt("y", &A)],
    });
    static STRICT_WIDE: Shape = Shape::Object(&Fields {
        strict: true,
        fields: &[opt("x", &BIG), opt("y", &AB), opt("z", &STR)],
    });
    static STRICT_NO_Y: Shape = Shape::Object(&Fields {
        strict: true,
        fields: &[req("x", &BIG)],
    });
    static NEEDS_Z: Shape = Shape::Object(&Fields {
        strict: true,
        fields: &[opt("x", &BIG), opt("y", &AB), req("z", &STR)],
    });
    static LOOSE: Shape = Shape::Object(&Fields {
        strict: false,
        fields: &[opt("x", &SMALL)],
    });
    static LOOSE_WIDE: Shape = Shape::Object(&Fields {
        strict: false,
        fields: &[opt("x", &NUM)],
    });
    static LOOSE_MORE: Shape = Shape::Object(&Fields {
        strict: false,
        fields: &[opt("x", &NUM), opt("w", &STR)],
    });
    static STR_OR_NUM: Shape = Shape::AnyOf(&[&STR, &NUM]);
    static A_OR_SMALL: Shape = Shape::AnyOf(&[&A, &SMALL]);
    static SMALLS: Shape = Shape::Array(&SMALL);
    static BIGS: Shape = Shape::Array(&BIG);

    #[test]
    fn fits_holds_where_every_narrow_value_is_a_wide_one() {
        for (narrow, wide) in [
            (&STR, &STR),
            (&A, &AB),
            (&AB, &STR),
            (&SMALL, &BIG),
            (&SMALL, &NUM),
            (&STRICT, &OBJ),
            (&STRICT, &JSON),
            (&STRICT, &STRICT_WIDE),
            (&STRICT, &LOOSE_WIDE),
            (&LOOSE, &LOOSE_WIDE),
            (&SMALLS, &BIGS),
            (&A_OR_SMALL, &STR_OR_NUM),
            (&A, &STR_OR_NUM),
        ] {
            assert!(fits(narrow, wide), "{narrow:?} into {wide:?}");
        }
    }

    #[test]
    fn fits_fails_where_a_narrow_value_may_not_be_a_wide_one() {
        for (narrow, wide) in [
            (&STR, &A),
            (&NUM, &SMALL),
            (&BIG, &SMALL),
            (&JSON, &OBJ),
            (&OBJ, &STRICT),
            (&STRICT_WIDE, &STRICT),
            // `y` is declared by the narrow shape, not by the strict wide one.
            (&STRICT, &STRICT_NO_Y),
            // `z` is required by the wide shape, absent from the narrow one.
            (&STRICT, &NEEDS_Z),
            // A loose object's undeclared keys hold anything: not into a strict one, nor into one
            // declaring a key the narrow shape leaves open.
            (&LOOSE, &STRICT_WIDE),
            (&LOOSE, &LOOSE_MORE),
            (&LOOSE_WIDE, &LOOSE),
            (&BIGS, &SMALLS),
            (&STR_OR_NUM, &A_OR_SMALL),
            (&STR_OR_NUM, &STR),
        ] {
            assert!(!fits(narrow, wide), "{narrow:?} into {wide:?}");
        }
    }

    static STRICTS: Shape = Shape::Array(&STRICT);
    static NO_YS: Shape = Shape::Array(&STRICT_NO_Y);

    #[test]
    fn fits_without_names_the_keys_a_strict_wide_object_lacks() {
        assert_eq!(fits_without(&SMALL, &BIG), Some(vec![]));
        assert_eq!(fits_without(&STRICT, &STRICT_NO_Y), Some(vec!["y"]));
        assert_eq!(fits_without(&STRICTS, &NO_YS), Some(vec!["y"]));
        // Not shown: a required field missing, a loose narrow object, a field that does not fit.
        assert_eq!(fits_without(&STRICT, &NEEDS_Z), None);
        assert_eq!(fits_without(&LOOSE, &STRICT_NO_Y), None);
        assert_eq!(fits_without(&STRICT_WIDE, &STRICT), None);
        assert!(lacks(&json!({"x": 1}), &["y"]));
        assert!(!lacks(&json!({"x": 1, "y": "a"}), &["y"]));
        assert!(lacks(&json!([{"x": 1}, {"x": 2}]), &["y"]));
        assert!(!lacks(&json!([{"x": 1}, {"y": "a"}]), &["y"]));
    }
}
