//! Executable invariants over arbitrary input, shared by the fuzz targets (`fuzz/`), their
//! regression tests (`tests/fuzz_regressions.rs`) and anyone who wants to check a value. Each
//! function takes raw bytes, interprets them as the target needs, and panics — the fuzzer's
//! signal — only when an invariant of `ARCHITECTURE.md` is broken.

use crate::chain::{self, Chain, Walked};
use crate::json::JsonHost;
use crate::session_inbox::encode::{encode, Target};
use crate::session_inbox::target::{negotiate, Destination, Hook, Options, ReceiverAddress};
use crate::session_inbox::{self, decode, symbols::SYMBOLS, WIRE_VERSION};
use crate::ErrorCode;
use serde::Deserialize as _;
use serde_json::Value;

const DECODE_CODES: &[ErrorCode] = ErrorCode::DECODE;

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

/// Decode answers with a decode code or a normalized value without wire-only fields, and is
/// idempotent on every decodable unversioned value.
pub fn check_decode(bytes: &[u8]) {
    let Some(v) = json(bytes) else { return };
    match decode(&v) {
        Err(e) => assert!(DECODE_CODES.contains(&e.code), "decode answered {:?}", e.code),
        Ok(out) => {
            let m = out.as_object().expect("decode returns an object");
            assert!(
                !m.contains_key("version") && !m.contains_key("payload"),
                "wire-only field kept: {out}"
            );
            assert!(session_inbox::KINDS
                .iter()
                .any(|k| Some(SYMBOLS[k.kind.0 as usize]) == m["kind"].as_str()));
            let unversioned = v.get("version").is_none_or(|x| x.as_f64() == Some(0.0));
            if unversioned {
                assert_eq!(
                    decode(&out).ok().as_ref(),
                    Some(&out),
                    "decode is not idempotent on {v}"
                );
            }
        }
    }
}

/// Encode either fails with INVALID (at a JSON pointer) or yields a value that the v1
/// validator accepts (v1 target) and that decodes, idempotently.
pub fn check_encode(bytes: &[u8]) {
    let Some(v) = json(bytes) else { return };
    let (command, targets): (&Value, Vec<Target>) = match (v.get("command"), v.get("target")) {
        (Some(c), Some(t)) => match Target::from_json(t) {
            Ok(t) => (c, vec![t]),
            Err(e) => return assert_eq!(e.code, ErrorCode::UnsupportedTarget),
        },
        _ => (&v, Target::all()),
    };
    for target in targets {
        match encode(command, target) {
            Err(e) => {
                assert!(matches!(e.code, ErrorCode::Invalid | ErrorCode::Incompatible), "{e}");
                assert!(
                    e.path.is_empty() || e.path.starts_with('/'),
                    "not a JSON pointer: {}",
                    e.path
                );
            }
            Ok(wire) => {
                if let Target::Version(n) = target {
                    assert!(
                        session_inbox::producer_version(n).validate(&wire).is_ok(),
                        "the encoder wrote an invalid v{n} value: {wire}"
                    );
                    assert_eq!(wire["version"], n);
                }
                let decoded = decode(&wire).unwrap_or_else(|e| panic!("encoder output does not decode ({e}): {wire}"));
                assert_eq!(
                    decode(&decoded).ok().as_ref(),
                    Some(&decoded),
                    "not idempotent: {decoded}"
                );
            }
        }
    }
}

/// The chain leaves a value declaring exactly the current version (or the input itself, when
/// it declares a version from which only pure bumps lead to the current one), or refuses it.
pub fn check_chain(bytes: &[u8]) {
    let Some(v) = json(bytes) else { return };
    let steps = session_inbox::steps::<JsonHost>();
    let chain = Chain {
        current: WIRE_VERSION,
        initial: Some(0),
        steps: &steps,
        declared: Some(session_inbox::declared::check::<JsonHost>),
    };
    match chain::run(&mut JsonHost::new(SYMBOLS), &chain, &v) {
        Ok(Walked::Current) => {
            let declared = v["version"].as_f64().unwrap_or(0.0);
            assert!((1.0..=f64::from(WIRE_VERSION)).contains(&declared), "{v}");
        }
        Ok(Walked::Migrated(out)) => assert_eq!(out["version"], WIRE_VERSION),
        Err(e) => assert!(
            DECODE_CODES.contains(&e.code) && e.code != ErrorCode::Migration,
            "{e:?} on {v}"
        ),
    }
}

