//! The frozen JSON Schema of version 1: rendered from the same shape statics the encoder
//! validates with, compared byte for byte with the committed file, and checked to accept exactly
//! what the encoder accepts.

mod common;

use common::{cases, report, root, DECODE_DIRS};
use hookwire::artifacts::{blessing, compare_or_bless};
use hookwire::session_inbox::{v1, REGISTRY};
use hookwire::shape::{named_defs, typescript, Shape};
use serde_json::Value;

fn rendered() -> String {
    let mut s = serde_json::to_string_pretty(&v1::json_schema()).unwrap();
    s.push('\n');
    s
}

#[test]
fn schema_is_frozen() {
    let rel = format!("artifacts/{}/v1/schema.json", REGISTRY.name);
    compare_or_bless(&root(), &REGISTRY, 1, &rel, &rendered(), blessing()).unwrap();
}

#[test]
fn schema_declares_draft_2020_12_and_sorted_keys() {
    let text = rendered();
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert_eq!(v["$id"], v1::SCHEMA_ID);
    fn sorted(v: &Value) -> bool {
        match v {
            Value::Object(m) => m.keys().zip(m.keys().skip(1)).all(|(a, b)| a < b) && m.values().all(sorted),
            Value::Array(a) => a.iter().all(sorted),
            _ => true,
        }
    }
    assert!(sorted(&v));
}

fn validator() -> jsonschema::Validator {
    jsonschema::draft202012::new(&v1::json_schema()).expect("the rendered schema compiles")
}

/// Every value the fixtures can build: the encoder's complete v1 values (before validation) and
/// the v1 decode inputs.
fn candidates() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for case in cases("encode") {
        if let Ok(built) = v1::build(case.data["command"].clone()) {
            out.push((case.name.clone(), built));
        }
    }
    for dir in DECODE_DIRS {
        for case in cases(dir) {
            out.push((case.name.clone(), case.data["input"].clone()));
        }
    }
    out
}

#[test]
fn schema_accepts_exactly_what_the_encoder_accepts() {
    let schema = validator();
    let mut failures = Vec::new();
    let mut accepted = 0;
    for (name, value) in candidates() {
        let by_encoder = v1::validate(&value).is_ok();
        accepted += usize::from(by_encoder);
        if schema.is_valid(&value) != by_encoder {
            failures.push(format!(
                "{name}: encoder says {by_encoder}, schema disagrees on {value}"
            ));
        }
    }
    assert!(accepted > 10, "the fixtures exercise too few valid values");
    report(failures);
}

#[test]
fn named_shapes_have_unique_stable_identifiers() {
    let defs = named_defs(&v1::WIRE);
    let mut ids: Vec<&str> = defs.iter().map(|d| d.id).collect();
    let mut names: Vec<&str> = defs.iter().map(|d| d.name).collect();
    assert!(ids.iter().all(|id| id.starts_with("SessionInbox.")));
    ids.sort();
    names.sort();
    let (n_ids, n_names) = (ids.len(), names.len());
    ids.dedup();
    names.dedup();
    assert_eq!((ids.len(), names.len()), (n_ids, n_names), "duplicate identifiers");
}

#[test]
fn no_accidental_any_in_the_current_shape() {
    fn walk(s: &'static Shape, path: &str, out: &mut Vec<String>) {
        match s {
            Shape::Json => out.push(path.into()),
            Shape::Named(d) => walk(&d.shape, d.name, out),
            Shape::Array(x) | Shape::Map(x) => walk(x, path, out),
            Shape::Object(f) => f
                .fields
                .iter()
                .for_each(|f| walk(f.shape, &format!("{path}.{}", f.name), out)),
            Shape::AnyOf(a) | Shape::Tagged { variants: a, .. } => a.iter().for_each(|x| walk(x, path, out)),
            _ => {}
        }
    }
    let mut anys = Vec::new();
    walk(&v1::WIRE, "", &mut anys);
    assert!(anys.is_empty(), "untyped JSON values in the v1 shape: {anys:?}");
    for d in named_defs(&v1::WIRE) {
        assert!(!typescript(&d.shape).contains("any"), "{} renders `any`", d.name);
    }
}

#[test]
fn union_alternatives_differ_in_json_type() {
    // The validator picks an AnyOf alternative by JSON type; that is JSON Schema's anyOf only if
    // no two alternatives accept the same type.
    fn top(s: &Shape) -> &'static str {
        match s {
            Shape::Named(d) => top(&d.shape),
            Shape::Str | Shape::Const(_) | Shape::Enum(_) => "string",
            Shape::Null => "null",
            Shape::Array(_) => "array",
            Shape::Number | Shape::Integer { .. } | Shape::ConstNumber(_) => "number",
            _ => "object",
        }
    }
    fn walk(s: &'static Shape, seen: &mut Vec<usize>) {
        if seen.contains(&(s as *const Shape as usize)) {
            return;
        }
        seen.push(s as *const Shape as usize);
        match s {
            Shape::AnyOf(alts) => {
                let mut types: Vec<&str> = alts.iter().map(|a| top(a)).collect();
                let n = types.len();
                types.sort();
                types.dedup();
                assert_eq!(types.len(), n, "{s:?}");
                alts.iter().for_each(|a| walk(a, seen));
            }
            Shape::Named(d) => walk(&d.shape, seen),
            Shape::Array(x) | Shape::Map(x) => walk(x, seen),
            Shape::Object(f) => f.fields.iter().for_each(|f| walk(f.shape, seen)),
            Shape::Tagged { variants, .. } => variants.iter().for_each(|x| walk(x, seen)),
            _ => {}
        }
    }
    walk(&v1::WIRE, &mut Vec::new());
}
