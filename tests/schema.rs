//! The frozen JSON Schema of every version: rendered from the same shape statics the encoder
//! validates with, compared byte for byte with the committed file, and checked to accept exactly
//! what the encoder accepts.

mod common;

use common::{cases, report, DECODE_DIRS, ENCODE_DIRS};
use hookwire::session_inbox::{build, ProducerVersion, PRODUCER};
use hookwire::shape::{named_defs, typescript, Shape};
use serde_json::Value;

fn rendered(p: &ProducerVersion) -> String {
    let mut s = serde_json::to_string_pretty(&(p.json_schema)()).unwrap();
    s.push('\n');
    s
}

#[test]
fn schema_declares_draft_2020_12_and_sorted_keys() {
    for p in PRODUCER {
        let text = rendered(p);
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["$schema"], "https://json-schema.org/draft/2020-12/schema");
        assert_eq!(v["$id"], p.schema_id);
        assert!(sorted(&v), "v{}", p.version);
    }
}

fn sorted(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.keys().zip(m.keys().skip(1)).all(|(a, b)| a < b) && m.values().all(sorted),
        Value::Array(a) => a.iter().all(sorted),
        _ => true,
    }
}

/// Every value the fixtures can build: the encoder's complete current values (before
/// validation), each walked down to every version, the frozen encoder outputs, and the decode
/// inputs, each restamped with every version.
fn candidates() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for dir in ENCODE_DIRS {
        for case in cases(dir) {
            if let Ok(built) = build::build(case.data["command"].clone()) {
                out.push((case.name.clone(), built));
            }
        }
    }
    for dir in DECODE_DIRS {
        for case in cases(dir) {
            let input = &case.data["input"];
            out.push((case.name.clone(), input.clone()));
            for p in PRODUCER {
                if let Value::Object(mut m) = input.clone() {
                    m.insert("version".into(), p.version.into());
                    out.push((format!("{} as v{}", case.name, p.version), Value::Object(m)));
                }
            }
        }
    }
    out
}

#[test]
fn each_schema_accepts_exactly_what_the_encoder_accepts() {
    let values = candidates();
    let mut failures = Vec::new();
    for p in PRODUCER {
        let schema = jsonschema::draft202012::new(&(p.json_schema)()).expect("the rendered schema compiles");
        let mut accepted = 0;
        for (name, value) in &values {
            let by_encoder = p.validate(value).is_ok();
            accepted += usize::from(by_encoder);
            if schema.is_valid(value) != by_encoder {
                failures.push(format!(
                    "v{} {name}: encoder says {by_encoder}, schema disagrees on {value}",
                    p.version
                ));
            }
        }
        assert!(
            accepted > 10,
            "v{}: the fixtures exercise too few valid values ({accepted})",
            p.version
        );
    }
    report(failures);
}

#[test]
fn named_shapes_have_unique_stable_identifiers() {
    // Within a version, names and identifiers are unique; across versions, one identifier
    // always names the same shape.
    let mut by_id: Vec<(&str, *const Shape)> = Vec::new();
    for p in PRODUCER {
        let defs = named_defs(p.wire);
        let mut ids: Vec<&str> = defs.iter().map(|d| d.id).collect();
        let mut names: Vec<&str> = defs.iter().map(|d| d.name).collect();
        assert!(ids.iter().all(|id| id.starts_with("SessionInbox.")));
        ids.sort();
        names.sort();
        let (n_ids, n_names) = (ids.len(), names.len());
        ids.dedup();
        names.dedup();
        assert_eq!(
            (ids.len(), names.len()),
            (n_ids, n_names),
            "duplicate identifiers in v{}",
            p.version
        );
        for d in defs {
            let shape = &d.shape as *const Shape;
            match by_id.iter().find(|(id, _)| *id == d.id) {
                Some((_, s)) => assert_eq!(*s, shape, "{} names two shapes", d.id),
                None => by_id.push((d.id, shape)),
            }
        }
    }
}

#[test]
fn no_accidental_any_in_any_shape() {
    // The places the contract declares as any JSON value (TaskV4 input requests).
    const DECLARED_JSON: &[&str] = &["InputRequest.request", "InputRequest.requests"];
    fn walk(s: &'static Shape, path: &str, out: &mut Vec<String>) {
        match s {
            Shape::Json if DECLARED_JSON.contains(&path) => {}
            Shape::Json => out.push(path.into()),
            Shape::Named(d) => walk(&d.shape, d.name, out),
            Shape::Array(x) | Shape::Map(x) | Shape::ExactlyOne { shape: x, .. } => walk(x, path, out),
            Shape::Object(f) => f
                .fields
                .iter()
                .for_each(|f| walk(f.shape, &format!("{path}.{}", f.name), out)),
            Shape::AnyOf(a) | Shape::Tagged { variants: a, .. } => a.iter().for_each(|x| walk(x, path, out)),
            _ => {}
        }
    }
    for p in PRODUCER {
        let mut anys = Vec::new();
        walk(p.wire, "", &mut anys);
        assert!(
            anys.is_empty(),
            "untyped JSON values in the v{} shape: {anys:?}",
            p.version
        );
        for d in named_defs(p.wire) {
            assert!(!typescript(&d.shape).contains("any"), "{} renders `any`", d.name);
        }
    }
}

#[test]
fn union_alternatives_differ_in_json_type() {
    // The validator picks an AnyOf alternative by JSON type; that is JSON Schema's anyOf only if
    // no two alternatives accept the same type (and the classifier reads anyOf as a union).
    fn top(s: &Shape) -> &'static str {
        match s {
            Shape::Named(d) => top(&d.shape),
            Shape::Str | Shape::Const(_) | Shape::Enum(_) => "string",
            Shape::Null => "null",
            Shape::Array(_) => "array",
            Shape::Number | Shape::Integer { .. } | Shape::ConstNumber(_) => "number",
            Shape::Bool => "boolean",
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
            Shape::Array(x) | Shape::Map(x) | Shape::ExactlyOne { shape: x, .. } => walk(x, seen),
            Shape::Object(f) => f.fields.iter().for_each(|f| walk(f.shape, seen)),
            Shape::Tagged { variants, .. } => variants.iter().for_each(|x| walk(x, seen)),
            _ => {}
        }
    }
    // Every family's shapes, each version's.
    for f in hookwire::FAMILIES {
        for p in f.producer {
            walk(p.wire, &mut Vec::new());
        }
    }
}