/// Negotiation makes at most two lookups, resumes an inspected hook when it made any, and
/// answers RUN_MISMATCH only when the stable inbox belongs to another run.
pub fn check_negotiate(bytes: &[u8]) {
    let Some(v) = json(bytes) else { return };
    let hooks: Vec<Hook> = v["hooks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|h| {
            Some(Hook {
                token: h.get("token")?.as_str()?.into(),
                run_id: h.get("runId")?.as_str()?.into(),
                metadata: h.get("metadata").cloned(),
            })
        })
        .collect();
    let dest = match (&v["token"], &v["address"]) {
        (Value::String(t), _) => Destination::Token(t.clone()),
        (_, Value::Object(a)) => Destination::Address(ReceiverAddress {
            session_id: a.get("sessionId").and_then(Value::as_str).unwrap_or("").into(),
            version: a.get("version").and_then(Value::as_f64).unwrap_or(0.0),
        }),
        _ => return,
    };
    let mut calls = 0;
    let result = negotiate(&v["command"], &dest, &Options::default(), |token: &str| {
        calls += 1;
        Ok::<_, String>(hooks.iter().find(|h| h.token == token).cloned())
    });
    assert!(calls <= 2);
    match result {
        Ok(n) => {
            assert_eq!(n.lookups, calls);
            assert!(n.target.check().is_ok());
        }
        Err(e) => assert!(matches!(
            e.code(),
            ErrorCode::UnsupportedTarget | ErrorCode::RunMismatch | ErrorCode::HookNotFound
        )),
    }
}

/// Turn control: decode answers a decode code or a normalized value of a known kind without
/// `version`, idempotent on unversioned values; encode for every target either refuses with
/// `INVALID` at a pointer or writes a value its version's shape accepts and that decodes to the
/// command; negotiation from any capabilities answers `{version: 0 | 1}` or `UNSUPPORTED_TARGET`.
pub fn check_turn_control(bytes: &[u8]) {
    use crate::turn_control::{self as tc, encode::encode as tc_encode, target::negotiate as tc_negotiate};
    let Some(v) = json(bytes) else { return };
    match tc::decode(&v) {
        Err(e) => assert!(DECODE_CODES.contains(&e.code), "decode answered {:?}", e.code),
        Ok(out) => {
            let m = out.as_object().expect("decode returns an object");
            assert!(!m.contains_key("version"), "version kept: {out}");
            assert!(tc::KINDS
                .iter()
                .any(|k| Some(tc::symbols::SYMBOLS[k.kind.0 as usize]) == m["kind"].as_str()));
            if v.get("version").is_none_or(|x| x.as_f64() == Some(0.0)) {
                assert_eq!(tc::decode(&out).ok().as_ref(), Some(&out), "not idempotent on {v}");
            }
        }
    }
    for target in 0..=tc::WIRE_VERSION {
        match tc_encode(v.clone(), target) {
            Err(e) => assert!(
                e.code == ErrorCode::Invalid && (e.path.is_empty() || e.path.starts_with('/')),
                "{e}"
            ),
            Ok(wire) => {
                if target >= 1 {
                    assert!(tc::v1::validate(&wire).is_ok(), "invalid v1 written: {wire}");
                }
                let decoded = tc::decode(&wire).unwrap_or_else(|e| panic!("{e} on {wire}"));
                let mut command = v.clone();
                if let Value::Object(c) = &mut command {
                    c.retain(|k, _| k != "version");
                }
                assert_eq!(Ok(decoded), tc::decode(&command), "the round trip changed {v}");
            }
        }
    }
    match tc_negotiate(&v, tc::WIRE_VERSION) {
        Ok(n) => assert!(n <= tc::WIRE_VERSION),
        Err(e) => assert_eq!(e.code, ErrorCode::UnsupportedTarget),
    }
}
