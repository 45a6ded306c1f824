//! Executable invariants over arbitrary input, shared by the fuzz targets (`fuzz/`), their
//! regression tests (`tests/fuzz_regressions.rs`) and anyone who wants to check a value. Each
//! function takes raw bytes, interprets them as the target needs, and panics — the fuzzer's
//! signal — only when an invariant of `ARCHITECTURE.md` is broken. The checks here hold for every
//! family and take it as a parameter; a family's own invariants (its chain, its negotiation's
//! lookups, its round trip) sit in its folder (`invariants.rs`), and the fuzz targets run both.

use crate::family::{target_json, FamilyDesc};
use crate::ErrorCode;
use serde::Deserialize as _;
use serde_json::Value;

/// The codes a decoder may answer.
pub const DECODE_CODES: &[ErrorCode] = ErrorCode::DECODE;

/// JSON from fuzz bytes, bounded in depth (the CLI owns deep input; here the test harness
/// itself must not overflow).
pub fn json(bytes: &[u8]) -> Option<Value> {
    if bytes.len() > 1 << 16 {
        return None;
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let v = Value::deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(v)
}

/// Decode answers a decode code or a fresh object of one of the family's kinds without a
/// wire-only field, and is idempotent on every decodable unversioned value.
pub fn check_decode(f: &FamilyDesc, v: &Value) {
    match (f.decode)(v) {
        Err(e) => assert!(DECODE_CODES.contains(&e.code), "decode answered {:?}", e.code),
        Ok(out) => {
            let m = out.as_object().expect("decode returns an object");
            for key in f.wire_only {
                assert!(!m.contains_key(*key), "wire-only field {key} kept: {out}");
            }
            assert!(
                f.kinds
                    .iter()
                    .any(|k| Some(f.symbols[k.kind.0 as usize]) == m["kind"].as_str()),
                "not a kind of {}: {out}",
                f.name()
            );
            if v.get("version").is_none_or(|x| x.as_f64() == Some(0.0)) {
                assert_eq!(
                    (f.decode)(&out).ok().as_ref(),
                    Some(&out),
                    "decode is not idempotent on {v}"
                );
            }
        }
    }
}

/// Encode for a target answers `{"ok": wire}` or `{"error": …}` and nothing else: a refusal is
/// `UNSUPPORTED_TARGET`, or `INVALID` / `INCOMPATIBLE` at a JSON pointer; a written value is
/// accepted by its version's frozen shape, declares that version, and decodes (idempotently, in
/// a family with an unversioned era).
/// Answers the wire value, if one was written.
pub fn check_encode_for(f: &FamilyDesc, command: &Value, target: &Value) -> Option<Value> {
    let answer = (f.encode)(command.clone(), target).to_json();
    // The answer as text (`encode --lines`) is the answer's canonical text: the JS encoder runs
    // `encode`, the CLI `encode_text`.
    let mut text = String::new();
    (f.encode_text)(command, target, &mut text);
    assert_eq!(
        text,
        crate::canonical::to_string(&answer),
        "encode_text differs from encode"
    );
    // A wire value given to a sink (the JS encoder's answer tape) member by member, for the
    // target read once (its index in `targets`: the JSON of the target named there reads to it
    // again), is the same value, its keys in canonical order: its canonical text again.
    let mut sink = crate::canonical::TextSink::default();
    let to_sink = match (f.read_target)(target) {
        Ok(t) => {
            let named = f.targets.get(t).map(|name| (f.read_target)(&target_json(name)).ok());
            assert_eq!(
                named,
                Some(Some(t)),
                "read_target answered {t} for {target}, not its index in targets"
            );
            (f.encode_to)(&mut command.clone(), t, &mut sink)
        }
        Err(e) => Some(crate::Answer::Refused(e)),
    };
    let via_sink = match to_sink {
        None => format!("{{\"ok\":{}}}", sink.out),
        Some(other) => {
            assert!(sink.out.is_empty(), "encode_to gave a sink a value and answered too");
            crate::canonical::to_string(&other.to_json())
        }
    };
    assert_eq!(via_sink, text, "encode_to differs from encode");
    let m = answer.as_object().expect("an answer is an object");
    assert_eq!(m.len(), 1, "one of ok | error: {answer}");
    if let Some(e) = m.get("error") {
        let code = e["code"].as_str().and_then(ErrorCode::parse);
        assert!(
            matches!(
                code,
                Some(ErrorCode::Invalid | ErrorCode::Incompatible | ErrorCode::UnsupportedTarget)
            ),
            "encode answered {e}"
        );
        if let Some(path) = e.get("path") {
            let path = path.as_str().expect("a path is a string");
            assert!(path.is_empty() || path.starts_with('/'), "not a JSON pointer: {path}");
        }
        return None;
    }
    let wire = m.get("ok").expect("ok or error").clone();
    if let Some(n) = target.get("version").and_then(Value::as_u64).filter(|n| *n >= 1) {
        let version = f.version(n as u32).expect("a target it wrote for is a version it has");
        assert!(
            version.validate(&wire).is_ok(),
            "the encoder wrote an invalid v{n} value: {wire}"
        );
        assert_eq!(wire["version"], n);
    }
    let decoded = (f.decode)(&wire).unwrap_or_else(|e| panic!("encoder output does not decode ({e}): {wire}"));
    // A decoded value has no `version`: it decodes again only in a family with an unversioned era.
    if f.registry.initial.is_some() {
        assert_eq!(
            (f.decode)(&decoded).ok().as_ref(),
            Some(&decoded),
            "not idempotent: {decoded}"
        );
    }
    Some(wire)
}

/// [`check_encode_for`] on `{"command", "target"}`, or on the value as a command for every
/// target the family has.
pub fn check_encode(f: &FamilyDesc, v: &Value) {
    match (v.get("command"), v.get("target")) {
        (Some(c), Some(t)) => {
            check_encode_for(f, c, t);
        }
        _ => {
            for name in f.targets {
                check_encode_for(f, v, &target_json(name));
            }
        }
    }
}

/// One `negotiate --lines` request answers `{"ok": {"target": …}}` with a target at most the
/// ceiling, or `{"error": {"code", …}}` with a stable code; never both, never anything else.
pub fn check_negotiate(f: &FamilyDesc, request: &Value) {
    for ceiling in [1, f.registry.current] {
        let answer = (f.negotiate)(request, ceiling);
        let m = answer.as_object().expect("an answer is an object");
        assert_eq!(m.len(), 1, "one of ok | error: {answer}");
        match (m.get("ok"), m.get("error")) {
            (Some(ok), None) => {
                let version = ok["target"]["version"].as_u64().expect("a target has a version");
                assert!(version <= u64::from(ceiling), "{answer} above the ceiling {ceiling}");
            }
            (None, Some(e)) => {
                let code = e["code"].as_str().expect("a code");
                assert!(
                    ErrorCode::parse(code).is_some() || crate::Transport::parse(code).is_some(),
                    "not a stable code: {code}"
                );
            }
            _ => panic!("one of ok | error: {answer}"),
        }
    }
}

/// Every family-generic invariant on one input: decode, encode (as a command for every target,
/// or as `{"command", "target"}`), and negotiation (as a request and as capabilities).
pub fn check_family(f: &FamilyDesc, bytes: &[u8]) {
    let Some(v) = json(bytes) else { return };
    check_decode(f, &v);
    check_encode(f, &v);
    check_negotiate(f, &v);
}
