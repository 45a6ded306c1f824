//! Data-driven contract tests: every decode fixture (`fixtures/session-inbox/{v0..v6,chain,walk}`)
//! and every encode fixture (`fixtures/session-inbox/{encode,encode-v6}`) for every target,
//! with its byte-frozen outputs (`artifacts/session-inbox/v<N>/encode`). The file name is the
//! case name.

mod common;

use common::{
    canon, cases, decode_expectation, encode_expectation, frozen_output, report, root, DECODE_DIRS, ENCODE_DIRS,
    TARGETS,
};
use hookwire::artifacts::{blessing, compare_or_bless};
use hookwire::session_inbox::encode::{encode, Target};
use hookwire::session_inbox::{decode, producer_version, REGISTRY, WIRE_VERSION};
use hookwire::{DecodeError, EncodeError, ErrorCode};
use serde_json::Value;

/// Whether a decode error matches an expected `{"code", "version"?, "path"?}`.
fn decode_error_matches(e: &DecodeError, err: &Value) -> Result<(), String> {
    if ErrorCode::parse(err["code"].as_str().unwrap_or("")) != Some(e.code) {
        return Err(format!("expected {}, got {:?} ({e})", err["code"], e.code));
    }
    if let Some(v) = err.get("version").and_then(Value::as_f64) {
        if e.version != Some(v) {
            return Err(format!("expected version {v}, got {:?}", e.version));
        }
    }
    if let Some(p) = err.get("path").and_then(Value::as_str) {
        if e.path() != p {
            return Err(format!("expected path {p}, got {:?}", e.path()));
        }
    }
    if e.code == ErrorCode::NewerVersion {
        let m = e.to_string();
        let found = canon(&err["version"]);
        if !(m.contains("newer") && m.contains(&found) && m.contains(&WIRE_VERSION.to_string())) {
            return Err(format!("message lacks 'newer' or the numbers: {m}"));
        }
    }
    Ok(())
}

#[test]
fn decode_fixtures() {
    let mut failures = Vec::new();
    for dir in DECODE_DIRS {
        for case in cases(dir) {
            let expected = decode_expectation(&case);
            let got = decode(&case.data["input"]);
            match (expected.get("expect"), expected.get("error"), got) {
                (Some(expect), None, Ok(v)) if canon(&v) == canon(expect) => {}
                (None, Some(err), Err(e)) => {
                    if let Err(why) = decode_error_matches(&e, err) {
                        failures.push(format!("{}: {why}", case.name));
                    }
                }
                (_, _, got) => failures.push(format!("{}: got {got:?}", case.name)),
            }
        }
    }
    report(failures);
}

/// Decode is idempotent on every unversioned value it decodes, and on every versioned value an
/// encoder could have written (one its version's frozen shape accepts): contract §4.5.
#[test]
fn decode_never_keeps_wire_only_fields_and_is_idempotent() {
    for dir in DECODE_DIRS {
        for case in cases(dir) {
            let input = &case.data["input"];
            if let Ok(d) = decode(input) {
                let m = d.as_object().unwrap();
                assert!(
                    !m.contains_key("version") && !m.contains_key("payload"),
                    "{}",
                    case.name
                );
                let encodable = match input.get("version").and_then(Value::as_u64) {
                    None | Some(0) => true,
                    Some(n) => producer_version(n as u32).validate(input).is_ok(),
                };
                if encodable {
                    assert_eq!(decode(&d).map(|x| canon(&x)), Ok(canon(&d)), "{}", case.name);
                }
            }
        }
    }
}

fn encode_error_matches(e: &EncodeError, err: &Value) -> bool {
    Some(e.code) == ErrorCode::parse(err["code"].as_str().unwrap_or(""))
        && err.get("path").is_none_or(|p| p.as_str() == Some(e.path.as_str()))
        && err
            .get("version")
            .is_none_or(|v| v.as_u64() == e.version.map(u64::from))
}

#[test]
fn encode_fixtures_and_frozen_bytes() {
    let (root, bless) = (root(), blessing());
    let mut failures = Vec::new();
    for dir in ENCODE_DIRS {
        for case in cases(dir) {
            let stem = case.name.rsplit('/').next().unwrap_or("");
            let command = &case.data["command"];
            for t in TARGETS {
                let target = Target::from_name(t).unwrap();
                let expected = encode_expectation(&case, t);
                let got = encode(command, target);
                let frozen = frozen_output(stem, t);
                match (&expected, got) {
                    (Err(err), Err(e)) if encode_error_matches(&e, err) => {}
                    (Err(err), other) => failures.push(format!("{} [{t}]: expected {err}, got {other:?}", case.name)),
                    (Ok(_), Err(e)) => failures.push(format!("{} [{t}]: {e}", case.name)),
                    (Ok(_), Ok(wire)) => {
                        let bytes = canon(&wire);
                        let rel = frozen.clone().unwrap_or_else(|| {
                            format!("artifacts/{}/v{WIRE_VERSION}/encode/{stem}.{t}.json", REGISTRY.name)
                        });
                        let version: u32 = rel
                            .split("/v")
                            .nth(1)
                            .and_then(|x| x.split('/').next()?.parse().ok())
                            .unwrap_or(WIRE_VERSION);
                        if let Err(e) = compare_or_bless(&root, &REGISTRY, version, &rel, &bytes, bless) {
                            failures.push(e);
                        }
                        let declared = wire.get("version").and_then(Value::as_u64);
                        if declared
                            != target.check().ok().and_then(|t| match t {
                                Target::Version(n) => Some(u64::from(n)),
                                Target::V0(_) => None,
                            })
                        {
                            failures.push(format!("{} [{t}]: output declares {declared:?}", case.name));
                        }
                    }
                }
                // Every frozen output, whoever wrote it, keeps decoding on this build.
                let Some(rel) = frozen else { continue };
                let wire: Value = serde_json::from_str(&std::fs::read_to_string(root.join(&rel)).unwrap()).unwrap();
                let want = match &expected {
                    Ok(v) => v.clone(),
                    Err(_) if *t == "v0-send" && case.data.get("decodedFromSend").is_some() => {
                        case.data["decodedFromSend"].clone()
                    }
                    Err(_) => case.data["decoded"].clone(),
                };
                match decode(&wire) {
                    Ok(d) if canon(&d) == canon(&want) => {
                        if decode(&d).map(|x| canon(&x)) != Ok(canon(&d)) {
                            failures.push(format!("{rel}: decode is not idempotent on {}", canon(&d)));
                        }
                    }
                    other => failures.push(format!("{rel}: decoded {other:?}, expected {}", canon(&want))),
                }
            }
        }
    }
    report(failures);
}

#[test]
fn every_frozen_output_has_its_case() {
    let names: Vec<String> = ENCODE_DIRS
        .iter()
        .flat_map(|d| cases(d))
        .map(|c| c.name.rsplit('/').next().unwrap_or("").to_string())
        .collect();
    for n in 1..=WIRE_VERSION {
        let dir = root().join(format!("artifacts/{}/v{n}/encode", REGISTRY.name));
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            let stem = file.split('.').next().unwrap_or("");
            assert!(names.iter().any(|n| n == stem), "{file} has no encode fixture");
        }
    }
}
